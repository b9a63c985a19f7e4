extension ScenarioEvaluator {
    /// The first day D ≥ the purchase day (and ≥ today) such that `scenario.shifted(by: D − day)`
    /// is feasible, or nil if none up to the horizon.
    ///
    /// Days are tried in order, each one laying the moved scenario out again (its loan payments,
    /// instalments and recurring occurrences keep their day of the month from the moved days).
    /// When the scenario has no inflow (no sale, no income increase) its cumulative outflow never
    /// falls, so on the day of each of the purchase's own payments it is at least what the
    /// purchase has paid by then: the upfront payment, `m` annuities (or `m` linear principal
    /// parts; at most the principal), `m` instalments. Each such payment needs the suffix minimum
    /// on its day to cover that amount (the whole loan pays at least its principal), and its day
    /// only moves later with the shift: the search
    /// starts at the first shift that clears them all (a binary search each), which answers a
    /// plain cash purchase at once and leaves a loan a few days to try.
    /// - Complexity: O(payments × log days + steps × days tried).
    func earliestDay(_ scenario: Scenario, feasible: Bool, using workspace: inout ScenarioWorkspace) throws(ScenarioError) -> Day? {
        let base = scenario.day.number - today.number
        let lastShift = headroom.count - 1 - base
        var shift = max(0, -base)
        if shift == 0 && feasible { return scenario.day }
        // The bound counts the upfront payment against the pool: with cards it may go on them.
        if !workspace.hasInflow && cards.isEmpty && repaid == nil {
            guard let bound = purchaseBound(scenario, from: shift, through: lastShift) else { return nil }
            shift = bound
        }
        while shift <= lastShift {
            try workspace.compile(scenario, shift: shift, self)
            if onCard ? repaidFeasible(scenario, shift: shift, using: &workspace) : workspace.isFeasible(price: scenario.price) {
                return scenario.day.advanced(by: shift)
            }
            if !onCard, repaid != nil, repaidFeasible(scenario, shift: shift, using: &workspace) { return scenario.day.advanced(by: shift) }
            shift += 1
        }
        return nil
    }

    /// The smallest shift from `shift` on at which the suffix minimum covers what the purchase
    /// alone has paid by each of its payments, or nil if that is past `lastShift`.
    private func purchaseBound(_ scenario: Scenario, from shift: Int, through lastShift: Int) -> Int? {
        let price = scenario.price
        var bound = shift
        /// Raises `bound` to the first shift whose payment day (as `day(shift)`, a day index that
        /// never falls as the shift grows) reaches the first day the suffix minimum covers `amount`.
        func require(_ amount: Int64, _ day: (Int) -> Int) -> Bool {
            guard amount > 0 else { return true }
            let needed = suffix.firstIndex(atLeast: amount) ?? headroom.count  // past the horizon: not counted
            let first = day(bound)
            guard first < needed else { return true }
            // A day moves with the shift give or take three days (month lengths): jump, then step.
            var candidate = bound + (needed - first)
            while day(candidate) < needed { candidate += 1 }
            while candidate - 1 > bound && day(candidate - 1) >= needed { candidate -= 1 }
            bound = candidate
            return bound <= lastShift
        }
        let purchase = scenario.day.number - today.number
        switch scenario.financing {
        case .cash:
            _ = require(price) { purchase + $0 }
        case .loan(let loan):
            let down = min(loan.downPayment, price)
            guard require(down, { purchase + $0 }) else { return nil }
            let principal = price - down
            guard principal > 0 else { break }
            let payment: Int64
            do {
                payment =
                    loan.method == .annuity
                    ? try Loan.annuityPayment(principal: principal, rate: loan.rate, count: loan.term)
                    : try Loan.share(principal, count: loan.term, .halfUp)
            } catch {
                break
            }
            // Payment m is at least 28·m days after a purchase on or after today: past the horizon
            // beyond these.
            for m in 1...min(loan.term, 1 + headroom.count / 28) {
                let (repaid, overflow) = payment.multipliedReportingOverflow(by: Int64(m))
                let amount = down + (overflow ? principal : min(repaid, principal))
                let ok = require(amount) { shift in
                    scenario.day.advanced(by: shift).addingMonths(1).addingMonths(m - 1).number - self.today.number
                }
                if !ok { return nil }
            }
        case .instalments(let count, let first):
            let each = price / Int64(count)
            let offset = first == .oneMonthLater ? 1 : 0
            for j in 0..<min(count, 1 + headroom.count / 28) {
                let amount = j + 1 == count ? price : Int64(j + 1) * each
                let ok = require(amount) { shift in scenario.day.advanced(by: shift).addingMonths(j + offset).number - self.today.number }
                if !ok { return nil }
            }
        }
        return bound <= lastShift ? bound : nil
    }
}
