import CapitalTestSupport
import Foundation
import Synchronization
import Testing

/// The server under abuse, bounded and on loopback, with the real binary: a thousand idle
/// connections, ten thousand sign-in attempts, a 50 MB body, hostile text in every field. Each
/// time the server keeps answering others.
@Suite(.serialized) struct ServerAbuseTests {
    /// A socket connected to 127.0.0.1:`port`, reads timing out after `timeout` seconds; -1 when refused.
    static func connected(_ port: Int, timeout: Int = 10) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if !ok {
            close(fd)
            return -1
        }
        return fd
    }

    /// Sends `request` on the kept-alive connection `fd` and reads one answer; its status, 0 when the connection failed.
    static func status(on fd: Int32, _ request: [UInt8]) -> Int {
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return 0 }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return 0 }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            guard text.utf8.count - text[..<end.upperBound].utf8.count >= length else { continue }
            return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
    }

    static func port(_ server: TestServer) -> Int { Int(server.url.split(separator: ":").last ?? "") ?? 0 }

    /// Seconds `GET /health` takes, or nil when it does not answer 200.
    static func health(_ server: TestServer) -> Double? {
        let started = Date()
        let answer = SyncFaultTests.exchange(port: port(server), "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return answer.hasPrefix("HTTP/1.1 200") ? Date().timeIntervalSince(started) : nil
    }

    @Test(arguments: SyncFaultTests.storages)
    func aThousandIdleConnectionsAreClosedAndTheServerKeepsServing(postgres: Bool) throws {
        let server = try TestServer(users: [], postgres: postgres, idleTimeout: 2)
        let port = Self.port(server)
        let sockets = (0..<1_000).map { _ in Self.connected(port) }
        defer { for fd in sockets where fd >= 0 { close(fd) } }
        #expect(sockets.allSatisfy { $0 >= 0 })
        let during = Self.health(server)
        #expect(during != nil && during! < 1, "health while 1 000 connections idle: \(String(describing: during))")
        // Each idle connection is closed by the server: a read ends (0 bytes) well within the 10 s the socket waits.
        let started = Date()
        var buffer = [UInt8](repeating: 0, count: 16)
        let closed = sockets.filter { read($0, &buffer, buffer.count) == 0 }.count
        #expect(closed == 1_000)
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(Self.health(server) != nil)
    }

    @Test(arguments: SyncFaultTests.storages)
    func tenThousandSignInAttemptsAreRefusedAfterFiveAndOthersStillSignIn(postgres: Bool) throws {
        let server = try TestServer(users: ["anna", "boris"], postgres: postgres)
        let port = Self.port(server)
        let statuses = Mutex<[Int: Int]>([:])
        let body = #"{"user":"anna","password":"Wrong-horse9"}"#
        let request = Array(
            ("POST /v1/login HTTP/1.1\r\nHost: x\r\nCapital-Protocol: 1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
        // The first five, one at a time: 401 each.
        let first = Self.connected(port)
        for _ in 0..<5 { #expect(Self.status(on: first, request) == 401) }
        close(first)
        // The rest from four threads at once, while boris signs in and /health is asked.
        let started = Date()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                // Each on a connection kept alive, as a client that hammers would.
                var fd = Self.connected(port)
                for _ in 0..<2_499 {
                    var status = Self.status(on: fd, request)
                    if status == 0 {
                        close(fd)
                        fd = Self.connected(port)
                        status = Self.status(on: fd, request)
                    }
                    statuses.withLock { $0[status, default: 0] += 1 }
                }
                close(fd)
                group.leave()
            }
        }
        var slowest = 0.0
        var borisSignedIn = false
        while group.wait(timeout: .now() + 0.2) == .timedOut {
            slowest = max(slowest, Self.health(server) ?? 99)
            if !borisSignedIn { borisSignedIn = ServerAdminTests.accessToken(server, "boris") != nil }
        }
        let counted = statuses.withLock { $0 }
        #expect(counted == [429: 9_996], "\(counted)")
        #expect(slowest < 1, "the slowest /health during the flood took \(slowest) s")
        #expect(borisSignedIn)
        #expect(Date().timeIntervalSince(started) < 120)
        // The lockout is in the audit log as the five failures, not ten thousand lines.
        let audit = TestServer.run(["audit", "--user", "anna", "--limit", "100000"] + server.storage)
        let actions = audit.stdout.split(separator: "\n").map { $0.split(separator: "\t")[2] }
        #expect(actions == ["user_added"] + Array(repeating: "sign_in_failed", count: 5), "\(audit.stdout.prefix(500))")
    }

    @Test func aFiftyMegabyteBodyIsRefusedBeforeItIsRead() throws {
        let server = try TestServer(users: [])
        let fd = Self.connected(Self.port(server))
        defer { close(fd) }
        let head =
            "POST /v1/login HTTP/1.1\r\nHost: x\r\nCapital-Protocol: 1\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n{\"user\":"
        _ = Array(head.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Nothing more is sent: the answer comes from the header alone.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        let answer = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
        #expect(answer.contains("too_large"))
        #expect(Self.health(server) != nil)
    }

    /// SQL-looking and script-looking text in every field a device sends (a ledger's name, an
    /// account, a category, a payee, a note, a tag) is stored and shown back as the same text.
    @Test(arguments: SyncFaultTests.storages)
    func hostileTextTravelsAsText(postgres: Bool) throws {
        let server = try TestServer(postgres: postgres)
        let sync = SyncCommandTests(server: server)
        let sql = "x'); DROP TABLE log; --"
        let script = "<script>alert(\"1\")</script>"
        let home = try CLI.initialized()
        sync.login(home)
        home.ok(["account", "add", sql, "--kind", "cash"])
        home.ok(["category", "add", script])
        home.ok(["spend", "12.34", script, "--from", sql, "--payee", script, "--note", sql, "--tag", "a\"b"])
        home.ok(["sync", "create", "--name", script + sql])
        let status = try #require(try home.json(["sync", "status"]) as? [String: Any])
        let ledger = try #require(status["ledger"] as? String)
        let phone = home.path("phone.sqlite")
        sync.login(home, db: phone)
        home.ok(["--db", phone, "sync", "join", ledger])
        let rows = try #require(try home.json(["--db", phone, "tx", "list", "--format", "json"]) as? [[String: Any]])
        #expect(rows.count == 1, "\(rows)")
        let row = try #require(rows.first)
        #expect(row["payee"] as? String == script && row["note"] as? String == sql, "\(row)")
        #expect(row["from"] as? [String] == [sql], "\(row)")
        #expect(
            try home.ok(["export", "--format", "csv"]).split(separator: "\n").sorted()
                == home.ok(["--db", phone, "export", "--format", "csv"]).split(separator: "\n").sorted())
        // The server's ledger list names it as sent.
        let anna = try #require(ServerAdminTests.accessToken(server, "anna"))
        let (code, body) = ServerAdminTests.call(server, "GET", "/v1/ledgers", token: anna)
        let names = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(code == 200 && names == [script + sql], "\(body)")
        #expect(Self.health(server) != nil)
    }
}
