import CapitalCore
import CapitalStore
import CapitalTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

/// Real processes, real faults: the server SIGKILLed again and again during a large push, a client
/// killed while it applies pages, the server's disk full, and no secret in the server's log or
/// database. After each, the devices and the server agree without a reset.
@Suite(.serialized) struct SyncFaultTests {
    /// A shared ledger on `home` with `transactions` more transactions, each its own change set
    /// (three changes: header, postings, deleted), pending.
    static func device(_ server: TestServer, transactions: Int) throws -> CLI {
        let home = try CLI.initialized()
        SyncCommandTests(server: server).login(home)
        home.ok(["sync", "create", "--name", "Home"])
        let store = try Store.open(path: home.db)
        let day = try Day(iso: "2025-03-01")
        for index in 0..<transactions {
            _ = try store.addTransaction(
                TransactionInput(
                    day: day.advanced(by: index % 300), payee: "Shop \(index)",
                    postings: [
                        PostingInput(account: "VTB Debit", amount: "-\(index % 900 + 1)", field: "p1"),
                        PostingInput(account: "Groceries", amount: nil, field: "p2"),
                    ]))
        }
        return home
    }

    /// Starts `capital ARGS` without waiting.
    static func start(_ cli: CLI, _ args: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["CAPITAL_DB"] = cli.db
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        return process
    }

    /// The server's log: change sets, distinct ids, distinct (device, deviceSeq), the head.
    static func log(_ server: TestServer) throws -> (sets: Int, ids: Int, deviceSeqs: Int, head: Int) {
        try RawDatabase.read(server.database) { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT COUNT(*), COUNT(DISTINCT id), COUNT(DISTINCT device || '/' || deviceSeq), (SELECT MAX(head) FROM ledger) FROM log")!
            return (row[0], row[1], row[2], row[3])
        }
    }

