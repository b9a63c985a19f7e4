import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web page for the people who never open a terminal: sign in with a session cookie, see
/// what can be spent, add an expense. Server-rendered HTML with no script; every form carries a
/// CSRF token (double submit: a cookie and a field, compared); every page a Content-Security-Policy
/// that allows no script, no inline handler and no other origin.
extension SyncServer {
    static let sessionCookie = "capital_session"
    static let csrfCookie = "capital_csrf"

    /// What every page is sent with.
    static let pageHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
    ]

    func webPages(_ router: Router<ServerContext>) {
        router.get("/") { request, context in
            let csrf = Self.cookies(request)[Self.csrfCookie] ?? Tokens.make()
            guard let user = try await webUser(request) else {
                return page(WebPage.signIn(csrf: csrf, message: nil), csrf: csrf, request)
            }
            let ledgers = try await storage.ledgers(of: user)
            let chosen = request.uri.queryParameters.get("ledger").flatMap { id in ledgers.first { $0.id == id } } ?? ledgers.first
            return try await home(user: user, ledgers: ledgers, chosen: chosen, csrf: csrf, message: nil, request)
        }
        // The quick add: an expense by the signed-in member, then the page again with can-spend after it.
        router.post("/ledgers/:ledger/entries") { request, context in
            let form = try await Self.form(request)
            let csrf = try Self.checkCSRF(request, form)
            guard let user = try await webUser(request) else { return Self.seeOther("/") }
            let ledger = try parameter(context, "ledger")
            let ledgers = try await storage.ledgers(of: user)
            guard let chosen = ledgers.first(where: { $0.id == ledger }) else {
                throw Problem(404, "not_found", "no ledger \(ledger) here for \(user)")
            }
            guard Role(rawValue: chosen.role)?.writes == true else {
                throw Problem(403, "forbidden", "\(user) may only read ledger \(ledger) (role viewer): ask its owner for the member role")
            }
            let entry = QuickEntryBody(
                kind: "spend", amount: .init(text: form["amount"] ?? ""), category: form["category"], from: form["from"], note: form["note"])
            do {
                let query = try AnswerQuery(request, allowed: [])
                _ = try await copies.copy(of: ledger).write(storage, as: user) { store in
                    try LedgerAnswer.answering(store, query, clock: Today.clock()) { today in try entry.record(store, user: user, today: today) }
                } append: { sets in
                    try await append(sets, to: ledger, by: user)
                }
            } catch let problem as Problem where problem.problem.status == 400 {
                var response = try await home(user: user, ledgers: ledgers, chosen: chosen, csrf: csrf, message: problem.problem.detail, request)
                response.status = .badRequest
                return response
            }
            return Self.seeOther("/?ledger=\(ledger)")
        }
        router.post("/session") { request, context in
            let form = try await Self.form(request)
            let csrf = try Self.checkCSRF(request, form)
            do {
                let tokens = try await signIn(SyncWire.Login(user: form["user"] ?? "", password: form["password"] ?? ""), request, context)
                var response = Self.seeOther("/")
                response.headers.append(HTTPField(name: .setCookie, value: sessionCookie(tokens.access, request)))
                return response
            } catch let problem as Problem {
                var response = page(WebPage.signIn(csrf: csrf, message: problem.problem.detail), csrf: csrf, request)
                response.status = .init(code: problem.problem.status)
                return response
            }
        }
        router.post("/session/end") { request, context in
            let form = try await Self.form(request)
            _ = try Self.checkCSRF(request, form)
            if let token = Self.cookies(request)[Self.sessionCookie] { try await storage.revokeFamily(ofAccess: Tokens.digest(token)) }
            var response = Self.seeOther("/")
            response.headers.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"))
            return response
        }
    }

    /// The signed-in page of `chosen`: what can be spent today, the quick add, the ledgers, sign out.
    private func home(
        user: String, ledgers: [SyncWire.Ledger], chosen: SyncWire.Ledger?, csrf: String, message: String?, _ request: Request
    ) async throws -> Response {
        var content = WebPage.Home(user: user, ledgers: ledgers, chosen: chosen, csrf: csrf, message: message)
        if let ledger = chosen {
            let query = try AnswerQuery(request, allowed: ["ledger"])
            (content.canSpend, content.categories, content.accounts) = try await copies.copy(of: ledger.id).answer(storage) { store in
                let accounts = try store.accounts()
                let answer = try? LedgerAnswer.canSpend.report(store, query, clock: Today.clock()).headline.joined(separator: "\n")
                return (answer, accounts.filter { $0.kind == .expense }.map(\.name), accounts.filter(\.kind.isBalanceSheet).map(\.name))
            }
        }
        return page(WebPage.home(content), csrf: csrf, request)
    }

    /// The user of the request's session cookie, when it holds a live access token.
    func webUser(_ request: Request) async throws -> String? {
        guard let token = Self.cookies(request)[Self.sessionCookie], !token.isEmpty else { return nil }
        return try await storage.user(ofAccess: Tokens.digest(token), now: now())
    }

    /// The session cookie: HttpOnly, SameSite=Strict, Secure when the request came over TLS
    /// through the proxy (`--behind-proxy` and `X-Forwarded-Proto: https`); as long as the token.
    func sessionCookie(_ token: String, _ request: Request) -> String {
        let secure = behindProxy && request.headers[HTTPField.Name("X-Forwarded-Proto")!] == "https"
        return "\(Self.sessionCookie)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Tokens.accessLife / 1000)" + (secure ? "; Secure" : "")
    }

    /// `html` with the page headers, setting the CSRF cookie it was made with.
    func page(_ html: String, csrf: String, _ request: Request) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        for (name, value) in Self.pageHeaders { headers[HTTPField.Name(name)!] = value }
        if Self.cookies(request)[Self.csrfCookie] != csrf {
            headers.append(HTTPField(name: .setCookie, value: "\(Self.csrfCookie)=\(csrf); Path=/; HttpOnly; SameSite=Strict"))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func seeOther(_ location: String) -> Response {
        var headers: HTTPFields = [.location: location]
        for (name, value) in pageHeaders { headers[HTTPField.Name(name)!] = value }
        return Response(status: .seeOther, headers: headers)
    }

    /// The form's CSRF field, when it is the cookie's: else 403, nothing done.
    static func checkCSRF(_ request: Request, _ form: [String: String]) throws -> String {
        guard let cookie = cookies(request)[csrfCookie], let field = form["csrf"], !cookie.isEmpty,
            cookie.utf8.count == field.utf8.count, zip(cookie.utf8, field.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else { throw Problem(403, "csrf", "this form is stale or did not come from this server's page: reload the page and send it again") }
        return cookie
    }

    /// The request's cookies by name.
    static func cookies(_ request: Request) -> [String: String] {
        var cookies: [String: String] = [:]
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, cookies[parts[0]] == nil { cookies[parts[0]] = parts[1] }
            }
        }
        return cookies
    }

    /// A form's fields (`application/x-www-form-urlencoded`), at most 64 KB.
    static func form(_ request: Request) async throws -> [String: String] {
        var request = request
        let buffer = try await request.collectBody(upTo: 65_536)
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = AnswerQuery.decoded(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? AnswerQuery.decoded(parts[1]) : "" }
        }
        return fields
    }
}

