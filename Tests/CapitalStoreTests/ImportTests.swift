import CapitalCore
import Foundation
import Testing

@testable import CapitalStore

@Suite("Import: all or nothing, merge by name")
struct ImportTests {
    struct BadFile: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var file: String
        var text: String
        var mentions: [String]
    }

    static let header = "capital: 1\ncurrency: RUB\n"

    /// A small ledger to import into: quicker than the sample, with the names the bad files trip over.
    static let base = try! LedgerFile.parse(
        header + """
            defaultAccount: VTB Debit
            accounts:
              - {name: Capital, kind: equity}
              - {name: VTB Debit, kind: debit, floor: 20000}
              - {name: Cash, kind: cash}
              - {name: Mortgage, kind: loan}
              - {name: Groceries, kind: expense}
            groups:
              - {name: Everyday money, type: cash-flow, accounts: [VTB Debit, Cash]}
              - {name: Debts, type: cash-flow, accounts: [Mortgage]}
            transactions:
              - id: ab6e0cf1-0849-8516-8a47-c371633a5a33
                date: 2025-01-01
                payee: Opening balances
                postings:
                  - {account: VTB Debit, amount: 250000}
                  - {account: Cash, amount: 15000}
                  - {account: Mortgage, amount: -4800000}
                  - {account: Capital}
              - {date: 2025-01-07, payee: Supermarket, amount: 6500, from: VTB Debit, to: Groceries}
            """, file: "base.yaml")

    static func small() throws -> Store {
        let store = try Store.inMemory()
        try store.importDocument(base)
        return store
    }
    /// A file that adds an account and a transaction before its mistake: none of it may land.
    static let prefix = header + "accounts:\n  - name: New savings\n    kind: deposit\n  - name: VTB Debit\n    kind: debit\n"

    static let bad: [BadFile] = [
        BadFile(
            testDescription: "wrong type: accounts is a number", file: "type.yaml", text: header + "accounts: 5\n",
            mentions: ["type.yaml:3", "accounts", "expected a list"]),
        BadFile(
            testDescription: "wrong type: kind is a list", file: "kind.yaml", text: prefix + "  - name: Odd\n    kind: [x]\n",
            mentions: ["kind.yaml:9", "accounts[2].kind", "expected text, got a list"]),
        BadFile(
            testDescription: "missing required field: a transaction without date", file: "nodate.yaml",
            text: prefix + "transactions:\n  - payee: Shop\n    amount: 5\n    from: VTB Debit\n    to: New savings\n",
            mentions: ["nodate.yaml:9", "transactions[0].date", "missing required field"]),
        BadFile(
            testDescription: "JSON wrong type", file: "type.json",
            text: """
                {
                  "capital": 1,
                  "currency": "RUB",
                  "accounts": [{"name": "New savings", "kind": "deposit"}],
                  "transactions": [{"date": "2025-04-01", "postings": {"account": "New savings"}}]
                }
                """,
            mentions: ["type.json:5", "transactions[0].postings", "expected a list, got a mapping"]),
        BadFile(
            testDescription: "duplicate account name", file: "dup.yaml",
            text: prefix + "  - name: new SAVINGS\n    kind: cash\n",
            mentions: ["dup.yaml:8", "accounts[2]", "duplicate account name 'new SAVINGS'", "line 4"]),
        BadFile(
            testDescription: "posting to an undefined account", file: "undefined.yaml",
            text: prefix + "transactions:\n  - date: 2025-04-01\n    amount: 5\n    from: VTB Debit\n    to: New savings\n"
                + "  - date: 2025-04-02\n    postings:\n      - account: New savings\n        amount: 5\n      - account: Nowhere\n",
            mentions: ["undefined.yaml:17", "transactions[1].postings[1]", "'Nowhere'", "not an account"]),
        BadFile(
            testDescription: "amount 12,34.5", file: "amount.yaml",
            text: prefix
                + "transactions:\n  - date: 2025-04-01\n    postings:\n      - account: New savings\n        amount: 12,34.5\n      - account: VTB Debit\n",
            mentions: ["amount.yaml:12", "transactions[0].postings[0].amount", "'12,34.5'", "not an amount"]),
        BadFile(
            testDescription: "too many decimals", file: "decimals.yaml",
            text: prefix + "transactions:\n  - date: 2025-04-01\n    amount: 1.234\n    from: VTB Debit\n    to: New savings\n",
            mentions: ["decimals.yaml", "transactions[0].", "'1.234'", "too many decimals"]),
        BadFile(
            testDescription: "unbalanced transaction", file: "unbalanced.yaml",
            text: prefix
                + "transactions:\n  - date: 2025-04-01\n    postings:\n      - account: New savings\n        amount: 5\n      - account: VTB Debit\n        amount: -4\n",
            mentions: ["unbalanced.yaml:9", "transactions[0]", "do not balance", "1.00 RUB"]),
        BadFile(
            testDescription: "same account name, different kind", file: "conflict.yaml",
            text: prefix + "  - name: Cash\n    kind: debit\n",
            mentions: ["conflict.yaml:8", "accounts[2]", "'Cash' already exists as cash", "debit"]),
        BadFile(
            testDescription: "same group name, different type", file: "group.yaml",
            text: prefix + "groups:\n  - name: Debts\n    type: profit-and-loss\n",
            mentions: ["group.yaml:9", "groups[0]", "'Debts' already exists as cash-flow"]),
        BadFile(
            testDescription: "other currency", file: "currency.yaml", text: "capital: 1\ncurrency: EUR\naccounts:\n  - name: X\n    kind: cash\n",
            mentions: ["currency.yaml", "currency", "EUR", "RUB", "nothing was imported"]),
        BadFile(
            testDescription: "known id with other content", file: "id.yaml",
            text: prefix
                + "transactions:\n  - id: ab6e0cf1-0849-8516-8a47-c371633a5a33\n    date: 2025-01-01\n    amount: 5\n    from: VTB Debit\n    to: New savings\n",
            mentions: ["id.yaml:9", "transactions[0].id", "already exists with different content"]),
        BadFile(
            testDescription: "JSON undefined account", file: "undefined.json",
            text: """
                {
                  "capital": 1,
                  "currency": "RUB",
                  "accounts": [{"name": "New savings", "kind": "deposit"}],
                  "transactions": [
                    {"date": "2025-04-01", "postings": [
                      {"account": "New savings", "amount": "5"},
                      {"account": "Nowhere"}
                    ]}
                  ]
                }
                """,
            mentions: ["undefined.json", "transactions[0].postings[1]", "'Nowhere'"]),
        BadFile(
            testDescription: "JSON bad amount", file: "amount.json",
            text: """
                {
                  "capital": 1,
                  "currency": "RUB",
                  "accounts": [{"name": "New savings", "kind": "deposit"}],
                  "transactions": [
                    {"date": "2025-04-01", "postings": [
                      {"account": "New savings", "amount": "12,34.5"},
                      {"account": "VTB Debit"}
                    ]}
                  ]
                }
                """,
            mentions: ["amount.json", "transactions[0].postings[0].amount", "'12,34.5'"]),
        BadFile(
            testDescription: "JSON duplicate account", file: "dup.json",
            text: """
                {"capital": 1, "currency": "RUB",
                 "accounts": [{"name": "New savings", "kind": "deposit"}, {"name": "New Savings", "kind": "deposit"}]}
                """,
            mentions: ["dup.json", "accounts[1]", "duplicate account name"]),
    ]

    @Test(arguments: bad)
    func badFileIsRefusedWholeAndNamesWhereAndWhy(_ bad: BadFile) throws {
        let store = try Self.small()
        let before = try store.export(format: .yaml)
        let error = #expect(throws: (any Error).self) {
            try store.importDocument(try LedgerFile.parse(bad.text, file: bad.file))
        }
        let message = error.map { "\($0)" } ?? ""
        for part in bad.mentions {
            #expect(message.contains(part), "\(message)")
        }
        #expect(!message.contains("\n"))
        #expect(try store.export(format: .yaml) == before, "the import changed the database")
    }

    /// Errors found while merging, not parsing: a fresh database must not end up holding half a ledger.
    @Test(arguments: bad.filter { !["currency.yaml", "conflict.yaml", "group.yaml", "id.yaml"].contains($0.file) })
    func badFileLeavesAFreshDatabaseUninitialized(_ bad: BadFile) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("fresh", "capital.sqlite")
        do {
            let store = try Store.open(path: path)
            #expect(throws: (any Error).self) { try store.importDocument(try LedgerFile.parse(bad.text, file: bad.file)) }
        }
        // What capital does: the file exists (opening created it), but holds no ledger.
        let reopened = try Store.open(path: path)
        #expect(!(try reopened.isInitialized()))
        #expect(try reopened.rawCount("account") == 0)
        #expect(try reopened.rawCount("txn") == 0)
        #expect(throws: StoreError.self) { try reopened.export(format: .yaml) }
    }

    @Test func importIntoAnEmptyDatabaseCreatesTheLedgerWithTheFilesCurrency() throws {
        let store = try Store.inMemory()
        let summary = try store.importDocument(
            try LedgerFile.parse("capital: 1\ncurrency: EUR\naccounts:\n  - name: Wallet\n    kind: cash\n", file: "eur.yaml"))
        #expect(try store.currency() == (try Currency("EUR")))
        #expect(try store.accounts().map(\.name) == ["Capital", "Wallet"], "an import brings its own categories")
        #expect(summary.accountsAdded == 1)
    }

    @Test func reimportingTheSameIdlessFileAddsNothing() throws {
        let store = try Store.household()
        let before = try store.export(format: .yaml)
        let summary = try store.importDocument(Sample.household)
        #expect(summary.transactionsAdded == 0)
        #expect(summary.transactionsAlreadyPresent == 141)
        #expect(summary.accountsAdded == 0 && summary.accountsMerged == 36)
        #expect(summary.ratesAdded == 0 && summary.ratesAlreadyPresent == 118)
        #expect(summary.instrumentsAdded == 0 && summary.instrumentsAlreadyPresent == 12)
        #expect(summary.groupsAdded == 0 && summary.groupsMerged == 4)
        #expect(try store.export(format: .yaml) == before)
    }

    /// An import numbers its schedules on from the last one's place (removed ones included), in
    /// the file's order: listings show what was there, then the file's schedules as written.
    @Test func importedSchedulesComeAfterTheOnesThereInTheFilesOrder() throws {
        let store = try Store.household()
        let before = try store.schedules().map(\.name)
        try store.removeSchedule(before.last!, scope: .all)
        let file = """
            capital: 1
            currency: RUB
            accounts:
              - name: VTB Debit
                kind: debit
              - name: Zoo
                kind: expense
              - name: Books
                kind: expense
            schedules:
              - name: Zoo visits
                rule: monthly on 3
                start: 2025-05-03
                amount: 900
                from: VTB Debit
                to: Zoo
              - name: Books monthly
                rule: monthly on 4
                start: 2025-05-04
                amount: 1500
                from: VTB Debit
                to: Books
            """
        try store.importDocument(try LedgerFile.parse(file, file: "more.yaml"))
        #expect(try store.schedules().map(\.name) == before.dropLast() + ["Zoo visits", "Books monthly"])
        let positions = try store.read("positions") { db in try Int.fetchAll(db, sql: "SELECT position FROM schedule ORDER BY rowid") }
        #expect(positions == Array(1...positions.count), "each schedule its own place, removed ones kept")
    }

    @Test func identicalIdlessTransactionsInOneFileAreAllKept() throws {
        let text =
            Self.header + """
                accounts:
                  - {name: Cash, kind: cash}
                  - {name: Eating out, kind: expense}
                transactions:
                  - {date: 2025-01-09, payee: Coffee, amount: 200, from: Cash, to: Eating out}
                  - {date: 2025-01-09, payee: Coffee, amount: 200, from: Cash, to: Eating out}
                """
        let store = try Store.inMemory()
        let document = try LedgerFile.parse(text, file: "coffee.yaml")
        #expect(try store.importDocument(document).transactionsAdded == 2)
        #expect(try store.importDocument(document).transactionsAdded == 0)
        #expect(try store.balancesByName()["Eating out"] == 400_00)
    }

    @Test func deletedTransactionStaysDeletedWhenItsFileIsImportedAgain() throws {
        let store = try Self.small()
        let shopping = try #require(try store.snapshot().transactions.first { $0.payee == "Supermarket" })
        try store.removeTransaction(shopping.id)
        let before = try store.export(format: .yaml)
        #expect(try store.importDocument(Self.base).transactionsAdded == 0)
        #expect(try store.export(format: .yaml) == before)
    }

    @Test func mergeSharesAccountsOfTheSameNameAndKindAndAddsTheRest() throws {
        let store = try Self.small()
        let text =
            Self.header + """
                accounts:
                  - {name: vtb debit, kind: debit}
                  - {name: Savings, kind: deposit}
                groups:
                  - {name: Everyday money, type: cash-flow, accounts: [Savings]}
                transactions:
                  - {date: 2025-04-01, payee: Top-up, amount: 1000, from: VTB Debit, to: Savings}
                """
        let summary = try store.importDocument(try LedgerFile.parse(text, file: "more.yaml"))
        #expect(
            summary
                == ImportSummary(
                    accountsAdded: 1, accountsMerged: 1, groupsAdded: 0, groupsMerged: 1, transactionsAdded: 1, transactionsAlreadyPresent: 0))
        let balances = try store.balancesByName()
        #expect(balances["Savings"] == 1000_00)
        let debitAfter: Int64 = 250_000_00 - 6_500_00 - 1000_00
        #expect(balances["VTB Debit"] == debitAfter)
        let everyday = try store.group("Everyday money")
        #expect(everyday.accountIDs.count == 3)
        #expect(try store.accounts().filter { $0.name.lowercased() == "vtb debit" }.count == 1)
    }

    @Test func conflictRefusesTheWholeImportEvenWhenMostOfItIsFine() throws {
        let store = try Self.small()
        let before = try store.export(format: .yaml)
        let text =
            Self.header + """
                accounts:
                  - {name: Savings, kind: deposit}
                  - {name: Mortgage, kind: deposit}
                transactions:
                  - {date: 2025-04-01, amount: 1000, from: VTB Debit, to: Savings}
                """
        let error = #expect(throws: StoreError.self) { try store.importDocument(try LedgerFile.parse(text, file: "conflict.yaml")) }
        #expect(error.map { "\($0)" }?.contains("'Mortgage' already exists as loan") == true)
        #expect(try store.export(format: .yaml) == before)
        #expect(throws: StoreError.self) { try store.account("Savings") }
    }

    @Test func fileLoadedWithDashFIsReadOnlyAndMatchesAnImport() throws {
        let loaded = try Store.load(Sample.household)
        #expect(loaded.isReadOnly)
        #expect(try loaded.export(format: .yaml) == Sample.householdExports[.yaml])
    }
}

