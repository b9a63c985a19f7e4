import ArgumentParser
import CapitalKit
import CapitalStore
import CapitalTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import capital

/// The real `capital-server` on loopback, with its own data folder and users anna, boris and vera
/// (scrypt made cheap for tests: N = 2^10). Stopped with SIGTERM when released.
final class TestServer: @unchecked Sendable {
    static let password = "Correct-horse1"
    /// `capital-server`, built beside `capital`.
    static let executable = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().appendingPathComponent("capital-server").path

    let folder: String
    let process = Process()
    private(set) var url = ""
    private let output = Pipe()

    /// Where the server's log goes (at `logLevel`: `CAPITAL_SERVE_LOG`), or nil for nowhere.
    let logPath: String?
    let logLevel: String
    /// `--idle-timeout` in seconds, or the server's default.
    let idleTimeout: Int?
    /// A file-size limit for the server process in 512-byte blocks (`ulimit -f`), or nil.
    var sizeLimit: Int?

    /// A PostgreSQL database the server keeps its data in (`--database`), else SQLite in `folder`.
    let postgres: String?
    /// Whether the database is this server's own (made, migrated and dropped by it), not another's it shares.
    let ownsDatabase: Bool
    /// `--data FOLDER` or `--database URL`.
    var storage: [String] { postgres.map { ["--database", $0] } ?? ["--data", folder] }

    /// A server with `users`; `postgres`: on a new database of the tests' PostgreSQL, migrated by
    /// `capital serve migrate`, instead of SQLite. `sharing`: another process on that server's
    /// PostgreSQL database (its users, ledgers and tokens), which this one neither migrates nor drops.
    init(
        users: [String] = ["anna", "boris", "vera"], log: Bool = false, logLevel: String = "debug", postgres: Bool = false,
        idleTimeout: Int? = nil, through proxy: ((Int) throws -> TCPProxy)? = nil, sharing other: TestServer? = nil
    ) throws {
        self.idleTimeout = idleTimeout
        self.logLevel = logLevel
        logPath = log ? FileManager.default.temporaryDirectory.appendingPathComponent("capital-serve-\(UUID().uuidString).log").path : nil
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-server-\(UUID().uuidString)").path
        ownsDatabase = other == nil
        self.postgres = try other?.postgres ?? (postgres ? Self.database(through: proxy) : nil)
        if postgres, other == nil {
            let migrated = Self.run(["migrate"] + storage)
            guard migrated.status == 0 else { throw TestServerError(message: "migrate: \(migrated.stderr)") }
        }
        for user in other == nil ? users : [] {
            let result = Self.run(["user", "add", user, "--password-stdin", "--scrypt-log-n", "10"] + storage, stdin: Self.password + "\n")
            guard result.status == 0 else { throw TestServerError(message: "user add \(user): \(result.stderr)") }
        }
        try start()
    }

    /// A new database of the tests' PostgreSQL; with `proxy`, reached through the proxy it makes to
    /// PostgreSQL's port, waiting 2 s for a connection.
    static func database(through proxy: ((Int) throws -> TCPProxy)?) throws -> String {
        let url = try TestPostgres.newDatabase()
        guard let proxy, let port = URLComponents(string: url)?.port else { return url }
        return url.replacingOccurrences(of: ":\(port)/", with: ":\(try proxy(port).port)/") + "?connect_timeout=2"
    }

