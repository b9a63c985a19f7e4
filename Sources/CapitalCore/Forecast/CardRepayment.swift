/// What `CreditCard.cycles` runs on for one card: the balance before the first cycle, the real
/// flows into the card, the window, the statements whose paybacks are not asked again and the
/// overdue payment made today (`Ledger.cardCycleInputs`).
public struct CardCycleInputs: Hashable, Sendable {
    public var terms: CreditCard
    public var opening: Int64
    public var flows: [CardFlow]
    public var from: Day
    public var today: Day
    public var through: Day
    public var skipped: Set<Day>
    public var overdue: CardFlow?

    /// The inputs of `terms`' cycles: the balance `opening` at the end of the day before `from`,
    /// the card's real `flows`, to `through`; `skipped` statements and the `overdue` payment.
    public init(
        terms: CreditCard, opening: Int64, flows: [CardFlow], from: Day, today: Day, through: Day, skipped: Set<Day> = [], overdue: CardFlow? = nil
    ) {
        self.terms = terms
        self.opening = opening
        self.flows = flows
        self.from = from
        self.today = today
        self.through = through
        self.skipped = skipped
        self.overdue = overdue
    }

    /// The cycles, with `extra` (a purchase, negative) among the flows when given.
    /// - Complexity: O(flows + cycles).
    public func cycles(adding extra: CardFlow? = nil) -> [CardCycle] {
        terms.cycles(
            opening: opening, flows: extra.map { flows + [$0] } ?? flows, from: from, today: today, through: through, skipped: skipped,
            overdue: overdue)
    }
}

/// A card paid back by a minimum or fixed amount, in the exact answer: what a purchase on it
/// costs later, found by running the card's cycles again with the purchase among its flows.
///
/// A purchase of `x` on day `d` adds `x` to the card's debt from `d`; each later statement adds
/// the extra interest it charges, each due day takes off the extra the policy pays, and that
/// extra leaves the paying account on the due day. What is still owed after the horizon is not
/// counted, as a loan's payments after the horizon are not: the card's own terms pay it later.
/// Both are step functions of the day; both only grow with `x` (a larger debt asks at least as
/// much and is charged at least as much interest, and a policy never asks more than the extra
/// debt), which is what `SplitAvailability` relies on.
public struct CardRepayment: Sendable {
    public let inputs: CardCycleInputs
    let base: [CardCycle]

    /// The repayment of a card whose cycles run on `inputs`.
    /// - Complexity: one run of the cycles.
    public init(_ inputs: CardCycleInputs) {
        self.inputs = inputs
        self.base = inputs.cycles()
    }

    /// A step of a step function over day indices: `total` from `index` on, until the next step.
    struct Step: Hashable, Sendable {
        var index: Int
        var total: Int64
    }

    /// What a purchase of `amount` on day index `index` (0 is `inputs.today`) does over `count`
    /// days: the card's extra debt (from `index` on) and what its paying account pays for it
    /// (cumulative from each due day on).
    /// - Complexity: one run of the cycles, O(flows + cycles).
    func charge(of amount: Int64, at index: Int, count: Int) -> (debt: [Step], paid: [Step]) {
        let today = inputs.today
        let extra = inputs.cycles(adding: CardFlow(day: today.advanced(by: index), amount: -amount))
        // Each change on a day: (day index, extra interest, extra payment).
        var changes: [(index: Int, interest: Int64, payment: Int64)] = []
        for (k, cycle) in extra.enumerated() where k < base.count {
            let interest = cycle.interest - base[k].interest
            let payment = cycle.payback - base[k].payback
            let statement = cycle.statement.number - today.number
            let due = cycle.due.number - today.number
            if interest != 0, statement >= index, statement < count { changes.append((statement, interest, 0)) }
            if payment != 0, due >= index, due < count { changes.append((due, 0, payment)) }
        }
        changes.sort { $0.index < $1.index }
        var debt = [Step(index: index, total: amount)]
        var paid: [Step] = []
        var owed = amount
        var repaid: Int64 = 0
        for change in changes {
            owed = saturatingSum(saturatingSum(owed, change.interest), -change.payment)
            repaid = saturatingSum(repaid, change.payment)
            CardRepayment.set(&debt, change.index, owed)
            if change.payment != 0 { CardRepayment.set(&paid, change.index, repaid) }
        }
        return (debt, paid)
    }

    /// Sets `total` from `index` on: replaces a step of the same day, else appends (days in order).
    private static func set(_ steps: inout [Step], _ index: Int, _ total: Int64) {
        if let last = steps.last, last.index == index {
            steps[steps.count - 1].total = total
        } else {
            steps.append(Step(index: index, total: total))
        }
    }
}
