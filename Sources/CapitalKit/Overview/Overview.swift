import CapitalCore
import CapitalStore

/// Everything the household's overview shows (the HTML report, later the server's page), each
/// part from the use case the CLI answers the same question with: can-spend, when, forecast, the
/// ladder, expected list, due list, budget status, stats, loans, cards and deposits.
public struct Overview: Sendable {
    /// The ledger level the headline, the chart and the scenarios are about.
    public var pool: Pool
    public var forecastCase: ForecastCase
    /// `can-spend --why` today at the level.
    public var canSpend: CanSpendAnswer
    /// `when` for round amounts above today's answer: when they become affordable.
    public var affordable: [WhenAnswer]
    /// `forecast --by month` of the level: the daily balance and its months.
    public var forecast: ForecastReport
    /// The level's balance at the pessimistic and the optimistic ends of ranged amounts, day by
    /// day; nil when the ledger has no ranged amounts (the band would be the line).
    public var band: (low: [Int64], high: [Int64])?
    /// Flows worth a label on the chart: each month's largest inflow (paydays) and the largest
    /// outflows, in day order.
    public var landmarks: [FlowEvent]
    /// The six levels today and at the horizon.
    public var ladder: [LadderStep]
    /// Open expected flows before today (overdue), then those of the next 30 days, in day order.
    public var upcoming: [UpcomingFlow]
    /// Bills and fines not fully paid, most urgent first (`due list`).
    public var dues: [Due]
    /// Today's budget periods (`budget status`).
    public var budgets: [BudgetLine]
    /// Spending by category this month against last month (`stats`).
    public var spending: MonthComparison
    public var loans: [LoanStanding]
    public var cards: [CardStatus]
    public var deposits: [DepositStatus]
    /// Accounts whose value changes by itself (a car, a flat).
    public var assets: [Account]
    /// The balance, day by day from today, of every loan, card, deposit and asset account, by account id.
    public var accountSeries: [String: [Int64]]
    /// Evaluated purchases, ranked (`scenario eval --sort worst-balance`), when asked for.
    public var scenarios: [ScenarioOutcome]?
    /// The rates older than a week that value today's balances in other currencies.
    public var staleRates: [StaleRate] = []
    /// Whether the level holds accounts in other currencies, valued into its own.
    public var valuesOtherCurrencies = false
}

/// An open expected flow and what it moves into the overview's level (negative: out of it; 0
/// when it moves money between the level's own accounts, or outside them).
public struct UpcomingFlow: Sendable, Equatable {
    public var entry: ExpectedEntry
    public var net: Int64
    /// Whether it moves money in or out of any of the level's accounts at all.
    public var touches: Bool
    /// Expected before today and still open.
    public var overdue: Bool
}

/// One rung of the answer ladder today and at the horizon.
public struct LadderStep: Sendable, Equatable {
    public var level: Int
    public var balanceToday: Int64
    public var balanceAtHorizon: Int64
    /// What can be spent today at the level (`can-spend --all-levels`).
    public var canSpend: Int64
    public var floor: Int64
}

/// What an overview is asked for.
public struct OverviewRequest: Sendable {
    /// The ladder level (default 4); a forecast level for scenarios.
    public var level: Int?
    /// A CSV or JSON file of purchase scenarios to rank.
    public var scenarios: ScenarioSource?
    /// How many round amounts the headline says "affordable from" for.
    public var affordableCount = 4

    /// A request for the overview of `level` (the default ladder level when nil), with the
    /// scenarios of `scenarios` ranked when given.
    public init(level: Int? = nil, scenarios: ScenarioSource? = nil) {
        self.level = level
        self.scenarios = scenarios
    }
}

extension Projection {
    /// The overview of this projection's ledger at `request.level`, in the window's case.
    /// - Throws: `KitError` naming `level` when it is not 1 to 6; a scenario file's error as
    ///   `scenario eval` gives it (the first row that cannot be read or evaluated); `StoreError`
    ///   when the ledger cannot be read.
    public func overview(_ request: OverviewRequest) throws -> Overview {
        let forecastCase = window.forecastCase
        let level = request.level ?? Ladder.defaultLevel
        let pool = try answerPool(level: level, forecastCase)
        guard var canSpend = try canSpend(on: today, levels: [level], why: false, forecastCase).first else {
            throw KitError.engine(context: "level \(level)", reason: "it has no answer for today")
        }
        // One walk over the flows to the horizon gives the why and the chart's marks.
        var drivers = DriverSelection(binding: canSpend.answer.bindingDay)
        var landmarks = LandmarkSelection(days: window.days)
        forEachFlow(into: pool, from: today, through: horizon, forecastCase, where: { drivers.wants($0, $1) || landmarks.wants($0, $1) }) { event in
            drivers.offer(event)
            landmarks.offer(event)
        }
        canSpend.why = why(of: canSpend.answer, level: level, drivers: (drivers.drivers.kept, drivers.relief.kept.first))
        canSpend.why?.currencies = try currencyEffects(pool.indices, on: canSpend.answer.bindingDay, forecastCase)
        let forecast = try forecast(pool, by: .month, forecastCase)
        let low = try pool.balances(in: timeline, .pessimistic)
        let high = try pool.balances(in: timeline, .optimistic)
        let accounts = stored.accounts
        let instrumentIDs = Set(
            stored.loans.map(\.accountID) + stored.cards.map(\.accountID) + stored.deposits.map(\.accountID)
                + accounts.filter { $0.valueChange != nil }.map(\.id))
        var series: [String: [Int64]] = [:]
        for (index, account) in timeline.accounts.enumerated() where instrumentIDs.contains(account.id) {
            series[account.id] = Array(timeline.balances(ofAccountAt: index, .expected))
        }
        var scenarios: [ScenarioOutcome]?
        if let source = request.scenarios { scenarios = try rankedScenarios(source, level: level, forecastCase) }
        return Overview(
            pool: pool, forecastCase: forecastCase, canSpend: canSpend,
            affordable: try affordable(above: canSpend.answer.amount, balances: forecast.balances, count: request.affordableCount, level: level),
            forecast: forecast, band: low == high ? nil : (low, high),
            landmarks: landmarks.landmarks,
            ladder: try ladder(forecastCase),
            upcoming: try upcoming(days: 30, into: pool),
            dues: Due.byUrgency(try store.dues()),
            budgets: try store.budgetReport(stored, on: today, today: today),
            spending: try stored.statistics(DayRange(today.startOfMonth.addingMonths(-1), today.advanced(by: 1)), today: today).comparison,
            loans: try store.loanStandings(today: today),
            cards: try store.cardStatuses(today: today),
            deposits: try stored.deposits.map { try store.depositStatus($0, today: today) },
            assets: accounts.filter { $0.valueChange != nil && !$0.hidden },
            accountSeries: series, scenarios: scenarios, staleRates: staleRates, valuesOtherCurrencies: pool.values(in: timeline))
    }

