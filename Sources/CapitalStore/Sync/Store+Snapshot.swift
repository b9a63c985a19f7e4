import CapitalCore
import Foundation
import GRDB

/// A group's winning value as a snapshot carries it: what a new device starts from. On the wire
/// an array, `[entity, record, group, value, hlc, device, base]`.
public struct SnapshotEntry: Codable, Hashable, Sendable {
    public let entity: String
    public let record: String
    public let group: String
    public let value: String
    public let hlc: String
    public let device: String
    public let base: String?

    public init(entity: String, record: String, group: String, value: String, hlc: String, device: String, base: String?) {
        self.entity = entity
        self.record = record
        self.group = group
        self.value = value
        self.hlc = hlc
        self.device = device
        self.base = base
    }

    public init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        self.init(
            entity: try fields.decode(String.self), record: try fields.decode(String.self), group: try fields.decode(String.self),
            value: try fields.decode(String.self), hlc: try fields.decode(String.self), device: try fields.decode(String.self),
            base: try fields.decode(String?.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        for field in [entity, record, group, value, hlc, device] { try fields.encode(field) }
        try fields.encode(base)
    }
}

extension Store {
    /// Starts this device on a shared ledger from a snapshot — `SyncWire.Snapshot`'s JSON, every
    /// group's winner and the log's sequence number it was taken at — or brings a device whose
    /// ledger differs from the server's back to it; then `applyRemote` continues with the log
    /// after it.
    ///
    /// On a device that holds nothing yet (a join) the entries are read from the bytes one by
    /// one and written as the winners they are, and each kind's records are inserted by one
    /// statement, unless two of them claim one slot (a name, a statement line, a due's number):
    /// those kinds go record by record, as `applyRemote` writes them. Elsewhere each entry is
    /// merged like a change from the log.
    /// - Throws: `.invalid` for a snapshot that is not one, and as `applyRemote`; nothing is
    ///   applied then.
    @discardableResult
    public func applySnapshot(_ body: Data) throws(StoreError) -> SyncApplyReport {
        try applySnapshot(body, bulk: true)
    }

    /// `applySnapshot`, with the bulk writing of a join allowed or not (the tests compare the two).
    func applySnapshot(_ body: Data, bulk: Bool) throws(StoreError) -> SyncApplyReport {
        let now = clock()
        return try write("applying the server's snapshot") { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            guard var device = try SyncDevice.fetch(db) else {
                throw StoreError.conflict("this ledger is not shared from this device: nothing to apply a snapshot to")
            }
            if try bulk && !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncState)")! {
                let (report, head) = try SyncSnapshot.write(db, body, device: &device, now: now)
                device.cursor = max(device.cursor, head)
                try device.save(db)
                return report
            }
            var byDevice: [String: [Change]] = [:]
            let head = try SyncSnapshot.read(body) { entry in
                byDevice[entry.device, default: []].append(
                    Change(entity: entry.entity, record: entry.record, group: entry.group, value: entry.value, hlc: entry.hlc, base: entry.base))
            }
            let sets = byDevice.keys.sorted().map { ChangeSet(id: "snapshot", device: $0, deviceSeq: 0, changes: byDevice[$0]!) }
            return try applyRemote(db, sets, cursor: head, now: now)
        }
    }
}

/// A snapshot on its way in.
enum SyncSnapshot {
    /// Calls `entry` with each of the snapshot's entries; returns its head.
    static func read(_ body: Data, entry: (SnapshotEntry) throws -> Void) throws -> Int64 {
        let head = try body.withUnsafeBytes { raw in
            do {
                return try SnapshotReader.read(raw.bindMemory(to: UInt8.self), entry: entry)
            } catch let error as SnapshotReader.Malformed {
                throw StoreError.invalid(field: "{snapshot}", value: "from the server", reason: FieldKeys.literal("\(error)"))
            }
        }
        guard head >= 0 else {
            throw StoreError.invalid(field: "{snapshot}", value: "from the server", reason: FieldKeys.literal("its head \(head) is negative"))
        }
        return head
    }

