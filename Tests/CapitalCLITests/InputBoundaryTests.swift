import Foundation
import Testing

/// Issue 51, item 17 and part of item 18: impossible dates, names and texts refused at every
/// way in (command line, ledger files, statements), and the answers that said too little.
@Suite("CLI: input boundaries")
struct InputBoundaryTests {
    static func object(_ cli: CLI, _ args: [String]) throws -> [String: Any] {
        try #require(try cli.json(args) as? [String: Any])
    }

    // MARK: Item 17: years

    @Test(arguments: ["0000-01-01", "1899-12-31", "2201-01-01", "9999-12-31"])
    func aYearOutsideTheRangeIsRefusedOnTheCommandLine(_ date: String) throws {
        let cli = try CLI.household()
        let on = cli.fails(["spend", "5", "Groceries", "--on", date], mentioning: ["--on", "'\(date)'", "the year must be 1900 to 2200"])
        #expect(on.status == 64)
        let today = cli.fails(["spend", "5", "Groceries", "--today", date], mentioning: ["--today", "'\(date)'", "1900 to 2200"])
        #expect(today.status == 64)
        cli.fails(["forecast", "--until", String(date.prefix(7))], mentioning: ["'\(date.prefix(7))'", "1900 to 2200"])
    }

    @Test func theRangeItselfIsAccepted() throws {
        let cli = try CLI.household()
        cli.ok(["spend", "5", "Groceries", "--from", "Cash", "--on", "1900-01-01"])
        cli.ok(["spend", "5", "Groceries", "--from", "Cash", "--on", "2200-12-31"])
    }

    @Test func aRelativeDateMayNotReachPastTheRange() throws {
        let cli = try CLI.household()
        cli.fails(["forecast", "--until", "+5y", "--today", "2199-06-01"], mentioning: ["'+5y'", "2204-06-01", "1900 to 2200"])
    }

    @Test func aLedgerFileWithAYearOutsideTheRangeIsRefused() throws {
        let cli = try CLI.initialized()
        let file = cli.path("old.yaml")
        try """
        capital: 1
        currency: RUB
        accounts:
          - name: Cash
            kind: cash
        transactions:
          - date: 0000-01-01
            amount: 5
            from: Cash
            to: Capital
        """.write(toFile: file, atomically: true, encoding: .utf8)
        cli.fails(["import", file], mentioning: ["old.yaml:7", "'0000-01-01'", "1900 to 2200"])
    }

    @Test func aStatementLineWithAYearOutsideTheRangeIsRefused() throws {
        let cli = try StatementImportTests.ledger()
        try "!Type:Bank\nD01/02/2025\nT-1.00\nPShop\n^\nD01/02/1800\nT-100.00\nPShop\n^\n".write(
            toFile: cli.path("old.qif"), atomically: true, encoding: .utf8)
        cli.fails(
            ["import", cli.path("old.qif"), "--account", "Giro", "--create-missing", "--month-first"],
            mentioning: ["old.qif:6", "1800", "1900 to 2200"])
    }

    // MARK: Item 17: names and texts

    @Test func aNameWithAControlCharacterIsRefused() throws {
        let cli = try CLI.initialized()
        let tab = cli.fails(["account", "add", "Food\tDrink", "--kind", "cash"], mentioning: ["a name cannot have a control character (U+0009)"])
        #expect(tab.status == 64, "a malformed name is a usage error (issue 51, item 16)")
        cli.fails(["account", "add", "Bell\u{7}", "--kind", "cash"], mentioning: ["U+0007"])
        cli.fails(["account", "add", "Del\u{7F}", "--kind", "cash"], mentioning: ["U+007F"])
        cli.fails(["spend", "5", "Groceries", "--payee", "Shop\tOne"], mentioning: ["--payee", "U+0009"])
        cli.fails(["spend", "5", "Groceries", "--note", "Escape \u{1B}[31m"], mentioning: ["--note", "U+001B"])
        cli.fails(["spend", "5", "Groceries", "--tag", "a\tb"], mentioning: ["--tag", "U+0009"])
        cli.fails(["spend", "5", "Groceries", "--payee", "Two\nlines"], mentioning: ["--payee", "U+000A"])
        // A note may span lines (a bank's memo often does); nothing else.
        cli.ok(["spend", "5", "Groceries", "--note", "line one\nline two"])
        cli.fails(["spend", "5", "Groceries", "--note", "a\tb"], mentioning: ["--note", "U+0009"])
    }

