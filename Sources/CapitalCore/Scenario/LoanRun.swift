/// A scenario loan's payments at one principal, one period at a time, with the loan engine's
/// arithmetic (`Loan.amortize` without prepayments or business-day adjustments): each period's
/// interest is `balance × numerator × rate / basis` rounded half-up once, the annuity payment (or
/// the linear principal part) rounded half-up, the last payment (or one that would overshoot)
/// taking what is left.
struct LoanRun {
    private var balance: Int64
    private let annuity: Int64
    private let part: Int64
    private let term: Int
    private let isAnnuity: Bool
    private let divisor: Divisor
    /// Payments made so far (counting those after the payoff, which pay nothing).
    private(set) var made = 0
    /// The payments made so far, summed.
    private(set) var paid: Int64 = 0
    /// Their interest, summed.
    private(set) var interest: Int64 = 0

    /// - Throws: `.overflow` when the annuity payment does not fit.
    init(principal: Int64, perMillion: UInt64, term: Int, method: LoanMethod, divisor: Divisor) throws(ScenarioError) {
        balance = principal
        self.term = term
        isAnnuity = method == .annuity
        self.divisor = divisor
        do {
            annuity = isAnnuity ? try Loan.annuityPayment(principal: principal, rate: Rate(perMillion: Int64(perMillion)), count: term) : 0
            part = isAnnuity ? 0 : try Loan.share(principal, count: term, .halfUp)
        } catch {
            throw .overflow
        }
    }

    /// Makes the next payment; `factor` is its period's day-count numerator times the rate in
    /// millionths (the product the loan engine forms in two steps). False when an amount would
    /// overflow: a payment below the interest grows the balance (an annuity on actual days at a
    /// high rate over a long term), and the sums keep room for a down payment on top.
    @inline(__always)
    mutating func pay(factor: UInt64) -> Bool {
        made += 1
        guard balance > 0 else { return true }
        guard let bits = divisor.divide(Wide(UInt64(balance), times: factor), .halfUp), bits <= UInt64(Int64.max) else { return false }
        let owed = Int64(bits)
        var principalPart = isAnnuity ? annuity &- owed : part
        if made == term || principalPart >= balance { principalPart = balance }
        let (payment, o1) = principalPart.addingReportingOverflow(owed)
        let (sum, o2) = paid.addingReportingOverflow(payment)
        let (rest, o3) = balance.subtractingReportingOverflow(principalPart)
        let (interestSum, o4) = interest.addingReportingOverflow(owed)
        guard !o1, !o2, !o3, !o4, sum <= Int64.max / 2 else { return false }
        paid = sum
        interest = interestSum
        balance = rest
        return true
    }
}
