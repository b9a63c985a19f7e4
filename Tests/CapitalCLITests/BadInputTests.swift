import Foundation
import GRDB
import Testing

/// Every bad input of issue 2: a one-line error naming the field, the value and the reason, a
/// non-zero exit, and the database unchanged.
@Suite("CLI: bad input")
struct BadInputTests {
    struct BadCommand: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var args: [String]
        var mentions: [String]
    }

    static let onTheHousehold: [BadCommand] = [
        BadCommand(testDescription: "unknown category", args: ["spend", "5", "Nowhere"], mentions: ["account 'Nowhere'", "not found"]),
        BadCommand(
            testDescription: "spending into an income category", args: ["spend", "5", "Salary"],
            mentions: ["'Salary': it is an income account, not an expense category", "is earned: use `capital earn`"]),
        BadCommand(
            testDescription: "spending into an account", args: ["spend", "5", "Cash"],
            mentions: ["'Cash': it is a cash account", "use `capital transfer` between accounts"]),
        BadCommand(
            testDescription: "unknown account in --from", args: ["spend", "5", "Groceries", "--from", "Nowhere"],
            mentions: ["account 'Nowhere'", "not found"]),
        BadCommand(
            testDescription: "unknown account in a posting", args: ["tx", "add", "--posting", "Nowhere=5", "--posting", "VTB Debit"],
            mentions: ["'Nowhere'", "not found"]),
        BadCommand(testDescription: "unknown account to show", args: ["account", "show", "Nowhere"], mentions: ["'Nowhere'", "not found"]),
        BadCommand(
            testDescription: "unknown account suggests similar names", args: ["spend", "5", "Groceries", "--from", "VTB"],
            mentions: ["account 'VTB'", "not found", "'VTB Debit'", "'VTB Loan'"]),
        BadCommand(
            testDescription: "unbalanced transaction",
            args: ["tx", "add", "--on", "2025-04-01", "--posting", "Groceries=5", "--posting", "VTB Debit=-4"],
            mentions: ["postings do not balance", "1.00 RUB"]),
        BadCommand(
            testDescription: "too many decimals", args: ["spend", "1.234", "Groceries"],
            mentions: ["AMOUNT", "'1.234'", "too many decimals", "RUB allows 2"]),
        BadCommand(
            testDescription: "too many decimals in a posting",
            args: ["tx", "add", "--posting", "Groceries=0.005", "--posting", "VTB Debit"],
            mentions: ["--posting 'Groceries=0.005'", "'0.005'", "too many decimals"]),
        BadCommand(
            testDescription: "12,34.5", args: ["spend", "12,34.5", "Groceries"], mentions: ["AMOUNT", "'12,34.5'", "not an amount"]),
        BadCommand(
            testDescription: "amount overflowing Int64", args: ["spend", "99999999999999999999", "Groceries"],
            mentions: ["AMOUNT", "'99999999999999999999'", "overflows"]),
        BadCommand(
            testDescription: "posting overflowing Int64",
            args: ["tx", "add", "--posting", "Groceries=92233720368547758.08", "--posting", "VTB Debit"],
            mentions: ["'92233720368547758.08'", "overflows"]),
        BadCommand(
            testDescription: "postings summing past Int64",
            args: ["tx", "add", "--posting", "Groceries=92233720368547758.07", "--posting", "Eating out=1", "--posting", "VTB Debit"],
            mentions: ["overflow"]),
        BadCommand(testDescription: "empty amount", args: ["spend", "", "Groceries"], mentions: ["AMOUNT", "empty"]),
        BadCommand(testDescription: "NaN", args: ["spend", "NaN", "Groceries"], mentions: ["AMOUNT", "'NaN'", "not an amount"]),
        BadCommand(testDescription: "zero", args: ["spend", "0", "Groceries"], mentions: ["AMOUNT", "'0'", "more than zero"]),
        BadCommand(
            testDescription: "2025-02-30", args: ["spend", "5", "Groceries", "--on", "2025-02-30"], mentions: ["--on", "'2025-02-30'", "28"]),
        BadCommand(testDescription: "month 13", args: ["balance", "--on", "2025-13-01"], mentions: ["--on", "'2025-13-01'"]),
        BadCommand(testDescription: "short year", args: ["tx", "list", "--from", "25-1-1"], mentions: ["--from", "'25-1-1'"]),
        BadCommand(
            testDescription: "bad --today", args: ["spend", "5", "Groceries", "--today", "2025-02-30"], mentions: ["--today", "'2025-02-30'"]),
        BadCommand(
            testDescription: "deleting Capital", args: ["account", "rm", "Capital"], mentions: ["account 'Capital'", "cannot be deleted"]),
        BadCommand(
            testDescription: "deleting Capital into itself", args: ["account", "rm", "capital", "--to-capital"],
            mentions: ["account 'Capital'", "cannot be deleted"]),
        BadCommand(
            testDescription: "cascading Capital", args: ["account", "rm", "Capital", "--cascade", "--yes"],
            mentions: ["account 'Capital'", "cannot be deleted"]),
        BadCommand(
            testDescription: "renaming Capital", args: ["account", "edit", "Capital", "--name", "Equity"],
            mentions: ["account 'Capital'", "cannot be renamed"]),
        BadCommand(
            testDescription: "hiding Capital", args: ["account", "rm", "Capital", "--hide"], mentions: ["account 'Capital'", "cannot be hidden"]),
        BadCommand(
            testDescription: "removing an account with postings without a choice", args: ["account", "rm", "VTB Debit"],
            mentions: ["account 'VTB Debit'", "postings", "--move-to", "--to-capital", "--hide", "--cascade"]),
        BadCommand(
            testDescription: "cascade without confirmation", args: ["account", "rm", "Cash", "--cascade"],
            mentions: ["--cascade", "not confirmed", "--yes"]),
        BadCommand(
            testDescription: "two removal choices", args: ["account", "rm", "Cash", "--hide", "--to-capital"],
            mentions: ["--move-to", "choose one"]),
        BadCommand(
            testDescription: "moving postings onto the account itself", args: ["account", "rm", "Cash", "--move-to", "cash"],
            mentions: ["--move-to", "'Cash'", "the account being removed"]),
        BadCommand(
            testDescription: "duplicate account name", args: ["account", "add", "vtb debit", "--kind", "cash"],
            mentions: ["account 'vtb debit'", "already taken"]),
        BadCommand(testDescription: "unknown kind", args: ["account", "add", "Piggy", "--kind", "piggy"], mentions: ["piggy", "kind"]),
        BadCommand(
            testDescription: "unknown currency", args: ["account", "add", "Dollars", "--kind", "cash", "--currency", "XYZ"],
            mentions: ["--currency", "'XYZ'"]),
        BadCommand(testDescription: "bad ladder level", args: ["account", "edit", "Cash", "--level", "9"], mentions: ["--level", "'9'", "1 to 6"]),
        BadCommand(
            testDescription: "spending on an account that is not a category", args: ["spend", "5", "Cash"],
            mentions: ["CATEGORY", "'Cash'", "not an expense category"]),
        BadCommand(
            testDescription: "earning from an expense", args: ["earn", "5", "Groceries"],
            mentions: ["CATEGORY", "'Groceries'", "not an income category"]),
        BadCommand(
            testDescription: "transfer to itself", args: ["transfer", "5", "--from", "Cash", "--to", "cash"],
            mentions: ["--to", "'cash'", "same account"]),
        BadCommand(testDescription: "one posting", args: ["tx", "add", "--posting", "Groceries=5"], mentions: ["--posting", "at least 2 postings"]),
        BadCommand(testDescription: "short transaction id", args: ["tx", "show", "ab"], mentions: ["transaction id 'ab'", "4 hex digits"]),
        BadCommand(testDescription: "unknown transaction", args: ["tx", "rm", "ffffffff"], mentions: ["transaction 'ffffffff'", "not found"]),
        BadCommand(testDescription: "unknown group", args: ["group", "show", "Nope"], mentions: ["group 'Nope'", "not found"]),
        BadCommand(
            testDescription: "unknown output format", args: ["balance", "--format", "xml"], mentions: ["--format", "'xml'", "table, json or csv"]),
        BadCommand(
            testDescription: "unknown export format", args: ["export", "--format", "xml"],
            mentions: ["--format", "'xml'", "yaml, json, csv or journal"]),
        BadCommand(testDescription: "unknown tx kind filter", args: ["tx", "list", "--kind", "gift"], mentions: ["--kind", "'gift'"]),
        BadCommand(
            testDescription: "an unknown category filter is named a category", args: ["tx", "list", "--category", "Groc"],
            mentions: ["category 'Groc': not found", "did you mean 'Groceries'?"]),
        BadCommand(
            testDescription: "an account as a category filter", args: ["tx", "list", "--category", "VTB Debit"],
            mentions: ["--category 'VTB Debit'", "not an income or expense category"]),
        BadCommand(testDescription: "an unreadable --min", args: ["tx", "list", "--min", "lots"], mentions: ["--min", "'lots'"]),
        BadCommand(testDescription: "an unreadable --from", args: ["tx", "list", "--from", "2025-13"], mentions: ["--from", "2025-13"]),
        BadCommand(
            testDescription: "--to before --from", args: ["tx", "list", "--from", "2025-03-01", "--to", "2025-02-01"],
            mentions: ["--to", "before --from"]),
        BadCommand(
            testDescription: "--max below --min", args: ["tx", "list", "--min", "500", "--max", "100"],
            mentions: ["--max '100'", "less than --min 500", "no amount is both"]),
        BadCommand(testDescription: "second init", args: ["init"], mentions: ["already initialized", "RUB"]),
        BadCommand(testDescription: "unknown command", args: ["spnd", "5"], mentions: ["spnd"]),
        BadCommand(
            testDescription: "post after today", args: ["post", "--until", "2030-01-01", "--today", "2025-04-01"],
            mentions: ["--until '2030-01-01'", "after today 2025-04-01", "only what is due"]),
    ]

    @Test(arguments: onTheHousehold)
    func badCommandIsRefusedInOneLineAndChangesNothing(_ bad: BadCommand) throws {
        let cli = try CLI.household()
        cli.fails(bad.args, mentioning: bad.mentions)
    }

    /// A posting that takes an account's sum past Int64 is refused; the database keeps what it had.
    @Test func postingsPastInt64AreRefused() throws {
        let cli = try CLI.initialized()
        cli.ok(["tx", "add", "--posting", "VTB Debit=90000000000000000", "--posting", "Capital"])
        cli.fails(
            ["tx", "add", "--posting", "VTB Debit=90000000000000000", "--posting", "Capital"],
            mentioning: ["account 'VTB Debit'", "past the largest amount capital can hold"])
    }

    @Test func ambiguousAccountIdPrefixListsTheCandidates() throws {
        let cli = try CLI.household()
        let queue = try DatabaseQueue(path: cli.db)
        try queue.write { db in
            try db.execute(sql: "UPDATE account SET id = 'abcd1111-0000-4000-8000-000000000001' WHERE name = 'Health'")
            try db.execute(sql: "UPDATE account SET id = 'abcd2222-0000-4000-8000-000000000002' WHERE name = 'Housing'")
        }
        try queue.close()
        for args in [["account", "show", "abcd"], ["spend", "5", "abcd"], ["account", "rm", "ABCD"]] {
            cli.fails(args, mentioning: ["account '", "ambiguous", "abcd1111 (Health)", "abcd2222 (Housing)"])
        }
        #expect(cli.ok(["account", "show", "abcd2", "--format", "json"]).contains("\"Housing\""))
    }

    @Test func ambiguousTransactionIdPrefixListsTheCandidates() throws {
        let cli = try CLI.household()
        let queue = try DatabaseQueue(path: cli.db)
        try queue.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let ids = try String.fetchAll(db, sql: "SELECT id FROM txn WHERE payee = 'Gymnastics' ORDER BY day LIMIT 2")
            for (index, old) in ids.enumerated() {
                let new = "beef000\(index)-0000-4000-8000-00000000000\(index)"
                try db.execute(sql: "UPDATE txn SET id = ? WHERE id = ?", arguments: [new, old])
                try db.execute(sql: "UPDATE posting SET txnId = ? WHERE txnId = ?", arguments: [new, old])
            }
        }
        try queue.close()
        for args in [["tx", "show", "beef"], ["tx", "rm", "beef"], ["tx", "edit", "beef", "--payee", "x"]] {
            cli.fails(args, mentioning: ["transaction 'beef'", "ambiguous", "beef0000 (2025-01-04 Gymnastics)", "beef0001 (2025-02-04 Gymnastics)"])
        }
    }

    @Test(arguments: [
        ["spend", "5", "Groceries"], ["init"], ["account", "add", "Savings", "--kind", "deposit"], ["tx", "rm", "abcd"],
        ["import", "samples/household.yaml"], ["group", "rm", "Car"], ["account", "rm", "Cash", "--hide"],
    ])
    func writeCommandWithALedgerFileIsRefused(args: [String]) throws {
        let cli = try CLI()
        let sample = try #require(FileManager.default.contents(atPath: CLI.samplePath))
        cli.fails(["-f", "samples/household.yaml"] + args, mentioning: ["-f samples/household.yaml", "read-only"])
        #expect(!FileManager.default.fileExists(atPath: cli.db), "no database was created")
        #expect(FileManager.default.contents(atPath: CLI.samplePath) == sample, "the ledger file is untouched")
    }

    @Test func ledgerFileAndDatabaseTogetherAreRefused() throws {
        let cli = try CLI.household()
        cli.fails(["-f", "samples/household.yaml", "--db", cli.db, "balance"], mentioning: ["-f", "either -f or --db"])
    }

    @Test(arguments: [
        ["balance"], ["spend", "5", "Groceries"], ["init"], ["import", "samples/household.yaml"], ["export"], ["account", "list"],
    ])
    func databaseWithANewerSchemaIsRefusedAndItsBytesUnchanged(args: [String]) throws {
        let cli = try CLI.household()
        let queue = try DatabaseQueue(path: cli.db)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v2-from-the-future')") }
        try queue.close()
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        cli.fails(args, mentioning: ["--db \(cli.db)", "newer capital", "v2-from-the-future", "left untouched"])
        #expect(FileManager.default.contents(atPath: cli.db) == before)
    }

    @Test(arguments: [["init"], ["import", "samples/household.yaml"], ["account", "add", "X", "--kind", "cash"]])
    func databaseInsideARegularFileIsRefused(args: [String]) throws {
        let cli = try CLI()
        let blocker = cli.path("afile")
        try Data("not a folder\n".utf8).write(to: URL(fileURLWithPath: blocker))
        let db = blocker + "/capital.sqlite"
        // Only init and import create a database; other commands say there is none, and create nothing.
        let creates = ["init", "import"].contains(args[0])
        cli.fails(
            ["--db", db] + args,
            mentioning: creates ? ["--db \(db)", "cannot create its folder", "not a folder"] : ["--db \(db)", "no database there"],
            db: db)
        #expect(FileManager.default.contents(atPath: blocker) == Data("not a folder\n".utf8))
    }

    @Test(arguments: [["init"], ["import", "samples/household.yaml"]])
    func databaseWhereNoFolderCanBeMadeIsRefused(args: [String]) throws {
        let cli = try CLI()
        let db = "/proc/capital-test/x.sqlite"
        cli.fails(["--db", db] + args, mentioning: ["--db \(db)", "cannot create its folder"], db: db)
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func databaseThatIsAnotherProgramsSQLiteFileIsRefused() throws {
        let cli = try CLI()
        let queue = try DatabaseQueue(path: cli.db)
        try queue.write { db in try db.execute(sql: "CREATE TABLE photo(id INTEGER PRIMARY KEY)") }
        try queue.close()
        cli.fails(["init"], mentioning: ["--db \(cli.db)", "not a capital database", "left untouched"])
    }

    @Test func commandsBeforeInitSayHowToStart() throws {
        let cli = try CLI()
        cli.fails(["balance"], mentioning: ["--db \(cli.db)", "no database there", "capital init"])
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    // MARK: Ledger files

    struct BadLedger: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var name: String
        var text: String
        var mentions: [String]
    }

    static let header = "capital: 1\ncurrency: RUB\n"
    static let accounts = header + "accounts:\n  - name: Savings\n    kind: deposit\n  - name: VTB Debit\n    kind: debit\n"

    static let badLedgers: [BadLedger] = [
        BadLedger(
            testDescription: "wrong type", name: "type.yaml", text: header + "accounts: 5\n",
            mentions: ["type.yaml:3", "accounts", "expected a list", "'5'"]),
        BadLedger(
            testDescription: "wrong type in an account", name: "kind.yaml", text: header + "accounts:\n  - name: Savings\n    kind: [x]\n",
            mentions: ["kind.yaml:5", "accounts[0].kind", "expected text"]),
        BadLedger(
            testDescription: "missing required field", name: "nodate.yaml",
            text: accounts + "transactions:\n  - payee: Top-up\n    amount: 5\n    from: VTB Debit\n    to: Savings\n",
            mentions: ["nodate.yaml:9", "transactions[0].date", "missing required field"]),
        BadLedger(
            testDescription: "duplicate account name", name: "dup.yaml", text: accounts + "  - name: SAVINGS\n    kind: cash\n",
            mentions: ["dup.yaml:8", "accounts[2]", "duplicate account name 'SAVINGS'"]),
        BadLedger(
            testDescription: "posting to an undefined account", name: "undefined.yaml",
            text: accounts
                + "transactions:\n  - date: 2025-04-01\n    postings:\n      - account: Savings\n        amount: 5\n      - account: Nowhere\n",
            mentions: ["undefined.yaml:13", "transactions[0].postings[1]", "'Nowhere'", "not an account"]),
        BadLedger(
            testDescription: "JSON posting to an undefined account", name: "undefined.json",
            text: """
                {
                  "capital": 1,
                  "currency": "RUB",
                  "accounts": [{"name": "Savings", "kind": "deposit"}],
                  "transactions": [
                    {"date": "2025-04-01", "postings": [{"account": "Savings", "amount": "5"}, {"account": "Nowhere"}]}
                  ]
                }
                """,
            mentions: ["undefined.json", "transactions[0].postings[1]", "'Nowhere'"]),
        BadLedger(
            testDescription: "JSON wrong type", name: "type.json",
            text: "{\"capital\": 1, \"currency\": \"RUB\", \"accounts\": [{\"name\": \"Savings\", \"kind\": \"deposit\", \"hidden\": [1]}]}",
            mentions: ["type.json", "accounts[0].hidden", "expected text"]),
        BadLedger(
            testDescription: "JSON bad amount", name: "amount.json",
            text: """
                {"capital": 1, "currency": "RUB", "accounts": [{"name": "Savings", "kind": "deposit"}],
                 "transactions": [{"date": "2025-04-01", "postings": [{"account": "Savings", "amount": "12,34.5"}, {"account": "Capital"}]}]}
                """,
            mentions: ["amount.json", "transactions[0].postings[0].amount", "'12,34.5'"]),
    ]

    @Test(arguments: badLedgers)
    func badLedgerFileChangesNothing(_ bad: BadLedger) throws {
        let cli = try CLI.household()
        let file = cli.path(bad.name)
        try Data(bad.text.utf8).write(to: URL(fileURLWithPath: file))
        cli.fails(["import", file], mentioning: bad.mentions)
    }

    @Test(arguments: badLedgers)
    func badLedgerFileLeavesNoLedgerInAFreshDatabase(_ bad: BadLedger) throws {
        let cli = try CLI()
        let file = cli.path(bad.name)
        try Data(bad.text.utf8).write(to: URL(fileURLWithPath: file))
        cli.fails(["import", file], mentioning: bad.mentions, unchanged: false)
        // Either no file at all (a syntax or type error is found before the database is opened)
        // or an empty, uninitialized one (a merge error is found inside the import's transaction).
        if FileManager.default.fileExists(atPath: cli.db) {
            cli.fails(["balance"], mentioning: ["no ledger here yet"], unchanged: false)
            cli.fails(["export"], mentioning: ["no ledger here yet"], unchanged: false)
        }
    }

    @Test func badLedgerFileWithDashFIsRefusedInOneLine() throws {
        let cli = try CLI()
        let file = cli.path("dup.yaml")
        try Data((Self.accounts + "  - name: savings\n    kind: cash\n").utf8).write(to: URL(fileURLWithPath: file))
        cli.fails(["-f", file, "balance"], mentioning: ["dup.yaml:8", "duplicate account name"])
        cli.fails(["-f", cli.path("missing.yaml"), "balance"], mentioning: ["missing.yaml", "does not exist"])
    }
}