    @Test func aNameLongerThanTheLimitIsRefused() throws {
        let cli = try CLI.initialized()
        let long = String(repeating: "a", count: 60_000)
        cli.fails(["account", "add", long, "--kind", "cash"], mentioning: ["60000 characters, more than 200"])
        cli.fails(
            ["spend", "5", "Groceries", "--note", String(repeating: "n", count: 2001)], mentioning: ["--note", "2001 characters, more than 2000"])
        cli.ok(["account", "add", String(repeating: "b", count: 200), "--kind", "cash"])
        cli.ok(["spend", "5", "Groceries", "--note", String(repeating: "n", count: 2000)])
    }

    @Test func aLedgerFileNameWithAControlCharacterIsRefused() throws {
        let cli = try CLI.initialized()
        let file = cli.path("tab.yaml")
        try """
        capital: 1
        currency: RUB
        accounts:
          - name: "Food\\tDrink"
            kind: expense
        """.write(toFile: file, atomically: true, encoding: .utf8)
        cli.fails(["import", file], mentioning: ["tab.yaml:4", "U+0009"])
    }

    /// An account's or a schedule's note and a due payment's texts are checked in a file as on
    /// the command line; nothing is imported.
    @Test(arguments: [
        ("    note: \"a\\tb\"\n", "", "accounts[0].note"),
        ("", "    note: \"a\\tb\"\n", "schedules[0].note"),
        ("", "", "dues[0]"),
    ])
    func aLedgerFileNoteOrReasonWithAControlCharacterIsRefused(accountNote: String, scheduleNote: String, field: String) throws {
        let cli = try CLI()
        let file = cli.path("notes.yaml")
        let reason = field == "dues[0]" ? "Water\\tbill" : "Water"
        try """
        capital: 1
        currency: RUB
        accounts:
          - name: Bank
            kind: debit
        \(accountNote)  - name: Salary
            kind: income
          - name: Utilities
            kind: expense
        schedules:
          - name: Pay
            rule: monthly on 10
            start: 2025-01-10
            amount: 1000
            from: Salary
            to: Bank
        \(scheduleNote)dues:
          - type: bill
            total: 5400
            reason: "\(reason)"
            due: 2025-04-10
            category: Utilities

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let before = cli.state()
        cli.fails(["import", file], mentioning: [field, "U+0009"])
        #expect(cli.state() == before, "nothing is imported")
    }

    @Test func aStatementPayeeWithAControlCharacterIsRefused() throws {
        let cli = try StatementImportTests.ledger()
        try "!Type:Bank\nD01/02/2025\nT-1.00\nPShop\u{1B}One\n^\n".write(toFile: cli.path("esc.qif"), atomically: true, encoding: .utf8)
        cli.fails(["import", cli.path("esc.qif"), "--account", "Giro", "--create-missing", "--month-first"], mentioning: ["esc.qif:2", "U+001B"])
    }

    // MARK: Item 17: a negative rate

    @Test func aNegativeRateIsReadAndRefused() throws {
        let cli = try CLI.initialized()
        let result = cli.fails(["rate", "set", "USD", "-1"], mentioning: ["RATE '-1'", "above zero"])
        #expect(result.status == 64)
        cli.fails(["rate", "set", "USD", "-1.5", "--on", "2025-01-01"], mentioning: ["RATE '-1.5'", "above zero"])
    }

    // MARK: Item 18

    @Test func aTransferAcrossCurrenciesSaysWhatArrived() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "Dollars", "--kind", "cash", "--currency", "USD"])
        cli.ok(["earn", "100000", "Salary", "--to", "VTB Debit", "--on", "2025-01-05"])
        let said = cli.ok(["transfer", "9250", "--from", "VTB Debit", "--to", "Dollars", "--paid", "100", "--on", "2025-01-06"])
        #expect(said.contains("from VTB Debit to Dollars") && said.contains(": 100.00 USD arrived."), "\(said)")
        cli.ok(["account", "add", "Wallet", "--kind", "cash"])
        let same = cli.ok(["transfer", "50", "--from", "VTB Debit", "--to", "Wallet", "--on", "2025-01-06"])
        #expect(!same.contains("arrived"), "\(same)")
    }

    @Test func serveHelpWorksWithoutTheServer() throws {
        let cli = try CLI()
        let result = cli.run(["serve", "--help"], env: ["CAPITAL_SERVER": cli.path("no-capital-server")])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: capital serve"), "\(result.stdout)")
        #expect(result.stderr.contains("capital-server is not beside capital"), "\(result.stderr)")
        // Anything else still needs the server.
        cli.fails(["serve", "--data", cli.path("data")], mentioning: ["capital-server"], env: ["CAPITAL_SERVER": cli.path("no-capital-server")])
    }

    /// Exported and imported into a fresh database, a ledger keeps the keys of its statement
    /// lines: importing the same statement again adds nothing and changes nothing.
    @Test func anExportedLedgerKeepsItsStatementLineKeys() throws {
        let cli = try StatementImportTests.ledger()
        let first = try StatementImportTests.summary(try StatementImportTests.json(cli, StatementImportTests.eurobank, warning: "4057.72"))
        #expect(first["new"] as? Int == 22)
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("statementKey: "))
        let fresh = try CLI()
        cli.ok(["import", file], env: ["CAPITAL_DB": fresh.db])
        let before = fresh.state()
        let result = fresh.run(StatementImportTests.eurobank + ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        let again = try StatementImportTests.summary(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
        #expect(again["new"] as? Int == 0, "\(again)")
        #expect(again["written"] as? Bool == false, "\(again)")
        #expect(fresh.state() == before)
    }

    /// A statement left unpaid month after month is overdue since the first due day it missed.
    @Test func anOverdueCardIsOverdueSinceTheFirstMissedDueDay() throws {
        let cli = try CardDepositTests.withMoney()
        cli.ok(
            ["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"]
                + CardDepositTests.today)
        cli.ok(["spend", "3000", "Groceries", "--from", "Tinkoff", "--on", "2025-03-26"])
        cli.ok(["spend", "500", "Groceries", "--from", "Tinkoff", "--on", "2025-05-01"])
        // Due 15 May (the 25 April statement), then 14 June (25 May), then 15 July: never paid.
        for today in ["2025-05-20", "2025-06-20", "2025-07-20"] {
            let show = try Self.object(cli, ["card", "show", "Tinkoff", "--today", today])
            #expect(show.string("overdueSince") == "2025-05-15", "seen from \(today): \(show)")
        }
        // Paid in full on 10 June, before the 14 June due day: nothing is overdue on 20 June.
        cli.ok(["transfer", "3500", "--from", "VTB Debit", "--to", "Tinkoff", "--on", "2025-06-10"])
        let paid = try Self.object(cli, ["card", "show", "Tinkoff", "--today", "2025-06-20"])
        #expect(paid.string("overdue") == "0.00" && (paid["overdueSince"] == nil || paid["overdueSince"] is NSNull), "\(paid)")
    }

    @Test func budgetSetSaysTheStartItStores() throws {
        let cli = try CLI.initialized()
        let said = cli.ok(["budget", "set", "Groceries", "40000", "--from", "2025-04-15"])
        #expect(said.contains("from 2025-04-01"), "\(said)")
        let exported = cli.ok(["export"])
        #expect(exported.contains("from: 2025-04-01") && !exported.contains("2025-04-15"), "\(exported)")
        cli.ok(["budget", "set", "Entertainment", "2500", "--weekly", "--from", "2025-04-17"])
        #expect(cli.ok(["export"]).contains("from: 2025-04-14"))
    }

    @Test func anImportSummaryCountsEachKind() throws {
        let cli = try CLI()
        let said = cli.ok(["import", "samples/household.yaml"])
        #expect(said.contains("1 card") && said.contains("1 deposit") && said.contains("2 budgets"), "\(said)")
        #expect(!said.contains("loans, cards, deposits"), "\(said)")
        let again = cli.ok(["import", "samples/household.yaml"])
        #expect(again.contains("1 card") && again.contains("already there"), "\(again)")
        let json = try #require(try cli.json(["import", "samples/household.yaml"]) as? [String: Any])
        #expect(json["cardsAlreadyPresent"] as? Int == 1 && json["cardsAdded"] as? Int == 0)
    }
}
