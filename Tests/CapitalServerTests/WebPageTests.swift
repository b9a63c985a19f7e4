import CapitalCore
import CapitalKit
import CapitalStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CapitalServer

/// The web page: sign-in and sign-out with a session cookie (HttpOnly, SameSite=Strict) renewed
/// by a refresh cookie; a CSRF token on every form (a form without it, or with another, refused
/// and nothing done); the chosen ledger's report, live, with the quick add and the bills to pay;
/// a Content-Security-Policy on every page that allows its own style and script by their hashes
/// and nothing else.
@Suite struct WebPageTests {
    /// A browser's cookie jar over the test client: it keeps what responses set (and forgets
    /// what they expire) and sends it back, as a browser does.
    final class Browser: @unchecked Sendable {
        let client: any TestClientProtocol
        var cookies: [String: String] = [:]
        /// The `Set-Cookie` headers of the last response, by cookie name.
        var set: [String: String] = [:]

        init(_ client: any TestClientProtocol) { self.client = client }

        func get(_ uri: String) async throws -> TestResponse { try await send(uri, .get, nil) }

        func post(_ uri: String, _ fields: [(String, String)]) async throws -> TestResponse { try await send(uri, .post, fields) }

        /// The page's CSRF token (its cookie).
        var csrf: String { cookies[SyncServer.csrfCookie] ?? "" }

        private func send(_ uri: String, _ method: HTTPRequest.Method, _ fields: [(String, String)]?) async throws -> TestResponse {
            var headers = HTTPFields()
            if !cookies.isEmpty { headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: "; ") }
            var body: ByteBuffer?
            if let fields {
                headers[.contentType] = "application/x-www-form-urlencoded"
                body = WebPageTests.form(fields)
            }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            set = [:]
            for header in response.headers[values: .setCookie] {
                let pair = header.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let (name, value) = (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                set[name] = header
                cookies[name] = header.contains("Max-Age=0") ? nil : value
            }
            return response
        }

