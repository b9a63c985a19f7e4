import CapitalCore
import Testing

/// The maximum affordable price of loan scenarios, where it is searched rather than solved:
/// loans starting early in the horizon so that their payments bind, every method and day count,
/// checked against the brute-force reference at the answer and one minor unit above, and well
/// above it.
@Suite("Scenario loans")
struct ScenarioLoanTests {
    @Test("the loan's maximum price is a feasibility boundary of the reference", arguments: 0..<4)
    func loanMaxPriceIsABoundary(batch: Int) throws {
        var random = SplitMix64(seed: 0x10A2_0000 + UInt64(batch))
        var workspace = ScenarioWorkspace()
        for _ in 0..<30 {
            let today = ScenarioDraw.origin.advanced(by: Int.random(in: 0...700, using: &random))
            let headroom = ScenarioDraw.headroom(&random, maxDays: 1_200)
            let evaluator = ScenarioEvaluator(headroom: headroom, today: today)
            let reference = ScenarioReference(headroom: headroom, today: today)
            for _ in 0..<20 {
                var scenario = ScenarioDraw.scenario(&random, headroom: headroom, today: today)
                let down = Int64.random(in: 0...scenario.price / 2, using: &random)
                scenario.financing = .loan(
                    ScenarioLoan(
                        downPayment: down, rate: Rate(perMillion: Int64(100 * Int.random(in: 0...2_500, using: &random))),
                        term: Int.random(in: 1...72, using: &random), method: Bool.random(using: &random) ? .annuity : .linear,
                        dayCount: DayCount.allCases.randomElement(using: &random)!))
                scenario.day = today.advanced(by: Int.random(in: -20...max(0, headroom.count / 3), using: &random))
                let result = try evaluator.evaluate(scenario, using: &workspace)
                ScenarioTests.check(scenario, reference, result, "loan batch \(batch)")
                // Rounding can make a price a few minor units above the boundary feasible again
                // (the annuity rounded up by 1 cuts the interest by more); never far above it.
                if result.maxPrice + 1_000 <= Scenario.maximumAmount {
                    #expect(!reference.feasible(scenario, price: result.maxPrice + 1_000), "loan batch \(batch): \(scenario)")
                }
            }
        }
    }
}
