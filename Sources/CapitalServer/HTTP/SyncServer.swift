import CapitalStore
import CompressNIO
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// `capital serve`'s HTTP face: sign-in, tokens, ledgers and members, and each ledger's log (push,
/// pages, snapshot), as JSON under `/v1` with the protocol's version in every request and answer.
/// It decides nothing about ledgers itself: `ServerStorage` appends and merges.
public struct SyncServer: Sendable {
    let storage: any ServerStorage
    let now: @Sendable () -> Int64
    let gate: HashGate
    let logger: Logger
    /// What `GET /metrics` counts.
    public let metrics: ServerMetrics
    /// log2 of scrypt's N for hashes made at login (upgrades); tests make it smaller.
    let logN: Int
    /// A hash of a password nobody has, checked for an unknown user: the same time and answer as a wrong password.
    let decoy: String
    /// Whether a client's address is the last of `X-Forwarded-For` (behind a reverse proxy that
    /// sets it) rather than the connection's (the proxy's).
    let behindProxy: Bool
    /// How long a connection may stay idle before the server closes it (30 s).
    let idleTimeout: Duration
    /// The server's copies of the ledgers it answers about (`GET …/forecast` and the others).
    let copies: LedgerCopies

    /// A server over `storage`; `now` is its clock in milliseconds.
    public init(
        storage: any ServerStorage, now: @escaping @Sendable () -> Int64 = SyncServer.wallClock, logN: Int = Passwords.standardLogN,
        logger: Logger = Logger(label: "capital-serve"), metrics: ServerMetrics = ServerMetrics(), behindProxy: Bool = false,
        idleTimeout: Duration = .seconds(30)
    ) {
        self.idleTimeout = idleTimeout
        self.storage = storage
        self.metrics = metrics
        self.behindProxy = behindProxy
        self.now = now
        self.copies = LedgerCopies(now: now)
        self.gate = HashGate(width: 2)
        self.logN = logN
        self.logger = logger
        self.decoy = (try? Passwords.hash(UUID().uuidString, logN: logN)) ?? ""
    }

    /// The system's clock in milliseconds since 1970.
    public static let wallClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Serves on `host`:`port` until SIGTERM or SIGINT, then finishes the requests in flight and
    /// returns; `running` gets the port listened on (the one given, or the system's pick for 0).
    public func run(host: String, port: Int, running: @escaping @Sendable (Int) -> Void) async throws {
        let app = application(host: host, port: port, running: running)
        do { try await app.runService() } catch let error as IOError {
            throw error.errnoCode == EADDRINUSE
                ? ListenError(message: "\(host):\(port) is in use: stop what listens there or choose another --port")
                : ListenError(message: "could not listen on \(host):\(port): \(error.description)")
        }
    }

