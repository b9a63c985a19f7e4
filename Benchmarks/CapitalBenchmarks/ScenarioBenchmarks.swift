import Benchmark
import CapitalCore

/// The scenario engine on a 30-year daily headroom (2026–2055, 10 957 days): a random walk with
/// a salary on the 10th, rent on the 1st, daily spending and an occasional large bill, drawn with
/// a fixed seed, less a floor.
///
/// - `Scenario: 1000000 cash purchases, N threads`: one item is the whole batch of one million
///   cash purchases (price 1.00 … 6 000 000.00, any day of the 30 years) evaluated with
///   `evaluate(_:threads:)`: feasible, worst headroom and day, shortfall, maximum price, total
///   cost. Target: under 0.5 s.
/// - `Scenario: 1000000 cash purchases with a card, 2 threads`: the same purchases paid by the
///   best split with one card (its room until each purchase's payback, then the pool).
/// - `Scenario: 1000000 loans x 60 months, 2 threads`: one million purchases of 500 000.00 …
///   5 000 000.00 with 0–30 % down and a 60-month annuity at 5–25 % (30/360 and actual/365 mixed),
///   purchase days in the first 28 years. Target: under 3 s on the machine's two cores.
/// - `Scenario: 100000 mixed plans, 2 threads`: cash, loans (annuity and linear, 12–84 months) and
///   instalments (3–24), with monthly and yearly costs, income changes and sales.
/// - `Scenario: 1000 loans with the earliest day`: the same loans with `earliest: true`.
///
/// The series and the scenarios are built in each benchmark's setup, outside the measurement,
/// and dropped in its teardown, so that they do not weigh on the other benchmarks' memory.
func scenarioBenchmarks() {
    let today = try! Day(iso: "2026-01-01")
    let days = try! Day(iso: "2055-12-31").number - today.number + 1
    let inputs = ScenarioBenchmarkInputs()
    let scenariosPerSecond = BenchmarkMetric.custom("scenarios per second", polarity: .prefersLarger, useScalingFactor: false)

    func benchmark(
        _ name: String, maxIterations: Int = 20, earliest: Bool = false, threads: Int = 2, card: Bool = false,
        _ make: @escaping (inout SplitMix64, Day, Int) -> [Scenario]
    ) {
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident, scenariosPerSecond], scalingFactor: .one,
            maxDuration: .seconds(10), maxIterations: maxIterations)
        Benchmark(
            name, configuration: threads == 2 && name.contains("cash") && !card ? configuration.checked(threaded: true) : configuration,
            closure: { benchmark in
                guard let evaluator = inputs.evaluator else { return }
                let clock = ContinuousClock()
                let began = clock.now
                for _ in benchmark.scaledIterations {
                    blackHole(evaluator.evaluate(inputs.scenarios, earliest: earliest, threads: threads))
                }
                let elapsed = began.duration(to: clock.now).components
                let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
                let count = inputs.scenarios.count * benchmark.scaledIterations.count
                benchmark.measurement(scenariosPerSecond, Int(Double(count) * 1e9 / Double(max(nanoseconds, 1))))
            },
            setup: {
                var random = SplitMix64(seed: 6)
                let headroom = ScenarioBenchmarkInputs.headroom(&random, days: days)
                // With `card`: the best split, a card of 150 000.00 (statements on the 25th, due 20
                // days later) whose room the budgets spend down and every payback restores.
                let cards =
                    card
                    ? [
                        CardConstraint(
                            account: 1, headroom: (0..<days).map { 15_000_000 - Int64($0 % 30) * 400_000 },
                            terms: try! CreditCard(
                                limit: 15_000_000, statementDay: 25, due: .daysAfterStatement(20), payback: .full, rate: Rate(perMillion: 0)),
                            counting: .paidFromPool, payFrom: 0)
                    ] : []
                inputs.evaluator = ScenarioEvaluator(headroom: headroom, today: today, cards: cards)
                inputs.scenarios = make(&random, today, days)
                // Every scenario must be valid: an error would be measured as a (cheap) result.
                for result in inputs.evaluator!.evaluate(Array(inputs.scenarios.prefix(10_000))) {
                    if case .failure(let error) = result { fatalError("benchmark scenario rejected: \(error)") }
                }
            },
            teardown: {
                inputs.evaluator = nil
                inputs.scenarios = []
            })
    }

    let million = 1_000_000
    for threads in [2, 1] {
        benchmark("Scenario: 1000000 cash purchases, \(threads) thread\(threads == 1 ? "" : "s")", threads: threads) { random, today, days in
            (0..<million).map { _ in
                try! Scenario(price: 100 + Int64(random.next(below: 600_000_000)), day: today.advanced(by: random.next(below: days)))
            }
        }
    }
    benchmark("Scenario: 1000000 cash purchases with a card, 2 threads", card: true) { random, today, days in
        (0..<million).map { _ in
            try! Scenario(price: 100 + Int64(random.next(below: 600_000_000)), day: today.advanced(by: random.next(below: days)))
        }
    }
    benchmark("Scenario: 1000000 loans x 60 months, 2 threads", maxIterations: 10) { random, today, days in
        (0..<million).map { _ in ScenarioBenchmarkInputs.loan(&random, today: today, days: days, term: 60) }
    }
    benchmark("Scenario: 100000 mixed plans, 2 threads") { random, today, days in
        (0..<100_000).map { _ in ScenarioBenchmarkInputs.mixed(&random, today: today, days: days) }
    }
    benchmark("Scenario: 1000 loans with the earliest day", earliest: true) { random, today, days in
        (0..<1_000).map { _ in ScenarioBenchmarkInputs.loan(&random, today: today, days: days, term: 60) }
    }
}

