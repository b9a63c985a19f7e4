import CapitalCore
import Foundation
import GRDB

/// The winning value of every shared (record, group), with its stamp and what it replaced: the
/// canonical ledger every device converges on (`syncState`).
enum SyncState {
    /// The record's groups' winners, by group.
    static func winners(_ db: Database, entity: String, record: String) throws -> [String: SyncWinner] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT grp, value, hlc, device, baseHlc, baseDevice FROM syncState WHERE entity = ? AND record = ?"),
            arguments: [entity, record])
        var winners: [String: SyncWinner] = [:]
        for row in rows { winners[row[0]] = winner(row, from: 1) }
        return winners
    }

    /// The winner of one group, nil when it has no value.
    static func winner(_ db: Database, entity: String, record: String, group: String) throws -> SyncWinner? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT value, hlc, device, baseHlc, baseDevice FROM syncState WHERE entity = ? AND record = ? AND grp = ?"),
            arguments: [entity, record, group]
        ).map { winner($0, from: 0) }
    }

    /// The winner of the five columns value, hlc, device, baseHlc, baseDevice starting at `first`.
    private static func winner(_ row: Row, from first: Int) -> SyncWinner {
        let stamp = SyncStamp(hlc: HybridTimestamp(stored: row[first + 1]), device: row[first + 2])
        let base = (row[first + 3] as Int64?).map { SyncStamp(hlc: HybridTimestamp(stored: $0), device: row[first + 4]) }
        return SyncWinner(value: row[first], stamp: stamp, base: base)
    }

    /// Makes `winner` the value of (entity, record, group).
    static func save(_ db: Database, entity: String, record: String, group: String, _ winner: SyncWinner) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO syncState(entity, record, grp, value, hlc, device, baseHlc, baseDevice) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(entity, record, grp) DO UPDATE SET value = excluded.value, hlc = excluded.hlc, device = excluded.device,
                    baseHlc = excluded.baseHlc, baseDevice = excluded.baseDevice
                """
        ).execute(arguments: [
            entity, record, group, winner.value, winner.stamp.hlc.stored, winner.stamp.device,
            winner.base.map { $0.hlc.stored }, winner.base?.device,
        ])
    }
}

/// This device's identity in a shared ledger, its clock and its place in the server's log.
struct SyncDevice {
    /// A random UUID made when the ledger was first shared or joined on this device.
    let id: String
    /// The device's hybrid clock, saved after every change set.
    var clock: HybridClock
    /// The last deviceSeq this device gave a change set.
    var lastSeq: Int64
    /// The last server sequence number this device applied.
    var cursor: Int64

    static func fetch(_ db: Database) throws -> SyncDevice? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, hlc, lastSeq, cursor FROM syncDevice")).map {
            SyncDevice(
                id: $0[0], clock: HybridClock(last: HybridTimestamp(stored: $0[1])), lastSeq: $0[2], cursor: $0[3])
        }
    }

    func save(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE syncDevice SET hlc = ?, lastSeq = ?, cursor = ? WHERE id = ?").execute(arguments: [
            clock.last.stored, lastSeq, cursor, id,
        ])
    }
}

/// The device's own change sets (`changeSet`): pending until the server gives them a sequence
/// number, kept after.
enum SyncLog {
    static func append(_ db: Database, _ set: ChangeSet, serverSeq: Int64?) throws {
        try db.cachedStatement(sql: "INSERT INTO changeSet(id, device, deviceSeq, body, serverSeq) VALUES (?, ?, ?, ?, ?)").execute(
            arguments: [set.id, set.device, set.deviceSeq, try body(set), serverSeq])
    }

    static func body(_ set: ChangeSet) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(set), as: UTF8.self)
    }

    static func decode(_ body: String) throws -> ChangeSet {
        try JSONDecoder().decode(ChangeSet.self, from: Data(body.utf8))
    }
}

extension HybridTimestamp {
    /// The reading as SQLite keeps it: the same 64 bits as a signed integer.
    init(stored: Int64) { self.init(rawValue: UInt64(bitPattern: stored)) }

    /// The reading as SQLite keeps it.
    var stored: Int64 { Int64(bitPattern: rawValue) }
}
