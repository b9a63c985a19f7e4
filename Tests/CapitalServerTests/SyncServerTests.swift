import CapitalCore
import CapitalStore
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import CapitalServer

/// A clock the tests move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64
    init(_ value: Int64) { self.value = value }
    var now: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func advance(_ milliseconds: Int64) {
        lock.lock()
        value += milliseconds
        lock.unlock()
    }
}

/// `capital serve`'s HTTP routes, driven in process (no socket): sign-in, tokens, roles, the
/// protocol check, bodies, and the log's push and pull, each bad input answered in one line.
@Suite struct SyncServerTests {
    static let start: Int64 = 1_750_000_000_000
    static let password = "Correct-horse1"
    static let version: HTTPFields = [HTTPField.Name(SyncWire.versionHeader)!: "\(SyncWire.version)"]

    /// A server with users anna, boris and vera (scrypt made cheap: N = 2^10).
    struct Harness {
        let log: LedgerLog
        let clock: TestClock
        let server: SyncServer
        let file: String

        init(logN: Int = 10) throws {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("capital-server-\(UUID().uuidString).sqlite").path
            log = try LedgerLog(path: file)
            let clock = TestClock(SyncServerTests.start)
            self.clock = clock
            var quiet = Logger(label: "capital-serve-test")
            quiet.logLevel = .critical
            server = SyncServer(storage: log, now: { clock.now }, logN: logN, logger: quiet)
            for name in ["anna", "boris", "vera"] {
                try log.addUser(name, hash: try Passwords.hash(SyncServerTests.password, logN: 10), now: SyncServerTests.start)
            }
        }

        func remove() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }

        func test<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
            try await server.application().test(.router, body)
        }
    }

    static func json(_ value: some Encodable) -> ByteBuffer { ByteBuffer(bytes: try! JSONEncoder().encode(value)) }

    static func headers(_ token: String? = nil) -> HTTPFields {
        var fields = version
        if let token { fields[.authorization] = "Bearer \(token)" }
        return fields
    }

    static func problem(_ response: TestResponse) throws -> SyncWire.Problem {
        #expect(response.headers[.contentType] == "application/problem+json")
        return try JSONDecoder().decode(SyncWire.Problem.self, from: Data(buffer: response.body))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
    }

    static func login(_ client: any TestClientProtocol, _ user: String, _ password: String = password) async throws -> TestResponse {
        try await client.execute(uri: "/v1/login", method: .post, headers: headers(), body: json(SyncWire.Login(user: user, password: password)))
    }

    static func tokens(_ client: any TestClientProtocol, _ user: String) async throws -> SyncWire.Tokens {
        let response = try await login(client, user)
        #expect(response.status == .ok)
        return try decode(SyncWire.Tokens.self, response)
    }

    static func createLedger(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        let response = try await client.execute(
            uri: "/v1/ledgers", method: .post, headers: headers(token), body: json(SyncWire.NewLedger(name: "Home")))
        #expect(response.status == .created)
        return try decode(SyncWire.Ledger.self, response).id
    }

    /// A device's first change sets: a rouble ledger with Cash.
    /// A device's database: in memory, its clock at `milliseconds`, syncing, in RUB.
    static func device(at milliseconds: Int64 = start) throws -> Store {
        var store = try Store.inMemory()
        store.clock = { milliseconds }
        try store.startSync()
        try store.initialize(currency: try Currency("RUB"))
        return store
    }

    static func deviceSets(at milliseconds: Int64 = start) throws -> [ChangeSet] {
        let store = try device(at: milliseconds)
        try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        return try store.pendingChangeSets()
    }

    @Test func signInAnswersTheSameForAnUnknownUserAndAWrongPassword() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let wrong = try await Self.login(client, "anna", "Wrong-horse1")
            let unknown = try await Self.login(client, "nobody", Self.password)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(try Self.problem(wrong).detail == "wrong user name or password")
            #expect(wrong.body == unknown.body)
            let good = try await Self.tokens(client, "anna")
            #expect(good.user == "anna" && good.accessExpiresAt == Self.start + 3_600_000 && good.refreshExpiresAt == Self.start + 7 * 86_400_000)
            #expect(good.access != good.refresh && good.access.count == 43)
        }
    }

    @Test func fiveFailuresInFifteenMinutesLockTheUserOutWithRetryAfter() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            for _ in 0..<5 { #expect(try await Self.login(client, "anna", "Wrong-horse1").status == .unauthorized) }
            let locked = try await Self.login(client, "anna")
            #expect(locked.status == .tooManyRequests)
            #expect(try Self.problem(locked).code == "locked_out")
            #expect(locked.headers[HTTPField.Name("Retry-After")!] == "900")
            // Another user is not locked out; after 15 minutes anna may try again.
            #expect(try await Self.login(client, "boris").status == .ok)
            harness.clock.advance(15 * 60_000 + 1)
            #expect(try await Self.login(client, "anna").status == .ok)
        }
    }

    @Test func loginsInParallelCannotOutrunTheLockout() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.login(client, "anna", "Wrong-horse1").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 3)
        }
    }

    @Test func aMemberCannotPushInAnotherUsersDevicesName() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let boris = try await Self.tokens(client, "boris").access
            let ledger = try await Self.createLedger(client, anna)
            _ = try await client.execute(
                uri: "/v1/ledgers/\(ledger)/members/boris", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "member")))
            let sets = try Self.deviceSets()
            let path = "/v1/ledgers/\(ledger)/changes"
            #expect(
                try await client.execute(uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: [sets[0]])))
                    .status
                    == .ok)
            let forged = try await client.execute(
                uri: path, method: .post, headers: Self.headers(boris), body: Self.json(SyncWire.Push(sets: Array(sets.dropFirst()))))
            #expect(forged.status == .forbidden)
            #expect(try Self.problem(forged).detail == "device \(sets[0].device) pushes for another user than anna")
            #expect(try harness.log.head(ledger) == 1)
            // Members learn whom each device writes for (conflicts name people); others do not.
            let devices = try Self.decode(
                [SyncWire.Device].self, try await client.execute(uri: "/v1/ledgers/\(ledger)/devices", method: .get, headers: Self.headers(boris)))
            #expect(devices == [SyncWire.Device(device: sets[0].device, user: "anna")])
            let vera = try await Self.tokens(client, "vera").access
            #expect(try await client.execute(uri: "/v1/ledgers/\(ledger)/devices", method: .get, headers: Self.headers(vera)).status == .notFound)
        }
    }

    @Test func aUserNameWithAnAtSignIsSharedThroughItsEncodedPath() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try harness.log.addUser("vera@home", hash: try Passwords.hash(Self.password, logN: 10), now: Self.start)
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            let shared = try await client.execute(
                uri: "/v1/ledgers/\(ledger)/members/vera%40home", method: .put, headers: Self.headers(anna),
                body: Self.json(SyncWire.Role(role: "viewer")))
            #expect(shared.status == .ok)
            #expect(try harness.log.role(of: "vera@home", in: ledger) == .viewer)
        }
    }

    @Test func anExpiredAccessTokenIsRefusedAndARefreshTokenRotates() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let first = try await Self.tokens(client, "anna")
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(first.access)).status == .ok)
            harness.clock.advance(3_600_000)
            let expired = try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(first.access))
            #expect(expired.status == .unauthorized)
            #expect(try Self.problem(expired).detail == "the access token has expired or was revoked")
            let rotated = try await client.execute(
                uri: "/v1/refresh", method: .post, headers: Self.headers(), body: Self.json(SyncWire.Refresh(refresh: first.refresh)))
            #expect(rotated.status == .ok)
            let second = try Self.decode(SyncWire.Tokens.self, rotated)
            #expect(second.refresh != first.refresh)
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(second.access)).status == .ok)
            // The rotated token used again: someone holds a copy, so the whole sign-in is revoked.
            let reused = try await client.execute(
                uri: "/v1/refresh", method: .post, headers: Self.headers(), body: Self.json(SyncWire.Refresh(refresh: first.refresh)))
            #expect(reused.status == .unauthorized)
            #expect(try Self.problem(reused).detail.contains("revoked"))
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(second.access)).status == .unauthorized)
            let again = try await client.execute(
                uri: "/v1/refresh", method: .post, headers: Self.headers(), body: Self.json(SyncWire.Refresh(refresh: second.refresh)))
            #expect(again.status == .unauthorized)
        }
    }

    @Test func logoutRevokesTheDevicesTokens() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let tokens = try await Self.tokens(client, "anna")
            let other = try await Self.tokens(client, "anna")
            #expect(try await client.execute(uri: "/v1/logout", method: .post, headers: Self.headers(tokens.access)).status == .noContent)
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(tokens.access)).status == .unauthorized)
            let refresh = try await client.execute(
                uri: "/v1/refresh", method: .post, headers: Self.headers(), body: Self.json(SyncWire.Refresh(refresh: tokens.refresh)))
            #expect(refresh.status == .unauthorized)
            // Another device's sign-in stays.
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(other.access)).status == .ok)
        }
    }

    @Test func aDisabledUserIsSignedOutAndCannotSignIn() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let tokens = try await Self.tokens(client, "anna")
            try harness.log.setDisabled(true, user: "anna")
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(tokens.access)).status == .unauthorized)
            let login = try await Self.login(client, "anna")
            #expect(login.status == .forbidden)
            #expect(try Self.problem(login).detail == "user anna is disabled on this server: ask its operator")
        }
    }

    @Test func rolesDecideWhoReadsWritesAndShares() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let boris = try await Self.tokens(client, "boris").access
            let vera = try await Self.tokens(client, "vera").access
            let ledger = try await Self.createLedger(client, anna)
            let other = try await Self.createLedger(client, boris)
            let push = Self.json(SyncWire.Push(sets: try Self.deviceSets()))
            // Not a member: the ledger does not exist for boris, and anna's token gets 404 on boris's ledger.
            let stranger = try await client.execute(uri: "/v1/ledgers/\(ledger)/snapshot", method: .get, headers: Self.headers(boris))
            #expect(stranger.status == .notFound)
            #expect(try Self.problem(stranger).detail == "no ledger \(ledger) here for boris")
            #expect(try await client.execute(uri: "/v1/ledgers/\(other)/changes", method: .get, headers: Self.headers(anna)).status == .notFound)
            // Only an owner shares.
            let members = "/v1/ledgers/\(ledger)/members"
            #expect(
                try await client.execute(
                    uri: "\(members)/boris", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "member"))
                ).status == .ok)
            #expect(
                try await client.execute(
                    uri: "\(members)/vera", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "viewer"))
                ).status == .ok)
            let notOwner = try await client.execute(
                uri: "\(members)/vera", method: .put, headers: Self.headers(boris), body: Self.json(SyncWire.Role(role: "member")))
            #expect(notOwner.status == .forbidden)
            let badRole = try await client.execute(
                uri: "\(members)/vera", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "admin")))
            #expect(badRole.status == .unprocessableContent)
            #expect(try Self.problem(badRole).detail == "role \"admin\": one of owner, member, viewer")
            let noUser = try await client.execute(
                uri: "\(members)/zoe", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "member")))
            #expect(noUser.status == .notFound)
            // A viewer reads and cannot write; a member writes.
            let viewer = try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: Self.headers(vera), body: push)
            #expect(viewer.status == .forbidden)
            #expect(try Self.problem(viewer).detail.hasPrefix("vera may only read ledger"))
            #expect(try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .get, headers: Self.headers(vera)).status == .ok)
            #expect(
                try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: Self.headers(boris), body: push).status == .ok)
            let listed = try Self.decode(
                [SyncWire.Member].self, try await client.execute(uri: members, method: .get, headers: Self.headers(vera)))
            #expect(listed == [.init(user: "anna", role: "owner"), .init(user: "boris", role: "member"), .init(user: "vera", role: "viewer")])
            // The only owner cannot step down.
            let last = try await client.execute(
                uri: "\(members)/anna", method: .put, headers: Self.headers(anna), body: Self.json(SyncWire.Role(role: "member")))
            #expect(last.status == .conflict)
        }
    }

    @Test func everyRequestCarriesTheProtocolsVersion() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let none = try await client.execute(uri: "/v1/ledgers", method: .get)
            #expect(none.status == .badRequest)
            #expect(try Self.problem(none).code == "protocol")
            let newer = try await client.execute(uri: "/v1/ledgers", method: .get, headers: [HTTPField.Name(SyncWire.versionHeader)!: "2"])
            #expect(try Self.problem(newer).detail == "the client speaks sync protocol 2; this server speaks 1: upgrade the server")
            let older = try await client.execute(uri: "/v1/ledgers", method: .get, headers: [HTTPField.Name(SyncWire.versionHeader)!: "0"])
            #expect(try Self.problem(older).detail == "the client speaks sync protocol 0; this server speaks 1: upgrade capital on this device")
            #expect(older.headers[HTTPField.Name(SyncWire.versionHeader)!] == "1")
            let health = try await client.execute(uri: "/v1/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test func malformedAndOversizedBodiesAreRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let broken = try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(), body: ByteBuffer(string: "{\"user\":"))
            #expect(broken.status == .badRequest)
            #expect(try Self.problem(broken).detail.hasPrefix("the request's body is not the JSON expected: not JSON"))
            let missing = try await client.execute(
                uri: "/v1/login", method: .post, headers: Self.headers(), body: ByteBuffer(string: "{\"user\":\"anna\"}"))
            #expect(try Self.problem(missing).detail == "the request's body is not the JSON expected: no password")
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            let big = ByteBuffer(repeating: UInt8(ascii: " "), count: SyncWire.maxBody + 1)
            let oversized = try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: Self.headers(anna), body: big)
            #expect(oversized.status == .contentTooLarge)
            #expect(try Self.problem(oversized).detail == "the request's body is over 10 MB")
            let badAfter = try await client.execute(uri: "/v1/ledgers/\(ledger)/changes?after=-1", method: .get, headers: Self.headers(anna))
            #expect(try Self.problem(badAfter).detail == "after \"-1\": a whole number from 0 to \(Int64.max)")
        }
    }

    @Test func pushIsIdempotentAndRefusesUnbalancedSkewedAndReusedSets() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            let path = "/v1/ledgers/\(ledger)/changes"
            let sets = try Self.deviceSets()
            let first = try Self.decode(
                SyncWire.Pushed.self,
                try await client.execute(uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: sets))))
            let again = try Self.decode(
                SyncWire.Pushed.self,
                try await client.execute(uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: sets))))
            #expect(first.seqs == Array(1...Int64(sets.count)) && again.seqs == first.seqs && again.head == Int64(sets.count))
            // The same id with other content.
            let forged = ChangeSet(id: sets[0].id, device: sets[0].device, deviceSeq: sets[0].deviceSeq, changes: Array(sets[0].changes.dropLast()))
            let reused = try await client.execute(
                uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: [forged])))
            #expect(try reused.status == .conflict && Self.problem(reused).code == "id_reused")
            // A device whose clock is a day ahead.
            let ahead = try Self.deviceSets(at: Self.start + 86_400_000)
            let skewed = try await client.execute(uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: ahead)))
            #expect(skewed.status == .conflict)
            let skew = try Self.problem(skewed)
            #expect(skew.code == "clock_skew" && skew.detail.contains("86400 s ahead of the server's clock"))
            // An unbalanced transaction, as a modified client would send it.
            let store = try Self.device()
            try store.addAccount(name: "Cash", kind: .cash, currency: nil)
            let day = try Day(iso: "2025-06-15")
            _ = try store.addTransaction(
                TransactionInput(
                    day: day, payee: "Shop",
                    postings: [.init(account: "Cash", amount: "-100", field: "p1"), .init(account: "Groceries", amount: "100", field: "p2")]))
            let pending = try store.pendingChangeSets()
            let last = pending.last!
            let changes = last.changes.map { change -> Change in
                guard change.group == "postings" else { return change }
                return Change(
                    entity: change.entity, record: change.record, group: change.group,
                    value: change.value.replacingOccurrences(of: "-10000", with: "-9999"), hlc: change.hlc, base: change.base)
            }
            let unbalanced = ChangeSet(id: last.id, device: last.device, deviceSeq: last.deviceSeq, changes: changes)
            let refused = try await client.execute(
                uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: Array(pending.dropLast()) + [unbalanced])))
            #expect(refused.status == .unprocessableContent)
            #expect(try Self.problem(refused).detail.contains("balance"))
            // Nothing of that push was appended.
            #expect(try harness.log.head(ledger) == Int64(sets.count))
        }
    }

    @Test func pagesEndWithTheDigestAndAnswersAreCompressedWhenAsked() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        let store = try Self.device()
        for index in 0..<20 { try store.addAccount(name: "Account \(index)", kind: .cash, currency: nil) }
        let sets = try store.pendingChangeSets()
        let canonical = try store.syncCanonical()
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            _ = try await client.execute(
                uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: sets)))
            let partial = try Self.decode(
                SyncWire.Page.self,
                try await client.execute(uri: "/v1/ledgers/\(ledger)/changes?after=0&limit=5", method: .get, headers: Self.headers(anna)))
            #expect(partial.sets.count == 5 && partial.last == 5 && partial.digest == nil)
            let rest = try Self.decode(
                SyncWire.Page.self,
                try await client.execute(uri: "/v1/ledgers/\(ledger)/changes?after=5", method: .get, headers: Self.headers(anna)))
            #expect(rest.last == Int64(sets.count) && rest.head == Int64(sets.count))
            var hash = CapitalCore.SHA256()
            hash.update(canonical)
            #expect(rest.digest == Passwords.hex(hash.finalize()))
            var gzip = Self.headers(anna)
            gzip[.acceptEncoding] = "gzip"
            let compressed = try await client.execute(uri: "/v1/ledgers/\(ledger)/snapshot", method: .get, headers: gzip)
            #expect(compressed.headers[.contentEncoding] == "gzip")
            let plain = try await client.execute(uri: "/v1/ledgers/\(ledger)/snapshot", method: .get, headers: Self.headers(anna))
            #expect(compressed.body.readableBytes * 3 < plain.body.readableBytes)
            var body = compressed.body
            let inflated = try body.decompress(with: .gzip())
            #expect(inflated == plain.body)
        }
    }

    @Test func aPushMayBeGzipCompressedAndABombIsRefused() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            var plain = Self.json(SyncWire.Push(sets: try Self.deviceSets()))
            let compressed = try plain.compress(with: .gzip())
            var headers = Self.headers(anna)
            headers[.contentEncoding] = "gzip"
            let pushed = try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: headers, body: compressed)
            #expect(pushed.status == .ok)
            #expect(try Self.decode(SyncWire.Pushed.self, pushed).head > 0)
            // 11 MB of spaces, compressed to a few kilobytes: refused once inflated past the limit.
            var spaces = ByteBuffer(repeating: UInt8(ascii: " "), count: SyncWire.maxBody + 1_000_000)
            let bomb = try spaces.compress(with: .gzip())
            #expect(bomb.readableBytes < 100_000)
            let refused = try await client.execute(uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: headers, body: bomb)
            #expect(refused.status == .contentTooLarge, "\(String(buffer: refused.body))")
            let notGzip = try await client.execute(
                uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(notGzip.status == .badRequest)
            #expect(try Self.problem(notGzip).detail == "the request's body says Content-Encoding: gzip and is not gzip")
        }
    }

    @Test func metricsCountRequestsPushesRefusalsAndSignInFailuresAndNameNobody() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try await harness.test { client in
            // Sign-in failures: a wrong password, an unknown user, a lockout, a disabled user.
            for _ in 0..<5 { #expect(try await Self.login(client, "vera", "Wrong-horse9").status == .unauthorized) }
            #expect(try await Self.login(client, "vera").status == .tooManyRequests)
            #expect(try await Self.login(client, "nobody", "Wrong-horse9").status == .unauthorized)
            try harness.log.setDisabled(true, user: "boris")
            #expect(try await Self.login(client, "boris").status == .forbidden)
            // A push, the same push again (appended once), and one refused.
            let anna = try await Self.tokens(client, "anna").access
            let ledger = try await Self.createLedger(client, anna)
            let path = "/v1/ledgers/\(ledger)/changes"
            let sets = try Self.deviceSets()
            for _ in 0..<2 {
                let pushed = try await client.execute(
                    uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: sets)))
                #expect(pushed.status == .ok)
            }
            let ahead = try Self.deviceSets(at: Self.start + 86_400_000)
            let skewed = try await client.execute(uri: path, method: .post, headers: Self.headers(anna), body: Self.json(SyncWire.Push(sets: ahead)))
            #expect(skewed.status == .conflict)
            // No sign-in and no protocol header needed.
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: metrics.body)
            /// The value of the series written exactly `series`.
            func value(_ series: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
            }
            #expect(value(#"capital_sign_in_failures_total{reason="password"}"#) == 6, "\(text)")
            #expect(value(#"capital_sign_in_failures_total{reason="locked_out"}"#) == 1)
            #expect(value(#"capital_sign_in_failures_total{reason="disabled"}"#) == 1)
            #expect(value("capital_pushes_total") == 2)
            #expect(value("capital_change_sets_appended_total") == Double(sets.count))
            #expect(value("capital_merge_conflicts_total") == 0)
            #expect(value(#"capital_push_refusals_total{code="clock_skew"}"#) == 1)
            let route = "/v1/ledgers/{ledger}/changes"
            #expect(value(#"capital_http_requests_total{route="\#(route)",method="POST",status="200"}"#) == 2)
            #expect(value(#"capital_http_requests_total{route="\#(route)",method="POST",status="409"}"#) == 1)
            #expect(value(#"capital_http_requests_total{route="/v1/login",method="POST",status="401"}"#) == 6)
            #expect(value(#"capital_http_request_duration_seconds_count{route="\#(route)",method="POST"}"#) == 3)
            #expect(value(#"capital_http_request_duration_seconds_bucket{route="\#(route)",method="POST",le="+Inf"}"#) == 3)
            // Routes, not paths: no ledger, no user name.
            for name in [ledger, "anna", "boris", "vera", "nobody"] { #expect(!text.contains(name), "\(name) in /metrics") }
            // A method no route has counts as "other", whatever the client calls it.
            _ = try await client.execute(uri: "/health", method: HTTPRequest.Method("BREW")!)
            #expect(String(buffer: try await client.execute(uri: "/metrics", method: .get).body).contains(#"method="other""#))
            #expect(!String(buffer: try await client.execute(uri: "/metrics", method: .get).body).contains("BREW"))
        }
    }

    @Test func administratorsManageUsersAndReadTheAuditLogAndOthersCannot() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        try harness.log.setAdmin(true, user: "anna")
        try await harness.test { client in
            let anna = try await Self.tokens(client, "anna").access
            let boris = try await Self.tokens(client, "boris").access
            func call(_ path: String, _ method: HTTPRequest.Method = .post, _ token: String? = anna) async throws -> TestResponse {
                try await client.execute(uri: path, method: method, headers: Self.headers(token))
            }
            // Administrators only: not signed in 401, a member of the server 403.
            #expect(try await call("/v1/admin/users", .get, nil).status == .unauthorized)
            let refused = try await call("/v1/admin/users", .get, boris)
            #expect(refused.status == .forbidden)
            #expect(try Self.problem(refused).detail == "only a server administrator may do that; boris is not one")
            for path in ["/v1/admin/users/vera/disable", "/v1/admin/users/vera/enable", "/v1/admin/users/vera/reset"] {
                #expect(try await call(path, .post, boris).status == .forbidden)
            }
            #expect(try await call("/v1/admin/audit", .get, boris).status == .forbidden)
            let users = try Self.decode([AdminWire.User].self, try await call("/v1/admin/users", .get))
            #expect(users.map(\.name) == ["anna", "boris", "vera"] && users.map(\.admin) == [true, false, false])
            // Disable and enable: a disabled user is signed out and cannot sign in.
            let vera = try await Self.tokens(client, "vera").access
            let disabled = try Self.decode(AdminWire.User.self, try await call("/v1/admin/users/vera/disable"))
            #expect(disabled.disabled)
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(vera)).status == .unauthorized)
            #expect(try await Self.login(client, "vera").status == .forbidden)
            #expect(try Self.decode(AdminWire.User.self, try await call("/v1/admin/users/vera/enable")).disabled == false)
            #expect(try await Self.login(client, "vera").status == .ok)
            let unknown = try await call("/v1/admin/users/nobody/disable")
            #expect(try unknown.status == .notFound && Self.problem(unknown).detail == "no user named nobody on this server")
            let own = try await call("/v1/admin/users/anna/disable")
            #expect(try own.status == .conflict && Self.problem(own).code == "self")
            #expect(try await call("/v1/admin/users/nobody/reset").status == .notFound)
            // A reset token: once, for its user, with a password that follows the rule.
            let reset = try Self.decode(AdminWire.Reset.self, try await call("/v1/admin/users/boris/reset"))
            #expect(reset.user == "boris" && reset.expiresAt == Self.start + 86_400_000 && reset.token.count == 64)
            func redeem(_ user: String, _ token: String, _ password: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/v1/password-reset", method: .post, headers: Self.version,
                    body: Self.json(AdminWire.Redeem(user: user, token: token, password: password)))
            }
            let weak = try await redeem("boris", reset.token, "short")
            #expect(try weak.status == .unprocessableContent && Self.problem(weak).code == "weak_password")
            #expect(try await redeem("boris", reset.token + "x", "New-horse42").status == .unauthorized)
            #expect(try await redeem("vera", reset.token, "New-horse42").status == .unauthorized)
            #expect(try await redeem("boris", reset.token, "New-horse42").status == .noContent)
            #expect(try await redeem("boris", reset.token, "Other-horse42").status == .unauthorized, "a token serves once")
            #expect(try await client.execute(uri: "/v1/ledgers", method: .get, headers: Self.headers(boris)).status == .unauthorized)
            #expect(try await Self.login(client, "boris").status == .unauthorized)
            #expect(try await Self.login(client, "boris", "New-horse42").status == .ok)
            // An expired token.
            let late = try Self.decode(AdminWire.Reset.self, try await call("/v1/admin/users/vera/reset"))
            harness.clock.advance(86_400_000)
            #expect(try await redeem("vera", late.token, "New-horse42").status == .unauthorized)
            // The audit log: each of those, in order, with who, whom and from where.
            let fresh = try await Self.tokens(client, "anna").access
            let page = try Self.decode(AdminWire.Audit.self, try await call("/v1/admin/audit?limit=1000", .get, fresh))
            let lines = page.events.map { "\($0.actor) \($0.action) \($0.subject) \($0.detail)".trimmingCharacters(in: .whitespaces) }
            #expect(
                lines == [
                    "anna sign_in", "boris sign_in", "vera sign_in", "anna user_disabled vera", "vera sign_in_failed  disabled",
                    "anna user_enabled vera", "vera sign_in", "anna reset_issued boris", "boris password_reset",
                    "boris sign_in_failed  password", "boris sign_in", "anna reset_issued vera", "anna sign_in",
                ], "\(lines)")
            #expect(page.events.allSatisfy { $0.address == "-" }, "in-process requests have no address")
            #expect(page.last == page.events.last?.id)
            let next = try Self.decode(AdminWire.Audit.self, try await call("/v1/admin/audit?after=\(page.last)", .get, fresh))
            #expect(next.events.isEmpty && next.last == page.last)
            let forVera = try Self.decode(AdminWire.Audit.self, try await call("/v1/admin/audit?user=vera", .get, fresh))
            #expect(forVera.events.count == 6)
            for bad in ["limit=0", "limit=1001", "after=-1", "after=x"] {
                let answer = try await call("/v1/admin/audit?\(bad)", .get, fresh)
                #expect(try answer.status == .badRequest && Self.problem(answer).code == "malformed", "\(bad)")
            }
        }
    }

    @Test func behindAProxyTheAuditLogTakesTheAddressTheProxyAdded() async throws {
        let harness = try Harness()
        defer { harness.remove() }
        var quiet = Logger(label: "capital-serve-test")
        quiet.logLevel = .critical
        let clock = harness.clock
        for behindProxy in [true, false] {
            let server = SyncServer(storage: harness.log, now: { clock.now }, logN: 10, logger: quiet, behindProxy: behindProxy)
            try await server.application().test(.router) { client in
                var headers = Self.version
                headers[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.9, 198.51.100.7"
                _ = try await client.execute(
                    uri: "/v1/login", method: .post, headers: headers, body: Self.json(SyncWire.Login(user: "anna", password: "wrong")))
            }
        }
        let events = try harness.log.audit(after: 0, user: "anna", limit: 10)
        #expect(events.map(\.address) == ["198.51.100.7", "-"])
        // A failed sign-in's name is the client's text: kept to 64 characters in the log.
        let server = SyncServer(storage: harness.log, now: { clock.now }, logN: 10, logger: quiet)
        try await server.application().test(.router) { client in
            let long = String(repeating: "x", count: 5_000)
            let answer = try await Self.login(client, long, "wrong")
            #expect(answer.status == .unauthorized)
        }
        let last = try #require(try harness.log.audit(after: 0, user: nil, limit: 10).last)
        #expect(last.actor == String(repeating: "x", count: 64) && last.action == "sign_in_failed")
    }

    @Test func aWeakHashIsUpgradedAtSignInAndNoSecretIsStoredInClear() async throws {
        let harness = try Harness(logN: 11)
        defer { harness.remove() }
        try await harness.test { client in
            let tokens = try await Self.tokens(client, "anna")
            #expect(try harness.log.passwordHash(of: "anna")?.hash.hasPrefix("scrypt$11$8$1$") == true)
            #expect(try harness.log.passwordHash(of: "boris")?.hash.hasPrefix("scrypt$10$8$1$") == true)
            let bytes =
                try Data(contentsOf: URL(fileURLWithPath: harness.file))
                + ((try? Data(contentsOf: URL(fileURLWithPath: harness.file + "-wal"))) ?? Data())
            for secret in [tokens.access, tokens.refresh, Self.password] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret.prefix(4))… stored in clear")
            }
            #expect(bytes.range(of: Data(Tokens.digest(tokens.access).utf8)) != nil)
        }
    }

    @Test func passwordsFollowTheRule() throws {
        #expect(Passwords.weakness("Correct-horse1") == nil)
        #expect(Passwords.weakness("short1A!") == "a password needs at least 10 characters (it has 8)")
        #expect(Passwords.weakness("correct-horse1") == "a password needs an upper-case letter")
        #expect(Passwords.weakness("CorrectHorse1") == "a password needs a symbol")
        #expect(Passwords.weakness("Correct-horse") == "a password needs a digit")
        #expect(Passwords.weakness("password") == "a password needs at least 10 characters (it has 8), a digit, an upper-case letter, a symbol")
        let hash = try Passwords.hash("Correct-horse1", logN: 10)
        #expect(Passwords.verify("Correct-horse1", against: hash))
        #expect(!Passwords.verify("Correct-horse2", against: hash))
        #expect(!Passwords.verify("Correct-horse1", against: "scrypt$10$8$1$zz$00"))
        #expect(Passwords.needsUpgrade(hash) && !Passwords.needsUpgrade(hash.replacingOccurrences(of: "scrypt$10$", with: "scrypt$17$")))
    }
}
