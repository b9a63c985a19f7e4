import Dispatch

/// Evaluates purchase scenarios against one level's headroom (balance less floor, day by day
/// from today to the horizon) without rebuilding the forecast.
///
/// A scenario becomes a short sorted list of steps (day, change of its cumulative outflow); it is
/// feasible iff on every stretch between consecutive steps the base headroom's range minimum
/// stays at or above the scenario's cumulative outflow there: O(steps) per scenario with the
/// sparse table of `RangeMinimum`.
///
/// ```swift
/// let evaluator = ScenarioEvaluator(try Availability(timeline, level: 4))
/// let result = try evaluator.evaluate(try Scenario(price: 150_000_000, day: day))
/// result.feasible    // price ≤ availability.canSpend(on: day).amount
/// result.maxPrice    // availability.canSpend(on: day).amount (for a cash purchase)
/// ```
///
/// Semantics where days fall outside the series:
/// - Anything the scenario would pay or receive before today (a purchase day in the past, its
///   loan payments or instalments or recurring occurrences due before today) lands today: the
///   money is gone either way, so it is counted at the earliest day the forecast can.
/// - Anything after the horizon is ignored: a loan longer than the horizon counts only the
///   payments inside it (for its interest too), recurring changes stop at the horizon.
/// - The purchase day, the recurring starts and the sale day must not be after the horizon.
/// - The scenario is judged from its first day (the earliest of the purchase day, the recurring
///   starts and the sale, today if earlier) to the horizon; days before it are untouched.
///
/// With no financing and nothing else, `feasible` is `price ≤ canSpend(on: day).amount` and
/// `maxPrice` is that amount, for the forecast levels 4–6 (whose answer is the same lowest
/// headroom from the day to the horizon).
public struct ScenarioEvaluator: Sendable {
    public let today: Day
    /// The level's balance less its floor, today first.
    public let headroom: [Int64]
    let range: RangeMinimum
    let suffix: SuffixMinimum
    /// The cards an upfront payment may go on (the best split): those whose credit counts, paid
    /// back from the pool whose headroom this is, or from outside it.
    public let cards: [CardConstraint]
    /// With a card paid over time among the cards: the level's split problem, which searches
    /// the parts such cards can carry (`ScenarioEvaluator+Repaid`); else nil.
    let repaid: SplitAvailability?
    /// Paid on the one card of `repaid` (`--from` a card paid over time), not by the best split.
    let onCard: Bool
    /// Marks the best splits a workspace keeps as this evaluator's.
    let memo = RepaidMemo()

    /// The last day of the series.
    public var horizon: Day { today.advanced(by: headroom.count - 1) }

    /// - Complexity: O(days log days) for the range-minimum table.
    public init(headroom: [Int64], today: Day) {
        self.init(headroom: headroom, today: today, cards: [])
    }

    /// Scenarios paid by the best split: an upfront payment (a cash price, a loan's down
    /// payment) on `cards` as far as each card's room until its payback lets it, the latest
    /// payback first, the rest and everything else from the pool whose room is `headroom`. A
    /// card's part is charged to the pool from its payback day on (the horizon's last day when
    /// it is later), never for a card paid back from outside the pool. A card paid back by a
    /// minimum or fixed amount (with its cycles) takes a part only when the others cannot pay
    /// the upfront payment: what its payments, with interest, take from the pool is searched
    /// (`ScenarioEvaluator+Repaid`).
    /// - Complexity: O(days log days) for the range-minimum tables.
    public init(headroom: [Int64], today: Day, cards: [CardConstraint]) {
        self.today = today
        self.headroom = headroom
        self.range = RangeMinimum(headroom)
        self.suffix = SuffixMinimum(headroom)
        let counted = cards.filter { $0.headroom.count == headroom.count }
        self.cards = counted.filter { $0.counting == .paidFromPool || $0.counting == .paidOutsidePool }
        let overTime = counted.contains { $0.counting == .paidOverTime && $0.repayment != nil }
        self.repaid = overTime ? SplitAvailability(pool: headroom, cards: counted, today: today) : nil
        self.onCard = false
    }

    /// Scenarios whose upfront payment goes on `card`, paid back by a minimum or fixed amount
    /// (with its cycles): the card carries it within its limit, its payments with interest leave
    /// its paying account (the pool whose room is `headroom`, or an account outside it, held to
    /// its floor), and everything else the plan pays (a loan's payments, instalments, recurring
    /// costs) comes from the pool. The lowest headroom is the pool's or the card's, the lower.
    /// - Complexity: O(days log days) for the range-minimum tables.
    public init(headroom: [Int64], today: Day, paidOverTimeOn card: CardConstraint) {
        self.today = today
        self.headroom = headroom
        self.range = RangeMinimum(headroom)
        self.suffix = SuffixMinimum(headroom)
        self.cards = []
        self.repaid = SplitAvailability(pool: headroom, cards: [card], today: today)
        self.onCard = true
    }

    /// Scenarios on a ladder level's headroom, reusing its suffix minimum.
    /// - Complexity: O(days log days) for the range-minimum table.
    public init(_ availability: Availability) {
        self.today = availability.today
        self.headroom = availability.headroom
        self.range = RangeMinimum(availability.headroom)
        self.suffix = availability.suffix
        self.cards = []
        self.repaid = nil
        self.onCard = false
    }

