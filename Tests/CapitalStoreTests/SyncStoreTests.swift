import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// A device of a shared ledger in the tests: an in-memory store whose clock the test sets.
final class Device: @unchecked Sendable {
    private let lock = NSLock()
    private var milliseconds: Int64
    private(set) var store: Store

    init(at milliseconds: Int64 = 1_750_000_000_000) throws {
        self.milliseconds = milliseconds
        store = try Store.inMemory()
        store.clock = { [unowned self] in lock.withLock { self.milliseconds } }
        try store.startSync()
    }

    /// Moves the device's clock by `milliseconds` (backwards too).
    func advance(_ milliseconds: Int64) { lock.withLock { self.milliseconds += milliseconds } }

    /// Applies every pending change set of `other`.
    func pull(from other: Device) throws {
        try store.applyRemote(try other.store.pendingChangeSets(limit: .max))
    }

    /// The tables a person sees, in an order independent of insertion.
    func tables() throws -> String {
        try store.read("test") { db in
            var text = ""
            for entity in SyncSchema.entities {
                let filter = entity.filter.map { " WHERE " + $0.replacingOccurrences(of: "%", with: entity.table) } ?? ""
                let records = try String.fetchAll(
                    db, sql: "SELECT \(entity.recordSQL(entity.table)) AS r FROM \(entity.table)\(filter) ORDER BY r")
                for record in records {
                    text += "\(entity.table) \(record) \(try SyncRecords.read(db, entity, record) ?? [])\n"
                }
            }
            return text
        }
    }
}

/// The lines of `device`'s exported ledger, sorted: the same for two devices holding the same ledger.
func exportedLines(_ device: Device) throws -> [String] {
    try device.store.export(format: .yaml).split(separator: "\n").map(String.init).sorted()
}

@Suite struct SyncStoreTests {
    /// The columns of every table of the schema, read from SQLite.
    private func schema() throws -> [String: [String]] {
        let store = try Store.inMemory()
        return try store.read("test") { db in
            var tables: [String: [String]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                tables[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { $0["name"] as String }
            }
            return tables
        }
    }

    @Test func everyColumnOfEveryTableIsSharedOrSaidLocal() throws {
        var covered: [String: Set<String>] = [:]
        for entity in SyncSchema.entities {
            var columns = Set(entity.key + entity.local + entity.groups.flatMap(\.columns))
            if entity.softDelete { columns.insert("deleted") }
            covered[entity.table] = columns
            for child in entity.groups.compactMap(\.child) { covered[child.table] = Set([child.parent] + child.columns) }
        }
        for (table, columns) in try schema() where !SyncSchema.localTables.contains(table) {
            let known = try #require(covered[table], "table \(table) is neither shared (SyncSchema.entities) nor local (SyncSchema.localTables)")
            for column in columns {
                #expect(known.contains(column), "\(table).\(column) is in no group and not local: say how it syncs")
            }
        }
    }

    @Test func aWholeLedgerWrittenOnOneDeviceArrivesWholeOnAnother() throws {
        let anna = try Device()
        try anna.store.importDocument(Sample.household)
        try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        var changes = AccountChanges()
        changes.floor = .some(5_000_00)
        changes.note = "for the week"
        try anna.store.editAccount("Cash", changes)
        let phone = try Device()
        try phone.pull(from: anna)
        #expect(try phone.store.syncCanonical() == anna.store.syncCanonical())
        #expect(try phone.tables() == anna.tables())
        #expect(try phone.store.balancesByName() == anna.store.balancesByName())
        // The default account is the device's own; the order of a day's transactions is the order
        // each device wrote them in. Everything else of the exported ledger is the same.
        #expect(try phone.store.defaultAccount() == nil)
        #expect(try exportedLines(phone) == exportedLines(anna).filter { !$0.hasPrefix("defaultAccount:") })
    }
}
