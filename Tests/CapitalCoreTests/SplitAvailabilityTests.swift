import CapitalCore
import Testing

/// The exact answer with credit cards, against a brute force over every split: the problem stated
/// as the issue states it (a part from the pool, one on each card; every day to the horizon the
/// pool at or above its floor, each card within its limit until its payback), solved by trying
/// every card part and the most the pool can add to it, in small amounts where every minor unit
/// can be tried. Shares nothing with `SplitAvailability` but `CardConstraint.paybackDay`, whose
/// statement and due days `CardTests` checks by hand.
@Suite("Split availability")
struct SplitAvailabilityTests {
    static let origin = try! Day(iso: "2025-01-01")

    /// A random problem: the pool's room and 1–3 cards' (small amounts, often near zero), each
    /// card with random statement and due days, paid from the pool, from outside it, or by a
    /// minimum (not counted).
    struct Problem: CustomStringConvertible {
        var seed: UInt64
        var today: Day
        var pool: [Int64]
        var cards: [CardConstraint]

        var description: String { "seed \(seed): today \(today), \(pool.count) days, \(cards.count) cards" }

        init(seed: UInt64) {
            var random = SplitMix64(seed: seed &* 0x2545_F491 &+ 3)
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
            self.seed = seed
            today = SplitAvailabilityTests.origin.advanced(by: int(0...400))
            let days = [1, 2, 5, int(10...40), int(20...40)][int(0...4)]
            // A random walk that sometimes dips below zero: paydays up, spending down.
            var level = Int64(int(-2...14))
            pool = (0..<days).map { _ in
                level += Int64(int(0...9) < 7 ? 0 : int(-6...6))
                return level
            }
            cards = (0..<int(1...3)).map { j in
                var room = Int64(int(-1...10))
                let headroom = (0..<days).map { _ in
                    // At most 12: the brute force tries every card part up to that.
                    room = min(12, room + Int64(int(0...9) < 8 ? 0 : int(-4...4)))
                    return room
                }
                let due: CardDue = int(0...1) == 0 ? .daysAfterStatement(int(1...27)) : .dayOfMonth(int(1...31))
                var terms = try? CreditCard(limit: 100, statementDay: int(1...31), due: due, payback: .full, rate: Rate(perMillion: 0))
                if terms == nil {
                    terms = try! CreditCard(
                        limit: 100, statementDay: 1, due: .daysAfterStatement(int(1...27)), payback: .full, rate: Rate(perMillion: 0))
                }
                let counting: CardConstraint.Counting = [.paidFromPool, .paidFromPool, .paidFromPool, .paidOutsidePool, .notCounted][int(0...4)]
                return CardConstraint(
                    account: j + 1, headroom: headroom, terms: terms!, counting: counting, payFrom: counting == .paidFromPool ? 0 : nil)
            }
        }

        /// Whether spending `pool` from the pool and `parts` on the cards on day index `index`
        /// keeps every constraint, day by day: a card's part takes its room until its payback
        /// (a card already over its limit may take nothing), then the pool's when paid from it.
        func feasible(_ x0: Int64, _ parts: [Int64], at index: Int) -> Bool {
            let day = today.advanced(by: index)
            let paybacks = cards.map { $0.paybackDay(forPurchaseOn: day).number - today.number }
            for (j, card) in cards.enumerated() where card.counting == .notCounted && parts[j] > 0 { return false }
            for t in index..<pool.count {
                var charged = x0
                for (j, card) in cards.enumerated() {
                    if parts[j] > 0 && t < paybacks[j] && card.headroom[t] - parts[j] < 0 { return false }
                    // A payback after the horizon counts on its last day.
                    if card.counting == .paidFromPool && t >= min(paybacks[j], pool.count - 1) { charged += parts[j] }
                }
                if pool[t] - charged < 0 { return false }
            }
            return true
        }

        /// The best total and, of the splits reaching it, the least from the pool, by trying every
        /// card part from 0 to 12 and the most the pool can add to them.
        func brute(at index: Int) -> (total: Int64, leastFromPool: Int64)? {
            var best: (total: Int64, leastFromPool: Int64)?
            var parts = [Int64](repeating: 0, count: cards.count)
            func visit(_ j: Int) {
                if j == cards.count {
                    guard feasible(0, parts, at: index) else { return }
                    var x0: Int64 = 0
                    while feasible(x0 + 1, parts, at: index) { x0 += 1 }
                    // With these card parts a smaller pool part reaches less: the least from the pool
                    // is found among the card parts whose best total is the best.
                    let total = x0 + parts.reduce(0, +)
                    if best == nil || total > best!.total || (total == best!.total && x0 < best!.leastFromPool) { best = (total, x0) }
                    return
                }
                for value in Int64(0)...12 {
                    parts[j] = value
                    visit(j + 1)
                }
                parts[j] = 0
            }
            visit(0)
            return best
        }
    }

