import CapitalCore
import Testing

/// Scenarios with a card paid back by a minimum or fixed amount, against the brute force of
/// `RepaidCardTests` (every card part spent for real, the whole forecast run again): a plan's
/// recurring cost is laid into the ledger as a schedule of its own, so what the plan can pay is
/// what the brute force finds there, by the forecast engine's own expansion, not the evaluator's.
@Suite("Scenarios with cards paid over time")
struct RepaidScenarioTests {
    typealias Household = RepaidCardTests.Household

    /// The level-4 availability of `household` as the scenario basis builds it.
    static func availability(_ household: Household) throws -> Availability {
        let (forecast, timeline) = try household.forecast()
        return try Availability(
            timeline, level: 4, cards: forecast.cards, defaultAccountID: "bank",
            repayments: forecast.cardRepayments(today: household.today, horizon: household.horizon, calendars: [:], .pessimistic))
    }

    /// The asked day, and a monthly cost from it (the first day on or after it whose day of the
    /// month every month has, so that the schedule's rule and the plan's months agree).
    static func cost(_ household: Household, seed: UInt64) throws -> (day: Day, cost: RecurringChange, schedule: Schedule) {
        let day = household.today.advanced(by: household.asked)
        var start = day
        while start.civil.day > 28 { start = start.advanced(by: 1) }
        let amount = Int64(seed % 5 * 37 + 1)
        let rub = RepaidCardTests.rub
        let schedule = Schedule(
            id: "plan", name: "plan",
            postings: [
                Posting(accountID: "shop", amount: Money(minor: amount, currency: rub)),
                Posting(accountID: "bank", amount: Money(minor: -amount, currency: rub)),
            ],
            rule: try Rule(parsing: "monthly on \(start.civil.day)"), start: start)
        return (day, RecurringChange(amount: amount, period: .monthly, start: start), schedule)
    }

    @Test("a cash plan with a recurring cost: the most it can pay is the brute force's, by the best split", arguments: 0..<32)
    func cashWithACost(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let availability = try Self.availability(household)
        let evaluator = ScenarioEvaluator(headroom: availability.headroom, today: household.today, cards: availability.cards)
        let (day, cost, schedule) = try Self.cost(household, seed: seed)
        guard day <= evaluator.horizon, cost.start <= evaluator.horizon else { return }
        var withCost = household
        withCost.ledger.schedules.append(schedule)
        let brute = try withCost.brute()
        let most = brute.shortfall ? 0 : brute.total
        let result = try evaluator.evaluate(try Scenario(price: max(1, most), day: day, costs: [cost]))
        #expect(result.maxPrice == most, "\(household)")
        guard most > 0 else {
            #expect(!result.feasible, "\(household)")
            return
        }
        #expect(result.feasible, "\(household)")
        let above = try evaluator.evaluate(try Scenario(price: most + 1, day: day, costs: [cost]))
        #expect(!above.feasible && above.maxPrice == most, "\(household)")
        // Spent for real with the cost in the ledger, the split fits.
        let onCard = result.onCards.reduce(Int64(0)) { $0 + $1.amount }
        let (_, timeline) = try withCost.forecast()
        let base = Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == "card" }!, .pessimistic))
        let room = try #require(try withCost.poolRoom(afterCard: onCard, base: base), "\(household): the card's part breaks a limit")
        #expect(room >= most - onCard, "\(household): the pool's part does not fit")
    }

    @Test("a cash price the cards paid in full and the pool can pay goes on no card paid over time", arguments: 0..<16)
    func noInterestWhenNotNeeded(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let availability = try Self.availability(household)
        let evaluator = ScenarioEvaluator(headroom: availability.headroom, today: household.today, cards: availability.cards)
        let day = household.today.advanced(by: household.asked)
        let pool = try #require(availability.canSpend(on: day)).parts.first { !$0.isCard }?.amount ?? 0
        guard pool > 0 else { return }
        let result = try evaluator.evaluate(try Scenario(price: pool, day: day))
        #expect(result.feasible && result.onCards.isEmpty, "\(household)")
        // As many as the exact answer, and its earliest day the first whose answer reaches it.
        let answer = try #require(availability.canSpend(on: day)).amount
        #expect(result.maxPrice == answer, "\(household)")
    }

    @Test("paid on the card by name: the most is the largest part the brute force lets the card carry", arguments: 0..<32)
    func onTheCard(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let availability = try Self.availability(household)
        let card = try #require(availability.cards.first { $0.counting == .paidOverTime })
        let evaluator = ScenarioEvaluator(headroom: availability.headroom, today: household.today, paidOverTimeOn: card)
        let day = household.today.advanced(by: household.asked)
        let (_, timeline) = try household.forecast()
        let base = Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == "card" }!, .pessimistic))
        let room = base[household.asked] + household.ledger.cards[0].terms.limit
        var most: Int64 = 0
        if room > 0 {
            for x in 1...room where try household.poolRoom(afterCard: x, base: base) != nil { most = x }
        }
        let result = try evaluator.evaluate(try Scenario(price: max(1, most), day: day))
        #expect(result.maxPrice == most, "\(household)")
        #expect(result.feasible == (most > 0), "\(household)")
        if most > 0 { #expect(result.onCards.map(\.amount) == [most], "\(household)") }
        let above = try evaluator.evaluate(try Scenario(price: most + 1, day: day))
        #expect(!above.feasible && above.shortfall > 0, "\(household)")
    }

    @Test("the earliest day of a cash price is the first whose exact answer reaches it", arguments: 0..<12)
    func earliest(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let availability = try Self.availability(household)
        let evaluator = ScenarioEvaluator(headroom: availability.headroom, today: household.today, cards: availability.cards)
        let answers = (0..<availability.headroom.count).map { availability.canSpend(on: household.today.advanced(by: $0))!.amount }
        let price = max(1, answers.max()! * Int64(seed % 3 + 1) / 3)
        let result = try evaluator.evaluate(try Scenario(price: price, day: household.today), earliest: true)
        let first = answers.firstIndex { $0 >= price }.map { household.today.advanced(by: $0) }
        #expect(result.earliestDay == first, "\(household): price \(price)")
    }

    @Test("a loan's down payment: the most is feasible and a minor unit more is not, at least the cards paid in full's", arguments: 0..<8)
    func loan(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let availability = try Self.availability(household)
        let evaluator = ScenarioEvaluator(headroom: availability.headroom, today: household.today, cards: availability.cards)
        let withoutThem = ScenarioEvaluator(
            headroom: availability.headroom, today: household.today, cards: availability.cards.filter { $0.counting != .paidOverTime })
        let day = household.today.advanced(by: household.asked)
        let down = max(1, try #require(availability.canSpend(on: day)).amount * 9 / 10)
        func scenario(_ price: Int64) throws -> Scenario {
            try Scenario(price: price, day: day, financing: .loan(ScenarioLoan(downPayment: down, rate: Rate(perMillion: 120_000), term: 6)))
        }
        let result = try evaluator.evaluate(try scenario(down))
        let plain = try withoutThem.evaluate(try scenario(down))
        #expect(result.maxPrice >= plain.maxPrice, "\(household)")
        guard result.maxPrice > 0 else { return }
        #expect(try evaluator.evaluate(try scenario(result.maxPrice)).feasible, "\(household)")
        #expect(try !evaluator.evaluate(try scenario(result.maxPrice + 1)).feasible, "\(household)")
    }
}
