import CapitalTestSupport
import Foundation
import Testing

/// `POST …/transactions` with an `Idempotency-Key` (the real server, SQLite and PostgreSQL): the
/// same request sent again with its key is answered as the first time and writes nothing; the key
/// with another body is 422 naming the header; a malformed key is 400 naming it; and an answer lost
/// on the way after the server committed is answered again when the client sends the request again.
@Suite(.serialized) struct IdempotencyTests {
    static let today = ServerAnswersTests.today
    static let coffee = #"{"kind": "spend", "amount": "350", "category": "Eating out", "from": "Cash", "payee": "Kofe-9f2c"}"#
    static let tea = #"{"kind": "spend", "amount": "120", "category": "Eating out", "from": "Cash", "payee": "Chai-9f2c"}"#

    /// `POST /v1/ledgers/{ledger}/transactions` as `token` on `port` with `headers`: the status,
    /// the body and the answer's head (empty when the connection closed before an answer).
    static func post(port: Int, _ token: String, _ ledger: String, body: String, headers: [(String, String)]) -> (Int, String, String) {
        let path = "/v1/ledgers/\(ledger)/transactions?today=\(today)&default-account=VTB+Debit"
        var request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCapital-Protocol: 1\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let answer = SyncFaultTests.exchange(port: port, request + "\r\n" + body)
        let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
        guard let split = answer.range(of: "\r\n\r\n") else { return (status, "", answer) }
        return (status, String(answer[split.upperBound...]), String(answer[..<split.lowerBound]))
    }

    static func port(_ server: TestServer) -> Int { Int(server.url.split(separator: ":").last ?? "") ?? 0 }

    static func head(_ server: TestServer, _ token: String, _ ledger: String) -> Int? {
        ServerAdminTests.object(ServerAdminTests.call(server, "GET", "/v1/ledgers/\(ledger)", token: token).1)["head"] as? Int
    }

