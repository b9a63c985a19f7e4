import CapitalCore
import CapitalStore

/// The days statistics are asked for: `to` (a day, or a month for its last day; today by
/// default) and `from` (a day, or a month for its first day; by default the first of the month
/// eleven months before `to`'s: a year of whole months). Either may also count from today:
/// `-1y`, `-6m`, `-2w`, `-30d` (`+N` ahead).
public struct StatisticsRequest: Sendable, Equatable {
    public var from: String?
    public var to: String?

    /// A request for the days from `from` through `to` (as typed); nil takes the defaults.
    public init(from: String? = nil, to: String? = nil) {
        self.from = from
        self.to = to
    }

    /// The days, half-open, seen from `today`.
    /// - Throws: `KitError` naming `from` or `to` when one is not a day or a month, or `from`
    ///   is after `to`.
    public func range(today: Day) throws(KitError) -> DayRange {
        func day(_ text: String, _ field: KitError.Field, _ form: Day.MonthForm) throws(KitError) -> Day {
            if text.first == "-" || text.first == "+" { return try today.counting(text, field: field) }
            do { return try Day(input: text, monthAs: form) } catch { throw .unreadable(field, reason: "\(error)") }
        }
        let first = try from.map { text throws(KitError) in try day(text, .from, .startOfMonth) }
        let last = try to.map { text throws(KitError) in try day(text, .to, .endOfMonth) } ?? today
        let start = first ?? last.startOfMonth.addingMonths(-11)
        guard start <= last else {
            throw .invalid(.from, value: from ?? start.iso, reason: "is after {to} \(last)\(to == nil ? " (today)" : "")")
        }
        return DayRange(through: last, from: start)
    }
}

extension Ledger {
    /// Income and spending by category, month and spender over `range`, of the transactions
    /// with a posting to `accountID` when given.
    public func statistics(_ range: DayRange, today: Day, accountID: String? = nil) throws(KitError) -> Statistics {
        do {
            return try Statistics(
                transactions: transactions, accounts: accounts, currency: currency, range: range, today: today, accountID: accountID,
                firstDay: opening?.firstDay, rates: rates)
        } catch {
            throw .engine(context: "stats", reason: KitError.template(error))
        }
    }
}