    /// Why the server could not start listening, in one line.
    public struct ListenError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The application `run` runs (tests drive it without a socket).
    public func application(host: String = "127.0.0.1", port: Int = 0, running: @escaping @Sendable (Int) -> Void = { _ in })
        -> some ApplicationProtocol
    {
        Application(
            router: router(),
            // A connection idle for `idleTimeout` (none sent, or nothing more after an answer) is
            // closed: idle connections cannot pile up until the server runs out of descriptors.
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000))),
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in running(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Every route, behind the protocol check.
    public func router() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: ProtocolMiddleware(logger: logger, metrics: metrics))
        router.get("/v1/health") { _, _ in try json(["protocol": SyncWire.version]) }
        // For a load balancer or a monitor: no sign-in, no protocol header; 503 when the storage
        // does not answer.
        router.get("/health") { _, _ in
            do { try await storage.checkReachable() } catch {
                logger.error("health: the storage does not answer: \(String(describing: type(of: error)))")
                throw Problem(503, "storage_unreachable", "the server's storage does not answer")
            }
            return try json(["status": "ok", "storage": "ok"])
        }
        // For Prometheus: counts only (see ServerMetrics), no sign-in; docs/server.md shows how a
        // reverse proxy keeps it to the monitoring host.
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.get("/openapi.json") { request, _ in try json(text: OpenAPI.document, for: request) }
        router.post("/v1/login") { request, context in try await login(request, context) }
        router.post("/v1/refresh") { request, context in try await refresh(request, context) }
        router.post("/v1/logout") { request, context in
            let (user, digest) = try await authenticated(request)
            try await storage.revokeFamily(ofAccess: digest)
            await audit(.signOut, by: user, request, context)
            return Response(status: .noContent)
        }
        router.get("/v1/ledgers") { request, _ in try await json(storage.ledgers(of: authenticated(request).user), for: request) }
        router.post("/v1/ledgers") { request, context in
            let user = try await authenticated(request).user
            let body = try await decode(SyncWire.NewLedger.self, request)
            let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, name.count <= 200 else {
                throw Problem(422, "invalid", "name \(quoted(body.name)): a ledger's name needs 1 to 200 characters")
            }
            let id = try await storage.createLedger(name: name, owner: user)
            await audit(.ledgerCreated, by: user, ledger: id, request, context)
            return try json(SyncWire.Ledger(id: id, name: name, role: Role.owner.rawValue, head: 0), status: .created, for: request)
        }
        router.get("/v1/ledgers/:ledger") { request, context in
            let (ledger, role) = try await access(request, context, .viewer)
            let found = try await storage.ledgers(of: authenticated(request).user).first { $0.id == ledger }
            return try json(found ?? SyncWire.Ledger(id: ledger, name: "", role: role.rawValue, head: 0), for: request)
        }
        router.post("/v1/ledgers/:ledger/changes") { request, context in
            let (ledger, _, user) = try await accessing(request, context, .member)
            let push = try await decode(SyncWire.Push.self, request)
            guard push.sets.count <= SyncWire.pageSize else {
                throw Problem(413, "too_large", "\(push.sets.count) change sets in one push; at most \(SyncWire.pageSize)")
            }
            let appended = try await appended(push.sets, to: ledger, by: user)
            return try json(SyncWire.Pushed(seqs: appended.seqs, head: appended.head), for: request)
        }
        router.get("/v1/ledgers/:ledger/changes") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            _ = try AnswerQuery(request, allowed: ["after", "limit"])
            let after = try number(request, "after", default: 0, in: 0...Int64.max)
            let limit = try number(request, "limit", default: Int64(SyncWire.pageSize), in: 1...Int64(SyncWire.pageSize))
            return try await json(storage.page(of: ledger, after: after, limit: Int(limit)), for: request)
        }
        router.get("/v1/ledgers/:ledger/snapshot") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            return try await json(text: storage.snapshot(of: ledger), for: request)
        }
        router.get("/v1/ledgers/:ledger/members") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            return try await json(storage.members(of: ledger), for: request)
        }
        router.get("/v1/ledgers/:ledger/devices") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            return try await json(storage.devices(of: ledger), for: request)
        }
        router.put("/v1/ledgers/:ledger/members/:user") { request, context in
            let (ledger, _) = try await access(request, context, .owner)
            let user = try parameter(context, "user")
            let body = try await decode(SyncWire.Role.self, request)
            guard let role = Role(rawValue: body.role) else {
                throw Problem(422, "invalid", "role \(quoted(body.role)): one of owner, member, viewer")
            }
            try await people { try await storage.setRole(role, of: user, in: ledger) }
            await audit(.roleSet, by: try await authenticated(request).user, subject: user, ledger: ledger, detail: role.rawValue, request, context)
            return try json(SyncWire.Member(user: user, role: role.rawValue), for: request)
        }
        router.delete("/v1/ledgers/:ledger/members/:user") { request, context in
            let user = try parameter(context, "user")
            // Anyone may leave; only an owner removes someone else.
            let (ledger, _) = try await access(request, context, try await authenticated(request).user == user ? .viewer : .owner)
            try await people { try await storage.setRole(nil, of: user, in: ledger) }
            await audit(.memberRemoved, by: try await authenticated(request).user, subject: user, ledger: ledger, request, context)
            return Response(status: .noContent)
        }
        administration(router)
        answers(router)
        quickEntry(router)
        webPages(router)
        return router
    }

    // MARK: Sign-in

    /// Failures per user in `lockoutWindow` before login answers 429.
    static let lockoutFailures = 5
    static let lockoutWindow: Int64 = 15 * 60_000

    private func login(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await decode(SyncWire.Login.self, request)
        return try json(try await signIn(body, request, context), for: request)
    }

    /// Signs `body.user` in with `body.password`: a new token family. Counts and locks out failed
    /// attempts (429), costs an unknown user the same hash as a known one (401 either way), refuses
    /// a disabled user (403), upgrades a weaker stored hash, and records it all in the audit log.
    /// What `POST /v1/login` and the web page's sign-in share.
    func signIn(_ body: SyncWire.Login, _ request: Request, _ context: ServerContext) async throws -> SyncWire.Tokens {
        let now = now()
        // The attempt counts as a failure from now until its password matches.
        if let failures = try await storage.attempt(body.user, at: now, since: now - Self.lockoutWindow, limit: Self.lockoutFailures) {
            // Counted, not recorded one by one: a flood of refused attempts must not flood the
            // audit log (the failures that led to the lockout are in it).
            metrics.signInFailed("locked_out")
            let retry = (failures[failures.count - Self.lockoutFailures] + Self.lockoutWindow - now + 999) / 1000
            throw Problem(
                429, "locked_out", "too many failed sign-ins for \(body.user): try again in \(max(retry, 1) / 60 + 1) minutes",
                headers: ["Retry-After": "\(max(retry, 1))"])
        }
        let stored = try await storage.passwordHash(of: body.user)
        // An unknown user costs the same hash as a known one, and gets the same answer.
        let password = body.password
        let hash = stored?.hash ?? decoy
        let matches = try await gate.run { Passwords.verify(password, against: hash) }
        guard matches, let stored else {
            metrics.signInFailed("password")
            await audit(.signInFailed, by: body.user, detail: "password", request, context)
            throw Problem(401, "unauthorized", "wrong user name or password")
        }
        try await storage.clearFailures(of: body.user)
        if stored.disabled {
            metrics.signInFailed("disabled")
            await audit(.signInFailed, by: body.user, detail: "disabled", request, context)
            throw Problem(403, "forbidden", "user \(body.user) is disabled on this server: ask its operator")
        }
        if Passwords.strength(of: stored.hash) < logN {
            let logN = logN
            let upgraded = try await gate.run { try Passwords.hash(password, logN: logN) }
            try await storage.upgradePasswordHash(upgraded, of: body.user, from: stored.hash)
        }
        let access = Tokens.make()
        let refresh = Tokens.make()
        try await storage.issue(
            user: body.user, family: UUID().uuidString, access: Tokens.digest(access), refresh: Tokens.digest(refresh), now: now)
        await audit(.signIn, by: body.user, request, context)
        return SyncWire.Tokens(
            user: body.user, access: access, accessExpiresAt: now + Tokens.accessLife, refresh: refresh, refreshExpiresAt: now + Tokens.refreshLife)
    }

    private func refresh(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await decode(SyncWire.Refresh.self, request)
        let now = now()
        let access = Tokens.make()
        let refresh = Tokens.make()
        switch try await storage.rotate(
            refresh: Tokens.digest(body.refresh), access: Tokens.digest(access), refresh: Tokens.digest(refresh), now: now)
        {
        case .rotated(let user):
            return try json(
                SyncWire.Tokens(
                    user: user, access: access, accessExpiresAt: now + Tokens.accessLife, refresh: refresh,
                    refreshExpiresAt: now + Tokens.refreshLife), for: request)
        case .reused(let user):
            logger.warning("a rotated refresh token was used again: that sign-in's tokens are revoked")
            await audit(.tokenReused, by: user, request, context)
            throw Problem(401, "unauthorized", "this sign-in was used from two places: it is revoked")
        case .refused:
            throw Problem(401, "unauthorized", "the sign-in has expired or was revoked")
        }
    }

    /// The signed-in user of a request's bearer token, and the token's digest.
    func authenticated(_ request: Request) async throws -> (user: String, digest: String) {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw Problem(401, "unauthorized", "not signed in: run capital sync login")
        }
        let digest = Tokens.digest(String(header.dropFirst(7)))
        guard let user = try await storage.user(ofAccess: digest, now: now()) else {
            throw Problem(401, "unauthorized", "the access token has expired or was revoked")
        }
        return (user, digest)
    }

    /// The ledger a request names, when its user's role there is at least `needed`: a ledger the
    /// user is not a member of does not exist for them (404).
    func access(_ request: Request, _ context: ServerContext, _ needed: Role) async throws -> (String, Role) {
        let (ledger, role, _) = try await accessing(request, context, needed)
        return (ledger, role)
    }

    /// `access`, and the signed-in user (one token look-up for both).
    func accessing(_ request: Request, _ context: ServerContext, _ needed: Role) async throws -> (ledger: String, role: Role, user: String) {
        let user = try await authenticated(request).user
        let ledger = try parameter(context, "ledger")
        guard let role = try await storage.role(of: user, in: ledger) else { throw Problem(404, "not_found", "no ledger \(ledger) here for \(user)") }
        switch (needed, role) {
        case (.member, .viewer):
            throw Problem(403, "forbidden", "\(user) may only read ledger \(ledger) (role viewer): ask its owner for the member role")
        case (.owner, .member), (.owner, .viewer):
            throw Problem(403, "forbidden", "only an owner of ledger \(ledger) may do that; \(user) is \(role.rawValue)")
        default: return (ledger, role, user)
        }
    }

    // MARK: Log

    func append(_ sets: [ChangeSet], to ledger: String, by user: String) async throws -> [Int64] {
        try await appended(sets, to: ledger, by: user).seqs
    }

    /// Appends `sets` pushed by `user`, keeping `answer` with them (`ServerStorage`'s); a refusal as problem JSON.
    func appended(_ sets: [ChangeSet], to ledger: String, by user: String, keeping answer: KeptAnswer? = nil) async throws -> Appended {
        do {
            let appended = try await storage.appended(sets, to: ledger, by: user, now: now(), keeping: answer)
            metrics.pushed(changeSets: appended.added, conflicts: appended.conflicts)
            return appended
        } catch let error as AppendError {
            metrics.pushRefused(code: error.problem.code)
            throw Problem(error.problem.status, error.problem.code, error.description)
        }
    }

    func people(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let error as PeopleError {
            switch error {
            case .noUser: throw Problem(404, "not_found", error.description)
            case .userExists: throw Problem(409, "exists", error.description)
            case .lastOwner: throw Problem(409, "last_owner", error.description)
            }
        }
    }

    /// A path parameter, percent-decoded (a user named `anna@home` arrives as `anna%40home`).
    func parameter(_ context: ServerContext, _ name: String) throws -> String {
        let raw = try context.parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }

    func number(_ request: Request, _ name: String, default value: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int64(text), range.contains(number) else {
            let reason = "a whole number from \(range.lowerBound) to \(range.upperBound)"
            throw Problem(400, "malformed", "\(name) \(quoted(text)): \(reason)", invalidParams: [.init(name: name, reason: reason)])
        }
        return number
    }
}

