import CapitalCore
import CapitalStore
import Foundation

/// One HTTP request of the sync protocol, as the client makes it.
public struct SyncRequest: Sendable {
    public let method: String
    /// The path and query (`/v1/ledgers/ID/changes?after=5`).
    public let path: String
    /// A JSON body.
    public let body: Data?
    /// A bearer token.
    public let token: String?
}

/// A server's answer.
public struct SyncResponse: Sendable {
    public let status: Int
    public let body: Data
    /// An answer of `status` with `body`.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// How requests reach the server: HTTP in the CLI, a server in the same process in tests.
public protocol SyncTransport: Sendable {
    /// Sends `request` to `server` (`http://host:port`). Throws `SyncClientError.unreachable`
    /// when no answer came.
    func send(_ request: SyncRequest, to server: String) throws -> SyncResponse
}

/// Why a sync command stopped, in one line; what was pending stays pending.
public enum SyncClientError: Error, Equatable, CustomStringConvertible {
    /// No answer from the server (exit 3).
    case unreachable(server: String, reason: String, pending: Int)
    /// The server refused, saying why.
    case refused(SyncWire.Problem, pending: Int)
    /// The sign-in expired or was revoked: the device's tokens are forgotten.
    case signedOut(why: String, server: String, user: String, pending: Int)
    case notSignedIn
    case notShared
    case notLinked
    case alreadyLinked(ledger: String)
    case notEmpty(path: String)
    case badServer(String)
    case unexpected(String)

    /// In words without a front end's commands (each front end says how to act on it).
    public var description: String {
        switch self {
        case .unreachable(let server, let reason, let pending):
            "could not reach \(server) (\(reason))" + (pending > 0 ? "; \(Self.pending(pending))" : "")
        case .refused(let problem, let pending):
            pending > 0 ? "\(problem.detail); \(Self.pending(pending))" : problem.detail
        case .signedOut(let why, let server, _, let pending):
            "\(why): sign in to \(server) again" + (pending > 0 ? "; \(Self.pending(pending))" : "")
        case .notSignedIn: "not signed in to a sync server"
        case .notShared: "this ledger is not shared"
        case .notLinked: "this ledger is not linked to a ledger on the server"
        case .alreadyLinked(let ledger): "this ledger is shared already, as ledger \(ledger) on the server"
        case .notEmpty(let path): "\(path): holds a ledger already; a device joins into a new database"
        case .badServer(let url): "URL \"\(url)\": give the server as http://HOST:PORT or https://HOST"
        case .unexpected(let what): "the server answered something unexpected: \(what)"
        }
    }

    /// The exit status: 3 when the server could not be reached, 64 for a URL that is not a
    /// server's (a usage error, as for any malformed argument), else 1.
    public var exitCode: Int32 {
        switch self {
        case .unreachable: 3
        case .badServer: 64
        default: 1
        }
    }

    static func pending(_ count: Int) -> String { "\(count) change\(count == 1 ? "" : "s") stay\(count == 1 ? "s" : "") pending" }
}

/// What a sync did.
public struct SyncOutcome: Equatable, Sendable {
    /// This device's change sets the server took.
    public var pushed = 0
    /// Other devices' change sets applied.
    public var pulled = 0
    /// New conflicts (values that lost to a concurrent edit).
    public var conflicts = 0
    /// Whether the device re-fetched a snapshot because its ledger's digest differed from the server's.
    public var refetched = false
    /// The group values a join took from the server's snapshot.
    public var joined = 0
    /// Whether the digests agree after the sync (nil when not compared: changes were pending).
    public var agrees: Bool?
    /// The log's head after the sync.
    public var head: Int64 = 0
    /// Whether this database turned out to be a copy of another device's and took an identity of its own.
    public var renewed = false
}

/// `capital sync`'s use cases: sign in, share, join, push and pull. Every call to the server
/// goes through `transport`; tokens are refreshed when expired and once more on a 401.
public struct SyncClient: Sendable {
    public let store: Store
    public let transport: any SyncTransport
    /// The pauses before each new try of a request the server answered 503 (its storage did not
    /// answer): 1, 2 and 4 s, then the 503 is the answer. Sending again is safe: a push the server
    /// took already is answered with its numbers, never appended twice.
    public var retryPauses: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]

    /// The client of the ledger in `store`, reaching the server through `transport`.
    public init(store: Store, transport: any SyncTransport) {
        self.store = store
        self.transport = transport
    }

    // MARK: Sign-in

