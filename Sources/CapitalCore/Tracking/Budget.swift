/// How often a budget's limit renews.
public enum BudgetPeriod: String, CaseIterable, Sendable {
    /// Monday to Sunday.
    case weekly
    /// Calendar months.
    case monthly
    /// Calendar years.
    case yearly
}

/// A spending limit for an expense category, per period, from a start day on.
///
/// ```swift
/// let groceries = Budget(id: "…", categoryID: food.id, amount: 4_000_000, period: .monthly, start: try Day(iso: "2025-01-01"))
/// groceries.period(containing: try Day(iso: "2025-03-14"))   // [2025-03-01, 2025-04-01)
/// ```
public struct Budget: Hashable, Sendable, Identifiable {
    public var id: String
    public var categoryID: String
    /// Where the expected spending comes from in the forecast; the default account when nil.
    public var payFromID: String?
    /// The limit per period, in minor units (more than 0).
    public var amount: Int64
    public var period: BudgetPeriod
    /// The budget counts from the period containing this day.
    public var start: Day

    /// A budget of `amount` per `period` for `categoryID` from `start`, paid from `payFromID` (or the default account).
    public init(id: String, categoryID: String, payFromID: String? = nil, amount: Int64, period: BudgetPeriod, start: Day) {
        self.id = id
        self.categoryID = categoryID
        self.payFromID = payFromID
        self.amount = amount
        self.period = period
        self.start = start
    }

    /// The period containing `day`, or nil when it is before the budget's first period.
    public func period(containing day: Day) -> DayRange? {
        let range = Budget.period(period, containing: day)
        return range.end <= Budget.period(period, containing: start).start ? nil : range
    }

    /// The period of kind `period` containing `day`.
    public static func period(_ period: BudgetPeriod, containing day: Day) -> DayRange {
        switch period {
        case .weekly:
            let monday = day.advanced(by: 1 - day.weekday.rawValue)
            return DayRange(monday, monday.advanced(by: 7))
        case .monthly:
            return DayRange(day.startOfMonth, day.endOfMonth.advanced(by: 1))
        case .yearly:
            let year = day.civil.year
            return DayRange(Day(Day.daysFromCivil(year: year, month: 1, day: 1)), Day(Day.daysFromCivil(year: year + 1, month: 1, day: 1)))
        }
    }

    /// Where the current period stands on `today`, given what was spent in it so far.
    public func status(spent: Int64, today: Day) -> BudgetStatus? {
        guard let range = period(containing: today) else { return nil }
        let elapsed = Int64(today.number - range.start.number + 1)
        let length = Int64(range.count)
        // Spent at the same pace to the period's end, rounded half up.
        let (scaled, overflow) = spent.multipliedReportingOverflow(by: length)
        let projected = overflow ? Int64.max : spent < 0 ? -((-scaled + elapsed / 2) / elapsed) : (scaled + elapsed / 2) / elapsed
        return BudgetStatus(period: range, limit: amount, spent: spent, projected: projected)
    }

    /// The spending a forecast expects from this budget, from `today` through `horizon`: in the
    /// current period what the limit leaves after what was spent and what schedules still spend in
    /// it, spread evenly over its days from today on; in each later period the limit less what
    /// schedules spend in it, spread evenly over the period's days. Schedules count first, so a
    /// category fully paid by a schedule adds nothing.
    /// - Parameters:
    ///   - spent: spent in the current period before today and today.
    ///   - scheduled: what is already planned in the category in a range of days (from `today`
    ///     on): schedules, and transactions recorded for later days.
    /// - Returns: (day, amount) in day order, amounts more than 0.
    /// - Complexity: O(days to the horizon).
    public func expectedSpending(today: Day, horizon: Day, spent: Int64, scheduled: (DayRange) -> Int64) -> [(day: Day, amount: Int64)] {
        var result: [(day: Day, amount: Int64)] = []
        var day = max(today, Budget.period(period, containing: start).start)
        while day <= horizon {
            let range = Budget.period(period, containing: day)
            let days = DayRange(day, min(range.end, horizon.advanced(by: 1)))
            // The rest of a period is planned as a whole: cut at the horizon, it is still spread
            // over the period's days, and only those up to the horizon count.
            let whole = DayRange(day, range.end)
            let used = (day == today && range.contains(today) ? spent : 0) + scheduled(whole)
            let rest = amount - used
            if rest > 0 {
                let share = rest / Int64(whole.count)
                let extra = Int(rest % Int64(whole.count))
                for (offset, date) in days.enumerated() {
                    let value = share + (offset < extra ? 1 : 0)
                    if value > 0 { result.append((date, value)) }
                }
            }
            day = range.end
        }
        return result
    }
}

/// A budget's current period on a day.
public struct BudgetStatus: Hashable, Sendable {
    public var period: DayRange
    public var limit: Int64
    public var spent: Int64
    /// What the period ends at if spending goes on at the pace so far.
    public var projected: Int64

    /// What is left to spend (negative: over the limit).
    public var left: Int64 { limit - spent }
    public var isOver: Bool { spent > limit }
    public var willBeOver: Bool { projected > limit }
}
