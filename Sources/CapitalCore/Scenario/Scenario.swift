/// A what-if purchase: PRICE on DAY, paid from a level's pool, with its financing, new recurring
/// costs, recurring income changes and the sale of an asset.
///
/// ```swift
/// // A car of 1 500 000.00 on 2026-06-01: 300 000.00 down, the rest on a 60-month loan at 14 %,
/// // insurance of 40 000.00 a year and fuel of 4 000.00 a month from the same day.
/// let day = try Day(iso: "2026-06-01")
/// let car = try Scenario(
///     price: 150_000_000, day: day,
///     financing: .loan(ScenarioLoan(downPayment: 30_000_000, rate: Rate(parsing: "14"), term: 60)),
///     costs: [RecurringChange(amount: 4_000_000, period: .yearly, start: day),
///             RecurringChange(amount: 400_000, period: .monthly, start: day)])
/// ```
///
/// The scenario changes the level's balances only from its first day (the earliest of the
/// purchase day, the recurring starts and the sale day) on; a `ScenarioEvaluator` turns it into a
/// short list of steps and checks them against the base forecast without rebuilding it.
public struct Scenario: Hashable, Sendable {
    /// Minor units paid for the purchase, 1 … `Scenario.maximumAmount`.
    public var price: Int64
    /// The purchase day. A day before the evaluator's today is paid today (see `ScenarioEvaluator`).
    public var day: Day
    public var financing: ScenarioFinancing
    /// New recurring outflows (insurance, fuel, maintenance): each `amount` is positive.
    public var costs: [RecurringChange]
    /// Recurring changes of income: a positive `amount` is more income, a negative one less.
    public var incomeChanges: [RecurringChange]
    /// An asset sold (the old car): an inflow on its day.
    public var sale: AssetSale?

    /// The largest price, down payment, recurring amount or sale capital accepts: 10^15 minor
    /// units, the loan engine's largest principal.
    public static let maximumAmount: Int64 = Loan.maximumPrincipal
    /// The most instalments a plan may have: 100 years of monthly payments, as for a loan's term.
    public static let maximumInstalments = Loan.maximumTerm

    /// - Throws: `ScenarioError.invalid` for an amount, term, rate, count or end day out of range.
    public init(
        price: Int64, day: Day, financing: ScenarioFinancing = .cash, costs: [RecurringChange] = [],
        incomeChanges: [RecurringChange] = [], sale: AssetSale? = nil
    ) throws(ScenarioError) {
        self.price = price
        self.day = day
        self.financing = financing
        self.costs = costs
        self.incomeChanges = incomeChanges
        self.sale = sale
        try validate()
    }

    /// Checks what can be checked without a forecast (the horizon is the evaluator's).
    /// - Throws: `ScenarioError.invalid` naming the field, the value and why.
    /// - Complexity: O(recurring changes).
    public func validate() throws(ScenarioError) {
        try Scenario.checkAmount(price, field: "price")
        switch financing {
        case .cash:
            break
        case .loan(let loan):
            guard loan.downPayment >= 0 else {
                throw .invalid(field: "down payment", value: "\(loan.downPayment)", reason: "cannot be negative")
            }
            guard loan.downPayment <= price else {
                throw .invalid(field: "down payment", value: "\(loan.downPayment)", reason: "is above the price \(price)")
            }
            guard loan.term >= 1 else { throw .invalid(field: "loan term", value: "\(loan.term)", reason: "must be at least 1 month") }
            guard loan.term <= Loan.maximumTerm else {
                throw .invalid(field: "loan term", value: "\(loan.term)", reason: "is over \(Loan.maximumTerm) months (100 years)")
            }
            guard loan.rate.perMillion >= 0, loan.rate <= Rate.maximum else {
                throw .invalid(field: "loan rate", value: "\(loan.rate)", reason: "must be from 0 to 1000 %")
            }
        case .instalments(let count, _):
            guard count >= 1 else { throw .invalid(field: "instalments", value: "\(count)", reason: "must be at least 1") }
            guard count <= Scenario.maximumInstalments else {
                throw .invalid(field: "instalments", value: "\(count)", reason: "is over \(Scenario.maximumInstalments) (100 years)")
            }
        }
        for cost in costs {
            try Scenario.checkAmount(cost.amount, field: "cost")
            try Scenario.checkEnd(cost, field: "cost end")
        }
        for change in incomeChanges {
            guard change.amount != 0 else { throw .invalid(field: "income change", value: "0", reason: "must not be 0") }
            guard change.amount.magnitude <= UInt64(Scenario.maximumAmount) else {
                throw .invalid(field: "income change", value: "\(change.amount)", reason: "is over 10^15 minor units")
            }
            try Scenario.checkEnd(change, field: "income change end")
        }
        if let sale { try Scenario.checkAmount(sale.amount, field: "sale") }
    }

