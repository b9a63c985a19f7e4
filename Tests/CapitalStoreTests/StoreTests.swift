import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

@Suite("Store: opening, schema and safety")
struct StoreOpeningTests {
    @Test func openCreatesMissingFoldersAndAPrivateFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a", "b", "c", "capital.sqlite")
        _ = try Store.open(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path("a", "b", "c"))
        #expect((folderAttributes[.type] as? FileAttributeType) == .typeDirectory)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func openKeepsAnExistingDatabaseAndItsData() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capital.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.initialize(currency: .rub)
            try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        }
        let reopened = try Store.open(path: path)
        #expect(try reopened.isInitialized())
        #expect(try reopened.account("VTB Debit").kind == .debit)
    }

    @Test func connectionUsesWALForeignKeysAndABusyTimeout() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capital.sqlite")
        let store = try Store.open(path: path)
        let (journal, foreignKeys, busy) = try store.read("test") { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout")
            )
        }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        #expect((busy ?? 0) > 0)
        // WAL is a property of the file: another connection sees it too.
        let other = try DatabaseQueue(path: path)
        #expect(try other.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func foreignKeysRejectAPostingToAMissingAccount() throws {
        let store = try Store.initialized()
        #expect(throws: (any Error).self) {
            try store.rawWrite { db in
                try db.execute(
                    sql: "INSERT INTO txn(id, createdAt, updatedAt, day, seq) VALUES ('t', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 0, 1)")
                try db.execute(
                    sql:
                        "INSERT INTO posting(id, txnId, accountId, position, amountMinor, currency) VALUES ('p', 't', 'no-such-account', 0, 1, 'RUB')"
                )
            }
        }
        #expect(try store.rawCount("txn") == 0)
    }

    @Test func twoStoresOnOneFileWriteOneAfterTheOther() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capital.sqlite")
        let first = try Store.open(path: path)
        try first.initialize(currency: .rub)
        try first.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        let second = try Store.open(path: path)
        let stores = [first, second]
        let failures = LockedList<String>()
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                try stores[index % 2].add(on: "2025-01-01", payee: "#\(index)", [("Groceries", "1"), ("VTB Debit", nil)])
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.items == [])
        #expect(try first.snapshot().transactions.count == 40)
    }

    @Test func databaseWithANewerSchemaIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capital.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.initialize(currency: .rub)
        }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')") }
            try queue.close()
        }
        let before = try #require(bytes(path))
        #expect {
            _ = try Store.open(path: path)
        } throws: { error in
            guard case StoreError.newerSchema(_, let unknown) = error else { return false }
            return unknown == ["v99-from-the-future"] && "\(error)".contains("newer") && "\(error)".contains(path)
        }
        #expect(bytes(path) == before)
    }

    @Test func sqliteFileOfAnotherProgramIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE photo(id INTEGER PRIMARY KEY, name TEXT)") }
            try queue.close()
        }
        let before = try #require(bytes(path))
        #expect {
            _ = try Store.open(path: path)
        } throws: { error in
            guard case StoreError.notCapitalDatabase = error else { return false }
            return true
        }
        #expect(bytes(path) == before)
    }

    @Test func fileThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.sqlite")
        let text = Data("shopping list: milk, bread, eggs and a good deal more text than a header\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Store.open(path: path)
        } throws: { error in
            guard case StoreError.cannotOpen(_, let reason) = error else { return false }
            return reason.contains("not a SQLite database")
        }
        #expect(bytes(path) == text)
    }

    @Test func emptyExistingFileBecomesADatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let store = try Store.open(path: path)
        try store.initialize(currency: .rub)
        #expect(try store.isInitialized())
    }

    @Test func folderThatIsAFileIsRefused() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("afile")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            _ = try Store.open(path: folder.path("afile", "capital.sqlite"))
        } throws: { error in
            guard case StoreError.cannotCreateFolder = error else { return false }
            return "\(error)".contains("afile")
        }
        #expect(bytes(file) == Data("x".utf8))
    }

    @Test(arguments: ["account", "accountGroup", "txn"])
    func everyRecordTableCarriesSyncColumns(table: String) throws {
        let store = try Store.inMemory()
        let columns = try store.read("test") { db in try db.columns(in: table).map(\.name) }
        for column in ["id", "createdAt", "updatedAt", "version", "deleted"] {
            #expect(columns.contains(column), "\(table) lacks \(column)")
        }
    }

    @Test func newRecordsGetUUIDsAndVersionOne() throws {
        let store = try Store.initialized()
        let account = try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        #expect(UUID(uuidString: account.id) != nil)
        let row = try store.read("test") { db in
            try Row.fetchOne(db, sql: "SELECT version, deleted, createdAt, updatedAt FROM account WHERE id = ?", arguments: [account.id])
        }
        let found = try #require(row)
        #expect(found["version"] as Int == 1)
        #expect(found["deleted"] as Bool == false)
        #expect((found["createdAt"] as Date?) != nil)
        #expect((found["updatedAt"] as Date?) != nil)
    }
}

