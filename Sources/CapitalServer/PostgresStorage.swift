import CapitalCore
import CapitalStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// `capital serve --database postgres://…`: the same storage as `LedgerLog`, in PostgreSQL, for a
/// server that carries many households. Behaviour is the SQLite storage's, held to it by the same
/// tests (`StorageTests`); what differs is how the guarantees are kept:
///
/// - **Gapless sequences.** An append first locks its ledger's row (`SELECT … FOR UPDATE`), so
///   pushes to one ledger take turns and each commits before the next numbers anything: numbers
///   are never skipped and commit in order (a sequence object's values would commit out of order).
///   Pushes to different ledgers do not wait for each other.
/// - **Counts that must not be outrun** (sign-in failures, a ledger's last owner, a refresh token
///   spent twice) are read under a row or advisory lock in the transaction that writes them.
/// - **Canonical order** is byte order: text columns use the "C" collation, as SQLite compares.
///
/// Connections come from postgres-nio's pool (`PostgresClient`), which must run (`client.run()`)
/// while the storage is used. The schema is versioned in `capital_schema`; `migrate()` brings it up
/// to date (`capital serve migrate`), and a server refuses to start on a schema behind or ahead of
/// its own (`checkSchema()`).
public final class PostgresStorage: ServerStorage {
    /// The connection pool: run it (`await client.run()`) for as long as the storage is used.
    public let client: PostgresClient
    let logger: Logger
    /// One connection's settings, for the schema's check and migrations (`connected(_:)`).
    let connection: PostgresConnection.Configuration
    let digestCache = DigestCache()
    /// How long a request waits for a pooled connection (`connect_timeout`).
    let connectTimeout: Duration

