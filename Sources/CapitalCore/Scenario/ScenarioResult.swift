/// What a scenario does to a level's headroom (balance less floor), and what it costs.
public struct ScenarioResult: Hashable, Sendable {
    /// The headroom stays at 0 or above on every day from the scenario's first day to the horizon.
    public var feasible: Bool
    /// The lowest headroom after the scenario, from its first day to the horizon (days before
    /// it are untouched and not judged).
    public var worstHeadroom: Int64
    /// The first day reaching `worstHeadroom`: the binding day.
    public var worstDay: Day
    /// `max(0, −worstHeadroom)`: what is missing to stay at the floor.
    public var shortfall: Int64
    /// The largest price payable on the same day with the same structure (the same down payment
    /// amount, capped at the price; the same loan terms or instalment count; the same recurring
    /// changes and sale): feasible at it and not one minor unit above. 0 when nothing is
    /// affordable, including when even price 0 fails (the other parts alone, or the base
    /// forecast, break the floor). At most `Scenario.maximumAmount`.
    public var maxPrice: Int64
    /// With `earliest`: the first day from the purchase day (today if that is earlier) on which
    /// the whole scenario, moved by that many days, is feasible; nil if none to the horizon or
    /// when not asked.
    public var earliestDay: Day?
    /// The loan interest paid on days up to the horizon.
    public var loanInterest: Int64
    /// The recurring costs paid on days up to the horizon (income changes are not counted).
    public var recurringCosts: Int64

    /// `price + loanInterest + recurringCosts`: what the plan costs to the horizon, for ranking.
    /// Income changes and the sale do not reduce it; instalments are interest-free, so they add
    /// nothing; the whole price counts even when part of it is paid after the horizon.
    public var totalCost: Int64
    /// The parts of the upfront payment (a cash price, a loan's down payment) put on cards, for
    /// an evaluator with cards (the best split): latest payback first, each up to the card's room
    /// until its payback; the rest is paid from the pool. Empty without cards.
    public var onCards: [ScenarioCardPart] = []

    /// The cards' parts summed: what of the upfront payment goes on cards.
    public var onCardsTotal: Int64 { onCards.reduce(0) { $0 + $1.amount } }

    /// A result with every figure given.
    public init(
        feasible: Bool, worstHeadroom: Int64, worstDay: Day, shortfall: Int64, maxPrice: Int64, earliestDay: Day?,
        loanInterest: Int64, recurringCosts: Int64, totalCost: Int64
    ) {
        self.feasible = feasible
        self.worstHeadroom = worstHeadroom
        self.worstDay = worstDay
        self.shortfall = shortfall
        self.maxPrice = maxPrice
        self.earliestDay = earliestDay
        self.loanInterest = loanInterest
        self.recurringCosts = recurringCosts
        self.totalCost = totalCost
    }
}

/// A card's part of a scenario's upfront payment.
public struct ScenarioCardPart: Hashable, Sendable {
    /// The card's index in the timeline's accounts.
    public var account: Int
    public var amount: Int64
    /// The day the part is paid back (after the horizon when it is later: the pool then pays it
    /// on the horizon's last day); nil when the card is paid back from outside the pool.
    public var payback: Day?

    /// The part of `amount` on the card at timeline index `account`, paid back on `payback`.
    public init(account: Int, amount: Int64, payback: Day?) {
        (self.account, self.amount, self.payback) = (account, amount, payback)
    }
}
