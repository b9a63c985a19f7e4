import CapitalCore
import CapitalStore
import Foundation
import GRDB

/// Why the server did not append a push: each the client shows as one line, its changes staying
/// pending on the device.
public enum AppendError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such ledger on this server.
    case noLedger(String)
    /// A change set id the log holds with other content (HTTP 409).
    case idReused(id: String)
    /// A (device, deviceSeq) the log holds under another id: a copy of a device's database (409).
    case deviceSeqReused(device: String, deviceSeq: Int64)
    /// A device's change sets must arrive in its order, without gaps (409).
    case outOfOrder(device: String, expected: Int64, got: Int64)
    /// A change stamped more than the allowed skew ahead of the server's clock (`clock_skew`).
    case clockSkew(id: String, aheadMilliseconds: Int64)
    /// A change that fails the checks every device makes (422): unbalanced postings and the like.
    case invalid(String)
    /// A device's change sets pushed by another user than the one who first pushed for it (403).
    case foreignDevice(device: String, user: String)

    public var description: String {
        switch self {
        case .noLedger(let id): "no ledger \(id) on this server"
        case .idReused(let id): "change set \(id) was sent before with other content"
        case .deviceSeqReused(let device, let seq):
            "device \(device) sent its change set \(seq) before under another id: is this database a copy of another device's?"
        case .outOfOrder(let device, let expected, let got): "device \(device) sent change set \(got) where \(expected) comes next"
        case .clockSkew(let id, let ahead):
            "change set \(id) is stamped \(ahead / 1000) s ahead of the server's clock (more than \(LedgerLog.allowedSkew / 60_000) minutes): check this device's clock"
        case .invalid(let why): why
        case .foreignDevice(let device, let user): "device \(device) pushes for another user than \(user)"
        }
    }
}

/// `capital serve`'s storage for shared ledgers in one SQLite database: per ledger an append-only
/// log of change sets with a gapless sequence (assigned in the appending transaction: SQLite has
/// one writer at a time, so numbers commit in order), and the merged state — every group's
/// winner, by the same rule the devices apply — from which a new device's snapshot is read.
///
/// Append is idempotent: the same change set again (by id) answers its first sequence number.
public final class LedgerLog: Sendable {
    let writer: any DatabaseWriter
    let digestCache = DigestCache()
    /// How far ahead of the server's clock a change may be stamped: 5 minutes.
    public static let allowedSkew: Int64 = 5 * 60_000

