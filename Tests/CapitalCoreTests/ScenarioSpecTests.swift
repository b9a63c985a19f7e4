import CapitalCore
import Testing

/// Scenario semantics written down by hand: instalment rounding and due days, purchases before
/// today, loans past the horizon, the total cost, the maximum price's edge cases and bad input.
@Suite("Scenario semantics")
struct ScenarioSpecTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// A flat headroom of `level` from `today` through `horizon`.
    static func flat(_ level: Int64, from today: String, through horizon: String) -> ScenarioEvaluator {
        let start = day(today)
        return ScenarioEvaluator(headroom: [Int64](repeating: level, count: day(horizon).number - start.number + 1), today: start)
    }

    @Test("a car on a 60-month loan past the horizon costs the price, the interest inside the horizon and the recurring costs")
    func totalCostOfALoanScenario() throws {
        // 1 500 000.00 on 2026-06-01, 300 000.00 down, 1 200 000.00 at 14 % over 60 months
        // (30/360); fuel 4 000.00 a month and insurance 40 000.00 a year from the same day.
        // The horizon 2027-12-31 holds 18 payments (2026-07-01 … 2027-12-01) of 27 921.90: the
        // annuity 1 200 000 × r / (1 − (1 + r)^−60), r = 0.14 / 12, is 27 921.901…; the first
        // interest is 1 200 000.00 × 0.14 / 12 = 14 000.00 and the 18 add up to 225 533.25
        // (an exact rational replay of the schedule); 19 fuel bills, 2 insurance premiums.
        let evaluator = Self.flat(200_000_000, from: "2026-01-01", through: "2027-12-31")
        let purchase = Self.day("2026-06-01")
        let scenario = try Scenario(
            price: 150_000_000, day: purchase,
            financing: .loan(ScenarioLoan(downPayment: 30_000_000, rate: Rate(parsing: "14"), term: 60)),
            costs: [
                RecurringChange(amount: 400_000, period: .monthly, start: purchase),
                RecurringChange(amount: 4_000_000, period: .yearly, start: purchase),
            ])
        let loan = try Loan(principal: 120_000_000, rate: Rate(parsing: "14"), term: 60, start: purchase).amortize()
        #expect(loan.payment == 2_792_190 && loan.rows[0].interest == 1_400_000)
        #expect(loan.rows.prefix(18).reduce(0) { $0 + $1.interest } == 22_553_325)

        let result = try evaluator.evaluate(scenario)
        #expect(result.loanInterest == 22_553_325)
        #expect(result.recurringCosts == 19 * 400_000 + 2 * 4_000_000)
        #expect(result.totalCost == 150_000_000 + 22_553_325 + 7_600_000 + 8_000_000)
        // Paid by the horizon: the down payment, 18 annuities, the fuel and the insurance.
        #expect(result.worstHeadroom == 200_000_000 - (30_000_000 + 18 * 2_792_190 + 7_600_000 + 8_000_000))
        #expect(result.worstDay == Self.day("2027-12-01") && result.feasible && result.shortfall == 0)

        // The whole loan inside a longer horizon: the price plus the schedule's total interest.
        let long = try Self.flat(200_000_000, from: "2026-01-01", through: "2032-12-31").evaluate(
            try Scenario(price: 150_000_000, day: purchase, financing: scenario.financing))
        #expect(long.loanInterest == loan.totalInterest && loan.totalInterest == 47_531_412)
        #expect(long.totalCost == 150_000_000 + 47_531_412)
    }

    @Test("instalments split the price rounded down, the last absorbing the rest, from the purchase day or a month later")
    func instalments() throws {
        let evaluator = Self.flat(1_000_000, from: "2026-01-01", through: "2026-12-31")
        let purchase = Self.day("2026-01-31")
        // 100 000 in 3: 33 333 on 01-31, 33 333 on 02-28, 33 334 on 03-31.
        let onPurchase = try evaluator.evaluate(try Scenario(price: 100_000, day: purchase, financing: .instalments(count: 3)))
        #expect(onPurchase.worstHeadroom == 900_000 && onPurchase.worstDay == Self.day("2026-03-31"))
        #expect(onPurchase.maxPrice == 1_000_000 && onPurchase.totalCost == 100_000)
        let later = try evaluator.evaluate(
            try Scenario(price: 100_000, day: purchase, financing: .instalments(count: 3, first: .oneMonthLater)))
        #expect(later.worstDay == Self.day("2026-04-30"))

        // A horizon that sees two of the three: 2 × ⌊P / 3⌋ ≤ 1 000 000, so P ≤ 1 500 002.
        let short = Self.flat(1_000_000, from: "2026-01-01", through: "2026-03-30")
        let cut = try short.evaluate(try Scenario(price: 100_000, day: purchase, financing: .instalments(count: 3)))
        #expect(cut.maxPrice == 1_500_002 && cut.worstHeadroom == 1_000_000 - 66_666)
    }

    @Test("what a scenario would have paid before today is paid today")
    func pastPaymentsLandToday() throws {
        let evaluator = Self.flat(10_000_000, from: "2026-03-10", through: "2026-12-31")
        let cash = try evaluator.evaluate(try Scenario(price: 4_000_000, day: Self.day("2026-01-15")))
        #expect(cash.worstHeadroom == 6_000_000 && cash.worstDay == Self.day("2026-03-10"))
        // A loan from 2026-01-15: its payments of 02-15 and 03-15 … the first two land today.
        let loan = try Scenario(
            price: 4_000_000, day: Self.day("2026-01-15"),
            financing: .loan(ScenarioLoan(downPayment: 1_000_000, rate: Rate(perMillion: 0), term: 3)))
        #expect(loan.firstDay == Self.day("2026-01-15"))
        let result = try evaluator.evaluate(loan, earliest: true)
        // 3 000 000 at 0 % in 3: 1 000 000 each on 02-15, 03-15, 04-15; 02-15 lands today.
        #expect(result.worstHeadroom == 10_000_000 - 4_000_000 && result.worstDay == Self.day("2026-04-15"))
        // Moved to today, the plan is feasible today.
        #expect(result.earliestDay == Self.day("2026-03-10"))
    }

    @Test("a loan longer than the horizon counts only the payments inside it")
    func loanPastTheHorizon() throws {
        let evaluator = Self.flat(50_000_000, from: "2026-01-01", through: "2026-12-31")
        let terms = ScenarioLoan(downPayment: 0, rate: Rate(perMillion: 120_000), term: 360)
        let result = try evaluator.evaluate(try Scenario(price: 30_000_000, day: Self.day("2026-01-01"), financing: .loan(terms)))
        let rows = try Loan(principal: 30_000_000, rate: terms.rate, term: 360, start: Self.day("2026-01-01")).amortize().rows.prefix(11)
        #expect(result.worstHeadroom == 50_000_000 - rows.reduce(0) { $0 + $1.payment })
        #expect(result.loanInterest == rows.reduce(0) { $0 + $1.interest })
    }

    @Test("the maximum price: 0 when nothing fits, the down payment when only it fits, capped at 10^15")
    func maxPriceEdges() throws {
        let purchase = Self.day("2026-01-10")
        // The base already below the floor: nothing is affordable, not even price 0.
        let broke = Self.flat(-1, from: "2026-01-01", through: "2026-06-30")
        let nothing = try broke.evaluate(try Scenario(price: 1, day: purchase))
        #expect(nothing.maxPrice == 0 && !nothing.feasible && nothing.shortfall == 2)
        // A recurring cost alone breaks the floor: 0 too.
        let tight = Self.flat(1_000, from: "2026-01-01", through: "2026-06-30")
        let costly = try tight.evaluate(
            try Scenario(price: 1, day: purchase, costs: [RecurringChange(amount: 600, period: .monthly, start: purchase)]))
        #expect(costly.maxPrice == 0)
        // A down payment larger than the room: the answer is the room, paid in cash.
        let down = try tight.evaluate(
            try Scenario(
                price: 5_000, day: purchase,
                financing: .loan(ScenarioLoan(downPayment: 2_000, rate: Rate(perMillion: 100_000), term: 12))))
        #expect(down.maxPrice == 1_000 && !down.feasible)
        // Room beyond any price: the cap.
        let rich = Self.flat(Int64.max / 4, from: "2026-01-01", through: "2026-06-30")
        #expect(try rich.evaluate(try Scenario(price: 1, day: purchase)).maxPrice == Scenario.maximumAmount)
        // A loan whose first payment falls after the horizon: only the down payment binds.
        let soon = Self.flat(1_000, from: "2026-01-01", through: "2026-01-31")
        let unbounded = try soon.evaluate(
            try Scenario(price: 5_000, day: purchase, financing: .loan(ScenarioLoan(downPayment: 900, rate: Rate(perMillion: 0), term: 12))))
        #expect(unbounded.maxPrice == Scenario.maximumAmount && unbounded.feasible)
    }

    @Test("bad input is a ScenarioError naming the field, the value and why")
    func badInput() throws {
        let day = Self.day("2026-02-01")
        let loan = { (down: Int64, term: Int) in ScenarioFinancing.loan(ScenarioLoan(downPayment: down, rate: Rate(perMillion: 0), term: term)) }
        #expect(throws: ScenarioError.invalid(field: "price", value: "0", reason: "must be more than 0")) {
            try Scenario(price: 0, day: day)
        }
        #expect(throws: ScenarioError.invalid(field: "price", value: "-5", reason: "must be more than 0")) {
            try Scenario(price: -5, day: day)
        }
        #expect(throws: ScenarioError.invalid(field: "price", value: "1000000000000001", reason: "is over 10^15 minor units")) {
            try Scenario(price: Scenario.maximumAmount + 1, day: day)
        }
        #expect(throws: ScenarioError.invalid(field: "down payment", value: "101", reason: "is above the price 100")) {
            try Scenario(price: 100, day: day, financing: loan(101, 12))
        }
        #expect(throws: ScenarioError.invalid(field: "down payment", value: "-1", reason: "cannot be negative")) {
            try Scenario(price: 100, day: day, financing: loan(-1, 12))
        }
        #expect(throws: ScenarioError.invalid(field: "loan term", value: "0", reason: "must be at least 1 month")) {
            try Scenario(price: 100, day: day, financing: loan(0, 0))
        }
        #expect(throws: ScenarioError.invalid(field: "instalments", value: "0", reason: "must be at least 1")) {
            try Scenario(price: 100, day: day, financing: .instalments(count: 0))
        }
        #expect(throws: ScenarioError.invalid(field: "income change", value: "0", reason: "must not be 0")) {
            try Scenario(price: 100, day: day, incomeChanges: [RecurringChange(amount: 0, period: .monthly, start: day)])
        }
        #expect(throws: ScenarioError.invalid(field: "cost end", value: "2026-01-31", reason: "is before the start 2026-02-01")) {
            try Scenario(price: 100, day: day, costs: [RecurringChange(amount: 5, period: .monthly, start: day, end: Self.day("2026-01-31"))])
        }

        let evaluator = Self.flat(1_000, from: "2026-01-01", through: "2026-03-31")
        #expect(throws: ScenarioError.invalid(field: "day", value: "2026-04-01", reason: "is after the horizon 2026-03-31")) {
            try evaluator.evaluate(try Scenario(price: 100, day: Self.day("2026-04-01")))
        }
        #expect(throws: ScenarioError.invalid(field: "cost start", value: "2026-05-01", reason: "is after the horizon 2026-03-31")) {
            try evaluator.evaluate(
                try Scenario(price: 100, day: day, costs: [RecurringChange(amount: 5, period: .monthly, start: Self.day("2026-05-01"))]))
        }
        let empty = ScenarioEvaluator(headroom: [], today: day)
        #expect(throws: ScenarioError.invalid(field: "day", value: "2026-01-01", reason: "the forecast has no days")) {
            try empty.evaluate(try Scenario(price: 100, day: Self.day("2026-01-01")))
        }
        // A scenario edited after it was made is checked again.
        var edited = try Scenario(price: 100, day: day)
        edited.price = 0
        #expect(throws: ScenarioError.invalid(field: "price", value: "0", reason: "must be more than 0")) {
            try evaluator.evaluate(edited)
        }
        #expect(ScenarioError.invalid(field: "price", value: "0", reason: "must be more than 0").description == "price '0': must be more than 0")
    }
}