    /// Evaluates one scenario (with a workspace of its own).
    /// - Throws: `ScenarioError` for bad input (see `Scenario.validate()`), a day after the horizon,
    ///   or amounts past Int64.
    public func evaluate(_ scenario: Scenario, earliest: Bool = false) throws(ScenarioError) -> ScenarioResult {
        var workspace = ScenarioWorkspace()
        return try evaluate(scenario, earliest: earliest, using: &workspace)
    }

    /// Evaluates one scenario in `workspace`'s buffers: feasibility, the worst headroom and its
    /// day, the shortfall, the maximum affordable price, the total cost and (with `earliest`) the
    /// earliest feasible day.
    /// - Complexity: O(steps) for the answer at the price; the maximum price is exact in
    ///   O(steps) for cash and instalments, O((steps + payments) × a few exact checks) for a loan;
    ///   `earliest` adds O(steps) per day tried, up to the horizon.
    public func evaluate(_ scenario: Scenario, earliest: Bool = false, using workspace: inout ScenarioWorkspace) throws(ScenarioError)
        -> ScenarioResult
    {
        try scenario.validate()
        try checkHorizon(scenario)
        try workspace.compile(scenario, shift: 0, self)
        let (worst, worstIndex, interest) = try workspace.worst(price: scenario.price)
        let feasible = worst >= 0
        let recurringCosts = workspace.recurringCosts
        let maxPrice = workspace.maxPrice(feasibleAtPrice: feasible)
        let (withInterest, overflow) = scenario.price.addingReportingOverflow(interest)
        let (total, overflow2) = withInterest.addingReportingOverflow(recurringCosts)
        if overflow || overflow2 { throw .overflow }
        var onCards: [ScenarioCardPart] = []
        if !workspace.cardCaps.isEmpty {
            var upfront = scenario.price
            if case .loan(let loan) = scenario.financing { upfront = min(loan.downPayment, scenario.price) }
            let day = Swift.max(scenario.day, today)
            onCards = workspace.cardParts(of: upfront).map { part in
                let card = cards[part.card]
                return ScenarioCardPart(
                    account: card.account, amount: part.amount,
                    payback: card.counting == .paidFromPool ? card.paybackDay(forPurchaseOn: day) : nil)
            }
        }
        var result = ScenarioResult(
            feasible: feasible, worstHeadroom: worst, worstDay: today.advanced(by: worstIndex),
            shortfall: worst >= 0 ? 0 : worst == .min ? .max : -worst, maxPrice: maxPrice, earliestDay: nil,
            loanInterest: interest, recurringCosts: recurringCosts, totalCost: total)
        result.onCards = onCards
        if repaid != nil { try repaidResult(scenario, &result, using: &workspace) }
        if earliest { result.earliestDay = try self.earliestDay(scenario, feasible: result.feasible, using: &workspace) }
        return result
    }

    /// Evaluates a batch, in input order, one result or error per scenario, splitting the work
    /// over `threads` threads (blocks of scenarios dealt in turn), each with its own workspace.
    /// Call it chunk by chunk to keep memory flat over a stream of scenarios.
    /// - Complexity: the sum of the scenarios' costs, divided over the threads.
    public func evaluate(_ scenarios: [Scenario], earliest: Bool = false, threads: Int = 2) -> [Result<ScenarioResult, ScenarioError>] {
        let count = scenarios.count
        let block = 4_096
        let blocks = (count + block - 1) / block
        let parts = max(1, min(threads, blocks))
        return [Result<ScenarioResult, ScenarioError>](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let output = buffer
            let work: @Sendable (Int) -> Void = { part in
                var workspace = ScenarioWorkspace()
                var index = part * block
                while index < count {
                    for i in index..<min(index + block, count) {
                        let result = Result { () throws(ScenarioError) in try evaluate(scenarios[i], earliest: earliest, using: &workspace) }
                        (output.baseAddress! + i).initialize(to: result)
                    }
                    index += parts * block
                }
            }
            if parts == 1 {
                work(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: parts, execute: work)
            }
            initialized = count
        }
    }

    /// The scenario's own days must fall on or before the horizon.
    func checkHorizon(_ scenario: Scenario) throws(ScenarioError) {
        let horizon = self.horizon
        guard !headroom.isEmpty else { throw .invalid(field: "day", value: scenario.day.iso, reason: "the forecast has no days") }
        guard scenario.day <= horizon else { throw .invalid(field: "day", value: scenario.day.iso, reason: "is after the horizon \(horizon)") }
        for cost in scenario.costs where cost.start > horizon {
            throw .invalid(field: "cost start", value: cost.start.iso, reason: "is after the horizon \(horizon)")
        }
        for change in scenario.incomeChanges where change.start > horizon {
            throw .invalid(field: "income change start", value: change.start.iso, reason: "is after the horizon \(horizon)")
        }
        if let sale = scenario.sale, sale.day > horizon {
            throw .invalid(field: "sale day", value: sale.day.iso, reason: "is after the horizon \(horizon)")
        }
    }
}
