import CapitalCore
import Foundation
import Testing

/// Issue 18: bank statements in — CSV with rules, OFX and QIF — de-duplicated, matched to
/// transactions entered by hand, settling expected flows, checked against the closing balance.
@Suite("CLI: bank statement import")
struct StatementImportTests {
    static let fixtures = CLI.root.appendingPathComponent("Tests/Fixtures/statements").path

    static func fixture(_ name: String) -> String { fixtures + "/" + name }

    /// A ledger in `currency` with the account `name` of `kind`, and the balance-sheet accounts
    /// the eurobank rules name (`assets:cash`, `assets:receivable:max`, `assets:depot`).
    static func ledger(_ currency: String = "EUR", account name: String = "Giro", kind: String = "debit") throws -> CLI {
        let cli = try CLI()
        cli.ok(["init", "--currency", currency])
        cli.ok(["account", "add", name, "--kind", kind])
        for other in ["Cash", "Max", "Depot"] { cli.ok(["account", "add", other, "--kind", "cash"]) }
        return cli
    }

    static func summary(_ object: Any) throws -> [String: Any] {
        try #require((object as? [String: Any])?["summary"] as? [String: Any])
    }

    static func lines(_ object: Any) throws -> [[String: Any]] {
        try #require((object as? [String: Any])?["transactions"] as? [[String: Any]])
    }

