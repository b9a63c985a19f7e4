import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// Balance checkpoints (issue 20): kept by triggers through every kind of write, equal to a
/// rebuild from the postings, and the balances they give equal the sums of every posting.
@Suite("Store: balance checkpoints")
struct CheckpointTests {
    /// The checkpoint table's rows, in a fixed order.
    static func rows(_ store: Store) throws -> [String] {
        try store.read("test") { db in
            try Row.fetchAll(
                db, sql: "SELECT accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings FROM balanceMonth ORDER BY 1, 2, 3"
            )
            .map { "\($0[0] as String) \($0[1] as String) \($0[2] as Int) \($0[3] as Int64) \($0[4] as Int64) \($0[5] as Int64) \($0[6] as Int)" }
        }
    }

    /// What the postings say, straight from them (the test's own sum, not the rebuild's SQL).
    static func expected(_ store: Store) throws -> [String] {
        let ledger = try store.snapshot()
        var sums: [String: (sum: Int64, positive: Int64, negative: Int64, count: Int)] = [:]
        for transaction in ledger.transactions {
            for posting in transaction.postings {
                let key = "\(posting.accountID) \(posting.amount.currency.code) \(transaction.day.startOfMonth.number)"
                var value = sums[key, default: (0, 0, 0, 0)]
                value.sum += posting.amount.minor
                if posting.amount.minor > 0 { value.positive += posting.amount.minor } else { value.negative += posting.amount.minor }
                value.count += 1
                sums[key] = value
            }
        }
        return sums.map { "\($0.key) \($0.value.sum) \($0.value.positive) \($0.value.negative) \($0.value.count)" }.sorted()
    }

    @Test func randomWritesKeepCheckpointsEqualToThePostings() throws {
        let store = try Store.initialized()
        for name in ["A", "B", "C"] { try store.addAccount(name: name, kind: .debit, currency: nil) }
        var generator = SplitMix64(seed: 20)
        var live: [String] = []
        let accounts = ["A", "B", "C", "Groceries"]
        for step in 0..<300 {
            let choice = generator.next() % 10
            if choice < 5 || live.isEmpty {
                let day = Day(18_000 + Int(generator.next() % 2_000))
                let from = accounts[Int(generator.next() % 4)]
                var to = accounts[Int(generator.next() % 4)]
                if to == from { to = "Capital" }
                let amount = String(Int(generator.next() % 100_000) + 1)
                let transaction = try store.add(on: day.iso, [(from, "-\(amount)"), (to, nil)])
                live.append(transaction.id)
            } else if choice < 7 {
                var changes = TransactionChanges()
                changes.day = Day(18_000 + Int(generator.next() % 2_000))
                if generator.next() % 2 == 0 {
                    changes.postings = [
                        PostingInput(account: accounts[Int(generator.next() % 4)], amount: "-7", field: "p"),
                        PostingInput(account: "Capital", amount: nil, field: "q"),
                    ]
                }
                try store.editTransaction(live[Int(generator.next() % UInt64(live.count))], changes)
            } else if choice < 9 {
                let index = Int(generator.next() % UInt64(live.count))
                try store.removeTransaction(live.remove(at: index))
            } else if step % 3 == 0 {
                // A raw SQL change as a user might type into sqlite3: triggers keep the table too.
                let id = live[Int(generator.next() % UInt64(live.count))]
                try store.rawWrite { db in
                    try db.execute(sql: "UPDATE posting SET amountMinor = amountMinor + 5 WHERE txnId = ? AND position = 0", arguments: [id])
                    try db.execute(sql: "UPDATE posting SET amountMinor = amountMinor - 5 WHERE txnId = ? AND position = 1", arguments: [id])
                }
            } else {
                let id = live.remove(at: Int(generator.next() % UInt64(live.count)))
                try store.rawWrite { db in try db.execute(sql: "DELETE FROM txn WHERE id = ?", arguments: [id]) }
            }
        }
        #expect(try Self.rows(store) == Self.expected(store))
        #expect(try store.read("test") { db in try Checkpoints.differences(db) } == [])

        // Merging an account into another moves its months.
        try store.removeAccount("C", .moveTo("B"))
        #expect(try Self.rows(store) == Self.expected(store))

        // Balances before any month start equal the sums of every posting before it.
        let ledger = try store.snapshot()
        for month in [Day(18_000).startOfMonth, Day(19_000).startOfMonth, Day(20_500).startOfMonth] {
            let fromCheckpoints = try store.read("test") { db in try Checkpoints.balances(db, before: month).balances }.filter { $0.value != 0 }
            let fromPostings = try ledger.balances(on: month.advanced(by: -1)).filter { $0.value != 0 }
            #expect(fromCheckpoints == fromPostings, "\(month)")
        }
    }