    @Test(
        "the answer is the best split's total, its split the one with the least from the pool, and spending it keeps every constraint",
        arguments: 0..<8)
    func matchesBruteForce(batch: Int) {
        for seed in stride(from: UInt64(batch), to: 160, by: 8) {
            let problem = Problem(seed: seed)
            let split = SplitAvailability(pool: problem.pool, cards: problem.cards, today: problem.today)
            for index in problem.pool.indices {
                let solution = split.solve(at: index)
                let x0 = solution.parts[0].amount
                let parts = solution.parts.dropFirst().map(\.amount)
                #expect(solution.total == x0 + parts.reduce(0, +), "\(problem) day \(index)")
                guard let brute = problem.brute(at: index) else {
                    // The pool is short already: nothing, and how far short.
                    let lowest = problem.pool[index...].min()!
                    #expect(solution.total == 0 && solution.shortfall == -lowest, "\(problem) day \(index): \(solution)")
                    continue
                }
                #expect(solution.total == brute.total, "\(problem) day \(index): \(solution) vs \(brute)")
                #expect(x0 == brute.leastFromPool, "\(problem) day \(index): pool part \(x0) vs \(brute.leastFromPool)")
                #expect(problem.feasible(x0, parts, at: index), "\(problem) day \(index): the split \(solution) breaks a constraint")
                // One minor unit more on any part breaks a constraint.
                #expect(!problem.feasible(x0 + 1, parts, at: index), "\(problem) day \(index): the pool could pay 1 more")
                for j in parts.indices {
                    var more = parts
                    more[j] += 1
                    #expect(!problem.feasible(x0, more, at: index), "\(problem) day \(index): card \(j) could take 1 more")
                }
            }
        }
    }

    @Test("the first day an amount stays spendable is the day after the last one short of it, by every day's answer", arguments: 0..<4)
    func firstDayIsTheLastShortDayPlusOne(batch: Int) {
        for seed in stride(from: UInt64(500 + batch), to: 700, by: 4) {
            let problem = Problem(seed: seed)
            let split = SplitAvailability(pool: problem.pool, cards: problem.cards, today: problem.today)
            let answers = problem.pool.indices.map { split.solve(at: $0).total }
            let suffix = SuffixMinimum(problem.pool)
            var amounts: Set<Int64> = [0, 1, -1, .max, .min]
            for answer in answers { amounts.formUnion([answer - 1, answer, answer + 1]) }
            for amount in amounts {
                let lastShort = answers.indices.last { answers[$0] < amount }
                let expected = lastShort.map { $0 + 1 < answers.count ? $0 + 1 : nil } ?? 0
                #expect(split.firstIndex(toSpend: amount, poolSuffix: suffix) == expected, "\(problem) amount \(amount)")
            }
        }
    }

    @Test("the issue's card: 100 000 in the bank, 50 000 owed on the card due 12-15, a purchase today paid back 01-14: 50 000 on the card")
    func issueExample() throws {
        let today = try Day(iso: "2026-12-01")
        let horizon = try Day(iso: "2027-12-01")
        let days = horizon.number - today.number + 1
        let due = try Day(iso: "2026-12-15").number - today.number
        // The bank's room: 100 000 until the payback of the 11-25 statement, 50 000 after it.
        let pool = (0..<days).map { $0 < due ? Int64(100_000) : 50_000 }
        // The card's room (its limit 100 000 less what it owes): 50 000 until 12-15, 100 000 after.
        let card = (0..<days).map { $0 < due ? Int64(50_000) : 100_000 }
        let terms = try CreditCard(limit: 100_000, statementDay: 25, due: .daysAfterStatement(20), payback: .full, rate: Rate(perMillion: 0))
        let constraint = CardConstraint(account: 1, headroom: card, terms: terms, counting: .paidFromPool, payFrom: 0)
        #expect(constraint.paybackDay(forPurchaseOn: today) == (try Day(iso: "2027-01-14")))
        let solution = SplitAvailability(pool: pool, cards: [constraint], today: today).solve(at: 0)
        #expect(solution.total == 50_000)
        #expect(solution.parts.map(\.amount) == [0, 50_000])
        #expect(solution.parts[1].binding == .limit(today))
        // Pooled, the level's lowest room is 150 000: the double count this answer corrects.
        #expect(zip(pool, card).map { $0 + $1 }.min() == 150_000)
    }
}
