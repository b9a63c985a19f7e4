import GRDB
import Testing

@testable import CapitalStore

/// `Store.bulkWrite` (an import's write) runs with SQLite's foreign-key checks off and checks the
/// references once before it commits: a row naming a row that does not exist must still fail the
/// whole write, by each of the check's paths, and the connection must have its checks back after
/// the write, whether it committed or not.
@Suite("Bulk writes: references checked before the commit")
struct BulkWriteTests {
    /// A posting row of `transaction` in `account`, written with raw SQL.
    static func posting(_ db: Database, transaction: String, account: String, position: Int = 0) throws {
        try db.execute(
            sql: "INSERT INTO posting(id, txnId, accountId, position, amountMinor, currency) VALUES (?, ?, ?, ?, 100, 'RUB')",
            arguments: [Store.newID(), transaction, account, position])
    }

    /// A transaction row, written with raw SQL; returns its id.
    @discardableResult
    static func transaction(_ db: Database) throws -> String {
        let id = Store.newID()
        try db.execute(
            sql: "INSERT INTO txn(id, createdAt, updatedAt, day, seq) VALUES (?, '2025-01-01', '2025-01-01', 20000, 1000000)",
            arguments: [id])
        return id
    }

    static func account(_ store: Store, _ name: String) throws -> String {
        try store.read("t") { db in try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) }!
    }

    static func foreignKeysOn(_ store: Store) throws -> Bool {
        try store.read("t") { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true
    }

    /// What a failed write must leave as it was.
    static func counts(_ store: Store) throws -> [Int] {
        try ["txn", "posting", "schedulePosting", "balanceMonth"].map { try store.rawCount($0) }
    }

    enum Dangling: String, CaseIterable {
        /// One posting naming no transaction, among many older ones: the new postings looked up one by one.
        case transactionAmongMany
        /// Most postings new, one naming no transaction: a pass over the postings' transaction index.
        case transactionOfMostPostings
        /// A posting naming no account.
        case account
        /// A row of another table (a schedule's template posting) naming no schedule.
        case otherTable
    }

    @Test(arguments: Dangling.allCases)
    func aDanglingReferenceFailsTheWholeWrite(_ dangling: Dangling) throws {
        let store = try dangling == .transactionOfMostPostings ? Store.initialized() : Store.household()
        let cash = try Self.account(store, store.read("t") { db in try String.fetchOne(db, sql: "SELECT name FROM account LIMIT 1") }!)
        let before = try Self.counts(store)
        let refused = #expect(throws: StoreError.self) {
            try store.bulkWrite("importing a test") { db in
                let good = try Self.transaction(db)
                try Self.posting(db, transaction: good, account: cash)
                switch dangling {
                case .transactionAmongMany:
                    try Self.posting(db, transaction: "no-such-transaction", account: cash, position: 1)
                case .transactionOfMostPostings:
                    for position in 1...20 { try Self.posting(db, transaction: good, account: cash, position: position) }
                    try Self.posting(db, transaction: "no-such-transaction", account: cash)
                case .account:
                    try Self.posting(db, transaction: good, account: "no-such-account", position: 1)
                case .otherTable:
                    try db.execute(
                        sql:
                            "INSERT INTO schedulePosting(scheduleId, position, accountId, amountMinor, currency) VALUES ('no-such-schedule', 0, ?, 1, 'RUB')",
                        arguments: [cash])
                }
            }
        }
        // Refused by the check before the commit, in SQLite's words, not by SQLite as the row was written.
        #expect("\(refused.map { "\($0)" } ?? "")".contains("FOREIGN KEY constraint failed"))
        #expect(try Self.counts(store) == before)
        #expect(try Self.foreignKeysOn(store))
        // The same write without the dangling row commits, and the checks are on after it too.
        try store.bulkWrite("importing a test") { db in
            try Self.posting(db, transaction: try Self.transaction(db), account: cash)
        }
        #expect(try Self.counts(store)[0...1] == [before[0] + 1, before[1] + 1])
        #expect(try Self.foreignKeysOn(store))
        // An ordinary write still has SQLite refuse the row at once.
        #expect(throws: StoreError.self) {
            try store.rawWrite { db in try Self.posting(db, transaction: "no-such-transaction", account: cash) }
        }
    }

    /// Rows left dangling by an older mistake (written here with SQLite's checks off, as a hand
    /// edit would) do not stop a good import, many postings or few, as SQLite's own row-by-row
    /// checks would not have: only what the write adds is held to its references.
    @Test(arguments: [1, 30])
    func olderDanglingRowsDoNotStopAGoodWrite(postings: Int) throws {
        // One posting among the sample's many is looked up alone; thirty into a ledger of three, by the pass.
        let store = try postings == 1 ? Store.household() : Store.initialized()
        let cash = try Self.account(store, store.read("t") { db in try String.fetchOne(db, sql: "SELECT name FROM account LIMIT 1") }!)
        try store.writer().writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try Self.posting(db, transaction: "lost-transaction", account: cash)
            try Self.posting(db, transaction: try Self.transaction(db), account: "lost-account")
            try db.execute(
                sql: "INSERT INTO schedulePosting(scheduleId, position, accountId, amountMinor, currency) VALUES ('lost-schedule', 0, ?, 1, 'RUB')",
                arguments: [cash])
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let before = try Self.counts(store)
        try store.bulkWrite("importing a test") { db in
            let good = try Self.transaction(db)
            for position in 0..<postings { try Self.posting(db, transaction: good, account: cash, position: position) }
        }
        #expect(try Self.counts(store)[0...1] == [before[0] + 1, before[1] + postings])
        // A new dangling row among them still fails the write.
        let refused = #expect(throws: StoreError.self) {
            try store.bulkWrite("importing a test") { db in
                let good = try Self.transaction(db)
                for position in 0..<postings { try Self.posting(db, transaction: good, account: cash, position: position) }
                try Self.posting(db, transaction: good, account: "lost-account", position: postings)
            }
        }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("FOREIGN KEY constraint failed"))
        #expect(try Self.counts(store)[0...1] == [before[0] + 1, before[1] + postings])
        #expect(try Self.foreignKeysOn(store))
    }
}