@Suite("Store: ledger setup")
struct StoreInitializationTests {
    @Test func initializeCreatesCapitalAndTheFifteenDefaultCategories() throws {
        let store = try Store.initialized()
        let accounts = try store.accounts()
        #expect(accounts.map(\.name) == ["Capital"] + Account.defaultCategories.map(\.name))
        #expect(accounts.count == 16)
        #expect(accounts.first?.kind == .equity)
        #expect(accounts.dropFirst().allSatisfy { $0.kind.isCategory })
        #expect(Set(accounts.filter { $0.kind == .income }.map(\.name)) == ["Salary", "Other income"])
        #expect(
            Set(accounts.filter { $0.kind == .expense }.map(\.name)) == [
                "Groceries", "Housing", "Utilities", "Transport", "Health", "Kids", "Eating out", "Entertainment", "Clothing",
                "Insurance", "Loan interest", "Gifts", "Other",
            ])
        #expect(try store.currency() == .rub)
    }

    @Test func secondInitializeIsRefusedAndChangesNothing() throws {
        let store = try Store.initialized()
        let before = try store.export(format: .yaml)
        #expect {
            try store.initialize(currency: try Currency("EUR"))
        } throws: { error in
            guard case StoreError.alreadyInitialized(_, let currency) = error else { return false }
            return currency == "RUB"
        }
        #expect(try store.export(format: .yaml) == before)
        #expect(try store.currency() == .rub)
    }

    @Test func uninitializedStoreRefusesToAddAnAccount() throws {
        let store = try Store.inMemory()
        #expect {
            try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        } throws: { error in
            guard case StoreError.notInitialized = error else { return false }
            return true
        }
        #expect(try store.rawCount("account") == 0)
    }

    @Test func readOnlyStoreRefusesWrites() throws {
        let store = try Store.load(Sample.household)
        #expect {
            try store.addAccount(name: "Cash 2", kind: .cash, currency: nil)
        } throws: { error in
            guard case StoreError.readOnly = error else { return false }
            return true
        }
        #expect(!(try store.accounts().contains { $0.name == "Cash 2" }))
    }
}

