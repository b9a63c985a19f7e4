import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import CapitalWeb
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web page for the people who never open a terminal: sign in with a session cookie, see
/// the chosen ledger's report live, add an expense, pay a bill. Server-rendered HTML; every form
/// carries a CSRF token (double submit: a cookie and a field, compared); every page a
/// Content-Security-Policy that allows its own style and script by their hashes and nothing else:
/// no inline handler, no other origin.
extension SyncServer {
    static let sessionCookie = "capital_session"
    static let refreshCookie = "capital_refresh"
    static let csrfCookie = "capital_csrf"
    /// What the last form did, said once on the page after it.
    static let doneCookie = "capital_done"
    /// The account the quick add last paid from on this browser, per ledger (`capital_from_ID`):
    /// the web's default account, as each device has its own.
    static func fromCookie(_ ledger: String) -> String { "capital_from_\(ledger)" }

    /// What every page is sent with but its Content-Security-Policy.
    static let pageHeaders: [(String, String)] = [
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
    ]

    /// The policy of a page whose only style is `style` and only script `script`.
    static func contentSecurityPolicy(style: String, script: String?) -> String {
        func hash(_ text: String) -> String { "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'" }
        return "default-src 'none'; style-src \(hash(style)); style-src-elem \(hash(style)); style-src-attr 'unsafe-inline'; "
            + "script-src \(script.map(hash) ?? "'none'"); script-src-attr 'none'; img-src 'self' data:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    func webPages(_ router: Router<ServerContext>) {
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/") { request, context in
            let csrf = Self.csrfToken(request)
            guard let session = try await webSession(request, context) else {
                return page(WebPage.signIn(csrf: csrf, message: nil), csrf: csrf, request, clearing: true)
            }
            let home = try await home(session, ledger: request.uri.queryParameters.get("ledger").map { String($0) }, csrf: csrf, request)
            return page(WebPage.home(home), csrf: csrf, request, cookies: session.cookies)
        }
        // The quick add: an expense by the signed-in member (or the spender named), then the page again with can-spend after it.
        router.post("/ledgers/:ledger/entries") { request, context in
            try await webWrite(request, context) { session, form, ledger in
                let entry = QuickEntryBody(
                    kind: "spend", amount: .init(text: form["amount"] ?? ""), category: form["category"], from: form["from"],
                    note: form["note"], spender: form["spender"].flatMap { $0.isEmpty ? nil : $0 })
                let user = session.user
                _ = try await written(ledger, by: user, pageQuery(request, ledger)) { store, today in
                    try entry.record(store, user: user, today: today)
                }
                let said = "Added \(entry.amount.text) for \(entry.category ?? "")" + (entry.from.map { $0.isEmpty ? "" : " from \($0)" } ?? "") + "."
                // The account paid from becomes this browser's default for the ledger.
                return (said, form["from"].map { [fromCookie($0, ledger: ledger, request)] } ?? [])
            }
        }
        // A bill or fine paid, as `capital due pay N AMOUNT`: from its paying account, else this browser's default.
        router.post("/ledgers/:ledger/dues/:number/pay") { request, context in
            let number = try parameter(context, "number")
            return try await webWrite(request, context) { session, form, ledger in
                let amount = form["amount"] ?? ""
                let paid = try await written(ledger, by: session.user, pageQuery(request, ledger)) { store, today in
                    do {
                        let (due, _) = try store.payDue(number, amount: amount, from: form["from"], on: today)
                        return "Paid \(amount) on #\(due.number) \(due.reason)" + (due.left == 0 ? ": settled." : ".")
                    } catch let error as StoreError {
                        throw Problem(400, "invalid_field", "paying #\(number) \(amount): \(Problem.reason(error.description))")
                    }
                }
                return (paid, [])
            }
        }
        router.post("/session") { request, context in
            var csrf = Self.csrfToken(request)
            do {
                let form = try await Self.form(request)
                csrf = try Self.checkCSRF(request, form)
                let tokens = try await signIn(SyncWire.Login(user: form["user"] ?? "", password: form["password"] ?? ""), request, context)
                return Self.seeOther("/", cookies: sessionCookies(tokens, request))
            } catch let problem as Problem {
                var response = page(WebPage.signIn(csrf: csrf, message: problem.problem.detail), csrf: csrf, request)
                response.status = .init(code: problem.problem.status)
                return response
            }
        }
        router.post("/session/end") { request, context in
            do { _ = try Self.checkCSRF(request, try await Self.form(request)) } catch let problem as Problem {
                return try await refused(problem, request, context, session: webSession(request, context), ledger: nil, form: [:])
            }
            let cookies = Self.cookies(request)
            // The access token, or when it has expired the refresh token: either names the sign-in to end.
            for name in [Self.sessionCookie, Self.refreshCookie] {
                if let token = cookies[name], !token.isEmpty { try await storage.revokeFamily(ofAccess: Tokens.digest(token)) }
            }
            return Self.seeOther("/", cookies: Self.clearedSession)
        }
    }

    /// A signed-in browser: who, and the cookies to set when its session was renewed.
    struct WebSession {
        var user: String
        var cookies: [String] = []
    }

    /// The session of the request's cookies: its access token while it lives, else its refresh
    /// token, rotated as `POST /v1/refresh` rotates it (new cookies set with the answer), so
    /// that a page left open for an hour is still signed in; nil when neither signs anyone in.
    func webSession(_ request: Request, _ context: ServerContext) async throws -> WebSession? {
        let cookies = Self.cookies(request)
        if let token = cookies[Self.sessionCookie], !token.isEmpty, let user = try await storage.user(ofAccess: Tokens.digest(token), now: now()) {
            return WebSession(user: user)
        }
        guard let refresh = cookies[Self.refreshCookie], !refresh.isEmpty else { return nil }
        let now = now()
        let (access, next) = (Tokens.make(), Tokens.make())
        switch try await storage.rotate(refresh: Tokens.digest(refresh), access: Tokens.digest(access), refresh: Tokens.digest(next), now: now) {
        case .rotated(let user):
            let tokens = SyncWire.Tokens(
                user: user, access: access, accessExpiresAt: now + Tokens.accessLife, refresh: next, refreshExpiresAt: now + Tokens.refreshLife)
            return WebSession(user: user, cookies: sessionCookies(tokens, request))
        case .reused(let user):
            logger.warning("a rotated refresh token was used again: that sign-in's tokens are revoked")
            await audit(.tokenReused, by: user, request, context)
            return nil
        case .refused:
            return nil
        }
    }

    /// A form that changes `:ledger`: its CSRF token checked, its member's role, then `body`'s
    /// change (which says what it did, and which cookies to set); then the page again, by a 303 to
    /// it, or at once with the refusal when the change was refused (400, the form filled again).
    private func webWrite(
        _ request: Request, _ context: ServerContext,
        _ body: (WebSession, [String: String], String) async throws -> (done: String?, cookies: [String])
    ) async throws -> Response {
        // The session first: when it was renewed, every answer below carries its new cookies.
        let session = try await webSession(request, context)
        let ledger = try parameter(context, "ledger")
        var form: [String: String] = [:]
        do {
            form = try await Self.form(request)
            _ = try Self.checkCSRF(request, form)
            guard let session else { return Self.seeOther("/", cookies: Self.clearedSession) }
            guard let chosen = try await storage.ledgers(of: session.user).first(where: { $0.id == ledger }) else {
                throw Problem(404, "not_found", "no ledger \(ledger) here for \(session.user)")
            }
            guard Role(rawValue: chosen.role)?.writes == true else {
                throw Problem(403, "forbidden", "\(session.user) may only read ledger \(ledger) (role viewer): ask its owner for the member role")
            }
            let (done, cookies) = try await body(session, form, ledger)
            // What it did is said once, on the next page (a cookie, not the address: a link cannot put words on the page).
            let said = done.map { [cookie(Self.doneCookie, Self.cookieValue($0), maxAge: 60, request)] }
            return Self.seeOther("/?ledger=\(ledger)", cookies: session.cookies + cookies + (said ?? []))
        } catch let problem as Problem {
            return try await refused(problem, request, context, session: session, ledger: ledger, form: form)
        }
    }

    /// A form refused: the page again (the ledger's, else the sign-in form) with the reason above
    /// the forms, the refused form filled as it was sent, a fresh CSRF token when the one sent was
    /// not the cookie's; with the problem's status (a refused entry's 422 as 400). Never problem
    /// JSON: a person pressed a button.
    private func refused(
        _ problem: Problem, _ request: Request, _ context: ServerContext, session: WebSession?, ledger: String?, form: [String: String]
    ) async throws -> Response {
        let csrf = problem.problem.code == "csrf" ? Tokens.make() : Self.csrfToken(request)
        var response: Response
        if let session {
            var home = try await home(session, ledger: ledger, csrf: csrf, request)
            home.message = problem.problem.detail
            if [400, 422].contains(problem.problem.status) { home.entry = form }
            response = page(WebPage.home(home), csrf: csrf, request, cookies: session.cookies)
        } else {
            response = page(WebPage.signIn(csrf: csrf, message: problem.problem.detail), csrf: csrf, request, clearing: true)
        }
        response.status = problem.problem.status == 422 ? .badRequest : .init(code: problem.problem.status)
        return response
    }

    /// The CSRF token of the request's cookie when it is one this server makes, else a new one.
    static func csrfToken(_ request: Request) -> String {
        guard let token = cookies(request)[csrfCookie], token.utf8.count == 43, token.utf8.allSatisfy(cookieSafe.contains) else {
            return Tokens.make()
        }
        return token
    }

    /// The bytes a cookie's value may hold as they are (RFC 6265's cookie-octets, less `%`).
    static let cookieSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// `text` as a cookie's value: percent-encoded but for `cookieSafe` (read back by `AnswerQuery.decoded`).
    static func cookieValue(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if cookieSafe.contains(byte) { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += String(format: "%%%02X", byte) }
        }
        return out
    }

    /// What the page of `ledger` (else the first of the user's) shows: its report, live.
    private func home(_ session: WebSession, ledger: String?, csrf: String, _ request: Request) async throws -> WebPage.Home {
        let ledgers = try await storage.ledgers(of: session.user)
        let chosen = ledger.flatMap { id in ledgers.first { $0.id == id } } ?? ledgers.first
        var home = WebPage.Home(user: session.user, ledgers: ledgers, chosen: chosen, csrf: csrf)
        home.done = Self.cookies(request)[Self.doneCookie].map { AnswerQuery.decoded(Substring($0)) }
        guard let chosen else { return home }
        let pageQuery = pageQuery(request, chosen.id)
        let name = chosen.name
        let (report, unanswered, categories, accounts, dues, from) = try await copies.copy(of: chosen.id).answer(storage) { store in
            let accounts = try store.accounts()
            let query = try pageQuery(store)
            var report: ReportPage?
            var unanswered: String?
            do {
                report = try LedgerAnswer.answering(store, query, clock: Today.clock()) { today in
                    let projection = try LedgerAnswer.projection(store, query, today)
                    return ReportPage(
                        try projection.overview(OverviewRequest()), today: projection.today, horizon: projection.horizon,
                        currency: projection.currency, ledger: name, generator: "capital serve")
                }
            } catch let problem as Problem {
                unanswered = problem.problem.detail
            } catch is EmptyLedger {
                unanswered = Problem.emptyLedger(chosen.id).problem.detail
            }
            let names = Dictionary(accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            return (
                report, unanswered, accounts.filter { $0.kind == .expense }.map(\.name), accounts.filter(Self.paysFrom).map(\.name),
                DueListing().listed(try store.dues()).map { ($0, $0.payFromID.flatMap { names[$0] }) }, query.text("default-account")
            )
        }
        (home.report, home.unanswered, home.categories, home.accounts, home.dues, home.from) = (report, unanswered, categories, accounts, dues, from)
        return home
    }

    /// What the page pays from: cash, debit and credit-card accounts.
    static func paysFrom(_ account: Account) -> Bool { [.cash, .debit, .creditCard].contains(account.kind) }

    /// The page's query on a ledger's copy. Its default account (which pays the bills and budgets
    /// that name none, so that it moves can-spend) is the one the quick add last paid from on this
    /// browser while the ledger still has it, else the first account paid from: the page answers as
    /// a device with that default, before the first entry as after it.
    private func pageQuery(_ request: Request, _ ledger: String) -> @Sendable (Store) throws -> AnswerQuery {
        let remembered = Self.cookies(request)[Self.fromCookie(ledger)].map { AnswerQuery.decoded(Substring($0)) }
        return { store in
            let names = try store.accounts().filter(Self.paysFrom).map(\.name)
            let chosen = remembered.flatMap { name in names.first { $0.lowercased() == name.lowercased() } } ?? names.first
            return AnswerQuery(chosen.map { ["default-account": $0] } ?? [:])
        }
    }

    /// `body`'s change to the copy of `ledger` by `user`, on the day `query` (made on the copy)
    /// names, default the server's, appended to the ledger's log as `user`'s; what `body` answers.
    /// `keeping`: the answer to keep with the append, made from what `body` answers.
    func written(
        _ ledger: String, by user: String, _ query: @escaping @Sendable (Store) throws -> AnswerQuery,
        keeping: (@Sendable (String) -> KeptAnswer)? = nil, _ body: @escaping @Sendable (Store, Day) throws -> String
    ) async throws -> String {
        try await copies.copy(of: ledger).write(storage, as: user) { store in
            try LedgerAnswer.answering(store, try query(store), clock: Today.clock()) { today in try body(store, today) }
        } append: { sets, text in
            try await appended(sets, to: ledger, by: user, keeping: keeping?(text)).seqs
        }
    }

    /// The cookies of a sign-in: its access token (the session) and its refresh token (to renew it).
    func sessionCookies(_ tokens: SyncWire.Tokens, _ request: Request) -> [String] {
        [
            cookie(Self.sessionCookie, tokens.access, maxAge: Tokens.accessLife / 1000, request),
            cookie(Self.refreshCookie, tokens.refresh, maxAge: Tokens.refreshLife / 1000, request),
        ]
    }

    static let clearedSession = [sessionCookie, refreshCookie].map { "\($0)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" }

    /// The cookie that makes `account` this browser's default for `ledger` (a year).
    func fromCookie(_ account: String, ledger: String, _ request: Request) -> String {
        cookie(Self.fromCookie(ledger), Self.cookieValue(account), maxAge: 365 * 86_400, request)
    }

    /// A cookie: HttpOnly, SameSite=Strict, Secure when the request came over TLS through the
    /// proxy (`--behind-proxy` and `X-Forwarded-Proto: https`).
    func cookie(_ name: String, _ value: String, maxAge: Int64, _ request: Request) -> String {
        let secure = behindProxy && request.headers[HTTPField.Name("X-Forwarded-Proto")!] == "https"
        return "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (secure ? "; Secure" : "")
    }

    /// A page with its headers and policy, setting the CSRF cookie it was made with and `cookies`;
    /// `clearing` the session's cookies when the request had some that sign no one in.
    func page(_ page: WebPage.Rendered, csrf: String, _ request: Request, cookies: [String] = [], clearing: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        headers[HTTPField.Name("Content-Security-Policy")!] = Self.contentSecurityPolicy(style: page.style, script: page.script)
        for (name, value) in Self.pageHeaders { headers[HTTPField.Name(name)!] = value }
        let sent = Self.cookies(request)
        if sent[Self.csrfCookie] != csrf {
            headers.append(HTTPField(name: .setCookie, value: "\(Self.csrfCookie)=\(csrf); Path=/; HttpOnly; SameSite=Strict"))
        }
        var cookies = cookies
        if clearing, sent[Self.sessionCookie] != nil || sent[Self.refreshCookie] != nil { cookies += Self.clearedSession }
        if sent[Self.doneCookie] != nil { cookies.append("\(Self.doneCookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0") }
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
    }

    static func seeOther(_ location: String, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: location]
        for (name, value) in pageHeaders { headers[HTTPField.Name(name)!] = value }
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
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
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: 65_536) } catch {
            throw Problem(413, "too_large", "the form is larger than 64 KB: shorten the note and send it again")
        }
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = AnswerQuery.decoded(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? AnswerQuery.decoded(parts[1]) : "" }
        }
        return fields
    }
}
