import Foundation
import Testing

/// `forecast`, `can-spend`, `when` and the account and group outlook on the household sample,
/// checked against `HouseholdForecast` (plain loops over every day, no capital code), with the
/// sample's outputs pinned as golden files.
@Suite("CLI: forecast, can-spend and when")
struct ForecastCommandTests {
    static func reference() throws -> HouseholdForecast { try HouseholdForecast.shared.get() }

    /// The sample as a read-only ledger file, on the day its outputs are pinned to.
    static func sample(_ args: [String]) -> [String] {
        ["-f", "samples/household.yaml", "--today", HouseholdForecast.today] + args
    }

    /// The same on a copy of the imported sample: a database opens in a third of the time a ledger file takes to read.
    static func dated(_ args: [String], today: String = HouseholdForecast.today) -> [String] { ["--today", today] + args }

    static func object(_ cli: CLI, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try cli.json(args, sourceLocation: sourceLocation) as? [String: Any], sourceLocation: sourceLocation)
    }

    static func minor(_ object: [String: Any], _ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let text = try #require(object.string(key), "\(key) is not a string in \(object)", sourceLocation: sourceLocation)
        return try #require(minorUnits(text), "\(key): \(text) is not a decimal amount", sourceLocation: sourceLocation)
    }

    // MARK: Golden outputs

    struct Golden: Sendable, CustomTestStringConvertible {
        var args: [String]
        var fixture: String
        var testDescription: String { args.joined(separator: " ") }
    }

    static let goldens: [Golden] = [
        Golden(args: ["forecast", "--until", "2026-03"], fixture: "forecast-household"),
        Golden(args: ["forecast", "--by", "week", "--days", "35"], fixture: "forecast-household-weeks"),
        Golden(args: ["can-spend", "--why"], fixture: "can-spend-household"),
        Golden(args: ["can-spend", "--all-levels"], fixture: "can-spend-household-levels"),
        Golden(args: ["when", "300000"], fixture: "when-household"),
    ]

    static func fixture(_ name: String) throws -> String {
        let path = CLI.root.appendingPathComponent("Tests/Fixtures/\(name)").path
        return String(decoding: try #require(FileManager.default.contents(atPath: path), "no fixture \(path)"), as: UTF8.self)
    }

    /// Regenerate with `capital -f samples/household.yaml --today 2025-04-01 ARGS [--format json] > Tests/Fixtures/NAME.txt|json`,
    /// after the brute-force tests below agree with the new numbers.
    @Test(arguments: goldens)
    func tableMatchesTheGoldenFile(_ golden: Golden) throws {
        let cli = try CLI()
        #expect(cli.ok(Self.sample(golden.args)) == (try Self.fixture("\(golden.fixture).txt")))
    }

    @Test(arguments: goldens)
    func jsonMatchesTheGoldenFile(_ golden: Golden) throws {
        let cli = try CLI()
        #expect(cli.ok(Self.sample(golden.args + ["--format", "json"])) == (try Self.fixture("\(golden.fixture).json")))
    }

    // MARK: forecast against the brute force

    struct ForecastCheck: Sendable, CustomTestStringConvertible {
        enum Scope: Sendable {
            case level(Int)
            case account(String)
            case group(String)
        }
        var args: [String]
        var scope: Scope
        var until: String
        var by = "month"
        var forecastCase = HouseholdForecast.Case.pessimistic
        var testDescription: String { args.joined(separator: " ") }
    }

    static let forecasts: [ForecastCheck] = [
        ForecastCheck(args: ["forecast", "--until", "2026-03"], scope: .level(4), until: "2026-03-31"),
        ForecastCheck(args: ["forecast", "--until", "2026-03", "--expected"], scope: .level(4), until: "2026-03-31", forecastCase: .expected),
        ForecastCheck(args: ["forecast"], scope: .level(4), until: HouseholdForecast.defaultHorizon),
        ForecastCheck(args: ["forecast", "--by", "week", "--days", "35"], scope: .level(4), until: "2025-05-06", by: "week"),
        ForecastCheck(
            args: ["forecast", "--by", "day", "--days", "45", "--expected"], scope: .level(4), until: "2025-05-16", by: "day", forecastCase: .expected
        ),
        ForecastCheck(args: ["forecast", "--until", "2025-06-09", "--by", "week"], scope: .level(4), until: "2025-06-09", by: "week"),
        ForecastCheck(args: ["forecast", "--level", "1", "--days", "20", "--by", "day"], scope: .level(1), until: "2025-04-21", by: "day"),
        ForecastCheck(args: ["forecast", "--level", "2", "--until", "2025-09"], scope: .level(2), until: "2025-09-30"),
        ForecastCheck(args: ["forecast", "--level", "6", "--until", "2026-03"], scope: .level(6), until: "2026-03-31"),
        ForecastCheck(
            args: ["forecast", "--account", "VTB Debit", "--days", "60", "--by", "week"], scope: .account("VTB Debit"), until: "2025-05-31",
            by: "week"),
        ForecastCheck(args: ["forecast", "--account", "Tinkoff Card", "--until", "2025-08"], scope: .account("Tinkoff Card"), until: "2025-08-31"),
        ForecastCheck(args: ["forecast", "--group", "Everyday money", "--until", "2025-12"], scope: .group("Everyday money"), until: "2025-12-31"),
        ForecastCheck(
            args: ["forecast", "--group", "Debts", "--until", "2025-07", "--expected"], scope: .group("Debts"), until: "2025-07-31",
            forecastCase: .expected),
    ]

    @Test(arguments: forecasts)
    func forecastAgreesWithTheBruteForce(_ check: ForecastCheck) throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let object = try Self.object(cli, Self.dated(check.args))
        let accounts: Set<String>
        switch check.scope {
        case .level(let level):
            accounts = reference.accounts(level: level)
            #expect(object["level"] as? Int == level)
        case .account(let name):
            accounts = [name]
            #expect(object.string("account") == name)
            #expect(object["level"] is NSNull)
        case .group(let name):
            accounts = Set(try #require(reference.sample.groups.first { $0.name == name }).accounts)
            #expect(object.string("group") == name)
            #expect(object["level"] is NSNull)
        }
        #expect(object.string("currency") == "RUB")
        #expect(object.string("from") == HouseholdForecast.today)
        #expect(object.string("until") == check.until)
        #expect(object.string("case") == (check.forecastCase == .expected ? "expected" : "pessimistic"))

        let periods = try #require(object["periods"] as? [[String: Any]])
        var got: [HouseholdForecast.Period] = []
        for period in periods {
            let row = HouseholdForecast.Period(
                start: try #require(period.string("start")), end: try #require(period.string("end")), opening: try Self.minor(period, "opening"),
                inflow: try Self.minor(period, "inflow"), outflow: try Self.minor(period, "outflow"), closing: try Self.minor(period, "closing"),
                min: try Self.minor(period, "min"), minDay: try #require(period.string("minDay")),
                revaluation: period["revaluation"] == nil ? 0 : try Self.minor(period, "revaluation"))
            #expect(row.opening + row.inflow + row.outflow + row.revaluation == row.closing, "\(row)")
            #expect(row.inflow >= 0 && row.outflow <= 0, "\(row)")
            #expect(row.min <= row.closing, "\(row)")
            got.append(row)
        }
        let expected = reference.forecast(of: accounts, through: check.until, by: check.by, check.forecastCase)
        #expect(got.count == expected.count)
        for (row, want) in zip(got, expected) { #expect(row == want) }
        // A forecast level's Can spend: the brute-force split on each period's first day.
        if case .level(let level) = check.scope, level >= 4 {
            for period in periods {
                let start = try #require(period.string("start"))
                let want = reference.canSpend(level: level, on: start, through: check.until, check.forecastCase)
                #expect(try Self.minor(period, "canSpend") == want.amount, "\(start)")
            }
            let today = try #require(object["canSpend"] as? [String: Any])
            let want = reference.canSpend(level: level, on: HouseholdForecast.today, through: check.until, check.forecastCase)
            #expect(today.string("on") == HouseholdForecast.today)
            #expect(try Self.minor(today, "amount") == want.amount)
            #expect(today.string("bindingDay") == want.bindingDay)
            let split = try #require(today["split"] as? [[String: Any]])
            #expect(try split.map { try Self.minor($0, "amount") }.reduce(0, +) == want.amount)
            #expect(try split.filter { $0.string("kind") == "card" }.map { try Self.minor($0, "amount") }.reduce(0, +) == want.card)
        } else {
            #expect(periods.allSatisfy { $0["canSpend"] == nil })
            #expect(object["canSpend"] == nil)
        }
        // Periods tile the range: each starts the day after the previous one ends.
        for (a, b) in zip(got, got.dropFirst()) {
            #expect(HouseholdForecast.number(b.start) == HouseholdForecast.number(a.end) + 1)
            #expect(b.opening == a.closing)
        }
    }

    @Test func theMainCommandCoversTwelveMonthsWithTheLowestDayInJuly() throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let periods = try #require(try Self.object(cli, Self.dated(["forecast", "--until", "2026-03"]))["periods"] as? [[String: Any]])
        #expect(periods.count == 12)
        #expect(periods.first?.string("start") == "2025-04-01")
        #expect(periods.last?.string("end") == "2026-03-31")
        // The yearly lowest: found by scanning every day's balance, and named by the month's row.
        let balances = reference.balances(of: reference.accounts(level: 4), through: "2026-03-31", .pessimistic)
        let lowest = try #require(balances.min())
        let day = HouseholdForecast.iso(HouseholdForecast.number(HouseholdForecast.today) + (try #require(balances.firstIndex(of: lowest))))
        // The day before Anna's July salary: three mortgage payments and the budgets' spending since April.
        #expect(day == "2025-07-09")
        let july = try #require(periods.first { $0.string("start") == "2025-07-01" })
        #expect(july.string("min") == HouseholdForecast.decimal(lowest))
        #expect(july.string("minDay") == day)
    }

    @Test func expectedAndPessimisticDifferOnTheRangedSchedules() throws {
        let cli = try CLI.household()
        let pessimistic = try #require(try Self.object(cli, Self.dated(["forecast", "--until", "2026-03"]))["periods"] as? [[String: Any]])
        let expected = try #require(
            try Self.object(cli, Self.dated(["forecast", "--until", "2026-03", "--expected"]))["periods"] as? [[String: Any]])
        #expect(pessimistic.count == expected.count)
        var differ = false
        for (p, e) in zip(pessimistic, expected) {
            // Ranged outflows (lunches, groceries, fuel, utilities, apparel) are higher when pessimistic; inflows are fixed.
            #expect(try Self.minor(p, "outflow") < (try Self.minor(e, "outflow")))
            #expect(try Self.minor(p, "inflow") == (try Self.minor(e, "inflow")))
            #expect(try Self.minor(p, "closing") <= (try Self.minor(e, "closing")))
            #expect(try Self.minor(p, "min") <= (try Self.minor(e, "min")))
            if p.string("closing") != e.string("closing") { differ = true }
        }
        #expect(differ)
        #expect(
            cli.ok(Self.dated(["forecast", "--until", "2026-03", "--expected"])).hasPrefix(
                "Forecast of level 4 (forecast), 2025-04-01 to 2026-03-31, expected amounts, RUB\n"))
    }

    /// Occurrences on or before today that nothing has posted count as today's flows: ten days
    /// after the sample's last posting, the first ten days of April land on today.
    @Test func openOccurrencesBeforeTodayCountOnToday() throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let today = "2025-04-10"
        let object = try Self.object(cli, Self.dated(["forecast", "--by", "day", "--days", "6", "--level", "2"], today: today))
        let periods = try #require(object["periods"] as? [[String: Any]])
        let want = reference.forecast(of: reference.accounts(level: 2), today: today, through: "2025-04-16", by: "day", .pessimistic)
        #expect(periods.count == want.count)
        for (period, row) in zip(periods, want) {
            #expect(period.string("opening") == HouseholdForecast.decimal(row.opening))
            #expect(period.string("inflow") == HouseholdForecast.decimal(row.inflow))
            #expect(period.string("outflow") == HouseholdForecast.decimal(row.outflow))
            #expect(period.string("closing") == HouseholdForecast.decimal(row.closing))
        }
        // Today carries April 1–10: Anna's salary (10th) in, the 5th's mortgage among the outflows.
        #expect(want.first?.inflow == 180_000_00)
        #expect((want.first?.outflow ?? 0) < -70_000_00)
    }

    // MARK: can-spend and when against the brute force

    @Test(arguments: ["2025-04-01", "2025-05-20", "2025-06-09", "2025-06-10", "2025-12-31", "2026-04-01"])
    func canSpendAgreesWithTheBruteForceOnEveryLevel(on day: String) throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let rows = try cli.rows(Self.dated(["can-spend", "--all-levels", "--on", day]))
        #expect(rows.map { $0["level"] as? Int } == [1, 2, 3, 4, 5, 6])
        for row in rows {
            let level = try #require(row["level"] as? Int)
            let want = reference.canSpend(level: level, on: day)
            let got = HouseholdForecast.Answer(
                amount: try Self.minor(row, "amount"), shortfall: try Self.minor(row, "shortfall"),
                bindingDay: try #require(row.string("bindingDay")),
                bindingBalance: try Self.minor(row, "bindingBalance"), floor: try Self.minor(row, "floor"),
                card: try (row["split"] as? [[String: Any]])?.first { $0.string("kind") == "card" }.map { try Self.minor($0, "amount") } ?? 0)
            #expect(got == want, "level \(level)")
            #expect(row.string("on") == day)
        }
        // The default answer is level 4's, alone.
        let single = try Self.object(cli, Self.dated(["can-spend", "--on", day]))
        #expect(single.string("amount") == HouseholdForecast.decimal(reference.canSpend(level: 4, on: day).amount))
        #expect(single["level"] as? Int == 4)
    }

    @Test func canSpendToday() throws {
        let reference = try Self.reference()
        let want = reference.canSpend(level: 4, on: HouseholdForecast.today)
        // Worked out by the reference's split: level 4's pool is the debit accounts and cash (354 919.31
        // on VTB Debit and 19 730 in cash at the end of March, the euro card's 107.90 EUR at 91.2, its
        // lowest rate of the look-back: 9 840.48), its floor VTB Debit's 20 000; the card is a
        // constraint of its own (limit 150 000, 63 500 owed). The pool's lowest day is 9 July, the
        // day before Anna's salary, at 106 802.94: 86 802.94 above the floor. A purchase on the card
        // today joins the 25 April statement and leaves VTB Debit on 15 May, before that day, so the
        // answer stays 86 802.94; the card takes what its room allows before the payback (the
        // budgets spend on it every day), and the pool pays the rest.
        #expect(
            want
                == HouseholdForecast.Answer(
                    amount: 86_802_94, shortfall: 0, bindingDay: "2025-07-09", bindingBalance: 106_802_94, floor: 20_000_00, card: 62_500_00)
        )
        let cli = try CLI.household()
        #expect(
            cli.ok(Self.dated(["can-spend"]))
                == "You can spend 86 802.94 on 2025-04-01 (level 4, forecast, pessimistic amounts, to 2026-04-01).\n"
                + "Pay with: 24 302.94 from VTB Debit, 62 500.00 on Tinkoff Card.\n")
        // A later horizon can only lower the answer (more days to keep the pool above its floor);
        // an earlier one, before the binding day, binds elsewhere and never lowers it.
        let shorter = try Self.object(cli, Self.dated(["can-spend", "--until", "2025-06-08"]))
        #expect(try Self.minor(shorter, "amount") >= want.amount)
        #expect(shorter.string("bindingDay") != "2025-07-09")
    }

    @Test func canSpendWhyNamesTheBindingDayTheLargestOutflowsAndTheNextInflow() throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let object = try Self.object(cli, Self.dated(["can-spend", "--why"]))
        for key in ["level", "on", "amount", "bindingDay", "bindingBalance", "drivers", "relief"] { #expect(object[key] != nil, "no \(key)") }
        let binding = try #require(object.string("bindingDay"))
        // The pool's flows: level 4 less the card, a constraint of its own.
        let events = reference.events(
            of: reference.accounts(level: 4).subtracting(["Tinkoff Card"]), through: HouseholdForecast.defaultHorizon, .pessimistic)
        let before = events.filter { $0.date <= binding && $0.amount < 0 }.map(\.amount).sorted()
        let drivers = try #require(object["drivers"] as? [[String: Any]])
        #expect(drivers.count == 3)
        #expect(try drivers.map { try Self.minor($0, "amount") } == Array(before.prefix(3)))
        for driver in drivers {
            let (day, label, amount) = (driver.string("day") ?? "", driver.string("label") ?? "", try Self.minor(driver, "amount"))
            #expect(events.contains { $0.date == day && $0.label == label && $0.amount == amount }, "\(driver)")
            #expect(day >= HouseholdForecast.today && day <= binding)
        }
        let relief = try #require(object["relief"] as? [String: Any])
        let firstInflowDay = try #require(events.filter { $0.date > binding && $0.amount > 0 }.map(\.date).min())
        #expect(relief.string("day") == firstInflowDay)
        #expect(
            events.contains {
                $0.date == firstInflowDay && $0.label == relief.string("label") && HouseholdForecast.decimal($0.amount) == relief.string("amount")
            })
        // The issue's sentence, with the sample's numbers.
        let text = cli.ok(Self.dated(["can-spend", "--why"]))
        #expect(text.contains("Why: binding on 2025-07-09 (balance 106 802.94, floor 20 000.00): Tinkoff Card payback 74 500.00 on 05-15"))
        #expect(text.contains("; Salary Anna 180 000.00 on 07-10 lifts it"))
        #expect(text.contains("; Tinkoff Card: its limit binds on 2025-05-09, before its payback on 2025-05-15"))
    }

    @Test(arguments: ["300000", "1", "86802.94", "86802.95", "200000", "5 000 000"])
    func whenAgreesWithTheBruteForce(amount: String) throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let minor = try #require(minorUnits(amount.filter { $0 != " " }))
        let object = try Self.object(cli, Self.dated(["when", amount]))
        #expect(object.string("amount") == HouseholdForecast.decimal(minor))
        #expect(object["level"] as? Int == 4)
        let want = reference.when(minor)
        if let want {
            #expect(object.string("day") == want)
        } else {
            #expect(object["day"] is NSNull)
            // Short by what the horizon's last answer lacks.
            let last = reference.canSpend(level: 4, on: HouseholdForecast.defaultHorizon).amount
            #expect(object.string("shortfall") == HouseholdForecast.decimal(minor - last))
            #expect(cli.ok(Self.dated(["when", amount])).hasPrefix("Not before the horizon 2026-04-01"))
        }
    }

    @Test func whenOnTheSample() throws {
        let reference = try Self.reference()
        #expect(reference.when(86_802_94) == HouseholdForecast.today)
        #expect(reference.when(86_802_94 + 1) != HouseholdForecast.today)
        #expect(reference.when(5_000_000_00) == nil)
        let cli = try CLI.household()
        #expect(try Self.object(cli, Self.dated(["when", "5000000"]))["day"] is NSNull)
        #expect(try Self.object(cli, Self.dated(["when", "300000"])).string("day") == reference.when(300_000_00))
    }

    // MARK: The defining property, on a database

    /// can-spend X on day d: recording its split on d (the pool's part from VTB Debit, the card's on
    /// the card) leaves 0 to spend and nothing short; one kopeck more leaves a later balance of the
    /// pool a kopeck below its floor.
    @Test(arguments: ["2025-04-01", "2025-05-20", "2025-06-10", "2026-01-15"])
    func spendingTheAnswerLeavesExactlyNothing(on day: String) throws {
        let today = ["--today", HouseholdForecast.today]
        // The pool's floor: VTB Debit's 20 000 (the card is not in the pool).
        let floor: Int64 = 20_000_00
        let cli = try CLI.household()
        let before = try Self.object(cli, today + ["can-spend", "--on", day])
        let amount = try Self.minor(before, "amount")
        #expect(amount > 0)
        let split = try #require(before["split"] as? [[String: Any]])
        #expect(split.map { $0.string("account") } == ["VTB Debit", "Tinkoff Card"])
        #expect(try split.map { try Self.minor($0, "amount") }.reduce(0, +) == amount)
        // Recorded by that day (salaries expected before it are not) VTB Debit may fall below its
        // floor: a warning, not a refusal.
        func spend(_ amount: String, from account: String = "VTB Debit") {
            let spent = cli.run(today + ["spend", amount, "Other", "--from", account, "--on", day])
            let lines = spent.stderr.split(separator: "\n")
            #expect(spent.status == 0 && lines.allSatisfy { CLI.isAnswerNote($0) || $0.hasPrefix("capital: warning: VTB Debit is at ") }, "\(spent)")
        }
        for part in split where try Self.minor(part, "amount") > 0 { spend(part.string("amount")!, from: part.string("account")!) }
        let after = try Self.object(cli, today + ["can-spend", "--on", day])
        #expect(after.string("amount") == "0.00")
        #expect(after.string("shortfall") == "0.00")
        #expect(try Self.minor(after, "bindingBalance") == floor)
        // Every earlier day is bound by it too.
        #expect(try Self.object(cli, today + ["can-spend"]).string("amount") == "0.00")

        spend("0.01")
        let over = try Self.object(cli, today + ["can-spend", "--on", day])
        #expect(over.string("amount") == "0.00")
        #expect(over.string("shortfall") == "0.01")
        #expect(try Self.minor(over, "bindingBalance") == floor - 1)
    }

    // MARK: --chart

    @Test(arguments: [100, 60])
    func chartMarksTodayAndTheLowestDayWithinTheTerminal(columns: Int) throws {
        let reference = try Self.reference()
        let cli = try CLI.household()
        let output = cli.ok(Self.dated(["forecast", "--until", "2026-03", "--chart"]), env: ["COLUMNS": String(columns)])
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("Forecast of level 4 (forecast), 2025-04-01 to 2026-03-31") == true)
        let tableStart = try #require(lines.firstIndex { $0.hasPrefix("Start ") }, "no table after the chart")
        let chart = lines[1..<tableStart]
        #expect(chart.count > 10)
        for line in chart { #expect(line.count <= columns, "wider than \(columns): \(line)") }
        // The lowest balance and its day, found by scanning every day, are named; today is marked.
        let balances = reference.balances(of: reference.accounts(level: 4), through: "2026-03-31", .pessimistic)
        let lowest = try #require(balances.min())
        let lowestDay = HouseholdForecast.iso(HouseholdForecast.number(HouseholdForecast.today) + (try #require(balances.firstIndex(of: lowest))))
        #expect(chart.contains { $0.contains(HouseholdForecast.grouped(lowest)) && $0.contains(lowestDay) }, "no mark of the lowest day")
        #expect(chart.contains { $0.contains("lowest") || $0.contains("min") }, "the lowest day's mark is not named")
        #expect(chart.contains { $0.contains("today") }, "no mark for today")
        #expect(chart.contains { $0.contains("2025-04-01") && $0.contains("2026-03-31") })
        // The table follows unchanged.
        #expect(output.hasSuffix(try Self.fixture("forecast-household.txt").split(separator: "\n", maxSplits: 1)[1]))
    }

    @Test func chartIsLeftOutOfJSON() throws {
        let cli = try CLI.household()
        let object = try Self.object(cli, Self.dated(["forecast", "--until", "2026-03", "--chart"]))
        #expect((object["periods"] as? [Any])?.count == 12)
    }

    /// Without `--today` the forecast starts on the local calendar day (capital reads the clock
    /// through the C library): the day coreutils' `date` gives in the same time zone. Zones 26 hours
    /// apart make at least two of the three days differ from UTC's for most of the day.
    @Test(arguments: ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func withoutTodayTheForecastStartsOnTheLocalDay(zone: String) throws {
        func date() throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/date")
            process.arguments = ["+%F"]
            process.environment = ["TZ": zone]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let cli = try CLI()
        let before = try date()
        let result = cli.runProcess(["-f", "samples/household.yaml", "forecast", "--days", "1", "--format", "json"], env: ["TZ": zone])
        let after = try date()
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect([before, after].contains(object.string("from") ?? ""), "TZ=\(zone): \(result.stdout.prefix(80))")
    }

    // MARK: The account and group screens' outlook

    /// The sample read as a file (`-f`) and imported into a database must show the same outlook.
    enum Source: String, CaseIterable, Sendable { case file, database }

    static func outlookCLI(_ source: Source) throws -> (CLI, [String]) {
        switch source {
        case .file: return (try CLI(), Self.sample([]))
        case .database: return (try CLI.household(), ["--today", HouseholdForecast.today])
        }
    }

    /// Today's value (today's flows included) and the lowest value to the default horizon, expected amounts.
    static func outlook(_ reference: HouseholdForecast, _ accounts: Set<String>) throws -> (current: String, low: String, day: String) {
        let balances = reference.balances(of: accounts, through: HouseholdForecast.defaultHorizon, .expected)
        let low = try #require(balances.min())
        let index = try #require(balances.firstIndex(of: low))
        return (
            HouseholdForecast.decimal(balances[0]), HouseholdForecast.decimal(low),
            HouseholdForecast.iso(HouseholdForecast.number(HouseholdForecast.today) + index)
        )
    }

    @Test(arguments: Source.allCases, ["VTB Debit", "Tinkoff Card", "Cash", "Mortgage"])
    func accountShowGivesTheOutlook(source: Source, account: String) throws {
        let reference = try Self.reference()
        let (cli, prefix) = try Self.outlookCLI(source)
        let object = try Self.object(cli, prefix + ["account", "show", account])
        let want = try Self.outlook(reference, [account])
        #expect(object.string("current") == want.current)
        #expect(object.string("forecastLow") == want.low)
        #expect(object.string("forecastLowDay") == want.day)
        #expect(object.string("forecastUntil") == HouseholdForecast.defaultHorizon)
    }

    @Test(arguments: Source.allCases)
    func accountShowTableNamesTheLowestOrTheLargestDebt(source: Source) throws {
        let (cli, prefix) = try Self.outlookCLI(source)
        let debit = cli.ok(prefix + ["account", "show", "VTB Debit"])
        #expect(debit.contains("Lowest ahead:"))
        #expect(debit.contains("Lowest on:"))
        let card = cli.ok(prefix + ["account", "show", "Tinkoff Card"])
        #expect(card.contains("Largest debt ahead:"))
        // A category has no balance ahead.
        let category = try Self.object(cli, prefix + ["account", "show", "Groceries"])
        #expect(category["forecastLow"] == nil)
    }

    @Test(arguments: Source.allCases)
    func groupShowGivesTheOutlook(source: Source) throws {
        let reference = try Self.reference()
        let (cli, prefix) = try Self.outlookCLI(source)
        let object = try Self.object(cli, prefix + ["group", "show", "Everyday money"])
        let outlook = try #require((object["outlook"] as? [[String: Any]])?.first, "no outlook in \(object)")
        let want = try Self.outlook(reference, ["VTB Debit", "Cash"])
        #expect(outlook.string("current") == want.current)
        #expect(outlook.string("forecastLow") == want.low)
        #expect(outlook.string("forecastLowDay") == want.day)
        #expect(cli.ok(prefix + ["group", "show", "Everyday money"]).contains("Ahead (RUB accounts, expected amounts)"))
    }

    // MARK: Other currencies and transfers inside a level

    /// A franc account in a RUB group (issue 19; the sample has no rate of the franc): without a
    /// rate the group's forecast is refused, naming the currency; with one, the group counts the
    /// account at the day's rate — its spending an outflow of the group, valued — while the
    /// account's own screen speaks CHF.
    @Test func aForeignCurrencyAccountCountsInTheGroupAtItsRate() throws {
        let today = Self.dated([])
        let plain = try CLI.household()
        let cli = try CLI.household()
        cli.ok(today + ["account", "add", "CHF Cash", "--kind", "cash", "--currency", "CHF", "--group", "Everyday money"])
        cli.ok(today + ["account", "add", "Ski pass", "--kind", "expense", "--currency", "CHF"])
        cli.ok(today + ["spend", "50", "Ski pass", "--from", "CHF Cash", "--on", "2025-04-02"])

        let args = today + ["forecast", "--group", "Everyday money", "--by", "day", "--days", "3"]
        cli.fails(args, mentioning: ["CHF Cash", "no rate of CHF on 2025-04-02", "the ledger has none"])
        cli.ok(["rate", "set", "CHF", "90.125", "--on", "2025-03-31"])
        let with = try #require(try Self.object(cli, args)["periods"] as? [[String: Any]])
        let without = try #require(try Self.object(plain, args)["periods"] as? [[String: Any]])
        #expect(with.count == 4)
        func minor(_ text: String?) -> Int64 { Int64((text ?? "").replacingOccurrences(of: ".", with: "")) ?? .min }
        for (a, b) in zip(with, without) {
            let spent: Int64 = a.string("start") == "2025-04-01" ? 0 : 4_506_25  // 50 CHF at 90.125
            #expect(minor(a.string("closing")) == minor(b.string("closing")) - spent, "closing on \(a.string("start") ?? "")")
            #expect(minor(a.string("min")) == minor(b.string("min")) - spent, "min on \(a.string("start") ?? "")")
            #expect(a.string("inflow") == b.string("inflow"))
            let valuedOut: Int64 = a.string("start") == "2025-04-02" ? 4_506_25 : 0
            #expect(minor(a.string("outflow")) == minor(b.string("outflow")) - valuedOut, "outflow on \(a.string("start") ?? "")")
            #expect(a.string("revaluation") == "0.00")
            #expect(b["revaluation"] == nil)
        }
        let group = try #require((try Self.object(cli, today + ["group", "show", "Everyday money"])["outlook"] as? [[String: Any]])?.first)
        let plainGroup = try #require((try Self.object(plain, today + ["group", "show", "Everyday money"])["outlook"] as? [[String: Any]])?.first)
        #expect(group.string("current") == plainGroup.string("current"))
        #expect(minor(group.string("forecastLow")) == minor(plainGroup.string("forecastLow")) - 4_506_25)

        let account = try Self.object(cli, today + ["account", "show", "CHF Cash"])
        #expect(account.string("current") == "0.00")
        #expect(account.string("forecastLow") == "-50.00")
        #expect(account.string("forecastLowDay") == "2025-04-02")
    }

    /// A ranged transfer between two accounts of a level moves nothing in or out of the level,
    /// whatever its amount turns out to be; each account alone still takes its own worse end.
    @Test func aRangedTransferInsideTheLevelIsNoFlowOfTheLevel() throws {
        let today = Self.dated([])
        let cli = try CLITemplate.initialized.copy()
        cli.ok(today + ["account", "add", "Cash", "--kind", "cash"])
        cli.ok(
            today + [
                "schedule", "add", "ATM", "--rule", "monthly on 11", "--start", "2025-04-11", "--amount", "100..300", "--from", "VTB Debit", "--to",
                "Cash",
            ])
        let window = ["forecast", "--until", "2025-04-20", "--by", "month"]
        let cash = try #require((try Self.object(cli, today + window + ["--account", "Cash"])["periods"] as? [[String: Any]])?.first)
        #expect(cash.string("inflow") == "100.00")
        let debit = try #require((try Self.object(cli, today + window + ["--account", "VTB Debit"])["periods"] as? [[String: Any]])?.first)
        #expect(debit.string("outflow") == "-300.00")
        let expected = try #require((try Self.object(cli, today + window + ["--expected"])["periods"] as? [[String: Any]])?.first)
        #expect(expected.string("closing") == "0.00")
        // Summed over level 4, which holds both accounts, the transfer nets out at either end.
        let level = try #require((try Self.object(cli, today + window)["periods"] as? [[String: Any]])?.first)
        #expect(level.string("outflow") == "0.00")
        #expect(level.string("closing") == "0.00")
        #expect(try Self.object(cli, today + ["can-spend", "--until", "2025-04-20"]).string("shortfall") == "0.00")
    }
}
