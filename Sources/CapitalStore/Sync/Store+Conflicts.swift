import CapitalCore
import GRDB

/// Which value of a conflict to keep.
public enum ConflictChoice: String, Sendable, CaseIterable {
    /// This device's value (of the two, the one this device wrote; when neither, the one it shows).
    case mine
    /// The other value.
    case theirs
}

/// What resolving a conflict did.
public enum ConflictResolution: Equatable, Sendable {
    /// The value kept is the one the ledger holds already: nothing to send.
    case alreadyHeld
    /// The value kept was written again as a new change (sent at the next sync).
    case rewritten
}

extension Store {
    /// Resolves conflict `id` by keeping `choice`'s value: when the ledger holds the other, the
    /// kept value is written again as this device's new change (stamped now, over the value it
    /// replaces), which every device then takes; the conflict is marked resolved.
    /// - Throws: `.notFound` for an unknown or resolved conflict.
    @discardableResult
    public func resolveConflict(_ id: String, keep choice: ConflictChoice) throws(StoreError) -> ConflictResolution {
        let now = Timestamp.now()
        return try write("resolving a conflict") { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT entity, record, grp, lostValue, lostDevice, keptValue, keptDevice FROM syncConflict WHERE id = ? AND resolved = 0",
                    arguments: [id])
            else { throw StoreError.notFound(what: "conflict", reference: id, hint: nil) }
            guard let device = try SyncDevice.fetch(db), let entity = SyncSchema.entity(row[0]) else {
                throw StoreError.notFound(what: "conflict", reference: id, hint: nil)
            }
            let (record, group): (String, String) = (row[1], row[2])
            let lost: String = row[3]
            let kept: String = row[5]
            let keepLost = (choice == .mine) == ((row[4] as String) == device.id)
            let value = keepLost ? lost : kept
            try db.execute(sql: "UPDATE syncConflict SET resolved = 1 WHERE id = ?", arguments: [id])
            guard let current = try SyncState.winner(db, entity: entity.table, record: record, group: group), current.value != value else {
                return .alreadyHeld
            }
            // The tables take the chosen value; the shared state keeps the current one, so that the
            // write's capture sees the difference and sends it as this device's change.
            try SyncState.save(
                db, entity: entity.table, record: record, group: group, SyncWinner(value: value, stamp: current.stamp, base: current.base))
            try SyncRecords.materialize(db, entity, record, now: now)
            try SyncState.save(db, entity: entity.table, record: record, group: group, current)
            try db.execute(sql: "INSERT OR IGNORE INTO syncDirty(entity, record) VALUES (?, ?)", arguments: [entity.table, record])
            return .rewritten
        }
    }
}

extension Store {
    /// The user each known device writes for (the server's `devices`), by device.
    public func syncPeers() throws(StoreError) -> [String: String] {
        try read("reading the sync state") { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT device, user FROM syncPeer").map { ($0[0], $0[1]) })
        }
    }

    /// Keeps the user each of `peers` writes for.
    public func saveSyncPeers(_ peers: [SyncWire.Device]) throws(StoreError) {
        try write("saving the sync state") { db in
            let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncPeer(device, user) VALUES (?, ?)")
            for peer in peers { try statement.execute(arguments: [peer.device, peer.user]) }
        }
    }

    /// What people call a shared record: its name, a transaction's date and payee, else nil.
    public func syncRecordName(entity: String, record: String) throws(StoreError) -> String? {
        try read("reading a shared record") { db in
            guard let entity = SyncSchema.entity(entity), try db.tableExists(entity.table) else { return nil }
            let columns = try Set(db.columns(in: entity.table).map(\.name))
            let id = entity.recordSQL(entity.table)
            if columns.contains("name") {
                return try String.fetchOne(db, sql: "SELECT name FROM \(entity.table) WHERE \(id) = ?", arguments: [record])
            }
            if entity.table == "txn", columns.contains("payee") {
                return try String.fetchOne(db, sql: "SELECT date || ' ' || payee FROM txn WHERE id = ?", arguments: [record])
            }
            return nil
        }
    }
}
