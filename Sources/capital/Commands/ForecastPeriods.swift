import CapitalCore
import CapitalStore

/// What a forecast sums: the accounts of a ladder level, one account or one group.
struct ForecastSubject {
    /// The accounts, as indices into the timeline's accounts.
    var indices: [Int]
    /// `level 4 (forecast)`, `account VTB Debit`, `group Debts`.
    var title: String
    /// The account's or the group's name; empty for a level.
    var name: String
}

/// One period of a forecast: its balance at the start and the end, what flowed in and out, and
/// its lowest day. Amounts in minor units of the forecast's currency.
struct ForecastPeriod {
    var start: Day
    var end: Day
    var opening: Int64
    var inflow: Int64
    var outflow: Int64
    var closing: Int64
    var minimum: Int64
    var minimumDay: Day
}

extension Forecast {
    /// `--account`, `--group` or `--level` (at most one; the level by default) as the accounts to sum.
    func subject(account: String?, group: String?, level: Int) throws -> ForecastSubject {
        if let account {
            let found = try store.account(account)
            guard let index = timeline.accounts.firstIndex(where: { $0.id == found.id }) else {
                throw CLIError.invalid("--account", account, "it is \(found.kind.withArticle) account; forecasts follow balance-sheet accounts")
            }
            guard found.currency == timeline.currency else {
                throw CLIError.invalid("--account", account, "it holds \(found.currency.code); forecasts are in \(timeline.currency.code)")
            }
            return ForecastSubject(indices: [index], title: "account \(found.name)", name: found.name)
        }
        if let group {
            let found = try store.group(group)
            let indices = found.accountIDs.compactMap { id in timeline.accounts.firstIndex { $0.id == id && $0.currency == timeline.currency } }
            guard !indices.isEmpty else {
                throw CLIError.invalid(
                    "--group", group,
                    found.type == .profitAndLoss
                        ? "it is a profit-and-loss group; forecasts follow balance-sheet accounts"
                        : "it has no \(timeline.currency.code) balance-sheet accounts to forecast")
            }
            return ForecastSubject(indices: indices, title: "group \(found.name)", name: found.name)
        }
        return ForecastSubject(indices: timeline.levelAccounts(level).indices, title: "level \(level) (\(Ladder.name(level)))", name: "")
    }

    /// The subject's end-of-day balance on every day from today to the horizon.
    func series(_ subject: ForecastSubject, _ forecastCase: ForecastCase) throws -> [Int64] {
        do { return try timeline.sum(accountsAt: subject.indices, forecastCase) } catch { throw CLIError("forecast: \(error)") }
    }

    /// The series cut into periods (`day`, `week` ending on Sunday, or `month`) from `first`
    /// (today or later) to the horizon.
    /// - Complexity: O(days + flows).
    func periods(_ subject: ForecastSubject, series: [Int64], by period: String, from first: Day, _ forecastCase: ForecastCase) -> [ForecastPeriod] {
        guard first <= timeline.horizon else { return [] }
        let offset = first.number - timeline.today.number
        var previousClosing = offset == 0 ? timeline.opening(ofAccountsAt: subject.indices) : series[offset - 1]
        let totals = flowTotals(accounts: subject.indices, from: first, through: timeline.horizon, forecastCase)
        var periods: [ForecastPeriod] = []
        var start = first
        while start <= timeline.horizon {
            var end: Day
            switch period {
            case "day": end = start
            case "week": end = start.advanced(by: 7 - start.weekday.rawValue)
            default: end = start.endOfMonth
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
            periods.append(
                ForecastPeriod(
                    start: start, end: end, opening: previousClosing, inflow: inflow, outflow: outflow, closing: series[lastIndex], minimum: minimum,
                    minimumDay: timeline.day(minimumIndex)))
            previousClosing = series[lastIndex]
            start = end.advanced(by: 1)
        }
        return periods
    }
}