    /// Signs in to `server` as `user` and keeps the tokens in the device's database.
    @discardableResult
    public func login(server: String, user: String, password: String) throws -> SyncLogin {
        let server = try Self.normalized(server)
        if let link = try store.syncLink(), let linked = link.server, linked != server {
            throw SyncClientError.refused(
                SyncWire.Problem(status: 409, code: "linked", detail: "this ledger syncs with \(linked): sign in there"), pending: link.pending)
        }
        let tokens: SyncWire.Tokens = try call(
            "POST", "/v1/login", body: SyncWire.Login(user: user, password: password), server: server, token: nil)
        let login = SyncLogin(server: server, tokens: tokens)
        try store.saveSyncLogin(login)
        return login
    }

    /// Sets `user`'s password on `server` with a one-time `token` a server administrator issued
    /// (no sign-in needed); the server ends every sign-in of theirs. The store is not used.
    public func resetPassword(server: String, user: String, token: String, password: String) throws {
        struct Redeem: Encodable { let user: String, token: String, password: String }
        let server = try Self.normalized(server)
        _ = try send(
            "POST", "/v1/password-reset", json: try JSONEncoder().encode(Redeem(user: user, token: token, password: password)), server: server,
            token: nil)
    }

    /// Revokes the device's tokens on the server and forgets them here (even when the server does
    /// not answer). Returns whether the server revoked them.
    @discardableResult
    public func logout() throws -> Bool {
        guard var login = try store.syncLogin() else { throw SyncClientError.notSignedIn }
        defer { try? store.saveSyncLogin(nil) }
        if login.tokens.accessExpiresAt - 30_000 <= store.clock(), let renewed = try? refresh(login) { login = renewed }
        let response = try? transport.send(SyncRequest(method: "POST", path: "/v1/logout", body: nil, token: login.tokens.access), to: login.server)
        return response?.status == 204
    }

    // MARK: Ledgers

    /// Shares this device's ledger: starts sharing it (when it is not yet) and uploads it as a
    /// new ledger on the server named `name`. Returns the server's ledger.
    public func create(name: String) throws -> (ledger: SyncWire.Ledger, outcome: SyncOutcome) {
        guard let login = try store.syncLogin() else { throw SyncClientError.notSignedIn }
        guard try store.isInitialized() else { throw StoreError.notInitialized(path: store.location) }
        if let link = try store.syncLink(), let ledger = link.ledger { throw SyncClientError.alreadyLinked(ledger: ledger) }
        if try store.syncDeviceID() == nil { try store.startSync() }
        let ledger: SyncWire.Ledger = try call("POST", "/v1/ledgers", body: SyncWire.NewLedger(name: name))
        try store.linkSync(server: login.server, ledger: ledger.id, user: login.user)
        return (ledger, try sync())
    }

    /// Starts this (empty) database on the server's ledger `ledger`: its snapshot, then the log after it.
    public func join(ledger: String) throws -> SyncOutcome {
        guard let login = try store.syncLogin() else { throw SyncClientError.notSignedIn }
        // An empty database, or one a join left shared but empty (its snapshot refused).
        guard try !store.isInitialized(), try store.syncLink()?.ledger == nil || store.syncCursor() == 0 else {
            throw SyncClientError.notEmpty(path: store.location)
        }
        let snapshot = try snapshot(of: Self.escaped(ledger))
        if try store.syncDeviceID() == nil { try store.startSync() }
        try store.linkSync(server: login.server, ledger: ledger, user: login.user)
        let report = try store.applySnapshot(snapshot)
        var outcome = try sync()
        outcome.joined = report.taken
        return outcome
    }