    /// Writes the snapshot on a device that holds nothing: each entry checked as a change from
    /// the log is (`SyncValidation`; values and postings by SQLite, in one query each) and made
    /// the winner, then the records written.
    static func write(_ db: Database, _ body: Data, device: inout SyncDevice, now: Int64) throws -> (SyncApplyReport, Int64) {
        var report = SyncApplyReport()
        let save = try db.cachedStatement(
            sql: "INSERT INTO syncState(entity, record, grp, value, hlc, device, baseHlc, baseDevice) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let head = try read(body) { entry in
            let change = Change(entity: entry.entity, record: entry.record, group: entry.group, value: entry.value, hlc: entry.hlc, base: entry.base)
            let winner = try SyncValidation.winner(change, device: entry.device, valueChecked: true)
            _ = device.clock.observe(winner.stamp.hlc, now: now)
            do {
                try save.execute(arguments: [
                    change.entity, change.record, change.group, change.value, winner.stamp.hlc.stored, winner.stamp.device,
                    winner.base.map { $0.hlc.stored }, winner.base?.device,
                ])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StoreError.invalid(
                    field: "{snapshot}", value: "from the server",
                    reason: FieldKeys.literal("\(change.entity) \(change.record) \(change.group) comes twice"))
            }
            report.taken += 1
        }
        try checkValues(db)
        report.sets = try Int.fetchOne(db, sql: "SELECT count(DISTINCT device) FROM syncState")!
        // As `applyRemote` writes: removed records first, newest kinds first; then the others,
        // accounts before the transactions posting to them.
        let at = Timestamp.now()
        // A kind whose local column has no value for a whole-kind insert goes record by record too.
        let oneByOne = try SyncSchema.entities.filter { entity in
            try entity.uniqueName || entity.localDefaults.contains { entity.bulkDefaults[$0.column] == nil } || hasClaims(db, entity)
        }.map(\.table)
        for entity in SyncSchema.entities.reversed() where oneByOne.contains(entity.table) {
            for record in try records(db, entity, removed: true) { try SyncRecords.materialize(db, entity, record, now: at) }
        }
        for entity in SyncSchema.entities {
            if oneByOne.contains(entity.table) {
                for record in try records(db, entity, removed: false) { try SyncRecords.materialize(db, entity, record, now: at) }
                if entity.uniqueName { try SyncNames.derive(db, entity) }
            } else {
                if entity.table == "txn" {
                    try Checkpoints.bulkInsert(db, cacheKiB: nil) {
                        try insertAll(db, entity, now: at)
                    }
                } else {
                    try insertAll(db, entity, now: at)
                }
                // Written from the winners themselves: nothing of them to send.
                try db.execute(sql: "DELETE FROM syncDirty WHERE entity = ?", arguments: [entity.table])
            }
        }
        try SyncRecords.keepAccountsWithActivity(db, now: at)
        return (report, head)
    }