    /// The trigger and index a bulk write sets aside, as `sqlite_master` holds them.
    static func setAside(_ store: Store) throws -> [String] {
        try store.read("test") { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('balanceMonth_postingInsert', 'posting_txn') ORDER BY name")
        }
    }

    /// An import large enough to be written in bulk adds its months to those already there (one
    /// transaction of which was deleted), leaves the trigger and the index as they were, and the
    /// trigger keeps the table after it.
    @Test func aBulkImportAddsItsMonthsAndPutsTheTriggerBack() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "A", kind: .debit, currency: nil)
        try store.add(on: "2024-01-10", [("A", "1000"), ("Capital", nil)])
        try store.add(on: "2024-02-10", [("A", "-15"), ("Groceries", nil)])
        try store.removeTransaction(try store.add(on: "2024-02-11", [("A", "-7"), ("Groceries", nil)]).id)
        let before = try Self.setAside(store)
        #expect(before.count == 2)

        let count = Store.bulkTransactions + 500
        var text = "capital: 1\ncurrency: RUB\naccounts:\n  - {name: A, kind: debit}\n  - {name: B, kind: cash}\ntransactions:\n"
        for n in 0..<count {
            let day = Day(try Day(iso: "2024-01-01").number + n % 90)  // January to March
            let (from, to) = n % 3 == 0 ? ("A", "B") : ("B", "Groceries")
            text += "  - {date: \(day.iso), postings: [{account: \(from), amount: -\(n % 97 + 1)}, {account: \(to)}]}\n"
        }
        let summary = try store.importDocument(try LedgerFile.parse(text, file: "bulk.yaml"))
        #expect(summary.transactionsAdded == count)
        #expect(try Self.rows(store) == Self.expected(store))
        #expect(try store.read("test") { db in try Checkpoints.differences(db) } == [])
        #expect(try Self.setAside(store) == before)

        try store.add(on: "2024-03-20", [("B", "-3"), ("Groceries", nil)])
        #expect(try Self.rows(store) == Self.expected(store), "the trigger keeps the table after a bulk write")
    }

    /// Bulk only pays where the write is large beside the ledger: at least 2 000 transactions,
    /// and at least a quarter as many postings as the ledger holds.
    @Test func bulkIsForWritesLargeBesideTheLedger() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "A", kind: .debit, currency: nil)
        try store.add(on: "2024-01-10", [("A", "1000"), ("Capital", nil)])
        let (a, capital) = try store.read("test") { db in
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            return (try accounts.resolve("A").id, try accounts.resolve("Capital").id)
        }
        func transactions(_ count: Int) throws -> [Transaction] {
            try (0..<count).map { _ in
                Transaction(
                    id: Store.newID(), day: try Day(iso: "2024-01-11"),
                    postings: [
                        Posting(accountID: a, amount: Money(minor: 1, currency: .rub)),
                        Posting(accountID: capital, amount: Money(minor: -1, currency: .rub)),
                    ])
            }
        }
        let (few, enough) = (try transactions(Store.bulkTransactions - 1), try transactions(Store.bulkTransactions))
        #expect(try store.read("test") { db in try Store.isBulk(few, db) } == false)
        #expect(try store.read("test") { db in try Store.isBulk(enough, db) })
        // A ledger that has held 100 000 postings: 4 000 more go through the trigger.
        try store.rawWrite { db in
            let txn = try String.fetchOne(db, sql: "SELECT id FROM txn")!
            try db.execute(
                sql: "INSERT INTO posting(rowid, id, txnId, accountId, position, amountMinor, currency) VALUES (100000, 'p', ?, ?, 9, 0, 'RUB')",
                arguments: [txn, a])
        }
        #expect(try store.read("test") { db in try Store.isBulk(enough, db) } == false)
        #expect(try store.read("test") { db in try Store.isBulk(try transactions(12_500), db) })
    }

    /// A bulk write that fails rolls back whole: the trigger and the index are there again, and the
    /// table is as it was.
    @Test func aFailedBulkWriteLeavesTriggerIndexAndMonths() throws {
        struct Stop: Error {}
        let store = try Store.initialized()
        try store.addAccount(name: "A", kind: .debit, currency: nil)
        try store.add(on: "2024-01-10", [("A", "1000"), ("Capital", nil)])
        let (before, rows) = (try Self.setAside(store), try Self.rows(store))
        #expect(throws: (any Error).self) {
            try store.rawWrite { db in
                try Checkpoints.bulkInsert(db) {
                    let accounts = AccountIndex(try Store.fetchAccounts(db))
                    let a = try accounts.resolve("A").id
                    let groceries = try accounts.resolve("Groceries").id
                    let transaction = Transaction(
                        id: Store.newID(), day: try Day(iso: "2024-01-12"),
                        postings: [
                            Posting(accountID: a, amount: Money(minor: -5, currency: .rub)),
                            Posting(accountID: groceries, amount: Money(minor: 5, currency: .rub)),
                        ])
                    try Store.insertTransaction(db, transaction, accounts)
                    throw Stop()
                }
            }
        }
        #expect(try Self.setAside(store) == before)
        #expect(try Self.rows(store) == rows)
        #expect(try store.read("test") { db in try Checkpoints.differences(db) } == [])
    }

    @Test func damagedRowIsFoundAndRepairRebuildsIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("capital.sqlite")
        do {
            let store = try Store.open(path: path)
            try store.initialize(currency: .rub)
            try store.addAccount(name: "A", kind: .debit, currency: nil)
            try store.add(on: "2024-03-05", [("A", "100"), ("Capital", nil)])
            try store.add(on: "2024-04-05", [("A", "-30"), ("Groceries", nil)])
            try store.rawWrite { db in
                try db.execute(
                    sql: "UPDATE balanceMonth SET amountMinor = amountMinor + 1 WHERE month = ?", arguments: [try Day(iso: "2024-04-01").number])
                try db.execute(sql: "DELETE FROM balanceMonth WHERE month = ? AND amountMinor < 0", arguments: [try Day(iso: "2024-03-01").number])
                try db.execute(
                    sql: "INSERT INTO balanceMonth VALUES ('nobody', 'RUB', ?, 5, 5, 0, 1)", arguments: [try Day(iso: "2024-05-01").number])
            }
        }
        let problems = try Store.check(path: path).problems
        #expect(problems.count == 4)
        #expect(problems.allSatisfy { $0.kind == .checkpoint && $0.table == "balanceMonth" })
        #expect(
            problems.contains { $0.message.contains("holds no row, the postings say -10000/0/-10000/1") && ($0.id ?? "").hasSuffix("RUB 2024-03") })
        #expect(problems.contains { $0.id == "nobody RUB 2024-05" && $0.message.contains("holds 5/5/0/1, the postings say no row") })
        let before = try Store.open(path: path).snapshot()
        #expect(try Store.repair(path: path) == 4)
        #expect(try Store.check(path: path).problems == [])
        #expect(try Store.open(path: path).snapshot() == before, "repair writes derived data only")
        #expect(try Store.repair(path: path) == 0)
    }
}

