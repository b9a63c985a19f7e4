import CapitalCore
import CapitalStore
import Foundation
import GRDB
import Synchronization

/// An operator's or member's request the storage refuses.
public enum PeopleError: Error, Equatable, Sendable, CustomStringConvertible {
    case userExists(String)
    case noUser(String)
    case lastOwner(String)

    public var description: String {
        switch self {
        case .userExists(let name): "a user named \(name) exists already"
        case .noUser(let name): "no user named \(name) on this server"
        case .lastOwner(let name): "\(name) is the ledger's only owner: make another member owner first"
        }
    }
}

extension LedgerLog: ServerStorage {
    public func keptAnswer(of user: String, key: String, now: Int64) throws -> KeptAnswer? {
        try writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT fingerprint, status, body, at FROM keptAnswer WHERE user = ? AND key = ? AND at >= ?",
                arguments: [user, key, now - KeptAnswer.lifetime]
            ).map { KeptAnswer(user: user, key: key, fingerprint: $0[0], status: $0[1], body: $0[2], at: $0[3]) }
        }
    }

    public func checkReachable() throws {
        _ = try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ledger") }
    }

    public func createLedger(name: String, owner: String) throws -> String {
        try writer.write { db in
            let id = UUID().uuidString.lowercased()
            try db.execute(
                sql: "INSERT INTO ledger(id, name, createdAt) VALUES (?, ?, ?)", arguments: [id, name, ISO8601DateFormatter().string(from: Date())])
            try db.execute(sql: "INSERT INTO member(ledger, user, role) VALUES (?, ?, 'owner')", arguments: [id, owner])
            return id
        }
    }

    public func ledgers(of user: String) throws -> [SyncWire.Ledger] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT l.id, l.name, m.role, l.head FROM member m JOIN ledger l ON l.id = m.ledger WHERE m.user = ? ORDER BY l.name, l.id",
                arguments: [user]
            ).map { SyncWire.Ledger(id: $0[0], name: $0[1], role: $0[2], head: $0[3]) }
        }
    }

    public func role(of user: String, in ledger: String) throws -> Role? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT role FROM member WHERE ledger = ? AND user = ?"), arguments: [ledger, user]
            ).flatMap(Role.init)
        }
    }

    public func setRole(_ role: Role?, of user: String, in ledger: String) throws {
        try writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE name = ?", arguments: [user]) != nil else {
                throw PeopleError.noUser(user)
            }
            let owners = try String.fetchAll(db, sql: "SELECT user FROM member WHERE ledger = ? AND role = 'owner'", arguments: [ledger])
            if owners == [user], role != .owner { throw PeopleError.lastOwner(user) }
            if let role {
                try db.execute(
                    sql: "INSERT INTO member(ledger, user, role) VALUES (?, ?, ?) ON CONFLICT(ledger, user) DO UPDATE SET role = excluded.role",
                    arguments: [ledger, user, role.rawValue])
            } else {
                try db.execute(sql: "DELETE FROM member WHERE ledger = ? AND user = ?", arguments: [ledger, user])
            }
        }
    }

    public func members(of ledger: String) throws -> [SyncWire.Member] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT user, role FROM member WHERE ledger = ? ORDER BY user", arguments: [ledger])
                .map { SyncWire.Member(user: $0[0], role: $0[1]) }
        }
    }

    public func devices(of ledger: String) throws -> [SyncWire.Device] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT device, user FROM device WHERE ledger = ? ORDER BY device", arguments: [ledger])
                .map { SyncWire.Device(device: $0[0], user: $0[1]) }
        }
    }

    public func page(of ledger: String, after seq: Int64, limit: Int, digest withDigest: Bool = true) throws -> SyncWire.Page {
        try writer.read { db in
            let head = try Int64.fetchOne(db, sql: "SELECT head FROM ledger WHERE id = ?", arguments: [ledger]) ?? 0
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT seq, body FROM log WHERE ledger = ? AND seq > ? ORDER BY seq LIMIT ?"),
                arguments: [ledger, seq, limit])
            let last: Int64 = rows.last?[0] ?? seq
            let digest = withDigest && last >= head ? try digestCache.digest(of: ledger, at: head) { try Self.canonicalDigest(db, ledger) } : nil
            return SyncWire.Page(sets: try rows.map { try ChangeSet(body: $0[1]) }, last: last, head: head, digest: digest)
        }
    }

    /// The SHA-256 of the ledger's canonical state, as `Store.syncCanonical` writes a device's.
    static func canonicalDigest(_ db: Database, _ ledger: String) throws -> String {
        try SyncWire.canonicalDigest(
            db, sql: "SELECT entity, record, grp, value FROM state WHERE ledger = ? ORDER BY entity, record, grp", arguments: [ledger])
    }

    public func addUser(_ name: String, hash: String, now: Int64) throws {
        try writer.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE name = ?", arguments: [name]) != nil { throw PeopleError.userExists(name) }
            try db.execute(sql: "INSERT INTO user(name, hash, createdAt) VALUES (?, ?, ?)", arguments: [name, hash, Self.iso(now)])
        }
    }

    public func users() throws -> [ServerUser] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, disabled, createdAt, admin FROM user ORDER BY name").map {
                ServerUser(name: $0[0], disabled: $0[1], createdAt: $0[2], admin: $0[3])
            }
        }
    }

    public func passwordHash(of user: String) throws -> (hash: String, disabled: Bool)? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT hash, disabled FROM user WHERE name = ?", arguments: [user]).map { ($0[0], $0[1]) }
        }
    }

    /// Sets `user`'s password hash; a change by the operator (`passwd`) signs every device out.
    public func setPasswordHash(_ hash: String, of user: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE user SET hash = ? WHERE name = ?", arguments: [hash, user])
            if db.changesCount == 0 { throw PeopleError.noUser(user) }
        }
    }

    /// Signs every device of the user out as well: its tokens are revoked.
    public func revokeAll(of user: String) throws {
        try writer.write { db in try db.execute(sql: "UPDATE token SET state = 'revoked' WHERE user = ?", arguments: [user]) }
    }

    public func setDisabled(_ disabled: Bool, user: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE user SET disabled = ? WHERE name = ?", arguments: [disabled, user])
            if db.changesCount == 0 { throw PeopleError.noUser(user) }
            if disabled { try db.execute(sql: "UPDATE token SET state = 'revoked' WHERE user = ?", arguments: [user]) }
        }
    }

    public func setAdmin(_ admin: Bool, user: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE user SET admin = ? WHERE name = ?", arguments: [admin, user])
            if db.changesCount == 0 { throw PeopleError.noUser(user) }
        }
    }

    public func isAdmin(_ user: String) throws -> Bool {
        try writer.read { db in try Bool.fetchOne(db, sql: "SELECT admin FROM user WHERE name = ?", arguments: [user]) ?? false }
    }

    public func issueReset(_ digest: String, user: String, expires: Int64) throws {
        try writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE name = ?", arguments: [user]) != nil else { throw PeopleError.noUser(user) }
            try db.execute(
                sql:
                    "INSERT INTO resetToken(user, hash, expires) VALUES (?, ?, ?) ON CONFLICT(user) DO UPDATE SET hash = excluded.hash, expires = excluded.expires",
                arguments: [user, digest, expires])
        }
    }

    public func redeemReset(_ digest: String, user: String, hash: String, now: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM resetToken WHERE user = ? AND hash = ? AND expires > ?", arguments: [user, digest, now])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "UPDATE user SET hash = ? WHERE name = ?", arguments: [hash, user])
            try db.execute(sql: "UPDATE token SET state = 'revoked' WHERE user = ?", arguments: [user])
            try db.execute(sql: "DELETE FROM loginFailure WHERE user = ?", arguments: [user])
            return true
        }
    }

    public func record(_ event: AuditEvent) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO audit(at, actor, action, subject, ledger, address, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [event.at, event.actor, event.action, event.subject, event.ledger, event.address, event.detail])
        }
    }

    public func audit(after id: Int64, user: String?, limit: Int) throws -> [AuditEvent] {
        try writer.read { db in
            let rows =
                if let user {
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, at, actor, action, subject, ledger, address, detail FROM audit
                            WHERE id > ? AND (actor = ? OR subject = ?) ORDER BY id LIMIT ?
                            """, arguments: [id, user, user, limit])
                } else {
                    try Row.fetchAll(
                        db, sql: "SELECT id, at, actor, action, subject, ledger, address, detail FROM audit WHERE id > ? ORDER BY id LIMIT ?",
                        arguments: [id, limit])
                }
            return rows.map { row in
                AuditEvent(
                    id: row[0], at: row[1], actor: row[2], action: row[3], subject: row[4],
                    ledger: row[5], address: row[6], detail: row[7])
            }
        }
    }

    public func attempt(_ user: String, at: Int64, since: Int64, limit: Int) throws -> [Int64]? {
        try writer.write { db in
            let failures = try Int64.fetchAll(
                db, sql: "SELECT at FROM loginFailure WHERE user = ? AND at >= ? ORDER BY at", arguments: [user, since])
            if failures.count >= limit { return failures }
            try db.execute(sql: "DELETE FROM loginFailure WHERE at < ?", arguments: [at - 86_400_000])
            try db.execute(sql: "INSERT INTO loginFailure(user, at) VALUES (?, ?)", arguments: [user, at])
            return nil
        }
    }

    public func upgradePasswordHash(_ hash: String, of user: String, from old: String) throws {
        try writer.write { db in try db.execute(sql: "UPDATE user SET hash = ? WHERE name = ? AND hash = ?", arguments: [hash, user, old]) }
    }

    public func clearFailures(of user: String) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM loginFailure WHERE user = ?", arguments: [user]) }
    }

    public func issue(user: String, family: String, access: String, refresh: String, now: Int64) throws {
        try writer.write { db in try Self.insertPair(db, user: user, family: family, access: access, refresh: refresh, now: now) }
    }

    private static func insertPair(_ db: Database, user: String, family: String, access: String, refresh: String, now: Int64) throws {
        try db.execute(
            sql: "INSERT INTO token(hash, user, family, kind, expires) VALUES (?, ?, ?, 'access', ?), (?, ?, ?, 'refresh', ?)",
            arguments: [access, user, family, now + Tokens.accessLife, refresh, user, family, now + Tokens.refreshLife])
        // Expired tokens are of no use to anyone: dropped as new ones are made.
        try db.execute(sql: "DELETE FROM token WHERE expires < ?", arguments: [now - Tokens.refreshLife])
    }

    public func user(ofAccess digest: String, now: Int64) throws -> String? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT t.user FROM token t JOIN user u ON u.name = t.user
                        WHERE t.hash = ? AND t.kind = 'access' AND t.state = 'live' AND t.expires > ? AND u.disabled = 0
                        """), arguments: [digest, now])
        }
    }

    public func rotate(refresh digest: String, access: String, refresh newRefresh: String, now: Int64) throws -> Rotation {
        try writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT t.user, t.family, t.state, t.expires, u.disabled FROM token t JOIN user u ON u.name = t.user
                        WHERE t.hash = ? AND t.kind = 'refresh'
                        """, arguments: [digest])
            else { return .refused }
            let user: String = row[0]
            let family: String = row[1]
            switch row[2] as String {
            case "rotated":
                try db.execute(sql: "UPDATE token SET state = 'revoked' WHERE family = ?", arguments: [family])
                return .reused(user: user)
            case "live" where (row[3] as Int64) > now && !(row[4] as Bool):
                try db.execute(sql: "UPDATE token SET state = 'rotated' WHERE hash = ?", arguments: [digest])
                try db.execute(sql: "UPDATE token SET state = 'revoked' WHERE family = ? AND kind = 'access'", arguments: [family])
                try Self.insertPair(db, user: user, family: family, access: access, refresh: newRefresh, now: now)
                return .rotated(user: user)
            default:
                return .refused
            }
        }
    }

    public func revokeFamily(ofAccess digest: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE token SET state = 'revoked' WHERE family = (SELECT family FROM token WHERE hash = ?)", arguments: [digest])
        }
    }

    static func iso(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

/// The last digest computed per ledger, by the head it was computed at: an idle device's sync
/// asks for it every time, and it changes only when the log grows.
final class DigestCache: Sendable {
    private let entries = Mutex<[String: (head: Int64, digest: String)]>([:])

    func digest(of ledger: String, at head: Int64, compute: () throws -> String) rethrows -> String {
        if let digest = cached(ledger, at: head) { return digest }
        return store(ledger, at: head, try compute())
    }

    /// The digest computed at `head`, if it is the last one computed.
    func cached(_ ledger: String, at head: Int64) -> String? {
        entries.withLock { $0[ledger] }.flatMap { $0.head == head ? $0.digest : nil }
    }

    /// Keeps `digest` as the ledger's at `head`, and answers it.
    func store(_ ledger: String, at head: Int64, _ digest: String) -> String {
        entries.withLock { $0[ledger] = (head, digest) }
        return digest
    }
}
