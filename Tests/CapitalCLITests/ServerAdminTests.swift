import CapitalTestSupport
import Foundation
import Testing

/// The server's administration with the real binaries, on SQLite and PostgreSQL: administrators
/// made by the operator (`capital serve user add --admin`, `user admin`), a reset token issued over
/// HTTP and redeemed with `capital sync reset-password`, and `capital serve audit` showing who did
/// what from where; each bad input one line.
@Suite(.serialized) struct ServerAdminTests {
    /// `METHOD path` on the server, with `token` and a JSON `body`: the status and the body.
    static func call(_ server: TestServer, _ method: String, _ path: String, token: String? = nil, body: String = "") -> (Int, String) {
        let port = Int(server.url.split(separator: ":").last ?? "") ?? 0
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCapital-Protocol: 1\r\nConnection: close\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let answer = SyncFaultTests.exchange(port: port, request)
        let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
        let text = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return (status, text)
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func accessToken(_ server: TestServer, _ user: String, _ password: String = TestServer.password) -> String? {
        let (status, body) = call(server, "POST", "/v1/login", body: #"{"user":"\#(user)","password":"\#(password)"}"#)
        return status == 200 ? object(body)["access"] as? String : nil
    }

    /// Runs `capital-server ARGS` (with the server's storage) and expects one line on stderr naming `mentions`.
    static func refused(
        _ server: TestServer, _ arguments: [String], status: Int32, _ mentions: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = TestServer.run(arguments + server.storage)
        #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        for part in mentions { #expect(result.stderr.contains(part), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation) }
    }

    @Test(arguments: SyncFaultTests.storages)
    func anAdministratorResetsAPasswordAndTheAuditLogTellsWhoDidWhatFromWhere(postgres: Bool) throws {
        let server = try TestServer(users: ["boris"], postgres: postgres)
        let storage = server.storage
        // The operator makes an administrator, and takes the role back.
        let added = TestServer.run(
            ["user", "add", "anna", "--admin", "--password-stdin", "--scrypt-log-n", "10"] + storage, stdin: TestServer.password + "\n")
        #expect(added.stdout == "Added user anna, a server administrator.\n", "\(added)")
        #expect(TestServer.run(["user", "admin", "boris"] + storage).stdout == "boris is a server administrator.\n")
        #expect(TestServer.run(["user", "admin", "boris", "--revoke"] + storage).stdout == "boris is no longer a server administrator.\n")
        let list = TestServer.run(["user", "list"] + storage).stdout.split(separator: "\n")
        #expect(
            list.count == 2 && list[0].hasPrefix("anna\tactive\tsince ") && list[0].hasSuffix("\tadmin") && !list[1].hasSuffix("admin"), "\(list)")
        Self.refused(server, ["user", "admin", "nobody"], status: 1, ["no user named nobody on this server"])
        // Over HTTP: boris may not, anna may.
        let anna = try #require(Self.accessToken(server, "anna"))
        let boris = try #require(Self.accessToken(server, "boris"))
        #expect(Self.call(server, "POST", "/v1/admin/users/boris/reset", token: boris).0 == 403)
        let (status, body) = Self.call(server, "POST", "/v1/admin/users/boris/reset", token: anna)
        #expect(status == 201, "\(body)")
        let token = try #require(Self.object(body)["token"] as? String)
        // Boris redeems it from his device: bad input first, each one line, nothing changed.
        let home = try CLI.initialized()
        #expect(
            home.fails(
                ["sync", "reset-password", server.url, "--user", "boris", "--token", token, "--password-stdin"],
                mentioning: ["password: "], stdin: "short\n"
            ).status == 1)
        #expect(
            home.fails(
                ["sync", "reset-password", server.url, "--user", "boris", "--token", token + "x", "--password-stdin"],
                mentioning: ["that reset token is wrong, used or expired for boris: ask an administrator for a new one"], stdin: "New-horse42\n"
            ).status == 1)
        #expect(
            home.fails(
                ["sync", "reset-password", "ftp://x", "--user", "boris", "--token", token, "--password-stdin"],
                mentioning: ["URL \"ftp://x\""], stdin: "New-horse42\n"
            ).status == 64)
        #expect(
            home.fails(
                ["sync", "reset-password", server.url, "--user", "boris", "--token", token, "--password-stdin"], mentioning: ["--password-stdin"],
                stdin: ""
            ).status == 64)
        // 64 hex digits: typed or pasted as an option's value, never taken for an option.
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        #expect(Self.accessToken(server, "boris") != nil, "the old password still works")
        let changed = home.ok(
            ["sync", "reset-password", server.url, "--user", "boris", "--token", token, "--password-stdin"], stdin: "New-horse42\n")
        #expect(changed == "Changed boris's password; every device of theirs is signed out: capital sync login \(server.url) --user boris\n")
        #expect(Self.call(server, "GET", "/v1/ledgers", token: boris).0 == 401)
        #expect(Self.accessToken(server, "boris") == nil)
        #expect(Self.accessToken(server, "boris", "New-horse42") != nil)
        #expect(
            home.fails(
                ["sync", "reset-password", server.url, "--user", "boris", "--token", token, "--password-stdin"],
                mentioning: ["that reset token is wrong, used or expired"], stdin: "Other-horse42\n"
            ).status == 1)
        // The audit log: the operator's changes, then the requests, with the client's address.
        let audit = TestServer.run(["audit"] + storage)
        #expect(audit.status == 0, "\(audit)")
        let rows = audit.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.allSatisfy { $0.count == 7 }, "\(audit.stdout)")
        let what = rows.map { "\($0[1]) \($0[2]) \($0[3]) \($0[5])" }
        #expect(
            what == [
                "operator user_added boris local", "operator user_added anna local", "operator admin_granted anna local",
                "operator admin_granted boris local", "operator admin_revoked boris local", "anna sign_in - 127.0.0.1",
                "boris sign_in - 127.0.0.1", "anna reset_issued boris 127.0.0.1", "boris sign_in - 127.0.0.1",
                "boris password_reset - 127.0.0.1", "boris sign_in_failed - 127.0.0.1", "boris sign_in - 127.0.0.1",
            ], "\(what)")
        #expect(rows.allSatisfy { $0[0].hasSuffix("Z") && $0[0].count == 20 })
        let last2 = TestServer.run(["audit", "--limit", "2", "--user", "boris", "--format", "json"] + storage)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(last2.stdout.utf8)) as? [[String: Any]])
        #expect(events.map { $0["action"] as? String } == ["sign_in_failed", "sign_in"] && events.first?["detail"] as? String == "password")
        #expect(TestServer.run(["audit", "--since", "2999-01-01"] + storage).stdout == "No events since 2999-01-01.\n")
        Self.refused(server, ["audit", "--limit", "0"], status: 64, ["--limit 0: a number of events, at least 1"])
        Self.refused(server, ["audit", "--since", "yesterday"], status: 64, ["--since yesterday: a day as YYYY-MM-DD"])
        Self.refused(server, ["audit", "--since", "2026-02-30"], status: 64, ["--since 2026-02-30"])
        Self.refused(server, ["audit", "--format", "xml"], status: 64, ["--format xml: table or json"])
    }
}
