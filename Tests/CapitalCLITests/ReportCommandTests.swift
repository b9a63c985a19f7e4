import Foundation
import FoundationXML
import Testing

/// `capital report`: one well-formed, self-contained HTML page whose numbers are the CLI's own
/// answers (`can-spend`, `forecast`, `due list`, the ladder, `when`, `scenario eval`), checked by
/// parsing the page and comparing it with their JSON.
@Suite("CLI: report")
struct ReportCommandTests {
    static let sample = ["-f", "samples/household.yaml", "--today", "2025-04-01"]

    /// The page of `args`, parsed.
    static func page(_ cli: CLI, _ args: [String] = []) throws -> (text: String, document: XMLDocument) {
        let text = cli.ok(sample + ["report"] + args)
        return (text, try XMLDocument(data: Data(text.utf8), options: []))
    }

    static func elements(_ document: XMLDocument, _ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    static func attribute(_ element: XMLElement?, _ name: String) -> String? { element?.attribute(forName: name)?.stringValue }

    /// The `data-value` of each cell of a table's body, row by row (nil where a cell has none).
    static func table(_ document: XMLDocument, _ id: String) throws -> [[XMLElement]] {
        try elements(document, "//table[@id='\(id)']/tbody/tr").map { row in
            (row.children ?? []).compactMap { $0 as? XMLElement }
        }
    }

    static func value(_ cell: XMLElement) -> String? {
        attribute(cell.elements(forName: "span").first, "data-value")
    }

    /// Numbers as the page writes them: grouped with no-break spaces.
    static func grouped(_ plain: String) -> String {
        let negative = plain.hasPrefix("-")
        let digits = negative ? String(plain.dropFirst()) : plain
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        var integer = String(parts[0])
        var groups: [String] = []
        while integer.count > 3 {
            groups.insert(String(integer.suffix(3)), at: 0)
            integer.removeLast(3)
        }
        groups.insert(integer, at: 0)
        return (negative ? "-" : "") + groups.joined(separator: "\u{A0}") + (parts.count > 1 ? "." + parts[1] : "")
    }

    @Test func thePageIsWellFormedAndNamesNothingOutsideItself() throws {
        let cli = try CLI()
        let (text, document) = try Self.page(cli)
        #expect(text.hasPrefix("<!DOCTYPE html>"))
        for reference in ["http", "//", "@import", "src=", "href=", "url(", "<link", "<img", "<iframe"] {
            #expect(!text.contains(reference), "the page contains \(reference)")
        }
        // Every chart has a title and a description, and is followed by the table of its numbers.
        let charts = try Self.elements(document, "//svg[contains(@class,'chart')]")
        #expect(charts.count == 1)
        for chart in charts {
            #expect(chart.elements(forName: "title").first?.stringValue?.isEmpty == false)
            #expect(chart.elements(forName: "desc").first?.stringValue?.isEmpty == false)
        }
        #expect(try Self.elements(document, "//section[figure]/details/div/table[@id='forecast-table']").count == 1)
        // Every small chart says its numbers in words.
        for spark in try Self.elements(document, "//svg[@class='spark']") {
            #expect((Self.attribute(spark, "aria-label") ?? "").contains(" today, "))
        }
        // The page states what it was made with.
        let meta = try #require(try Self.elements(document, "//p[@class='meta']").first?.stringValue)
        for part in ["samples/household.yaml", "today 2025-04-01", "horizon 2026-04-01", "level 4 (forecast)", "pessimistic"] {
            #expect(meta.contains(part), "\(meta)")
        }
        #expect(Self.attribute(try Self.elements(document, "/html").first, "data-theme") == "auto")
        #expect(text.contains("prefers-color-scheme:dark"))
    }

    @Test func theHeadlineIsCanSpendWhyAndWhen() throws {
        let cli = try CLI()
        let (_, document) = try Self.page(cli)
        let answer = try #require(try cli.json(Self.sample + ["can-spend", "--why"]) as? [String: Any])
        let canSpend = try #require(try Self.elements(document, "//*[@id='can-spend']").first)
        #expect(Self.attribute(canSpend, "data-value") == answer["amount"] as? String)
        #expect(canSpend.stringValue == Self.grouped(answer["amount"] as! String) + " RUB")
        #expect(try Self.elements(document, "//*[@id='binding-day']").first?.stringValue == answer["bindingDay"] as? String)
        #expect(Self.attribute(try Self.elements(document, "//*[@id='binding-balance']").first, "data-value") == answer["bindingBalance"] as? String)
        #expect(Self.attribute(try Self.elements(document, "//*[@id='floor']").first, "data-value") == answer["floor"] as? String)
        // The drivers, in order, with their amounts.
        let drivers = try #require(answer["drivers"] as? [[String: Any]])
        let items = try Self.elements(document, "//ul[@class='why']/li")
        #expect(items.count == drivers.count)
        for (item, driver) in zip(items, drivers) {
            #expect(item.stringValue?.hasPrefix(driver["label"] as! String) == true)
            #expect(Self.attribute(item.elements(forName: "span").first, "data-value") == driver["amount"] as? String)
        }
        // Each amount's day is `when`'s.
        let affordable = try Self.elements(document, "//ul[@class='affordable']/li")
        #expect(affordable.count == 4)
        for item in affordable {
            let amount = try #require(Self.attribute(item.elements(forName: "span").first, "data-value"))
            let when = try #require(try cli.json(Self.sample + ["when", amount]) as? [String: Any])
            let day = Self.attribute(item.elements(forName: "strong").first, "data-day")
            #expect(day == when["day"] as? String, "when \(amount)")
        }
    }

    @Test func theChartsTableIsTheForecastByMonth() throws {
        let cli = try CLI()
        let (_, document) = try Self.page(cli)
        // The chart is level 4's pool: the level less the card, a constraint of its own (its
        // accounts as a group, on the sample imported).
        let household = try CLI.household()
        household.ok(["group", "add", "Pool", "--type", "cash-flow", "--account", "VTB Debit", "--account", "Cash", "--account", "Euro Card"])
        let forecast = try #require(
            try household.json(["--today", "2025-04-01", "forecast", "--by", "month", "--group", "Pool"]) as? [String: Any])
        let periods = try #require(forecast["periods"] as? [[String: Any]])
        let rows = try Self.table(document, "forecast-table")
        #expect(rows.count == periods.count)
        for (row, period) in zip(rows, periods) {
            // The sample's euro card is valued into level 4: the table has the forecast's Rates column.
            let keys = ["opening", "inflow", "outflow", "revaluation", "closing", "min"]
            #expect(period["revaluation"] != nil)
            #expect(row.dropFirst().prefix(keys.count).map(Self.value) == keys.map { period[$0] as? String }, "\(period)")
            #expect(row[keys.count + 1].stringValue == period["minDay"] as? String)
        }
        // The binding day is marked on the chart with its balance.
        let binding = try #require(try Self.elements(document, "//*[@class='binding']").first)
        let answer = try #require(try cli.json(Self.sample + ["can-spend"]) as? [String: Any])
        #expect(Self.attribute(binding, "data-day") == answer["bindingDay"] as? String)
        #expect(Self.attribute(binding, "data-balance") == answer["bindingBalance"] as? String)
    }

