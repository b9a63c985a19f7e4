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
    /// - Complexity: O(months × postings).
    public func revaluation(_ range: DayRange) throws(KitError) -> [RevaluationRow] {
        guard !range.isEmpty else { return [] }
        let last = range.end.advanced(by: -1)
        let valuation = Valuation(rates: rates, currency: currency, today: range.start.advanced(by: -1), through: last, pessimisticDays: 1)
        let held = accounts.filter { $0.kind.isBalanceSheet && $0.kind != .equity }
        func value(_ amount: Int64, _ foreign: Currency, _ day: Day, _ account: Account) throws(KitError) -> Int64 {
            do { return try valuation.value(amount, in: foreign, on: day) } catch {
                throw .engine(context: "account '\(FieldKeys.literal(account.name))'", reason: KitError.template(error))
            }
        }
        var rows: [RevaluationRow] = []
        var start = range.start
        var before: [BalanceKey: Int64]
        do { before = try balances(on: start.advanced(by: -1)) } catch { throw .engine(context: "stats", reason: KitError.template(error)) }
        while start <= last {
            let end = min(start.endOfMonth, last)
            let after: [BalanceKey: Int64]
            do { after = try balances(on: end) } catch { throw .engine(context: "stats", reason: KitError.template(error)) }
            var flows: [BalanceKey: Int64] = [:]
            for transaction in transactions where transaction.day >= start && transaction.day <= end {
                for posting in transaction.postings where posting.amount.currency != currency {
                    guard let account = held.first(where: { $0.id == posting.accountID }) else { continue }
                    let key = BalanceKey(accountID: posting.accountID, currency: posting.amount.currency)
                    flows[key, default: 0] = saturatingSum(
                        flows[key, default: 0], try value(posting.amount.minor, posting.amount.currency, transaction.day, account))
                }
            }
            for account in held {
                let keys = Set((before.keys.filter { $0.accountID == account.id } + after.keys.filter { $0.accountID == account.id }))
                for key in keys.sorted(by: { $0.currency.code < $1.currency.code }) where key.currency != currency {
                    let opening = before[key] ?? 0
                    let closing = after[key] ?? 0
                    guard opening != 0 || closing != 0 || flows[key] != nil else { continue }
                    let openingValue = try value(opening, key.currency, start.advanced(by: -1), account)
                    let closingValue = try value(closing, key.currency, end, account)
                    let flowed = flows[key] ?? 0
                    rows.append(
                        RevaluationRow(
                            start: start, end: end, account: account, currency: key.currency, opening: opening, closing: closing,
                            openingValue: openingValue, flows: flowed, closingValue: closingValue,
                            revaluation: closingValue.subtractingReportingOverflow(saturatingSum(openingValue, flowed)).partialValue))
                }
            }
            before = after
            start = end.advanced(by: 1)
        }
        return rows
    }
}