/// The pages' HTML: well-formed, every text escaped, no script.
enum WebPage {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    static func frame(_ title: String, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(escape(title))</title>
        <style>body{font:16px/1.4 system-ui,sans-serif;max-width:40rem;margin:1rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}input,select,button{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}.answer{font-size:1.2rem;white-space:pre-wrap}.error{color:#b00020}</style>
        </head><body><main>\(body)</main></body></html>

        """
    }

    static func signIn(csrf: String, message: String?) -> String {
        frame(
            "Sign in — capital",
            "<h1>capital</h1>" + (message.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? "")
                + "<form method=\"post\" action=\"/session\"><input type=\"hidden\" name=\"csrf\" value=\"\(escape(csrf))\"/>"
                + "<label>User <input name=\"user\" autocomplete=\"username\" required=\"required\"/></label>"
                + "<label>Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\" required=\"required\"/></label>"
                + "<button type=\"submit\">Sign in</button></form>")
    }

    /// What the signed-in page shows.
    struct Home {
        var user: String
        var ledgers: [SyncWire.Ledger]
        var chosen: SyncWire.Ledger?
        var csrf: String
        var message: String?
        var canSpend: String?
        var categories: [String] = []
        var accounts: [String] = []
    }

    static func home(_ home: Home) -> String {
        let csrf = "<input type=\"hidden\" name=\"csrf\" value=\"\(escape(home.csrf))\"/>"
        var body = "<h1>\(escape(home.chosen?.name ?? "capital"))</h1>"
        if let message = home.message { body += "<p class=\"error\" role=\"alert\">\(escape(message))</p>" }
        if let canSpend = home.canSpend { body += "<p class=\"answer\" id=\"can-spend\">\(escape(canSpend))</p>" }
        if let chosen = home.chosen, chosen.role != "viewer" {
            func options(_ names: [String]) -> String { names.map { "<option>\(escape($0))</option>" }.joined() }
            body +=
                "<form method=\"post\" action=\"/ledgers/\(escape(chosen.id))/entries\" id=\"quick-add\"><h2>Add an expense</h2>\(csrf)"
                + "<label>Amount <input name=\"amount\" inputmode=\"decimal\" required=\"required\"/></label>"
                + "<label>Category <select name=\"category\">\(options(home.categories))</select></label>"
                + "<label>From <select name=\"from\">\(options(home.accounts))</select></label>"
                + "<label>Note <input name=\"note\"/></label><button type=\"submit\">Add</button></form>"
        }
        if home.chosen == nil { body += "<p>No shared ledger yet: share one from a device with <code>capital sync create</code>.</p>" }
        if home.ledgers.count > 1 {
            body +=
                "<nav><ul>" + home.ledgers.map { "<li><a href=\"/?ledger=\(escape($0.id))\">\(escape($0.name))</a></li>" }.joined() + "</ul></nav>"
        }
        body += "<form method=\"post\" action=\"/session/end\">\(csrf)<button type=\"submit\">Sign out \(escape(home.user))</button></form>"
        return frame("\(home.chosen?.name ?? "capital") — capital", body)
    }
}
