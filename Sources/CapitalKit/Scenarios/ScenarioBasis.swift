import CapitalCore

/// What purchase scenarios are evaluated against: a projection, the pool they are paid from
/// (a forecast level, or one account less its floor) and an evaluator over its headroom.
public struct ScenarioBasis: Sendable {
    public let projection: Projection
    public let paidFrom: Pool
    public let forecastCase: ForecastCase
    /// The evaluator of a purchase today (with `card`, one made on another day has its own: `evaluator(for:)`).
    public let evaluator: ScenarioEvaluator
    /// Paid on a card (`--from` a card with terms): the card's room until the purchase is paid
    /// back, the level's pool from then on.
    public let card: CardConstraint?
    /// The level's pool's headroom, with `card`.
    let poolHeadroom: [Int64]
    /// Paid from a level (no account named): its availability, which names the pool account a
    /// split's pool part is paid from.
    let level: Availability?

    /// One part of how a scenario's upfront payment (a cash price, a loan's down payment) is
    /// paid by the best split: from the pool's paying account, or on a card.
    public struct Payment: Sendable, Equatable {
        public var account: String
        public var amount: Int64
        public var isCard: Bool
        /// For a card: the day its part is paid back (nil when paid back from outside the level).
        public var payback: Day?
    }

    /// How `result`'s upfront payment is paid, pool part first, when some of it goes on a card
    /// (the best split of a scenario paid from a level); else empty: the pool or the named
    /// account pays it all.
    public func payments(_ scenario: Scenario, _ result: ScenarioResult) -> [Payment] {
        guard let level, !result.onCards.isEmpty else { return [] }
        var upfront = scenario.price
        if case .loan(let loan) = scenario.financing { upfront = min(loan.downPayment, scenario.price) }
        let accounts = projection.timeline.accounts
        let cards = result.onCards.map { Payment(account: accounts[$0.account].name, amount: $0.amount, isCard: true, payback: $0.payback) }
        let rest = upfront - result.onCards.reduce(0) { $0 + $1.amount }
        let payer = level.payingAccount(at: max(0, scenario.day.number - projection.today.number))
        let pool = rest > 0 && accounts.indices.contains(payer) ? [Payment(account: accounts[payer].name, amount: rest, isCard: false)] : []
        return pool + cards
    }

    /// The evaluator for a purchase on `day`: paid on a card, what it spends counts against the
    /// card's room until its payback day and against the pool's from then on.
    /// - Complexity: O(1) without a card; O(days log days) with one (the series is laid anew).
    public func evaluator(for day: Day) -> ScenarioEvaluator {
        guard let card else { return evaluator }
        let today = projection.today
        let payback = card.paybackDay(forPurchaseOn: max(day, today)).number - today.number
        // A payback after the horizon counts against the pool on its last day (with the card's room).
        let last = card.headroom.count - 1
        let series = card.headroom.indices.map { index in
            index < min(payback, last)
                ? card.headroom[index]
                : index == last && payback > last ? min(card.headroom[index], poolHeadroom[index]) : poolHeadroom[index]
        }
        return ScenarioEvaluator(headroom: series, today: today)
    }

    /// Evaluates `scenario` against the evaluator of its day.
    /// - Throws: `ScenarioError` as `ScenarioEvaluator.evaluate` does; `KitError` naming `from`
    ///   for `earliest` with a card (moving the purchase day moves its payback).
    public func evaluate(_ scenario: Scenario, earliest: Bool) throws -> ScenarioResult {
        if earliest, card != nil {
            throw KitError.invalid(
                .from, value: paidFrom.name,
                reason: "it is a card: the earliest day moves the purchase and with it its payback; try the days one by one")
        }
        return try evaluator(for: scenario.day).evaluate(scenario, earliest: earliest)
    }

    /// The pool's floor.
    public var floor: Int64 { paidFrom.floor }

    /// The lowest balance of a result (its headroom plus the floor, saturating).
    public func worstBalance(_ result: ScenarioResult) -> Int64 { result.worstBalance(above: floor) }

    /// Why a scenario's lowest day is what it is: the purchase's upfront payment and the
    /// forecast's largest outflows up to that day (at most three, largest first), and the first
    /// inflow after it.
    public struct Why: Sendable {
        public var drivers: [FlowEvent]
        public var relief: FlowEvent?
    }

