import Foundation
import Testing

/// `export --format journal`: an hledger journal whose forecast matches capital's.
@Suite("CLI: export --format journal")
struct JournalExportTests {
    static let args = ["-f", "samples/household.yaml", "--today", "2025-04-01", "export", "--format", "journal", "--to", "2026-04-01"]

    /// Regenerate with `capital -f samples/household.yaml --today 2025-04-01 export --format journal --to 2026-04-01 > Tests/Fixtures/household.journal`
    /// after `hledgerAgreesDayByDay` passes with the new output.
    @Test func theSampleMatchesTheGoldenFile() throws {
        let cli = try CLI()
        let golden = try #require(FileManager.default.contents(atPath: CLI.root.appendingPathComponent("Tests/Fixtures/household.journal").path))
        #expect(cli.ok(Self.args) == String(decoding: golden, as: UTF8.self))
    }

    @Test func directivesPeriodicRulesAndExpansions() throws {
        let cli = try CLI()
        let text = cli.ok(Self.args)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("commodity 1000.00 RUB"))
        #expect(lines.contains("account assets:debit:VTB Debit") && lines.contains("account liabilities:credit-card:Tinkoff Card"))
        #expect(lines.contains("account expenses:Groceries") && lines.contains("account equity:Capital"))
        // Every periodic rule starts on an occurrence after today: its day of the month is the rule's.
        let periodic = lines.filter { $0.hasPrefix("~ ") }
        #expect(!periodic.isEmpty)
        for rule in periodic {
            let words = rule.split(separator: " ").map(String.init)
            let from = try #require(words.firstIndex(of: "from").map { words[$0 + 1] })
            #expect(from > "2025-04-01", "\(rule)")
            if words.count > 2, words[1] == "every", words[3] == "day" {
                let day = Int(words[2].dropLast(2))!
                #expect(Int(from.suffix(2)) == day, "\(rule)")
            }
        }
        // The ranged groceries and the working-day salaries cannot be periodic: they are dated, and say why.
        #expect(text.contains("expanded: a ranged amount") && text.contains("expanded: a business-day adjustment"))
        #expect(!periodic.contains { $0.hasSuffix("Groceries") || $0.contains("Salary") })
        // Amounts: the currency's two decimals with a point, the code after, two spaces before; an
        // amount in another currency with its cost in roubles.
        let postings = lines.filter { $0.hasPrefix("    ") }
        #expect(
            postings.allSatisfy {
                $0.range(of: #"^    \S.*\S  -?\d+\.\d\d (RUB|(USD|EUR)( @@ \d+\.\d\d RUB)?)$"#, options: .regularExpression) != nil
            })
        #expect(postings.contains { $0.hasSuffix(" EUR @@ 38731.30 RUB") }, "the euros bought in March")
    }

    /// Currencies with 0 and 3 decimals are declared so hledger reads `1.500 KWD` as one and a half.
    @Test func everyCurrencyIsDeclaredWithItsDecimals() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "Yen", "--kind", "cash", "--currency", "JPY"])
        cli.ok(["account", "add", "Dinar", "--kind", "cash", "--currency", "KWD"])
        cli.ok(["tx", "add", "--on", "2025-01-02", "--payee", "Opening", "--posting", "Yen=1500", "--posting", "Capital"])
        cli.ok(["tx", "add", "--on", "2025-01-02", "--payee", "Opening", "--posting", "Dinar=1.5", "--posting", "Capital"])
        let text = cli.ok(["--today", "2025-01-05", "export", "--format", "journal"])
        #expect(text.contains("commodity 1000 JPY\n") && text.contains("commodity 1000.000 KWD\n") && text.contains("commodity 1000.00 RUB\n"))
        #expect(text.contains("assets:cash:Yen  1500 JPY") && text.contains("assets:cash:Dinar  1.500 KWD"))
    }

    /// The issue's bad input: a currency hledger would print ambiguously (a quoted commodity
    /// symbol such as `"R$"` or `"US D"`). capital takes only ISO 4217 codes, which hledger
    /// never quotes: such a ledger is refused, on one line naming the field, before anything is
    /// written; a lower-case code is read as the code.
    @Test func aCurrencyHledgerWouldQuoteIsRefused() throws {
        let cli = try CLI()
        for (field, value, body) in [
            ("accounts[0].currency", "R$", "currency: RUB\naccounts:\n  - name: Wallet\n    kind: cash\n    currency: \"R$\"\n"),
            ("currency", "US D", "currency: \"US D\"\naccounts:\n  - name: Wallet\n    kind: cash\n"),
            ("currency", "€", "currency: \"€\"\naccounts:\n  - name: Wallet\n    kind: cash\n"),
        ] {
            let file = cli.path("quoted.yaml")
            try ("capital: 1\n" + body).write(toFile: file, atomically: true, encoding: .utf8)
            let out = cli.path("quoted.journal")
            cli.fails(
                ["-f", file, "--today", "2025-01-01", "export", "--format", "journal", "--out", out],
                mentioning: ["\(field): '\(value)'", "not an ISO 4217 currency code"])
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let file = cli.path("lower.yaml")
        try "capital: 1\ncurrency: usd\naccounts:\n  - name: Wallet\n    kind: cash\n".write(toFile: file, atomically: true, encoding: .utf8)
        let text = cli.ok(["-f", file, "--today", "2025-01-01", "export", "--format", "journal"])
        #expect(text.contains("commodity 1000.00 USD\n") && !text.contains("\""))
    }

    @Test func badOptionsAreRefused() throws {
        let cli = try CLI()
        cli.fails(Self.args + ["--by", "day"], mentioning: ["--by", "journal"])
        cli.fails(
            ["-f", "samples/household.yaml", "--today", "2025-04-01", "export", "--format", "journal", "--to", "+3q"], mentioning: ["--to '+3q'"])
        cli.fails(
            ["-f", "samples/household.yaml", "--today", "2025-04-01", "export", "--format", "journal", "--to", "2025-01-01"],
            mentioning: ["--to", "before today"])
        cli.fails(["-f", "samples/household.yaml", "export", "--format", "ledger"], mentioning: ["--format 'ledger'", "journal"])
    }

    /// With hledger installed (`apt-get install hledger`): its forecast of the export gives
    /// capital's daily balances of level 4 (cash, the debit accounts, the card) on every day of the
    /// year, the euro card valued in roubles by the export's `P` directives (`-X RUB
    /// --value=end,RUB`: each day's balance at that day's rate, as `--expected` values it).
    @Test(.enabled(if: CLI.hasHledger))
    func hledgerAgreesDayByDay() throws {
        let cli = try CLI()
        let journal = cli.path("household.journal")
        try cli.ok(Self.args).write(toFile: journal, atomically: true, encoding: .utf8)
        let theirs = try Self.hledgerDaily(
            journal, from: "2025-04-01", to: "2026-04-02", ["assets:cash", "assets:debit", "liabilities:credit-card"], forecast: true)
        #expect(theirs.values.contains { $0["assets:debit:Euro Card"] != nil }, "the euro card is part of level 4")
        let object = try cli.json([
            "-f", "samples/household.yaml", "--today", "2025-04-01", "forecast", "--by", "day", "--until", "2026-04-01", "--expected",
        ])
        let ours = try #require((object as? [String: Any])?["periods"] as? [[String: Any]])
        #expect(ours.count == 366)
        for row in ours {
            let day = try #require(row["end"] as? String)
            #expect(theirs[day]?["total"] == row["closing"] as? String, "\(day)")
        }
    }

    /// Issue 19, item 6 on the sample: hledger's valuation of the dollar savings and the euro card
    /// (`balance -X RUB --value=end,RUB` with the export's `P` directives) is capital's `balance`
    /// value of them on every day of the sample's quarter, rates changing almost daily.
    @Test(.enabled(if: CLI.hasHledger))
    func hledgerValuesTheSamplesForeignAccountsAsCapitalDoes() throws {
        let cli = try CLI.household()
        let journal = cli.path("household.journal")
        try cli.ok(Self.args).write(toFile: journal, atomically: true, encoding: .utf8)
        let paths = ["Savings USD": "assets:deposit:Savings USD", "Euro Card": "assets:debit:Euro Card"]
        let theirs = try Self.hledgerDaily(journal, from: "2025-01-01", to: "2025-04-01", Array(paths.values), forecast: false)
        var checked = 0
        for (day, columns) in theirs.sorted(by: { $0.key < $1.key }) where Int(day.suffix(2))! % 3 == 1 {
            let rows = try #require(
                (try cli.json(["--today", "2025-04-01", "balance", "--on", day]) as? [String: Any])?["accounts"] as? [[String: Any]])
            for (name, path) in paths {
                let value = try #require(rows.first { $0.string("account") == name }?.string("value"))
                #expect(columns[path] == value, "\(name) on \(day)")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    /// `hledger balance -D -H -X RUB --value=end,RUB --transpose` of some accounts: day → column
    /// (each account's path, and `total`) → amount without its ` RUB`.
    static func hledgerDaily(_ journal: String, from: String, to: String, _ accounts: [String], forecast: Bool) throws -> [String: [String: String]] {
        let (status, output) = try CLI.hledger(
            ["-f", journal, "balance", "-D", "-H", "-E", "-b", from, "-e", to] + (forecast ? ["--forecast=\(from)..\(to)"] : []) + accounts + [
                "-X", "RUB", "--value=end,RUB", "--transpose", "-O", "csv",
            ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } }
        guard let header = lines.first else { return [:] }
        var result: [String: [String: String]] = [:]
        for fields in lines.dropFirst() where fields.count == header.count {
            var columns: [String: String] = [:]
            for (name, value) in zip(header.dropFirst(), fields.dropFirst()) { columns[name] = value.replacingOccurrences(of: " RUB", with: "") }
            result[fields[0]] = columns
        }
        return result
    }
}
