import Foundation
import GRDB

/// This device's sign-in to a sync server: device-local, never synced, never printed.
public struct SyncLogin: Equatable, Sendable {
    /// The server's URL (`http://127.0.0.1:8080`).
    public let server: String
    public let user: String
    public let tokens: SyncWire.Tokens

    public init(server: String, tokens: SyncWire.Tokens) {
        self.server = server
        self.user = tokens.user
        self.tokens = tokens
    }
}

/// Where this device's shared ledger lives, and when it last synced.
public struct SyncLink: Equatable, Sendable {
    public let device: String
    public let server: String?
    public let ledger: String?
    /// The last complete sync (`yyyy-MM-dd HH:mm:ss.SSS`, UTC), nil before the first.
    public let syncedAt: String?
    /// This device's change sets the server has not acknowledged.
    public let pending: Int
    /// Conflicts not resolved.
    public let conflicts: Int
    /// The last server sequence number applied.
    public let cursor: Int64
}

extension Store {
    /// The device's sign-in, nil when signed out.
    public func syncLogin() throws(StoreError) -> SyncLogin? {
        try read("reading the sign-in") { db in try Self.login(db) }
    }

    /// Keeps (or, for nil, forgets) the device's sign-in. The database holds tokens from now on:
    /// its file is made readable by its owner only.
    public func saveSyncLogin(_ login: SyncLogin?) throws(StoreError) {
        try write("saving the sign-in") { db in try Self.replaceLogin(db, with: login) }
        protectFile()
    }

    /// Renews the sign-in `stale` (its access token expired or refused) while holding the
    /// database's write lock, so that two processes of one device never both spend one refresh
    /// token (the server takes a refresh token used twice for a stolen one and revokes the device):
    /// a process that finds the sign-in already renewed, or forgotten, by another takes that
    /// without asking the server. Otherwise `renew` asks it, and what it returns is kept when
    /// `save` is true (nil: forgotten); the sign-in returned is the one to use, nil when signed out.
    /// The lock is held for one request: other writers of this database wait for it.
    public func renewSyncLogin(_ stale: SyncLogin, _ renew: (SyncLogin) -> (login: SyncLogin?, save: Bool)) throws(StoreError) -> SyncLogin? {
        let login = try write("renewing the sign-in") { db -> SyncLogin? in
            let stored = try Self.login(db)
            guard let current = stored, current.tokens.refresh == stale.tokens.refresh else { return stored }
            let (renewed, save) = renew(current)
            if save { try Self.replaceLogin(db, with: renewed) }
            return save ? renewed : current
        }
        protectFile()
        return login
    }

    private static func login(_ db: Database) throws -> SyncLogin? {
        try Row.fetchOne(db, sql: "SELECT server, user, access, accessExpiresAt, refresh, refreshExpiresAt FROM syncLogin").map {
            SyncLogin(
                server: $0[0], tokens: SyncWire.Tokens(user: $0[1], access: $0[2], accessExpiresAt: $0[3], refresh: $0[4], refreshExpiresAt: $0[5]))
        }
    }

    private static func replaceLogin(_ db: Database, with login: SyncLogin?) throws {
        try db.execute(sql: "DELETE FROM syncLogin")
        guard let login else { return }
        try db.execute(
            sql: "INSERT INTO syncLogin(id, server, user, access, accessExpiresAt, refresh, refreshExpiresAt) VALUES (1, ?, ?, ?, ?, ?, ?)",
            arguments: [
                login.server, login.user, login.tokens.access, login.tokens.accessExpiresAt, login.tokens.refresh, login.tokens.refreshExpiresAt,
            ])
    }

    /// The database holds tokens: its files are made readable by their owner only.
    private func protectFile() {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: location + suffix) {
            chmod(location + suffix, 0o600)
        }
    }

    /// The shared ledger's link, nil when this ledger is not shared.
    public func syncLink() throws(StoreError) -> SyncLink? {
        try read("reading the sync state") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, server, ledger, syncedAt, cursor FROM syncDevice") else { return nil }
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM changeSet WHERE serverSeq IS NULL") ?? 0
            let conflicts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncConflict WHERE resolved = 0") ?? 0
            return SyncLink(device: row[0], server: row[1], ledger: row[2], syncedAt: row[3], pending: pending, conflicts: conflicts, cursor: row[4])
        }
    }

    /// Records the server and ledger this device's shared ledger syncs with.
    public func linkSync(server: String, ledger: String, user: String) throws(StoreError) {
        try write("linking the shared ledger") { db in
            try db.execute(sql: "UPDATE syncDevice SET server = ?, ledger = ?, user = ?", arguments: [server, ledger, user])
        }
    }

    /// Records a complete sync, now by the store's clock, and the server's sequence number and
    /// digest this device's ledger was found equal to (nil when not compared or not equal).
    public func markSynced(verified: (cursor: Int64, digest: String)?) throws(StoreError) {
        let at = Timestamp.text(millisecondsSince1970: clock())
        try write("recording the sync") { db in
            try db.execute(
                sql: "UPDATE syncDevice SET syncedAt = ?, verifiedCursor = ?, verifiedDigest = ?",
                arguments: [at, verified?.cursor, verified?.digest])
        }
    }

    /// The server's sequence number and digest this device's ledger was last found equal to: while
    /// nothing is sent or received, it is equal still (the digest need not be computed again).
    public func syncVerified() throws(StoreError) -> (cursor: Int64, digest: String)? {
        try read("reading the sync state") { db in
            try Row.fetchOne(db, sql: "SELECT verifiedCursor, verifiedDigest FROM syncDevice WHERE verifiedCursor IS NOT NULL").map {
                ($0[0], $0[1])
            }
        }
    }
}

extension Store {
    /// Records that the server appended these change sets of this device's (id, sequence number):
    /// one write. Those right after the cursor move it past them: a pull need not bring back what
    /// this device wrote.
    public func acknowledge(_ answers: [(id: String, serverSeq: Int64)]) throws(StoreError) {
        try write("acknowledging change sets") { db in
            let statement = try db.cachedStatement(sql: "UPDATE changeSet SET serverSeq = ? WHERE id = ?")
            for answer in answers { try statement.execute(arguments: [answer.serverSeq, answer.id]) }
            guard var device = try SyncDevice.fetch(db) else { return }
            for seq in answers.map(\.serverSeq).sorted() where seq == device.cursor + 1 { device.cursor = seq }
            try device.save(db)
        }
    }
}
