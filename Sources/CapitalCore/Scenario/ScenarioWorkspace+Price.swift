extension ScenarioWorkspace {
    /// Walks the stretches in order at `price`, handing `body` each stretch and the scenario's
    /// cumulative outflow over it (the price-dependent part: the cash price or the down payment
    /// from the purchase on, less what the cards not yet paid back carry of it, the loan's
    /// payments so far, the instalments so far); stops when
    /// `body` returns false. A loan is amortised only as far as the walk goes (see `LoanRun`).
    /// - Returns: the loan interest paid up to where the walk stopped (all of it inside the
    ///   horizon when it did not stop), or nil when a loan amount overflows Int64.
    /// - Complexity: O(stretches + loan payments walked).
    @inline(__always)
    mutating func walk(price: Int64, _ body: (Stretch, Int64) -> Bool) -> Int64? {
        switch kind {
        case .cash:
            for stretch in stretches where !body(stretch, stretch.purchased ? price - Self.carried(price, onCards: stretch.onCards) : 0) {
                break
            }
            return 0
        case .instalments:
            let count = instalmentCount
            let each = price / Int64(count)
            for stretch in stretches {
                let made = Int(stretch.instalments)
                if !body(stretch, made < count ? Int64(made) * each : price) { break }
            }
            return 0
        case .loan:
            let down = min(downPayment, price)
            guard var run = try? LoanRun(principal: price - down, perMillion: perMillion, term: term, method: method, divisor: divisor) else {
                return nil
            }
            let complete = factors.withUnsafeBufferPointer { factors in
                for stretch in stretches {
                    while run.made < Int(stretch.loanPayments) {
                        guard run.pay(factor: factors[run.made]) else { return false }
                    }
                    if !body(stretch, (stretch.purchased ? down - Self.carried(down, onCards: stretch.onCards) : 0) + run.paid) { break }
                }
                return true
            }
            return complete ? run.interest : nil
        }
    }

    /// The lowest headroom after the scenario at `price`, the first day index reaching it, and
    /// the loan interest inside the horizon.
    /// - Complexity: O(stretches + loan payments inside the horizon).
    mutating func worst(price: Int64) throws(ScenarioError) -> (value: Int64, day: Int, interest: Int64) {
        var worst = Int64.max
        var day = 0
        let interest = walk(price: price) { stretch, outflow in
            let margin = Self.subtract(stretch.available, outflow)
            if margin < worst {
                worst = margin
                day = Int(stretch.minimumDay)
            }
            return true
        }
        guard let interest else { throw .overflow }
        return (worst, day, interest)
    }

    /// Whether the headroom stays at 0 or above everywhere at `price`; stops at the first stretch
    /// that falls below. A price whose loan amounts overflow Int64 inside the horizon is not
    /// affordable.
    mutating func isFeasible(price: Int64) -> Bool {
        var feasible = true
        let complete = walk(price: price) { stretch, outflow in
            feasible = stretch.available >= outflow
            return feasible
        }
        return feasible && complete != nil
    }
}