    /// Issue 19: the page says, as `can-spend --why` does, at what rate each account in another
    /// currency counts on the binding day, and when the rates it values with are more than a week old.
    @Test func accountsInOtherCurrenciesAreNamedWithTheirRates() throws {
        let cli = try CLI()
        for (today, stale) in [("2025-04-01", false), ("2025-06-01", true)] {
            let args = ["-f", "samples/household.yaml", "--today", today]
            let result = cli.run(args + ["report", "--level", "5"])
            #expect(result.status == 0)
            let document = try XMLDocument(data: Data(result.stdout.utf8), options: [])
            let why = try #require(try cli.json(args + ["can-spend", "--level", "5", "--why"]) as? [String: Any])
            let effects = try #require(why["currencies"] as? [[String: Any]])
            let items = try Self.elements(document, "//ul[@id='currencies']/li")
            #expect(items.count == effects.count && effects.count == 2)
            for (item, effect) in zip(items, effects) {
                let text = item.stringValue ?? ""
                let account = try #require(effect.string("account"))
                let rate = try #require(effect.string("rate"))
                #expect(text.hasPrefix("\(account) ") && text.contains(" at \(rate) ("), "\(text)")
                #expect(Self.value(item) == effect.string("value"), "\(text)")
            }
            let note = try Self.elements(document, "//p[@id='stale-rates']")
            #expect(note.count == (stale ? 1 : 0))
            #expect(result.stderr.split(separator: "\n").contains { CLI.isStaleRateNote($0) } == stale, "\(result.stderr)")
            // So do the other answers that write no JSON envelope: a batch of scenarios, the SVG chart.
            for other in [["scenario", "eval", "samples/cars.csv", "--format", "csv"], ["forecast", "--chart", "svg"]] {
                let answer = cli.run(args + other)
                #expect(
                    answer.status == 0 && answer.stderr.split(separator: "\n").contains { CLI.isStaleRateNote($0) } == stale,
                    "\(other): \(answer.stderr)")
            }
            if stale {
                let text = note.first?.stringValue ?? ""
                #expect(
                    text.contains("EUR at 91.2 of 2025-03-31 (62 days old)") && text.contains("USD at 84.4 of 2025-03-31 (62 days old)"), "\(text)")
                #expect((why["staleRates"] as? [[String: Any]])?.count == 2)
            }
        }
    }

    /// The headline says how to pay, as can-spend's split does.
    @Test func theHeadlineSaysHowToPay() throws {
        let cli = try CLI()
        let (_, document) = try Self.page(cli)
        let pay = try #require(try Self.elements(document, "//p[@id='pay-with']").first)
        // The page groups digits with no-break spaces.
        #expect(pay.stringValue?.replacingOccurrences(of: "\u{A0}", with: " ") == "Pay with: 24 302.94 from VTB Debit, 62 500.00 on Tinkoff Card.")
        #expect(cli.ok(Self.sample + ["can-spend"]).contains("Pay with: 24 302.94 from VTB Debit, 62 500.00 on Tinkoff Card."))
        #expect(try Self.elements(document, "//p[@id='top-up']").isEmpty)
    }

    @Test func theLadderDuesAndExpectedFlowsAreTheListsAnswers() throws {
        let cli = try CLI()
        let (_, document) = try Self.page(cli)
        let levels = try cli.rows(Self.sample + ["can-spend", "--all-levels"])
        let ladder = try Self.table(document, "ladder-table")
        #expect(ladder.count == 6)
        for (row, level) in zip(ladder, levels) {
            #expect(row[0].stringValue == String(level["level"] as! Int))
            #expect(Self.value(row[4]) == level["amount"] as? String)
            #expect(Self.value(row[5]) == level["floor"] as? String)
        }
        let dues = try cli.rows(Self.sample + ["due", "list"])
        let rows = try Self.table(document, "dues-table")
        #expect(rows.map { $0[0].stringValue } == dues.map { String($0["id"] as! Int) })
        #expect(rows.map { Self.value($0[5]) } == dues.map { $0["left"] as? String })
        // The overdue fine comes first, highlighted, in both.
        #expect(try Self.elements(document, "//table[@id='dues-table']/tbody/tr[1]").first.flatMap { Self.attribute($0, "class") } == "overdue")
        // The next 30 days: the open flows `expected list` gives, overdue first.
        let overdue = try cli.rows(Self.sample + ["expected", "list", "--overdue"])
        let ahead = try cli.rows(Self.sample + ["expected", "list", "--open", "--from", "2025-04-01", "--until", "2025-05-01"])
        let upcoming = try Self.table(document, "upcoming-table")
        #expect(upcoming.count == overdue.count + ahead.count)
        #expect(upcoming.map { $0[1].stringValue } == (overdue + ahead).map { $0["payee"] as? String })
        let highlighted = try Self.elements(document, "//table[@id='upcoming-table']/tbody/tr[@class='overdue']")
        #expect(highlighted.count == overdue.count && !overdue.isEmpty)
    }

    @Test func scenariosAreRankedAsEvalSortsThem() throws {
        let cli = try CLI()
        let (_, document) = try Self.page(cli, ["--scenarios", "samples/cars.csv"])
        let ranked = try cli.rows(Self.sample + ["scenario", "eval", "samples/cars.csv", "--sort", "worst-balance"])
        let rows = try Self.table(document, "scenarios-table")
        #expect(rows.count == ranked.count && rows.count > 3)
        #expect(rows.map { $0[1].stringValue } == ranked.map { $0["name"] as? String })
        #expect(rows.map { Self.value($0[4]) } == ranked.map { $0["worstBalance"] as? String })
        #expect(rows.map { Self.value($0[7]) } == ranked.map { $0["maxPrice"] as? String })
    }

    @Test func hiddenAmountsAreHiddenEverywhere() throws {
        let cli = try CLI()
        let (text, document) = try Self.page(cli, ["--hide-amounts"])
        #expect(!text.contains("data-value") && !text.contains("data-balance") && !text.contains("<script"))
        // No amount of the answers appears, in any form: grouped, plain or as an axis label.
        let answer = try #require(try cli.json(Self.sample + ["can-spend", "--why"]) as? [String: Any])
        let forecast = try #require(try cli.json(Self.sample + ["forecast"]) as? [String: Any])
        var amounts = ["amount", "bindingBalance", "floor"].compactMap { answer[$0] as? String }
        for period in forecast["periods"] as! [[String: Any]] { amounts += ["opening", "closing", "min"].compactMap { period[$0] as? String } }
        for amount in amounts where amount != "0.00" {
            #expect(!text.contains(Self.grouped(amount)) && !text.contains(amount), "\(amount) shows")
        }
        #expect(try Self.elements(document, "//g[contains(@class,'axis') and contains(@class,'y')]/text").allSatisfy { $0.stringValue == "" })
        #expect(text.contains("***"))
    }

    @Test func aThirtyYearChartIsOnePixelAColumnAndKeepsTheLowestDay() throws {
        let cli = try CLI()
        let ledger = cli.path("thirty.yaml")
        cli.ok(["sample", "generate", "--rules", "40", "--years", "30", "--out", ledger])
        let text = cli.ok(["-f", ledger, "--today", "2025-01-01", "report", "--until", "+30y"])
        #expect(text.utf8.count < 2_000_000)
        let document = try XMLDocument(data: Data(text.utf8), options: [])
        let line = try #require(try Self.elements(document, "//polyline[@class='line']").first)
        let points = (Self.attribute(line, "points") ?? "").split(separator: " ").map { $0.split(separator: ",").map { Double($0)! } }
        #expect(points.count > 876 && points.count <= 2 * 876, "\(points.count) points for 10 958 days")
        // The binding day is the lowest point of the line, drawn where the line passes.
        let circle = try #require(try Self.elements(document, "//g[@class='binding']/circle").first)
        let x = try #require(Double(Self.attribute(circle, "cx") ?? ""))
        let y = try #require(Double(Self.attribute(circle, "cy") ?? ""))
        #expect(points.map { $0[1] }.max() == y)
        #expect(points.contains { $0 == [x, y] })
        let answer = try #require(try cli.json(["-f", ledger, "--today", "2025-01-01", "can-spend", "--until", "+30y"]) as? [String: Any])
        #expect(Self.attribute(try Self.elements(document, "//g[@class='binding']").first, "data-balance") == answer["bindingBalance"] as? String)
    }

    @Test func themesAreChosenOrRefused() throws {
        let cli = try CLI()
        for theme in ["light", "dark"] {
            let (text, document) = try Self.page(cli, ["--theme", theme])
            #expect(Self.attribute(try Self.elements(document, "/html").first, "data-theme") == theme)
            #expect(!text.contains("prefers-color-scheme"))
            #expect(text.contains("color-scheme:\(theme)"))
        }
        cli.fails(Self.sample + ["report", "--theme", "blue"], mentioning: ["--theme", "blue", "auto, light or dark"])
        cli.fails(Self.sample + ["report", "--format", "json"], mentioning: ["--format", "json", "HTML"])
    }

    @Test func badScenarioFilesGiveScenarioEvalsErrorAndWriteNothing() throws {
        let cli = try CLI()
        let bad = cli.path("bad.csv")
        try "name,price,date\nok,1000,2025-05-01\nbad,abc,2025-05-01\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let out = cli.path("report.html")
        let eval = cli.run(Self.sample + ["scenario", "eval", bad])
        let reason = try #require(eval.stderrLines.first.map { $0.replacingOccurrences(of: "capital: error: ", with: "") })
        cli.fails(Self.sample + ["report", "--scenarios", bad, "--out", out], mentioning: ["--scenarios", bad, reason])
        cli.fails(Self.sample + ["report", "--scenarios", cli.path("none.csv"), "--out", out], mentioning: ["--scenarios", "no such file"])
        try "".write(toFile: bad, atomically: true, encoding: .utf8)
        cli.fails(Self.sample + ["report", "--scenarios", bad, "--out", out], mentioning: ["--scenarios", "empty"])
        cli.fails(Self.sample + ["report", "--scenarios", bad, "--level", "2"], mentioning: ["--level", "2"])
        cli.fails(Self.sample + ["report", "--level", "7"], mentioning: ["--level", "7"])
        cli.fails(Self.sample + ["report", "--out", "samples/household.yaml", "--force"], mentioning: ["--out", "the ledger this command reads"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aDatabaseReportNamesTheDatabase() throws {
        let cli = try CLI.household()
        let text = cli.ok(["--today", "2025-04-01", "report", "--expected", "--level", "5"])
        #expect(text.contains("Ledger \(cli.db)"))
        #expect(text.contains("level 5 (liquid)") && text.contains("expected values"))
    }
}

/// `forecast --chart svg`: the balance chart alone, an SVG file a browser shows as it is.
@Suite("CLI: forecast --chart svg")
struct ForecastSVGTests {
    @Test func theChartIsAStandaloneSVG() throws {
        let cli = try CLI()
        let text = cli.ok(ReportCommandTests.sample + ["forecast", "--chart", "svg"])
        #expect(text.hasPrefix("<?xml"))
        let document = try XMLDocument(data: Data(text.utf8), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "svg" && root.uri == "http://www.w3.org/2000/svg")
        #expect(root.elements(forName: "title").first?.stringValue?.contains("level 4 (forecast)") == true)
        let answer = try #require(try cli.json(ReportCommandTests.sample + ["forecast", "--by", "day"]) as? [String: Any])
        let lowest = (answer["periods"] as! [[String: Any]]).min { Double($0["min"] as! String)! < Double($1["min"] as! String)! }!
        #expect(text.contains("data-balance=\"\(lowest["min"] as! String)\""))
        // To a file, for embedding; an account's chart too.
        let file = cli.path("balance.svg")
        cli.ok(ReportCommandTests.sample + ["forecast", "--account", "Cash", "--chart", "svg", "--out", file])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("account Cash"))
    }

    @Test func otherChartsAndStrayArgumentsAreRefused() throws {
        let cli = try CLI()
        cli.fails(ReportCommandTests.sample + ["forecast", "--chart", "png"], mentioning: ["--chart", "png", "svg"])
        cli.fails(ReportCommandTests.sample + ["forecast", "svg"], mentioning: ["svg", "--chart svg"])
        cli.fails(ReportCommandTests.sample + ["forecast", "--chart", "svg", "--format", "csv"], mentioning: ["--format", "csv", "SVG"])
        cli.fails(ReportCommandTests.sample + ["forecast", "--out", cli.path("x.svg")], mentioning: ["--out", "--chart svg"])
    }
}
