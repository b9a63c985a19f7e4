import CapitalCore
import CapitalStore

/// One budget's period around a day: its category, its days, and where the spending stands.
public struct BudgetLine: Sendable {
    public var category: Account
    /// The period's days, half-open.
    public var period: DayRange
    public var status: BudgetStatus
}

/// The month a budget report is asked for: today's period, or a month's.
public struct BudgetRequest: Sendable, Equatable {
    /// `YYYY-MM`, or nil for the period containing today.
    public var month: String?

    /// A request for `month` (as typed), or for today's periods.
    public init(month: String? = nil) { self.month = month }

    /// The day whose periods are shown: today in the current month, a past month's last day,
    /// a later month's first day.
    /// - Throws: `KitError` naming `month` when it is not `YYYY-MM`.
    public func day(today: Day) throws(KitError) -> Day {
        guard let month else { return today }
        guard month.count == 7 else { throw .invalid(.month, value: month, reason: "expected a month, YYYY-MM") }
        let start: Day
        do { start = try Day(input: month, monthAs: .startOfMonth) } catch { throw .unreadable(.month, reason: "\(error)") }
        return start > today ? start : min(today, start.endOfMonth)
    }
}

extension Store {
    /// Each budget's period containing `day`, with what was spent in it: the category's postings
    /// from the period's start to its end, or to today in a period not over yet.
    /// - Complexity: O(budgets × transactions).
    public func budgetReport(_ ledger: Ledger, on day: Day, today: Day) throws -> [BudgetLine] {
        var lines: [BudgetLine] = []
        for budget in ledger.budgets {
            let category = try account(budget.categoryID)
            guard let period = budget.period(containing: day) else { continue }
            let asOf = max(min(period.end.advanced(by: -1), today), day)
            var spent: Int64 = 0
            for transaction in ledger.transactions where transaction.day >= period.start && transaction.day <= min(asOf, today) {
                for posting in transaction.postings where posting.accountID == category.id { spent += posting.amount.minor }
            }
            guard let status = budget.status(spent: spent, today: asOf) else { continue }
            lines.append(BudgetLine(category: category, period: period, status: status))
        }
        return lines
    }
}