extension AppendError {
    /// The status and code of the problem answered for this refusal.
    var problem: (status: Int, code: String) {
        switch self {
        case .noLedger: (404, "not_found")
        case .idReused: (409, "id_reused")
        case .deviceSeqReused: (409, "device_seq_reused")
        case .outOfOrder: (409, "out_of_order")
        case .clockSkew: (409, "clock_skew")
        case .invalid: (422, "invalid")
        case .foreignDevice: (403, "forbidden")
        }
    }
}

// MARK: Bodies

/// Keys in order: the same answer is the same bytes.
let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}()

/// `value` as a JSON answer, gzip-compressed past 1 KB when the client accepts it.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, for request: Request? = nil) throws -> Response {
    try json(buffer: ByteBuffer(bytes: try encoder.encode(value)), status: status, for: request)
}

/// An answer of JSON already written (`text`), compressed as `json(_:)` compresses.
func json(text: String, for request: Request) throws -> Response {
    try json(buffer: ByteBuffer(string: text), status: .ok, for: request)
}

private func json(buffer: ByteBuffer, status: HTTPResponse.Status, for request: Request?) throws -> Response {
    var buffer = buffer
    var headers: HTTPFields = [.contentType: "application/json"]
    if buffer.readableBytes > 1024, let accepted = request?.headers[.acceptEncoding], accepted.contains("gzip") {
        // Large answers (a snapshot: tens of megabytes of JSON) at zlib's fastest level: a
        // third of the time for a fifth more bytes.
        let level: Int32 = buffer.readableBytes > 1 << 20 ? 1 : -1  // -1: zlib's default (6)
        buffer = try buffer.compress(with: .gzip(configuration: ZlibConfiguration(compressionLevel: level)))
        headers[.contentEncoding] = "gzip"
        headers[.vary] = "Accept-Encoding"
    }
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
}

