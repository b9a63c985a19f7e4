import CapitalCore

/// What rate changes did to an account in another currency over a month: its balance at the
/// month's start and end, both valued in the ledger's currency at their day's rate, what flowed
/// in or out valued at each flow's day, and what is left — the gain (or, negative, the loss) of
/// holding the currency: `closing value − opening value − flows`.
public struct RevaluationRow: Sendable, Equatable {
    /// The month's first day (or the range's, in its first month).
    public var start: Day
    /// The month's last day (or the range's, in its last month).
    public var end: Day
    public var account: Account
    /// The currency held (the account's, or another its postings hold).
    public var currency: Currency
    /// Native balances at the end of the day before `start` and at the end of `end`.
    public var opening: Int64
    public var closing: Int64
    /// In the ledger's currency.
    public var openingValue: Int64
    public var flows: Int64
    public var closingValue: Int64
    public var revaluation: Int64
}

extension Ledger {
    /// Gains and losses from rate changes per balance account in another currency and month of
    /// `range`, in month order then ledger order; months where such an account held nothing and
    /// moved nothing are left out.
    /// - Throws: `KitError.engine` when a balance or a flow falls on a day without a rate.
    /// - Complexity: O(postings + months × accounts in other currencies): the balances before the
    ///   range once, then each month's postings in other currencies added to them.
    public func revaluation(_ range: DayRange) throws(KitError) -> [RevaluationRow] {
        guard !range.isEmpty else { return [] }
        let last = range.end.advanced(by: -1)
        let valuation = Valuation(rates: rates, currency: currency, today: range.start.advanced(by: -1), through: last, pessimisticDays: 1)
        let held = accounts.filter { $0.kind.isBalanceSheet && $0.kind != .equity }
        let heldByID = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func value(_ amount: Int64, _ foreign: Currency, _ day: Day, _ account: Account) throws(KitError) -> Int64 {
            do { return try valuation.value(amount, in: foreign, on: day) } catch {
                throw .engine(context: "account '\(FieldKeys.literal(account.name))'", reason: KitError.template(error))
            }
        }
        // The range's months: its first day's to its last day's, cut at the range's ends.
        var months: [(start: Day, end: Day)] = []
        var start = range.start
        while start <= last {
            let end = min(start.endOfMonth, last)
            months.append((start, end))
            start = end.advanced(by: 1)
        }
        let first = range.start.civil
        func month(of day: Day) -> Int { (day.civil.year - first.year) * 12 + day.civil.month - first.month }
        // Each month's postings in other currencies to the accounts held: native, and valued at their day's rate.
        var moved = [[BalanceKey: Int64]](repeating: [:], count: months.count)
        var flows = moved
        for transaction in transactions where range.contains(transaction.day) {
            let m = month(of: transaction.day)
            for posting in transaction.postings where posting.amount.currency != currency {
                guard let account = heldByID[posting.accountID] else { continue }
                let key = BalanceKey(accountID: posting.accountID, currency: posting.amount.currency)
                moved[m][key] = saturatingSum(moved[m][key, default: 0], posting.amount.minor)
                flows[m][key] = saturatingSum(
                    flows[m][key, default: 0], try value(posting.amount.minor, posting.amount.currency, transaction.day, account))
            }
        }
        var balance: [BalanceKey: Int64]
        do { balance = try balances(on: range.start.advanced(by: -1)) } catch { throw .engine(context: "stats", reason: KitError.template(error)) }
        balance = balance.filter { $0.key.currency != currency && heldByID[$0.key.accountID] != nil }
        var rows: [RevaluationRow] = []
        for (m, (start, end)) in months.enumerated() {
            let keys = Dictionary(grouping: Set(balance.keys).union(moved[m].keys), by: \.accountID)
            for account in held {
                for key in (keys[account.id] ?? []).sorted(by: { $0.currency.code < $1.currency.code }) {
                    let opening = balance[key] ?? 0
                    let closing = saturatingSum(opening, moved[m][key] ?? 0)
                    balance[key] = closing
                    guard opening != 0 || closing != 0 || moved[m][key] != nil else { continue }
                    let openingValue = try value(opening, key.currency, start.advanced(by: -1), account)
                    let closingValue = try value(closing, key.currency, end, account)
                    let flowed = flows[m][key] ?? 0
                    rows.append(
                        RevaluationRow(
                            start: start, end: end, account: account, currency: key.currency, opening: opening, closing: closing,
                            openingValue: openingValue, flows: flowed, closingValue: closingValue,
                            revaluation: closingValue.subtractingReportingOverflow(saturatingSum(openingValue, flowed)).partialValue))
                }
            }
        }
        return rows
    }
}
