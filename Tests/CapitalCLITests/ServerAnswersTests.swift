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

    /// `POST` `body` (of `type`) to `/v1/ledgers/{ledger}/{query}` as `token`, seen from the test's
    /// day: the status and the body (de-chunked when it streamed).
    static func post(_ server: TestServer, _ token: String, _ ledger: String, _ query: String, body: String, type: String = "application/json")
        -> (Int, String)
    {
        let port = Int(server.url.split(separator: ":").last ?? "") ?? 0
        let path = "/v1/ledgers/\(ledger)/\(query)\(query.contains("?") ? "&" : "?")today=\(today)&default-account=VTB+Debit"
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCapital-Protocol: 1\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let answer = SyncFaultTests.exchange(port: port, request)
        let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
        guard let split = answer.range(of: "\r\n\r\n") else { return (status, "") }
        let head = answer[..<split.lowerBound].lowercased()
        let rest = Array(answer[split.upperBound...].utf8)
        guard head.contains("transfer-encoding: chunked") else { return (status, String(decoding: rest, as: UTF8.self)) }
        // Each chunk: its size in hex, CRLF, its bytes, CRLF; the last is of size 0.
        var bytes: [UInt8] = []
        var at = 0
        while let lineEnd = rest[at...].firstIndex(of: UInt8(ascii: "\r")),
            let size = Int(String(decoding: rest[at..<lineEnd], as: UTF8.self), radix: 16), size > 0, lineEnd + 2 + size <= rest.count
        {
            bytes += rest[(lineEnd + 2)..<(lineEnd + 2 + size)]
            at = lineEnd + 2 + size + 2
        }
        return (status, String(decoding: bytes, as: UTF8.self))
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

    /// `scenario try` and `scenario eval` over HTTP: the phone's CLI answers, streamed for eval;
    /// each bad field, parameter and body a 400 problem naming it.
    @Test func scenariosAreTriedAndEvaluatedAsTheCLIDoes() throws {
        let server = try TestServer()
        let sync = SyncCommandTests(server: server)
        let (home, phone, ledger) = try sync.shared()
        let token = try #require(ServerAdminTests.accessToken(server, "anna"))
        let cli = ["--db", phone, "--today", Self.today]
        let plan = #"{"price": 1500000, "date": "2025-06-01", "down": "300000", "loan_rate": 14, "loan_term": "60", "monthly_cost": "7000"}"#
        let options = [
            "--price", "1500000", "--on", "2025-06-01", "--down", "300000", "--loan-rate", "14", "--loan-term", "60", "--monthly-cost", "7000",
        ]
        for (query, flags) in [
            ("", [String]()), ("?why=true&earliest=true", ["--why", "--earliest"]),
            ("?level=6&until=2026-06", ["--level", "6", "--until", "2026-06"]),
        ] {
            let (status, body) = Self.post(server, token, ledger, "scenarios/try" + query, body: plan)
            let expected = home.ok(cli + ["scenario", "try"] + options + flags + ["--format", "json"])
            #expect(status == 200 && body == expected, "try\(query): \(status)\n\(body)\n--- the CLI:\n\(expected)")
        }
        let cars = try String(contentsOfFile: CLI.samplePath.replacingOccurrences(of: "household.yaml", with: "cars.csv"), encoding: .utf8)
        for (query, flags) in [
            ("", ["--format", "json"]), ("?format=csv", ["--format", "csv"]), ("?earliest=true&format=csv", ["--earliest", "--format", "csv"]),
            ("?sort=total-cost&top=3", ["--sort", "total-cost", "--top", "3", "--format", "json"]),
        ] {
            let (status, body) = Self.post(server, token, ledger, "scenarios/eval" + query, body: cars, type: "text/csv")
            let expected = home.ok(cli + ["scenario", "eval", CLI.samplePath.replacingOccurrences(of: "household.yaml", with: "cars.csv")] + flags)
            #expect(status == 200 && body == expected, "eval\(query): \(status)\n\(body)\n--- the CLI:\n\(expected)")
        }
        // A JSON array in, as `scenario eval plans.json` reads one.
        let plans = #"[{"name": "cash", "price": 900000, "date": "2025-09-01"}, {"name": "bad", "price": "lots", "date": "2025-09-01"}]"#
        let file = home.path("plans.json")
        try plans.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, evaluated) = Self.post(server, token, ledger, "scenarios/eval", body: plans)
        let expected = home.run(cli + ["scenario", "eval", file, "--format", "json"])
        #expect(expected.status == 65 && status == 200 && evaluated == expected.stdout, "\(evaluated)\n--- the CLI:\n\(expected)")
        // Bad input: each names its field or parameter.
        let bad: [(query: String, body: String, type: String, name: String?, mentions: String)] = [
            ("scenarios/try", #"{"price": "lots", "date": "2025-06-01"}"#, "application/json", "price", "lots"),
            ("scenarios/try", #"{"price": 1000, "date": "2025-02-30"}"#, "application/json", "date", "2025-02-30"),
            ("scenarios/try", #"{"price": 1000, "date": "2025-01-01"}"#, "application/json", "date", "before today"),
            ("scenarios/try", #"{"price": 1000, "date": "2025-06-01", "colour": "red"}"#, "application/json", "colour", "not a scenario field"),
            (
                "scenarios/try", #"{"price": 1000, "date": "2025-06-01", "down": 2000, "loan_rate": 10, "loan_term": 12}"#, "application/json",
                "down", "2000"
            ),
            ("scenarios/try", "price=1000", "application/json", nil, "not a JSON object"),
            ("scenarios/try?level=3", #"{"price": 1000, "date": "2025-06-01"}"#, "application/json", "level", "3"),
            ("scenarios/try?from=Nowhere", #"{"price": 1000, "date": "2025-06-01"}"#, "application/json", "from", "Nowhere"),
            ("scenarios/eval?sort=cheapest", cars, "text/csv", "sort", "max-price, worst-balance or total-cost"),
            ("scenarios/eval?top=3", cars, "text/csv", "top", "needs sort"),
            ("scenarios/eval?sort=max-price&top=0", cars, "text/csv", "top", "1 or more"),
            ("scenarios/eval", "cost,when\n1,2\n", "text/csv", nil, "line 1"),
            ("scenarios/eval", "", "text/csv", nil, "empty"),
            ("scenarios/eval", #"{"price": 1}"#, "application/json", nil, "not a JSON array"),
        ]
        for (query, body, type, name, mentions) in bad {
            let (status, text) = Self.post(server, token, ledger, query, body: body, type: type)
            let problem = ServerAdminTests.object(text)
            let named = (problem["invalid-params"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(status == 400 && named == name.map { [$0] }, "\(query) \(body): \(status) \(text)")
            #expect((problem["detail"] as? String)?.contains(mentions) == true, "\(query) \(body): \(text)")
        }
    }

    /// A quick entry over HTTP (`POST …/transactions`): recorded as the signed-in member's, on
    /// every device after a sync and in the server's answers; a viewer refused; each bad field a
    /// 400 problem naming it, with nothing appended to the log.
    @Test(arguments: SyncFaultTests.storages)
    func aQuickEntryOverHTTPReachesEveryDevice(postgres: Bool) throws {
        let server = try TestServer(postgres: postgres)
        let sync = SyncCommandTests(server: server)
        let (home, phone, ledger) = try sync.shared()
        home.ok(["sync", "share", "boris"])
        home.ok(["sync", "share", "vera", "--role", "viewer"])
        let anna = try #require(ServerAdminTests.accessToken(server, "anna"))
        let boris = try #require(ServerAdminTests.accessToken(server, "boris"))
        let vera = try #require(ServerAdminTests.accessToken(server, "vera"))
        func head() -> Int? {
            (ServerAdminTests.object(ServerAdminTests.call(server, "GET", "/v1/ledgers/\(ledger)", token: anna).1)["head"] as? Int)
        }
        let coffee =
            #"{"kind": "spend", "amount": "350", "category": "Eating out", "from": "Cash", "payee": "Coffee", "note": "<script>alert(1)</script>", "tags": ["work"]}"#
        let (status, body) = Self.post(server, anna, ledger, "transactions", body: coffee)
        #expect(status == 201, "\(body)")
        let id = try #require(ServerAdminTests.object(body)["id"] as? String)
        // Boris writes too: his own device on the server, not anna's.
        let (borisStatus, borisBody) = Self.post(
            server, boris, ledger, "transactions", body: #"{"kind": "earn", "amount": 1200.5, "category": "Other income"}"#)
        #expect(borisStatus == 201, "\(borisBody)")
        #expect(Self.post(server, vera, ledger, "transactions", body: coffee).0 == 403)
        home.ok(["sync"])
        home.ok(["--db", phone, "sync"])
        // The phone holds it as the server answered it, the spender the member who wrote it.
        let shown = home.ok(["--db", phone, "tx", "show", id, "--format", "json"])
        #expect(shown == body, "\(shown)\n--- the server:\n\(body)")
        let record = ServerAdminTests.object(body)
        #expect(
            record["spender"] as? String == "anna" && record["payee"] as? String == "Coffee"
                && record["note"] as? String == "<script>alert(1)</script>")
        #expect((ServerAdminTests.object(borisBody))["spender"] as? String == "boris")
        let devices = ServerAdminTests.call(server, "GET", "/v1/ledgers/\(ledger)/devices", token: anna).1
        #expect(devices.contains("\"boris\""), "\(devices)")
        // The server's answers still agree with the phone's after its copy wrote as two people.
        for query in ["can-spend?why=true&default-account=VTB+Debit", "balance?all=true"] {
            let (_, answer) = Self.answer(server, anna, ledger, query)
            let arguments = query.hasPrefix("can-spend") ? ["can-spend", "--why"] : ["balance", "--all"]
            #expect(answer == home.ok(["--db", phone] + arguments + ["--today", Self.today, "--format", "json"]), "\(query): \(answer)")
        }
        // Bad input: each names its field; the log takes nothing.
        let before = head()
        let bad: [(body: String, name: String?, mentions: String)] = [
            (#"{"kind": "steal", "amount": "1", "category": "Groceries"}"#, "kind", "spend, earn or transfer"),
            (#"{"kind": "spend", "amount": "1"}"#, "category", "expense category"),
            (#"{"kind": "spend", "amount": "-5", "category": "Groceries"}"#, "amount", "-5"),
            (#"{"kind": "spend", "amount": "lots", "category": "Groceries"}"#, "amount", "lots"),
            (#"{"kind": "spend", "amount": "0", "category": "Groceries"}"#, "amount", "more than zero"),
            (#"{"kind": "spend", "amount": "1", "category": "Nowhere"}"#, "category", "Nowhere"),
            (#"{"kind": "spend", "amount": "1", "category": "Salary"}"#, "category", "not an expense category"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "from": "Nowhere"}"#, "from", "Nowhere"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "on": "2025-02-30"}"#, "on", "2025-02-30"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "on": "0000-01-01"}"#, "on", "1900 to 2200"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "payee": "Tab\there"}"#, "payee", "U+0009"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "tags": ["a\u001bb"]}"#, "tags", "U+001B"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "settles": "bad"}"#, "settles", "bad"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "matchDays": 999}"#, "matchDays", "0 to 366"),
            (#"{"kind": "transfer", "amount": "1", "from": "Cash", "to": "Cash"}"#, "to", "same account"),
            (#"{"kind": "transfer", "amount": "1", "from": "Cash"}"#, "to", "reaches"),
            (#"{"kind": "spend", "amount": "1", "category": "Groceries", "paid": "2"}"#, "paid", "nothing changes currency"),
            (#"{"kind": "spend", "category": "Groceries"}"#, nil, "amount"),
            ("amount=1", nil, "not the JSON expected"),
        ]
        for (body, name, mentions) in bad {
            let (status, text) = Self.post(server, anna, ledger, "transactions", body: body)
            let problem = ServerAdminTests.object(text)
            let named = (problem["invalid-params"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(status == 400 && named == name.map { [$0] }, "\(body): \(status) \(text)")
            #expect((problem["detail"] as? String)?.contains(mentions) == true, "\(body): \(text)")
        }
        #expect(head() == before, "a refused entry appended nothing")
    }
}