    /// The why of `result`, the evaluation of `scenario`.
    public func why(_ scenario: Scenario, _ result: ScenarioResult) -> Why {
        let today = projection.today
        let events = projection.flows(into: paidFrom, from: max(scenario.firstDay, today), through: projection.horizon, forecastCase)
        var upfront = scenario.price
        if case .loan(let loan) = scenario.financing { upfront = loan.downPayment }
        if case .instalments(let count, _) = scenario.financing { upfront = scenario.price / Int64(count) }
        var drivers = [FlowEvent(day: max(scenario.day, today), label: "the purchase", amount: -upfront)]
        drivers += events.filter { $0.day <= result.worstDay && $0.amount < 0 }.sorted { $0.amount < $1.amount }.prefix(3)
        return Why(drivers: drivers, relief: events.first { $0.day > result.worstDay && $0.amount > 0 })
    }
}

extension Projection {
    /// The basis of scenarios paid from one account (`from`) or a forecast level (4 by default).
    /// - Throws: `KitError` naming `from` or `level` when both are given, the level does not
    ///   look ahead, or the account cannot pay.
    public func scenarioBasis(level: Int?, from account: String?, _ forecastCase: ForecastCase) throws -> ScenarioBasis {
        if let account, level != nil { throw KitError.invalid(.from, value: account, reason: "", remedy: .oneOf([.from, .level])) }
        let pool: Pool
        var card: CardConstraint?
        var cards: [CardConstraint] = []
        var paidFromLevel: Availability?
        var poolHeadroom: [Int64] = []
        if let account {
            pool = try self.pool(account: account, for: .payment, field: .from)
            // An account of level 4 pays: cash, a debit account or a card; a card with terms is
            // paid back from the pool.
            guard let index = pool.indices.first, Ladder.includes(timeline.accounts[index], in: Ladder.defaultLevel) else {
                let found = timeline.accounts[pool.indices[0]]
                let joins = Ladder.level(of: found).map { "it counts from level \($0) (\(Ladder.name($0)))" } ?? "it is not on the ladder"
                throw KitError.invalid(
                    .from, value: account,
                    reason: "\(joins); a purchase is paid from cash, a debit account or a card of level \(Ladder.defaultLevel)")
            }
            let availability = try availability(level: Ladder.defaultLevel, forecastCase)
            card = availability.cards.first { $0.account == index }
            if let found = card, found.counting == .paidOverTime {
                // Paid over time: the card carries the upfront payment, its payments with interest
                // leave its paying account; the evaluator runs its cycles (any purchase day).
                return ScenarioBasis(
                    projection: self, paidFrom: pool, forecastCase: forecastCase,
                    evaluator: ScenarioEvaluator(headroom: availability.headroom, today: today, paidOverTimeOn: found), card: nil,
                    poolHeadroom: [], level: nil)
            }
            if let found = card, found.counting != .paidFromPool {
                throw KitError.invalid(
                    .from, value: account,
                    reason: found.counting == .notCounted
                        ? "it is paid back by a minimum or fixed amount and its cycles cannot be run"
                        : "it is paid back from outside level \(Ladder.defaultLevel)")
            }
            if card != nil { poolHeadroom = availability.headroom }
        } else {
            let chosen = level ?? Ladder.defaultLevel
            try Pool.check(level: chosen)
            guard Ladder.isForecast(chosen) else {
                throw KitError.invalid(.level, value: String(chosen), reason: "scenarios look ahead: use a forecast level, 4 to 6")
            }
            // Paid by the best split: the upfront payment on the level's cards as far as their
            // room until each payback lets it, the rest from the pool.
            pool = try answerPool(level: chosen, forecastCase)
            paidFromLevel = try availability(level: chosen, forecastCase)
            cards = paidFromLevel?.cards ?? []
        }
        var basis = ScenarioBasis(
            projection: self, paidFrom: pool, forecastCase: forecastCase,
            evaluator: ScenarioEvaluator(headroom: try pool.headroom(in: timeline, forecastCase), today: today, cards: cards), card: card,
            poolHeadroom: poolHeadroom, level: paidFromLevel)
        if card != nil { basis = ScenarioBasis(basis, evaluator: basis.evaluator(for: today)) }
        return basis
    }
}

extension ScenarioBasis {
    /// `basis` with another evaluator.
    init(_ basis: ScenarioBasis, evaluator: ScenarioEvaluator) {
        self.init(
            projection: basis.projection, paidFrom: basis.paidFrom, forecastCase: basis.forecastCase, evaluator: evaluator, card: basis.card,
            poolHeadroom: basis.poolHeadroom, level: basis.level)
    }
}

extension ScenarioResult {
    /// The lowest balance: the lowest headroom above `floor`, saturating at the ends of Int64.
    public func worstBalance(above floor: Int64) -> Int64 {
        let (sum, overflow) = worstHeadroom.addingReportingOverflow(floor)
        return overflow ? (floor > 0 ? .max : .min) : sum
    }
}