    /// Each level's balance today and at the horizon and what it can spend today.
    func ladder(_ forecastCase: ForecastCase) throws(KitError) -> [LadderStep] {
        let answers = try canSpend(on: today, levels: Array(Ladder.levels), why: false, forecastCase)
        return try Ladder.levels.map { level throws(KitError) in
            let pool = try answerPool(level: level, forecastCase)
            let balances = try pool.balances(in: timeline, forecastCase)
            return LadderStep(
                level: level, balanceToday: balances.first ?? 0, balanceAtHorizon: balances.last ?? 0,
                canSpend: answers.first { $0.level == level }?.answer.amount ?? 0, floor: pool.floor)
        }
    }

    /// The scenarios of `source` evaluated at `level`, safest first (as `--sort worst-balance`).
    /// - Throws: `KitError` naming `scenarios` with `scenario eval`'s words when a row cannot be
    ///   read or evaluated.
    func rankedScenarios(_ source: ScenarioSource, level: Int, _ forecastCase: ForecastCase) throws -> [ScenarioOutcome] {
        let basis = try scenarioBasis(level: level, from: nil, forecastCase)
        var outcomes: [ScenarioOutcome] = []
        let summary = try basis.evaluate(source, earliest: false) { batch, _ in outcomes += batch }
        if let first = summary.firstFailure {
            throw KitError.invalid(
                .scenarioFile, value: source.path,
                reason: "\(summary.failed) of \(summary.total.counted("scenario")) could not be evaluated (first: \(first))")
        }
        return ScenarioSortKey.worstBalance.sorted(outcomes)
    }

    /// `when` for the first `count` round amounts above `amount` and at least a hundred major
    /// units; none for a level that holds nothing on any day.
    func affordable(above amount: Int64, balances: [Int64], count: Int, level: Int) throws -> [WhenAnswer] {
        guard amount > 0 || balances.contains(where: { $0 != 0 }) else { return [] }
        let hundred = 100 * currency.minorPerMajor
        return try Self.roundAmounts(above: max(amount, hundred - 1), count: count, currency: currency).map {
            try when(Money(minor: $0, currency: currency), level: level, window.forecastCase)
        }
    }

    /// The first `count` amounts of the 1–2–5 series (1, 2, 5, 10, 20, 50 … major units) above
    /// `amount` (at least one major unit): round sums a person asks about.
    static func roundAmounts(above amount: Int64, count: Int, currency: Currency) -> [Int64] {
        var amounts: [Int64] = []
        var step = currency.minorPerMajor
        while amounts.count < count {
            for factor: Int64 in [1, 2, 5] {
                let (value, overflow) = step.multipliedReportingOverflow(by: factor)
                if overflow || value > Scenario.maximumAmount { return amounts }
                if value > amount && amounts.count < count { amounts.append(value) }
            }
            let (next, overflow) = step.multipliedReportingOverflow(by: 10)
            if overflow { return amounts }
            step = next
        }
        return amounts
    }
}

extension Projection {
    /// Open flows expected before today (`expected list --overdue`), then those of the next
    /// `days` days (`expected list --open --until`), in day order.
    func upcoming(days: Int, into pool: Pool) throws -> [UpcomingFlow] {
        var overdue = ExpectedQuery()
        overdue.show = .overdue
        var ahead = ExpectedQuery()
        ahead.show = .open
        ahead.from = today
        ahead.until = today.advanced(by: days)
        let ids = Set(pool.indices.map { timeline.accounts[$0].id })
        return try (store.expectedList(overdue, today: today) + store.expectedList(ahead, today: today)).map { entry in
            let net = entry.flow.postings.reduce(Int64(0)) { sum, posting in
                ids.contains(posting.accountID) && posting.amount.currency == pool.currency ? saturatingSum(sum, posting.amount.minor) : sum
            }
            return UpcomingFlow(
                entry: entry, net: net, touches: entry.flow.postings.contains { ids.contains($0.accountID) }, overdue: entry.flow.day < today)
        }
    }
}