/// `export` walks the transactions and hands the file over a megabyte at a time (issue 20): the
/// parts put together are the bytes the ledger written whole gives, in YAML and JSON.
@Suite("Store: streamed export")
struct StreamedExportTests {
    @Test(arguments: LedgerFileFormat.allCases)
    func partsMakeTheWholeFile(format: LedgerFileFormat) throws {
        let store = try Store.initialized()
        try store.addAccount(name: "A", kind: .debit, currency: nil)
        // 6 000 transactions straight into SQLite (the façade would take a while in a debug build).
        try store.rawWrite { db in
            let account = try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = 'A'")!
            let groceries = try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = 'Groceries'")!
            for n in 0..<6_000 {
                let id = String(format: "00000000-0000-4000-8000-%012x", n)
                try db.execute(
                    sql:
                        "INSERT INTO txn(id, createdAt, updatedAt, day, seq, payee) VALUES (?, '2025-01-01 00:00:00.000', '2025-01-01 00:00:00.000', ?, ?, ?)",
                    arguments: [id, 19_000 + n / 10, n + 1, "Shop \"\(n % 7)\": #\(n), a payee long enough for a megabyte in six thousand"])
                try db.execute(
                    sql:
                        "INSERT INTO posting(id, txnId, accountId, position, amountMinor, currency) VALUES (?, ?, ?, 0, ?, 'RUB'), (?, ?, ?, 1, ?, 'RUB')",
                    arguments: [id + "a", id, groceries, 100 + n, id + "b", id, account, -100 - n])
            }
        }
        var parts: [String] = []
        try store.export(format: format) { parts.append($0) }
        #expect(parts.count > 1, "a file of \(parts.joined().utf8.count) bytes in one part")
        #expect(parts.dropLast().allSatisfy { $0.utf8.count >= 1 << 20 })
        let whole = LedgerFile.write(try store.snapshot(), defaultAccountID: nil, format: format, extras: LedgerExtras())
        #expect(parts.joined() == whole)
    }
}