    /// `entity`'s records whose `deleted` won as `true` (`removed`), or the others, in order.
    private static func records(_ db: Database, _ entity: SyncEntity, removed: Bool) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT DISTINCT s.record FROM syncState s WHERE s.entity = ?1 AND \(removed ? "" : "NOT ")EXISTS (
                    SELECT 1 FROM syncState d WHERE d.entity = ?1 AND d.record = s.record AND d.grp = 'deleted' AND d.value = 'true')
                ORDER BY s.record
                """, arguments: [entity.table])
    }

    /// The order `insertAll` inserts records in: removed ones first, each by its id (as
    /// `applyRemote` writes them).
    static let insertOrder = "coalesce(d.value = 'true', 0) DESC, g0.record"

    /// Checks every value but `deleted`'s is a JSON object and every transaction's postings
    /// balance: one query finds the values that may not pass (or, should a sum overflow, every
    /// transaction's postings), and `SyncValidation` says why.
    private static func checkValues(_ db: Database) throws {
        let columns = "s.entity, s.record, s.grp, s.value, s.hlc, s.device"
        var suspects = try Row.fetchAll(
            db, sql: "SELECT \(columns) FROM syncState s WHERE grp != 'deleted' AND NOT (json_valid(value) AND json_type(value) = 'object')")
        do {
            suspects += try Row.fetchAll(
                db,
                sql: """
                    SELECT \(columns) FROM syncState s
                    WHERE s.entity = 'txn' AND s.grp = 'postings' AND coalesce(json_array_length(s.value, '$.rows'), 0) = 0
                    UNION
                    SELECT \(columns) FROM syncState s, json_each(s.value, '$.rows') r WHERE s.entity = 'txn' AND s.grp = 'postings'
                    GROUP BY s.record, json_extract(r.value, '$.currency')
                    HAVING sum(json_extract(r.value, '$.amountMinor')) != 0 OR min(json_type(r.value, '$.amountMinor') IS 'integer') = 0
                        OR min(json_type(r.value, '$.currency') IS 'text') = 0
                    """)
        } catch let error as DatabaseError where error.message?.contains("overflow") == true {
            suspects = try Row.fetchAll(db, sql: "SELECT \(columns) FROM syncState s WHERE s.entity = 'txn' AND s.grp = 'postings'")
        }
        for row in suspects {
            let change = Change(entity: row[0], record: row[1], group: row[2], value: row[3], hlc: "\(HybridTimestamp(stored: row[4]))", base: nil)
            _ = try SyncValidation.winner(change, device: row[5])
        }
    }

    /// True when two of `entity`'s records claim one slot only one may hold (`SyncUniques`).
    private static func hasClaims(_ db: Database, _ entity: SyncEntity) throws -> Bool {
        for slot in entity.uniques {
            let values = slot.columns.map { "json_extract(value, '$.\($0)')" }
            let claimed = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM syncState WHERE entity = ? AND grp = ? AND \(values.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))
                        GROUP BY \(values.joined(separator: ", ")) HAVING count(*) > 1)
                    """, arguments: [entity.table, slot.group])!
            if claimed { return true }
        }
        return false
    }

    /// Inserts every record of `entity` whose groups have all arrived, as `SyncRecords.materialize`
    /// inserts one: a row removed for good is not written, one removed softly is written removed.
    private static func insertAll(_ db: Database, _ entity: SyncEntity, now: String) throws {
        let first = entity.groups[0].name
        var (columns, expressions) = entity.insertedRow(record: "g0.record", deleted: "coalesce(d.value = 'true', 0)")
        var joins = ""
        for (index, group) in entity.groups.enumerated() {
            if index > 0 {
                joins += " JOIN syncState g\(index) ON g\(index).entity = ?1 AND g\(index).record = g0.record AND g\(index).grp = '\(group.name)'"
            }
            for column in group.columns {
                columns.append(column)
                expressions.append("json_extract(g\(index).value, '$.\(column)')")
            }
        }
        for (column, _) in entity.localDefaults {
            columns.append(column)
            expressions.append(entity.bulkDefaults[column] ?? "NULL")  // always given: kinds without one go record by record
        }
        let removedForGood = entity.softDelete ? "" : " AND coalesce(d.value, 'false') != 'true'"
        try db.execute(
            sql: """
                INSERT INTO \(entity.table)(\(columns.map(SyncRecords.quoted).joined(separator: ", ")))
                SELECT \(expressions.joined(separator: ", ")) FROM syncState g0\(joins)
                LEFT JOIN syncState d ON d.entity = ?1 AND d.record = g0.record AND d.grp = 'deleted'
                WHERE g0.entity = ?1 AND g0.grp = '\(first)'\(removedForGood)
                ORDER BY \(insertOrder)
                """, arguments: entity.softDelete ? [entity.table, now] : [entity.table])
        for (index, group) in entity.groups.enumerated() {
            guard let child = group.child else { continue }
            let childColumns = [child.parent] + child.columns
            let values = ["g.record"] + child.columns.map { "json_extract(r.value, '$.\($0)')" }
            try db.execute(
                sql: """
                    INSERT INTO \(child.table)(\(childColumns.map(SyncRecords.quoted).joined(separator: ", ")))
                    SELECT \(values.joined(separator: ", ")) FROM syncState g JOIN \(entity.table) p ON p.\(entity.key[0]) = g.record,
                        json_each(g.value, '$.rows') r
                    WHERE g.entity = ? AND g.grp = ?
                    ORDER BY g.record, r.key
                    """, arguments: [entity.table, entity.groups[index].name])
        }
    }
}