@Suite("CLI: bad input found in review")
struct ReviewBadInputTests {
    @Test func aFailedWriteCommandCreatesNoDatabase() throws {
        let cli = try CLI()
        let db = cli.path("typo/new.sqlite")
        cli.fails(["--db", db, "spend", "5", "Groceries"], mentioning: ["--db \(db)", "no database there"], db: db)
        #expect(!FileManager.default.fileExists(atPath: cli.path("typo")))
    }

    @Test func aFailedImportIntoANewDatabaseLeavesNoFileBehind() throws {
        let cli = try CLI()
        let file = cli.path("bad.yaml")
        try Data(
            "currency: RUB\naccounts:\n  - name: A\n    kind: debit\ntransactions:\n  - date: 2025-01-01\n    amount: 5\n    from: A\n    to: Nope\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: file))
        cli.fails(["import", file], mentioning: ["bad.yaml:9", "transactions[0].to", "'Nope'"])
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test(arguments: ["1,000", "1.000", "250.000"])
    func thousandsWrittenWithASeparatorAreRefusedNotReadAsUnits(amount: String) throws {
        let cli = try CLI.initialized()
        cli.fails(["spend", amount, "Groceries"], mentioning: ["AMOUNT", "'\(amount)'", "too many decimals", "RUB allows 2"])
    }

    @Test func anUnknownKindListsTheChoicesOnOneLine() throws {
        let cli = try CLI.initialized()
        cli.fails(["account", "add", "Y", "--kind", "bank"], mentioning: ["'bank'", "--kind", "cash, debit, credit-card"])
    }

    @Test func aTransactionThatMovesNothingIsRefused() throws {
        let cli = try CLI.initialized()
        cli.fails(["tx", "add", "-p", "Groceries=0", "-p", "VTB Debit=0"], mentioning: ["every posting is zero"])
    }

    @Test func aQuickEntryAcrossCurrenciesNamesBothCurrencies() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "USD Cash", "--kind", "cash", "--currency", "USD"])
        cli.fails(["spend", "5", "Groceries", "--from", "USD Cash"], mentioning: ["'USD Cash' holds USD", "'Groceries' holds RUB"])
    }

    @Test func freeTextMayStartWithADash() throws {
        let cli = try CLI.initialized()
        cli.ok(["spend", "5", "Groceries", "--note", "-5% promo", "--tag", "-x"])
        let rows = try cli.rows(["tx", "list", "--format", "json"])
        #expect(rows.first?["note"] as? String == "-5% promo")
    }
}