    /// A storage for the database `url` names: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    /// with `?sslmode=disable|prefer|require` (prefer: TLS when the server offers it),
    /// `?pool=N` connections at most (default 8) and `?connect_timeout=S`, the seconds a request
    /// waits for a connection before the storage reports itself unavailable (default 5).
    public init(url: String, logger: Logger = Logger(label: "capital-serve.postgres")) throws(PostgresURLError) {
        let parsed = try PostgresURL(url)
        var configuration = PostgresClient.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.user, password: parsed.password, database: parsed.database,
            tls: parsed.tls)
        configuration.options.maximumConnections = parsed.pool
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(parsed.connectTimeout)
        self.connectTimeout = .seconds(parsed.connectTimeout)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        let context = { () throws(PostgresURLError) -> NIOSSLContext in
            do { return try NIOSSLContext(configuration: .makeClientConfiguration()) } catch {
                throw PostgresURLError(description: "\(Self.redacted(url)): TLS could not be set up (\(error))")
            }
        }
        self.connection = PostgresConnection.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.user, password: parsed.password, database: parsed.database,
            tls: parsed.sslmode == "disable" ? .disable : parsed.sslmode == "require" ? .require(try context()) : .prefer(try context()))
    }

    /// Runs `body` on a connection of its own, outside the pool: a database that is down, missing
    /// or refuses the user fails at once with the server's reason (the pool would keep retrying).
    func connected<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: self.connection, id: 0, logger: logger)
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    // MARK: Schema

    /// The schema's versions in order, each applied once.
    static let migrations: [(version: String, sql: [String])] = [
        (
            "v1",
            [
                """
                CREATE TABLE ledger (
                    id TEXT COLLATE "C" PRIMARY KEY, name TEXT NOT NULL, createdAt TEXT NOT NULL, head BIGINT NOT NULL DEFAULT 0)
                """,
                """
                CREATE TABLE log (
                    ledger TEXT COLLATE "C" NOT NULL REFERENCES ledger(id), seq BIGINT NOT NULL, id TEXT COLLATE "C" NOT NULL,
                    device TEXT COLLATE "C" NOT NULL, deviceSeq BIGINT NOT NULL, body TEXT NOT NULL, receivedAt TEXT NOT NULL,
                    PRIMARY KEY (ledger, seq), UNIQUE (ledger, id), UNIQUE (ledger, device, deviceSeq))
                """,
                """
                CREATE TABLE state (
                    ledger TEXT COLLATE "C" NOT NULL, entity TEXT COLLATE "C" NOT NULL, record TEXT COLLATE "C" NOT NULL,
                    grp TEXT COLLATE "C" NOT NULL, value TEXT COLLATE "C" NOT NULL, hlc TEXT COLLATE "C" NOT NULL,
                    device TEXT COLLATE "C" NOT NULL, base TEXT COLLATE "C",
                    PRIMARY KEY (ledger, entity, record, grp))
                """,
            ]
        ),
        (
            "v2-people",
            [
                """
                CREATE TABLE server_user (
                    name TEXT COLLATE "C" PRIMARY KEY, hash TEXT NOT NULL, disabled BOOLEAN NOT NULL DEFAULT false, createdAt TEXT NOT NULL)
                """,
                """
                CREATE TABLE member (
                    ledger TEXT COLLATE "C" NOT NULL REFERENCES ledger(id), "user" TEXT COLLATE "C" NOT NULL REFERENCES server_user(name),
                    role TEXT NOT NULL, PRIMARY KEY (ledger, "user"))
                """,
                """
                CREATE TABLE token (
                    hash TEXT COLLATE "C" PRIMARY KEY, "user" TEXT COLLATE "C" NOT NULL REFERENCES server_user(name),
                    family TEXT COLLATE "C" NOT NULL, kind TEXT NOT NULL, expires BIGINT NOT NULL, state TEXT NOT NULL DEFAULT 'live')
                """,
                "CREATE INDEX token_family ON token(family)",
                """
                CREATE TABLE device (
                    ledger TEXT COLLATE "C" NOT NULL REFERENCES ledger(id), device TEXT COLLATE "C" NOT NULL,
                    "user" TEXT COLLATE "C" NOT NULL, PRIMARY KEY (ledger, device))
                """,
                "CREATE TABLE login_failure (\"user\" TEXT COLLATE \"C\" NOT NULL, at BIGINT NOT NULL)",
                "CREATE INDEX login_failure_user ON login_failure(\"user\", at)",
            ]
        ),
        (
            "v3-admin",
            [
                "ALTER TABLE server_user ADD COLUMN admin BOOLEAN NOT NULL DEFAULT false",
                """
                CREATE TABLE audit (
                    id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor TEXT COLLATE "C" NOT NULL, action TEXT NOT NULL,
                    subject TEXT COLLATE "C" NOT NULL, ledger TEXT COLLATE "C" NOT NULL, address TEXT NOT NULL, detail TEXT NOT NULL)
                """,
                "CREATE INDEX audit_actor ON audit(actor, id)",
                "CREATE INDEX audit_subject ON audit(subject, id)",
                """
                CREATE TABLE reset_token (
                    "user" TEXT COLLATE "C" PRIMARY KEY REFERENCES server_user(name), hash TEXT COLLATE "C" NOT NULL, expires BIGINT NOT NULL)
                """,
            ]
        ),
        (
            "v4-idempotency",
            [
                """
                CREATE TABLE kept_answer (
                    "user" TEXT COLLATE "C" NOT NULL, "key" TEXT COLLATE "C" NOT NULL, fingerprint TEXT NOT NULL, status BIGINT NOT NULL,
                    body TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY ("user", "key"))
                """,
                "CREATE INDEX kept_answer_at ON kept_answer(at)",
            ]
        ),
    ]

    /// Where the database's schema stands against this program's.
    public enum SchemaState: Equatable, Sendable {
        case current
        /// Versions this program would apply (`capital serve migrate`).
        case behind(pending: [String])
        /// Versions the database has that this program does not know: a newer capital made them.
        case ahead(unknown: [String])
    }

    /// The versions the database has applied, in order (none for a database never migrated).
    static func appliedVersions(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        let exists = try await connection.query("SELECT to_regclass('capital_schema') IS NOT NULL", logger: logger)
        for try await found in exists.decode(Bool.self) where !found { return [] }
        var versions: [String] = []
        for try await version in try await connection.query("SELECT version FROM capital_schema ORDER BY position", logger: logger)
            .decode(String.self)
        {
            versions.append(version)
        }
        return versions
    }

    /// Compares the database's schema with this program's.
    public func checkSchema() async throws -> SchemaState {
        let applied = try await connected { try await Self.appliedVersions($0, logger: self.logger) }
        let known = Self.migrations.map(\.version)
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty { return .ahead(unknown: unknown) }
        let pending = known.filter { !applied.contains($0) }
        return pending.isEmpty ? .current : .behind(pending: pending)
    }

    /// Applies the versions the database lacks, all in one transaction (PostgreSQL's DDL is
    /// transactional: a failed migration leaves nothing behind) under an advisory lock (two servers
    /// migrating at once take turns); answers the versions applied. `through`: only up to that
    /// version (a database as an older capital left it, for the upgrade's tests).
    @discardableResult
    public func migrate(through last: String? = nil) async throws -> [String] {
        try await connected { try await Self.inTransaction($0, logger: self.logger) { try await self.migrate($0, through: last) } }
    }

    private func migrate(_ connection: PostgresConnection, through last: String?) async throws -> [String] {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: self.logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS capital_schema (
                position INTEGER PRIMARY KEY, version TEXT NOT NULL UNIQUE, appliedAt TIMESTAMPTZ NOT NULL DEFAULT now())
            """, logger: self.logger)
        var applied: [String] = []
        for try await version in try await connection.query("SELECT version FROM capital_schema", logger: self.logger).decode(String.self) {
            applied.append(version)
        }
        var done: [String] = []
        let known = last.flatMap { last in Self.migrations.firstIndex { $0.version == last } }.map { $0 + 1 } ?? Self.migrations.count
        for (position, migration) in Self.migrations.prefix(known).enumerated() where !applied.contains(migration.version) {
            for statement in migration.sql { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger) }
            try await connection.query(
                "INSERT INTO capital_schema(position, version) VALUES (\(position + 1), \(migration.version))", logger: self.logger)
            done.append(migration.version)
        }
        return done
    }

    /// `checkSchema()`, or an error when the database has not answered within `limit` (the pool
    /// keeps trying to connect to a server that is down; an operator wants to hear of it).
    public func checkSchema(within limit: Duration) async throws -> SchemaState {
        try await Self.within(limit) { try await self.checkSchema() }
    }

    /// `migrate()`, or an error when the database has not answered within `limit`.
    public func migrate(within limit: Duration) async throws -> [String] {
        try await Self.within(limit) { try await self.migrate() }
    }

    /// No answer from the database in time.
    public struct Timeout: Error, CustomStringConvertible {
        public let limit: Duration
        public var description: String { "no answer within \(limit.components.seconds) s: is PostgreSQL running there, and reachable?" }
    }

    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Timeout(limit: limit) }
            return value
        }
    }

    /// A database error in one line: the server's own message (a database that does not exist, a
    /// password refused, a role without rights) or what stopped the connection. postgres-nio keeps
    /// its errors' text generic on purpose (queries may hold secrets); these parts hold none.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError, let inner = error.closureError ?? error.beginError ?? error.commitError {
            return describe(inner)
        }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if error.code == .connectionError, let underlying = error.underlying {
            // "Connection errors: SingleConnectionFailure(target: [IPv4]127.0.0.1/127.0.0.1:5432, error: … Connection refused) …"
            let text = "\(underlying)"
            let reason =
                ["Connection refused", "Connection timed out", "No route to host", "Network is unreachable", "Name or service not known"]
                .first { text.contains($0) }?.lowercased() ?? text
            return "could not connect: \(reason)"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// `url` with its password, if any, replaced by `***`: for messages and logs. Works on the
    /// text itself, so that a URL too malformed to parse does not show its password either.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
    }

    /// The advisory lock's key for migrations ("capi" as a number).
    static let migrationLock: Int64 = 0x6361_7069

    // MARK: Transactions

    /// Runs `body` in a transaction on one pooled connection: committed when it returns, rolled
    /// back when it throws, its error passed on as it was thrown.
    /// `readOnly`: one snapshot for every query of `body` (REPEATABLE READ), writing nothing.
    func transaction<Result: Sendable>(
        readOnly: Bool = false, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await pooled { try await Self.inTransaction($0, readOnly: readOnly, logger: self.logger, body) }
    }

    /// `body` on a pooled connection, waiting at most `connectTimeout` for one (the pool itself
    /// waits as long as it takes, retrying a server that is down). A database that is down, went
    /// away mid-request or is shutting down throws `StorageFault.unavailable` (503), a full disk
    /// `StorageFault.full` (507); what `body` threw otherwise passes as it was.
    func pooled<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let leased = Flag()
        let limit = connectTimeout
        do {
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    try await self.client.withConnection { connection in
                        leased.set()
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    // Once leased, the work takes as long as it takes.
                    while leased.isSet { try await Task.sleep(for: .seconds(3600)) }
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw StorageFault.unavailable("no connection to PostgreSQL within \(limit.components.seconds) s")
                }
                return result
            }
        } catch let error as PSQLError {
            throw Self.fault(error) ?? error
        }
    }

    /// A flag tasks share.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    /// The fault a database error stands for, if it is one: the connection lost or refused, the
    /// server shutting down or not accepting connections yet (SQLSTATE 08…, 57P…), the disk full (53100).
    static func fault(_ error: PSQLError) -> StorageFault? {
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed, .clientClosedConnection:
            return .unavailable("PostgreSQL \(error.code)")
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            if state == "53100" { return .full("PostgreSQL: \(state)") }
            if state.hasPrefix("08") || state.hasPrefix("57P") { return .unavailable("PostgreSQL: \(state)") }
            return nil
        default: return nil
        }
    }

    /// `body` in a transaction on `connection` (postgres-nio's `withTransaction` wraps the error
    /// thrown; the HTTP layer needs it as thrown: an `AppendError` is a 409, not a 500).
    static func inTransaction<Result: Sendable>(
        _ connection: PostgresConnection, readOnly: Bool = false, logger: Logger, _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await connection.query(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
        do {
            let result = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// The first row of `query` decoded as `T`, nil when there is none.
    static func first<T: PostgresDecodable & Sendable>(
        _ type: T.Type, _ query: PostgresQuery, on connection: PostgresConnection, logger: Logger
    ) async throws -> T? {
        for try await value in try await connection.query(query, logger: logger).decode(T.self) { return value }
        return nil
    }

    /// Runs `query` on a pooled connection.
    func execute(_ query: PostgresQuery) async throws {
        try await pooled { connection in _ = try await connection.query(query, logger: self.logger) }
    }

    /// Every row of `query` on a pooled connection, each made into a `T` by `each`.
    func rows<T: Sendable>(_ query: PostgresQuery, _ each: @escaping @Sendable (PostgresRow) throws -> T) async throws -> [T] {
        try await pooled { connection in
            var result: [T] = []
            for try await row in try await connection.query(query, logger: self.logger) { result.append(try each(row)) }
            return result
        }
    }

    /// The first row of `query` on any pooled connection.
    func first<T: PostgresDecodable & Sendable>(_ type: T.Type, _ query: PostgresQuery) async throws -> T? {
        try await pooled { connection in try await Self.first(type, query, on: connection, logger: self.logger) }
    }

    /// A query through the pool within 3 s (the pool waits for a connection as long as it takes).
    public func keptAnswer(of user: String, key: String, now: Int64) async throws -> KeptAnswer? {
        try await rows(
            """
            SELECT fingerprint, status, body, at FROM kept_answer
            WHERE "user" = \(user) AND "key" = \(key) AND at >= \(now - KeptAnswer.lifetime)
            """
        ) { row in
            let (fingerprint, status, body, at) = try row.decode((String, Int64, String, Int64).self)
            return KeptAnswer(user: user, key: key, fingerprint: fingerprint, status: Int(status), body: body, at: at)
        }.first
    }

    public func checkReachable() async throws {
        _ = try await Self.within(.seconds(3)) { try await self.first(Int64.self, "SELECT COUNT(*) FROM ledger") }
    }

    // MARK: Ledgers and their logs

    public func createLedger(name: String, owner: String) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let now = ISO8601DateFormatter().string(from: Date())
        try await transaction { connection in
            try await connection.query("INSERT INTO ledger(id, name, createdAt) VALUES (\(id), \(name), \(now))", logger: self.logger)
            try await connection.query("INSERT INTO member(ledger, \"user\", role) VALUES (\(id), \(owner), 'owner')", logger: self.logger)
        }
        return id
    }

    public func ledgers(of user: String) async throws -> [SyncWire.Ledger] {
        try await rows(
            """
            SELECT l.id, l.name, m.role, l.head FROM member m JOIN ledger l ON l.id = m.ledger
            WHERE m."user" = \(user) ORDER BY l.name COLLATE "C", l.id
            """
        ) { row in
            let (id, name, role, head) = try row.decode((String, String, String, Int64).self)
            return SyncWire.Ledger(id: id, name: name, role: role, head: head)
        }
    }

    public func role(of user: String, in ledger: String) async throws -> Role? {
        try await first(String.self, "SELECT role FROM member WHERE ledger = \(ledger) AND \"user\" = \(user)").flatMap(Role.init)
    }

    public func setRole(_ role: Role?, of user: String, in ledger: String) async throws {
        try await transaction { connection in
            // The ledger's row, locked: two owners demoting each other at once take turns.
            _ = try await Self.first(String.self, "SELECT id FROM ledger WHERE id = \(ledger) FOR UPDATE", on: connection, logger: self.logger)
            guard try await Self.first(String.self, "SELECT name FROM server_user WHERE name = \(user)", on: connection, logger: self.logger) != nil
            else { throw PeopleError.noUser(user) }
            var owners: [String] = []
            for try await owner in try await connection.query(
                "SELECT \"user\" FROM member WHERE ledger = \(ledger) AND role = 'owner'", logger: self.logger
            ).decode(String.self) {
                owners.append(owner)
            }
            if owners == [user], role != .owner { throw PeopleError.lastOwner(user) }
            if let role {
                try await connection.query(
                    """
                    INSERT INTO member(ledger, "user", role) VALUES (\(ledger), \(user), \(role.rawValue))
                    ON CONFLICT (ledger, "user") DO UPDATE SET role = excluded.role
                    """, logger: self.logger)
            } else {
                try await connection.query("DELETE FROM member WHERE ledger = \(ledger) AND \"user\" = \(user)", logger: self.logger)
            }
        }
    }

    public func members(of ledger: String) async throws -> [SyncWire.Member] {
        try await rows("SELECT \"user\", role FROM member WHERE ledger = \(ledger) ORDER BY \"user\"") { row in
            let (user, role) = try row.decode((String, String).self)
            return SyncWire.Member(user: user, role: role)
        }
    }

    public func devices(of ledger: String) async throws -> [SyncWire.Device] {
        try await rows("SELECT device, \"user\" FROM device WHERE ledger = \(ledger) ORDER BY device") { row in
            let (device, user) = try row.decode((String, String).self)
            return SyncWire.Device(device: device, user: user)
        }
    }

    public func head(_ ledger: String) async throws -> Int64? {
        try await first(Int64.self, "SELECT head FROM ledger WHERE id = \(ledger)")
    }

    /// Appends `sets` in order, all or none, as `LedgerLog.append` does. The ledger's row is locked
    /// first, so what follows reads what every earlier push committed. Under the lock, a push of
    /// any size is three round trips and the commit: the lock; one read of
    /// what the push needs (the sets already logged, the devices' last numbers and owners, the
    /// stored winners of the groups it touches); one write of it all (devices, head, log rows,
    /// winners). Pushes to one ledger queue behind its lock, so its hold is the push's cost.
    public func appended(_ sets: [ChangeSet], to ledger: String, by user: String?, now: Int64, keeping answer: KeptAnswer?) async throws
        -> Appended
    {
        let bodies = try sets.map { try $0.body }
        let keys = Array(Set(sets.flatMap { set in set.changes.map { GroupKey(entity: $0.entity, record: $0.record, group: $0.group) } }))
        return try await transaction { connection in
            guard
                var head = try await Self.first(
                    Int64.self, "SELECT head FROM ledger WHERE id = \(ledger) FOR UPDATE", on: connection, logger: self.logger)
            else { throw AppendError.noLedger(ledger) }
            if let answer {
                // Kept with the append, in its transaction; the key's row is taken by the first to commit.
                try await connection.query("DELETE FROM kept_answer WHERE at < \(now - KeptAnswer.lifetime)", logger: self.logger)
                let kept = try await Self.first(
                    Int64.self,
                    """
                    INSERT INTO kept_answer("user", "key", fingerprint, status, body, at)
                    VALUES (\(answer.user), \(answer.key), \(answer.fingerprint), \(Int64(answer.status)), \(answer.body), \(answer.at))
                    ON CONFLICT ("user", "key") DO NOTHING RETURNING at
                    """, on: connection, logger: self.logger)
                guard kept != nil else { throw KeyTaken(key: answer.key) }
            }
            let known = try await self.known(connection, sets, keys, in: ledger)
            var (logged, last, owners, current) = (known.logged, known.last, known.owners, known.current)
            var answers: [Int64] = []
            var accepted: [(seq: Int64, set: ChangeSet, body: String)] = []
            var newDevices: [String] = []
            for (set, body) in zip(sets, bodies) {
                if let known = logged[set.id] {
                    guard known.body == body else { throw AppendError.idReused(id: set.id) }
                    answers.append(known.seq)
                    continue
                }
                try LedgerLog.admit(set, after: last[set.device] ?? 0, owner: owners[set.device], user: user, now: now)
                if let user, owners[set.device] == nil {
                    // A device belongs to the user who first pushed for it: nobody else writes in its name.
                    owners[set.device] = user
                    newDevices.append(set.device)
                }
                head += 1
                last[set.device] = set.deviceSeq
                logged[set.id] = (head, body)
                accepted.append((head, set, body))
                answers.append(head)
            }
            guard !accepted.isEmpty else { return Appended(seqs: answers, added: 0, conflicts: 0, head: head) }
            // Folded into the merged state by the devices' rule, as `LedgerLog` does, in order.
            var winners: [GroupKey: (change: Change, device: String)] = [:]
            var conflicts = 0
            for (_, set, _) in accepted {
                for change in set.changes {
                    let key = GroupKey(entity: change.entity, record: change.record, group: change.group)
                    let decision = LedgerLog.decide(change, of: set.device, current: current[key])
                    if decision.conflict { conflicts += 1 }
                    guard decision.replaces else { continue }
                    current[key] = .init(value: change.value, hlc: change.hlc, device: set.device, base: change.base)
                    winners[key] = (change, set.device)
                }
            }
            let rows = Array(winners.values)
            // One statement: each part writes its own table (a base is a stamp or none; none travels as "").
            try await connection.query(
                """
                WITH devices AS (
                    INSERT INTO device(ledger, device, "user") SELECT \(ledger), d, \(user ?? "") FROM unnest(\(newDevices)) AS d
                ), moved AS (
                    UPDATE ledger SET head = \(head) WHERE id = \(ledger)
                ), logged AS (
                    INSERT INTO log(ledger, seq, id, device, deviceSeq, body, receivedAt)
                    SELECT \(ledger), s, i, d, q, b, \(String(now))
                    FROM unnest(\(accepted.map(\.seq)), \(accepted.map(\.set.id)), \(accepted.map(\.set.device)),
                                \(accepted.map(\.set.deviceSeq)), \(accepted.map(\.body))) AS t(s, i, d, q, b)
                )
                INSERT INTO state(ledger, entity, record, grp, value, hlc, device, base)
                SELECT \(ledger), e, r, g, v, h, d, NULLIF(b, '')
                FROM unnest(\(rows.map(\.change.entity)), \(rows.map(\.change.record)), \(rows.map(\.change.group)), \(rows.map(\.change.value)),
                            \(rows.map(\.change.hlc)), \(rows.map(\.device)), \(rows.map { $0.change.base ?? "" })) AS t(e, r, g, v, h, d, b)
                ON CONFLICT (ledger, entity, record, grp) DO UPDATE SET
                    value = excluded.value, hlc = excluded.hlc, device = excluded.device, base = excluded.base
                """, logger: self.logger)
            return Appended(seqs: answers, added: accepted.count, conflicts: conflicts, head: head)
        }
    }

    /// A group of a record: where a winner is kept.
    private struct GroupKey: Hashable {
        let entity: String, record: String, group: String
    }

    /// What a push of `sets` to `ledger` needs to know, read in one query: the sets already in the
    /// log (by id: their numbers and bodies), each pushing device's last number and owner, and
    /// the stored winners of the groups `keys`.
    private func known(_ connection: PostgresConnection, _ sets: [ChangeSet], _ keys: [GroupKey], in ledger: String) async throws -> (
        logged: [String: (seq: Int64, body: String)], last: [String: Int64], owners: [String: String],
        current: [GroupKey: LedgerLog.StoredWinner]
    ) {
        let devices = Array(Set(sets.map(\.device)))
        var logged: [String: (seq: Int64, body: String)] = [:]
        var last: [String: Int64] = [:]
        var owners: [String: String] = [:]
        var current: [GroupKey: LedgerLog.StoredWinner] = [:]
        let rows = try await connection.query(
            """
            SELECT 'logged', id, body, NULL, NULL, NULL, NULL, NULL, seq FROM log WHERE ledger = \(ledger) AND id = ANY(\(sets.map(\.id)))
            UNION ALL
            SELECT 'last', device, NULL, NULL, NULL, NULL, NULL, NULL, MAX(deviceSeq) FROM log
                WHERE ledger = \(ledger) AND device = ANY(\(devices)) GROUP BY device
            UNION ALL
            SELECT 'owner', device, "user", NULL, NULL, NULL, NULL, NULL, NULL FROM device WHERE ledger = \(ledger) AND device = ANY(\(devices))
            UNION ALL
            SELECT 'winner', s.entity, s.record, s.grp, s.value, s.hlc, s.device, s.base, NULL FROM state s
                JOIN unnest(\(keys.map(\.entity)), \(keys.map(\.record)), \(keys.map(\.group))) AS k(e, r, g)
                    ON s.entity = k.e AND s.record = k.r AND s.grp = k.g
                WHERE s.ledger = \(ledger)
            """, logger: logger)
        for try await (kind, a, b, c, d, e, f, g, n) in rows.decode(
            (String, String, String?, String?, String?, String?, String?, String?, Int64?).self)
        {
            switch kind {
            case "logged": logged[a] = (n ?? 0, b ?? "")
            case "last": last[a] = n ?? 0
            case "owner": owners[a] = b ?? ""
            default:
                current[GroupKey(entity: a, record: b ?? "", group: c ?? "")] = .init(value: d ?? "", hlc: e ?? "", device: f ?? "", base: g)
            }
        }
        return (logged, last, owners, current)
    }

    public func page(of ledger: String, after seq: Int64, limit: Int, digest withDigest: Bool) async throws -> SyncWire.Page {
        // One snapshot for the head, the rows and the digest: a push committing between them
        // cannot make the page claim a head its rows do not reach.
        try await transaction(readOnly: true) { connection in
            let head = try await Self.first(Int64.self, "SELECT head FROM ledger WHERE id = \(ledger)", on: connection, logger: self.logger) ?? 0
            var sets: [ChangeSet] = []
            var last = seq
            let rows = try await connection.query(
                "SELECT seq, body FROM log WHERE ledger = \(ledger) AND seq > \(seq) ORDER BY seq LIMIT \(limit)", logger: self.logger)
            for try await (number, body) in rows.decode((Int64, String).self) {
                sets.append(try ChangeSet(body: body))
                last = number
            }
            var digest: String?
            if withDigest && last >= head {
                if let cached = self.digestCache.cached(ledger, at: head) {
                    digest = cached
                } else {
                    // `SyncWire.canonicalLine` of every winner in order, hashed where they are: no row
                    // crosses the connection (the text is built in PostgreSQL's memory: a household's
                    // ledger is a few megabytes at most).
                    let hex = try await Self.first(
                        String.self,
                        """
                        SELECT encode(sha256(convert_to(coalesce(string_agg(
                            entity || E'\\t' || record || E'\\t' || grp || E'\\t' || value || E'\\n', '' ORDER BY entity, record, grp), ''), 'UTF8')), 'hex')
                        FROM state WHERE ledger = \(ledger)
                        """, on: connection, logger: self.logger)
                    digest = self.digestCache.store(ledger, at: head, hex ?? "")
                }
            }
            return SyncWire.Page(sets: sets, last: last, head: head, digest: digest)
        }
    }

    public func snapshot(of ledger: String) async throws -> String {
        try await transaction(readOnly: true) { connection in
            let head = try await Self.first(Int64.self, "SELECT head FROM ledger WHERE id = \(ledger)", on: connection, logger: self.logger) ?? 0
            let entries = try await Self.first(
                String.self,
                """
                SELECT coalesce(json_agg(json_build_array(entity, record, grp, value, hlc, device, base) ORDER BY entity, record, grp), '[]')::text
                FROM state WHERE ledger = \(ledger)
                """, on: connection, logger: self.logger)
            return SyncWire.Snapshot.body(entries: entries ?? "[]", head: head)
        }
    }

    // MARK: People

    /// A stored hash and whether its user is disabled (a tuple is not Sendable across the pool).
    private struct Found: Sendable {
        let hash: String, disabled: Bool
    }

    public func addUser(_ name: String, hash: String, now: Int64) async throws {
        let added = try await first(
            String.self,
            "INSERT INTO server_user(name, hash, createdAt) VALUES (\(name), \(hash), \(LedgerLog.iso(now))) ON CONFLICT DO NOTHING RETURNING name")
        if added == nil { throw PeopleError.userExists(name) }
    }

    public func users() async throws -> [ServerUser] {
        try await rows("SELECT name, disabled, createdAt, admin FROM server_user ORDER BY name") { row in
            let (name, disabled, created, admin) = try row.decode((String, Bool, String, Bool).self)
            return ServerUser(name: name, disabled: disabled, createdAt: created, admin: admin)
        }
    }

    public func passwordHash(of user: String) async throws -> (hash: String, disabled: Bool)? {
        try await rows("SELECT hash, disabled FROM server_user WHERE name = \(user)") { row in
            let (hash, disabled) = try row.decode((String, Bool).self)
            return Found(hash: hash, disabled: disabled)
        }.first.map { ($0.hash, $0.disabled) }
    }

    public func setPasswordHash(_ hash: String, of user: String) async throws {
        guard try await first(String.self, "UPDATE server_user SET hash = \(hash) WHERE name = \(user) RETURNING name") != nil else {
            throw PeopleError.noUser(user)
        }
    }

    public func revokeAll(of user: String) async throws {
        try await execute("UPDATE token SET state = 'revoked' WHERE \"user\" = \(user)")
    }

    public func upgradePasswordHash(_ hash: String, of user: String, from old: String) async throws {
        try await execute("UPDATE server_user SET hash = \(hash) WHERE name = \(user) AND hash = \(old)")
    }

    public func setDisabled(_ disabled: Bool, user: String) async throws {
        try await transaction { connection in
            guard
                try await Self.first(
                    String.self, "UPDATE server_user SET disabled = \(disabled) WHERE name = \(user) RETURNING name", on: connection,
                    logger: self.logger) != nil
            else { throw PeopleError.noUser(user) }
            if disabled { try await connection.query("UPDATE token SET state = 'revoked' WHERE \"user\" = \(user)", logger: self.logger) }
        }
    }

    public func setAdmin(_ admin: Bool, user: String) async throws {
        guard try await first(String.self, "UPDATE server_user SET admin = \(admin) WHERE name = \(user) RETURNING name") != nil else {
            throw PeopleError.noUser(user)
        }
    }

    public func isAdmin(_ user: String) async throws -> Bool {
        try await first(Bool.self, "SELECT admin FROM server_user WHERE name = \(user)") ?? false
    }

    public func issueReset(_ digest: String, user: String, expires: Int64) async throws {
        try await transaction { connection in
            guard
                try await Self.first(String.self, "SELECT name FROM server_user WHERE name = \(user)", on: connection, logger: self.logger)
                    != nil
            else { throw PeopleError.noUser(user) }
            try await connection.query(
                """
                INSERT INTO reset_token("user", hash, expires) VALUES (\(user), \(digest), \(expires))
                ON CONFLICT ("user") DO UPDATE SET hash = excluded.hash, expires = excluded.expires
                """, logger: self.logger)
        }
    }

    public func redeemReset(_ digest: String, user: String, hash: String, now: Int64) async throws -> Bool {
        try await transaction { connection in
            guard
                try await Self.first(
                    String.self, "DELETE FROM reset_token WHERE \"user\" = \(user) AND hash = \(digest) AND expires > \(now) RETURNING \"user\"",
                    on: connection, logger: self.logger) != nil
            else { return false }
            try await connection.query("UPDATE server_user SET hash = \(hash) WHERE name = \(user)", logger: self.logger)
            try await connection.query("UPDATE token SET state = 'revoked' WHERE \"user\" = \(user)", logger: self.logger)
            try await connection.query("DELETE FROM login_failure WHERE \"user\" = \(user)", logger: self.logger)
            return true
        }
    }

    public func record(_ event: AuditEvent) async throws {
        try await execute(
            """
            INSERT INTO audit(at, actor, action, subject, ledger, address, detail)
            VALUES (\(event.at), \(event.actor), \(event.action), \(event.subject), \(event.ledger), \(event.address), \(event.detail))
            """)
    }

    public func audit(after id: Int64, user: String?, limit: Int) async throws -> [AuditEvent] {
        let query: PostgresQuery =
            if let user {
                """
                SELECT id, at, actor, action, subject, ledger, address, detail FROM audit
                WHERE id > \(id) AND (actor = \(user) OR subject = \(user)) ORDER BY id LIMIT \(limit)
                """
            } else {
                "SELECT id, at, actor, action, subject, ledger, address, detail FROM audit WHERE id > \(id) ORDER BY id LIMIT \(limit)"
            }
        return try await rows(query) { row in
            let (id, at, actor, action, subject, ledger, address, detail) = try row.decode(
                (Int64, Int64, String, String, String, String, String, String).self)
            return AuditEvent(id: id, at: at, actor: actor, action: action, subject: subject, ledger: ledger, address: address, detail: detail)
        }
    }

    public func attempt(_ user: String, at: Int64, since: Int64, limit: Int) async throws -> [Int64]? {
        try await transaction { connection in
            // One user's attempts take turns (an unknown user has no row to lock).
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("login:" + user)))", logger: self.logger)
            var failures: [Int64] = []
            for try await failure in try await connection.query(
                "SELECT at FROM login_failure WHERE \"user\" = \(user) AND at >= \(since) ORDER BY at", logger: self.logger
            ).decode(Int64.self) {
                failures.append(failure)
            }
            if failures.count >= limit { return failures }
            try await connection.query("DELETE FROM login_failure WHERE at < \(at - 86_400_000)", logger: self.logger)
            try await connection.query("INSERT INTO login_failure(\"user\", at) VALUES (\(user), \(at))", logger: self.logger)
            return nil
        }
    }

    public func clearFailures(of user: String) async throws {
        try await execute("DELETE FROM login_failure WHERE \"user\" = \(user)")
    }

    // MARK: Tokens

    public func issue(user: String, family: String, access: String, refresh: String, now: Int64) async throws {
        try await transaction { connection in
            try await Self.insertPair(connection, user: user, family: family, access: access, refresh: refresh, now: now, logger: self.logger)
        }
    }

    private static func insertPair(
        _ connection: PostgresConnection, user: String, family: String, access: String, refresh: String, now: Int64, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO token(hash, "user", family, kind, expires)
            VALUES (\(access), \(user), \(family), 'access', \(now + Tokens.accessLife)), (\(refresh), \(user), \(family), 'refresh', \(now + Tokens.refreshLife))
            """, logger: logger)
        try await connection.query("DELETE FROM token WHERE expires < \(now - Tokens.refreshLife)", logger: logger)
    }

    public func user(ofAccess digest: String, now: Int64) async throws -> String? {
        try await first(
            String.self,
            """
            SELECT t."user" FROM token t JOIN server_user u ON u.name = t."user"
            WHERE t.hash = \(digest) AND t.kind = 'access' AND t.state = 'live' AND t.expires > \(now) AND NOT u.disabled
            """)
    }

    public func rotate(refresh digest: String, access: String, refresh newRefresh: String, now: Int64) async throws -> Rotation {
        try await transaction { connection in
            // The token's row, locked: the same refresh token presented twice at once is spent once.
            let rows = try await connection.query(
                """
                SELECT t."user", t.family, t.state, t.expires, u.disabled FROM token t JOIN server_user u ON u.name = t."user"
                WHERE t.hash = \(digest) AND t.kind = 'refresh' FOR UPDATE OF t
                """, logger: self.logger)
            var found: (user: String, family: String, state: String, expires: Int64, disabled: Bool)?
            for try await row in rows.decode((String, String, String, Int64, Bool).self) { found = row }
            guard let found else { return .refused }
            switch found.state {
            case "rotated":
                try await connection.query("UPDATE token SET state = 'revoked' WHERE family = \(found.family)", logger: self.logger)
                return .reused(user: found.user)
            case "live" where found.expires > now && !found.disabled:
                try await connection.query("UPDATE token SET state = 'rotated' WHERE hash = \(digest)", logger: self.logger)
                try await connection.query(
                    "UPDATE token SET state = 'revoked' WHERE family = \(found.family) AND kind = 'access'", logger: self.logger)
                try await Self.insertPair(
                    connection, user: found.user, family: found.family, access: access, refresh: newRefresh, now: now, logger: self.logger)
                return .rotated(user: found.user)
            default:
                return .refused
            }
        }
    }

    public func revokeFamily(ofAccess digest: String) async throws {
        try await execute("UPDATE token SET state = 'revoked' WHERE family = (SELECT family FROM token WHERE hash = \(digest))")
    }
}