/// A request's JSON body (gzip-compressed or not) as `type`: 413 past `SyncWire.maxBody`, 400
/// for what is not that JSON.
func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
    try decoded(type, try await collected(request))
}

/// A body already collected (`collected(_:)`) as `type`: 400 for what is not that JSON.
func decoded<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
    do { return try JSONDecoder().decode(T.self, from: Data(buffer: buffer)) } catch let error as DecodingError {
        throw Problem(400, "malformed", "the request's body is not the JSON expected: \(describe(error))")
    }
}

/// A request's body, uncompressed when it came gzip-compressed: 413 past `SyncWire.maxBody`
/// (refused on its `Content-Length` before it is read).
func collected(_ request: Request) async throws -> ByteBuffer {
    var request = request
    // Refused on its header alone: a client announcing 50 MB is not read, nor waited for.
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > SyncWire.maxBody {
        throw Problem(413, "too_large", "the request's body is over \(SyncWire.maxBody / 1_048_576) MB", headers: ["Connection": "close"])
    }
    var buffer: ByteBuffer
    do { buffer = try await request.collectBody(upTo: SyncWire.maxBody) } catch is NIOTooManyBytesError {
        throw Problem(413, "too_large", "the request's body is over \(SyncWire.maxBody / 1_048_576) MB")
    } catch let error as HTTPError where error.status == .contentTooLarge {
        throw Problem(413, "too_large", "the request's body is over \(SyncWire.maxBody / 1_048_576) MB")
    }
    if request.headers[.contentEncoding] == "gzip" {
        let tooLarge = Problem(413, "too_large", "the request's body is over \(SyncWire.maxBody / 1_048_576) MB once uncompressed")
        do { buffer = try buffer.decompress(with: .gzip(), maxSize: SyncWire.maxBody + 1) } catch let error as CompressNIOError
            where error == .bufferOverflow
        {
            throw tooLarge
        } catch {
            throw Problem(400, "malformed", "the request's body says Content-Encoding: gzip and is not gzip")
        }
        // Inflating stops at the limit: a body that reached it was larger.
        if buffer.readableBytes > SyncWire.maxBody { throw tooLarge }
    }
    return buffer
}

