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
    /// What the transactions standing for its payments (posted or settled) paid, by the payment's
    /// key day, when the store or file says; a payment not here was paid as planned. Paid more, the
    /// excess is a prepayment on the payment's day that shortens the term (`schedule`); paid less,
    /// the rest stays owed (`Ledger.loanRest`).
    public var payments: [Day: RecordedLoanPayment] = [:]

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
    ///
    /// A payment that `payments` says was paid more than planned adds the excess as a prepayment on
    /// the payment's day (the term shortened; the whole rest paid off when the excess reaches it),
    /// and the schedule is laid out again from there.
    public func schedule(calendar: WorkingDayCalendar = .none) throws(LoanError) -> LoanSchedule {
        var schedule = try plannedSchedule(calendar: calendar)
        guard payments.contains(where: { $0.value.amount > 0 }) else { return schedule }
        var loan = self
        var index = 0
        while index < schedule.rows.count {
            let row = schedule.rows[index]
            index += 1
            guard row.kind == .payment, row.balance > 0, let paid = payments[row.original]?.amount, paid > row.payment else { continue }
            let excess = paid - row.payment
            loan.terms.prepayments.append(LoanPrepayment(day: row.day, amount: excess, effect: .term, full: excess >= row.balance))
            while true {
                do {
                    schedule = try loan.plannedSchedule(calendar: calendar)
                    break
                } catch .prepaymentTooLarge(let day, let amount, let remaining) {
                    // A planned prepayment the excess left too large pays off what is left; none after it.
                    guard let planned = loan.terms.prepayments.firstIndex(where: { $0.day == day && !$0.full }), day != row.day else {
                        throw .prepaymentTooLarge(day: day, amount: amount, remaining: remaining)
                    }
                    loan.terms.prepayments[planned].full = true
                    loan.terms.prepayments.removeAll { $0.day > day }
                } catch .prepaymentAfterPayoff(let day, let payoff) {
                    // Planned prepayments after the earlier payoff never happen.
                    let before = loan.terms.prepayments.count
                    loan.terms.prepayments.removeAll { $0.day >= day && $0.day > row.day }
                    if loan.terms.prepayments.count == before { throw .prepaymentAfterPayoff(day: day, payoff: payoff) }
                }
            }
        }
        return schedule
    }

    /// Whether row `index` of `rows` is the prepayment an overpaid payment made (the row before it,
    /// that day's payment, was paid more than planned): made with that payment, never open.
    func isExcess(_ rows: [LoanRow], _ index: Int) -> Bool {
        guard index > 0, rows[index].kind == .prepayment else { return false }
        let payment = rows[index - 1]
        return payment.kind == .payment && payment.day == rows[index].day && (payments[payment.original]?.amount ?? 0) > payment.payment
    }

    /// The schedule from the terms and the planned prepayments, one-off and recurring.
    private func plannedSchedule(calendar: WorkingDayCalendar) throws(LoanError) -> LoanSchedule {
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

/// What the transaction standing for a loan's payment paid: its id and what it moved to the loan's
/// account and its interest category (minor units).
public struct RecordedLoanPayment: Hashable, Sendable {
    public var transactionID: String
    public var amount: Int64

    /// The payment `transactionID` made, of `amount` minor units (principal and interest).
    public init(transactionID: String, amount: Int64) {
        self.transactionID = transactionID
        self.amount = amount
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
    /// What payments made short left owed (`Ledger.loanRest`), and the day of the first of them;
    /// 0 and nil when nothing is.
    public var owed: Int64 = 0
    public var owedSince: Day?

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