    /// Pushes every pending change set, then pulls every page after the cursor, applying each
    /// with its cursor; then compares digests and, when they differ, re-fetches a snapshot.
    @discardableResult
    public func sync() throws -> SyncOutcome {
        let ledger = try linkedLedger()
        var outcome = SyncOutcome()
        do {
            while true {
                var pending = try store.pendingBodies(limit: SyncWire.pageSize)
                if pending.isEmpty { break }
                // At most 8 MB of JSON a request (the server takes 10): cut between sets. The sets
                // travel as the log keeps them (`SyncWire.Push`'s JSON written around them).
                var size = 0
                let fitting = pending.prefix { set in
                    size += set.body.utf8.count + 1
                    return size <= SyncWire.maxBody * 4 / 5
                }.count
                pending = Array(pending.prefix(max(fitting, 1)))
                let pushed: SyncWire.Pushed
                do {
                    let json = Data(SyncWire.Push.body(sets: pending.map(\.body)).utf8)
                    pushed = try decoded(try send("POST", "/v1/ledgers/\(ledger)/changes", json: json))
                } catch SyncClientError.refused(let problem, _) where problem.code == "device_seq_reused" && !outcome.renewed {
                    // This database is a copy of another device's: it becomes a device of its own,
                    // its pending sets relabelled, and sends them again.
                    try store.renewDeviceIdentity()
                    outcome.renewed = true
                    continue
                }
                try store.acknowledge(zip(pending.map(\.id), pushed.seqs).map { ($0, $1) })
                outcome.pushed += pending.count
            }
            var digest: String?
            while true {
                let cursor = try store.syncCursor()
                let page: SyncWire.Page = try call("GET", "/v1/ledgers/\(ledger)/changes?after=\(cursor)&limit=\(SyncWire.pageSize)")
                let report = try store.applyRemote(page.sets, cursor: page.last)
                outcome.pulled += report.sets
                outcome.conflicts += report.conflicts
                outcome.head = page.head
                if page.last >= page.head || page.sets.isEmpty {
                    digest = page.digest
                    break
                }
            }
            try learnPeers(ledger)
            var verified: (cursor: Int64, digest: String)?
            if let digest, try store.pendingBodies(limit: 1).isEmpty {
                let cursor = try store.syncCursor()
                if outcome.pushed == 0 && outcome.pulled == 0, let last = try store.syncVerified(), last.cursor == cursor, last.digest == digest {
                    // Nothing sent, nothing received since the ledgers were found equal: equal still.
                    outcome.agrees = true
                } else if try Self.digest(store) != digest {
                    let report = try store.applySnapshot(try snapshot(of: ledger))
                    outcome.conflicts += report.conflicts
                    outcome.refetched = true
                    let head = try store.syncCursor()
                    let page: SyncWire.Page = try call("GET", "/v1/ledgers/\(ledger)/changes?after=\(head)&limit=1")
                    outcome.agrees = page.digest.map { (try? Self.digest(store)) == $0 }
                    if outcome.agrees == true, let digest = page.digest { verified = (head, digest) }
                } else {
                    outcome.agrees = true
                }
                if outcome.agrees == true && verified == nil { verified = (cursor, digest) }
            }
            try store.markSynced(verified: verified)
        } catch let error as SyncClientError {
            throw try withPending(error)
        }
        return outcome
    }

    /// Gives `user` `role` (`owner`, `member` or `viewer`) in this device's shared ledger.
    public func share(user: String, role: String) throws -> SyncWire.Member {
        let ledger = try linkedLedger()
        return try call("PUT", "/v1/ledgers/\(ledger)/members/\(Self.escaped(user))", body: SyncWire.Role(role: role))
    }

    /// The shared ledger's members.
    public func members() throws -> [SyncWire.Member] {
        try call("GET", "/v1/ledgers/\(try linkedLedger())/members")
    }

    /// The ledgers the signed-in user is a member of.
    public func ledgers() throws -> [SyncWire.Ledger] { try call("GET", "/v1/ledgers") }

    /// The SHA-256 of the device's canonical shared ledger, as the server computes its own.
    public static func digest(_ store: Store) throws -> String { try store.syncDigest() }

    /// Asks the server whom its devices write for when an open conflict names a device this one
    /// does not know yet (a conflict says who changed what).
    private func learnPeers(_ ledger: String) throws {
        let own = try store.syncDeviceID()
        let known = try store.syncPeers()
        let named = try store.syncConflicts().flatMap { [$0.kept.stamp.device, $0.lost.stamp.device] }
        guard named.contains(where: { $0 != own && known[$0] == nil }) else { return }
        let devices: [SyncWire.Device] = try call("GET", "/v1/ledgers/\(ledger)/devices")
        try store.saveSyncPeers(devices)
    }

    // MARK: Calls

    private func linkedLedger() throws -> String {
        guard try store.syncLogin() != nil else { throw SyncClientError.notSignedIn }
        guard let link = try store.syncLink() else { throw SyncClientError.notShared }
        guard let ledger = link.ledger else { throw SyncClientError.notLinked }
        return Self.escaped(ledger)
    }

    private func withPending(_ error: SyncClientError) throws -> SyncClientError {
        let pending = (try? store.syncLink()?.pending) ?? 0
        switch error {
        case .unreachable(let server, let reason, _): return .unreachable(server: server, reason: reason, pending: pending)
        case .refused(let problem, _): return .refused(problem, pending: pending)
        case .signedOut(let why, let server, let user, _): return .signedOut(why: why, server: server, user: user, pending: pending)
        default: return error
        }
    }

