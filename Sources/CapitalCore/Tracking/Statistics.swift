/// What recorded transactions add up to over a range of days: spending and income per category
/// with shares and monthly averages, the monthly trend of income, expense and net, the split by
/// spender, and this month's spending against last month's and the average month's.
///
/// What counts:
/// - Only category postings: a posting to an expense account is spending (a refund, negative,
///   reduces it), a posting to an income account is income negated (salary is a negative posting
///   to `Salary`, so income is positive). Transfers between balance-sheet accounts count nowhere.
/// - Amounts in `currency` (the ledger's): a category posting in another currency counts at its
///   transaction day's rate among `rates` (the last on or before the day, rounded half to even per
///   posting); one with no rate that day is left out and counted per currency code in `leftOut`.
/// - With `accountID`, only transactions with a posting to that account, and of them still only
///   their category postings (spending paid from that account).
/// - Hidden accounts count like any other.
///
/// Averages divide by the calendar months the range touches from the month of the first recorded
/// transaction on (`months`, a partial first or last month counts as one): a ledger started last
/// month averages over its months, not over the year it was asked about. Shares are basis points
/// of their kind's total. Both are rounded half up
/// by integer arithmetic (`BasisPoints`), so the shares of one kind sum to 10 000 give or take
/// half a basis point per category.
///
/// ```swift
/// let stats = try Statistics(transactions: ledger.transactions, accounts: ledger.accounts, currency: ledger.currency,
///                            range: DayRange(through: today, from: today.startOfMonth.addingMonths(-11)), today: today)
/// stats.expense.categories.first   // the largest spending category, its share and monthly average
/// ```
public struct Statistics: Hashable, Sendable {
    public var currency: Currency
    /// The days summarised, `[start, end)`.
    public var range: DayRange
    public var today: Day
    /// The account transactions were filtered by, if any.
    public var accountID: String?
    /// Calendar months the range touches from the records' first month on, partial ones included:
    /// what monthly averages divide by.
    public var months: Int
    /// The first day of the first month with a recorded transaction, when it is after the range's
    /// first month (the months before it hold no records and are not averaged over).
    public var recordsFrom: Day?
    public var expense: CategoryBreakdown
    public var income: CategoryBreakdown
    /// `income.total − expense.total`.
    public var net: Int64
    /// `net` over the months of the range, rounded half up.
    public var netMonthlyAverage: Int64
    /// Transactions with a counted category posting in the range.
    public var transactions: Int
    /// Every month the range touches, in order, months without transactions at zero.
    public var trend: [MonthFlows]
    /// By spending, largest first; equal spending by name.
    public var spenders: [SpenderFlows]
    public var comparison: MonthComparison
    /// Category postings inside the range in other currencies, left out: how many, per currency code.
    public var leftOut: [String: Int]

