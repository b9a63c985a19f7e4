extension ScenarioWorkspace {
    /// The largest price with the compiled structure that keeps every stretch at 0 or above, at
    /// most `Scenario.maximumAmount`; 0 when even price 0 fails.
    ///
    /// - Cash: the price is paid on every stretch from the purchase on, less what the cards not
    ///   yet paid back carry of it, so the answer is the lowest `available + onCards` among them:
    ///   exact in O(stretches).
    /// - Instalments: a stretch after `k` of `N` instalments pays `k × ⌊P / N⌋` (all `P` once the
    ///   last is paid), so `⌊P / N⌋ ≤ ⌊available / k⌋`, that is `P ≤ N·⌊available / k⌋ + N − 1`:
    ///   exact in O(stretches).
    /// - Loan: up to the down payment nothing is borrowed (as cash). Above it, an annuity's `k`
    ///   payments before the last are `k × A(L)` with `A(L) = round(c·L)`, so a stretch bounds the
    ///   principal by `L < (⌊r / k⌋ + ½) / c`; a stretch after the last payment (or any stretch of a
    ///   linear loan) by `r / g_k`, `g_k` being the payments after `k` periods per unit of principal
    ///   in real arithmetic. The lowest bound is a guess within a few minor units; exact checks
    ///   (each O(payments + stretches)) gallop from it to a price that is feasible with the next
    ///   one not, then bisect.
    ///
    /// With a loan, rounding can make feasibility non-monotone in the price by a few minor units
    /// (a larger principal can round the annuity up by 1 and so lower the total interest by more
    /// than 1); the answer is then the boundary the search meets, never below the scenario's own
    /// price when that is feasible and always below it when it is not.
    mutating func maxPrice(feasibleAtPrice: Bool) -> Int64 {
        let cap = Scenario.maximumAmount
        var lowestPurchased = Int64.max
        for stretch in stretches {
            if stretch.available < 0 { return 0 }  // the fixed parts alone break the floor
            // An upfront payment P fits a stretch when P − min(P, onCards) ≤ available, that is
            // P ≤ available + onCards (available being at least 0).
            let room = Self.saturatingAdd(stretch.available, stretch.onCards)
            if stretch.purchased && room < lowestPurchased { lowestPurchased = room }
        }
        switch kind {
        case .cash:
            return min(cap, lowestPurchased)
        case .instalments:
            var bound = cap
            let n = Int64(instalmentCount)
            for stretch in stretches where stretch.instalments > 0 {
                let k = Int64(stretch.instalments)
                if k >= n {
                    bound = min(bound, stretch.available)
                } else {
                    let quotient = stretch.available / k
                    if quotient <= (cap - n + 1) / n { bound = min(bound, n * quotient + n - 1) }
                }
            }
            return bound
        case .loan:
            // Nothing borrowed up to the down payment: the purchase day pays the price itself.
            if lowestPurchased < downPayment { return lowestPurchased }
            var low = downPayment  // feasible: the down payment alone fits every stretch
            var high = cap + 1  // stands for "beyond the cap"
            if feasibleAtPrice { low = max(low, price) } else { high = min(high, price) }
            if low >= cap { return cap }
            return settle(feasible: low, infeasible: high, guess: loanGuess())
        }
    }

    /// `a + b` for `b ≥ 0`, saturated at Int64.max.
    @inline(__always)
    static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// The analytic estimate of the largest loan price (see `maxPrice(feasibleAtPrice:)`).
    private mutating func loanGuess() -> Int64 {
        let count = factors.count
        let factor = Self.annuityFactor(perMillion: perMillion, term: term)
        // The slopes g_k, needed by a linear loan, and by an annuity only after its last payment.
        if method == .linear || count == term {
            if unitPaid.count < count + 1 { unitPaid.append(contentsOf: repeatElement(0, count: count + 1 - unitPaid.count)) }
            let perBasis = 1 / Double(divisor.value)
            var balance = 1.0
            var total = 0.0
            unitPaid[0] = 0
            for k in 0..<count {
                if balance > 0 {
                    let owed = balance * Double(factors[k]) * perBasis
                    var part = method == .annuity ? factor - owed : 1 / Double(term)
                    if k + 1 == term || part >= balance { part = balance }
                    total += part + owed
                    balance -= part
                }
                unitPaid[k + 1] = total
            }
        }
        var bound = Double.infinity
        for stretch in stretches where stretch.loanPayments > 0 {
            let room = stretch.available + Self.carried(downPayment, onCards: stretch.onCards) - downPayment
            let k = Int(stretch.loanPayments)
            let limit = method == .annuity && k < term ? (Double(room / Int64(k)) + 0.5) / factor : Double(room) / unitPaid[k]
            bound = min(bound, limit)
        }
        let room = Double(Scenario.maximumAmount - downPayment)
        return bound >= room ? Scenario.maximumAmount : downPayment + Int64(max(0, bound))
    }

    /// A price `p` in `[low, high)` with `p` feasible and `p + 1` not (or `high` beyond the cap),
    /// galloping from `guess` then bisecting. `low` must be feasible and `high` infeasible.
    /// - Complexity: O(log |answer − guess|) exact checks.
    private mutating func settle(feasible low: Int64, infeasible high: Int64, guess: Int64) -> Int64 {
        var low = low
        var high = high
        let start = min(max(guess, low), high - 1)
        var upward = true
        if start > low {
            if isFeasible(price: start) { low = start } else { high = start; upward = false }
        }
        var step: Int64 = 1
        if upward {
            while high - low > 1 {
                let probe = low + min(step, high - low - 1)
                if isFeasible(price: probe) {
                    low = probe
                    step *= 2
                } else {
                    high = probe
                    break
                }
            }
        } else {
            while high - low > 1 {
                let probe = high - min(step, high - low - 1)
                if isFeasible(price: probe) {
                    low = probe
                    break
                }
                high = probe
                step *= 2
            }
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if isFeasible(price: middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// The annuity payment per unit of principal in real arithmetic, `r / (1 − (1 + r)^−n)`, as
    /// `Loan.annuityPayment` estimates it; `1 / n` at rate 0.
    static func annuityFactor(perMillion: UInt64, term: Int) -> Double {
        guard perMillion > 0 else { return 1 / Double(term) }
        let monthly = Double(perMillion) / 12_000_000
        return monthly * (1 + 1 / Loan.growth(monthly, term))
    }
}