@Suite("Store: accounts")
struct StoreAccountTests {
    @Test(arguments: [AccountRemoval.plain, .moveTo("Groceries"), .toCapital, .hide, .cascade])
    func capitalCannotBeRemovedInAnyWay(removal: AccountRemoval) throws {
        let store = try Store.initialized()
        let before = try store.export(format: .yaml)
        #expect {
            try store.removeAccount("Capital", removal)
        } throws: { error in
            guard case StoreError.capitalIsProtected = error else { return false }
            return "\(error)".contains("'Capital'")
        }
        #expect(try store.export(format: .yaml) == before)
    }

    @Test func capitalCannotBeRenamedRekindedOrHidden() throws {
        let store = try Store.initialized()
        var rename = AccountChanges()
        rename.name = "Equity"
        var rekind = AccountChanges()
        rekind.kind = .cash
        var hide = AccountChanges()
        hide.hidden = true
        for changes in [rename, rekind, hide] {
            #expect {
                try store.editAccount("Capital", changes)
            } throws: { error in
                guard case StoreError.capitalIsProtected = error else { return false }
                return true
            }
        }
        let capital = try store.account("Capital")
        #expect(capital.kind == .equity && !capital.hidden)
        // Its note may change.
        var note = AccountChanges()
        note.note = "opening balances"
        #expect(try store.editAccount("capital", note).note == "opening balances")
    }

    @Test func namesAreUniqueIgnoringCase() throws {
        let store = try Store.initialized()
        #expect {
            try store.addAccount(name: "groceries", kind: .expense, currency: nil)
        } throws: { error in
            guard case StoreError.duplicateName(_, let name) = error else { return false }
            return name == "groceries"
        }
        #expect(try store.accounts().count == 16)
    }

    @Test(arguments: ["", "  ", " Cash", "Cash ", "a=b", "two\nlines"])
    func badAccountNamesAreRefused(name: String) throws {
        let store = try Store.initialized()
        #expect(throws: StoreError.self) { try store.addAccount(name: name, kind: .cash, currency: nil) }
        #expect(try store.accounts().count == 16)
    }

    /// VTB Debit pays 500 for groceries on 5 January and moves 1 000 to Cash on 6 January.
    static func twoPostings() throws -> Store {
        let store = try Store.initialized()
        try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil, makeDefault: true)
        try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        try store.add(on: "2025-01-05", [("Groceries", "500"), ("VTB Debit", nil)])
        try store.add(on: "2025-01-06", [("Cash", "1000"), ("VTB Debit", "-1000")])
        return store
    }

    @Test func plainRemovalOfAnAccountWithPostingsIsRefusedWithTheChoices() throws {
        let store = try Self.twoPostings()
        let before = try store.export(format: .yaml)
        #expect {
            try store.removeAccount("VTB Debit", .plain)
        } throws: { error in
            guard case StoreError.accountHasPostings(let name, let count) = error else { return false }
            let text = (error as? StoreError)?.template ?? ""
            return name == "VTB Debit" && count == 2
                && ["{moveTo}", "{toCapital}", "{hide}", "{cascade}"].allSatisfy(text.contains)
        }
        #expect(try store.export(format: .yaml) == before)
    }

    @Test func plainRemovalOfAnUnusedAccountSoftDeletesIt() throws {
        let store = try Self.twoPostings()
        let id = try store.account("Health").id
        try store.removeAccount("Health", .plain)
        #expect(!(try store.accounts(includeHidden: true).contains { $0.name == "Health" }))
        let row = try #require(
            try store.read("test") { db in try Row.fetchOne(db, sql: "SELECT deleted, version FROM account WHERE id = ?", arguments: [id]) })
        #expect(row["deleted"] as Bool == true)
        #expect(row["version"] as Int == 2)
        // Its name is free again.
        try store.addAccount(name: "Health", kind: .expense, currency: nil)
    }

    struct RemovalCase: Sendable, CustomTestStringConvertible {
        var removal: AccountRemoval
        /// Balances afterwards, by name; nil: the account is gone.
        var balances: [String: Int64?]
        var transactions: Int
        var testDescription: String { "\(removal)" }
    }

    @Test(arguments: [
        RemovalCase(removal: .moveTo("Cash"), balances: ["VTB Debit": nil, "Cash": -500_00, "Groceries": 500_00, "Capital": 0], transactions: 2),
        RemovalCase(removal: .toCapital, balances: ["VTB Debit": nil, "Cash": 1000_00, "Groceries": 500_00, "Capital": -1500_00], transactions: 2),
        RemovalCase(removal: .hide, balances: ["VTB Debit": -1500_00, "Cash": 1000_00, "Groceries": 500_00, "Capital": 0], transactions: 2),
        RemovalCase(removal: .cascade, balances: ["VTB Debit": nil, "Cash": 0, "Groceries": 0, "Capital": 0], transactions: 0),
    ])
    func removalWithAChoiceLeavesTheseBalances(_ example: RemovalCase) throws {
        let store = try Self.twoPostings()
        try store.removeAccount("VTB Debit", example.removal)
        let balances = try store.balancesByName()
        for (name, expected) in example.balances {
            #expect(balances[name] == expected, "\(name)")
        }
        #expect(try store.snapshot().transactions.count == example.transactions)
        // Whatever happened, the ledger still balances.
        #expect(balances.values.reduce(0, +) == 0)
        if example.removal == .hide {
            #expect(try store.account("VTB Debit").hidden)
            #expect(!(try store.accounts().contains { $0.name == "VTB Debit" }))
            #expect(try store.defaultAccount()?.name == "VTB Debit")
        } else {
            #expect(try store.defaultAccount() == nil, "the removed default account is no longer the default")
        }
        if example.removal == .cascade {
            #expect(try store.rawCount("txn") == 2, "cascade soft-deletes its transactions")
        }
    }

    @Test func moveToTheAccountItselfIsRefused() throws {
        let store = try Self.twoPostings()
        let before = try store.export(format: .yaml)
        #expect(throws: StoreError.self) { try store.removeAccount("VTB Debit", .moveTo("vtb debit")) }
        #expect(try store.export(format: .yaml) == before)
    }

    @Test func moveToAnAccountInAnotherCurrencyIsRefused() throws {
        let store = try Self.twoPostings()
        try store.addAccount(name: "Dollars", kind: .cash, currency: try Currency("USD"))
        let before = try store.export(format: .yaml)
        #expect {
            try store.removeAccount("VTB Debit", .moveTo("Dollars"))
        } throws: { error in
            guard case StoreError.currencyMismatch = error else { return false }
            return true
        }
        #expect(try store.export(format: .yaml) == before)
    }

    /// Gives accounts ids chosen by the test, so that prefixes collide on purpose.
    static func accountsWithIDs(_ ids: [String: String]) throws -> Store {
        let store = try Store.initialized()
        for (name, id) in ids {
            try store.addAccount(name: name, kind: .cash, currency: nil)
            try store.rawWrite { db in try db.execute(sql: "UPDATE account SET id = ? WHERE name = ?", arguments: [id, name]) }
        }
        return store
    }

    static let collidingIDs = [
        "Wallet": "abcd1234-0000-4000-8000-000000000001",
        "Piggy bank": "abcd5678-0000-4000-8000-000000000002",
        "Safe": "ef012345-0000-4000-8000-000000000003",
    ]

    @Test(arguments: [("abcd1", "Wallet"), ("ABCD5", "Piggy bank"), ("ef01", "Safe"), ("abcd1234-0000", "Wallet"), ("safe", "Safe")])
    func uniqueIdPrefixOrNameFindsTheAccount(reference: String, name: String) throws {
        let store = try Self.accountsWithIDs(Self.collidingIDs)
        #expect(try store.account(reference).name == name)
    }

    @Test func ambiguousIdPrefixListsTheCandidates() throws {
        let store = try Self.accountsWithIDs(Self.collidingIDs)
        #expect {
            _ = try store.account("abcd")
        } throws: { error in
            guard case StoreError.ambiguous(_, let reference, let candidates) = error else { return false }
            return reference == "abcd" && candidates.count == 2
                && candidates.contains("abcd1234 (Wallet)") && candidates.contains("abcd5678 (Piggy bank)")
        }
    }

    @Test(arguments: ["abc", "zzzz", "Walle", "ef01x"])
    func referenceThatIsNeitherNameNorIdPrefixIsNotFound(reference: String) throws {
        let store = try Self.accountsWithIDs(Self.collidingIDs)
        #expect {
            _ = try store.account(reference)
        } throws: { error in
            guard case StoreError.notFound = error else { return false }
            return "\(error)".contains("'\(reference)'")
        }
    }

    @Test func aNameWinsOverAnIdPrefix() throws {
        let store = try Self.accountsWithIDs(Self.collidingIDs.merging(["abcd": "99990000-0000-4000-8000-000000000009"]) { a, _ in a })
        #expect(try store.account("abcd").name == "abcd")
    }

    @Test func editBumpsVersionAndKeepsId() throws {
        let store = try Store.initialized()
        let account = try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        var changes = AccountChanges()
        changes.name = "VTB Main"
        changes.floor = .some(20_000_00)
        changes.level = .some(2)
        let edited = try store.editAccount("VTB Debit", changes)
        #expect(edited.id == account.id)
        #expect(edited.floor == 20_000_00 && edited.level == 2)
        #expect(try store.account("VTB Main").id == account.id)
        let version = try store.read("test") { db in try Int.fetchOne(db, sql: "SELECT version FROM account WHERE id = ?", arguments: [account.id]) }
        #expect(version == 2)
        changes = AccountChanges()
        changes.floor = .some(nil)
        #expect(try store.editAccount(account.id, changes).floor == nil)
    }

    @Test func renamingOntoAnotherAccountsNameIsRefused() throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.name = "GROCERIES"
        #expect(throws: StoreError.self) { try store.editAccount("Housing", changes) }
        #expect(try store.account("Housing").name == "Housing")
    }
}