/// Why a `postgres://` URL cannot be used, in one line naming the part.
public struct PostgresURLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// The parts of `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&pool=N&connect_timeout=S]`.
struct PostgresURL: Equatable {
    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    var sslmode: String
    var pool: Int
    /// Seconds a request waits for a connection (libpq's `connect_timeout`): then 503.
    var connectTimeout: Int

    init(_ url: String) throws(PostgresURLError) {
        let text = PostgresStorage.redacted(url)
        guard let url = URLComponents(string: url), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw PostgresURLError(description: "\(text): not a postgres://USER@HOST/DATABASE URL")
        }
        guard let user = url.user, !user.isEmpty else { throw PostgresURLError(description: "\(text): no user (postgres://USER@HOST/DATABASE)") }
        guard let host = url.host, !host.isEmpty else { throw PostgresURLError(description: "\(text): no host (postgres://USER@HOST/DATABASE)") }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresURLError(description: "\(text): no database name (postgres://USER@HOST/DATABASE)")
        }
        self.user = user.removingPercentEncoding ?? user
        self.password = url.password.map { $0.removingPercentEncoding ?? $0 }
        self.host = host
        self.port = url.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.sslmode = "prefer"
        self.pool = 8
        self.connectTimeout = 5
        for item in url.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("sslmode", let mode) where ["disable", "prefer", "require"].contains(mode): sslmode = mode
            case ("sslmode", let mode):
                throw PostgresURLError(description: "\(text): sslmode \(mode) is not one of disable, prefer, require")
            case ("pool", let count):
                guard let count = Int(count), (1...100).contains(count) else {
                    throw PostgresURLError(description: "\(text): pool \(count) is not a number of connections from 1 to 100")
                }
                pool = count
            case ("connect_timeout", let seconds):
                guard let seconds = Int(seconds), (1...600).contains(seconds) else {
                    throw PostgresURLError(description: "\(text): connect_timeout \(seconds) is not a number of seconds from 1 to 600")
                }
                connectTimeout = seconds
            case (let name, _):
                throw PostgresURLError(description: "\(text): unknown parameter \(name) (sslmode, pool and connect_timeout are known)")
            }
        }
    }

    var tls: PostgresClient.Configuration.TLS {
        switch sslmode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
    }
}
