/// Scenarios with cards paid back by a minimum or fixed amount (`CardConstraint.Counting.paidOverTime`).
///
/// A purchase on such a card costs its paying account the extra payments the card's own terms
/// make, with interest, which grow with the purchase by steps: not linear, so the workspace's
/// stretches cannot carry it. The plan's other payments (a loan's, the recurring costs less the
/// income changes and the sale) become a step function the pool pays besides the split
/// (`SplitAvailability.charged(_:)`), and the split of the upfront payment is the exact answer's
/// search for the pool's room they leave:
///
/// - the best split (`ScenarioEvaluator(headroom:today:cards:)`): the workspace's split (cards
///   paid in full, then the pool) is tried first, since it costs no interest; only when it
///   cannot pay the price does a split with parts on cards paid over time decide, trimmed to the
///   upfront payment (the parts on cards paid over time first, then the pool's). The maximum
///   price is the larger of the two;
/// - on one card (`init(headroom:today:paidOverTimeOn:)`): the upfront payment on the card,
///   within its limit, its payments from its paying account.
///
/// A cash purchase's maximum price is one search (the plan's other payments do not depend on
/// the price); a loan's is found by galloping and halving over exact checks (its payments do);
/// instalments are paid from the pool, never on a card, as without such cards.
extension ScenarioEvaluator {
    /// A split of a scenario's upfront payment that counts the cards paid over time, and the
    /// lowest headroom it leaves from the scenario's first day on.
    struct RepaidOutcome {
        /// The cards' parts (the pool pays the rest of the upfront payment).
        var onCards: [ScenarioCardPart]
        var worst: Int64
        var worstDay: Int
    }

    /// Where a compiled scenario starts: its first day and its purchase, as day indices.
    struct RepaidDays {
        var first: Int
        var purchase: Int
    }

    /// Folds the cards paid over time into `result`, the workspace's answer for `scenario`
    /// compiled at shift 0.
    func repaidResult(_ scenario: Scenario, _ result: inout ScenarioResult, using workspace: inout ScenarioWorkspace) throws(ScenarioError) {
        guard repaid != nil else { return }
        if case .instalments = scenario.financing {
            guard onCard else { return }
            throw .invalid(
                field: "financing", value: "instalments",
                reason: "a card paid back by a minimum or fixed amount carries a cash price or a down payment, not instalments")
        }
        let days = repaidDays(scenario, shift: 0)
        let outcome = repaidOutcome(price: scenario.price, days, using: &workspace)
        if onCard {
            // On the card: its margin or the pool's, the lower; without a split, the card's limit
            // (or its paying account) breaks with the whole payment on it.
            let margin = outcome.map { (value: $0.worst, index: $0.worstDay) } ?? onCardMargin(price: scenario.price, days, using: &workspace)
            result.feasible = outcome != nil && margin.value >= 0
            result.worstHeadroom = margin.value
            result.worstDay = today.advanced(by: margin.index)
            result.shortfall = margin.value >= 0 ? 0 : margin.value == .min ? .max : -margin.value
            result.onCards = outcome?.onCards ?? []
        } else if !result.feasible, let outcome, outcome.worst >= 0 {
            // The cards paid in full and the pool cannot pay it; with the cards paid over time, they can.
            result.feasible = true
            result.worstHeadroom = outcome.worst
            result.worstDay = today.advanced(by: outcome.worstDay)
            result.shortfall = 0
            result.onCards = outcome.onCards
        }
        result.maxPrice = repaidMaxPrice(scenario, known: onCard ? (result.feasible ? scenario.price : 0) : result.maxPrice, days, using: &workspace)
    }

    /// Whether `scenario` moved by `shift` days (compiled so in `workspace`) is feasible with the
    /// cards paid over time (on the one card, or by the best split).
    func repaidFeasible(_ scenario: Scenario, shift: Int, using workspace: inout ScenarioWorkspace) -> Bool {
        // Instalments are paid from the pool: the workspace has answered.
        if !onCard, workspace.kind == .instalments { return false }
        return repaidOutcome(price: scenario.price, repaidDays(scenario, shift: shift), using: &workspace).map { $0.worst >= 0 } ?? false
    }

    /// The day indices of `scenario` moved by `shift` days (before today: today).
    func repaidDays(_ scenario: Scenario, shift: Int) -> RepaidDays {
        RepaidDays(first: max(0, scenario.firstDay.number + shift - today.number), purchase: max(0, scenario.day.number + shift - today.number))
    }

