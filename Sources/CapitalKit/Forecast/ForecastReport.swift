import CapitalCore

/// The length of a forecast's periods.
public enum ForecastPeriodLength: String, Sendable, CaseIterable {
    case day, week, month
}

/// One period of a forecast: its balance at the start and the end, what flowed in and out, and
/// its lowest day. Amounts in minor units of the pool's currency.
public struct ForecastPeriod: Sendable, Equatable {
    public var start: Day
    public var end: Day
    public var opening: Int64
    public var inflow: Int64
    public var outflow: Int64
    public var closing: Int64
    /// What rates added to the closing: the part of its change that no flow explains, when the
    /// pool holds accounts in other currencies than its own (else 0).
    public var revaluation: Int64 = 0
    public var minimum: Int64
    public var minimumDay: Day
}

/// One currency's part of a forecast period: the pool's accounts in that currency, summed in it,
/// and their closing valued in the pool's currency as the period's closing values it.
public struct CurrencyPeriod: Sendable, Equatable {
    public var start: Day
    public var end: Day
    public var currency: Currency
    /// Amounts in minor units of `currency`.
    public var opening: Int64
    public var inflow: Int64
    public var outflow: Int64
    public var closing: Int64
    /// The closing in minor units of the pool's currency; the parts' values sum to the period's closing.
    public var value: Int64
}

/// A pool's forecast: its balance every day from today to the horizon, and that series cut into periods.
public struct ForecastReport: Sendable {
    public var pool: Pool
    public var forecastCase: ForecastCase
    /// End-of-day balance, today first.
    public var balances: [Int64]
    public var periods: [ForecastPeriod]
    /// Each period's part per currency of the pool's accounts, the pool's own currency first and
    /// the others by code; empty unless asked for.
    public var currencies: [CurrencyPeriod] = []
    /// A forecast level's (4–6) exact answer on each period's first day, in `periods`' order:
    /// the most that can be spent that day and stay within every floor and card limit to the
    /// horizon (`Availability.canSpend(on:)`); empty for an account, a group or levels 1–3.
    public var spendable: [Availability.Answer] = []
    /// A forecast level's can-spend answer on its first day, with how to pay it; nil for an
    /// account, a group or levels 1–3.
    public var canSpend: CanSpendAnswer?

    /// The index of the lowest day (the first of equal ones).
    public var minimumIndex: Int {
        balances.indices.min { balances[$0] < balances[$1] || (balances[$0] == balances[$1] && $0 < $1) } ?? 0
    }
}

extension Projection {
    /// The forecast of `pool` from `first` (today by default; never before it) to the horizon,
    /// by `period` (a week ends on Sunday); `byCurrency` adds each period's part per currency.
    /// - Complexity: O(days + flows), and O(accounts × days) more per currency with `byCurrency`.
    public func forecast(
        _ pool: Pool, by period: ForecastPeriodLength, from first: Day? = nil, byCurrency: Bool = false, _ forecastCase: ForecastCase
    ) throws(KitError) -> ForecastReport {
        let balances = try pool.balances(in: timeline, forecastCase)
        var report = ForecastReport(
            pool: pool, forecastCase: forecastCase, balances: balances,
            periods: try periods(pool, balances: balances, by: period, from: max(first ?? today, today), forecastCase))
        if byCurrency { report.currencies = try currencyPeriods(pool, report.periods, forecastCase) }
        if let level = pool.level, Ladder.isForecast(level), let start = report.periods.first?.start {
            let availability = try availability(level: level, forecastCase)
            report.spendable = report.periods.compactMap { availability.canSpend(on: $0.start) }
            report.canSpend = try canSpend(on: start, availability, why: false, forecastCase)
        }
        return report
    }

    /// The periods' parts per currency: for the pool's accounts in each currency, the native
    /// opening, flows and closing of each period, and the closing's value in the pool's currency.
    func currencyPeriods(_ pool: Pool, _ periods: [ForecastPeriod], _ forecastCase: ForecastCase) throws(KitError) -> [CurrencyPeriod] {
        guard let first = periods.first?.start else { return [] }
        var members: [Currency: [Int]] = [:]
        for index in pool.indices { members[timeline.accounts[index].currency, default: []].append(index) }
        let currencies = members.keys.sorted { ($0 == pool.currency ? 0 : 1, $0.code) < ($1 == pool.currency ? 0 : 1, $1.code) }
        var parts: [[CurrencyPeriod]] = []
        let ids = Set(pool.indices.map { timeline.accounts[$0].id })
        let flowsByCurrency = ledger.flowTotalsByCurrency(
            into: ids, in: DayRange(first, timeline.horizon.advanced(by: 1)), today: today, calendars: window.calendars, forecastCase)
        let zeros = [Int64](repeating: 0, count: timeline.horizon.number - first.number + 1)
        for currency in currencies {
            let indices = members[currency] ?? []
            let native: [Int64]
            let valued: [Int64]
            do {
                native = try timeline.sum(accountsAt: indices, in: currency, forecastCase)
                valued = currency == pool.currency ? native : try timeline.sum(accountsAt: indices, forecastCase)
            } catch {
                throw .engine(context: "forecast", reason: KitError.template(error))
            }
            let flows = flowsByCurrency.first { $0.currency == currency }?.totals ?? (inflow: zeros, outflow: zeros)
            let offset = first.number - today.number
            var previous = offset == 0 ? indices.reduce(0) { saturatingSum($0, timeline.opening[$1]) } : native[offset - 1]
            parts.append(
                periods.map { period in
                    var inflow: Int64 = 0
                    var outflow: Int64 = 0
                    for i in (period.start.number - first.number)...(period.end.number - first.number) {
                        inflow = saturatingSum(inflow, flows.inflow[i])
                        outflow = saturatingSum(outflow, flows.outflow[i])
                    }
                    let last = period.end.number - today.number
                    defer { previous = native[last] }
                    return CurrencyPeriod(
                        start: period.start, end: period.end, currency: currency, opening: previous, inflow: inflow, outflow: outflow,
                        closing: native[last], value: valued[last])
                })
        }
        // Period by period, each period's currencies together.
        return periods.indices.flatMap { p in parts.map { $0[p] } }
    }