    /// Starts (or starts again) the server on a free port.
    func start() throws {
        let process = Process()
        let output = Pipe()
        let arguments =
            storage + ["--port", url.isEmpty ? "0" : String(url.split(separator: ":").last!), "--scrypt-log-n", "10"]
            + (idleTimeout.map { ["--idle-timeout", "\($0)"] } ?? [])
        if let sizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -f \(sizeLimit) && exec \"$0\" \"$@\"", Self.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = arguments
        }
        process.standardOutput = output
        if let logPath {
            if !FileManager.default.fileExists(atPath: logPath) { FileManager.default.createFile(atPath: logPath, contents: nil) }
            let handle = FileHandle(forWritingAtPath: logPath)
            handle?.seekToEndOfFile()
            process.standardError = handle
            process.environment = ProcessInfo.processInfo.environment.merging(["CAPITAL_SERVE_LOG": logLevel]) { _, new in new }
        } else {
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        }
        try process.run()
        running = process
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n"), Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "http://"), let end = text[range.lowerBound...].firstIndex(of: " ") else {
            throw TestServerError(message: "the server did not say where it listens: \(text)")
        }
        url = String(text[range.lowerBound..<end])
    }

    private var running: Process?

    /// Stops the server with SIGTERM and waits for it; answers its exit status (nil when it was not running).
    @discardableResult
    func stop() -> Int32? {
        guard let running, running.isRunning else { return nil }
        running.terminate()
        running.waitUntilExit()
        return running.terminationStatus
    }

    /// Ends the server with SIGKILL: no shutdown, no flush.
    func kill() {
        guard let running, running.isRunning else { return }
        Foundation.kill(running.processIdentifier, SIGKILL)
        running.waitUntilExit()
    }

    /// The server's database (its log, people and tokens).
    var database: String { folder + "/capital-server.sqlite" }

    /// The first column of `sql`'s rows in the server's database, SQLite's or PostgreSQL's.
    func rows(_ sql: String) throws -> [String] {
        if let postgres { return try TestPostgres.psql(postgres, sql).map { String($0.split(separator: "|").first ?? "") } }
        return try RawDatabase.read(database) { db in try String.fetchAll(db, sql: sql) }
    }

    deinit {
        stop()
        if let postgres, ownsDatabase { TestPostgres.drop(postgres) }
        try? FileManager.default.removeItem(atPath: folder)
        if let logPath { try? FileManager.default.removeItem(atPath: logPath) }
    }

    struct TestServerError: Error { let message: String }

    /// Runs `capital-server ARGS` to its end.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let input = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return CLI.Result(status: -1, stdout: "", stderr: "\(error)") }
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// `capital sync` against the real server: sharing the sample household between two devices,
/// conflicts and their resolution, and each bad input in one line with nothing lost locally.
@Suite(.serialized) struct SyncCommandTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    init(server: TestServer) { self.server = server }

    func login(_ cli: CLI, _ user: String = "anna", db: String? = nil) {
        cli.ok(
            (db.map { ["--db", $0] } ?? []) + ["sync", "login", server.url, "--user", user, "--password-stdin"], stdin: TestServer.password + "\n")
    }

    /// The household shared from `home`, joined on `phone` (a second database in the same folder).
    func shared() throws -> (CLI, phone: String, ledger: String) {
        let home = try CLI.household()
        login(home)
        home.ok(["sync", "create", "--name", "Household"])
        let status = try #require(try home.json(["sync", "status"]) as? [String: Any])
        let ledger = try #require(status["ledger"] as? String)
        let phone = home.path("phone.sqlite")
        login(home, db: phone)
        let joined = home.ok(["--db", phone, "sync", "join", ledger])
        #expect(joined.contains("no default account yet"))
        // The default account is each device's own.
        home.ok(["--db", phone, "account", "edit", "VTB Debit", "--default"])
        return (home, phone, ledger)
    }

    /// `sync status` is one record as every `show` prints one, its values aligned after the labels.
    @Test func statusIsARecordWithItsValuesAligned() throws {
        let cli = try CLI.initialized()
        let lines = cli.ok(["sync", "status"]).split(separator: "\n")
        #expect(lines.count == 8 && lines.first?.hasPrefix("Server:") == true, "\(lines)")
        let starts = Set(
            lines.map { line in
                line.firstIndex(of: ":").map {
                    line[line.index(after: $0)...].prefix { $0 == " " }.count + line.distance(from: line.startIndex, to: $0)
                } ?? -1
            })
        #expect(starts.count == 1, "values start in one column: \(lines)")
    }

    @Test func theHouseholdIsSharedBetweenTwoDevicesAndAnEditTravels() throws {
        let (home, phone, _) = try shared()
        let today = ["--today", "2025-03-20"]
        #expect(home.ok(["balance"] + today) == home.ok(["--db", phone, "balance"] + today))
        #expect(home.ok(["can-spend", "--why"] + today) == home.ok(["--db", phone, "can-spend", "--why"] + today))
        home.ok(["--db", phone, "spend", "500", "Groceries", "--from", "Cash", "--on", "2025-03-12", "--payee", "Kiosk"])
        #expect(home.ok(["--db", phone, "sync"]).hasPrefix("Synced: sent 1 change set, received 0 change sets"))
        #expect(home.ok(["sync"]).hasPrefix("Synced: sent 0 change sets, received 1 change set"))
        let rows = try home.rows(["tx", "list", "--search", "Kiosk"])
        #expect(rows.count == 1 && rows.first?["spender"] as? String == "anna")
        #expect(home.ok(["balance"] + today) == home.ok(["--db", phone, "balance"] + today))
        home.ok(["check"])
        home.ok(["--db", phone, "check"])
        let status = try #require(try home.json(["--db", phone, "sync", "status"]) as? [String: Any])
        #expect(status["pending"] as? Int == 0 && status["user"] as? String == "anna" && status["conflicts"] as? Int == 0)
        // The tokens sit in a database only its owner may read.
        let mode = try FileManager.default.attributesOfItem(atPath: phone)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aCopiedDatabaseBecomesADeviceOfItsOwn() throws {
        let (home, phone, _) = try shared()
        let tablet = home.path("tablet.sqlite")
        try FileManager.default.copyItem(atPath: phone, toPath: tablet)
        home.ok(["--db", phone, "spend", "300", "Groceries", "--from", "Cash", "--on", "2025-03-12", "--payee", "On the phone"])
        home.ok(["--db", tablet, "spend", "400", "Groceries", "--from", "Cash", "--on", "2025-03-12", "--payee", "On the tablet"])
        home.ok(["--db", tablet, "account", "edit", "Cash", "--note", "edited twice"])
        home.ok(["--db", phone, "sync"])
        let answer = home.ok(["--db", tablet, "sync"])
        #expect(answer.contains("this database was a copy of another device's: it is now a device of its own"), "\(answer)")
        home.ok(["--db", phone, "sync"])
        home.ok(["sync"])
        let payees = try home.rows(["tx", "list", "--search", "On the"]).compactMap { $0["payee"] as? String }.sorted()
        #expect(payees == ["On the phone", "On the tablet"])
        let devices = try [phone, tablet].map { db in
            try #require(try home.json(["--db", db, "sync", "status"]) as? [String: Any])["device"] as? String
        }
        #expect(devices[0] != devices[1])
        for db in [home.db, phone, tablet] {
            home.ok(["--db", db, "sync"])
            home.ok(["--db", db, "check"])
        }
        #expect(home.ok(["balance", "--today", "2025-03-20"]) == home.ok(["--db", tablet, "balance", "--today", "2025-03-20"]))
    }

    @Test func concurrentRenamesMakeAConflictThatIsResolvedOnEveryDevice() throws {
        let (home, phone, _) = try shared()
        home.ok(["account", "edit", "Cash", "--name", "Wallet"])
        home.ok(["--db", phone, "account", "edit", "Cash", "--name", "Purse"])
        home.ok(["sync"])
        let answer = home.ok(["--db", phone, "sync"])
        #expect(answer.contains("1 conflict (capital sync conflicts)"))
        let conflicts = try home.rows(["--db", phone, "sync", "conflicts"]).map { $0.compactMapValues { $0 as? String } }
        let conflict = try #require(conflicts.first)
        #expect(conflicts.count == 1 && conflict["group"] == "name" && conflict["entity"] == "account")
        // Keep this device's name (it lost): written again, it wins everywhere at the next sync.
        let keptName = conflict["kept"]!.contains("Wallet") ? "Purse" : "Wallet"
        let mineLost = conflict["lostBy"] == "this device"
        // In words, naming the person of the other device (the server says whom it writes for).
        let other = keptName == "Wallet" ? "Purse" : "Wallet"
        let what = try #require(conflict["what"])
        #expect(what.contains("changed account") && what.contains("'s name to \(other)") && what.hasSuffix("\(keptName) lost"), "\(what)")
        #expect(what.contains(mineLost ? "anna (device" : "anna's (device") && what.contains(mineLost ? "; your " : "you changed"), "\(what)")
        #expect(home.ok(["--db", phone, "sync", "conflicts"]).contains(what))
        home.ok(["--db", phone, "sync", "conflicts", "resolve", String(conflict["id"]!.prefix(8)), "--keep", mineLost ? "mine" : "theirs"])
        #expect(home.ok(["--db", phone, "sync", "conflicts"]) == "No open conflicts.\n")
        home.ok(["--db", phone, "sync"])
        home.ok(["sync"])
        let names = try home.rows(["account", "list"]).compactMap { $0["name"] as? String }
        let phoneNames = try home.rows(["--db", phone, "account", "list"]).compactMap { $0["name"] as? String }
        #expect(names.contains(keptName) && names == phoneNames)
        home.fails(
            ["--db", phone, "sync", "conflicts", "resolve", String(conflict["id"]!.prefix(8)), "--keep", "mine"], mentioning: ["no open conflict"])
        home.fails(["sync", "conflicts", "resolve", "x", "--keep", "ours"], mentioning: ["--keep 'ours': mine or theirs"])
    }

    @Test func badInputIsOneLineAndLosesNothing() throws {
        let (home, phone, ledger) = try shared()
        // A wrong password: nothing saved.
        let other = home.path("other.sqlite")
        home.fails(
            ["--db", other, "sync", "login", server.url, "--user", "anna", "--password-stdin"], mentioning: ["wrong user name or password"],
            stdin: "Wrong-horse1\n", db: other, unchanged: false)
        home.fails(["--db", other, "sync"], mentioning: ["not signed in"], db: other, unchanged: false)
        // Joining a ledger boris is not a member of.
        login(home, "boris", db: other)
        home.fails(["--db", other, "sync", "join", ledger], mentioning: ["no ledger \(ledger) here for boris"], db: other)
        // A viewer writing: refused, the change stays pending.
        home.ok(["sync", "share", "vera", "--role", "viewer"])
        let viewer = home.path("vera.sqlite")
        login(home, "vera", db: viewer)
        home.ok(["--db", viewer, "sync", "join", ledger])
        home.ok(["--db", viewer, "spend", "100", "Groceries", "--from", "Cash", "--on", "2025-03-12"])
        home.fails(["--db", viewer, "sync"], mentioning: ["vera may only read ledger", "1 change stays pending"], db: viewer, unchanged: false)
        let status = try #require(try home.json(["--db", viewer, "sync", "status"]) as? [String: Any])
        #expect(status["pending"] as? Int == 1)
        home.fails(["sync", "share", "vera", "--role", "admin"], mentioning: ["--role 'admin': one of member, viewer, owner"])
        // A disabled user's sign-in is revoked: one line saying to sign in again.
        #expect(TestServer.run(["user", "disable", "anna"] + server.storage).status == 0)
        home.ok(["--db", phone, "spend", "200", "Groceries", "--from", "Cash", "--on", "2025-03-12"])
        home.fails(["--db", phone, "sync"], mentioning: ["sign in again", "1 change stays pending"], db: phone, unchanged: false)
        #expect(TestServer.run(["user", "enable", "anna"] + server.storage).status == 0)
        login(home, db: phone)
        // An unreachable server: exit 3, the change pending.
        server.stop()
        let unreachable = home.run(["--db", phone, "sync"])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr == "capital: error: could not reach \(server.url) (nothing answers there); 1 change stays pending\n")
        home.fails(
            ["sync", "login", "ftp://example.org", "--user", "anna", "--password-stdin"], mentioning: ["URL \"ftp://example.org\""], stdin: "x\n")
        let ftp = home.run(["sync", "login", "ftp://example.org", "--user", "anna", "--password-stdin"], stdin: "x\n")
        #expect(ftp.status == 64)
        #expect(ftp.stderr == "capital: error: URL \"ftp://example.org\": give the server as http://HOST:PORT or https://HOST\n")
        // Nothing pending, nothing said about it: signing in to a server that does not answer.
        let nowhere = home.run(
            ["--db", home.path("nowhere.sqlite"), "sync", "login", server.url, "--user", "anna", "--password-stdin"],
            stdin: TestServer.password + "\n")
        #expect(nowhere.status == 3)
        #expect(nowhere.stderr == "capital: error: could not reach \(server.url) (nothing answers there)\n")
    }

    /// Two syncs of one device at once, its access token expired, the second renewing the sign-in
    /// while the first is about to: the first holds the database's write lock for its request, the
    /// second waits and takes the first's tokens. (Both spending the one refresh token would have
    /// the server take the second use for a stolen token and revoke the device.)
    @Test func twoSyncsOfOneDeviceAtOnceRenewItsSignInOnce() throws {
        let home = try CLI.household()
        login(home)
        home.ok(["sync", "create"])
        try RawDatabase.write(home.db) { db in try db.execute(sql: "UPDATE syncLogin SET accessExpiresAt = 0") }
        let second = Mutex<Result<SyncOutcome, any Error>?>(nil)
        let finished = DispatchGroup()
        // Just before the first sync asks for new tokens, the second starts on another thread; the
        // first goes on when the second has finished, or after 1.5 s.
        let transport = HookedTransport {
            let store = try! Store.open(path: home.db)
            finished.enter()
            Thread.detachNewThread {
                let outcome = Result { try SyncClient(store: store, transport: HTTPTransport()).sync() }
                second.withLock { $0 = outcome }
                finished.leave()
            }
            _ = finished.wait(timeout: .now() + 1.5)
        }
        let first = Result { try SyncClient(store: try Store.open(path: home.db), transport: transport).sync() }
        finished.wait()
        #expect(throws: Never.self) { try first.get() }
        #expect(throws: Never.self) { try second.withLock { $0 }?.get() }
        home.ok(["sync"])
        // Renewed once: one live refresh token for the device's sign-in, its first one spent.
        let states = try server.rows("SELECT state FROM token WHERE kind = 'refresh' ORDER BY state")
        #expect(states == ["live", "rotated"])
    }

    /// With a proxy in the environment, requests to an http:// server go through libcurl (which
    /// knows proxies and no_proxy) rather than the client's own HTTP: a proxy that does not answer
    /// makes the server unreachable; told not to use it for 127.0.0.1, libcurl signs in, shares
    /// and syncs (a compressed push, paged pulls) as the plain client does.
    @Test func aProxyInTheEnvironmentSendsRequestsThroughLibcurl() throws {
        let home = try CLI.household()
        let proxy = ["http_proxy": "http://127.0.0.1:\(ScriptedServer.closedPort())"]
        let login = ["sync", "login", server.url, "--user", "anna", "--password-stdin"]
        let refused = home.runProcess(login, env: proxy, stdin: TestServer.password + "\n")
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("capital: error: could not reach \(server.url)"))
        let direct = proxy.merging(["no_proxy": "127.0.0.1"]) { _, new in new }
        for arguments in [login, ["sync", "create"], ["sync"]] {
            let result = home.runProcess(arguments, env: direct, stdin: TestServer.password + "\n")
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let status = try #require(try home.json(["sync", "status"]) as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        #expect((status["ledger"] as? String)?.isEmpty == false)
    }

    @Test func theServerRefusesWeakPasswordsAndABusyPort() throws {
        let weak = TestServer.run(["user", "add", "zoe", "--password-stdin"] + server.storage, stdin: "password\n")
        #expect(weak.status == 1)
        #expect(
            weak.stderr
                == "capital serve: error: password: a password needs at least 10 characters (it has 8), a digit, an upper-case letter, a symbol; nothing changed\n"
        )
        let duplicate = TestServer.run(["user", "add", "anna", "--password-stdin"] + server.storage, stdin: TestServer.password + "\n")
        #expect(duplicate.stderr == "capital serve: error: user \"anna\": exists already\n")
        let badName = TestServer.run(["user", "add", "an na", "--password-stdin"] + server.storage, stdin: TestServer.password + "\n")
        #expect(badName.stderr.hasPrefix("capital serve: error: user \"an na\": a user name is 1 to 64 letters"))
        let listed = TestServer.run(["user", "list"] + server.storage)
        #expect(listed.stdout.split(separator: "\n").map { $0.split(separator: "\t").first ?? "" } == ["anna", "boris", "vera"])
        let port = String(server.url.split(separator: ":").last!)
        let busy = TestServer.run(server.storage + ["--port", port])
        #expect(busy.status == 1)
        #expect(
            busy.stderr == "capital serve: error: --port \(port): 127.0.0.1:\(port) is in use: stop what listens there or choose another --port\n")
        // `capital serve` runs capital-server with its arguments.
        let cli = try CLI()
        let forwarded = cli.runProcess(["serve", "user", "list"] + server.storage)
        #expect(forwarded.status == 0 && forwarded.stdout == listed.stdout)
    }
}

