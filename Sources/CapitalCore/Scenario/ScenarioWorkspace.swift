/// Reusable buffers for evaluating scenarios: one per thread, so that the hot path allocates
/// nothing once the buffers have grown to the largest scenario seen.
///
/// ```swift
/// var workspace = ScenarioWorkspace()
/// for scenario in scenarios {
///     let result = try evaluator.evaluate(scenario, using: &workspace)
/// }
/// ```
public struct ScenarioWorkspace: Sendable {
    /// What happens on a day: the purchase (its upfront payment), a loan payment, an instalment,
    /// or a change that does not depend on the price (a recurring cost or income change, a sale).
    enum EventKind: UInt8 {
        case purchase, loanPayment, instalment, fixed
        /// A card's part of the upfront payment is paid back: the pool pays it from then on.
        case payback
    }

    struct Event {
        var day: Int32
        var kind: EventKind
        /// The change of the cumulative outflow, for `.fixed`.
        var amount: Int64
    }

    /// A stretch of days over which the scenario's cumulative outflow is constant: from `start`
    /// to the next stretch's start (or the horizon). Everything in it but the price-dependent
    /// part is fixed when the scenario is compiled.
    struct Stretch {
        var start: Int32
        /// The first day index reaching the minimum behind `available`.
        var minimumDay: Int32
        /// Loan payments made by the stretch's start (they are counted, not summed: their amounts
        /// depend on the price).
        var loanPayments: Int32
        var instalments: Int32
        /// Whether the purchase day is at or before the stretch's start.
        var purchased: Bool
        /// What the cards' parts of the upfront payment can carry over the stretch: the caps of
        /// the cards not yet paid back by its start, summed (`ScenarioWorkspace.carried`).
        var onCards: Int64 = 0
        /// The base headroom's minimum over the stretch (from its start to the horizon when the
        /// scenario has no inflow) less the cumulative fixed outflow (costs less income changes
        /// and the sale), saturated at the Int64 bounds.
        var available: Int64
    }

    enum Kind {
        case cash, loan, instalments
    }

    var events: [Event] = []
    var stretches: [Stretch] = []
    /// Each loan period's day-count numerator times the rate in millionths, for the periods
    /// inside the horizon.
    var factors: [UInt64] = []
    /// The loan's payments summed after each of its `k` first ones for a principal of 1, in real
    /// arithmetic: how the cumulative payments grow with the principal (the maximum price's guess).
    var unitPaid: [Double] = []

    // The compiled scenario.
    var kind = Kind.cash
    var price: Int64 = 0
    /// The down payment as given (capped at the price tried when the price changes).
    var downPayment: Int64 = 0
    var term = 0
    var perMillion: UInt64 = 0
    var method = LoanMethod.annuity
    var divisor = Divisor(360_000_000)
    var instalmentCount = 0
    /// Recurring costs on days up to the horizon.
    var recurringCosts: Int64 = 0
    /// A sale or an income increase: the cumulative outflow can fall over time.
    var hasInflow = false
    /// The cards the upfront payment may go on, latest payback first (those paid back from
    /// outside the pool, never charged to it, before all): each one's room over the purchase's
    /// days until its payback, and its payback day index (Int32.max when outside the pool).
    var cardCaps: [Int64] = []
    var cardPaybacks: [Int32] = []
    var cardIndices: [Int] = []
    /// With cards paid over time: the best splits found, by day and the plan's later payments
    /// (`ScenarioEvaluator+Repaid`), for the evaluator whose memo is `repaidOwner`.
    var repaidBest: [RepaidKey: SplitAvailability.Solution?] = [:]
    var repaidOwner: RepaidMemo?

    /// A best split's day index and the plan's later payments it was found with.
    struct RepaidKey: Hashable {
        var index: Int
        var later: [CardRepayment.Step]
    }

    /// Empty buffers: they grow to the largest scenario evaluated in them and stay.
    public init() {}
}

