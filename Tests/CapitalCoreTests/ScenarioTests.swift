import CapitalCore
import Testing

/// The scenario engine against the brute-force reference (`ScenarioReference`: the scenario
/// applied to a copy of the daily headroom, every day scanned) on thousands of random scenarios
/// over random series, plus its defining properties: a cash purchase is can-spend, the maximum
/// price is a feasibility boundary, the earliest day is the first day that works.
@Suite("Scenario evaluation")
struct ScenarioTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// Compares one scenario's fast answer with the reference; records what differs.
    static func check(_ scenario: Scenario, _ reference: ScenarioReference, _ result: ScenarioResult, _ label: String) {
        let worst = reference.worst(scenario)
        let applied = reference.apply(scenario)
        let expected = (worst.value >= 0, worst.value, reference.today.advanced(by: worst.index), max(0, -worst.value))
        if (result.feasible, result.worstHeadroom, result.worstDay, result.shortfall) != expected {
            Issue.record("\(label): got \(result), expected \(expected) for \(scenario)")
        }
        if (result.loanInterest, result.recurringCosts, result.totalCost)
            != (applied.interest, applied.costs, scenario.price + applied.interest + applied.costs)
        {
            Issue.record("\(label): cost \(result.totalCost) vs \(scenario.price + applied.interest + applied.costs) for \(scenario)")
        }
        // The maximum price: feasible there, not one minor unit above (0: nothing affordable).
        let maxPrice = result.maxPrice
        if maxPrice > 0 || reference.feasible(scenario, price: 0) {
            #expect(reference.feasible(scenario, price: maxPrice), "\(label): infeasible at maxPrice \(maxPrice) for \(scenario)")
        }
        if maxPrice < Scenario.maximumAmount {
            #expect(!reference.feasible(scenario, price: maxPrice + 1), "\(label): feasible above maxPrice \(maxPrice) for \(scenario)")
        }
        // Consistent with the scenario's own price.
        #expect(result.feasible == (scenario.price <= maxPrice), "\(label): maxPrice \(maxPrice) vs feasible \(result.feasible)")
    }

    @Test("the fast path equals the brute-force reference on random scenarios", arguments: 0..<8)
    func matchesReference(batch: Int) throws {
        var random = SplitMix64(seed: 0x5CE0_0000 + UInt64(batch))
        var workspace = ScenarioWorkspace()
        for series in 0..<40 {
            let today = ScenarioDraw.origin.advanced(by: Int.random(in: 0...700, using: &random))
            let headroom = ScenarioDraw.headroom(&random, maxDays: 900)
            let evaluator = ScenarioEvaluator(headroom: headroom, today: today)
            let reference = ScenarioReference(headroom: headroom, today: today)
            for index in 0..<25 {
                let scenario = ScenarioDraw.scenario(&random, headroom: headroom, today: today)
                let result = try evaluator.evaluate(scenario, using: &workspace)
                Self.check(scenario, reference, result, "batch \(batch) series \(series) #\(index)")
            }
        }
    }

    @Test("the earliest day equals a day-by-day search of the moved scenario", arguments: 0..<4)
    func earliestMatchesSearch(batch: Int) throws {
        var random = SplitMix64(seed: 0xEA51_0000 + UInt64(batch))
        var outcomes = (now: 0, later: 0, never: 0)
        for _ in 0..<25 {
            let today = ScenarioDraw.origin.advanced(by: Int.random(in: 0...700, using: &random))
            let headroom = ScenarioDraw.headroom(&random, maxDays: 400)
            let evaluator = ScenarioEvaluator(headroom: headroom, today: today)
            let reference = ScenarioReference(headroom: headroom, today: today)
            for _ in 0..<16 {
                var scenario = ScenarioDraw.scenario(&random, headroom: headroom, today: today)
                // Mostly early purchases (most series save), and loans whose payments fall inside.
                if Bool.random(using: &random) { scenario.day = today.advanced(by: Int.random(in: -30...headroom.count / 4, using: &random)) }
                if Bool.random(using: &random) {
                    scenario.financing = .loan(
                        ScenarioLoan(
                            downPayment: Int64.random(in: 0...scenario.price, using: &random),
                            rate: Rate(perMillion: Int64.random(in: 0...300_000, using: &random)),
                            term: Int.random(in: 1...24, using: &random), method: Bool.random(using: &random) ? .annuity : .linear,
                            dayCount: DayCount.allCases.randomElement(using: &random)!))
                }
                let result = try evaluator.evaluate(scenario, earliest: true)
                let expected = reference.earliest(scenario)
                #expect(
                    result.earliestDay == expected,
                    "got \(String(describing: result.earliestDay)), expected \(String(describing: expected)) for \(scenario)")
                switch expected {
                case nil: outcomes.never += 1
                case max(scenario.day, today): outcomes.now += 1
                default: outcomes.later += 1
                }
            }
        }
        // The search is exercised: many plans must wait, some can go at once, some never.
        #expect(outcomes.later >= 60 && outcomes.now >= 60 && outcomes.never >= 20, "\(outcomes)")
    }

    @Test("a cash purchase is feasible iff its price is at most can-spend on its day, at every forecast level", arguments: 0..<4)
    func cashPurchaseIsCanSpend(batch: Int) throws {
        var random = SplitMix64(seed: 0xCA5E_0000 + UInt64(batch))
        for seed in stride(from: UInt64(4_000 + batch), to: 4_080, by: 4) {
            let ledger = RandomLedger(seed: seed)
            let timeline = try Timeline.build(ledger.ledger, today: ledger.today, horizon: ledger.horizon, calendars: ledger.calendars)
            for level in 4...6 {
                let availability = try Availability(timeline, level: level)
                let evaluator = ScenarioEvaluator(availability)
                #expect(evaluator.horizon == ledger.horizon)
                for _ in 0..<20 {
                    let day = ledger.today.advanced(by: Int.random(in: 0...(ledger.horizon.number - ledger.today.number), using: &random))
                    let answer = try #require(availability.canSpend(on: day))
                    var prices: [Int64] = [1, answer.amount, answer.amount + 1, Int64.random(in: 1...1_000_000, using: &random)]
                    if answer.amount > 1 { prices.append(answer.amount - 1) }
                    for price in prices where price >= 1 {
                        let result = try evaluator.evaluate(try Scenario(price: price, day: day), earliest: true)
                        #expect(result.feasible == (price <= answer.amount), "level \(level) \(day) price \(price) can-spend \(answer.amount)")
                        #expect(result.maxPrice == answer.amount)
                        #expect(result.worstDay == answer.bindingDay)
                        #expect(result.worstHeadroom == answer.bindingBalance - availability.floor - price)
                        // A plain purchase can wait for `when`.
                        let when = availability.firstDay(toSpend: price).map { max($0, day) }
                        #expect(result.earliestDay == when, "level \(level) \(day) price \(price)")
                    }
                }
            }
        }
    }

    @Test("the batch returns one result per scenario in input order, on one thread or two")
    func batchMatchesSingle() throws {
        var random = SplitMix64(seed: 0xBA7C)
        let today = ScenarioDraw.origin
        let headroom = ScenarioDraw.headroom(&random, maxDays: 700)
        let evaluator = ScenarioEvaluator(headroom: headroom, today: today)
        var scenarios = (0..<10_000).map { _ in ScenarioDraw.scenario(&random, headroom: headroom, today: today) }
        scenarios[7].day = evaluator.horizon.advanced(by: 1)  // one bad row among good ones
        let single = scenarios.map { scenario in Result { () throws(ScenarioError) in try evaluator.evaluate(scenario) } }
        let one = evaluator.evaluate(scenarios, threads: 1)
        let two = evaluator.evaluate(scenarios, threads: 2)
        #expect(one.count == scenarios.count && two.count == scenarios.count)
        #expect(one == single)
        #expect(two == single)
        guard case .failure(.invalid(field: "day", _, _)) = two[7] else {
            Issue.record("row 7: \(two[7])")
            return
        }
        #expect(evaluator.evaluate([]).isEmpty)
    }
}
