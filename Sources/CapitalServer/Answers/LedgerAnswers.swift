import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

/// The answers of `GET /v1/ledgers/{id}/…`: each the CLI command of its name, computed by the
/// same use cases from the server's copy of the ledger and rendered as the same report, so that
/// its JSON is `capital … --format json`'s. Parameters are the command's options without `--`.
enum LedgerAnswer: String, CaseIterable, Sendable {
    case forecast, canSpend = "can-spend", when, balance, dues, budgets, expected

    /// What every answer takes: `today` stands for the CLI's `--today` (default: the server's
    /// day); `default-account` for the asking device's default account (`account edit --default`:
    /// each device's own, so the server has none), which pays budgets and bills that name none.
    static let common: Set<String> = ["today", "format", "default-account"]
    /// What answers about the future take, as the CLI's `HorizonOptions`.
    static let horizon: Set<String> = ["until", "days", "expected", "overdue", "rate", "fx-window"]

    /// The parameters this answer takes.
    var parameters: Set<String> {
        switch self {
        case .forecast: Self.common.union(Self.horizon).union(["by", "account", "group", "level", "by-currency"])
        case .canSpend: Self.common.union(Self.horizon).union(["on", "level", "all-levels", "why"])
        case .when: Self.common.union(Self.horizon).union(["amount", "level"])
        case .balance: Self.common.union(["on", "all", "by-currency"])
        case .dues: Self.common.union(["all", "type", "status"])
        case .budgets: Self.common.union(["month"])
        case .expected: Self.common.union(["open", "overdue", "from", "until", "kind"])
        }
    }

    /// This answer's report on `store` for `query`; `clock` is the server's day.
    func report(_ store: Store, _ query: AnswerQuery, clock: Day) throws -> Report {
        try Self.answering(store, query, clock: clock) { today in
            switch self {
            case .forecast: return try forecast(store, query, today)
            case .canSpend: return try canSpend(store, query, today)
            case .when: return try when(store, query, today)
            case .balance:
                let sheet = try store.balanceSheet(on: try query.day("on", monthAs: .endOfMonth) ?? today, today: today)
                return try Report.balances(sheet, all: try query.flag("all"), byCurrency: try query.flag("by-currency")).valued(
                    with: sheet.staleRates)
            case .dues:
                let listing = DueListing(
                    all: try query.flag("all"), type: try query.choice("type", DueType.self), status: try query.choice("status", DueStatus.self))
                return Report.dues(listing.listed(try store.dues()), today: today)
            case .budgets:
                let day = try BudgetRequest(month: query.text("month")).day(today: today)
                return Report.budgets(try store.budgetReport(try store.snapshot(asOf: [day, today]), on: day, today: today))
            case .expected: return Report.expected(try store.expectedList(try expectedQuery(query), today: today))
            }
        }
    }

    /// `body`'s answer for the day the query names (`today`, else `clock`), with the query's
    /// `default-account` as the copy's; a use case's refusal as problem JSON naming the parameter.
    /// A copy no device has pushed a ledger to throws `EmptyLedger` (its copy names the ledger).
    static func answering<T>(_ store: Store, _ query: AnswerQuery, clock: Day, _ body: (Day) throws -> T) throws -> T {
        guard try store.isInitialized() else { throw EmptyLedger() }
        let today = try query.day("today") ?? clock
        do {
            do { try store.useDefaultAccount(query.text("default-account")) } catch {
                throw Problem.parameter("default-account", query.text("default-account") ?? "", Problem.reason(error.description))
            }
            return try body(today)
        } catch let error as KitError {
            throw Problem(error)
        } catch let error as StoreError {
            // An account or group the query names that the ledger does not have.
            if case .notFound(_, let reference, _) = error, let name = query.parameter(given: reference) {
                throw Problem.parameter(name, reference, Problem.reason(error.description))
            }
            throw Problem(422, "unanswerable", error.description)
        }
    }

    private func forecast(_ store: Store, _ query: AnswerQuery, _ today: Day) throws -> Report {
        let by = query.text("by") ?? "month"
        guard let period = ForecastPeriodLength(rawValue: by) else { throw Problem.parameter("by", by, "expected day, week or month") }
        let account = query.text("account")
        let group = query.text("group")
        let projection = try Self.projection(store, query, today)
        let forecast = try projection.forecast(
            try projection.pool(account: account, group: group, level: try query.int("level")), by: period, byCurrency: try query.flag("by-currency"),
            Self.forecastCase(query))
        return Report.forecast(forecast, projection, account: account != nil, group: group != nil).answered(from: projection)
    }

    private func canSpend(_ store: Store, _ query: AnswerQuery, _ today: Day) throws -> Report {
        let allLevels = try query.flag("all-levels")
        let level = try query.int("level")
        if allLevels, let level { throw Problem.parameter("level", String(level), "give level or all-levels, not both") }
        let chosen = level ?? Ladder.defaultLevel
        try Pool.check(level: chosen)
        let projection = try Self.projection(store, query, today)
        let day = try query.day("on") ?? projection.today
        let levels = allLevels ? Array(Ladder.levels) : [chosen]
        let answers = try projection.canSpend(on: day, levels: levels, why: try query.flag("why"), Self.forecastCase(query))
        return Report.canSpend(answers, on: day, projection, allLevels: allLevels, try Self.forecastCase(query), RenderOptions()).answered(
            from: projection)
    }

    private func when(_ store: Store, _ query: AnswerQuery, _ today: Day) throws -> Report {
        guard let amount = query.text("amount") else { throw Problem.parameter("amount", "", "give the amount to spend") }
        let level = try query.int("level") ?? Ladder.defaultLevel
        try Pool.check(level: level)
        let projection = try Self.projection(store, query, today)
        let answer = try projection.when(amount, level: level, Self.forecastCase(query))
        return Report.when(answer, level: level, projection, RenderOptions()).answered(from: projection)
    }

    private func expectedQuery(_ query: AnswerQuery) throws -> ExpectedQuery {
        var expected = ExpectedQuery()
        let (open, overdue) = (try query.flag("open"), try query.flag("overdue"))
        if open && overdue { throw Problem.parameter("overdue", "true", "give open or overdue, not both") }
        expected.show = overdue ? .overdue : open ? .open : .all
        expected.from = try query.day("from", monthAs: .startOfMonth)
        expected.until = try query.day("until", monthAs: .endOfMonth)
        expected.kind = try query.choice("kind", ExpectedKind.self)
        return expected
    }

    static func forecastCase(_ query: AnswerQuery) throws -> ForecastCase { try query.flag("expected") ? .expected : .pessimistic }

    /// The ledger laid out to the horizon the query asks for, as `HorizonOptions` lays it out.
    static func projection(_ store: Store, _ query: AnswerQuery, _ today: Day) throws -> Projection {
        let overdue = query.text("overdue") ?? "count"
        guard ["count", "ignore"].contains(overdue) else { throw Problem.parameter("overdue", overdue, "expected count or ignore") }
        var rates = RateAssumptions()
        try rates.add(whatIf: query.texts("rate"), ledger: try store.currency())
        if let window = try query.int("fx-window") { try rates.setLookBack(window) }
        let request = HorizonRequest(until: query.text("until"), days: try query.int("days"))
        return try Projection(
            store: store, today: today, horizon: { try request.lastDay(today: $0) }, forecastCase: try forecastCase(query),
            ignoringOverdue: overdue == "ignore", rates: rates)
    }

}
