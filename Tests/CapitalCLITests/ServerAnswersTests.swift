import CapitalTestSupport
import Foundation
import Testing

/// The CLI's answers over HTTP (`GET /v1/ledgers/{id}/forecast` and the others), on SQLite and
/// PostgreSQL: each the same bytes as `capital … --format json` on a device that joined the
/// ledger (its default account given as `default-account`, as each device has its own), before
/// and after a change pushed from another device; each malformed parameter a 400 problem naming it.
@Suite(.serialized) struct ServerAnswersTests {
    static let today = "2025-03-20"

    /// The answers compared: the query, and the CLI's arguments for the same question.
    static let cases: [(query: String, cli: [String])] = [
        ("forecast?until=2025-12&by=month", ["forecast", "--until", "2025-12", "--by", "month"]),
        ("forecast?account=VTB+Debit&days=60&by=week", ["forecast", "--account", "VTB Debit", "--days", "60", "--by", "week"]),
        ("forecast?group=Everyday%20money&until=2025-06&by=day", ["forecast", "--group", "Everyday money", "--until", "2025-06", "--by", "day"]),
        ("forecast?level=6&until=2025-12&by-currency=true", ["forecast", "--level", "6", "--until", "2025-12", "--by-currency"]),
        ("forecast?until=2026-03&expected=true&overdue=ignore", ["forecast", "--until", "2026-03", "--expected", "--overdue", "ignore"]),
        ("forecast?until=2025-12&rate=USD=120&fx-window=30", ["forecast", "--until", "2025-12", "--rate", "USD=120", "--fx-window", "30"]),
        ("can-spend", ["can-spend"]),
        ("can-spend?why=true", ["can-spend", "--why"]),
        ("can-spend?why&all-levels=true&on=2025-04-01", ["can-spend", "--why", "--all-levels", "--on", "2025-04-01"]),
        ("can-spend?level=2&until=%2B2y", ["can-spend", "--level", "2", "--until", "+2y"]),
        ("when?amount=300000&level=4", ["when", "300000", "--level", "4"]),
        ("when?amount=25000000", ["when", "25000000"]),
        ("balance", ["balance"]),
        ("balance?on=2025-02&all=true&by-currency=true", ["balance", "--on", "2025-02", "--all", "--by-currency"]),
        ("dues", ["due", "list"]),
        ("dues?all=true&type=fine", ["due", "list", "--all", "--type", "fine"]),
        ("dues?status=fully-paid", ["due", "list", "--status", "fully-paid"]),
        ("budgets", ["budget", "status"]),
        ("budgets?month=2025-02", ["budget", "status", "--month", "2025-02"]),
        ("expected", ["expected", "list"]),
        ("expected?open=true&kind=loan&until=2025-06", ["expected", "list", "--open", "--kind", "loan", "--until", "2025-06"]),
        ("expected?overdue=1", ["expected", "list", "--overdue"]),
    ]

    /// `GET /v1/ledgers/{ledger}/{query}` as `anna`, seen from the test's day.
    static func answer(_ server: TestServer, _ token: String, _ ledger: String, _ query: String, today: String? = ServerAnswersTests.today)
        -> (Int, String)
    {
        let dated = today.map { query + (query.contains("?") ? "&" : "?") + "today=" + $0 } ?? query
        return ServerAdminTests.call(server, "GET", "/v1/ledgers/\(ledger)/\(dated)", token: token)
    }

