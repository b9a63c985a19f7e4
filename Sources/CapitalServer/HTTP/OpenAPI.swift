import CapitalOutput

/// `GET /openapi.json`: the server's API as an OpenAPI 3.1 document, made from the same tables
/// the routes read (each answer's parameters, `LedgerAnswer.parameters`); a test holds its
/// paths and methods to the router's, and `Scripts/api-fuzz.sh` runs schemathesis against it.
enum OpenAPI {
    /// One operation: its method, path (`{ledger}` for a path parameter), what it is, and its parts.
    struct Operation {
        var method: String
        var path: String
        var id: String
        var summary: String
        var tag: String
        /// Whether it needs a bearer token.
        var signedIn = true
        /// Whether it takes the `Capital-Protocol` header (every route but health, metrics and this document).
        var protocolHeader = true
        var query: [String] = []
        /// Whether it takes an `Idempotency-Key` (a write whose answer a resend gets again).
        var idempotent = false
        var body: (type: String, schema: JSON)?
        var success: (status: String, type: String?, schema: JSON?)
    }

    static let ledger = "/v1/ledgers/{ledger}"

    /// Every operation the server answers.
    static var operations: [Operation] {
        var operations: [Operation] = [
            Operation(
                method: "get", path: "/health", id: "health", summary: "Whether the server and its storage answer.", tag: "operations",
                signedIn: false, protocolHeader: false, success: ("200", "application/json", object([:]))),
            Operation(
                method: "get", path: "/metrics", id: "metrics", summary: "Counters and timers in Prometheus' text format.", tag: "operations",
                signedIn: false, protocolHeader: false, success: ("200", "text/plain", .object([("type", .string("string"))]))),
            Operation(
                method: "get", path: "/openapi.json", id: "openapi", summary: "This document.", tag: "operations", signedIn: false,
                protocolHeader: false, success: ("200", "application/json", object([:]))),
            Operation(
                method: "get", path: "/v1/health", id: "protocol", summary: "The sync protocol's version.", tag: "operations", signedIn: false,
                protocolHeader: false, success: ("200", "application/json", object(["protocol": integer]))),
            Operation(
                method: "post", path: "/v1/login", id: "login", summary: "Sign in: a device's tokens.", tag: "sign-in", signedIn: false,
                body: ("application/json", object(["user": string, "password": string], required: ["user", "password"])),
                success: ("200", "application/json", ref("Tokens"))),
            Operation(
                method: "post", path: "/v1/refresh", id: "refresh", summary: "New tokens for a refresh token (rotated once).", tag: "sign-in",
                signedIn: false, body: ("application/json", object(["refresh": string], required: ["refresh"])),
                success: ("200", "application/json", ref("Tokens"))),
            Operation(
                method: "post", path: "/v1/logout", id: "logout", summary: "Sign this device out.", tag: "sign-in",
                success: ("204", nil, nil)),
            Operation(
                method: "post", path: "/v1/password-reset", id: "resetPassword", summary: "Choose a new password with a reset token.",
                tag: "sign-in", signedIn: false,
                body: ("application/json", object(["user": string, "token": string, "password": string], required: ["user", "token", "password"])),
                success: ("204", nil, nil)),
            Operation(
                method: "get", path: "/v1/ledgers", id: "ledgers", summary: "The ledgers the signed-in person is a member of.", tag: "ledgers",
                success: ("200", "application/json", array(ref("Ledger")))),
            Operation(
                method: "post", path: "/v1/ledgers", id: "createLedger", summary: "A new ledger, its owner the signed-in person.", tag: "ledgers",
                body: (
                    "application/json",
                    object(
                        ["name": .object([("type", .string("string")), ("minLength", .number("1")), ("maxLength", .number("200"))])],
                        required: ["name"])
                ),
                success: ("201", "application/json", ref("Ledger"))),
            Operation(
                method: "get", path: ledger, id: "ledger", summary: "One ledger.", tag: "ledgers", success: ("200", "application/json", ref("Ledger"))
            ),
            Operation(
                method: "post", path: ledger + "/changes", id: "push", summary: "Push change sets (a member).", tag: "sync",
                body: ("application/json", object(["sets": array(object([:]))], required: ["sets"])),
                success: ("200", "application/json", object(["seqs": array(integer), "head": integer]))),
            Operation(
                method: "get", path: ledger + "/changes", id: "pull", summary: "The change sets after a sequence number.", tag: "sync",
                query: ["after", "limit"],
                success: ("200", "application/json", object(["sets": array(object([:])), "last": integer, "head": integer]))),
            Operation(
                method: "get", path: ledger + "/snapshot", id: "snapshot", summary: "Every value's winner at the log's head.", tag: "sync",
                success: ("200", "application/json", object(["head": integer, "entries": array(.object([("type", .string("array"))]))]))),
            Operation(
                method: "get", path: ledger + "/members", id: "members", summary: "The ledger's members and their roles.", tag: "ledgers",
                success: ("200", "application/json", array(object(["user": string, "role": string])))),
            Operation(
                method: "get", path: ledger + "/devices", id: "devices", summary: "The devices that wrote to the ledger and their people.",
                tag: "ledgers", success: ("200", "application/json", array(object(["device": string, "user": string])))),
            Operation(
                method: "put", path: ledger + "/members/{user}", id: "share", summary: "Give someone a role (an owner).", tag: "ledgers",
                body: (
                    "application/json",
                    object(
                        ["role": .object([("type", .string("string")), ("enum", .array(["owner", "member", "viewer"].map(JSON.string)))])],
                        required: ["role"])
                ),
                success: ("200", "application/json", object(["user": string, "role": string]))),
            Operation(
                method: "delete", path: ledger + "/members/{user}", id: "unshare", summary: "Remove a member (an owner), or leave.", tag: "ledgers",
                success: ("204", nil, nil)),
            Operation(
                method: "get", path: "/v1/admin/users", id: "users", summary: "The server's users (an administrator).", tag: "administration",
                success: ("200", "application/json", array(ref("User")))),
            Operation(
                method: "post", path: "/v1/admin/users/{user}/disable", id: "disableUser", summary: "Disable a user.", tag: "administration",
                success: ("200", "application/json", ref("User"))),
            Operation(
                method: "post", path: "/v1/admin/users/{user}/enable", id: "enableUser", summary: "Enable a user.", tag: "administration",
                success: ("200", "application/json", ref("User"))),
            Operation(
                method: "post", path: "/v1/admin/users/{user}/reset", id: "issueReset", summary: "A one-time password reset token.",
                tag: "administration", success: ("201", "application/json", object(["user": string, "token": string, "expiresAt": integer]))),
            Operation(
                method: "get", path: "/v1/admin/audit", id: "audit", summary: "The audit log.", tag: "administration",
                query: ["after", "limit", "user"], success: ("200", "application/json", object(["events": array(object([:])), "last": integer]))),
        ]
        let html = JSON.object([("type", .string("string"))])
        let form = { (fields: [String], optional: [String]) in
            (
                "application/x-www-form-urlencoded",
                object(Dictionary(uniqueKeysWithValues: (fields + optional).map { ($0, string) }), required: fields)
            )
        }
        operations += [
            Operation(
                method: "get", path: "/", id: "page", summary: "The web page: sign in, or what the signed-in person can spend.", tag: "web",
                signedIn: false, protocolHeader: false, query: ["ledger"], success: ("200", "text/html", html)),
            Operation(
                method: "post", path: "/session", id: "pageSignIn", summary: "Sign in from the page (a session cookie).", tag: "web",
                signedIn: false, protocolHeader: false, body: form(["user", "password", "csrf"], []), success: ("303", nil, nil)),
            Operation(
                method: "post", path: ledger.replacingOccurrences(of: "/v1", with: "") + "/entries", id: "pageQuickAdd",
                summary: "Add an expense from the page (a member, signed in by its cookie).", tag: "web", signedIn: false, protocolHeader: false,
                body: form(["amount", "category", "csrf"], ["from", "note", "spender"]), success: ("303", nil, nil)),
            Operation(
                method: "post", path: ledger.replacingOccurrences(of: "/v1", with: "") + "/dues/{number}/pay", id: "pagePayDue",
                summary: "Pay a bill or fine from the page (a member, signed in by its cookie).", tag: "web", signedIn: false,
                protocolHeader: false, body: form(["amount", "from", "csrf"], []), success: ("303", nil, nil)),
            Operation(
                method: "get", path: "/favicon.ico", id: "icon", summary: "No icon (204), so that browsers stop asking for one.", tag: "web",
                signedIn: false, protocolHeader: false, success: ("204", nil, nil)),
            Operation(
                method: "post", path: "/session/end", id: "pageSignOut", summary: "Sign out from the page.", tag: "web", signedIn: false,
                protocolHeader: false, body: form(["csrf"], []), success: ("303", nil, nil)),
        ]
        for answer in LedgerAnswer.allCases {
            operations.append(
                Operation(
                    method: "get", path: ledger + "/" + answer.rawValue, id: answer.operationID, summary: answer.summary, tag: "answers",
                    query: answer.parameters.sorted(), success: ("200", "application/json", answerSchema)))
        }
        operations += [
            Operation(
                method: "post", path: ledger + "/scenarios/try", id: "tryScenario",
                summary: "capital scenario try: can we buy it? One purchase with its financing and costs.", tag: "answers",
                query: ScenarioAnswer.tryParameters.sorted(), body: ("application/json", scenarioSchema),
                success: ("200", "application/json", answerSchema)),
            Operation(
                method: "post", path: ledger + "/scenarios/eval", id: "evalScenarios",
                summary: "capital scenario eval: every scenario of a CSV (or JSON array), a result row each, streamed.", tag: "answers",
                query: ScenarioAnswer.evalParameters.sorted(), body: ("text/csv", .object([("type", .string("string"))])),
                success: ("200", "application/json", answerSchema)),
            Operation(
                method: "post", path: ledger + "/transactions", id: "quickEntry", summary: "capital spend, earn or transfer (a member).",
                tag: "answers", query: ["today", "default-account"], idempotent: true, body: ("application/json", quickEntrySchema),
                success: ("201", "application/json", object([:]))),
        ]
        return operations
    }

