extension Loan {
    /// The annuity payment that repays `principal` in `count` equal monthly payments at `rate`,
    /// rounded to minor units: the correctly rounded value of the exact rational
    ///
    ///     principal × R × a^n / (12·10^6 × (a^n − b^n)),   a = 12·10^6 + R,  b = 12·10^6
    ///
    /// (R the rate in millionths a year, so the monthly rate is R / (12·10^6)). A floating-point
    /// estimate (relative error under 10^-13) decides it; only when the estimate lies that close to
    /// a rounding tie is it settled exactly with integer arithmetic. No amount is ever a `Double`.
    /// - Complexity: O(1); O(count²) words in the rare exact case.
    public static func annuityPayment(principal: Int64, rate: Rate, count: Int, _ rounding: Rounding = .halfUp) throws(LoanError) -> Int64 {
        guard principal > 0, count > 0 else { return 0 }
        let perMillion = rate.perMillion
        if perMillion == 0 { return try share(principal, count: count, rounding) }
        let monthly = Double(perMillion) / 12_000_000
        let estimate = Double(principal) * monthly * (1 + 1 / growth(monthly, count))
        guard estimate.isFinite, estimate < 9.0e15 else { throw .overflow }
        let floor = estimate.rounded(.down)
        let fraction = estimate - floor
        let tolerance = estimate * 1e-13 + 1e-9
        if abs(fraction - 0.5) > tolerance {
            return Int64(fraction > 0.5 ? floor + 1 : floor)
        }
        return exactAnnuityPayment(principal: principal, perMillion: perMillion, count: count, near: Int64(floor), rounding)
    }

    /// (1 + r)^n − 1, by squaring on the excess over 1, which keeps its relative precision for
    /// small r·n, where 1 − (1 + r)^−n would cancel. Only for estimates, never an amount: the
    /// annuity payment's guess (settled exactly near a rounding tie, `exactAnnuityPayment`) and the
    /// scenario max-price guess (settled by the exact feasibility search).
    /// - Complexity: O(log n).
    static func growth(_ monthly: Double, _ count: Int) -> Double {
        var excess = 0.0
        var power = monthly
        var exponent = count
        while exponent > 0 {
            if exponent & 1 == 1 { excess = excess + power + excess * power }
            power = 2 * power + power * power
            exponent >>= 1
        }
        return excess
    }

    /// The exact rounding of the annuity rational, searched from a candidate within one unit.
    static func exactAnnuityPayment(principal: Int64, perMillion: Int64, count: Int, near candidate: Int64, _ rounding: Rounding) -> Int64 {
        let b: UInt64 = 12_000_000
        let a = b + UInt64(perMillion)
        let aPower = BigNatural.power(a, count)
        // 2N = 2 × principal × R × a^n;  D = 12·10^6 × (a^n − b^n).
        let twiceN = aPower.multiplied(by: UInt64(principal)).multiplied(by: UInt64(perMillion)).multiplied(by: 2)
        let d = aPower.subtracting(BigNatural.power(b, count)).multiplied(by: b)
        func bound(_ p: Int64, _ offset: Int64) -> BigNatural { d.multiplied(by: UInt64(2 * p + offset)) }
        var p = max(candidate, 0)
        // Find p with (2p − 1)·D ≤ 2N ≤ (2p + 1)·D: N/D lies within half a unit of p.
        while bound(p, 1) < twiceN { p += 1 }
        while p > 0 && twiceN < bound(p, -1) { p -= 1 }
        if twiceN == bound(p, 1) {  // exactly p + ½
            return rounding == .halfUp || p & 1 == 1 ? p + 1 : p
        }
        if p > 0 && twiceN == bound(p, -1) {  // exactly p − ½
            return rounding == .halfUp || p & 1 == 0 ? p : p - 1
        }
        return p
    }
}
