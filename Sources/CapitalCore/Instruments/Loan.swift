/// How a loan's payments are shaped.
public enum LoanMethod: String, Hashable, Sendable, CaseIterable {
    /// Equal payments (the last absorbs the rounding): interest falls and principal grows.
    case annuity
    /// Equal principal parts ("differentiated"), interest on top: payments fall.
    case linear
}

/// What an early repayment shortens.
public enum PrepaymentEffect: String, Hashable, Sendable, CaseIterable {
    /// The payment stays; the loan ends sooner.
    case term
    /// The number of payments stays; each is smaller from the next one on.
    case payment
}

/// An extra repayment of principal on a day, or the whole loan paid off then (`full`).
public struct LoanPrepayment: Hashable, Sendable {
    public var day: Day
    /// Minor units of principal; ignored when `full`.
    public var amount: Int64
    public var effect: PrepaymentEffect
    /// Pays off everything: the balance and the interest accrued since the last payment.
    public var full: Bool

    /// A prepayment of `amount` on `day` that shortens the term or lowers the payment; `full` pays the loan off.
    public init(day: Day, amount: Int64, effect: PrepaymentEffect = .term, full: Bool = false) {
        self.day = day
        self.amount = amount
        self.effect = effect
        self.full = full
    }
}

/// The terms of a loan: what `amortize(calendar:)` turns into a schedule of payments.
///
/// ```swift
/// let loan = try Loan(principal: 18_000_000, rate: Rate(parsing: "7.75"), term: 360,
///                     start: try Day(iso: "2025-01-15"))
/// let schedule = try loan.amortize()
/// schedule.payment        // 128_954: $1 289.54 a month (the HP 10bII example)
/// ```
public struct Loan: Hashable, Sendable {
    /// Minor units lent.
    public var principal: Int64
    public var rate: Rate
    /// Months, which is the number of monthly payments.
    public var term: Int
    /// The day the money is lent: interest runs from here.
    public var start: Day
    /// The first payment's day; the others fall on the same day of later months (clamped to the
    /// end of shorter months), then move by `adjustment` on `calendar`'s days off.
    public var firstPayment: Day
    public var method: LoanMethod
    public var dayCount: DayCount
    public var rounding: Rounding
    public var adjustment: BusinessDayAdjustment
    public var prepayments: [LoanPrepayment]

    /// The largest principal capital amortises: 10^15 minor units.
    public static let maximumPrincipal: Int64 = 1_000_000_000_000_000
    /// The longest term: 100 years of monthly payments.
    public static let maximumTerm = 1_200

    /// - Parameter firstPayment: default one month after `start`.
    /// - Throws: `LoanError` for a principal, term, rate or day out of range.
    public init(
        principal: Int64, rate: Rate, term: Int, start: Day, firstPayment: Day? = nil, method: LoanMethod = .annuity,
        dayCount: DayCount = .thirty360, rounding: Rounding = .halfUp, adjustment: BusinessDayAdjustment = .none,
        prepayments: [LoanPrepayment] = []
    ) throws(LoanError) {
        guard principal > 0 else { throw .invalid(field: "principal", value: "\(principal)", reason: "must be more than 0") }
        guard principal <= Loan.maximumPrincipal else {
            throw .invalid(field: "principal", value: "\(principal)", reason: "is over 10^15 minor units")
        }
        guard term >= 1 else { throw .invalid(field: "term", value: "\(term)", reason: "must be at least 1 month") }
        guard term <= Loan.maximumTerm else { throw .invalid(field: "term", value: "\(term)", reason: "is over 1200 months (100 years)") }
        guard rate.perMillion >= 0, rate <= Rate.maximum else { throw .invalidRate("\(rate)", reason: "must be from 0 to 1000 %") }
        let first = firstPayment ?? start.addingMonths(1)
        guard first > start else {
            throw .invalid(field: "first payment", value: first.iso, reason: "must be after the loan's start \(start)")
        }
        guard adjustment != .skip else {
            throw .invalid(field: "adjust", value: adjustment.rawValue, reason: "a loan payment cannot be skipped; use following or preceding")
        }
        self.principal = principal
        self.rate = rate
        self.term = term
        self.start = start
        self.firstPayment = first
        self.method = method
        self.dayCount = dayCount
        self.rounding = rounding
        self.adjustment = adjustment
        self.prepayments = prepayments
    }

    /// The `n`th payment's day (from 1) before and after the business-day adjustment.
    public func paymentDay(_ n: Int, calendar: WorkingDayCalendar = .none) -> (original: Day, day: Day) {
        var days = PaymentDays(self, calendar: calendar)
        for _ in 1..<n { _ = days.next() }
        let (original, _, day) = days.next()
        return (original, day)
    }
}

/// The payment days of a loan in order, stepping the month from the first payment's civil date
/// (no date conversion per payment).
struct PaymentDays {
    private var year: Int
    private var month: Int
    /// The day number of the 1st of `month`.
    private var monthStart: Int
    private let dayOfMonth: Int
    private let adjustment: BusinessDayAdjustment
    private let calendar: WorkingDayCalendar

    init(_ loan: Loan, calendar: WorkingDayCalendar) {
        let civil = loan.firstPayment.civil
        (year, month, dayOfMonth) = (civil.year, civil.month, civil.day)
        monthStart = loan.firstPayment.number - civil.day + 1
        adjustment = loan.adjustment
        self.calendar = calendar
    }

    /// The next payment's day before and after the adjustment, with the civil date of the former.
    mutating func next() -> (original: Day, civil: CivilDate, day: Day) {
        let length = Day.daysIn(month: month, year: year)
        let day = min(dayOfMonth, length)
        let civil = CivilDate(year: year, month: month, day: day)
        let original = Day(monthStart + day - 1)
        monthStart += length
        month += 1
        if month > 12 {
            month = 1
            year += 1
        }
        let adjusted = adjustment == .none ? original : adjustment.adjust(original, in: calendar) ?? original
        return (original, civil, adjusted)
    }
}

/// Why a loan cannot be amortised.
public enum LoanError: KeyedError, Equatable, Sendable {
    case invalid(field: String, value: String, reason: String)
    case invalidRate(String, reason: String)
    /// A prepayment at least as large as what is left: pay it off in full instead.
    case prepaymentTooLarge(day: Day, amount: Int64, remaining: Int64)
    case prepaymentBeforeStart(day: Day, start: Day)
    case prepaymentAfterPayoff(day: Day, payoff: Day)
    case overflow

    /// The message, its field keys in braces.
    public var template: String {
        switch self {
        case .invalid(let field, let value, let reason):
            return "\(field) '\(FieldKeys.literal(value))': \(reason)"
        case .invalidRate(let text, let reason):
            return "rate '\(FieldKeys.literal(text))': \(reason)"
        case .prepaymentTooLarge(let day, let amount, let remaining):
            return "prepayment of \(amount) minor units on \(day) is not less than the \(remaining) left; pay the loan off in full instead ({full})"
        case .prepaymentBeforeStart(let day, let start):
            return "prepayment on \(day) is not after the loan's start \(start)"
        case .prepaymentAfterPayoff(let day, let payoff):
            return "prepayment on \(day) comes after the loan is paid off on \(payoff)"
        case .overflow:
            return "the loan's amounts overflow the largest amount capital can hold"
        }
    }
}
