import CapitalCore

/// What purchase scenarios are evaluated against: a projection, the pool they are paid from
/// (a forecast level, or one account less its floor) and an evaluator over its headroom.
public struct ScenarioBasis: Sendable {
    public let projection: Projection
    public let paidFrom: Pool
    public let forecastCase: ForecastCase
    public let evaluator: ScenarioEvaluator

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
        if let account {
            pool = try self.pool(account: account, for: .payment, field: .from)
        } else {
            let chosen = level ?? Ladder.defaultLevel
            try Pool.check(level: chosen)
            guard Ladder.isForecast(chosen) else {
                throw KitError.invalid(.level, value: String(chosen), reason: "scenarios look ahead: use a forecast level, 4 to 6")
            }
            // Scenarios are paid from the level's pool alone, without its cards' credit.
            pool = try answerPool(level: chosen, forecastCase)
        }
        let headroom = try pool.headroom(in: timeline, forecastCase)
        return ScenarioBasis(
            projection: self, paidFrom: pool, forecastCase: forecastCase, evaluator: ScenarioEvaluator(headroom: headroom, today: today))
    }
}

extension ScenarioResult {
    /// The lowest balance: the lowest headroom above `floor`, saturating at the ends of Int64.
    public func worstBalance(above floor: Int64) -> Int64 {
        let (sum, overflow) = worstHeadroom.addingReportingOverflow(floor)
        return overflow ? (floor > 0 ? .max : .min) : sum
    }
}