    /// The pool of a forecast request: one account, one group, or a ladder level (the default
    /// one when none is given); at most one of the three.
    public func pool(account: String?, group: String?, level: Int?) throws -> Pool {
        // The second of them given is the one too many.
        let given = [account.map { (KitError.Field.account, $0) }, group.map { (.group, $0) }, level.map { (.level, String($0)) }].compactMap { $0 }
        if given.count > 1 { throw KitError.invalid(given[1].0, value: given[1].1, reason: "", remedy: .oneOf([.account, .group, .level])) }
        if let account { return try pool(account: account, for: .forecast, field: .account) }
        if let group { return try pool(group: group) }
        return try pool(level: level ?? Ladder.defaultLevel)
    }

    /// `balances` cut into periods from `first` (today or later) to the horizon.
    func periods(_ pool: Pool, balances series: [Int64], by period: ForecastPeriodLength, from first: Day, _ forecastCase: ForecastCase)
        throws(KitError) -> [ForecastPeriod]
    {
        guard first <= timeline.horizon else { return [] }
        let offset = first.number - timeline.today.number
        var previousClosing = offset == 0 ? try pool.opening(in: timeline) : series[offset - 1]
        let totals = try flowTotals(into: pool, from: first, through: timeline.horizon, forecastCase)
        let valued = pool.values(in: timeline)
        var periods: [ForecastPeriod] = []
        var start = first
        while start <= timeline.horizon {
            var end: Day
            switch period {
            case .day: end = start
            case .week: end = start.advanced(by: 7 - start.weekday.rawValue)
            case .month: end = start.endOfMonth
            }
            end = min(end, timeline.horizon)
            var inflow: Int64 = 0
            var outflow: Int64 = 0
            for index in (start.number - first.number)...(end.number - first.number) {
                inflow = inflow.addingReportingOverflow(totals.inflow[index]).partialValue
                outflow = outflow.addingReportingOverflow(totals.outflow[index]).partialValue
            }
            let firstIndex = start.number - timeline.today.number
            let lastIndex = end.number - timeline.today.number
            var minimum = series[firstIndex]
            var minimumIndex = firstIndex
            for i in firstIndex...lastIndex where series[i] < minimum {
                minimum = series[i]
                minimumIndex = i
            }
            var made = ForecastPeriod(
                start: start, end: end, opening: previousClosing, inflow: inflow, outflow: outflow, closing: series[lastIndex], minimum: minimum,
                minimumDay: timeline.day(minimumIndex))
            if valued {
                let explained = saturatingSum(saturatingSum(previousClosing, inflow), outflow)
                made.revaluation = series[lastIndex].subtractingReportingOverflow(explained).partialValue
            }
            periods.append(made)
            previousClosing = series[lastIndex]
            start = end.advanced(by: 1)
        }
        return periods
    }
}

/// Today's value of some accounts and the lowest value ahead (for a debt, its largest), at
/// expected amounts: what the account and group screens show.
public struct Outlook: Sendable, Equatable {
    public var current: Money
    public var low: Money
    public var lowDay: Day
    public var horizon: Day
    /// Whether the accounts owe today (a debt), so that "lowest" reads as "largest debt".
    public var isDebt: Bool
    /// The open expected flows before today that it counts today (none when they are ignored).
    public var overdue: Overdue
}

extension Projection {
    /// The outlook of the accounts with these ids; nil when none of them is on the timeline.
    public func outlook(accountIDs: [String]) throws(KitError) -> Outlook? {
        guard let pool = pool(accountIDs: accountIDs) else { return nil }
        let series = try pool.balances(in: timeline, .expected)
        var low = 0
        for i in series.indices where series[i] < series[low] { low = i }
        return Outlook(
            current: Money(minor: series[0], currency: pool.currency), low: Money(minor: series[low], currency: pool.currency),
            lowDay: timeline.day(low),
            horizon: timeline.horizon, isDebt: series[0] < 0, overdue: overdue)
    }
}