    /// The document, as `GET /openapi.json` answers it (made once).
    static let document: String = make()

    private static func make() -> String {
        var paths: [(String, [(String, JSON)])] = []
        for operation in operations {
            if let index = paths.firstIndex(where: { $0.0 == operation.path }) {
                paths[index].1.append((operation.method, json(operation)))
            } else {
                paths.append((operation.path, [(operation.method, json(operation))]))
            }
        }
        let root = JSON.object([
            ("openapi", .string("3.1.0")),
            (
                "info",
                .object([
                    ("title", .string("capital")), ("version", .string("1")),
                    (
                        "description",
                        .string(
                            "capital's server: sign-in, shared ledgers and their sync log, administration, and the CLI's answers "
                                + "(forecast, can-spend, when, balance, dues, budgets, expected, scenarios, quick entries) computed from "
                                + "the server's copy of a ledger, as `capital … --format json` writes them. Errors are RFC 9457 problem "
                                + "details; each parameter that cannot be used is named in `invalid-params`.")
                    ),
                ])
            ),
            ("paths", .object(paths.map { ($0.0, .object($0.1)) })),
            ("components", components),
        ])
        return root.text(indent: 0) + "\n"
    }

    // MARK: Parts

    private static func json(_ operation: Operation) -> JSON {
        var fields: [(String, JSON)] = [
            ("operationId", .string(operation.id)), ("summary", .string(operation.summary)), ("tags", .array([.string(operation.tag)])),
        ]
        var parameters: [JSON] = []
        if operation.protocolHeader { parameters.append(.object([("$ref", .string("#/components/parameters/CapitalProtocol"))])) }
        if operation.idempotent { parameters.append(.object([("$ref", .string("#/components/parameters/IdempotencyKey"))])) }
        for name in pathParameters(operation.path) {
            parameters.append(
                .object([("name", .string(name)), ("in", .string("path")), ("required", .bool(true)), ("schema", string)]))
        }
        for name in operation.query {
            parameters.append(.object([("name", .string(name)), ("in", .string("query")), ("schema", parameterSchema(name, path: operation.path))]))
        }
        if !parameters.isEmpty { fields.append(("parameters", .array(parameters))) }
        if let body = operation.body {
            var content: [(String, JSON)] = [(body.type, .object([("schema", body.schema)]))]
            if operation.id == "evalScenarios" { content.append(("application/json", .object([("schema", array(scenarioSchema))]))) }
            fields.append(("requestBody", .object([("required", .bool(true)), ("content", .object(content))])))
        }
        var success: [(String, JSON)] = [("description", .string(operation.summary))]
        if let type = operation.success.type, let schema = operation.success.schema {
            var content: [(String, JSON)] = [(type, .object([("schema", schema)]))]
            if operation.tag == "answers" && operation.method == "get" || operation.id == "evalScenarios" || operation.id == "tryScenario" {
                content.append(("text/csv", .object([("schema", .object([("type", .string("string"))]))])))
            }
            success.append(("content", .object(content)))
        }
        // A page's form refused is the page again saying why; what fails beneath it (storage) is problem JSON.
        let failure: JSON =
            operation.tag == "web"
            ? .object([
                ("description", .string("The page again, saying why the form was refused; or an RFC 9457 problem.")),
                (
                    "content",
                    .object([
                        ("text/html", .object([("schema", .object([("type", .string("string"))]))])),
                        ("application/problem+json", .object([("schema", ref("Problem"))])),
                    ])
                ),
            ]) : .object([("$ref", .string("#/components/responses/Problem"))])
        fields.append(("responses", .object([(operation.success.status, .object(success)), ("default", failure)])))
        if operation.signedIn { fields.append(("security", .array([.object([("bearer", .array([]))])]))) }
        return .object(fields)
    }