/// A decoding error in one line: what and where.
func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
    }
    switch error {
    case .dataCorrupted(let context): return "not JSON\(path(context))"
    case .keyNotFound(let key, let context): return "no \(key.stringValue)\(path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription)\(path(context))"
    @unknown default: return "\(error)"
    }
}

func quoted(_ text: String) -> String { "\"\(text.count > 60 ? text.prefix(59) + "…" : text)\"" }

// MARK: Errors and the protocol

/// An error answer: RFC 9457 problem details with a machine `code`.
struct Problem: Error, HTTPResponseError {
    let problem: SyncWire.Problem
    let headers: [String: String]
    var status: HTTPResponse.Status { .init(code: problem.status) }

    init(_ status: Int, _ code: String, _ detail: String, headers: [String: String] = [:], invalidParams: [SyncWire.Problem.InvalidParam]? = nil) {
        problem = SyncWire.Problem(status: status, code: code, detail: detail, invalidParams: invalidParams)
        self.headers = headers
    }

    /// A ledger no device has pushed to yet: nothing to answer from or to write to (409), and how
    /// to give it a household over HTTP.
    static func emptyLedger(_ ledger: String) -> Problem {
        Problem(
            409, "empty_ledger",
            "ledger \(ledger) is empty: no device has pushed a household's ledger to it yet, so there is nothing to answer from or write to; "
                + "a device gives it one by pushing its change sets to POST /v1/ledgers/\(ledger)/changes, as capital sync does once the "
                + "device shares its ledger (capital sync create shares one as a new ledger)")
    }

