import CapitalStore

/// A ledger member's rights: an owner shares, removes members and deletes; a member reads and
/// writes; a viewer reads.
public enum Role: String, Sendable, CaseIterable {
    case owner, member, viewer

    /// Whether the role may push changes.
    public var writes: Bool { self != .viewer }
}

/// A person who may sign in to the server; an admin administers the server's users.
public struct ServerUser: Equatable, Sendable {
    public let name: String
    public let disabled: Bool
    public let createdAt: String
    public let admin: Bool
}

/// What becomes of a refresh token presented for rotation.
public enum Rotation: Equatable, Sendable {
    /// Replaced by the new pair: signed in as `user`.
    case rotated(user: String)
    /// A token rotated before: someone holds a copy, so the device's tokens are all revoked now.
    case reused(user: String)
    /// Unknown, expired, revoked, or its user disabled.
    case refused
}

/// A storage that cannot serve this request now; nothing of it was committed unless the
/// connection was lost after the commit (a push sent again is then answered, not appended twice).
public enum StorageFault: Error, Equatable, Sendable {
    /// The database is down, went away or does not take connections now: HTTP 503, try again.
    case unavailable(String)
    /// The database cannot write (its disk is full): HTTP 507.
    case full(String)
}

/// What an append did: each set's sequence number, how many sets were new to the log, and how
/// many of their changes met a concurrent edit of their group (`GET /metrics` counts both).
public struct Appended: Equatable, Sendable {
    public let seqs: [Int64]
    public let added: Int
    public let conflicts: Int
    /// The ledger's head once they were appended.
    public let head: Int64

    public init(seqs: [Int64], added: Int, conflicts: Int, head: Int64) {
        (self.seqs, self.added, self.conflicts, self.head) = (seqs, added, conflicts, head)
    }
}

/// A write's answer kept under the `Idempotency-Key` it came with, for a day: the answer the same
/// request from the same person gets again, instead of being written again.
public struct KeptAnswer: Equatable, Sendable {
    /// How long an answer is kept: 24 hours, in milliseconds.
    public static let lifetime: Int64 = 24 * 3_600_000
    /// Whose key it is: keys are each person's own.
    public let user: String
    /// The key, as the client sent it.
    public let key: String
    /// The SHA-256 of the request it answered (method, path, query, body): the key with another request is refused.
    public let fingerprint: String
    /// The answer's HTTP status.
    public let status: Int
    /// The answer's JSON.
    public let body: String
    /// When it was answered, in milliseconds since 1970.
    public let at: Int64

    /// An answer to keep.
    public init(user: String, key: String, fingerprint: String, status: Int, body: String, at: Int64) {
        (self.user, self.key, self.fingerprint, self.status, self.body, self.at) = (user, key, fingerprint, status, body, at)
    }
}

/// A write whose `Idempotency-Key` another request took first (the same request sent twice at
/// once, or to two servers): nothing of this one was written; the other's answer is kept.
public struct KeyTaken: Error, Equatable, Sendable {
    /// The key.
    public let key: String

    /// The key taken.
    public init(key: String) { self.key = key }
}

/// `capital serve`'s storage: the shared ledgers' logs and the people who may read and write
/// them. `LedgerLog` keeps it in SQLite, `PostgresStorage` in PostgreSQL; the HTTP layer sees only
/// this protocol, and `StorageTests` hold both to the same behaviour.
public protocol ServerStorage: Sendable {
    /// Throws when the storage cannot answer a query now (`GET /health`).
    func checkReachable() async throws