extension ScenarioWorkspace {
    /// Lays `scenario`, moved by `shift` days, out as events over `evaluator`'s days and folds
    /// them into stretches with their base minima. Events before today land today; events after
    /// the horizon are dropped.
    /// - Complexity: O(events + stretches), plus a sort when the events are not in order (several
    ///   recurring changes).
    mutating func compile(_ scenario: Scenario, shift: Int, _ evaluator: ScenarioEvaluator) throws(ScenarioError) {
        let today = evaluator.today.number
        let last = evaluator.headroom.count - 1
        events.removeAll(keepingCapacity: true)
        factors.removeAll(keepingCapacity: true)
        price = scenario.price
        events.append(Event(day: Self.clamp(scenario.day.number + shift - today), kind: .purchase, amount: 0))
        let purchaseDay = scenario.day.advanced(by: shift)

        switch scenario.financing {
        case .cash:
            kind = .cash
        case .loan(let loan):
            kind = .loan
            downPayment = loan.downPayment
            term = loan.term
            perMillion = UInt64(loan.rate.perMillion)
            method = loan.method
            let basis = UInt64(1_000_000) * loan.dayCount.basis
            if divisor.value != basis { divisor = Divisor(basis) }
            // The loan engine's payment days: the first one month after the start, then the same
            // day of each month (the first payment's, clamped).
            var steps = MonthSteps(anchor: purchaseDay.addingMonths(1), every: 1)
            var previous = (day: purchaseDay, civil: purchaseDay.civil)
            for _ in 0..<loan.term {
                let (day, civil) = steps.next()
                let index = day.number - today
                if index > last { break }
                let (factor, overflow) = loan.dayCount.numerator(from: previous.day, previous.civil, to: day, civil)
                    .multipliedReportingOverflow(by: perMillion)
                if overflow { throw .overflow }
                factors.append(factor)
                previous = (day, civil)
                events.append(Event(day: Self.clamp(index), kind: .loanPayment, amount: 0))
            }
        case .instalments(let count, let first):
            kind = .instalments
            instalmentCount = count
            var steps = MonthSteps(anchor: purchaseDay, every: 1)
            if first == .oneMonthLater { _ = steps.next() }
            for _ in 0..<count {
                let index = steps.next().day.number - today
                if index > last { break }
                events.append(Event(day: Self.clamp(index), kind: .instalment, amount: 0))
            }
        }

        try compileCards(purchase: Int(Self.clamp(scenario.day.number + shift - today)), last: last, evaluator)

        recurringCosts = 0
        hasInflow = false
        for cost in scenario.costs {
            let total = try addRecurring(cost, sign: 1, shift: shift, today: today, last: last)
            let (sum, overflow) = recurringCosts.addingReportingOverflow(total)
            if overflow { throw .overflow }
            recurringCosts = sum
        }
        for change in scenario.incomeChanges {
            if change.amount > 0 { hasInflow = true }
            _ = try addRecurring(change, sign: -1, shift: shift, today: today, last: last)
        }
        if let sale = scenario.sale {
            hasInflow = true
            let index = sale.day.number + shift - today
            if index <= last { events.append(Event(day: Self.clamp(index), kind: .fixed, amount: -sale.amount)) }
        }

        var sorted = true
        for i in 1..<events.count where events[i].day < events[i - 1].day {
            sorted = false
            break
        }
        if !sorted { events.sort { $0.day < $1.day } }
        try fold(evaluator)
    }

    /// The cards' caps for a purchase on day index `purchase` (see `cardCaps`), and a payback
    /// event for each card paid back from the pool. Only a cash price or a loan's down payment
    /// goes on a card; instalments are paid from the pool.
    private mutating func compileCards(purchase: Int, last: Int, _ evaluator: ScenarioEvaluator) throws(ScenarioError) {
        cardCaps.removeAll(keepingCapacity: true)
        cardPaybacks.removeAll(keepingCapacity: true)
        cardIndices.removeAll(keepingCapacity: true)
        guard !evaluator.cards.isEmpty, kind != .instalments else { return }
        let day = evaluator.today.advanced(by: purchase)
        for (j, card) in evaluator.cards.enumerated() {
            // The card's room counts to its payback (the horizon when it is later); a payback
            // after the horizon counts against the pool on its last day.
            let due = card.paybackDay(forPurchaseOn: day).number - evaluator.today.number
            let payback = min(due, last)
            guard due > purchase, let room = card.range.minimum(purchase..<min(due, last + 1)), room.value > 0 else { continue }
            var cap = room.value
            if card.counting == .paidOutsidePool {
                if let paying = card.payingRoom?.minimum(payback..<(last + 1)) { cap = min(cap, max(0, paying.value)) }
                if cap == 0 { continue }
            }
            cardCaps.append(cap)
            cardPaybacks.append(card.counting == .paidOutsidePool ? .max : Int32(payback))
            cardIndices.append(j)
            if card.counting == .paidFromPool { events.append(Event(day: Int32(payback), kind: .payback, amount: 0)) }
        }
        // Latest payback first: a part there relieves the pool on every day an earlier one does.
        // (An insertion sort in place: a few cards, and nothing allocated.)
        for k in cardCaps.indices.dropFirst() {
            var j = k
            while j > 0 && cardPaybacks[j - 1] < cardPaybacks[j] {
                cardCaps.swapAt(j, j - 1)
                cardPaybacks.swapAt(j, j - 1)
                cardIndices.swapAt(j, j - 1)
                j -= 1
            }
        }
        // The running sums: what the first k cards carry together.
        for k in cardCaps.indices.dropFirst() {
            let (sum, overflow) = cardCaps[k].addingReportingOverflow(cardCaps[k - 1])
            if overflow { throw .overflow }
            cardCaps[k] = sum
        }
    }

