import CapitalCore
import Foundation
import GRDB

/// A value one device lost to another's in a merge.
public struct SyncConflict: Hashable, Sendable {
    public let id: String
    /// When this device saw it (`yyyy-MM-dd HH:mm:ss.SSS`, UTC).
    public let at: String
    public let entity: String
    public let record: String
    public let group: String
    /// The value that lost, and who wrote it when.
    public let lost: SyncWinner
    /// The value that won (at the time of the merge), and who wrote it when.
    public let kept: SyncWinner
}

/// What applying a page of change sets did.
public struct SyncApplyReport: Equatable, Sendable {
    /// Change sets applied (other devices' sets; this device's own are skipped).
    public var sets = 0
    /// Group values that won and were written.
    public var taken = 0
    /// Conflicts recorded (a value lost that its winner had not seen).
    public var conflicts = 0
}

extension Store {
    /// This device's id in a shared ledger; nil when the ledger is not shared.
    public func syncDeviceID() throws(StoreError) -> String? {
        try read("reading the sync state") { db in try SyncDevice.fetch(db)?.id }
    }

    /// Starts sharing this ledger from this device: makes the device's identity, installs the
    /// triggers that note every write, and records every record's groups as the device's first
    /// change set (what a server's copy of the ledger starts from). Returns the device's id.
    /// - Throws: `.conflict` when the ledger is already shared from this database.
    @discardableResult
    public func startSync() throws(StoreError) -> String {
        try write("starting to share the ledger") { db in
            if let device = try SyncDevice.fetch(db) {
                throw StoreError.conflict("this ledger is already shared from this device (device {id} \(FieldKeys.literal(device.id)))")
            }
            let id = RecordID.random()
            try db.execute(
                sql: "INSERT INTO syncDevice(id, hlc, lastSeq, cursor, triggers) VALUES (?, 0, 0, 0, ?)",
                arguments: [id, SyncTriggers.version])
            try SyncTriggers.install(db)
            for entity in SyncSchema.entities {
                let filter = entity.whereShared
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO syncDirty(entity, record) SELECT '\(entity.table)', \(entity.recordSQL(entity.table)) FROM \(entity.table)\(filter)"
                )
            }
            return id
        }
    }

    /// This device's change sets the server has not acknowledged, oldest first.
    public func pendingChangeSets(limit: Int = 1_000) throws(StoreError) -> [ChangeSet] {
        try read("reading pending changes") { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT body FROM changeSet WHERE serverSeq IS NULL ORDER BY deviceSeq LIMIT ?"), arguments: [limit]
            ).map(SyncLog.decode)
        }
    }

    /// This device's change sets the server has not acknowledged, oldest first, as the log keeps
    /// them (`ChangeSet.body`): what a push sends without decoding them.
    public func pendingBodies(limit: Int = 1_000) throws(StoreError) -> [(id: String, body: String)] {
        try read("reading pending changes") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT id, body FROM changeSet WHERE serverSeq IS NULL ORDER BY deviceSeq LIMIT ?"), arguments: [limit]
            ).map { ($0[0], $0[1]) }
        }
    }

    /// Records that the server appended this device's change set `id` at `serverSeq`.
    public func acknowledge(_ id: String, serverSeq: Int64) throws(StoreError) {
        try write("acknowledging a change set") { db in
            try db.cachedStatement(sql: "UPDATE changeSet SET serverSeq = ? WHERE id = ?").execute(arguments: [serverSeq, id])
        }
    }

    /// Applies other devices' change sets (a page of the server's log) and, with them, the new
    /// cursor — one transaction: after a crash either both are there or neither.
    ///
    /// Each group value is merged by `SyncMerge` (the highest stamp wins, in any order, once);
    /// records whose groups changed are then written to their tables, accounts before the
    /// transactions posting to them; foreign keys are checked at the commit, so a page may hold a
    /// record before one it refers to. The device's clock observes every stamp, so its next
    /// change is later than everything it has seen. This device's own sets are skipped.
    /// - Throws: `.invalid` for a change naming an unknown kind, group or stamp, or a
    ///   transaction whose postings do not balance; nothing is applied then.
    @discardableResult
    public func applyRemote(_ sets: [ChangeSet], cursor: Int64? = nil) throws(StoreError) -> SyncApplyReport {
        let now = clock()
        return try write("applying changes from the server") { db in
            try db.cachedStatement(sql: "PRAGMA defer_foreign_keys = ON").execute()
            return try applyRemote(db, sets, cursor: cursor, now: now)
        }
    }

    /// `applyRemote` inside a write.
    func applyRemote(_ db: Database, _ sets: [ChangeSet], cursor: Int64?, now: Int64) throws -> SyncApplyReport {
        guard var device = try SyncDevice.fetch(db) else {
            throw StoreError.conflict("this ledger is not shared from this device: nothing to apply changes to")
        }
        var report = SyncApplyReport()
        var touched: [String: Set<String>] = [:]
        let at = Timestamp.now()
        for set in sets where set.device != device.id {
            report.sets += 1
            for change in set.changes {
                let incoming = try SyncValidation.winner(change, device: set.device)
                _ = device.clock.observe(incoming.stamp.hlc, now: now)
                let current = try SyncState.winner(db, entity: change.entity, record: change.record, group: change.group)
                switch SyncMerge.decide(current: current, incoming: incoming) {
                case .take(let lost):
                    try SyncState.save(db, entity: change.entity, record: change.record, group: change.group, incoming)
                    touched[change.entity, default: []].insert(change.record)
                    report.taken += 1
                    if let lost { try recordConflict(db, change, lost: lost, kept: incoming, at: at, report: &report) }
                case .keep(let lost):
                    if let lost, let current { try recordConflict(db, change, lost: lost, kept: current, at: at, report: &report) }
                }
            }
        }
        if let cursor { device.cursor = max(device.cursor, cursor) }
        try device.save(db)
        // Removals first (the record a budget replaced frees its category), newest kinds first;
        // then the rest, accounts before the transactions that post to them.
        var removals: [(SyncEntity, String)] = []
        var others: [(SyncEntity, String)] = []
        for entity in SyncSchema.entities {
            for record in (touched[entity.table] ?? []).sorted() {
                let isRemoval = try SyncState.winner(db, entity: entity.table, record: record, group: "deleted")?.value == "true"
                if isRemoval { removals.append((entity, record)) } else { others.append((entity, record)) }
            }
        }
        for (entity, record) in removals.reversed() + others { try SyncRecords.materialize(db, entity, record, now: at) }
        for entity in SyncSchema.entities where entity.uniqueName && touched[entity.table] != nil {
            try SyncNames.derive(db, entity)
        }
        if !touched.isEmpty { try SyncRecords.keepAccountsWithActivity(db, now: at) }
        return report
    }

    private func recordConflict(
        _ db: Database, _ change: Change, lost: SyncWinner, kept: SyncWinner, at: String, report: inout SyncApplyReport
    ) throws {
        report.conflicts += 1
        try db.cachedStatement(
            sql: """
                INSERT INTO syncConflict(id, at, entity, record, grp, lostValue, lostHlc, lostDevice, keptValue, keptHlc, keptDevice)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            RecordID.random(), at, change.entity, change.record, change.group, lost.value, lost.stamp.hlc.stored,
            lost.stamp.device, kept.value, kept.stamp.hlc.stored, kept.stamp.device,
        ])
    }

    /// The conflicts this device has seen and not resolved, oldest first.
    public func syncConflicts() throws(StoreError) -> [SyncConflict] {
        try read("reading conflicts") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, at, entity, record, grp, lostValue, lostHlc, lostDevice, keptValue, keptHlc, keptDevice
                    FROM syncConflict WHERE resolved = 0 ORDER BY at, id
                    """
            ).map { row in
                func stamp(_ hlc: Int64, _ device: String) -> SyncStamp {
                    SyncStamp(hlc: HybridTimestamp(stored: hlc), device: device)
                }
                return SyncConflict(
                    id: row[0], at: row[1], entity: row[2], record: row[3], group: row[4],
                    lost: SyncWinner(value: row[5], stamp: stamp(row[6], row[7]), base: nil),
                    kept: SyncWinner(value: row[8], stamp: stamp(row[9], row[10]), base: nil))
            }
        }
    }

    /// The canonical shared ledger: every (entity, record, group) and its winning value, one line
    /// each in order — what two devices that have seen the same changes hold alike.
    public func syncCanonical() throws(StoreError) -> String {
        try read("reading the sync state") { db in
            var text = ""
            let rows = try Row.fetchCursor(db, sql: "SELECT entity, record, grp, value FROM syncState ORDER BY entity, record, grp")
            while let row = try rows.next() {
                text += SyncWire.canonicalLine(entity: row[0], record: row[1], group: row[2], value: row[3])
            }
            return text
        }
    }

    /// The SHA-256 of `syncCanonical()`, hashed line by line as the rows come.
    public func syncDigest() throws(StoreError) -> String {
        try read("reading the sync state") { db in
            try SyncWire.canonicalDigest(db, sql: "SELECT entity, record, grp, value FROM syncState ORDER BY entity, record, grp")
        }
    }

    /// The last server sequence number this device applied (0 before the first page).
    public func syncCursor() throws(StoreError) -> Int64 {
        try read("reading the sync state") { db in try SyncDevice.fetch(db)?.cursor ?? 0 }
    }

    /// Takes `id` as this device's identity, `lastSeq` change sets already sent under it, its
    /// clock kept: a server's copy of a ledger writes for each person as a device of theirs.
    /// - Throws: `.conflict` while change sets of the identity it had are pending.
    public func adoptDeviceIdentity(_ id: String, lastSeq: Int64) throws(StoreError) {
        try write("adopting a device identity") { db in
            guard let device = try SyncDevice.fetch(db) else { throw StoreError.conflict("this ledger is not shared from this device") }
            if device.id == id && device.lastSeq == lastSeq { return }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM changeSet WHERE serverSeq IS NULL)")! {
                throw StoreError.conflict("change sets of device {id} \(FieldKeys.literal(device.id)) are pending")
            }
            try db.execute(sql: "UPDATE syncDevice SET id = ?, lastSeq = ?", arguments: [id, lastSeq])
        }
    }

    /// Gives this device a new identity, its clock kept: for a database copied from another device
    /// (the server answers `device_seq_reused`), whose id and change-set numbers collide with the
    /// original's. Its pending change sets become the new device's, numbered from 1 under new ids;
    /// the shared state's stamps of them, and the bases that name them, follow.
    public func renewDeviceIdentity() throws(StoreError) {
        try write("renewing the device's identity") { db in
            guard let old = try SyncDevice.fetch(db) else { return }
            let new = RecordID.random()
            let pending = try String.fetchAll(db, sql: "SELECT body FROM changeSet WHERE serverSeq IS NULL ORDER BY deviceSeq")
                .map(SyncLog.decode)
            try db.execute(sql: "DELETE FROM changeSet WHERE serverSeq IS NULL")
            let renamed = Set(pending.flatMap { $0.changes.map(\.hlc) })
            func relabelled(_ base: String?) -> String? {
                guard let base, let at = base.firstIndex(of: "@"), String(base[base.index(after: at)...]) == old.id,
                    renamed.contains(String(base[..<at]))
                else { return base }
                return String(base[..<at]) + "@" + new
            }
            var seq: Int64 = 0
            for set in pending {
                seq += 1
                let changes = set.changes.map {
                    Change(entity: $0.entity, record: $0.record, group: $0.group, value: $0.value, hlc: $0.hlc, base: relabelled($0.base))
                }
                try SyncLog.append(db, ChangeSet(id: RecordID.random(), device: new, deviceSeq: seq, changes: changes), serverSeq: nil)
                for change in set.changes {
                    guard let hlc = HybridTimestamp(change.hlc) else { continue }
                    try db.execute(
                        sql: "UPDATE syncState SET device = ? WHERE entity = ? AND record = ? AND grp = ? AND device = ? AND hlc = ?",
                        arguments: [new, change.entity, change.record, change.group, old.id, hlc.stored])
                    try db.execute(
                        sql: "UPDATE syncState SET baseDevice = ? WHERE baseDevice = ? AND baseHlc = ?", arguments: [new, old.id, hlc.stored])
                }
            }
            try db.execute(sql: "UPDATE syncDevice SET id = ?, lastSeq = ?", arguments: [new, seq])
        }
    }

    /// Every shared table's live rows as their groups' values, by entity and record (local
    /// settings left out): what two devices holding the same ledger show alike, whatever order they wrote in.
    func sharedTables() throws(StoreError) -> String {
        try read("reading the shared tables") { db in
            var text = ""
            for entity in SyncSchema.entities {
                let filter = entity.whereShared
                let records = try String.fetchAll(
                    db, sql: "SELECT \(entity.recordSQL(entity.table)) AS r FROM \(entity.table)\(filter) ORDER BY r")
                for record in records {
                    // A removed record is the same removed with its last values or never materialized.
                    guard let values = try SyncRecords.read(db, entity, record), values.last == "false" else { continue }
                    text += "\(entity.table) \(record) \(values)\n"
                }
            }
            return text
        }
    }
}

extension SyncWire {
    /// The SHA-256 of the canonical lines of the rows `sql` selects (entity, record, group and
    /// value, in the canonical order), hashed as they come: what device and server compare.
    public static func canonicalDigest(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> String {
        var hash = SHA256()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            hash.update(canonicalLine(entity: row[0], record: row[1], group: row[2], value: row[3]))
        }
        return hash.finalizeHex()
    }
}
