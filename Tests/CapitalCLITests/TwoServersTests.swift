import CapitalTestSupport
import Foundation
import Synchronization
import Testing

/// Two `capital-server` processes on one PostgreSQL database, behind a proxy that hands each new
/// connection to the other one (round robin): two devices pushing through both, at once, get
/// gapless sequence numbers and converge; a lockout counted on one holds on the other; a key's
/// answer kept by one is answered by the other; and both answer the same after the same push.
@Suite(.serialized, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipped)))
struct TwoServersTests {
    @Test func twoServersOnOnePostgreSQLDatabaseServeOneHousehold() throws {
        let first = try TestServer(postgres: true)
        let second = try TestServer(sharing: first)
        let ports = [first, second].map(IdempotencyTests.port)
        let proxy = try TCPProxy(toEach: ports)
        defer { proxy.stop() }
        let url = "http://127.0.0.1:\(proxy.port)"
        let home = try CLI.household()
        func login(_ db: String?) {
            let arguments = (db.map { ["--db", $0] } ?? []) + ["sync", "login", url, "--user", "anna", "--password-stdin"]
            home.ok(arguments, stdin: TestServer.password + "\n")
        }
        login(nil)
        home.ok(["sync", "create", "--name", "Household"])
        let ledger = try #require((try home.json(["sync", "status"]) as? [String: Any])?["ledger"] as? String)
        let phone = home.path("phone.sqlite")
        login(phone)
        home.ok(["--db", phone, "sync", "join", ledger])
        home.ok(["--db", phone, "account", "edit", "VTB Debit", "--default"])
        // Rounds of entries on both devices, their syncs at the same time, through both servers.
        for round in 1...6 {
            home.ok(["spend", "\(100 + round)", "Groceries", "--payee", "Hm-9f2c \(round)"])
            home.ok(["--db", phone, "spend", "\(200 + round)", "Eating out", "--payee", "Ph-9f2c \(round)"])
            let results = Mutex<[CLI.Result]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result = home.run((index == 1 ? ["--db", phone] : []) + ["sync"])
                results.withLock { $0.append(result) }
            }
            for result in results.withLock({ $0 }) { #expect(result.status == 0, "round \(round): \(result)") }
        }
        for db in [nil, phone, nil] { home.ok((db.map { ["--db", $0] } ?? []) + ["sync"]) }
        // The log: every number from 1 to the head exactly once, whichever server appended it.
        let seqs = try first.rows("SELECT seq FROM log WHERE ledger = '\(ledger)' ORDER BY seq").compactMap { Int($0) }
        #expect(seqs == Array(1...seqs.count) && !seqs.isEmpty, "\(seqs)")
        // Both servers took pushes.
        for server in [first, second] {
            let metrics = ServerAdminTests.call(server, "GET", "/metrics").1
            let pushes = metrics.split(separator: "\n").first { $0.hasPrefix("capital_pushes_total") }
            #expect((pushes?.split(separator: " ").last).flatMap { Double($0) } ?? 0 > 0, "\(server.url): \(pushes ?? "none")")
        }
        // The devices converged: the same transactions (same-day ones listed in each device's own
        // order, issue 51's item 13: compared as sets), and the same answers.
        let listed = ["tx", "list", "--format", "csv"]
        #expect(Set(home.ok(listed).split(separator: "\n")) == Set(home.ok(["--db", phone] + listed).split(separator: "\n")))
        #expect(home.ok(listed).split(separator: "\n").filter { $0.contains("Hm-9f2c ") || $0.contains("Ph-9f2c ") }.count == 12)
        // Both servers answer the same, before and after a quick entry written through one of them.
        let anna = try #require(ServerAdminTests.accessToken(first, "anna"))
        let query = "can-spend?why=true&default-account=VTB+Debit"
        func answers() -> [String] { [first, second].map { ServerAnswersTests.answer($0, anna, ledger, query).1 } }
        let before = answers()
        #expect(before[0] == before[1] && !before[0].isEmpty, "\(before)")
        #expect(before[0] == home.ok(["--db", phone, "can-spend", "--why", "--today", ServerAnswersTests.today, "--format", "json"]))
        let key = [("Idempotency-Key", "two-servers-coffee")]
        let written = IdempotencyTests.post(port: ports[0], anna, ledger, body: IdempotencyTests.coffee, headers: key)
        #expect(written.0 == 201, "\(written)")
        let after = answers()
        #expect(after[0] == after[1] && after[0] != before[0], "\(after)")
        // The key's answer, kept by the first server, is the second's too: nothing written again.
        let head = IdempotencyTests.head(second, anna, ledger)
        let again = IdempotencyTests.post(port: ports[1], anna, ledger, body: IdempotencyTests.coffee, headers: key)
        #expect(again.0 == 201 && again.1 == written.1, "\(again)")
        #expect(IdempotencyTests.head(first, anna, ledger) == head)
        home.ok(["--db", phone, "sync"])
        #expect(after[0] == home.ok(["--db", phone, "can-spend", "--why", "--today", ServerAnswersTests.today, "--format", "json"]))
        // A lockout counted on the first server holds on the second, even with the right password.
        for _ in 0..<5 {
            let (status, _) = ServerAdminTests.call(first, "POST", "/v1/login", body: #"{"user":"vera","password":"Wrong-horse9"}"#)
            #expect(status == 401)
        }
        for server in [second, first] {
            let (status, body) = ServerAdminTests.call(server, "POST", "/v1/login", body: #"{"user":"vera","password":"\#(TestServer.password)"}"#)
            #expect(status == 429, "\(server.url): \(status) \(body)")
        }
        // A sign-in made on one is good on the other; a sign-out on one holds on the other.
        let boris = try #require(ServerAdminTests.accessToken(second, "boris"))
        #expect(ServerAdminTests.call(first, "GET", "/v1/ledgers", token: boris).0 == 200)
        #expect(ServerAdminTests.call(first, "POST", "/v1/logout", token: boris).0 == 204)
        #expect(ServerAdminTests.call(second, "GET", "/v1/ledgers", token: boris).0 == 401)
        withExtendedLifetime(second) {}
    }
}