    /// How much of an upfront payment of `amount` the cards carry on a stretch whose cards can
    /// carry `onCards` together.
    @inline(__always)
    static func carried(_ amount: Int64, onCards: Int64) -> Int64 { min(amount, onCards) }

    /// Each card's part of an upfront payment of `amount`: the latest payback first, each up to
    /// its cap (as timeline-card positions of the evaluator's `cards`, with the amount).
    func cardParts(of amount: Int64) -> [(card: Int, amount: Int64)] {
        var parts: [(card: Int, amount: Int64)] = []
        var before: Int64 = 0
        for k in cardCaps.indices {
            let part = min(amount, cardCaps[k]) - min(amount, before)
            if part > 0 { parts.append((cardIndices[k], part)) }
            before = cardCaps[k]
        }
        return parts
    }

    /// Appends one recurring change's occurrences up to its end and the horizon; returns their sum.
    private mutating func addRecurring(_ change: RecurringChange, sign: Int64, shift: Int, today: Int, last: Int) throws(ScenarioError)
        -> Int64
    {
        let start = change.start.advanced(by: shift)
        var end = last
        if let stop = change.end { end = min(end, stop.number + shift - today) }
        var steps = MonthSteps(anchor: start, every: change.period.months)
        var total: Int64 = 0
        while true {
            let index = steps.next().day.number - today
            if index > end { break }
            events.append(Event(day: Self.clamp(index), kind: .fixed, amount: sign * change.amount))
            let (sum, overflow) = total.addingReportingOverflow(change.amount)
            if overflow { throw .overflow }
            total = sum
        }
        return total
    }

    /// Folds the sorted events into stretches: one per distinct day, each with the base minimum
    /// over its days (a range minimum; the suffix minimum for the last stretch, and for every
    /// stretch of a scenario without inflow).
    private mutating func fold(_ evaluator: ScenarioEvaluator) throws(ScenarioError) {
        stretches.removeAll(keepingCapacity: true)
        var fixed: Int64 = 0
        var loanPayments: Int32 = 0
        var instalments: Int32 = 0
        var purchased = false
        var paidBack = 0
        var i = 0
        while i < events.count {
            let day = events[i].day
            repeat {
                let event = events[i]
                switch event.kind {
                case .purchase: purchased = true
                case .payback: paidBack += 1
                case .loanPayment: loanPayments += 1
                case .instalment: instalments += 1
                case .fixed:
                    let (sum, overflow) = fixed.addingReportingOverflow(event.amount)
                    if overflow { throw .overflow }
                    fixed = sum
                }
                i += 1
            } while i < events.count && events[i].day == day
            // The cards still unpaid are the first ones of `cardCaps` (latest payback first).
            let unpaid = cardCaps.count - paidBack
            stretches.append(
                Stretch(
                    start: day, minimumDay: 0, loanPayments: loanPayments, instalments: instalments, purchased: purchased,
                    onCards: purchased && unpaid > 0 ? cardCaps[unpaid - 1] : 0, available: fixed))
        }
        // With no inflow the cumulative outflow never falls, whatever the price (a card's part
        // joins it on its payback day, never leaves it): then the lowest
        // headroom from a stretch's start to the horizon (the suffix minimum) stands for the
        // stretch's own minimum. A lower value further on belongs to a later stretch, whose
        // outflow is at least as large, so feasibility, the worst margin and the first day
        // reaching it come out the same, at one array read per stretch.
        let suffixOnly = !hasInflow
        for j in stretches.indices {
            let start = Int(stretches[j].start)
            let minimum: Int64
            let minimumDay: Int
            if suffixOnly || j + 1 == stretches.count {
                minimum = evaluator.suffix.values[start]
                minimumDay = Int(evaluator.suffix.days[start])
            } else {
                (minimum, minimumDay) = evaluator.range.minimum(start..<Int(stretches[j + 1].start))!
            }
            stretches[j].minimumDay = Int32(minimumDay)
            stretches[j].available = Self.subtract(minimum, stretches[j].available)
        }
    }

    @inline(__always)
    static func clamp(_ index: Int) -> Int32 { Int32(max(0, index)) }

    /// `a − b`, saturated at the Int64 bounds.
    @inline(__always)
    static func subtract(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.subtractingReportingOverflow(b)
        if overflow { return b > 0 ? .min : .max }
        return value
    }
}
