/// A loan kept in a ledger: its terms, the liability account that carries its balance, where the
/// payments come from and where the interest goes.
///
/// The liability account's balance follows the schedule through `handledThrough`, whatever was
/// posted to the account by hand; after it, each payment is an expected flow, open until a
/// transaction stands for it.
public struct LedgerLoan: Hashable, Sendable, Identifiable {
    public var id: String
    /// The liability account (kind `loan`); the loan goes by its name.
    public var accountID: String
    /// The account the payments come from.
    public var payFromID: String
    /// The expense category the interest goes to (`Loan interest` unless the loan has its own).
    public var interestCategoryID: String
    /// Where the money lent arrives when the loan starts after today (nil: the paying account).
    public var disburseToID: String?
    /// An asset the loan is secured on, shown beside the debt.
    public var collateralID: String?
    /// The working-day calendar the payment days are adjusted on.
    public var calendar: String
    /// The terms, with the one-off prepayments.
    public var terms: Loan
    /// Recurring extra payments, expanded into prepayments until the loan is paid off.
    public var extras: [LoanExtra]
    /// The last day of the history the loan was added with: payments up to it (by their day
    /// before adjustment) were made before capital knew the loan. Nil: every payment whose day is
    /// before today counts as made (a ledger file that does not say).
    public var handledThrough: Day?

    /// A loan with its terms on `accountID`, paid from `payFromID`, its interest to `interestCategoryID`.
    public init(
        id: String, accountID: String, payFromID: String, interestCategoryID: String, disburseToID: String? = nil,
        collateralID: String? = nil, calendar: String = "none", terms: Loan, extras: [LoanExtra] = [], handledThrough: Day? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.payFromID = payFromID
        self.interestCategoryID = interestCategoryID
        self.disburseToID = disburseToID
        self.collateralID = collateralID
        self.calendar = calendar
        self.terms = terms
        self.extras = extras
        self.handledThrough = handledThrough
    }

    /// The schedule with every prepayment: one-off ones as given, recurring ones on each of their
    /// days up to the payoff. A recurring payment that is not less than what is left pays the loan
    /// off in full; those that would fall after the payoff are dropped.
    /// - Throws: `LoanError` for a one-off prepayment that does not fit (before the start, after
    ///   the payoff, too large).
    /// - Complexity: O(term + prepayments) per pass; a recurring payment that runs past the payoff
    ///   costs one more pass.
    public func schedule(calendar: WorkingDayCalendar = .none) throws(LoanError) -> LoanSchedule {
        guard !extras.isEmpty else { return try terms.amortize(calendar: calendar) }
        // The loan cannot last longer than its term: recurring days past the last payment are moot.
        let last = terms.paymentDay(terms.term, calendar: calendar).day
        var recurring: [LoanPrepayment] = []
        for extra in extras {
            let end = min(extra.end ?? last, last)
            guard extra.start <= end else { continue }
            extra.rule.forEachOccurrence(start: extra.start, in: DayRange(extra.start, end.advanced(by: 1)), calendar: calendar) { _, day in
                recurring.append(LoanPrepayment(day: day, amount: extra.amount, effect: extra.effect))
            }
        }
        recurring.sort { $0.day < $1.day }
        var loan = terms
        let oneOff = terms.prepayments
        while true {
            loan.prepayments = oneOff + recurring
            do {
                return try loan.amortize(calendar: calendar)
            } catch .prepaymentTooLarge(let day, _, _) where recurring.contains(where: { $0.day == day && !$0.full }) {
                // The recurring payment that day clears the loan: the payoff, and nothing after it.
                let index = recurring.firstIndex { $0.day == day }!
                recurring[index].full = true
                recurring.removeSubrange((index + 1)...)
            } catch .prepaymentAfterPayoff(let day, _) where recurring.contains(where: { $0.day >= day }) {
                recurring.removeAll { $0.day >= day }
            }
        }
    }
}

/// A recurring extra payment of a loan: `amount` of principal on every day of `rule` from `start`
/// (to `end`, or until the loan is paid off).
public struct LoanExtra: Hashable, Sendable {
    public var amount: Int64
    public var rule: Rule
    public var start: Day
    public var end: Day?
    public var effect: PrepaymentEffect

    /// A prepayment of `amount` on each day of `rule` from `start` (to `end`, inclusive, when given).
    public init(amount: Int64, rule: Rule, start: Day, end: Day? = nil, effect: PrepaymentEffect = .term) {
        self.amount = amount
        self.rule = rule
        self.start = start
        self.end = end
        self.effect = effect
    }
}

/// Where a loan stands on a day: what `loan show` and `loan list` print.
public struct LoanStatus: Hashable, Sendable {
    /// The balance after every payment before `day`.
    public var balance: Int64
    /// The first payment (or prepayment) on or after `day`.
    public var next: LoanRow?
    public var payoff: Day
    /// The interest of the payments from `day` on.
    public var interestLeft: Int64
    public var paymentsLeft: Int

    /// - Complexity: O(rows).
    public init(_ schedule: LoanSchedule, principal: Int64, start: Day, on day: Day) {
        var balance = principal
        var interest: Int64 = 0
        var count = 0
        var next: LoanRow?
        for row in schedule.rows {
            if row.day < day {
                balance = row.balance
            } else {
                if next == nil { next = row }
                interest += row.interest
                if row.kind == .payment { count += 1 }
            }
        }
        self.balance = day <= start ? principal : balance
        self.next = next
        payoff = schedule.payoff
        interestLeft = interest
        paymentsLeft = count
    }
}