    /// The split of the scenario compiled in `workspace`, at `price`, that counts the cards paid
    /// over time, or nil when none keeps the pool at or above its floor and every card within
    /// its limit. On one card, the outcome is there whenever the card can carry the payment
    /// (its worst may then be below 0).
    func repaidOutcome(price: Int64, _ days: RepaidDays, using workspace: inout ScenarioWorkspace) -> RepaidOutcome? {
        guard let repaid, let later = workspace.laterOutflow(price: price) else { return nil }
        let problem = repaid.charged(later)
        let count = headroom.count
        let upfront = workspace.upfront(price: price)
        if onCard {
            let card = problem.cards[0]
            guard let repayment = card.repayment else { return nil }
            let steps = repayment.charge(of: upfront, at: days.purchase, count: count)
            guard SplitAvailability.violation(card, steps, count) == nil,
                let pool = problem.lowest(days.first..<count, less: card.repaidFromPool ? steps.paid : [])
            else { return nil }
            let part = ScenarioCardPart(
                account: card.account, amount: upfront,
                payback: card.repaidFromPool ? card.paybackDay(forPurchaseOn: today.advanced(by: days.purchase)) : nil)
            // The card's own margin: its room less the purchase's extra debt.
            let own = SplitAvailability.lowest(card.range, days.purchase..<count, less: steps.debt) ?? pool
            let worst = own.value < pool.value ? own : pool
            return RepaidOutcome(onCards: upfront > 0 ? [part] : [], worst: worst.value, worstDay: worst.index)
        }
        // Nothing before the purchase may break the floor: the plan's own payments alone.
        if days.first < days.purchase, let before = problem.lowest(days.first..<days.purchase, less: []), before.value < 0 { return nil }
        // A cash price: the best split (shared by the rows of a batch on the same day with the
        // same later payments) reaches it or nothing does; a loan's: a search for its down payment.
        let reached = workspace.kind == .cash ? workspace.best(problem, at: days.purchase, later, memo) : problem.reaching(upfront, at: days.purchase)
        guard var found = reached, found.total >= upfront else { return nil }
        // Trim to the upfront payment: the parts on cards paid over time first (they cost
        // interest), then the pool's; a smaller part never asks more of anything.
        var excess = found.total - upfront
        let overTime = problem.overTime
        for j in overTime.reversed() + [-1] + problem.cards.indices.filter({ !overTime.contains($0) }) where excess > 0 {
            let cut = min(excess, found.parts[j + 1].amount)
            found.parts[j + 1].amount -= cut
            excess -= cut
        }
        // What the pool pays: the plan's other payments (`later`, in `problem`), its own part,
        // each part on a card paid back in full on its payback day, the payments of the parts
        // on cards paid over time.
        var charges: [[CardRepayment.Step]] = [[CardRepayment.Step(index: days.purchase, total: found.parts[0].amount)]]
        var onCards: [ScenarioCardPart] = []
        for (j, card) in problem.cards.enumerated() {
            let part = found.parts[j + 1]
            guard part.amount > 0 else { continue }
            let payback = card.paybackDay(forPurchaseOn: today.advanced(by: days.purchase))
            switch card.counting {
            case .paidFromPool:
                charges.append([CardRepayment.Step(index: min(payback.number - today.number, count - 1), total: part.amount)])
            case .paidOverTime where card.repaidFromPool:
                charges.append(card.repayment!.charge(of: part.amount, at: days.purchase, count: count).paid)
            default:
                break
            }
            let paidFromPool = card.counting == .paidFromPool || (card.counting == .paidOverTime && card.repaidFromPool)
            onCards.append(ScenarioCardPart(account: card.account, amount: part.amount, payback: paidFromPool ? payback : nil))
        }
        onCards.sort { ($0.payback?.number ?? .max) > ($1.payback?.number ?? .max) }
        guard let lowest = problem.lowest(days.first..<count, less: SplitAvailability.sum(charges)) else { return nil }
        return RepaidOutcome(onCards: onCards, worst: lowest.value, worstDay: lowest.index)
    }

    /// On one card, when it cannot carry the payment: the card's margin with the payment on it
    /// (below 0 where its limit breaks), else the lower of it and its paying account's.
    func onCardMargin(price: Int64, _ days: RepaidDays, using workspace: inout ScenarioWorkspace) -> (value: Int64, index: Int) {
        let count = headroom.count
        guard let repaid, let card = repaid.cards.first, let repayment = card.repayment else { return (.min, days.purchase) }
        let steps = repayment.charge(of: workspace.upfront(price: price), at: days.purchase, count: count)
        let own = SplitAvailability.lowest(card.range, days.purchase..<count, less: steps.debt) ?? (0, days.purchase)
        guard let later = workspace.laterOutflow(price: price),
            let pool = repaid.charged(later).lowest(days.first..<count, less: card.repaidFromPool ? steps.paid : [])
        else { return own }
        var worst = own.value < pool.value ? own : pool
        // Paid from outside the pool, its paying account's floor.
        if !card.repaidFromPool, let paying = card.payingRoom, let low = SplitAvailability.lowest(paying, days.purchase..<count, less: steps.paid),
            low.value < worst.value
        {
            worst = low
        }
        return worst
    }