    @Test(arguments: SyncFaultTests.storages)
    func aWriteSentTwiceWithOneKeyIsWrittenOnceAndAnsweredTwice(postgres: Bool) throws {
        let server = try TestServer(postgres: postgres)
        let (home, phone, ledger) = try SyncCommandTests(server: server).shared()
        home.ok(["sync", "share", "boris"])
        let anna = try #require(ServerAdminTests.accessToken(server, "anna"))
        let boris = try #require(ServerAdminTests.accessToken(server, "boris"))
        let port = Self.port(server)
        let start = try #require(Self.head(server, anna, ledger))
        let key = ("Idempotency-Key", "9f2c41e0-coffee")
        let first = Self.post(port: port, anna, ledger, body: Self.coffee, headers: [key])
        #expect(first.0 == 201, "\(first)")
        #expect(Self.head(server, anna, ledger) == start + 1)
        // Sent again, twice: the first answer, status and body, and nothing more in the log.
        for _ in 0..<2 {
            let again = Self.post(port: port, anna, ledger, body: Self.coffee, headers: [key])
            #expect(again.0 == 201 && again.1 == first.1, "\(again)")
            #expect(again.2.lowercased().contains("idempotent-replayed: true"), "\(again.2)")
        }
        // The key in its structured-field spelling (quoted) is the same key.
        #expect(Self.post(port: port, anna, ledger, body: Self.coffee, headers: [("Idempotency-Key", "\"9f2c41e0-coffee\"")]).1 == first.1)
        #expect(Self.head(server, anna, ledger) == start + 1)
        // The key with another body, another query, another ledger's path: 422 naming the header, nothing written.
        let reused = Self.post(port: port, anna, ledger, body: Self.tea, headers: [key])
        let problem = ServerAdminTests.object(reused.1)
        #expect(reused.0 == 422 && problem["code"] as? String == "idempotency_key_reused", "\(reused)")
        #expect((problem["invalid-params"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Idempotency-Key"], "\(reused.1)")
        #expect(Self.head(server, anna, ledger) == start + 1)
        // Another person's key is their own: boris's same key writes his entry.
        let his = Self.post(port: port, boris, ledger, body: Self.coffee, headers: [key])
        #expect(his.0 == 201 && his.1 != first.1, "\(his)")
        #expect(Self.head(server, anna, ledger) == start + 2)
        // Without a key each send is a new entry (as before); a new key is a new entry.
        #expect(Self.post(port: port, anna, ledger, body: Self.tea, headers: []).0 == 201)
        #expect(Self.post(port: port, anna, ledger, body: Self.tea, headers: [("Idempotency-Key", "tea-2")]).0 == 201)
        #expect(Self.head(server, anna, ledger) == start + 4)
        // A refused entry keeps nothing under its key: corrected, the key writes it.
        let bad = #"{"kind": "spend", "amount": "-5", "category": "Eating out"}"#
        #expect(Self.post(port: port, anna, ledger, body: bad, headers: [("Idempotency-Key", "fixed")]).0 == 400)
        #expect(Self.head(server, anna, ledger) == start + 4)
        #expect(Self.post(port: port, anna, ledger, body: Self.tea, headers: [("Idempotency-Key", "fixed")]).0 == 201)
        #expect(Self.head(server, anna, ledger) == start + 5)
        // Malformed keys: 400 naming the header, nothing written.
        let malformed: [[(String, String)]] = [
            [("Idempotency-Key", "")], [("Idempotency-Key", String(repeating: "k", count: 256))], [("Idempotency-Key", "two words")],
            [("Idempotency-Key", "ключ")], [("Idempotency-Key", "a"), ("Idempotency-Key", "b")],
        ]
        for headers in malformed {
            let (status, text, _) = Self.post(port: port, anna, ledger, body: Self.coffee, headers: headers)
            let named = (ServerAdminTests.object(text)["invalid-params"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(status == 400 && named == ["Idempotency-Key"], "\(headers): \(status) \(text)")
        }
        #expect(Self.head(server, anna, ledger) == start + 5)
        // Every device holds the coffee once per person who wrote it.
        home.ok(["--db", phone, "sync"])
        let list = home.ok(["--db", phone, "tx", "list", "--format", "csv"])
        #expect(list.split(separator: "\n").filter { $0.contains("Kofe-9f2c") }.count == 2, "\(list)")
        #expect(list.split(separator: "\n").filter { $0.contains("Chai-9f2c") }.count == 3, "\(list)")
    }

    @Test(arguments: SyncFaultTests.storages)
    func anAnswerLostAfterTheCommitIsAnsweredWhenSentAgain(postgres: Bool) throws {
        let server = try TestServer(postgres: postgres)
        let (home, phone, ledger) = try SyncCommandTests(server: server).shared()
        let anna = try #require(ServerAdminTests.accessToken(server, "anna"))
        let proxy = try TCPProxy(to: Self.port(server))
        defer { proxy.stop() }
        let start = try #require(Self.head(server, anna, ledger))
        let key = ("Idempotency-Key", "lost-\(UUID().uuidString)")
        // The request reaches the server, which commits; the answer never reaches the client.
        proxy.loseAnswers()
        let lost = Self.post(port: proxy.port, anna, ledger, body: Self.coffee, headers: [key])
        #expect(lost.0 == 0 && lost.2.isEmpty, "\(lost)")
        #expect(Self.head(server, anna, ledger) == start + 1)
        // Sent again with its key: the answer it would have had, and the entry once.
        proxy.mend()
        let again = Self.post(port: proxy.port, anna, ledger, body: Self.coffee, headers: [key])
        #expect(again.0 == 201, "\(again)")
        let id = try #require(ServerAdminTests.object(again.1)["id"] as? String)
        #expect(Self.head(server, anna, ledger) == start + 1)
        home.ok(["--db", phone, "sync"])
        #expect(home.ok(["--db", phone, "tx", "show", id, "--format", "json"]) == again.1)
        let list = home.ok(["--db", phone, "tx", "list", "--format", "csv"])
        #expect(list.split(separator: "\n").filter { $0.contains("Kofe-9f2c") }.count == 1, "\(list)")
    }
}