    /// `--format json` output of a command that may warn on stderr (a closing balance that differs).
    static func json(_ cli: CLI, _ args: [String], warning: String? = nil) throws -> Any {
        let result = cli.run(args + ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        if let warning { #expect(result.stderr.contains("warning") && result.stderr.contains(warning), "\(result.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    static let eurobank = ["import", fixture("eurobank.csv"), "--account", "Giro", "--rules", fixture("eurobank.rules"), "--create-missing"]

    @Test func aStatementImportsOnceAndOnlyOnce() throws {
        let cli = try Self.ledger()
        let first = try Self.json(cli, Self.eurobank, warning: "4057.72")
        let summary = try Self.summary(first)
        #expect(summary["lines"] as? Int == 23)
        #expect(summary["new"] as? Int == 22)
        #expect(summary["uncategorised"] as? Int == 1)
        #expect(summary["written"] as? Bool == true)
        #expect((summary["createdCategories"] as? [String])?.contains("Rent") == true)
        let rows = try Self.lines(first)
        #expect(rows.first?.string("status") == "new")
        #expect(rows.first?.string("counterpart") == "Rent")
        #expect(rows.first?.string("amount") == "-1150.00")
        #expect(rows.last?.string("counterpart") == "Uncategorised")
        // The lines' sum, from a ledger that started at zero.
        let balances = try ExpectedFlowTests.balances(cli, today: "2024-04-01")
        #expect(balances["Giro"] == 2_534_55)
        // Again: nothing is added, nothing changes.
        let before = cli.state()
        let again = try Self.summary(try Self.json(cli, Self.eurobank, warning: "4057.72"))
        #expect(again["duplicate"] as? Int == 23)
        #expect(again["written"] as? Bool == false)
        #expect(cli.state() == before)
        #expect(cli.ok(["check"]).contains(": ok"))
        // The uncategorised line is listed for the person to categorise.
        let uncategorised = try cli.rows(["tx", "list", "--uncategorised"])
        #expect(uncategorised.count == 1)
        #expect(uncategorised.first?.string("payee") == "Sparkasse")
    }

    /// 3 000 lines over 14 months: written in bulk (the checkpoint trigger and the posting index
    /// set aside, the months added from the lines), after which `check` finds every month's sums
    /// equal to the postings' and the balance is the lines' sum.
    @Test func aLargeStatementIsWrittenInBulkAndItsMonthsAgree() throws {
        let cli = try Self.ledger()
        cli.ok(["spend", "10", "Groceries", "--from", "Giro", "--on", "2024-03-15"])
        var lines = ["date,description,amount"]
        var total: Int64 = -10_00
        for index in 0..<3_000 {
            let day = Day(Day.daysFromCivil(year: 2024, month: 1, day: 1) + index * 14 / 100)
            let cents = Int64(index % 7 == 0 ? 250_000 : -(100 + index % 5_000))
            total += cents
            lines.append("\(day.iso),Shop \(index % 40),\(Money.format(minor: cents, exponent: 2, grouping: nil))")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: cli.path("big.csv"), atomically: true, encoding: .utf8)
        try "skip 1\nfields date, description, amount\nif Shop 1\n account2 expenses:groceries\n"
            .write(toFile: cli.path("big.csv.rules"), atomically: true, encoding: .utf8)
        let summary = try Self.summary(try cli.json(["import", cli.path("big.csv"), "--account", "Giro", "--create-missing"]))
        #expect(summary["lines"] as? Int == 3_000)
        #expect(cli.ok(["check"]).contains(": ok"))
        let balances = try ExpectedFlowTests.balances(cli, today: "2025-12-31")
        #expect(balances["Giro"] == total)
        // The trigger and the index are back: a later entry keeps its month.
        cli.ok(["spend", "5", "Groceries", "--from", "Giro", "--on", "2024-06-01"])
        #expect(cli.ok(["check"]).contains(": ok"))
    }

    @Test func aDryRunShowsEveryLineAndWritesNothing() throws {
        let cli = try Self.ledger()
        let before = cli.state()
        let result = cli.run(Self.eurobank + ["--dry-run"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Would import"))
        #expect(result.stdout.contains("Would create categories: Rent"))
        #expect(result.stdout.split(separator: "\n").filter { $0.contains(" new") || $0.contains("uncategorised") }.count >= 23)
        // The statement's closing balance (the last line's Saldo) is 1 523.17 more than a ledger that starts at zero.
        #expect(result.stderr.contains("warning"))
        #expect(result.stderr.contains("4057.72"))
        #expect(result.stderr.contains("2534.55"))
        #expect(cli.state() == before)
        // Hidden amounts stay hidden in the warning and the balance line too.
        let hidden = cli.run(Self.eurobank + ["--dry-run", "--hide-amounts"])
        #expect(!hidden.stdout.contains("4057.72") && !hidden.stdout.contains("1 150.00") && !hidden.stderr.contains("4057.72"))
        #expect(hidden.stderr.contains("is ***"))
    }

    @Test func theClosingBalanceIsCheckedAndStrictRefusesADifference() throws {
        let cli = try Self.ledger()
        cli.fails(Self.eurobank + ["--strict"], mentioning: ["closing balance on 2024-03-31 is 4057.72", "2534.55", "nothing imported"])
        cli.ok(["category", "add", "Opening", "--income"])
        cli.ok(["earn", "1523.17", "Opening", "--to", "Giro", "--on", "2024-02-29"])
        let result = cli.run(Self.eurobank + ["--strict"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout.contains("Closing balance on 2024-03-31: 4057.72, as in the ledger."))
    }

    /// The household's VTB Debit: a loan payment and a salary the forecast expects settle; a
    /// purchase entered by hand is matched, not doubled; a payee seen before is categorised with
    /// `--learn`; the rest goes to Uncategorised.
    @Test func linesSettleMatchAndLearn() throws {
        let cli = try CLI.household()
        cli.ok(["spend", "500", "Groceries", "--payee", "Pyaterochka 5678 Moscow", "--on", "2025-03-01", "--from", "VTB Debit"])
        cli.ok(["spend", "1234.50", "Groceries", "--payee", "Shop", "--on", "2025-04-12", "--from", "VTB Debit"])
        let statement = cli.path("vtb.csv")
        try """
        date,description,amount
        2025-04-05,MORTGAGE PAYMENT,-69979.36
        2025-04-10,SALARY ANNA,180000.00
        2025-04-11,PYATEROCHKA 1234 MOSCOW,-1234.50
        2025-04-11,PYATEROCHKA 1234 MOSCOW,-1234.50
        2025-04-12,UNKNOWN SHOP,-99.00

        """.write(toFile: statement, atomically: true, encoding: .utf8)
        try "skip 1\nfields date, description, amount\n".write(toFile: statement + ".rules", atomically: true, encoding: .utf8)
        let object = try cli.json(["--today", "2025-04-12", "import", statement, "--account", "VTB Debit", "--learn"])
        let statuses = try Self.lines(object).map { $0.string("status") ?? "" }
        #expect(statuses.count == 5)
        #expect(statuses[0] == "settles Mortgage@2025-04-05")
        #expect(statuses[1] == "settles Salary Anna@2025-04-10")
        #expect(statuses[2].hasPrefix("matches tx "))
        #expect(statuses[3] == "new")
        #expect(statuses[4] == "uncategorised")
        let rows = try Self.lines(object)
        #expect(rows[2].string("counterpart") == "Groceries")
        #expect(rows[3].string("counterpart") == "Groceries", "learned from 'Pyaterochka 5678 Moscow'")
        #expect(rows[0].string("counterpart") == "Loan interest, Mortgage")
        #expect(try ExpectedFlowTests.state(cli, "Mortgage@2025-04-05", today: "2025-04-12") == "settled")
        #expect(try ExpectedFlowTests.state(cli, "Salary Anna@2025-04-10", today: "2025-04-12") == "settled")
        #expect(cli.ok(["check"]).contains(": ok"))
        // Imported again: every line is a duplicate, the matched one included.
        let again = try Self.summary(try cli.json(["--today", "2025-04-12", "import", statement, "--account", "VTB Debit", "--learn"]))
        #expect(again["duplicate"] as? Int == 5)
    }

    /// A newest-first file that does not say so is read as hledger reads it (reversed, its first
    /// line being later than its last): the closing balance is its newest line's.
    @Test func aNewestFirstFileIsTakenOldestFirstAndClosesOnItsNewestLine() throws {
        let cli = try Self.ledger()
        let result = cli.run(["import", Self.fixture("newest.csv"), "--account", "Giro", "--create-missing", "--strict"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Closing balance on 2025-05-04: 45.00, as in the ledger."), "\(result.stdout)")
        let payees = try cli.rows(["tx", "list", "--account", "Giro"]).compactMap { $0.string("payee") }
        #expect(Set(payees) == ["Opening", "Cafe", "Kiosk", "Bakery", "Rent", "Bus"])
    }

    /// `--learn` never learns Uncategorised (where lines went that nothing categorised): a payee
    /// seen only there stays uncategorised, and one also seen in a category gets that category.
    @Test func learningSkipsUncategorised() throws {
        let cli = try Self.ledger()
        try "fields date, description, amount\n".write(toFile: cli.path("l.rules"), atomically: true, encoding: .utf8)
        try "2025-05-01,OZON 1234,-10.00\n2025-05-02,OZON 5678,-11.00\n2025-05-03,OZON 9012,-12.00\n".write(
            toFile: cli.path("first.csv"), atomically: true, encoding: .utf8)
        cli.ok(["import", cli.path("first.csv"), "--account", "Giro", "--rules", cli.path("l.rules"), "--today", "2025-06-01"])
        try "2025-05-10,Ozon 9999,-13.00\n".write(toFile: cli.path("second.csv"), atomically: true, encoding: .utf8)
        let args = [
            "--today", "2025-06-01", "import", cli.path("second.csv"), "--account", "Giro", "--rules", cli.path("l.rules"), "--learn", "--dry-run",
        ]
        let first = try cli.json(args)
        let only = try Self.lines(first)
        #expect(only.first?.string("status") == "uncategorised")
        // No closing balance in the statement: the summary's balance is null, not left out.
        #expect(try Self.summary(first)["balance"] is NSNull)
        cli.ok(["category", "add", "Shopping"])
        cli.ok(["spend", "9", "Shopping", "--payee", "OZON 4444", "--from", "Giro", "--on", "2025-04-01"])
        let learned = try Self.lines(try cli.json(args))
        #expect(learned.first?.string("status") == "new")
        #expect(learned.first?.string("counterpart") == "Shopping")
    }

    @Test func keepBothAddsALineAHandEnteredTransactionStandsFor() throws {
        let cli = try CLI.household()
        cli.ok(["spend", "99", "Groceries", "--on", "2025-04-12", "--from", "VTB Debit"])
        let statement = cli.path("one.csv")
        try "2025-04-13,SHOP,-99.00\n".write(toFile: statement, atomically: true, encoding: .utf8)
        try "fields date, description, amount\n".write(toFile: cli.path("one.rules"), atomically: true, encoding: .utf8)
        let matched = try Self.lines(try cli.json(["--today", "2025-04-13", "import", statement, "--account", "VTB Debit", "--dry-run"]))
        #expect(matched.first?.string("status")?.hasPrefix("matches tx ") == true)
        let kept = try Self.lines(try cli.json(["--today", "2025-04-13", "import", statement, "--account", "VTB Debit", "--keep-both"]))
        #expect(kept.first?.string("status") == "uncategorised")
    }

    @Test func anOFXFileOfTwoAccountsImportsTheOneNamed() throws {
        let cli = try Self.ledger()
        let file = Self.fixture("bank-ofx2.ofx")
        cli.fails(["import", file, "--account", "Giro"], mentioning: ["STATEMENT", "--ofx-account", "2 statements", "DE89370400440532013000"])
        cli.fails(["import", file, "--account", "Giro", "--ofx-account", "999"], mentioning: ["--ofx-account '999'", "no statement"])
        cli.ok(["category", "add", "Opening", "--income"])
        cli.ok(["earn", "1000", "Opening", "--to", "Giro", "--on", "2025-01-31"])
        let object = try cli.json(["import", file, "--account", "Giro", "--ofx-account", "3000", "--create-missing"])
        let rows = try Self.lines(object)
        #expect(rows.map { $0.string("id") } == ["CUR-0001", "CUR-0002", "CUR-0003", "CUR-0004"])
        #expect(rows[1].string("payee") == "Hausverwaltung Müller & Partner")
        let summary = try Self.summary(object)
        let balance = try #require(summary["balance"] as? [String: Any])
        #expect(balance.string("stated") == "2526.20")
        #expect(balance.string("difference") == "0.00")
        #expect(summary["format"] as? String == "ofx")
        let again = try Self.summary(try cli.json(["import", file, "--account", "Giro", "--ofx-account", "3000"]))
        #expect(again["duplicate"] as? Int == 4)
    }

    @Test func anOFX102CardStatementImportsIntoACard() throws {
        let cli = try Self.ledger("USD", account: "Visa", kind: "credit-card")
        let object = try Self.json(cli, ["import", Self.fixture("card-ofx102.ofx"), "--account", "Visa"], warning: "-1234.56")
        let summary = try Self.summary(object)
        #expect(summary["lines"] as? Int == 8)
        #expect(summary["encoding"] as? String == "windows-1252")
        #expect(try Self.lines(object).allSatisfy { $0.string("currency") == "USD" })
    }

    @Test func aQIFSplitBecomesOneTransactionOfSeveralPostings() throws {
        let cli = try Self.ledger("USD", account: "Checking")
        cli.ok(["account", "add", "Savings", "--kind", "deposit"])
        let object = try cli.json(["import", Self.fixture("splits.qif"), "--account", "Checking", "--create-missing"])
        let rows = try Self.lines(object)
        let split = try #require(rows.first { $0.string("payee") == "Supermarket" })
        #expect(split.string("counterpart") == "Groceries, Household, Savings")
        let transactions = try cli.rows(["tx", "list", "--search", "Supermarket"])
        let id = try #require(transactions.first?.string("id"))
        let shown = try #require(try cli.json(["tx", "show", id]) as? [String: Any])
        #expect((shown["postings"] as? [Any])?.count == 4)
        #expect(rows.contains { $0.string("payee") == "Transfer to savings" && $0.string("counterpart") == "Savings" })
    }

    /// A split part with no category (`$` before any `S`) goes to Uncategorised, as a whole line
    /// with none does: no category with an empty name, no error.
    @Test func aQIFSplitPartWithoutACategoryIsUncategorised() throws {
        let cli = try Self.ledger()
        try "!Type:Bank\nD01/02/2025\nT-100.00\nPShop\nLGroceries\n$-60.00\nSHealth\n$-40.00\n^\n".write(
            toFile: cli.path("part.qif"), atomically: true, encoding: .utf8)
        let rows = try Self.lines(try cli.json(["import", cli.path("part.qif"), "--account", "Giro", "--create-missing", "--month-first"]))
        #expect(rows.first?.string("status") == "uncategorised")
        #expect(rows.first?.string("counterpart") == "Uncategorised, Health")
        let names = try cli.rows(["category", "list"]).compactMap { $0.string("name") }
        #expect(names.contains("Uncategorised") && names.contains("Health"))
        #expect(!names.contains(""))
        #expect(cli.ok(["check"]).contains(": ok"))
    }

    @Test func rulesTestShowsWhichRulesMatchedEachLine() throws {
        let cli = try CLI()
        let object = try cli.json(["rules", "test", Self.fixture("eurobank.rules"), Self.fixture("eurobank.csv"), "--currency", "EUR"])
        let rows = try #require(object as? [[String: Any]])
        #expect(rows.count == 23)
        #expect(rows[0]["rules"] as? [String] == ["eurobank-common.rules:3", "eurobank.rules:56"])
        #expect(rows[0].string("counterpart") == "expenses:housing:rent")
        #expect(rows.last?["rules"] is NSNull)
        let table = cli.ok(["rules", "test", Self.fixture("eurobank.rules"), Self.fixture("eurobank.csv")])
        #expect(table.contains("1 matched no if rule"))
    }

    // MARK: Bad input: one line naming file, line and reason; nothing imported

    /// Writes `rules` and `csv` into the CLI's folder and imports them into Giro.
    static func importing(_ cli: CLI, rules: String, csv: String, extra: [String] = []) throws -> [String] {
        try rules.write(toFile: cli.path("bad.rules"), atomically: true, encoding: .utf8)
        try csv.write(toFile: cli.path("bad.csv"), atomically: true, encoding: .utf8)
        return ["import", cli.path("bad.csv"), "--account", "Giro", "--rules", cli.path("bad.rules"), "--create-missing"] + extra
    }

    static let plain = "fields date, description, amount\n"

    @Test func badRulesAreRefusedByFileAndLine() throws {
        let cli = try Self.ledger()
        let csv = "2025-01-02,Shop,-5.00\n"
        cli.fails(try Self.importing(cli, rules: Self.plain + "foo bar\n", csv: csv), mentioning: ["bad.rules:2", "unknown directive 'foo'"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain + "timezone +0300\n", csv: csv), mentioning: ["bad.rules:2", "'timezone'", "does not read"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain + "if (abc\n account2 expenses:x\n", csv: csv),
            mentioning: ["bad.rules:2", "'(abc'", "does not compile"])
        cli.fails(try Self.importing(cli, rules: Self.plain + "description %nope\n", csv: csv), mentioning: ["bad.rules:2", "%nope names no field"])
        cli.fails(try Self.importing(cli, rules: Self.plain + "separator ;;\n", csv: csv), mentioning: ["bad.rules:2", "separator ';;'"])
        cli.fails(try Self.importing(cli, rules: Self.plain + "date-format %d/%q/%Y\n", csv: csv), mentioning: ["bad.rules:2", "date-format"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain + "include missing.rules\n", csv: csv), mentioning: ["bad.rules:2", "include 'missing.rules'"])
        try "include loop.rules\n".write(toFile: cli.path("loop.rules"), atomically: true, encoding: .utf8)
        cli.fails(try Self.importing(cli, rules: "include loop.rules\n", csv: csv), mentioning: ["loop.rules:1", "includes itself"])
        try "include back.rules\n".write(toFile: cli.path("forth.rules"), atomically: true, encoding: .utf8)
        try "include forth.rules\n".write(toFile: cli.path("back.rules"), atomically: true, encoding: .utf8)
        cli.fails(
            try Self.importing(cli, rules: "include forth.rules\n", csv: csv),
            mentioning: ["back.rules:1", "include 'forth.rules': that file is already being read (a cycle of includes)"])
    }

    @Test func badRecordsAreRefusedByFileAndLine() throws {
        let cli = try Self.ledger()
        cli.fails(
            try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Shop,-5.00,extra\n"), mentioning: ["bad.csv:1", "4 fields", "fields names 3"])
        cli.fails(try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,-5.00\n"), mentioning: ["bad.csv:1", "2 fields", "fields names 3"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Shop,-5.00\n2025-01-03,\"Shop,-5.00\n"),
            mentioning: ["bad.csv:2", "never closed"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain + "date-format %d.%m.%Y\n", csv: "02.01.2025,Shop,-5.00\n2025-01-03,Shop,-5.00\n"),
            mentioning: ["bad.csv:2", "date '2025-01-03'", "%d.%m.%Y"])
        cli.fails(try Self.importing(cli, rules: Self.plain, csv: "2025-02-30,Shop,-5.00\n"), mentioning: ["bad.csv:1", "date '2025-02-30'"])
        cli.fails(try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Shop,-5x\n"), mentioning: ["bad.csv:1", "amount '-5x'"])
        cli.fails(
            try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Shop,99999999999999999999\n"),
            mentioning: ["bad.csv:1", "amount '99999999999999999999'"])
        // The most negative Int64 has no negation (the counterpart's posting): refused, not a crash.
        cli.fails(
            try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Big,-92233720368547758.08\n"),
            mentioning: ["bad.csv:1", "amount '-92233720368547758.08' is too large"])
        cli.fails(
            try Self.importing(cli, rules: "fields date, description, out, in\namount-in %in\namount-out %out\n", csv: "2025-01-02,Shop,5.00,6.00\n"),
            mentioning: ["bad.csv:1", "both amount-in '6.00' and amount-out '5.00'"])
        cli.fails(try Self.importing(cli, rules: Self.plain, csv: "2025-01-02,Shop,\n"), mentioning: ["bad.csv:1", "no amount"])
    }

    /// A currency sign or code printed with an amount names its currency: another one than the
    /// account's (or than the rules' `currency`) is refused by file and line, never dropped.
    @Test func aCurrencyPrintedWithAnAmountMustBeTheAccounts() throws {
        let cli = try Self.ledger()
        let semicolons = "separator ;\nfields date, description, amount\n"
        for (amount, mark) in [("-$12.00", "$"), ("-12,00 USD", "USD"), ("£7.00", "£")] {
            cli.fails(
                try Self.importing(cli, rules: semicolons, csv: "2025-01-02;Shop;-5,00 €\n2025-01-03;Shop;\(amount)\n"),
                mentioning: ["bad.csv:2", "the amount is in \(mark)", "account 'Giro' in EUR"])
        }
        cli.fails(
            try Self.importing(cli, rules: semicolons + "currency EUR\n", csv: "2025-01-03;Shop;-$12.00\n"),
            mentioning: ["bad.csv:1", "amount '-$12.00' is in $, the rules' currency is EUR"])
        // A counterpart in another currency is refused by the dry run too, by line.
        cli.ok(["account", "add", "Wallet", "--kind", "cash", "--currency", "USD"])
        let wallet = try Self.importing(cli, rules: Self.plain + "if Cash\n account2 assets:wallet\n", csv: "2025-01-02,Cash,-5.00\n")
        cli.fails(wallet + ["--dry-run"], mentioning: ["bad.csv:1", "the counterpart 'Wallet' holds USD, account 'Giro' EUR"])
        cli.fails(wallet, mentioning: ["bad.csv:1", "the counterpart 'Wallet' holds USD"])
        // Signs and codes of the account's own currency are read as before.
        let args = try Self.importing(cli, rules: semicolons, csv: "2025-01-02;Shop;-5,00 €\n2025-01-03;Shop;-1.234,50 EUR\n2025-01-04;Shop;7\n")
        let rows = try Self.lines(try Self.json(cli, args))
        #expect(rows.map { $0.string("amount") } == ["-5.00", "-1234.50", "7.00"])
    }

    @Test func badStatementsAreRefused() throws {
        let cli = try Self.ledger()
        try "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>\n".write(
            toFile: cli.path("empty.ofx"), atomically: true, encoding: .utf8)
        let empty = cli.fails(["import", cli.path("empty.ofx"), "--account", "Giro"], mentioning: ["empty.ofx: no bank or credit-card statement"])
        #expect(!empty.stderr.contains(":0:"), "\(empty.stderr)")
        try "OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKTRANLIST><STMTTRN><TRNAMT"
            .write(toFile: cli.path("cut.ofx"), atomically: true, encoding: .utf8)
        cli.fails(["import", cli.path("cut.ofx"), "--account", "Giro"], mentioning: ["cut.ofx:3"])
        try "!Type:Invst\nD1/2/25\nT5\n^\n".write(toFile: cli.path("invest.qif"), atomically: true, encoding: .utf8)
        cli.fails(["import", cli.path("invest.qif"), "--account", "Giro"], mentioning: ["invest.qif:1", "!Type:Invst"])
        // A statement in pounds into a euro account.
        cli.fails(["import", Self.fixture("tabbank.tsv"), "--account", "Giro", "--create-missing"], mentioning: ["tabbank.tsv", "GBP", "EUR"])
        cli.fails(["import", Self.fixture("eurobank.csv"), "--account", "Nowhere"], mentioning: ["--account 'Nowhere'", "no account"])
        cli.fails(
            ["import", Self.fixture("eurobank.csv"), "--account", "Giro", "--rules", Self.fixture("eurobank.rules")],
            mentioning: ["match no category", "--create-missing"])
        try FileManager.default.copyItem(atPath: Self.fixture("eurobank.csv"), toPath: cli.path("alone.csv"))
        cli.fails(["import", cli.path("alone.csv"), "--account", "Giro"], mentioning: ["--rules", "alone.csv.rules", "alone.rules"])
        cli.fails(["import", Self.fixture("eurobank.csv")], mentioning: ["--account", "bank statement"])
        cli.fails(["import", CLI.samplePath, "--dry-run"], mentioning: ["--dry-run goes with --account"])
        cli.fails(["import", Self.fixture("bank-ofx2.ofx"), "--account", "Giro", "--format-in", "pdf"], mentioning: ["--format-in 'pdf'"])
        cli.fails(
            Self.eurobank + ["--ofx-account", "123"],
            mentioning: ["--ofx-account '123'", "the statement is CSV, not OFX"])
        cli.fails(Self.eurobank + ["--day-first"], mentioning: ["--day-first reads QIF dates; the statement is CSV"])
        cli.fails(
            ["import", Self.fixture("bank-ofx2.ofx"), "--account", "Giro", "--day-first"], mentioning: ["--day-first", "the statement is OFX"])
        cli.fails(["import", Self.fixture("bank-ofx2.ofx"), "--account", "Giro", "--encoding", "koi8"], mentioning: ["--encoding 'koi8'"])
        cli.fails(["import", Self.fixture("bank-ofx2.ofx"), "--account", "Giro", "--match-days", "-1"], mentioning: ["--match-days '-1'"])
        cli.fails(["import", cli.path("nothing.csv"), "--account", "Giro"], mentioning: ["nothing.csv", "no such file"])
        let noRules = cli.fails(
            ["rules", "test", cli.path("none.rules"), Self.fixture("eurobank.csv")], mentioning: ["RULES '", "none.rules", "no such file"])
        #expect(!noRules.stderr.contains("--rules"), "\(noRules.stderr)")
    }

    /// A file of one line: 2 MB is refused at its first megabyte, 1 GB (sparse: no disk) at once, by its size.
    @Test func aFileOfOneHugeLineIsRefusedQuickly() throws {
        let cli = try Self.ledger()
        try String(repeating: "x", count: 2 << 20).write(toFile: cli.path("long.csv"), atomically: true, encoding: .utf8)
        try Self.plain.write(toFile: cli.path("long.csv.rules"), atomically: true, encoding: .utf8)
        cli.fails(["import", cli.path("long.csv"), "--account", "Giro"], mentioning: ["long.csv:1", "more than 1 MB"])
        let huge = cli.path("huge.csv")
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        try Self.plain.write(toFile: huge + ".rules", atomically: true, encoding: .utf8)
        // Refused by its size, before a byte is read.
        cli.fails(["import", huge, "--account", "Giro"], mentioning: ["huge.csv", "1024 MB is more than a statement can be"])
    }
}
