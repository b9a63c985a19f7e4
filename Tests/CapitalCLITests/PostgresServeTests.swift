import CapitalTestSupport
import Foundation
import Synchronization
import Testing

/// `capital serve --database postgres://…`: the sync commands' end-to-end tests again, with the
/// real server keeping its data in PostgreSQL (a new database on the tests' cluster, migrated by
/// `capital serve migrate`), and the database option's bad input, each one line.
@Suite(.serialized, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipped)))
struct PostgresServeTests {
    let sync: SyncCommandTests

    init() throws { sync = SyncCommandTests(server: try TestServer(postgres: true)) }

    @Test func theHouseholdIsSharedBetweenTwoDevicesAndAnEditTravels() throws { try sync.theHouseholdIsSharedBetweenTwoDevicesAndAnEditTravels() }
    @Test func aCopiedDatabaseBecomesADeviceOfItsOwn() throws { try sync.aCopiedDatabaseBecomesADeviceOfItsOwn() }
    @Test func concurrentRenamesMakeAConflictThatIsResolvedOnEveryDevice() throws {
        try sync.concurrentRenamesMakeAConflictThatIsResolvedOnEveryDevice()
    }
    @Test func badInputIsOneLineAndLosesNothing() throws { try sync.badInputIsOneLineAndLosesNothing() }
    @Test func twoSyncsOfOneDeviceAtOnceRenewItsSignInOnce() throws { try sync.twoSyncsOfOneDeviceAtOnceRenewItsSignInOnce() }
    @Test func theServerRefusesWeakPasswordsAndABusyPort() throws { try sync.theServerRefusesWeakPasswordsAndABusyPort() }