/// The README's lines that share the ledger between two devices run as written, against the test
/// server (its address for 127.0.0.1:8080, the password on standard input, the ledger's id for
/// LEDGER-ID); the server's own lines parse to `capital serve`.
@Suite struct ReadmeShareTests {
    static func lines() throws -> [String] {
        let readme = try String(contentsOfFile: CLI.root.appendingPathComponent("README.md").path, encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "Share the ledger between two devices").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n").map { String($0.split(separator: "#").first ?? "") }
    }

    @Test func theReadmesShareLinesRun() throws {
        let lines = try Self.lines()
        #expect(lines.count == 3)
        let server = try TestServer()
        let cli = try CLI.household()
        var ledger = ""
        for line in lines {
            for command in line.components(separatedBy: "&&") {
                var words = DocExamplesTests.split(command).filter { !["(", ")", "&"].contains($0) }
                words = words.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()&")) }.filter { !$0.isEmpty }
                #expect(words.first == "capital", "\(command)")
                var args = Array(words.dropFirst())
                if args.first == "serve" {
                    #expect(try Capital.parseAsRoot(args) is Capital.Serve)
                    continue
                }
                args = args.map {
                    $0 == "http://127.0.0.1:8080" ? server.url : $0 == "LEDGER-ID" ? ledger : $0 == "phone.sqlite" ? cli.path("phone.sqlite") : $0
                }
                let login = args.contains("login")
                let output = cli.ok(args + (login ? ["--password-stdin"] : []), stdin: login ? TestServer.password + "\n" : nil)
                if args.contains("create"), let range = output.range(of: #"\(([0-9a-f-]{36})\)"#, options: .regularExpression) {
                    ledger = String(output[range].dropFirst().dropLast())
                }
            }
        }
        #expect(!ledger.isEmpty)
        #expect(cli.ok(["balance", "--today", "2025-04-01"]) == cli.ok(["--db", cli.path("phone.sqlite"), "balance", "--today", "2025-04-01"]))
    }
}

/// HTTP that runs `hook` once, just before the first request for new tokens.
final class HookedTransport: SyncTransport, @unchecked Sendable {
    private let hook: Mutex<(() -> Void)?>

    init(_ hook: @escaping () -> Void) { self.hook = Mutex(hook) }

    func send(_ request: SyncRequest, to server: String) throws -> SyncResponse {
        if request.path == "/v1/refresh",
            let hook = hook.withLock({ hook in
                defer { hook = nil }; return hook
            })
        {
            hook()
        }
        return try HTTPTransport().send(request, to: server)
    }
}