        /// Signs `user` in through the form.
        func signIn(_ user: String) async throws {
            _ = try await get("/")
            let response = try await post("/session", [("user", user), ("password", SyncServerTests.password), ("csrf", csrf)])
            #expect(response.status == .seeOther)
        }
    }

    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(
            string: fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    /// The text between `<tag>` and `</tag>` in `html` (the first one).
    static func inline(_ tag: String, _ html: String) -> String? {
        guard let start = html.range(of: "<\(tag)>"), let end = html.range(of: "</\(tag)>", range: start.upperBound..<html.endIndex) else {
            return nil
        }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// A policy's source for `text`: `'sha256-…'` (computed here, by swift-crypto, from the page's bytes).
    static func hash(_ text: String) -> String { "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'" }

    /// The policy allows exactly the page's own inline style and script, and no inline handler.
    static func expectPolicy(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let policy = try #require(response.headers[HTTPField.Name("Content-Security-Policy")!], sourceLocation: sourceLocation)
        let html = String(buffer: response.body)
        let style = try #require(inline("style", html), sourceLocation: sourceLocation)
        #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"), sourceLocation: sourceLocation)
        #expect(policy.contains("style-src-elem \(hash(style));"), sourceLocation: sourceLocation)
        #expect(policy.contains("script-src-attr 'none'") && !policy.contains("unsafe-hashes"), sourceLocation: sourceLocation)
        if let script = inline("script", html) {
            #expect(policy.contains("script-src \(hash(script));"), sourceLocation: sourceLocation)
        } else {
            #expect(policy.contains("script-src 'none';"), sourceLocation: sourceLocation)
        }
        #expect(!html.contains(" onclick=") && !html.contains(" onload=") && !html.contains("javascript:"), sourceLocation: sourceLocation)
    }

    /// What the page says can be spent, in minor units (its `data-value`).
    static func canSpend(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let start = try #require(html.range(of: "id=\"can-spend\" data-value=\""), sourceLocation: sourceLocation)
        let text = html[start.upperBound...].prefix { $0 != "\"" }
        return try #require(Int64(text.replacingOccurrences(of: ".", with: "")), sourceLocation: sourceLocation)
    }

    /// A device's ledger to share: RUB, Cash with 1 000 (and the categories the store makes),
    /// `dues` bills of 1 200.00 each; its change sets.
    static func deviceSets(dues: Int = 0) throws -> [ChangeSet] {
        let device = try SyncServerTests.device()
        try device.addAccount(name: "Cash", kind: .cash, currency: nil)
        _ = try device.addTransaction(
            TransactionInput(
                day: Day(Day.daysFromCivil(year: 2025, month: 6, day: 1)), payee: "Start", note: "", spender: "", tags: [],
                postings: [
                    PostingInput(account: try device.account("Cash").id, amount: "1000", field: "{amount}"),
                    PostingInput(account: try device.account("Groceries").id, amount: "-1000", field: "{amount}"),
                ]))
        for number in 0..<dues {
            try device.addDue(DueInput(type: .bill, total: "1200", reason: "Electricity \(number + 1)", dueDay: Today.clock().advanced(by: 5)))
        }
        return try device.pendingChangeSets()
    }

    /// A ledger of anna's with `deviceSets(dues:)` pushed.
    static func sharedLedger(_ client: any TestClientProtocol, _ log: LedgerLog, dues: Int = 0) async throws -> String {
        let token = try await SyncServerTests.tokens(client, "anna").access
        let ledger = try await SyncServerTests.createLedger(client, token)
        _ = try await log.append(try deviceSets(dues: dues), to: ledger, by: "anna", now: SyncServerTests.start)
        return ledger
    }

    @Test func aPersonSignsInWithACookieAndOut() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let browser = Browser(client)
            // No session: the sign-in form, its CSRF token in a cookie and a field; no protocol header needed.
            let first = try await browser.get("/")
            #expect(first.status == .ok && first.headers[.contentType] == "text/html; charset=utf-8")
            try Self.expectPolicy(first)
            let csrfCookie = try #require(browser.set[SyncServer.csrfCookie])
            #expect(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Strict"))
            let csrf = browser.csrf
            let html = String(buffer: first.body)
            #expect(html.contains("name=\"csrf\" value=\"\(csrf)\"") && html.contains("action=\"/session\"") && !html.contains("<script"))
            // Without the token, with another, or without the cookie: 403, and no session.
            for (jar, token) in [([SyncServer.csrfCookie: csrf], ""), ([SyncServer.csrfCookie: csrf], "forged"), ([:], csrf)] {
                browser.cookies = jar
                let refused = try await browser.post("/session", [("user", "anna"), ("password", SyncServerTests.password), ("csrf", token)])
                #expect(refused.status == .forbidden && browser.set[SyncServer.sessionCookie] == nil, "\(token)")
            }
            browser.cookies = [SyncServer.csrfCookie: csrf]
            // A wrong password: the form again, saying so, no session.
            let wrong = try await browser.post("/session", [("user", "anna"), ("password", "nope"), ("csrf", csrf)])
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("wrong user name or password"))
            #expect(browser.set[SyncServer.sessionCookie] == nil)
            // The right one: a session cookie and a refresh cookie, and the page knows who it is.
            let signedIn = try await browser.post("/session", [("user", "anna"), ("password", SyncServerTests.password), ("csrf", csrf)])
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/")
            for name in [SyncServer.sessionCookie, SyncServer.refreshCookie] {
                let header = try #require(browser.set[name])
                #expect(header.contains("HttpOnly") && header.contains("SameSite=Strict") && !header.contains("Secure"), "\(header)")
            }
            let home = try await browser.get("/")
            #expect(String(buffer: home.body).contains("Sign out anna"))
            try Self.expectPolicy(home)
            let kept = browser.cookies
            // Signing out revokes the session: neither cookie signs anyone in any more.
            let out = try await browser.post("/session/end", [("csrf", csrf)])
            #expect(out.status == .seeOther && browser.cookies[SyncServer.sessionCookie] == nil && browser.cookies[SyncServer.refreshCookie] == nil)
            browser.cookies = kept
            let after = try await browser.get("/")
            #expect(String(buffer: after.body).contains("action=\"/session\""))
            // The dead cookies are cleared.
            #expect(browser.cookies[SyncServer.sessionCookie] == nil && browser.cookies[SyncServer.refreshCookie] == nil)
        }
    }

    /// An hour after signing in the access token has expired: the refresh cookie renews the
    /// session (new cookies, rotated); the old refresh token used again revokes the sign-in.
    @Test func anExpiredSessionIsRenewedByItsRefreshCookie() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let browser = Browser(client)
            try await browser.signIn("anna")
            let first = browser.cookies
            harness.clock.advance(Tokens.accessLife + 1_000)
            let renewed = try await browser.get("/")
            #expect(String(buffer: renewed.body).contains("Sign out anna"))
            let (session, refresh) = (browser.cookies[SyncServer.sessionCookie], browser.cookies[SyncServer.refreshCookie])
            #expect(session != nil && session != first[SyncServer.sessionCookie] && refresh != first[SyncServer.refreshCookie])
            #expect(String(buffer: try await browser.get("/").body).contains("Sign out anna"))
            // The first refresh token again (stolen, say): the whole sign-in is revoked, the renewed cookies too.
            let thief = Browser(client)
            thief.cookies = first
            #expect(String(buffer: try await thief.get("/").body).contains("action=\"/session\""))
            #expect(String(buffer: try await browser.get("/").body).contains("action=\"/session\""))
        }
    }

    /// The quick add on the page: an expense by the signed-in member lands in the ledger's log and
    /// can-spend goes down by exactly its amount; the account paid from is remembered; a bad
    /// amount shows the page again saying why (the form filled again), a form without its CSRF
    /// token is refused, and neither appends anything.
    @Test func anExpenseAddedOnThePageChangesCanSpend() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let log = harness.log
        try await harness.test { client in
            let ledger = try await Self.sharedLedger(client, log)
            let head = try #require(try log.head(ledger))
            let browser = Browser(client)
            try await browser.signIn("anna")
            let page = try await browser.get("/")
            let html = String(buffer: page.body)
            try Self.expectPolicy(page)
            #expect(html.contains("<option>Groceries</option>") && html.contains("id=\"quick-add\"") && html.contains("How much can I spend"))
            // Cash is the only account paid from: the default, selected.
            #expect(html.contains("<option selected=\"selected\">Cash</option>"))
            let before = try Self.canSpend(html)
            let added = try await browser.post(
                "/ledgers/\(ledger)/entries",
                [("amount", "350"), ("category", "Groceries"), ("from", "Cash"), ("note", "<b>coffee</b>"), ("csrf", browser.csrf)])
            #expect(added.status == .seeOther && added.headers[.location] == "/?ledger=\(ledger)", "\(added.status) \(String(buffer: added.body))")
            #expect(browser.cookies[SyncServer.fromCookie(ledger)] == "Cash")
            #expect(try log.head(ledger) == head + 1)
            let after = String(buffer: try await browser.get("/?ledger=\(ledger)").body)
            #expect(try Self.canSpend(after) == before - 35_000)
            #expect(after.contains("role=\"status\">Added 350 for Groceries from Cash. You can spend"))
            // Said once.
            #expect(!String(buffer: try await browser.get("/").body).contains("role=\"status\""))
            // A bad amount: the page again, saying why, the note kept; no CSRF token: 403; nothing appended by either.
            let bad = try await browser.post(
                "/ledgers/\(ledger)/entries",
                [("amount", "-5"), ("category", "Groceries"), ("from", "Cash"), ("note", "tea"), ("csrf", browser.csrf)])
            let badPage = String(buffer: bad.body)
            #expect(bad.status == .badRequest && badPage.contains("role=\"alert\">amount &#39;-5&#39;") && badPage.contains("value=\"tea\""))
            let unknown = try await browser.post(
                "/ledgers/\(ledger)/entries", [("amount", "5"), ("category", "Nope"), ("from", "Cash"), ("csrf", browser.csrf)])
            #expect(unknown.status == .badRequest && String(buffer: unknown.body).contains("role=\"alert\">category &quot;Nope&quot;: not found"))
            let forged = try await browser.post(
                "/ledgers/\(ledger)/entries", [("amount", "5"), ("category", "Groceries"), ("from", "Cash"), ("note", ""), ("csrf", "x")])
            // Refused as a page saying why (a person pressed a button), with a fresh token to send it again.
            #expect(forged.status == .forbidden && forged.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: forged.body).contains("role=\"alert\">this form is stale") && browser.set[SyncServer.csrfCookie] != nil)
            #expect(try log.head(ledger) == head + 1)
        }
    }

    /// The bills to pay, each with a pay button: a payment lands in the log and the bill shows
    /// what is left; more than is left is refused on the page, nothing appended.
    @Test func aBillIsPaidWithItsButton() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let log = harness.log
        try await harness.test { client in
            let ledger = try await Self.sharedLedger(client, log, dues: 2)
            let head = try #require(try log.head(ledger))
            let browser = Browser(client)
            try await browser.signIn("anna")
            let html = String(buffer: try await browser.get("/").body)
            #expect(html.contains("action=\"/ledgers/\(ledger)/dues/1/pay\"") && html.contains("action=\"/ledgers/\(ledger)/dues/2/pay\""))
            #expect(html.contains("name=\"amount\" inputmode=\"decimal\" aria-label=\"Amount to pay on #1\" value=\"1200.00\""))
            let paid = try await browser.post("/ledgers/\(ledger)/dues/1/pay", [("amount", "500"), ("from", "Cash"), ("csrf", browser.csrf)])
            #expect(paid.status == .seeOther, "\(String(buffer: paid.body))")
            #expect(try log.head(ledger) == head + 1)
            let after = String(buffer: try await browser.get("/").body)
            #expect(after.contains("role=\"status\">Paid 500 on #1 Electricity 1."))
            #expect(after.contains("value=\"700.00\""))
            let tooMuch = try await browser.post("/ledgers/\(ledger)/dues/1/pay", [("amount", "5000"), ("from", "Cash"), ("csrf", browser.csrf)])
            #expect(tooMuch.status == .badRequest && String(buffer: tooMuch.body).contains("role=\"alert\">paying #1 5000:"))
            let noSuch = try await browser.post("/ledgers/\(ledger)/dues/9/pay", [("amount", "5"), ("from", "Cash"), ("csrf", browser.csrf)])
            #expect(noSuch.status == .badRequest && String(buffer: noSuch.body).contains("role=\"alert\">paying #9 5:"))
            let forged = try await browser.post("/ledgers/\(ledger)/dues/2/pay", [("amount", "5"), ("from", "Cash"), ("csrf", "x")])
            #expect(forged.status == .forbidden)
            #expect(try log.head(ledger) == head + 1)
        }
    }

    /// The page's default account is the one the quick add last paid from on this browser (else
    /// the first one paid from); a bill's own paying account is offered and chosen for it even when
    /// the page does not pay from its kind; an empty CSRF cookie is replaced.
    @Test func thePageRemembersTheAccountPaidFrom() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let log = harness.log
        let device = try SyncServerTests.device()
        for (name, kind) in [("Cash", AccountKind.cash), ("Card", .debit), ("Savings", .deposit)] {
            try device.addAccount(name: name, kind: kind, currency: nil)
        }
        var bill = DueInput(type: .bill, total: "300", reason: "Water", dueDay: Today.clock().advanced(by: 3))
        bill.payFrom = "Savings"
        try device.addDue(bill)
        let sets = try device.pendingChangeSets()
        try await harness.test { client in
            let token = try await SyncServerTests.tokens(client, "anna").access
            let ledger = try await SyncServerTests.createLedger(client, token)
            _ = try await log.append(sets, to: ledger, by: "anna", now: SyncServerTests.start)
            let browser = Browser(client)
            browser.cookies[SyncServer.csrfCookie] = ""
            _ = try await browser.get("/")
            #expect(browser.csrf.utf8.count == 43)
            try await browser.signIn("anna")
            func quickAddFrom(_ html: String) -> String? {
                guard let form = html.range(of: "id=\"quick-add\""),
                    let select = html.range(of: "<select name=\"from\">", range: form.upperBound..<html.endIndex),
                    let chosen = html.range(of: "<option selected=\"selected\">", range: select.upperBound..<html.endIndex)
                else { return nil }
                return String(html[chosen.upperBound...].prefix { $0 != "<" })
            }
            let first = String(buffer: try await browser.get("/").body)
            #expect(quickAddFrom(first) == "Cash")
            // The bill's select: the page's accounts and the bill's own, chosen.
            let billSelect = try #require(first.range(of: "aria-label=\"Account to pay #1 from\">"))
            #expect(
                first[billSelect.upperBound...].hasPrefix(
                    "<option>Cash</option><option>Card</option><option selected=\"selected\">Savings</option></select>"))
            let added = try await browser.post(
                "/ledgers/\(ledger)/entries", [("amount", "12.50"), ("category", "Groceries"), ("from", "Card"), ("csrf", browser.csrf)])
            #expect(added.status == .seeOther)
            #expect(browser.cookies[SyncServer.fromCookie(ledger)] == "Card")
            #expect(quickAddFrom(String(buffer: try await browser.get("/").body)) == "Card")
        }
    }

    /// A session renewed by the request that is then refused keeps its new cookies: the browser
    /// is still signed in after (not signed out as if its old refresh token had been stolen).
    @Test func aRenewedSessionSurvivesARefusedForm() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let browser = Browser(client)
            try await browser.signIn("anna")
            harness.clock.advance(Tokens.accessLife + 1_000)
            let refused = try await browser.post("/ledgers/nope/entries", [("amount", "5"), ("category", "Groceries"), ("csrf", browser.csrf)])
            #expect(refused.status == .notFound && String(buffer: refused.body).contains("role=\"alert\">no ledger nope here for anna"))
            #expect(browser.set[SyncServer.sessionCookie] != nil && browser.set[SyncServer.refreshCookie] != nil)
            #expect(String(buffer: try await browser.get("/").body).contains("Sign out anna"))
        }
    }

    /// A viewer's page has the answer but no form that writes, and a form sent anyway is 403; a
    /// ledger named with markup shows as text.
    @Test func aViewerOnlyReadsAndNamesAreText() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let log = harness.log
        try await harness.test { client in
            let anna = try await SyncServerTests.tokens(client, "anna").access
            let created = try await client.execute(
                uri: "/v1/ledgers", method: .post, headers: SyncServerTests.headers(anna),
                body: SyncServerTests.json(SyncWire.NewLedger(name: "<script>alert(1)</script>")))
            let ledger = try SyncServerTests.decode(SyncWire.Ledger.self, created).id
            _ = try await log.append(try Self.deviceSets(dues: 1), to: ledger, by: "anna", now: SyncServerTests.start)
            #expect(
                try await client.execute(
                    uri: "/v1/ledgers/\(ledger)/members/vera", method: .put, headers: SyncServerTests.headers(anna),
                    body: SyncServerTests.json(SyncWire.Role(role: "viewer"))
                ).status == .ok)
            let head = try #require(try log.head(ledger))
            let browser = Browser(client)
            try await browser.signIn("vera")
            let html = String(buffer: try await browser.get("/").body)
            _ = try Self.canSpend(html)
            #expect(!html.contains("id=\"quick-add\"") && !html.contains("/pay\""))
            #expect(!html.contains("<script>alert") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            let refused = try await browser.post(
                "/ledgers/\(ledger)/entries", [("amount", "5"), ("category", "Groceries"), ("from", "Cash"), ("csrf", browser.csrf)])
            #expect(refused.status == .forbidden)
            #expect(try log.head(ledger) == head)
        }
    }
}