    /// A query parameter that cannot be used: 400, naming it in `invalid-params`.
    static func parameter(_ name: String, _ value: String, _ reason: String) -> Problem {
        Problem(400, "invalid_parameter", "\(name) \(quoted(value)): \(reason)", invalidParams: [.init(name: name, reason: reason)])
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { try response() }

    func response() throws -> Response {
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(problem))))
    }
}

/// Checks every request's `Capital-Protocol`, stamps every answer with the server's, turns every
/// error into problem JSON, counts it for `/metrics`, and logs one line per request with its
/// method, path, status, milliseconds and bytes as metadata (never a header, a query or a body, so
/// never a password, a token or an amount).
struct ProtocolMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger
    let metrics: ServerMetrics
    static let header = HTTPField.Name(SyncWire.versionHeader)!
    static let storageFull = Problem(
        507, "storage_full", "the server could not write (its disk is full or failing): nothing was written; try again later")
    /// A client tries again after `Retry-After` seconds: a push sent again is answered, never appended twice.
    static let storageUnavailable = Problem(
        503, "storage_unavailable", "the server's storage does not answer just now: try again shortly", headers: ["Retry-After": "2"])

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            try check(request)
            response = try await next(request, context)
        } catch let problem as Problem {
            response = try problem.response()
        } catch let error as HTTPError where error.status == .notFound && !OpenAPI.methods(of: request.uri.path).isEmpty {
            // A path the server has, with another method: 405, saying which it takes.
            let allowed = OpenAPI.methods(of: request.uri.path)
            response = try Problem(
                405, "method_not_allowed", "\(request.method) is not a method of \(request.uri.path); it takes \(allowed.joined(separator: ", "))",
                headers: ["Allow": allowed.joined(separator: ", ")]
            ).response()
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : error.status == .contentTooLarge ? "too_large" : "malformed"
            response = try Problem(error.status.code, code, error.body ?? error.status.reasonPhrase).response()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            // A full disk, a file-size limit or a failing one: the transaction rolled back whole.
            logger.error("storage could not write: \(error.extendedResultCode)")
            response = try Self.storageFull.response()
        } catch StorageFault.full(let why) {
            logger.error("storage could not write: \(why)")
            response = try Self.storageFull.response()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            logger.error("storage busy: \(error.extendedResultCode)")
            response = try Self.storageUnavailable.response()
        } catch StorageFault.unavailable(let why) {
            logger.error("storage unavailable: \(why)")
            response = try Self.storageUnavailable.response()
        } catch {
            logger.error("\(request.method) \(request.uri.path): \(String(describing: type(of: error)))")
            response = try Problem(500, "internal", "the server failed: nothing was written; its log says more").response()
        }
        response.headers[Self.header] = "\(SyncWire.version)"
        let elapsed = ContinuousClock.now - started
        metrics.request(route: context.endpointPath, method: request.method.rawValue, status: response.status.code, duration: elapsed)
        let milliseconds = elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000
        // Bytes as they crossed the wire (compressed when they were): what the speed script sums.
        logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)", "ms": "\(milliseconds)",
                "bytes_in": "\(request.headers[.contentLength] ?? "0")", "bytes_out": "\(response.body.contentLength.map(String.init) ?? "?")",
            ])
        return response
    }

    private func check(_ request: Request) throws {
        // The sync protocol is `/v1`'s; the web page and operations' routes are not in it.
        guard request.uri.path.hasPrefix("/v1/"), request.uri.path != "/v1/health" else { return }
        guard let text = request.headers[Self.header] else {
            throw Problem(400, "protocol", "no \(SyncWire.versionHeader) header: this server speaks capital's sync protocol \(SyncWire.version)")
        }
        guard let version = Int(text), version == SyncWire.version else {
            let advice = (Int(text) ?? 0) > SyncWire.version ? "upgrade the server" : "upgrade capital on this device"
            throw Problem(
                400, "protocol", "the client speaks sync protocol \(text); this server speaks \(SyncWire.version): \(advice)")
        }
    }
}

/// At most `width` password hashes at once, each on NIO's thread pool (never on an event loop or
/// Swift's cooperative threads): scrypt takes 128 MB and half a second each.
actor HashGate {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { available = width }

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        if available > 0 {
            available -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
        }
        return try await NIOThreadPool.singleton.runIfActive { try work() }
    }
}