    @Test(arguments: SyncFaultTests.storages)
    func eachAnswerIsTheCLIsJSONBeforeAndAfterAChangeFromAnotherDevice(postgres: Bool) throws {
        let server = try TestServer(postgres: postgres)
        let sync = SyncCommandTests(server: server)
        let (home, phone, ledger) = try sync.shared()
        let token = try #require(ServerAdminTests.accessToken(server, "anna"))
        func compare(_ label: String) {
            for (query, arguments) in Self.cases {
                let asked = query + (query.contains("?") ? "&" : "?") + "default-account=VTB+Debit"
                let (status, body) = Self.answer(server, token, ledger, asked)
                let expected = home.ok(["--db", phone] + arguments + ["--today", Self.today, "--format", "json"])
                #expect(status == 200 && body == expected, "\(label) \(query): \(status)\n\(body)\n--- the CLI:\n\(expected)")
            }
        }
        compare("shared:")
        let before = Self.answer(server, token, ledger, "balance").1
        // A change from the phone reaches the server's copy (its log's next page), and home.
        home.ok(["--db", phone, "spend", "120000", "Groceries", "--from", "VTB Debit", "--on", "2025-03-19", "--payee", "Market"])
        home.ok(["--db", phone, "sync"])
        home.ok(["sync"])
        compare("after a push:")
        #expect(Self.answer(server, token, ledger, "balance").1 != before, "the server's copy took the phone's spending")
        // CSV as the CLI writes it.
        let (status, csv) = Self.answer(server, token, ledger, "forecast?until=2025-12&format=csv&default-account=VTB%20Debit")
        #expect(status == 200 && csv == home.ok(["--db", phone, "forecast", "--until", "2025-12", "--today", Self.today, "--format", "csv"]))
        // Without a default account, budgets and bills that name no account are paid from none: a
        // device that has none set answers the same.
        let tablet = home.path("tablet.sqlite")
        sync.login(home, db: tablet)
        home.ok(["--db", tablet, "sync", "join", ledger])
        let (_, bare) = Self.answer(server, token, ledger, "can-spend?why=true")
        #expect(bare == home.ok(["--db", tablet, "can-spend", "--why", "--today", Self.today, "--format", "json"]))
        // A viewer reads; someone else's ledger does not exist; no token, no answer.
        home.ok(["sync", "share", "vera", "--role", "viewer"])
        let vera = try #require(ServerAdminTests.accessToken(server, "vera"))
        #expect(Self.answer(server, vera, ledger, "can-spend").0 == 200)
        let boris = try #require(ServerAdminTests.accessToken(server, "boris"))
        #expect(Self.answer(server, boris, ledger, "can-spend").0 == 404)
        #expect(ServerAdminTests.call(server, "GET", "/v1/ledgers/\(ledger)/can-spend").0 == 401)
        // Without `today` the server's own day: an answer, whatever the day is.
        #expect(Self.answer(server, token, ledger, "balance", today: nil).0 == 200)
    }

    /// Each parameter malformed, or not one of the answer's: 400 problem JSON whose
    /// `invalid-params` names it.
    @Test func eachMalformedParameterIsAProblemNamingIt() throws {
        let server = try TestServer(users: ["anna"])
        let sync = SyncCommandTests(server: server)
        let home = try CLI.household()
        sync.login(home)
        home.ok(["sync", "create", "--name", "Household"])
        let ledger = try #require((try home.json(["sync", "status"]) as? [String: Any])?["ledger"] as? String)
        let token = try #require(ServerAdminTests.accessToken(server, "anna"))
        let bad: [(query: String, parameter: String, mentions: String)] = [
            ("forecast?until=yesterday", "until", "yesterday"),
            ("forecast?until=2020-01-01", "until", "before"),
            ("forecast?days=-5", "days", "-5"),
            ("forecast?days=many", "days", "a whole number"),
            ("forecast?level=9", "level", "9"),
            ("forecast?level=x", "level", "a whole number"),
            ("forecast?by=year", "by", "day, week or month"),
            ("forecast?account=Nowhere", "account", "Nowhere"),
            ("forecast?group=Nowhere", "group", "Nowhere"),
            ("forecast?expected=perhaps", "expected", "true or false"),
            ("forecast?overdue=later", "overdue", "count or ignore"),
            ("forecast?rate=USD", "rate", "USD"),
            ("forecast?fx-window=-1", "fx-window", "-1"),
            ("forecast?color=red", "color", "not a parameter"),
            ("forecast?level=4&level=5", "level", "once"),
            ("can-spend?on=2025-02-30", "on", "2025-02-30"),
            ("can-spend?why=maybe", "why", "true or false"),
            ("can-spend?level=3&all-levels=true", "level", "not both"),
            ("when", "amount", "the amount"),
            ("when?amount=abc", "amount", "abc"),
            ("when?amount=-5", "amount", "-5"),
            ("balance?on=2025-13", "on", "2025-13"),
            ("dues?type=cheque", "type", "bill, fine"),
            ("dues?status=late", "status", "unpaid, partially-paid, fully-paid"),
            ("budgets?month=2025-13", "month", "2025-13"),
            ("budgets?month=March", "month", "March"),
            ("expected?kind=rent", "kind", "schedule"),
            ("expected?open=true&overdue=true", "overdue", "not both"),
            ("expected?from=soon", "from", "soon"),
            ("balance?today=tomorrow", "today", "tomorrow"),
            ("balance?format=xml", "format", "json, csv"),
            ("can-spend?default-account=Nowhere", "default-account", "Nowhere"),
            ("can-spend?default-account=Groceries", "default-account", "a category cannot be the default account"),
        ]
        for (query, parameter, mentions) in bad {
            let (status, body) = Self.answer(server, token, ledger, query)
            let problem = ServerAdminTests.object(body)
            let named = (problem["invalid-params"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(status == 400 && named == [parameter], "\(query): \(status) \(body)")
            #expect((problem["detail"] as? String)?.contains(mentions) == true, "\(query): \(body)")
            #expect(problem["type"] as? String == "about:blank" && problem["status"] as? Int == 400, "\(query): \(body)")
        }
    }
}