    /// Opens (creating) the log database at `path`; `":memory:"` for one in memory. `through`:
    /// migrates only up to that version (a database as an older capital left it, for the upgrade's tests).
    public init(path: String, through last: String? = nil) throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        writer = path == ":memory:" ? try DatabaseQueue(configuration: config) : try DatabasePool(path: path, configuration: config)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ledger (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, createdAt TEXT NOT NULL, head INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE log (
                        ledger TEXT NOT NULL REFERENCES ledger(id), seq INTEGER NOT NULL, id TEXT NOT NULL, device TEXT NOT NULL,
                        deviceSeq INTEGER NOT NULL, body TEXT NOT NULL, receivedAt TEXT NOT NULL,
                        PRIMARY KEY (ledger, seq), UNIQUE (ledger, id), UNIQUE (ledger, device, deviceSeq)) WITHOUT ROWID;
                    CREATE TABLE state (
                        ledger TEXT NOT NULL, entity TEXT NOT NULL, record TEXT NOT NULL, grp TEXT NOT NULL, value TEXT NOT NULL,
                        hlc TEXT NOT NULL, device TEXT NOT NULL, base TEXT,
                        PRIMARY KEY (ledger, entity, record, grp)) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v2-people") { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (
                        name TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, disabled INTEGER NOT NULL DEFAULT 0, createdAt TEXT NOT NULL);
                    CREATE TABLE member (
                        ledger TEXT NOT NULL REFERENCES ledger(id), user TEXT NOT NULL REFERENCES user(name), role TEXT NOT NULL,
                        PRIMARY KEY (ledger, user)) WITHOUT ROWID;
                    CREATE TABLE token (
                        hash TEXT PRIMARY KEY NOT NULL, user TEXT NOT NULL REFERENCES user(name), family TEXT NOT NULL,
                        kind TEXT NOT NULL, expires INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'live') WITHOUT ROWID;
                    CREATE INDEX tokenFamily ON token(family);
                    CREATE TABLE device (
                        ledger TEXT NOT NULL REFERENCES ledger(id), device TEXT NOT NULL, user TEXT NOT NULL,
                        PRIMARY KEY (ledger, device)) WITHOUT ROWID;
                    CREATE TABLE loginFailure (user TEXT NOT NULL, at INTEGER NOT NULL);
                    CREATE INDEX loginFailureUser ON loginFailure(user, at);
                    """)
        }
        migrator.registerMigration("v3-admin") { db in
            try db.execute(
                sql: """
                    ALTER TABLE user ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE audit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
                        subject TEXT NOT NULL, ledger TEXT NOT NULL, address TEXT NOT NULL, detail TEXT NOT NULL);
                    CREATE INDEX auditActor ON audit(actor, id);
                    CREATE INDEX auditSubject ON audit(subject, id);
                    CREATE TABLE resetToken (
                        user TEXT PRIMARY KEY NOT NULL REFERENCES user(name), hash TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4-idempotency") { db in
            try db.execute(
                sql: """
                    CREATE TABLE keptAnswer (
                        user TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL,
                        at INTEGER NOT NULL, PRIMARY KEY (user, key)) WITHOUT ROWID;
                    CREATE INDEX keptAnswerAt ON keptAnswer(at);
                    """)
        }
        if let last { try migrator.migrate(writer, upTo: last) } else { try migrator.migrate(writer) }
    }

    /// Makes an empty ledger named `name`; returns its id.
    public func createLedger(name: String, id: String = UUID().uuidString.lowercased()) throws -> String {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO ledger(id, name, createdAt) VALUES (?, ?, ?)", arguments: [id, name, ISO8601DateFormatter().string(from: Date())])
        }
        return id
    }

    /// The ledger's last sequence number (0 when empty); nil when there is no such ledger.
    public func head(_ ledger: String) throws -> Int64? {
        try writer.read { db in try Int64.fetchOne(db, sql: "SELECT head FROM ledger WHERE id = ?", arguments: [ledger]) }
    }

    /// Appends `sets` in order, all or none, and answers each set's sequence number (a set the log
    /// holds already answers its first one). `now` is the server's clock in milliseconds.
    public func append(_ sets: [ChangeSet], to ledger: String, by user: String? = nil, now: Int64) throws -> [Int64] {
        try appended(sets, to: ledger, by: user, now: now).seqs
    }

    /// `append`, and how many of the changes met a concurrent edit of their group.
    public func appended(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64) throws -> Appended {
        try appended(sets, to: ledger, by: user, now: now, keeping: nil)
    }

    /// `appended`, keeping `answer` in the same transaction (`ServerStorage`'s).
    public func appended(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64, keeping answer: KeptAnswer?) throws -> Appended {
        try writer.write { db in
            guard var head = try Int64.fetchOne(db, sql: "SELECT head FROM ledger WHERE id = ?", arguments: [ledger]) else {
                throw AppendError.noLedger(ledger)
            }
            if let answer {
                try db.execute(sql: "DELETE FROM keptAnswer WHERE at < ?", arguments: [now - KeptAnswer.lifetime])
                guard try Int.fetchOne(db, sql: "SELECT 1 FROM keptAnswer WHERE user = ? AND key = ?", arguments: [answer.user, answer.key]) == nil
                else { throw KeyTaken(key: answer.key) }
                try db.execute(
                    sql: "INSERT INTO keptAnswer(user, key, fingerprint, status, body, at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [answer.user, answer.key, answer.fingerprint, answer.status, answer.body, answer.at])
            }
            var answers: [Int64] = []
            var (added, conflicts) = (0, 0)
            for set in sets {
                let body = try set.body
                if let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT seq, body FROM log WHERE ledger = ? AND id = ?"), arguments: [ledger, set.id])
                {
                    guard row[1] as String == body else { throw AppendError.idReused(id: set.id) }
                    answers.append(row[0])
                    continue
                }
                let last =
                    try Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT MAX(deviceSeq) FROM log WHERE ledger = ? AND device = ?"), arguments: [ledger, set.device])
                    ?? 0
                let owner =
                    user == nil
                    ? nil
                    : try String.fetchOne(
                        db.cachedStatement(sql: "SELECT user FROM device WHERE ledger = ? AND device = ?"), arguments: [ledger, set.device])
                try Self.admit(set, after: last, owner: owner, user: user, now: now)
                if let user, owner == nil {
                    // A device belongs to the user who first pushed for it: nobody else writes in its name.
                    try db.cachedStatement(sql: "INSERT INTO device(ledger, device, user) VALUES (?, ?, ?)").execute(arguments: [
                        ledger, set.device, user,
                    ])
                }
                let seq = try Int64.fetchOne(
                    db.cachedStatement(sql: "UPDATE ledger SET head = head + 1 WHERE id = ? RETURNING head"), arguments: [ledger])!
                try db.cachedStatement(
                    sql: "INSERT INTO log(ledger, seq, id, device, deviceSeq, body, receivedAt) VALUES (?, ?, ?, ?, ?, ?, ?)"
                ).execute(arguments: [ledger, seq, set.id, set.device, set.deviceSeq, body, "\(now)"])
                conflicts += try merge(db, set, into: ledger)
                added += 1
                answers.append(seq)
                head = seq
            }
            return Appended(seqs: answers, added: added, conflicts: conflicts, head: head)
        }
    }

    /// The checks a change set new to the log passes, whatever the storage: the device's next number
    /// after `last`, pushed by the user who owns the device (`owner`, nil for a device new to the
    /// ledger; not checked without a `user`), the checks every device makes, and a clock not too
    /// far ahead of the server's `now`.
    public static func admit(_ set: ChangeSet, after last: Int64, owner: String?, user: String?, now: Int64) throws {
        if set.deviceSeq <= last { throw AppendError.deviceSeqReused(device: set.device, deviceSeq: set.deviceSeq) }
        if set.deviceSeq != last + 1 { throw AppendError.outOfOrder(device: set.device, expected: last + 1, got: set.deviceSeq) }
        if user != nil, let owner, owner != user { throw AppendError.foreignDevice(device: set.device, user: owner) }
        do { try set.check() } catch { throw AppendError.invalid("\(error)") }
        let ahead = set.latest.milliseconds - now
        if ahead > allowedSkew { throw AppendError.clockSkew(id: set.id, aheadMilliseconds: ahead) }
    }

    /// Folds `set` into the ledger's merged state by the devices' rule (`SyncMerge`); answers how
    /// many of its changes met a concurrent edit.
    private func merge(_ db: Database, _ set: ChangeSet, into ledger: String) throws -> Int {
        var conflicts = 0
        for change in set.changes {
            let current = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT value, hlc, device, base FROM state WHERE ledger = ? AND entity = ? AND record = ? AND grp = ?"),
                arguments: [ledger, change.entity, change.record, change.group]
            ).map { StoredWinner(value: $0[0], hlc: $0[1], device: $0[2], base: $0[3]) }
            let decision = Self.decide(change, of: set.device, current: current)
            if decision.conflict { conflicts += 1 }
            guard decision.replaces else { continue }
            try db.cachedStatement(
                sql: """
                    INSERT INTO state(ledger, entity, record, grp, value, hlc, device, base) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(ledger, entity, record, grp) DO UPDATE SET
                        value = excluded.value, hlc = excluded.hlc, device = excluded.device, base = excluded.base
                    """
            ).execute(arguments: [ledger, change.entity, change.record, change.group, change.value, change.hlc, set.device, change.base])
        }
        return conflicts
    }

    /// A group's winner as a storage keeps it.
    public struct StoredWinner: Sendable {
        public let value: String, hlc: String, device: String, base: String?

        public init(value: String, hlc: String, device: String, base: String?) {
            (self.value, self.hlc, self.device, self.base) = (value, hlc, device, base)
        }
    }

    /// Whether `change`, written by `device`, replaces its group's stored winner (`current`, nil
    /// when the group has none) by the devices' rule (`SyncMerge`), and whether the two were
    /// concurrent edits of different values (one of them lost: a conflict, as a device counts it).
    public static func decide(_ change: Change, of device: String, current: StoredWinner?) -> (replaces: Bool, conflict: Bool) {
        guard let hlc = HybridTimestamp(change.hlc) else { return (false, false) }
        let incoming = SyncWinner(value: change.value, stamp: SyncStamp(hlc: hlc, device: device), base: change.base.flatMap(SyncStamp.init))
        let winner = current.flatMap { current in
            HybridTimestamp(current.hlc).map {
                SyncWinner(value: current.value, stamp: SyncStamp(hlc: $0, device: current.device), base: current.base.flatMap(SyncStamp.init))
            }
        }
        switch SyncMerge.decide(current: winner, incoming: incoming) {
        case .take(let lost): return (true, lost != nil)
        case .keep(let lost): return (false, lost != nil)
        }
    }

    /// The change sets after `seq`, at most `limit`, in order, and the sequence number of the last.
    public func changes(of ledger: String, after seq: Int64, limit: Int) throws -> (sets: [ChangeSet], last: Int64) {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT seq, body FROM log WHERE ledger = ? AND seq > ? ORDER BY seq LIMIT ?"),
                arguments: [ledger, seq, limit])
            return (try rows.map { try ChangeSet(body: $0[1]) }, rows.last?[0] ?? seq)
        }
    }

    /// Every group's winner and the sequence number they stand at, as `SyncWire.Snapshot`'s JSON:
    /// what a new device starts from. SQLite writes the JSON (each entry an array, in the
    /// canonical order).
    public func snapshot(of ledger: String) throws -> String {
        try writer.read { db in
            let head = try Int64.fetchOne(db, sql: "SELECT head FROM ledger WHERE id = ?", arguments: [ledger]) ?? 0
            let entries = try String.fetchOne(
                db,
                sql: """
                    SELECT json_group_array(json_array(entity, record, grp, value, hlc, device, base)) FROM (
                        SELECT entity, record, grp, value, hlc, device, base FROM state WHERE ledger = ? ORDER BY entity, record, grp)
                    """,
                arguments: [ledger])
            return SyncWire.Snapshot.body(entries: entries ?? "[]", head: head)
        }
    }
}