    /// PostgreSQL going away under a running server: `capital sync` hears 503, tries again after
    /// 1, 2 and 4 s, and gets through when PostgreSQL is back within them, its change taken once;
    /// when it stays away, the sync stops in one line with the change pending, and the next sync
    /// after PostgreSQL's return sends it.
    @Test func postgreSQLGoingAwayIsRetriedByTheClientAndNothingIsLost() throws {
        let proxy = Mutex<TCPProxy?>(nil)
        let server = try TestServer(postgres: true) { port in
            let made = try TCPProxy(to: port)
            proxy.withLock { $0 = made }
            return made
        }
        let cut = try #require(proxy.withLock { $0 })
        defer { cut.stop() }
        let home = try CLI.initialized()
        SyncCommandTests(server: server).login(home)
        home.ok(["sync", "create"])
        func head() throws -> Int {
            try #require(try home.json(["sync", "status"]) as? [String: Any])["cursor"] as? Int ?? -1
        }
        // Away for about 1.5 s: the sync's second or third try gets through.
        home.ok(["spend", "100", "Groceries"])
        cut.cut()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { cut.mend() }
        let started = Date()
        let retried = home.run(["sync"])
        #expect(retried.status == 0, "\(retried)")
        #expect(Date().timeIntervalSince(started) > 1)
        let status = try #require(try home.json(["sync", "status"]) as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        let cursor = try head()
        // Away for longer than the tries: one line, the change pending, nothing lost.
        home.ok(["spend", "200", "Groceries"])
        cut.cut()
        let refused = home.run(["sync"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("the server's storage does not answer just now: try again shortly"), "\(refused.stderr)")
        #expect(refused.stderr.contains("1 change stays pending") || refused.stderr.contains("changes stay pending"), "\(refused.stderr)")
        cut.mend()
        var again = home.run(["sync"])
        for _ in 0..<10 where again.status != 0 {
            Thread.sleep(forTimeInterval: 0.5)
            again = home.run(["sync"])
        }
        #expect(again.status == 0, "\(again)")
        #expect(try head() > cursor)
        #expect((try home.json(["sync", "status"]) as? [String: Any])?["pending"] as? Int == 0)
        // A second device joining now holds both entries, each once.
        let phone = home.path("phone.sqlite")
        SyncCommandTests(server: server).login(home, db: phone)
        home.ok(["--db", phone, "sync", "join", try #require(status["ledger"] as? String)])
        let list = home.ok(["--db", phone, "tx", "list", "--format", "csv"])
        #expect(list.split(separator: "\n").filter { $0.contains("Groceries") }.count == 2, "\(list)")
    }

    /// Runs capital-server and expects one line on stderr with `mentions`, nothing on stdout, `status`.
    private func refused(
        _ arguments: [String], status: Int32, _ mentions: [String], environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = TestServer.run(arguments, environment: environment)
        #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("capital serve: error: "), "\(result.stderr)", sourceLocation: sourceLocation)
        for part in mentions { #expect(result.stderr.contains(part), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation) }
        #expect(result.stdout == "", sourceLocation: sourceLocation)
    }

    @Test func badDatabaseArgumentsAreOneLine() throws {
        let server = try TestPostgres.server()
        let base = String(server[...server.lastIndex(of: "/")!])
        // Malformed: exit 64.
        refused(["user", "list", "--database", "http://example.org/x"], status: 64, ["not a postgres://USER@HOST/DATABASE URL"])
        refused(["user", "list", "--database", "postgres://127.0.0.1/x"], status: 64, ["no user"])
        refused(["user", "list", "--database", base], status: 64, ["no database name"])
        let secret = base.replacingOccurrences(of: "//capital@", with: "//capital:hunter2@")
        let shown = TestServer.run(["user", "list", "--database", secret])
        #expect(shown.status == 64 && shown.stderr.contains("capital:***@") && !shown.stderr.contains("hunter2"), "\(shown)")
        refused(
            ["user", "list", "--database", base + "x?sslmode=sometimes"], status: 64, ["sslmode sometimes is not one of disable, prefer, require"])
        refused(["user", "list", "--database", base + "x?pool=0"], status: 64, ["pool 0 is not a number of connections from 1 to 100"])
        refused(["user", "list", "--database", base + "x?colour=red"], status: 64, ["unknown parameter colour"])
        refused(["user", "list"], status: 64, ["--data DIR (SQLite) or --database postgres://USER@HOST/DB"])
        refused(["user", "list", "--data", "/tmp/x", "--database", base + "x"], status: 64, ["one or the other"])
        refused(["migrate", "--data", "/tmp/capital-never"], status: 64, ["migrate is for --database"])
        // A database that does not exist, a user PostgreSQL does not know, nothing listening: the
        // server's reason, at once, and the password never shown.
        refused(["user", "list", "--database", base + "nowhere"], status: 1, ["database \"nowhere\" does not exist"])
        let stranger = base.replacingOccurrences(of: "//capital@", with: "//stranger:s3cret@")
        let result = TestServer.run(["user", "list", "--database", stranger + "postgres"])
        #expect(result.status == 1 && result.stderr.contains("role \"stranger\" does not exist") && result.stderr.contains("stranger:***@"))
        #expect(!result.stderr.contains("s3cret"))
        refused(
            ["user", "list", "--database", "postgres://capital@127.0.0.1:\(ScriptedServer.closedPort())/x"], status: 1,
            ["could not connect: connection refused"])
        // A database never migrated: told what to run; migrate makes it current, once.
        let fresh = try TestPostgres.newDatabase()
        defer { TestPostgres.drop(fresh) }
        refused(
            ["user", "list", "--database", fresh], status: 1,
            ["the schema lacks v1, v2-people, v3-admin, v4-idempotency: run capital serve migrate --database URL first"])
        refused(["--database", fresh, "--port", "0"], status: 1, ["run capital serve migrate"])
        #expect(TestServer.run(["migrate", "--database", fresh]).stdout == "Applied v1, v2-people, v3-admin, v4-idempotency.\n")
        #expect(TestServer.run(["migrate", "--database", fresh]).stdout == "The schema is up to date.\n")
        #expect(TestServer.run(["user", "list", "--database", fresh]).status == 0)
        // The URL from the environment (a password kept out of the command line); --data wins over it.
        #expect(TestServer.run(["user", "list"], environment: ["CAPITAL_DATABASE": fresh]).status == 0)
        refused(["user", "list"], status: 64, ["CAPITAL_DATABASE http://x: not a postgres://"], environment: ["CAPITAL_DATABASE": "http://x"])
        refused(
            ["migrate", "--data", "/tmp/capital-never"], status: 64, ["migrate is for --database"], environment: ["CAPITAL_DATABASE": fresh])
        // A schema a newer capital made: refused, not touched.
        try TestPostgres.psql(fresh, "INSERT INTO capital_schema(position, version) VALUES (99, 'v99-future')")
        refused(["user", "list", "--database", fresh], status: 1, ["the schema has v99-future, made by a newer capital"])
    }
}