    // Ledgers and their logs.
    func createLedger(name: String, owner: String) async throws -> String
    func ledgers(of user: String) async throws -> [SyncWire.Ledger]
    func role(of user: String, in ledger: String) async throws -> Role?
    func setRole(_ role: Role?, of user: String, in ledger: String) async throws
    func members(of ledger: String) async throws -> [SyncWire.Member]
    /// The devices that pushed to `ledger` and the user each pushes for.
    func devices(of ledger: String) async throws -> [SyncWire.Device]
    func head(_ ledger: String) async throws -> Int64?
    /// Appends `sets` pushed by `user`: a device's sets come from the user who first pushed for it.
    /// With `answer`, keeps it in the same transaction (so that the append and its answer commit
    /// together), forgetting answers older than `KeptAnswer.lifetime`; throws `KeyTaken`, nothing
    /// appended, when the answer's user and key hold a live answer already.
    func appended(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64, keeping answer: KeptAnswer?) async throws -> Appended
    /// The answer kept for `user`'s `key`, when it was kept less than `KeptAnswer.lifetime` before `now`.
    func keptAnswer(of user: String, key: String, now: Int64) async throws -> KeptAnswer?
    /// The change sets after `seq`, at most `limit`; with `digest`, the page reaching the head
    /// carries the ledger's digest there (what a device compares; the server's own copy needs none).
    func page(of ledger: String, after seq: Int64, limit: Int, digest: Bool) async throws -> SyncWire.Page
    /// Every group's winner as the JSON body of `GET …/snapshot` (`SyncWire.Snapshot`), made by
    /// the database itself: a ledger of 100 000 changes is one query, not 100 000 values.
    func snapshot(of ledger: String) async throws -> String

    // People.
    func addUser(_ name: String, hash: String, now: Int64) async throws
    func users() async throws -> [ServerUser]
    func passwordHash(of user: String) async throws -> (hash: String, disabled: Bool)?
    func setPasswordHash(_ hash: String, of user: String) async throws
    /// Revokes every token of `user`: each of their devices signs in again.
    func revokeAll(of user: String) async throws
    /// Replaces `user`'s hash with `hash` only if it is still `old` (a login's upgrade never undoes a `passwd`).
    func upgradePasswordHash(_ hash: String, of user: String, from old: String) async throws
    func setDisabled(_ disabled: Bool, user: String) async throws
    /// Counts `user`'s failed sign-ins since `since` and, when fewer than `limit`, records this
    /// attempt as one (removed by `clearFailures` when the password matches) — in one transaction,
    /// so that attempts in parallel cannot all pass the count. Answers the failures counted when the
    /// user is locked out, else nil.
    func attempt(_ user: String, at: Int64, since: Int64, limit: Int) async throws -> [Int64]?
    func clearFailures(of user: String) async throws

    // Administration.
    /// Makes `user` a server administrator or not.
    func setAdmin(_ admin: Bool, user: String) async throws
    func isAdmin(_ user: String) async throws -> Bool
    /// Keeps `digest` (a reset token's SHA-256) as `user`'s only reset token until `expires`.
    func issueReset(_ digest: String, user: String, expires: Int64) async throws
    /// When `digest` is `user`'s reset token and has not expired: spends it, sets `hash` as the
    /// password's, revokes every sign-in and clears the failed sign-ins — at once. Answers whether it did.
    func redeemReset(_ digest: String, user: String, hash: String, now: Int64) async throws -> Bool
    /// Appends `event` to the audit log.
    func record(_ event: AuditEvent) async throws
    /// The audit log's events after `id`, in order, at most `limit`; only those where `user` is
    /// the actor or the subject, when given.
    func audit(after id: Int64, user: String?, limit: Int) async throws -> [AuditEvent]

    // Tokens (stored as their SHA-256).
    func issue(user: String, family: String, access: String, refresh: String, now: Int64) async throws
    func user(ofAccess digest: String, now: Int64) async throws -> String?
    func rotate(refresh digest: String, access: String, refresh newRefresh: String, now: Int64) async throws -> Rotation
    func revokeFamily(ofAccess digest: String) async throws
}

extension ServerStorage {
    /// A page as a device reads it: the one reaching the head with the ledger's digest there.
    public func page(of ledger: String, after seq: Int64, limit: Int) async throws -> SyncWire.Page {
        try await page(of: ledger, after: seq, limit: limit, digest: true)
    }

    /// Appends `sets` pushed by `user`, keeping no answer.
    public func appended(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64) async throws -> Appended {
        try await appended(sets, to: ledger, by: user, now: now, keeping: nil)
    }

    /// Appends `sets` and answers each set's sequence number (`appended`'s `seqs`).
    public func append(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64) async throws -> [Int64] {
        try await appended(sets, to: ledger, by: user, now: now).seqs
    }
}