extension ImportSummary {
    init(accountsAdded: Int, accountsMerged: Int, groupsAdded: Int, groupsMerged: Int, transactionsAdded: Int, transactionsAlreadyPresent: Int) {
        self.init()
        self.accountsAdded = accountsAdded
        self.accountsMerged = accountsMerged
        self.groupsAdded = groupsAdded
        self.groupsMerged = groupsMerged
        self.transactionsAdded = transactionsAdded
        self.transactionsAlreadyPresent = transactionsAlreadyPresent
    }
}

@Suite("Store: review regressions")
struct ReviewRegressionTests {
    @Test func namesDifferingOnlyInCyrillicCaseAreTheSameName() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "Продукты", kind: .expense, currency: nil)
        #expect(throws: StoreError.self) { try store.addAccount(name: "продукты", kind: .expense, currency: nil) }
        #expect(try store.account("ПРОДУКТЫ").name == "Продукты")
        try store.addGroup(name: "Дети", type: .profitAndLoss)
        #expect(throws: StoreError.self) { try store.addGroup(name: "дети", type: .profitAndLoss) }
    }

    @Test func capitalKeepsItsNoteFloorAndLevelThroughARoundTrip() throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.note = "Opening balances"
        changes.level = .some(6)
        changes.floor = .some(500)
        try store.editAccount("Capital", changes)
        let first = try store.export(format: .yaml)
        let copy = try Store.inMemory()
        try copy.importDocument(try LedgerFile.parse(first, file: "copy.yaml"))
        #expect(try copy.export(format: .yaml) == first)
        #expect(try copy.account("Capital").level == 6)
    }

    @Test func capitalTakesOtherCurrenciesAndTheyRoundTrip() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "USD Cash", kind: .cash, currency: try Currency("USD"))
        // The balancing posting on Capital takes the one currency out of balance: USD.
        let opening = try store.addTransaction(
            TransactionInput(
                day: try Day(iso: "2025-01-01"),
                postings: [PostingInput(account: "USD Cash", amount: "100", field: "a"), PostingInput(account: "Capital", amount: nil, field: "b")]))
        #expect(opening.postings[1].amount == Money(minor: -10_000, currency: try Currency("USD")))
        let first = try store.export(format: .yaml)
        #expect(first.contains("currency: USD"))
        let copy = try Store.inMemory()
        try copy.importDocument(try LedgerFile.parse(first, file: "copy.yaml"))
        #expect(try copy.export(format: .yaml) == first)
        // Only the equity account may hold another currency.
        #expect(throws: StoreError.self) {
            try store.addTransaction(
                TransactionInput(
                    day: try Day(iso: "2025-01-02"),
                    postings: [
                        PostingInput(account: "Groceries", amount: "5", currency: "USD", field: "a"),
                        PostingInput(account: "USD Cash", amount: nil, field: "b"),
                    ]))
        }
    }

    @Test func aWriteThatWouldOverflowABalanceIsRefusedAndListingsStayReadable() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "D", kind: .debit, currency: nil)
        try store.addTransaction(
            TransactionInput(
                day: try Day(iso: "2025-01-01"),
                postings: [
                    PostingInput(account: "D", amount: "92233720368547758.07", field: "a"), PostingInput(account: "Capital", amount: nil, field: "b"),
                ]))
        let before = try store.export(format: .yaml)
        let error = #expect(throws: StoreError.self) {
            try store.addTransaction(
                TransactionInput(
                    day: try Day(iso: "2025-01-02"),
                    postings: [PostingInput(account: "D", amount: "1", field: "a"), PostingInput(account: "Capital", amount: nil, field: "b")]))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("add up past"))
        #expect(try store.export(format: .yaml) == before)
        #expect(try store.balancesByName()["D"] == .max)
    }

    @Test func jsonEscapedSurrogatePairsAreRead() throws {
        // Python's json.dumps writes "😀" as "\ud83d\ude00"; an escaped backslash stays as it is.
        let text = #"{"currency": "RUB", "accounts": [{"name": "Fun \ud83d\ude00 \\u0041", "kind": "expense"}]}"#
        let document = try LedgerFile.parse(text, file: "emoji.json")
        #expect(document.accounts.map(\.name) == ["Fun 😀 \\u0041"])
    }
}