    /// The same scenario `days` later: the purchase, every recurring start and end, and the sale
    /// move by `days`; the loan, the instalments and the recurring occurrences are laid out again
    /// from the moved days (so they keep their day of the month, clamped to shorter months).
    public func shifted(by days: Int) -> Scenario {
        var moved = self
        moved.day = day.advanced(by: days)
        moved.costs = costs.map { $0.shifted(by: days) }
        moved.incomeChanges = incomeChanges.map { $0.shifted(by: days) }
        moved.sale = sale.map { AssetSale(day: $0.day.advanced(by: days), amount: $0.amount) }
        return moved
    }

    /// The scenario's first day: the earliest of the purchase, the recurring starts and the sale.
    public var firstDay: Day {
        var first = day
        for cost in costs where cost.start < first { first = cost.start }
        for change in incomeChanges where change.start < first { first = change.start }
        if let sale, sale.day < first { first = sale.day }
        return first
    }

    static func checkAmount(_ amount: Int64, field: String) throws(ScenarioError) {
        guard amount > 0 else { throw .invalid(field: field, value: "\(amount)", reason: "must be more than 0") }
        guard amount <= maximumAmount else { throw .invalid(field: field, value: "\(amount)", reason: "is over 10^15 minor units") }
    }

    static func checkEnd(_ change: RecurringChange, field: String) throws(ScenarioError) {
        if let end = change.end, end < change.start {
            throw .invalid(field: field, value: end.iso, reason: "is before the start \(change.start)")
        }
    }
}

/// How a scenario's purchase is paid for.
public enum ScenarioFinancing: Hashable, Sendable {
    /// The whole price on the purchase day.
    case cash
    /// A down payment on the purchase day and a loan for the rest.
    case loan(ScenarioLoan)
    /// `count` interest-free monthly payments of `price / count` rounded down, the last one
    /// absorbing the remainder (1 000.00 in 3: 333.33, 333.33, 333.34).
    case instalments(count: Int, first: InstalmentStart = .purchaseDay)
}

/// When the first of a scenario's instalments is due.
public enum InstalmentStart: String, Hashable, Sendable, CaseIterable {
    /// On the purchase day, then the same day of each later month (the usual shop plan).
    case purchaseDay = "purchase-day"
    /// One month after the purchase, then monthly.
    case oneMonthLater = "one-month-later"
}

/// A scenario's loan: the principal is the price less the down payment; it starts on the
/// purchase day and is paid monthly from one month later, exactly as `Loan.amortize` schedules
/// it (rounding half-up, no business-day adjustment).
public struct ScenarioLoan: Hashable, Sendable {
    /// Minor units paid on the purchase day, 0 … price. When the maximum affordable price is
    /// searched, the down payment stays this amount (capped at the price tried).
    public var downPayment: Int64
    public var rate: Rate
    /// Months, 1 … 1 200.
    public var term: Int
    public var method: LoanMethod
    public var dayCount: DayCount

    /// The terms as given; `Scenario.validate()` checks them against the price.
    public init(downPayment: Int64, rate: Rate, term: Int, method: LoanMethod = .annuity, dayCount: DayCount = .thirty360) {
        self.downPayment = downPayment
        self.rate = rate
        self.term = term
        self.method = method
        self.dayCount = dayCount
    }
}

/// How often a recurring change repeats.
public enum RecurrencePeriod: String, Hashable, Sendable, CaseIterable {
    case monthly
    case yearly

    /// Months between occurrences.
    public var months: Int { self == .monthly ? 1 : 12 }
}

/// A recurring amount from a start day: on the start day, then every month or year on the same
/// day of the month (clamped to shorter months: from 2026-01-31 monthly falls on 2026-02-28, then
/// 2026-03-31), up to `end` (inclusive) if there is one, else to the horizon.
public struct RecurringChange: Hashable, Sendable {
    /// Minor units: a cost is positive; an income change is positive for more income.
    public var amount: Int64
    public var period: RecurrencePeriod
    public var start: Day
    /// The last day an occurrence may fall on.
    public var end: Day?

    /// A cost of `amount` each `period` from `start` (to `end`, when given).
    public init(amount: Int64, period: RecurrencePeriod, start: Day, end: Day? = nil) {
        self.amount = amount
        self.period = period
        self.start = start
        self.end = end
    }

    func shifted(by days: Int) -> RecurringChange {
        RecurringChange(amount: amount, period: period, start: start.advanced(by: days), end: end?.advanced(by: days))
    }
}

/// An asset sold as part of a scenario: `amount` minor units come in on `day`.
public typealias AssetSale = DatedAmount
