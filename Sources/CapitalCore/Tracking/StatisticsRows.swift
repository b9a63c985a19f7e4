/// One category's total over the range.
public struct CategoryTotal: Hashable, Sendable {
    public var accountID: String
    public var name: String
    /// Spending (an expense category: its postings, refunds negative) or money received (an income
    /// category: its postings negated), in minor units.
    public var amount: Int64
    /// `amount` as a share of its kind's total, in basis points rounded half up; nil when the total is 0.
    public var share: Int64?
    /// Transactions with a posting to the category.
    public var transactions: Int
    /// `amount` over the months of the range (partial months count whole), rounded half up.
    public var monthlyAverage: Int64
}

/// The categories of one kind (expense or income), largest first, and their total.
public struct CategoryBreakdown: Hashable, Sendable {
    public var kind: AccountKind
    /// By amount, largest first; equal amounts by name.
    public var categories: [CategoryTotal]
    public var total: Int64
    /// Transactions with a posting to a category of this kind.
    public var transactions: Int
    /// `total` over the months of the range, rounded half up.
    public var monthlyAverage: Int64
}

/// Income, expense and net of one calendar month (the part of it inside the range).
public struct MonthFlows: Hashable, Sendable {
    /// The month's first day.
    public var month: Day
    /// The first and last day of the month inside the range.
    public var first: Day
    public var last: Day
    public var income: Int64
    public var expense: Int64
    /// `income − expense`.
    public var net: Int64
    /// Transactions with a category posting in the month.
    public var transactions: Int
}

/// What one person spent and earned: the category postings of the transactions naming them.
public struct SpenderFlows: Hashable, Sendable {
    /// The transactions' `spender`; empty for transactions that name nobody.
    public var spender: String
    public var expense: Int64
    public var income: Int64
    public var net: Int64
    /// `expense` as a share of all spending, in basis points rounded half up; nil when that is 0.
    public var expenseShare: Int64?
    public var transactions: Int
}

/// Spending this month to date against last month and against the average month.
public struct ComparisonFigures: Hashable, Sendable {
    /// From the first of today's month to today, both included.
    public var thisMonth: Int64
    /// The whole month before today's.
    public var lastMonth: Int64
    /// The average of the range's full months before today's month, rounded half up; nil when the
    /// range holds no such month.
    public var average: Int64?
    /// `thisMonth − lastMonth`.
    public var changeFromLastMonth: Int64
    /// `thisMonth − average`.
    public var changeFromAverage: Int64?

    /// - Throws: `LedgerError.overflow` if a change does not fit Int64.
    public init(thisMonth: Int64, lastMonth: Int64, average: Int64?) throws(LedgerError) {
        self.thisMonth = thisMonth
        self.lastMonth = lastMonth
        self.average = average
        let (change, overflow) = thisMonth.subtractingReportingOverflow(lastMonth)
        if overflow { throw .overflow }
        changeFromLastMonth = change
        if let average {
            let (change, overflow) = thisMonth.subtractingReportingOverflow(average)
            if overflow { throw .overflow }
            changeFromAverage = change
        } else {
            changeFromAverage = nil
        }
    }
}

/// One expense category's comparison.
public struct CategoryComparison: Hashable, Sendable {
    public var accountID: String
    public var name: String
    public var figures: ComparisonFigures
}

/// This month against last month and the average, per expense category and in total.
public struct MonthComparison: Hashable, Sendable {
    /// Today's month: its first day, and today.
    public var month: Day
    public var through: Day
    /// The first day of the month before.
    public var lastMonth: Day
    /// The full months of the range before today's month, which the average is taken over
    /// (`[start, end)`, `averagedMonths` of them); empty when there are none.
    public var averaged: DayRange
    public var averagedMonths: Int
    /// Expense categories with spending in any of the three, by this month's spending, largest first.
    public var categories: [CategoryComparison]
    public var total: ComparisonFigures

    /// The comparison with every figure given.
    public init(
        month: Day, through: Day, lastMonth: Day, averaged: DayRange, averagedMonths: Int, categories: [CategoryComparison], total: ComparisonFigures
    ) {
        self.month = month
        self.through = through
        self.lastMonth = lastMonth
        self.averaged = averaged
        self.averagedMonths = averagedMonths
        self.categories = categories
        self.total = total
    }
}