/// A default-account setting left naming no live account (typed into SQLite by hand) is left out
/// of an export, and the calendar still follows the currency.
@Suite("Store: export with a dangling default account")
struct DanglingDefaultExportTests {
    @Test func theCalendarFollowsTheCurrency() throws {
        let store = try Store.initialized()
        try store.rawWrite { db in
            try Store.setSetting(db, "defaultAccount", "no-such-account")
            try Store.setSetting(db, "calendar", "ru")
        }
        let text = try store.export(format: .yaml)
        let keys = text.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("#") && !$0.hasPrefix("-") }.map {
            String($0.prefix { $0 != ":" })
        }
        #expect(Array(keys.prefix(3)) == ["capital", "currency", "calendar"], "\(keys)")
        #expect(!keys.contains("defaultAccount"))
        let reread = try LedgerFile.parse(text, file: "dangling.yaml")
        #expect(reread.defaultAccount == nil)
    }
}

/// Posting ids are UUIDs of version 7 (`RecordID`): each greater than the one before, as text,
/// and well-formed (RFC 9562's version and variant bits), so that a bulk write appends to the index.
@Suite("Store: posting ids in time order")
struct RecordIDTests {
    @Test func idsAreIncreasingVersion7UUIDs() throws {
        let ids = (0..<20_000).map { _ in RecordID.next() }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "in the order they were made")
        #expect(Set(ids).count == ids.count)
        let hex = Set("0123456789abcdef")
        for id in ids.prefix(500) + ids.suffix(500) {
            let groups = id.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(id)")
            #expect(groups.joined().allSatisfy(hex.contains), "\(id)")
            #expect(groups[2].first == "7", "version 7: \(id)")
            #expect("89ab".contains(groups[3].first!), "variant 10: \(id)")
            #expect(UUID(uuidString: id) != nil)
        }
        // The first 48 bits are the time in milliseconds.
        let millis = Int(ids[0].replacingOccurrences(of: "-", with: "").prefix(12), radix: 16)!
        let now = Int(Date().timeIntervalSince1970 * 1000)
        #expect(abs(now - millis) < 60_000, "\(millis) against \(now)")
    }

    /// Other records' ids: random version 4 UUIDs, as Foundation's `UUID` writes them, lower case.
    @Test func randomIdsAreVersion4UUIDs() throws {
        let ids = (0..<20_000).map { _ in RecordID.random() }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.prefix(8) }).count > 19_900, "the 8-character prefixes people type tell them apart")
        for id in ids.prefix(1_000) {
            let parsed = try #require(UUID(uuidString: id), "\(id)")
            #expect(parsed.uuidString.lowercased() == id)
            let groups = id.split(separator: "-")
            #expect(groups[2].first == "4", "version 4: \(id)")
            #expect("89ab".contains(groups[3].first!), "variant 10: \(id)")
        }
        // Every hexadecimal digit outside the version and variant is used.
        let digits = Set(ids.prefix(100).joined())
        #expect(digits.isSuperset(of: Set("0123456789abcdef-")))
    }
}