    @Test func theServerKilledTwentyTimesDuringAPushLosesAndDoublesNothing() throws {
        let server = try TestServer()
        let home = try Self.device(server, transactions: 3_400)
        let pending = try #require(try home.json(["sync", "status"]) as? [String: Any])["pending"] as? Int
        #expect(pending == 3_400)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let client = try Self.start(home, ["sync"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &random))
            server.kill()
            client.waitUntilExit()
            try server.start()
        }
        // Resumed without a reset: the next sync sends what is left.
        home.ok(["sync"])
        let status = try #require(try home.json(["sync", "status"]) as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        let log = try Self.log(server)
        // Every change set exactly once: the ledger's first set (create) and the 3 400.
        #expect(log.sets == 3_401 && log.ids == 3_401 && log.deviceSeqs == 3_401 && log.head == 3_401)
        let acknowledged = try RawDatabase.read(home.db) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT serverSeq) FROM changeSet WHERE serverSeq IS NOT NULL")
        }
        #expect(acknowledged == 3_401)
        // A new device holds the same ledger.
        let phone = home.path("phone.sqlite")
        SyncCommandTests(server: server).login(home, db: phone)
        home.ok(["--db", phone, "sync", "join", try #require(status["ledger"] as? String)])
        #expect(home.ok(["balance", "--today", "2026-01-01"]) == home.ok(["--db", phone, "balance", "--today", "2026-01-01"]))
    }

    @Test func aClientKilledWhileApplyingPagesResumesFromItsCursor() throws {
        let server = try TestServer()
        let home = try Self.device(server, transactions: 2_500)
        home.ok(["sync"])
        let ledger = try #require(try home.json(["sync", "status"]) as? [String: Any])["ledger"] as? String
        let phone = try CLI()
        SyncCommandTests(server: server).login(phone)
        // The phone joins from the snapshot; then the home device writes more, and the phone pulls
        // it page by page while being killed.
        phone.ok(["sync", "join", try #require(ledger)])
        phone.ok(["account", "edit", "VTB Debit", "--default"])
        let store = try Store.open(path: home.db)
        for index in 0..<2_500 {
            _ = try store.addTransaction(
                TransactionInput(
                    day: try Day(iso: "2025-06-01"), payee: "Later \(index)",
                    postings: [
                        PostingInput(account: "VTB Debit", amount: "-1", field: "p1"), PostingInput(account: "Groceries", amount: nil, field: "p2"),
                    ]))
        }
        home.ok(["sync"])
        var random = SystemRandomNumberGenerator()
        var cursors: [Int] = []
        for _ in 0..<8 {
            let client = try Self.start(phone, ["sync"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.8, using: &random))
            Foundation.kill(client.processIdentifier, SIGKILL)
            client.waitUntilExit()
            let cursor = try RawDatabase.read(phone.db) { db in try Int.fetchOne(db, sql: "SELECT cursor FROM syncDevice") ?? 0 }
            // Each page and its cursor are one transaction: the cursor never runs ahead of what is applied.
            let applied = try RawDatabase.read(phone.db) { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE payee LIKE 'Later %'") ?? 0
            }
            #expect(applied == cursor - 2_501, "cursor \(cursor), \(applied) applied")
            cursors.append(cursor)
        }
        #expect(cursors == cursors.sorted(), "the cursor went back: \(cursors)")
        let answer = phone.ok(["sync"])
        #expect(answer.contains("the server's log is at 5001"))
        phone.ok(["check"])
        #expect(home.ok(["balance", "--today", "2026-01-01"]) == phone.ok(["balance", "--today", "2026-01-01"]))
    }

    @Test func aFullDiskOnTheServerWritesNothingAndThePushResumes() throws {
        let server = try TestServer()
        let home = try Self.device(server, transactions: 1_000)
        // The server's files may not grow past what they are now plus a little.
        server.stop()
        let largest =
            try [server.database, server.database + "-wal"].compactMap {
                try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int
            }.max() ?? 0
        server.sizeLimit = largest / 512 + 8
        try server.start()
        let before = try Self.log(server)
        let full = home.run(["sync"])
        #expect(full.status == 1)
        #expect(full.stderr.contains("the server could not write (its disk is full or failing): nothing was written"), "\(full.stderr)")
        #expect(full.stderr.contains("1000 changes stay pending"))
        #expect(try Self.log(server) == before)
        server.stop()
        server.sizeLimit = nil
        try server.start()
        home.ok(["sync"])
        #expect(try Self.log(server).head == 1_001)
    }

    /// SIGTERM while a request is in flight (a sign-in hashing a password with scrypt's N = 2^14,
    /// half a second in a debug build): the server stops accepting, answers that request in full, and
    /// exits 0.
    @Test(arguments: storages)
    func sigtermFinishesTheRequestInFlightAndExitsZero(postgres: Bool) throws {
        let server = try TestServer(users: [], postgres: postgres)
        let added = TestServer.run(
            ["user", "add", "slow", "--password-stdin", "--scrypt-log-n", "14"] + server.storage, stdin: TestServer.password + "\n")
        #expect(added.status == 0, "\(added)")
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let body = #"{"user":"slow","password":"\#(TestServer.password)"}"#
        let answer = Mutex<(text: String, at: Date)?>(nil)
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let text = Self.exchange(
                port: port,
                "POST /v1/login HTTP/1.1\r\nHost: 127.0.0.1\r\nCapital-Protocol: 1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            answer.withLock { $0 = (text, Date()) }
            answered.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        let terminated = Date()
        let status = server.stop()
        #expect(answered.wait(timeout: .now() + 30) == .success)
        let (text, at) = try #require(answer.withLock { $0 })
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.contains(#""access":"#))
        #expect(at > terminated, "the sign-in was answered before SIGTERM: it was not in flight")
        #expect(status == 0)
        #expect(Self.exchange(port: port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").isEmpty, "nothing listens after the stop")
    }

    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes; "" when nothing listens.
    static func exchange(port: Int, _ request: String) -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return "" }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The storages the server is tested on: SQLite, and PostgreSQL where it is installed.
    static let storages: [Bool] = TestPostgres.available ? [false, true] : [false]

    /// The server's log at its most talkative (trace), over a whole session of two devices:
    /// sign-in, a wrong password, sharing, entries with amounts and notes, a refused push, sync
    /// both ways, sign-out. No password, token, amount or note appears in it, nor (SQLite) in the
    /// database's files.
    @Test(arguments: storages)
    func noPasswordTokenOrAmountIsInTheServersLog(postgres: Bool) throws {
        let server = try TestServer(log: true, logLevel: "trace", postgres: postgres)
        let sync = SyncCommandTests(server: server)
        let (home, phone, _) = try sync.shared()
        let wrong = home.run(["sync", "login", server.url, "--user", "anna", "--password-stdin"], stdin: "Wrong-horse9\n")
        #expect(wrong.status != 0)
        home.ok(["spend", "98765.43", "Groceries", "--note", "zq7-private-note"])
        home.ok(["--db", phone, "spend", "4321.09", "Groceries", "--payee", "Qx-payee-name"])
        home.ok(["sync"])
        home.ok(["--db", phone, "sync"])
        home.ok(["sync"])
        var secrets = [
            TestServer.password, "Wrong-horse9", "98765.43", "9876543", "98 765", "4321.09", "432109", "zq7-private-note", "Qx-payee-name",
        ]
        for db in [home.db, phone] {
            let tokens = try RawDatabase.read(db) { db in try Row.fetchOne(db, sql: "SELECT access, refresh FROM syncLogin")! }
            secrets += [tokens[0], tokens[1]]
        }
        #expect(home.ok(["sync", "logout"]).hasPrefix("Signed out; pending changes stay here"))
        if !postgres {
            // Revoked on the server, not only forgotten here.
            let live = try RawDatabase.read(server.database) { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM token WHERE state = 'live'")
            }
            #expect(live == 2, "the phone's access and refresh tokens stay; the home's are revoked")
        }
        server.stop()
        let log = String(decoding: try #require(server.logPath.flatMap { FileManager.default.contents(atPath: $0) }), as: UTF8.self)
        // The log is there and says what happened, one line per request with its metadata.
        #expect(log.contains("method=POST") && log.contains("path=/v1/login status=200"), "\(log.prefix(2000))")
        #expect(log.contains("path=/v1/login status=401"))
        #expect(log.split(separator: "\n").filter { $0.contains("path=/v1/ledgers/") && $0.hasSuffix("request") }.count >= 6)
        for secret in secrets { #expect(!log.contains(secret), "the log holds \(secret)") }
        if !postgres {
            for file in [server.database, server.database + "-wal"] {
                let bytes = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
                for secret in secrets.prefix(2) + secrets.suffix(4) { #expect(!bytes.contains(secret), "\(file) holds a secret") }
            }
        }
    }
}
