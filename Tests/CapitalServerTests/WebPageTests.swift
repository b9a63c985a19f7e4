import CapitalCore
import CapitalStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CapitalServer

/// The web page's sign-in and sign-out: a session cookie (HttpOnly, SameSite=Strict), a CSRF
/// token on every form (a form without it, or with another, refused and nothing done), and a
/// Content-Security-Policy that allows no script on every page.
@Suite struct WebPageTests {
    /// The value of the cookie `name` a response sets, and the whole header.
    static func setCookie(_ response: TestResponse, _ name: String) -> (value: String, header: String)? {
        for header in response.headers[values: .setCookie] where header.hasPrefix(name + "=") {
            let value = header.dropFirst(name.count + 1).prefix { $0 != ";" }
            return (String(value), header)
        }
        return nil
    }

    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(
            string: fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    @Test func aPersonSignsInWithACookieAndOut() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            // No session: the sign-in form, its CSRF token in a cookie and a field; no protocol header needed.
            let first = try await client.execute(uri: "/", method: .get)
            #expect(first.status == .ok && first.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(first.headers[HTTPField.Name("Content-Security-Policy")!])
            #expect(policy.contains("default-src 'none'") && !policy.contains("script-src") && policy.contains("frame-ancestors 'none'"))
            let csrf = try #require(Self.setCookie(first, SyncServer.csrfCookie))
            #expect(csrf.header.contains("HttpOnly") && csrf.header.contains("SameSite=Strict"))
            let html = String(buffer: first.body)
            #expect(html.contains("name=\"csrf\" value=\"\(csrf.value)\"") && html.contains("action=\"/session\"") && !html.contains("<script"))
            let cookie: HTTPFields = [.cookie: "\(SyncServer.csrfCookie)=\(csrf.value)"]
            // Without the token, with another, or without the cookie: 403, and no session.
            for (headers, token) in [(cookie, ""), (cookie, "forged"), (HTTPFields(), csrf.value)] {
                var fields = headers
                fields[.contentType] = "application/x-www-form-urlencoded"
                let refused = try await client.execute(
                    uri: "/session", method: .post, headers: fields,
                    body: Self.form([("user", "anna"), ("password", SyncServerTests.password), ("csrf", token)]))
                #expect(refused.status == .forbidden && Self.setCookie(refused, SyncServer.sessionCookie) == nil, "\(token)")
            }
            var posting = cookie
            posting[.contentType] = "application/x-www-form-urlencoded"
            // A wrong password: the form again, saying so, no session.
            let wrong = try await client.execute(
                uri: "/session", method: .post, headers: posting, body: Self.form([("user", "anna"), ("password", "nope"), ("csrf", csrf.value)]))
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("wrong user name or password"))
            #expect(Self.setCookie(wrong, SyncServer.sessionCookie) == nil)
            // The right one: a session cookie, and the page knows who it is.
            let signedIn = try await client.execute(
                uri: "/session", method: .post, headers: posting,
                body: Self.form([("user", "anna"), ("password", SyncServerTests.password), ("csrf", csrf.value)]))
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/")
            let session = try #require(Self.setCookie(signedIn, SyncServer.sessionCookie))
            #expect(session.header.contains("HttpOnly") && session.header.contains("SameSite=Strict") && !session.header.contains("Secure"))
            let both: HTTPFields = [.cookie: "\(SyncServer.csrfCookie)=\(csrf.value); \(SyncServer.sessionCookie)=\(session.value)"]
            let home = try await client.execute(uri: "/", method: .get, headers: both)
            #expect(String(buffer: home.body).contains("Sign out anna"))
            // Signing out revokes the session: the cookie no longer signs anyone in.
            var ending = both
            ending[.contentType] = "application/x-www-form-urlencoded"
            let out = try await client.execute(uri: "/session/end", method: .post, headers: ending, body: Self.form([("csrf", csrf.value)]))
            #expect(out.status == .seeOther && Self.setCookie(out, SyncServer.sessionCookie)?.header.contains("Max-Age=0") == true)
            let after = try await client.execute(uri: "/", method: .get, headers: both)
            #expect(String(buffer: after.body).contains("action=\"/session\""))
        }
    }

    /// The quick add on the page: an expense by the signed-in member lands in the ledger's log and
    /// can-spend changes; a bad amount shows the page again saying why, a form without its CSRF
    /// token is refused, and neither appends anything.
    @Test func anExpenseAddedOnThePageChangesCanSpend() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        var device = try Store.inMemory()
        device.clock = { SyncServerTests.start }
        try device.startSync()
        try device.initialize(currency: try Currency("RUB"))
        try device.addAccount(name: "Cash", kind: .cash, currency: nil)
        _ = try device.addTransaction(
            TransactionInput(
                day: Day(Day.daysFromCivil(year: 2025, month: 6, day: 1)), payee: "Start", note: "", spender: "", tags: [],
                postings: [
                    PostingInput(account: try device.account("Cash").id, amount: "1000", field: "{amount}"),
                    PostingInput(account: try device.account("Groceries").id, amount: "-1000", field: "{amount}"),
                ]))
        let sets = try device.pendingChangeSets()
        let log = harness.log
        try await harness.test { client in
            let token = try await SyncServerTests.tokens(client, "anna").access
            let ledger = try await SyncServerTests.createLedger(client, token)
            _ = try await log.append(sets, to: ledger, by: "anna", now: SyncServerTests.start)
            let head = try #require(try log.head(ledger))
            let first = try await client.execute(uri: "/", method: .get)
            let csrf = try #require(Self.setCookie(first, SyncServer.csrfCookie)).value
            var posting: HTTPFields = [.cookie: "\(SyncServer.csrfCookie)=\(csrf)", .contentType: "application/x-www-form-urlencoded"]
            let signedIn = try await client.execute(
                uri: "/session", method: .post, headers: posting,
                body: Self.form([("user", "anna"), ("password", SyncServerTests.password), ("csrf", csrf)]))
            let session = try #require(Self.setCookie(signedIn, SyncServer.sessionCookie)).value
            posting[.cookie] = "\(SyncServer.csrfCookie)=\(csrf); \(SyncServer.sessionCookie)=\(session)"
            let reading: HTTPFields = [.cookie: posting[.cookie]!]
            func canSpend() async throws -> String {
                let html = String(buffer: try await client.execute(uri: "/", method: .get, headers: reading).body)
                let start = try #require(html.range(of: "id=\"can-spend\">"))
                return String(html[start.upperBound...].prefix { $0 != "<" })
            }
            let before = try await canSpend()
            let page = String(buffer: try await client.execute(uri: "/", method: .get, headers: reading).body)
            #expect(page.contains("<option>Groceries</option>") && page.contains("<option>Cash</option>") && page.contains("id=\"quick-add\""))
            let added = try await client.execute(
                uri: "/ledgers/\(ledger)/entries", method: .post, headers: posting,
                body: Self.form([("amount", "350"), ("category", "Groceries"), ("from", "Cash"), ("note", "<b>coffee</b>"), ("csrf", csrf)]))
            #expect(added.status == .seeOther && added.headers[.location] == "/?ledger=\(ledger)", "\(added.status) \(String(buffer: added.body))")
            #expect(try log.head(ledger) == head + 1)
            let after = try await canSpend()
            #expect(after != before, "\(before) → \(after)")
            // A bad amount: the page again, saying why; no CSRF token: 403; nothing appended by either.
            let bad = try await client.execute(
                uri: "/ledgers/\(ledger)/entries", method: .post, headers: posting,
                body: Self.form([("amount", "-5"), ("category", "Groceries"), ("from", "Cash"), ("note", ""), ("csrf", csrf)]))
            #expect(bad.status == .badRequest && String(buffer: bad.body).contains("role=\"alert\""))
            let forged = try await client.execute(
                uri: "/ledgers/\(ledger)/entries", method: .post, headers: posting,
                body: Self.form([("amount", "5"), ("category", "Groceries"), ("from", "Cash"), ("note", ""), ("csrf", "x")]))
            #expect(forged.status == .forbidden)
            #expect(try log.head(ledger) == head + 1)
        }
    }
}