    /// The largest price at which the scenario compiled in `workspace` is feasible with the cards
    /// paid over time, at least `known` (a feasible price, or 0).
    /// - Complexity: one search for a cash price by the best split; about 60 exact checks (each
    ///   a search) for a loan or on one card.
    func repaidMaxPrice(_ scenario: Scenario, known: Int64, _ days: RepaidDays, using workspace: inout ScenarioWorkspace) -> Int64 {
        let cap = Scenario.maximumAmount
        if !onCard, case .cash = scenario.financing {
            guard let repaid, let later = workspace.laterOutflow(price: scenario.price) else { return known }
            let problem = repaid.charged(later)
            if days.first < days.purchase, let before = problem.lowest(days.first..<days.purchase, less: []), before.value < 0 { return known }
            return min(cap, max(known, workspace.best(problem, at: days.purchase, later, memo)?.total ?? 0))
        }
        func feasible(_ price: Int64) -> Bool { repaidOutcome(price: price, days, using: &workspace).map { $0.worst >= 0 } ?? false }
        var low = known
        if low == 0 && !feasible(1) { return 0 }
        low = max(low, 1)
        // Gallop up from the known price, then halve.
        var step = max(1, low / 64)
        while low < cap, feasible(min(cap, low + step)) {
            low = min(cap, low + step)
            step = step > cap / 2 ? cap : step * 2
        }
        if low >= cap { return cap }
        var high = min(cap, low + step)  // infeasible
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if feasible(mid) { low = mid } else { high = mid }
        }
        return low
    }
}

/// Who the best splits a workspace keeps belong to: one per evaluator (its copies share it).
final class RepaidMemo: Sendable {}

extension ScenarioWorkspace {
    /// The best split of `problem` (the evaluator's, charged `later`) on day index `index`, kept
    /// for the next rows with the same day and later payments: a batch of cash prices on a few
    /// days searches each day once. At most 4 096 are kept; an evaluator's own (`memo`) only.
    mutating func best(_ problem: SplitAvailability, at index: Int, _ later: [CardRepayment.Step], _ memo: RepaidMemo) -> SplitAvailability.Solution?
    {
        if repaidOwner !== memo || repaidBest.count >= 4_096 {
            repaidBest.removeAll(keepingCapacity: true)
            repaidOwner = memo
        }
        let key = RepaidKey(index: index, later: later)
        if let found = repaidBest[key] { return found }
        let found = problem.best(at: index)
        repaidBest[key] = found
        return found
    }

    /// The upfront payment at `price`: the cash price, a loan's down payment (capped at the
    /// price), nothing for instalments (each is paid from the pool).
    func upfront(price: Int64) -> Int64 {
        switch kind {
        case .cash: price
        case .loan: min(downPayment, price)
        case .instalments: 0
        }
    }

    /// What the compiled scenario pays at `price` besides its upfront payment, cumulative from
    /// each day index on: a loan's payments, the instalments, the recurring costs less the income
    /// changes and the sale. Nil when a loan amount overflows Int64.
    /// - Complexity: O(events + loan payments inside the horizon).
    mutating func laterOutflow(price: Int64) -> [CardRepayment.Step]? {
        var run: LoanRun?
        if kind == .loan {
            guard
                let made = try? LoanRun(
                    principal: price - min(downPayment, price), perMillion: perMillion, term: term, method: method, divisor: divisor)
            else { return nil }
            run = made
        }
        let each = kind == .instalments ? price / Int64(instalmentCount) : 0
        var steps: [CardRepayment.Step] = []
        var fixed: Int64 = 0
        var instalments = 0
        var i = 0
        while i < events.count {
            let day = events[i].day
            var changed = false
            repeat {
                let event = events[i]
                switch event.kind {
                case .fixed:
                    fixed = saturatingSum(fixed, event.amount)
                    changed = true
                case .loanPayment:
                    guard run!.pay(factor: factors[run!.made]) else { return nil }
                    changed = true
                case .instalment:
                    instalments += 1
                    changed = true
                case .purchase, .payback:
                    break
                }
                i += 1
            } while i < events.count && events[i].day == day
            guard changed else { continue }
            let paid = instalments >= instalmentCount && kind == .instalments ? price : Int64(instalments) * each
            steps.append(CardRepayment.Step(index: Int(day), total: saturatingSum(saturatingSum(fixed, run?.paid ?? 0), paid)))
        }
        return steps
    }
}
