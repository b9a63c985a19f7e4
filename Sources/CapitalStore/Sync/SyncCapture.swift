import CapitalCore
import GRDB

/// Turns what a write changed into the device's next change set, in the write's transaction.
///
/// Triggers (installed when a ledger is first shared) note each record a statement touches in
/// `syncDirty`; at the end of the write each noted record's groups are read and compared with the
/// values `syncState` holds; the groups that differ become the change set, stamped by the
/// device's clock. A write that arrived from another device leaves nothing to send: its values
/// are already in `syncState`.
enum SyncCapture {
    /// Writes the change set of the records noted in `syncDirty`, if any group changed.
    /// `now` is the physical time in milliseconds. A database that is not shared has no triggers
    /// and nothing noted: one empty-table read.
    /// The most changes a set gets before the next record starts a new one: a few hundred kilobytes of JSON.
    static let maxChanges = 2_000

    static func flush(_ db: Database, now: Int64) throws {
        let dirty = try Row.fetchAll(db.cachedStatement(sql: "SELECT entity, record FROM syncDirty"))
        guard !dirty.isEmpty else { return }
        try db.cachedStatement(sql: "DELETE FROM syncDirty").execute()
        guard var device = try SyncDevice.fetch(db) else { return }
        let records = dirty.map { (entity: $0[0] as String, record: $0[1] as String) }
            .sorted { (SyncSchema.rank($0.entity), $0.record) < (SyncSchema.rank($1.entity), $1.record) }
        var changes: [Change] = []
        // A write of many records (sharing a ledger, an import) becomes several sets, cut between
        // records, so that none outgrows a request: each record's groups stay in one set.
        var sets: [[Change]] = []
        var hlc: HybridTimestamp?
        var renamed: Set<String> = []
        for (name, record) in records {
            if changes.count >= maxChanges {
                sets.append(changes)
                changes = []
            }
            guard let entity = SyncSchema.entity(name) else { continue }
            let values = try SyncRecords.read(db, entity, record)
            let known = try SyncState.winners(db, entity: name, record: record)
            // A record made and removed inside this write, never shared: nothing to say.
            if values == nil && known.isEmpty { continue }
            let shown = entity.uniqueName ? try SyncNames.shown(db, name, record) : nil
            for (group, value) in SyncRecords.groupValues(entity, values) {
                let previous = known[group]
                if previous?.value == value { continue }
                // A name shown in place of a clashing one is derived, not a change.
                if group == "name", let shown, try SyncRecords.isShown(db, value, shown) { continue }
                if entity.uniqueName && (group == "name" || group == "deleted") { renamed.insert(name) }
                // A row removed locally keeps its other groups' last values.
                if values == nil && group != "deleted" { continue }
                let stamp = hlc ?? device.clock.tick(now: now)
                hlc = stamp
                let winner = SyncWinner(value: value, stamp: SyncStamp(hlc: stamp, device: device.id), base: previous?.stamp)
                try SyncState.save(db, entity: name, record: record, group: group, winner)
                changes.append(
                    Change(entity: name, record: record, group: group, value: value, hlc: "\(stamp)", base: previous.map { "\($0.stamp)" }))
            }
        }
        for entity in SyncSchema.entities where renamed.contains(entity.table) { try SyncNames.derive(db, entity) }
        if !changes.isEmpty { sets.append(changes) }
        guard !sets.isEmpty else { return }
        for changes in sets {
            device.lastSeq += 1
            let set = ChangeSet(id: RecordID.random(), device: device.id, deviceSeq: device.lastSeq, changes: changes)
            try SyncLog.append(db, set, serverSeq: nil)
        }
        try device.save(db)
    }
}
