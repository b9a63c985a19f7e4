import CapitalCore
import Testing

/// Scenarios paid by the best split (no account named): the upfront payment on the cards as far
/// as their room until each payback lets it, the rest from the pool. Checked against the brute
/// force of `SplitAvailabilityTests.Problem`, which tries every card part: a price is affordable
/// when some split of it keeps every constraint, with the scenario's other outflows (a monthly
/// cost) taken from the pool day by day.
@Suite("Scenarios paid by the best split")
struct ScenarioSplitTests {
    typealias Problem = SplitAvailabilityTests.Problem

    /// Whether some split of `price` on day index `index` keeps every constraint of `problem`
    /// (card parts 0…12 each, the pool paying the rest).
    static func affordable(_ price: Int64, at index: Int, _ problem: Problem) -> Split? {
        var parts = [Int64](repeating: 0, count: problem.cards.count)
        func visit(_ j: Int) -> Split? {
            if j == problem.cards.count {
                let onCards = parts.reduce(0, +)
                guard onCards <= price else { return nil }
                return problem.feasible(price - onCards, parts, at: index) ? Split(pool: price - onCards, cards: parts) : nil
            }
            for value in Int64(0)...12 {
                parts[j] = value
                if let found = visit(j + 1) { return found }
            }
            parts[j] = 0
            return nil
        }
        return visit(0)
    }

    struct Split {
        var pool: Int64
        var cards: [Int64]
    }

    /// `problem` with a monthly cost of `amount` from day index `index` taken from the pool.
    static func withCost(_ problem: Problem, _ amount: Int64, from index: Int) -> Problem {
        var charged = problem
        let start = problem.today.advanced(by: index)
        var days = Set<Int>()
        var month = 0
        while true {
            let day = start.addingMonths(month).number - problem.today.number
            if day >= problem.pool.count { break }
            days.insert(day)
            month += 1
        }
        var paid: Int64 = 0
        for t in problem.pool.indices {
            if days.contains(t) { paid += amount }
            charged.pool[t] -= paid
        }
        return charged
    }

    /// The split a result reports: the cards' parts by card, the pool the rest.
    static func reported(_ result: ScenarioResult, price: Int64, _ problem: Problem) -> Split {
        var cards = [Int64](repeating: 0, count: problem.cards.count)
        for part in result.onCards {
            let j = problem.cards.firstIndex { $0.account == part.account }!
            cards[j] += part.amount
        }
        return Split(pool: price - cards.reduce(0, +), cards: cards)
    }

    @Test("a cash purchase's largest price is the exact answer's; with a monthly cost, affordable exactly when some split is", arguments: 0..<8)
    func matchesTheBruteForce(batch: Int) throws {
        for seed in stride(from: UInt64(1_000 + batch), to: 1_120, by: 8) {
            let problem = Problem(seed: seed)
            let evaluator = ScenarioEvaluator(headroom: problem.pool, today: problem.today, cards: problem.cards)
            let split = SplitAvailability(pool: problem.pool, cards: problem.cards, today: problem.today)
            var workspace = ScenarioWorkspace()
            for index in problem.pool.indices {
                let day = problem.today.advanced(by: index)
                let plain = try evaluator.evaluate(try Scenario(price: 1, day: day), using: &workspace)
                // Days before the purchase are not judged: only from it on.
                let answer = split.solve(at: index)
                #expect(plain.maxPrice == (answer.shortfall > 0 ? 0 : answer.total), "\(problem) day \(index): \(plain) vs \(answer)")

                let cost = Int64(1 + (seed % 3))
                let charged = Self.withCost(problem, cost, from: index)
                var largest: Int64 = 0
                for price in Int64(1)...(plain.maxPrice + 2) {
                    let scenario = try Scenario(price: price, day: day, costs: [RecurringChange(amount: cost, period: .monthly, start: day)])
                    let result = try evaluator.evaluate(scenario, using: &workspace)
                    let brute = Self.affordable(price, at: index, charged)
                    #expect(result.feasible == (brute != nil), "\(problem) day \(index) price \(price) cost \(cost): \(result)")
                    if result.feasible {
                        largest = price
                        let paid = Self.reported(result, price: price, problem)
                        #expect(paid.pool >= 0 && charged.feasible(paid.pool, paid.cards, at: index), "\(problem) day \(index): \(paid)")
                    }
                }
                if largest <= plain.maxPrice + 1 {
                    let scenario = try Scenario(price: 1, day: day, costs: [RecurringChange(amount: cost, period: .monthly, start: day)])
                    let result = try evaluator.evaluate(scenario, using: &workspace)
                    #expect(result.maxPrice == largest, "\(problem) day \(index) cost \(cost): max price \(result.maxPrice) vs \(largest)")
                }
            }
        }
    }

    @Test("the earliest day with cards is the first day some split affords the purchase", arguments: 0..<4)
    func earliestDayWithCards(batch: Int) throws {
        for seed in stride(from: UInt64(2_000 + batch), to: 2_080, by: 4) {
            let problem = Problem(seed: seed)
            let evaluator = ScenarioEvaluator(headroom: problem.pool, today: problem.today, cards: problem.cards)
            for price in Int64(1)...8 {
                let result = try evaluator.evaluate(try Scenario(price: price, day: problem.today), earliest: true)
                let first = problem.pool.indices.first { Self.affordable(price, at: $0, problem) != nil }
                #expect(result.earliestDay == first.map { problem.today.advanced(by: $0) }, "\(problem) price \(price)")
            }
        }
    }
}