    /// Summarises `transactions` (any order; those outside the range and the comparison months are
    /// skipped).
    /// - Parameters:
    ///   - accounts: every account the postings name; postings to unknown accounts count nowhere.
    ///   - range: the days to summarise.
    ///   - today: whose month is "this month" in `comparison`, counted through `today`.
    ///   - accountID: only transactions with a posting to this account.
    ///   - firstDay: the day of the history's first transaction when `transactions` is not the
    ///     whole history (it must then hold every one of `range`, this month and last month).
    /// - Throws: `LedgerError.overflow` if a sum does not fit Int64.
    /// - Complexity: O(postings + categories × log categories + months).
    public init(
        transactions: [Transaction], accounts: [Account], currency: Currency, range: DayRange, today: Day, accountID: String? = nil,
        firstDay: Day? = nil, rates: [ExchangeRate] = []
    ) throws(LedgerError) {
        self.currency = currency
        self.range = range
        self.today = today
        self.accountID = accountID
        var kinds: [String: (kind: AccountKind, name: String)] = [:]
        for account in accounts where account.kind.isCategory && kinds[account.id] == nil { kinds[account.id] = (account.kind, account.name) }

        let firstMonth = Statistics.monthNumber(range.start)
        let months = range.isEmpty ? 0 : Statistics.monthNumber(range.end.advanced(by: -1)) - firstMonth + 1
        // The months before the first record hold nothing to average.
        let recorded = (firstDay ?? transactions.lazy.map(\.day).min())?.startOfMonth
        let recordsFrom = recorded.flatMap { $0 > range.start.startOfMonth && $0 < range.end ? $0 : nil }
        self.recordsFrom = recordsFrom
        let averagedOver = recordsFrom.map { months - (Statistics.monthNumber($0) - firstMonth) } ?? months
        self.months = averagedOver
        let thisMonth = today.startOfMonth
        let lastMonth = thisMonth.addingMonths(-1)
        var averagedStart = range.start == range.start.startOfMonth ? range.start : range.start.endOfMonth.advanced(by: 1)
        if let recorded { averagedStart = max(averagedStart, recorded) }
        let averagedEnd = min(range.end.startOfMonth, thisMonth)
        let averaged = averagedStart < averagedEnd ? DayRange(averagedStart, averagedEnd) : DayRange(averagedStart, averagedStart)
        let averagedMonths = averaged.isEmpty ? 0 : Statistics.monthNumber(averagedEnd) - Statistics.monthNumber(averagedStart)

        var amounts: [String: Int64] = [:]
        var counts: [String: Int] = [:]
        var kindTotals: [AccountKind: Int64] = [.expense: 0, .income: 0]
        var kindCounts: [AccountKind: Int] = [.expense: 0, .income: 0]
        var monthIncome = [Int64](repeating: 0, count: months)
        var monthExpense = [Int64](repeating: 0, count: months)
        var monthCounts = [Int](repeating: 0, count: months)
        var transactionCount = 0
        var spenders: [String: (expense: Int64, income: Int64, count: Int)] = [:]
        var thisMonthSpent: [String: Int64] = [:]
        var lastMonthSpent: [String: Int64] = [:]
        var averagedSpent: [String: Int64] = [:]
        var leftOut: [String: Int] = [:]
        // Rates laid out from the first day looked at (this month's and last month's included) to the last.
        let earliest = min(range.start, lastMonth, averaged.start)
        let valuation =
            rates.isEmpty
            ? nil : Valuation(rates: rates, currency: currency, today: earliest, through: max(range.end, today), pessimisticDays: 1)

        for transaction in transactions {
            let inRange = range.contains(transaction.day)
            let inThisMonth = transaction.day >= thisMonth && transaction.day <= today
            let inLastMonth = transaction.day >= lastMonth && transaction.day < thisMonth
            let inAveraged = averaged.contains(transaction.day)
            guard inRange || inThisMonth || inLastMonth || inAveraged else { continue }
            if let accountID, !transaction.postings.contains(where: { $0.accountID == accountID }) { continue }
            var touched: [String] = []
            var touchedKinds: Set<AccountKind> = []
            let month = Statistics.monthNumber(transaction.day) - firstMonth
            for posting in transaction.postings {
                guard let kind = kinds[posting.accountID]?.kind else { continue }
                var minor = posting.amount.minor
                if posting.amount.currency != currency {
                    let valued: Int64?
                    do { valued = try valuation?.value(minor, in: posting.amount.currency, on: transaction.day) } catch {
                        if case .overflow = error { throw .overflow }
                        valued = nil
                    }
                    guard let valued else {
                        if inRange { leftOut[posting.amount.currency.code, default: 0] += 1 }
                        continue
                    }
                    minor = valued
                }
                let flow: Int64
                if kind == .expense {
                    flow = minor
                } else {
                    let (negated, overflow) = Int64(0).subtractingReportingOverflow(minor)
                    if overflow { throw .overflow }
                    flow = negated
                }
                if inRange {
                    try Statistics.add(&amounts[posting.accountID, default: 0], flow)
                    try Statistics.add(&kindTotals[kind, default: 0], flow)
                    if !touched.contains(posting.accountID) { touched.append(posting.accountID) }
                    touchedKinds.insert(kind)
                    if kind == .expense {
                        try Statistics.add(&monthExpense[month], flow)
                        try Statistics.add(&spenders[transaction.spender, default: (0, 0, 0)].expense, flow)
                    } else {
                        try Statistics.add(&monthIncome[month], flow)
                        try Statistics.add(&spenders[transaction.spender, default: (0, 0, 0)].income, flow)
                    }
                }
                guard kind == .expense else { continue }
                if inThisMonth { try Statistics.add(&thisMonthSpent[posting.accountID, default: 0], flow) }
                if inLastMonth { try Statistics.add(&lastMonthSpent[posting.accountID, default: 0], flow) }
                if inAveraged { try Statistics.add(&averagedSpent[posting.accountID, default: 0], flow) }
            }
            guard !touched.isEmpty else { continue }
            transactionCount += 1
            for id in touched { counts[id, default: 0] += 1 }
            for kind in touchedKinds { kindCounts[kind, default: 0] += 1 }
            monthCounts[month] += 1
            spenders[transaction.spender, default: (0, 0, 0)].count += 1
        }

        // Categories of each kind, largest first.
        func breakdown(_ kind: AccountKind) -> CategoryBreakdown {
            let total = kindTotals[kind] ?? 0
            let rows = amounts.keys.filter { kinds[$0]?.kind == kind }.map { id in
                let amount = amounts[id]!
                return CategoryTotal(
                    accountID: id, name: kinds[id]!.name, amount: amount, share: BasisPoints.share(amount, of: total), transactions: counts[id] ?? 0,
                    monthlyAverage: BasisPoints.average(amount, over: averagedOver) ?? 0)
            }
            return CategoryBreakdown(
                kind: kind, categories: rows.sorted { ($1.amount, $0.name, $0.accountID) < ($0.amount, $1.name, $1.accountID) }, total: total,
                transactions: kindCounts[kind] ?? 0, monthlyAverage: BasisPoints.average(total, over: averagedOver) ?? 0)
        }
        expense = breakdown(.expense)
        income = breakdown(.income)
        let (net, overflow) = income.total.subtractingReportingOverflow(expense.total)
        if overflow { throw .overflow }
        self.net = net
        netMonthlyAverage = BasisPoints.average(net, over: averagedOver) ?? 0
        self.transactions = transactionCount

        // Every month of the range, empty ones at zero.
        var trend: [MonthFlows] = []
        var start = range.start.startOfMonth
        for index in 0..<months {
            let (monthNet, overflow) = monthIncome[index].subtractingReportingOverflow(monthExpense[index])
            if overflow { throw .overflow }
            trend.append(
                MonthFlows(
                    month: start, first: max(start, range.start), last: min(start.endOfMonth, range.end.advanced(by: -1)), income: monthIncome[index],
                    expense: monthExpense[index], net: monthNet, transactions: monthCounts[index]))
            start = start.addingMonths(1)
        }
        self.trend = trend

        var spenderRows: [SpenderFlows] = []
        for (spender, flows) in spenders {
            let (spenderNet, overflow) = flows.income.subtractingReportingOverflow(flows.expense)
            if overflow { throw .overflow }
            spenderRows.append(
                SpenderFlows(
                    spender: spender, expense: flows.expense, income: flows.income, net: spenderNet,
                    expenseShare: BasisPoints.share(flows.expense, of: expense.total), transactions: flows.count))
        }
        self.spenders = spenderRows.sorted { ($1.expense, $0.spender) < ($0.expense, $1.spender) }

        // This month against last month and the average.
        var compared: [CategoryComparison] = []
        var totals: (this: Int64, last: Int64, averaged: Int64) = (0, 0, 0)
        for id in Set(thisMonthSpent.keys).union(lastMonthSpent.keys).union(averagedSpent.keys) {
            let figures = try ComparisonFigures(
                thisMonth: thisMonthSpent[id] ?? 0, lastMonth: lastMonthSpent[id] ?? 0,
                average: BasisPoints.average(averagedSpent[id] ?? 0, over: averagedMonths))
            compared.append(CategoryComparison(accountID: id, name: kinds[id]!.name, figures: figures))
            try Statistics.add(&totals.this, figures.thisMonth)
            try Statistics.add(&totals.last, figures.lastMonth)
            try Statistics.add(&totals.averaged, averagedSpent[id] ?? 0)
        }
        compared.sort {
            ($1.figures.thisMonth, $1.figures.lastMonth, $0.name, $0.accountID) < ($0.figures.thisMonth, $0.figures.lastMonth, $1.name, $1.accountID)
        }
        comparison = MonthComparison(
            month: thisMonth, through: today, lastMonth: lastMonth, averaged: averaged, averagedMonths: averagedMonths, categories: compared,
            total: try ComparisonFigures(
                thisMonth: totals.this, lastMonth: totals.last, average: BasisPoints.average(totals.averaged, over: averagedMonths)))
        self.leftOut = leftOut
    }

    /// Months since year 0: consecutive months differ by one.
    static func monthNumber(_ day: Day) -> Int {
        let civil = day.civil
        return civil.year * 12 + civil.month - 1
    }

    @inline(__always)
    static func add(_ sum: inout Int64, _ value: Int64) throws(LedgerError) {
        let (next, overflow) = sum.addingReportingOverflow(value)
        if overflow { throw .overflow }
        sum = next
    }
}