    private struct Empty: Encodable {}

    /// A signed-in call: refreshes the access token when it has expired, and once more when the
    /// server says it has.
    private func call<Answer: Decodable>(_ method: String, _ path: String) throws -> Answer {
        try call(method, path, body: Empty?.none)
    }

    private func call<Answer: Decodable, Body: Encodable>(_ method: String, _ path: String, body: Body?) throws -> Answer {
        try decoded(try send(method, path, json: body.map { try JSONEncoder().encode($0) }))
    }

    /// A signed-in call with a JSON body already written; its answer as it came (a success).
    private func send(_ method: String, _ path: String, json: Data?) throws -> Answered {
        guard var login = try store.syncLogin() else { throw SyncClientError.notSignedIn }
        if login.tokens.accessExpiresAt - 30_000 <= store.clock() { login = try refresh(login) }
        do {
            return try send(method, path, json: json, server: login.server, token: login.tokens.access)
        } catch SyncClientError.refused(let problem, _) where problem.status == 401 {
            login = try refresh(login)
            return try send(method, path, json: json, server: login.server, token: login.tokens.access)
        }
    }

    /// The JSON of the server's snapshot of `ledger` (`SyncWire.Snapshot`), for `Store.applySnapshot`.
    private func snapshot(of ledger: String) throws -> Data {
        try send("GET", "/v1/ledgers/\(ledger)/snapshot", json: nil).response.body
    }

    /// New tokens for `login`, asked for under the database's write lock (`Store.renewSyncLogin`):
    /// two `capital sync` of one device at once renew once, the second taking the first's tokens.
    private func refresh(_ login: SyncLogin) throws -> SyncLogin {
        var failure: (any Error)?
        var refused: (problem: SyncWire.Problem, pending: Int)?
        let renewed = try store.renewSyncLogin(login) { current in
            do {
                let tokens: SyncWire.Tokens = try call(
                    "POST", "/v1/refresh", body: SyncWire.Refresh(refresh: current.tokens.refresh), server: current.server, token: nil)
                return (SyncLogin(server: current.server, tokens: tokens), true)
            } catch SyncClientError.refused(let problem, let pending) where problem.status == 401 {
                refused = (problem, pending)
                return (nil, true)
            } catch {
                failure = error
                return (current, false)
            }
        }
        if let failure { throw failure }
        if let refused {
            throw SyncClientError.signedOut(why: refused.problem.detail, server: login.server, user: login.user, pending: refused.pending)
        }
        guard let renewed else { throw SyncClientError.notSignedIn }
        return renewed
    }

    private func call<Answer: Decodable, Body: Encodable>(_ method: String, _ path: String, body: Body?, server: String, token: String?)
        throws -> Answer
    {
        try decoded(try send(method, path, json: body.map { try JSONEncoder().encode($0) }, server: server, token: token))
    }

    /// A successful answer, and where it came from (for what an error says).
    private struct Answered {
        let response: SyncResponse
        let place: String
    }

    private func decoded<Answer: Decodable>(_ answer: Answered) throws -> Answer {
        do { return try JSONDecoder().decode(Answer.self, from: answer.response.body) } catch {
            throw SyncClientError.unexpected("HTTP \(answer.response.status) without the JSON expected from \(answer.place)")
        }
    }

    private func send(_ method: String, _ path: String, json: Data?, server: String, token: String?) throws -> Answered {
        var response = try transport.send(SyncRequest(method: method, path: path, body: json, token: token), to: server)
        for pause in retryPauses where response.status == 503 {
            Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            response = try transport.send(SyncRequest(method: method, path: path, body: json, token: token), to: server)
        }
        guard (200..<300).contains(response.status) else {
            if let problem = try? JSONDecoder().decode(SyncWire.Problem.self, from: response.body) {
                throw SyncClientError.refused(problem, pending: 0)
            }
            throw SyncClientError.unexpected("HTTP \(response.status) from \(server)\(path.prefix { $0 != "?" }); is this a capital server?")
        }
        return Answered(response: response, place: "\(server)\(path.prefix { $0 != "?" })")
    }

    /// `server` as `scheme://host[:port]`, without a trailing slash.
    public static func normalized(_ server: String) throws -> String {
        var text = server.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil,
            url.path.isEmpty, url.query == nil
        else { throw SyncClientError.badServer(server) }
        return text
    }

    static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? segment
    }
}
