/// One line of a loan's schedule: a regular payment or an extra repayment.
public struct LoanRow: Hashable, Sendable {
    /// A scheduled payment, or a prepayment.
    public enum Kind: String, Hashable, Sendable {
        case payment
        /// An extra repayment of principal (or the full payoff) between payments.
        case prepayment
    }

    public var kind: Kind
    /// The payment's number from 1; 0 for a prepayment.
    public var n: Int
    /// The payment's day before the business-day adjustment (a prepayment's own day).
    public var original: Day
    /// The day money moves.
    public var day: Day
    /// Minor units paid: `interest + principal`.
    public var payment: Int64
    public var interest: Int64
    public var principal: Int64
    /// What is owed after this row.
    public var balance: Int64
}

/// A loan's payments, from the first to the one that leaves exactly 0.
public struct LoanSchedule: Hashable, Sendable {
    /// The regular payment as first computed: the annuity payment, or for a linear loan the first
    /// payment (principal part plus the first period's interest).
    public var payment: Int64
    public var rows: [LoanRow]
    public var totalInterest: Int64

    /// The day the last row moves money.
    public var payoff: Day { rows.last!.day }
    /// The regular payments only.
    public var payments: [LoanRow] { rows.filter { $0.kind == .payment } }
}

extension Loan {
    /// The loan's schedule: each period's interest for its days under `dayCount`, rounded once to
    /// minor units; the annuity payment (or linear principal part) rounded by `rounding`; the last
    /// payment absorbs every rounding so the balance closes at exactly 0.
    ///
    /// A prepayment on day D lands at the end of D (after a payment due that day): the period
    /// around it accrues on the old balance up to D and on the new one after. With `.payment` the
    /// annuity payment (or the principal part) is recomputed over the payments left — an annuity's
    /// on the new balance plus the interest the old one accrued beyond it so far this period
    /// (discounted a month: the next payment pays it), so that the payments left are level; with
    /// `.term` it stays and the loan ends sooner.
    /// - Throws: `LoanError` for a prepayment before the start, after the payoff or not less than
    ///   what is left (unless `full`); `.overflow` for amounts past Int64.
    /// - Complexity: O(term + prepayments).
    public func amortize(calendar: WorkingDayCalendar = .none) throws(LoanError) -> LoanSchedule {
        let extras = prepayments.sorted { $0.day < $1.day }
        if let early = extras.first, early.day <= start { throw .prepaymentBeforeStart(day: early.day, start: start) }
        let basis = Divisor(UInt64(1_000_000) * dayCount.basis)
        let perMillion = UInt64(rate.perMillion)

        var balance = principal
        var annuity = method == .annuity ? try Loan.annuityPayment(principal: principal, rate: rate, count: term, rounding) : 0
        let firstAnnuity = annuity
        var part = method == .linear ? try Loan.share(principal, count: term, rounding) : 0
        var rows: [LoanRow] = []
        rows.reserveCapacity(term + extras.count)
        var totalInterest: Int64 = 0
        var next = 0  // the next prepayment
        var days = PaymentDays(self, calendar: calendar)
        // Where the next period's interest starts: the previous payment (its unadjusted day for
        // 30/360), with its civil date so that no day is converted twice.
        var previous = (day: start, civil: start.civil)
        var n = 1
        while balance > 0 && n <= term {
            let (original, originalCivil, day) = days.next()
            let end =
                dayCount == .thirty360 || day == original ? (day: dayCount == .thirty360 ? original : day, civil: originalCivil) : (day, day.civil)
            // Σ balance × days, segment by segment: prepayments split the period.
            var accrued = Wide(0)
            var from = previous
            func accrue(to end: (day: Day, civil: CivilDate)) throws(LoanError) {
                let days = dayCount.numerator(from: from.day, from.civil, to: end.day, end.civil)
                guard let sum = accrued.adding(Wide(UInt64(balance), times: days)) else { throw .overflow }
                accrued = sum
                if end.day > from.day { from = end }
            }
            /// Σ balance × days as interest in minor units, rounded once.
            func interest(on accrued: Wide) throws(LoanError) -> Int64 {
                guard let wide = accrued.multiplied(by: perMillion), let value = basis.divide(wide, rounding), value <= UInt64(Int64.max) else {
                    throw .overflow
                }
                return Int64(value)
            }
            func interest() throws(LoanError) -> Int64 { try interest(on: accrued) }
            while next < extras.count && extras[next].day < day {
                let extra = extras[next]
                next += 1
                try accrue(to: (extra.day, extra.day.civil))
                if extra.full {
                    let owed = try interest()
                    rows.append(
                        LoanRow(
                            kind: .prepayment, n: 0, original: extra.day, day: extra.day, payment: balance + owed, interest: owed,
                            principal: balance, balance: 0))
                    totalInterest += owed
                    balance = 0
                    break
                }
                guard extra.amount > 0 else {
                    throw .invalid(field: "prepayment", value: "\(extra.amount)", reason: "must be more than 0")
                }
                guard extra.amount < balance else { throw .prepaymentTooLarge(day: extra.day, amount: extra.amount, remaining: balance) }
                balance -= extra.amount
                rows.append(
                    LoanRow(
                        kind: .prepayment, n: 0, original: extra.day, day: extra.day, payment: extra.amount, interest: 0, principal: extra.amount,
                        balance: balance))
                switch extra.effect {
                case .payment:
                    let left = term - n + 1
                    if method == .annuity {
                        // This period's interest so far accrued on the old balance: what it owes
                        // beyond the new balance's is paid with the next payment, so it is carried
                        // into the payment recomputed (discounted one month), and the payments left
                        // close the loan level, the last absorbing rounding only.
                        var carried: Int64 = 0
                        if from.day > previous.day {
                            let days = dayCount.numerator(from: previous.day, previous.civil, to: from.day, from.civil)
                            let beyond = try interest() - interest(on: Wide(UInt64(balance), times: days))
                            if beyond > 0 {
                                guard let value = Wide(UInt64(beyond), times: 12_000_000).divided(by: 12_000_000 + perMillion, rounding) else {
                                    throw .overflow
                                }
                                carried = Int64(value)
                            }
                        }
                        let (owed, overflow) = balance.addingReportingOverflow(carried)
                        if overflow { throw .overflow }
                        annuity = try Loan.annuityPayment(principal: owed, rate: rate, count: left, rounding)
                    } else {
                        part = try Loan.share(balance, count: left, rounding)
                    }
                case .term:
                    break  // the payment stays: the balance runs out sooner
                }
            }
            if balance == 0 { break }
            try accrue(to: end)
            let owed = try interest()
            var principalPart: Int64
            switch method {
            case .annuity:
                principalPart = annuity - owed
            case .linear:
                principalPart = part
            }
            // The last payment takes what is left, and so does one that would overshoot it (a
            // payment rounded up on a tiny loan, or a shortened term).
            if n == term || principalPart >= balance { principalPart = balance }
            let (paid, overflow) = principalPart.addingReportingOverflow(owed)
            if overflow { throw .overflow }
            // A payment below the period's interest grows the balance: past Int64 that is an
            // overflow to report, not a trap.
            let (left, grew) = balance.subtractingReportingOverflow(principalPart)
            if grew { throw .overflow }
            balance = left
            totalInterest += owed
            rows.append(
                LoanRow(kind: .payment, n: n, original: original, day: day, payment: paid, interest: owed, principal: principalPart, balance: balance)
            )
            previous = end
            n += 1
        }
        if next < extras.count, let last = rows.last { throw .prepaymentAfterPayoff(day: extras[next].day, payoff: last.day) }
        let payment = method == .annuity ? firstAnnuity : rows.first { $0.kind == .payment }?.payment ?? 0
        return LoanSchedule(payment: payment, rows: rows, totalInterest: totalInterest)
    }

    /// `amount / count` rounded: a linear loan's principal part.
    static func share(_ amount: Int64, count: Int, _ rounding: Rounding) throws(LoanError) -> Int64 {
        guard let value = Wide(UInt64(amount)).divided(by: UInt64(count), rounding) else { throw .overflow }
        return Int64(value)
    }
}