    /// The methods of the operations whose path `path` (as requested) is, upper-case and sorted:
    /// none for a path the server does not have.
    static func methods(of path: String) -> [String] {
        let asked = path.split(separator: "/", omittingEmptySubsequences: false)
        let matching = byPath.first { pattern, _ in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == asked.count && zip(parts, asked).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        return matching?.1 ?? []
    }

    private static let byPath: [(String, [String])] = Dictionary(grouping: operations, by: \.path).map { path, operations in
        (path, operations.map { $0.method.uppercased() }.sorted())
    }

    /// The names in braces of a path: `ledger` of `/v1/ledgers/{ledger}`.
    static func pathParameters(_ path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
    }

    /// A query parameter's schema and description, by its name (every answer names one thing alike).
    private static func parameterSchema(_ name: String, path: String) -> JSON {
        func with(_ schema: JSON, _ description: String) -> JSON {
            guard case .object(let fields) = schema else { return schema }
            return .object(fields + [("description", .string(description))])
        }
        func choice(_ values: [String], _ description: String) -> JSON {
            with(.object([("type", .string("string")), ("enum", .array(values.map(JSON.string)))]), description)
        }
        let text = JSON.object([("type", .string("string")), ("minLength", .number("1"))])
        let date = JSON.object([("type", .string("string")), ("format", .string("date")), ("pattern", .string("^(19|20)[0-9]{2}-"))])
        let month = JSON.object([("type", .string("string")), ("pattern", .string("^(19|20)[0-9]{2}-(0[1-9]|1[0-2])$"))])
        let flag = JSON.object([("type", .string("boolean"))])
        func count(_ low: Int, _ high: Int) -> JSON {
            .object([("type", .string("integer")), ("minimum", .number(String(low))), ("maximum", .number(String(high)))])
        }
        switch name {
        case "today": return with(date, "The day answers are seen from (the CLI's --today); default the server's day.")
        case "format": return choice(["json", "csv"], "The answer as JSON (default) or CSV, as the CLI's --format writes it.")
        case "default-account": return with(text, "The asking device's default account: what pays budgets and bills that name none.")
        case "until" where path.hasSuffix("/expected"), "from" where path.hasSuffix("/expected"):
            return with(.object([("anyOf", .array([date, month]))]), "A day, or a month (its first or last day).")
        case "until": return with(text, "The last day: YYYY-MM-DD, YYYY-MM for its last day, or +N followed by d, w, m or y.")
        case "days": return with(count(1, 36_600), "This many days ahead instead of until.")
        case "top": return with(count(1, 1_000_000), "With sort: keep only the first N rows.")
        case "fx-window": return with(count(1, 3_660), "Days up to today the pessimistic case looks back at rates.")
        case "after": return with(count(0, Int(Int64.max)), "The last sequence number seen.")
        case "limit": return with(count(1, 1_000), "How many at most.")
        case "level": return with(count(1, 6), "A ladder level (4 to 6 for scenarios).")
        case "by": return choice(["day", "week", "month"], "The period.")
        case "overdue" where path.hasSuffix("/expected"): return with(flag, "Only open flows dated before today.")
        case "overdue": return choice(["count", "ignore"], "Expected flows before today still open: count them today, or leave them out.")
        case "type": return choice(["bill", "fine"], "Only bills or only fines.")
        case "status": return choice(["unpaid", "partially-paid", "fully-paid"], "Only dues of this status.")
        case "kind": return choice(["schedule", "loan", "deposit", "due", "card", "budget"], "Only expected flows of this kind.")
        case "sort": return choice(["max-price", "worst-balance", "total-cost"], "Rank the results by this key.")
        case "month": return with(month, "A month, YYYY-MM.")
        case "on": return with(.object([("anyOf", .array([date, month]))]), "A day (YYYY-MM for its last day where a month makes sense).")
        case "rate": return with(text, "What if CODE were worth RATE every day after today: CODE=RATE.")
        case "ledger":
            return with(
                .object([("type", .string("string"))]),
                "Which of the person's ledgers the page shows (default, or when empty or not theirs: the first).")
        case "expected", "why", "all-levels", "all", "by-currency", "open", "earliest": return with(flag, "A flag, as the CLI's --\(name).")
        default: return with(text, "As the CLI's --\(name).")
        }
    }

    private static var components: JSON {
        .object([
            ("securitySchemes", .object([("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))]))])),
            (
                "parameters",
                .object([
                    (
                        "CapitalProtocol",
                        .object([
                            ("name", .string("Capital-Protocol")), ("in", .string("header")), ("required", .bool(true)),
                            ("schema", .object([("type", .string("string")), ("enum", .array([.string("1")]))])),
                            ("description", .string("The sync protocol's version the client speaks.")),
                        ])
                    ),
                    (
                        "IdempotencyKey",
                        .object([
                            ("name", .string("Idempotency-Key")), ("in", .string("header")), ("required", .bool(false)),
                            (
                                "schema",
                                .object([
                                    ("type", .string("string")), ("minLength", .number("1")), ("maxLength", .number("255")),
                                    ("pattern", .string("^[!-~]+$")),
                                ])
                            ),
                            (
                                "description",
                                .string(
                                    "A key of the client's choosing (a UUID) for this write: sent again with the same key by the same "
                                        + "person within 24 hours, the request is answered as the first time (same status and body, with "
                                        + "Idempotent-Replayed: true) and writes nothing; the key with another request is 422 "
                                        + "idempotency_key_reused. A malformed key is 400 naming the header.")
                            ),
                        ])
                    ),
                ])
            ),
            (
                "responses",
                .object([
                    (
                        "Problem",
                        .object([
                            ("description", .string("An RFC 9457 problem: what went wrong, its machine code, and the parameters at fault.")),
                            ("content", .object([("application/problem+json", .object([("schema", ref("Problem"))]))])),
                        ])
                    )
                ])
            ),
            (
                "schemas",
                .object([
                    (
                        "Problem",
                        object(
                            [
                                "type": string, "title": string, "status": integer, "detail": string, "code": string,
                                "invalid-params": array(object(["name": string, "reason": string], required: ["name", "reason"])),
                            ], required: ["type", "title", "status", "detail", "code"])
                    ),
                    (
                        "Tokens",
                        object(
                            ["user": string, "access": string, "accessExpiresAt": integer, "refresh": string, "refreshExpiresAt": integer],
                            required: ["user", "access", "accessExpiresAt", "refresh", "refreshExpiresAt"])
                    ),
                    ("Ledger", object(["id": string, "name": string, "role": string, "head": integer], required: ["id", "name", "role", "head"])),
                    ("User", object(["name": string, "admin": boolean, "disabled": boolean, "createdAt": string])),
                ])
            ),
        ])
    }

    /// An answer: the CLI's JSON, an object or an array.
    private static let answerSchema = JSON.object([("type", .array([.string("object"), .string("array")]))])

    private static var scenarioSchema: JSON {
        var properties: [String: JSON] = [:]
        for column in ["name", "price", "date", "down", "loan_rate", "loan_term", "loan_method", "instalments", "monthly_cost", "yearly_cost"]
            + ["cost_start", "monthly_income_change", "income_start", "sale", "sale_date"]
        {
            properties[column] = .object([("type", .array([.string("string"), .string("number")]))])
        }
        return object(properties, required: ["price", "date"])
    }

    private static var quickEntrySchema: JSON {
        let amount = JSON.object([("type", .array([.string("string"), .string("number")]))])
        return object(
            [
                "kind": .object([("type", .string("string")), ("enum", .array(["spend", "earn", "transfer"].map(JSON.string)))]),
                "amount": amount, "category": string, "from": string, "to": string, "on": string, "payee": string, "note": string,
                "spender": string, "tags": array(string), "settles": string, "matchDays": integer, "paid": amount, "rate": amount,
            ], required: ["kind", "amount"])
    }

    private static let string = JSON.object([("type", .string("string"))])
    private static let integer = JSON.object([("type", .string("integer"))])
    private static let boolean = JSON.object([("type", .string("boolean"))])

    private static func ref(_ name: String) -> JSON { .object([("$ref", .string("#/components/schemas/\(name)"))]) }
    private static func array(_ items: JSON) -> JSON { .object([("type", .string("array")), ("items", items)]) }
    private static func object(_ properties: [String: JSON], required: [String] = []) -> JSON {
        var fields: [(String, JSON)] = [("type", .string("object"))]
        if !properties.isEmpty { fields.append(("properties", .object(properties.keys.sorted().map { ($0, properties[$0]!) }))) }
        if !required.isEmpty { fields.append(("required", .array(required.map(JSON.string)))) }
        return .object(fields)
    }
}

extension LedgerAnswer {
    var operationID: String {
        switch self {
        case .canSpend: "canSpend"
        default: rawValue
        }
    }

    var summary: String {
        switch self {
        case .forecast: "capital forecast: balances ahead, per period (opening, inflows, outflows, closing, lowest day)."
        case .canSpend: "capital can-spend: the most you can spend on a day without going below the floor later (why: what binds it)."
        case .when: "capital when: the first day from which an amount can be spent and stays affordable."
        case .balance: "capital balance: end-of-day balances per account and per group."
        case .dues: "capital due list: bills and fines."
        case .budgets: "capital budget status: each budget's limit, spent, left and projected spend."
        case .expected: "capital expected list: expected flows with their state and what settled them."
        }
    }
}