@Suite("Store: groups")
struct StoreGroupTests {
    @Test func anAccountMayBeInSeveralGroups() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        try store.addGroup(name: "Everyday money", type: .cashFlow, accounts: ["VTB Debit"])
        try store.addGroup(name: "Bank", type: .cashFlow)
        try store.addToGroup("bank", accounts: ["VTB Debit"])
        let id = try store.account("VTB Debit").id
        #expect(try store.groups().map(\.accountIDs) == [[id], [id]])
        #expect(throws: StoreError.self) { try store.addToGroup("Bank", accounts: ["VTB Debit"]) }
        try store.removeFromGroup("Bank", accounts: ["VTB Debit"])
        #expect(try store.group("Bank").accountIDs.isEmpty)
        #expect(throws: StoreError.self) { try store.removeFromGroup("Bank", accounts: ["VTB Debit"]) }
        try store.removeGroup("Everyday money")
        #expect(try store.groups().map(\.name) == ["Bank"])
        #expect(try store.rawCount("accountGroup") == 2, "a removed group is soft-deleted")
        #expect(try store.account("VTB Debit").name == "VTB Debit", "its accounts stay")
    }

    @Test func groupNamesAreUnique() throws {
        let store = try Store.initialized()
        try store.addGroup(name: "Kids", type: .profitAndLoss)
        #expect(throws: StoreError.self) { try store.addGroup(name: "kids", type: .cashFlow) }
        #expect(try store.groups().count == 1)
    }

    @Test func removingAnAccountTakesItOutOfItsGroups() throws {
        let store = try Store.initialized()
        try store.addGroup(name: "Daily", type: .profitAndLoss, accounts: ["Groceries", "Eating out"])
        try store.removeAccount("Eating out", .plain)
        #expect(try store.group("Daily").accountIDs == [try store.account("Groceries").id])
    }
}