/// The benchmarks' series and scenarios, set up and torn down around each benchmark.
final class ScenarioBenchmarkInputs: @unchecked Sendable {
    var evaluator: ScenarioEvaluator?
    var scenarios: [Scenario] = []

    /// A household's headroom over `days` days: salary 200 000.00 on the 10th, rent 60 000.00 on
    /// the 1st, 0–8 000.00 spent a day, a bill of up to 100 000.00 about every three months, a
    /// floor of 50 000.00 under a start of 500 000.00: it saves about 20 000.00 a month.
    static func headroom(_ random: inout SplitMix64, days: Int) -> [Int64] {
        var balance: Int64 = 50_000_000
        var headroom = [Int64](repeating: 0, count: days)
        var dayOfMonth = 1  // 2026-01-01
        var monthLength = 31
        var month = 1
        for index in 0..<days {
            if dayOfMonth == 10 { balance += 20_000_000 }
            if dayOfMonth == 1 { balance -= 6_000_000 }
            balance -= Int64(random.next(below: 800_001))
            if random.next(below: 90) == 0 { balance -= Int64(random.next(below: 10_000_001)) }
            headroom[index] = balance - 5_000_000
            dayOfMonth += 1
            if dayOfMonth > monthLength {
                dayOfMonth = 1
                month = month % 12 + 1
                monthLength = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            }
        }
        return headroom
    }

    /// A purchase of 500 000.00 … 5 000 000.00 with 0–30 % down and an annuity loan of `term`
    /// months at 5–25 %, in the first 28 years.
    static func loan(_ random: inout SplitMix64, today: Day, days: Int, term: Int) -> Scenario {
        let price = Int64(50_000_000 + random.next(below: 450_000_001))
        let down = price * Int64(random.next(below: 31)) / 100
        let rate = Rate(perMillion: Int64(50_000 + 100 * random.next(below: 2_001)))
        let terms = ScenarioLoan(downPayment: down, rate: rate, term: term, dayCount: random.next(below: 2) == 0 ? .thirty360 : .actual365)
        return try! Scenario(price: price, day: today.advanced(by: random.next(below: days - 730)), financing: .loan(terms))
    }

    /// Cash, loans or instalments with recurring costs, income changes and sales.
    static func mixed(_ random: inout SplitMix64, today: Day, days: Int) -> Scenario {
        let day = today.advanced(by: random.next(below: days - 730))
        let price = Int64(1_000_000 + random.next(below: 300_000_000))
        let financing: ScenarioFinancing
        switch random.next(below: 3) {
        case 0:
            financing = .cash
        case 1:
            financing = .loan(
                ScenarioLoan(
                    downPayment: price * Int64(random.next(below: 50)) / 100, rate: Rate(perMillion: Int64(10_000 * (1 + random.next(below: 25)))),
                    term: 12 * (1 + random.next(below: 7)), method: random.next(below: 2) == 0 ? .annuity : .linear))
        default:
            financing = .instalments(count: 3 + random.next(below: 22))
        }
        let costs = (0..<random.next(below: 3)).map { index in
            RecurringChange(
                amount: Int64(100_000 + random.next(below: 5_000_000)), period: index == 0 ? .monthly : .yearly,
                start: day.advanced(by: random.next(below: 60)))
        }
        let income = (0..<(random.next(below: 4) == 0 ? 1 : 0)).map { _ in
            RecurringChange(
                amount: (Int64(random.next(below: 2_000_000)) - 1_000_000) | 1, period: .monthly, start: day, end: day.advanced(by: 3_650))
        }
        let sale =
            random.next(below: 4) == 0
            ? AssetSale(day: day.advanced(by: random.next(below: 30)), amount: Int64(1 + random.next(below: 50_000_000))) : nil
        return try! Scenario(price: price, day: day, financing: financing, costs: costs, incomeChanges: income, sale: sale)
    }
}