@Suite("Store: transactions")
struct StoreTransactionTests {
    static func withDebit() throws -> Store {
        let store = try Store.initialized()
        try store.addAccount(name: "VTB Debit", kind: .debit, currency: nil)
        return store
    }

    @Test func unbalancedTransactionIsRefusedAndNothingIsWritten() throws {
        let store = try Self.withDebit()
        #expect {
            try store.add(on: "2025-01-05", [("Groceries", "5"), ("VTB Debit", "-4")])
        } throws: { error in
            guard case StoreError.ledger(.unbalanced(let off)) = error else { return false }
            return off.minor == 100
        }
        #expect(try store.rawCount("txn") == 0)
        #expect(try store.rawCount("posting") == 0)
    }

    @Test func omittedAmountBalancesTheOthers() throws {
        let store = try Self.withDebit()
        try store.addAccount(name: "Mortgage", kind: .loan, currency: nil)
        let t = try store.add(on: "2025-03-05", [("Loan interest", "60000"), ("Mortgage", "10000"), ("VTB Debit", nil)])
        #expect(t.postings.map(\.amount.minor) == [60_000_00, 10_000_00, -70_000_00])
        #expect(t.amount == 70_000_00)
        #expect(try store.transaction(String(t.id.prefix(6))) == t)
    }

    @Test func onlyOnePostingMayOmitItsAmount() throws {
        let store = try Self.withDebit()
        #expect(throws: StoreError.self) { try store.add(on: "2025-01-05", [("Groceries", nil), ("VTB Debit", nil)]) }
        #expect(try store.rawCount("txn") == 0)
    }

    @Test(arguments: ["1.234", "12,34.5", "99999999999999999999", "", "NaN"])
    func badAmountIsRefusedAndNothingIsWritten(amount: String) throws {
        let store = try Self.withDebit()
        #expect {
            try store.add(on: "2025-01-05", [("Groceries", amount), ("VTB Debit", nil)])
        } throws: { error in
            guard case StoreError.money(let field, _) = error else { return false }
            return field == "posting Groceries"
        }
        #expect(try store.rawCount("txn") == 0)
    }

    @Test func postingToAnUnknownAccountIsRefused() throws {
        let store = try Self.withDebit()
        #expect {
            try store.add(on: "2025-01-05", [("Nowhere", "5"), ("VTB Debit", nil)])
        } throws: { error in
            guard case StoreError.notFound(_, let reference, _) = error else { return false }
            return reference == "Nowhere"
        }
        #expect(try store.rawCount("txn") == 0)
    }

    @Test func softDeleteKeepsTheRowAndBumpsItsVersion() throws {
        let store = try Self.withDebit()
        let t = try store.add(on: "2025-01-05", [("Groceries", "5"), ("VTB Debit", nil)])
        try store.removeTransaction(t.id)
        #expect(try store.snapshot().transactions.isEmpty)
        let row = try #require(try store.read("test") { db in try Row.fetchOne(db, sql: "SELECT * FROM txn WHERE id = ?", arguments: [t.id]) })
        #expect(row["deleted"] as Bool == true)
        #expect(row["version"] as Int == 2)
        #expect((row["updatedAt"] as Date) >= (row["createdAt"] as Date))
        #expect(try store.rawCount("posting") == 2, "postings stay with their soft-deleted transaction")
        #expect(throws: StoreError.self) { try store.transaction(t.id) }
        #expect(try store.postingCount("VTB Debit") == 0, "postings of deleted transactions do not count")
    }

    @Test func editReplacesPostingsAndMustStillBalance() throws {
        let store = try Self.withDebit()
        let t = try store.add(on: "2025-01-05", payee: "Shop", [("Groceries", "5"), ("VTB Debit", nil)])
        var bad = TransactionChanges()
        bad.postings = [PostingInput(account: "Groceries", amount: "7", field: "p1"), PostingInput(account: "VTB Debit", amount: "-5", field: "p2")]
        #expect(throws: StoreError.self) { try store.editTransaction(t.id, bad) }
        #expect(try store.transaction(t.id) == t)
        var good = TransactionChanges()
        good.payee = "Market"
        good.day = try Day(iso: "2025-01-06")
        good.postings = [PostingInput(account: "Eating out", amount: "7", field: "p1"), PostingInput(account: "VTB Debit", amount: nil, field: "p2")]
        let edited = try store.editTransaction(String(t.id.prefix(8)), good).transaction
        #expect(edited.payee == "Market")
        #expect(try edited.day == Day(iso: "2025-01-06"))
        #expect(try store.balancesByName()["Eating out"] == 700)
        #expect(try store.balancesByName()["Groceries"] == 0)
        let version = try store.read("test") { db in try Int.fetchOne(db, sql: "SELECT version FROM txn WHERE id = ?", arguments: [t.id]) }
        #expect(version == 2)
    }

    @Test func ambiguousTransactionPrefixListsTheCandidates() throws {
        let store = try Self.withDebit()
        let a = try store.add(on: "2025-01-05", payee: "One", [("Groceries", "5"), ("VTB Debit", nil)])
        let b = try store.add(on: "2025-01-06", payee: "Two", [("Groceries", "6"), ("VTB Debit", nil)])
        try store.rawWrite { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for (old, new) in [(a.id, "cafe0001-0000-4000-8000-000000000001"), (b.id, "cafe0002-0000-4000-8000-000000000002")] {
                try db.execute(sql: "UPDATE txn SET id = ? WHERE id = ?", arguments: [new, old])
                try db.execute(sql: "UPDATE posting SET txnId = ? WHERE txnId = ?", arguments: [new, old])
            }
        }
        #expect(try store.transaction("cafe0002").payee == "Two")
        #expect {
            _ = try store.transaction("cafe")
        } throws: { error in
            guard case StoreError.ambiguous(_, _, let candidates) = error else { return false }
            return candidates.count == 2 && candidates[0].contains("cafe0001") && candidates[1].contains("cafe0002")
        }
        #expect(throws: StoreError.self) { try store.transaction("caf") }
    }
}
