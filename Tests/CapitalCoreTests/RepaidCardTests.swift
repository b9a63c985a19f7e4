import CapitalCore
import Testing

/// The exact answer with a card paid back by a minimum or fixed amount, against a brute force
/// that shares nothing with `SplitAvailability` or `CardRepayment`: for every card part `x` it
/// spends `x` on the card for real (a transaction in the ledger), runs the whole forecast again
/// (the card's cycles, interest and paybacks as the forecast makes them) and reads the balances:
/// the pool can add the lowest of its room from the day on; the card must stay within its limit
/// (what it still owes after the horizon is not counted, as a loan's later payments are not).
/// The best `x` plus that is the answer. Amounts are small (a limit of a few thousand minor units) so every
/// minor unit is tried, and rates high so that interest and the minimum's rounding matter.
@Suite("Cards paid over time")
struct RepaidCardTests {
    static let rub = try! Currency("RUB")

    /// A random household: a bank (with a floor) and a cash account, a salary and rent from the
    /// bank, spending on a card paid back by a minimum or a fixed amount from the bank (or from
    /// a savings account outside the level), some debt on it already.
    struct Household: CustomStringConvertible {
        var seed: UInt64
        var ledger: Ledger
        var today: Day
        var horizon: Day
        var asked: Int

        var description: String {
            "seed \(seed): \(ledger.cards[0].terms.payback), limit \(ledger.cards[0].terms.limit), \(ledger.cards[0].terms.grace), "
                + "today \(today), horizon \(horizon), asked day \(asked)"
        }

        /// With `full`, a second card paid back in full from the bank, and small limits on both
        /// (the brute force then tries every pair of parts).
        /// With `repaid` as well, that second card is paid back by a minimum or fixed amount too.
        init(seed: UInt64, full: Bool = false, repaid: Bool = false) throws {
            var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 11)
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
            func money(_ minor: Int) -> Money { Money(minor: Int64(minor), currency: rub) }
            self.seed = seed
            let outside = int(0...3) == 0
            let accounts = [
                Account(id: "bank", name: "Bank", kind: .debit, currency: rub, floor: [0, 0, 100, 300][int(0...3)]),
                Account(id: "cash", name: "Cash", kind: .cash, currency: rub),
                Account(id: "card", name: "Card", kind: .creditCard, currency: rub),
                Account(id: "full", name: "Full Card", kind: .creditCard, currency: rub),
                Account(id: "savings", name: "Savings", kind: .deposit, currency: rub),
                Account(id: "salary", name: "Salary", kind: .income, currency: rub),
                Account(id: "rent", name: "Rent", kind: .expense, currency: rub),
                Account(id: "shop", name: "Shop", kind: .expense, currency: rub),
                Account(id: "interest", name: "Interest", kind: .expense, currency: rub),
                Account(id: "capital", name: "Capital", kind: .equity, currency: rub),
            ]
            let start = try Day(iso: "2025-01-01").advanced(by: int(0...300))
            today = start.advanced(by: int(20...50))
            horizon = today.advanced(by: int(40...130))
            let limit = repaid ? int(40...150) : full ? int(150...400) : int(800...2_500)
            let bank = int(0...2_000)
            let cash = int(0...300)
            let savings = int(0...3_000)
            // Sometimes in credit (a refund, an overpayment): a purchase first takes that.
            let debt = int(0...3) == 0 ? -int(0...300) : int(0...limit / (repaid ? 4 : 2))
            func schedule(_ id: String, _ rule: String, _ minor: Int, to: String, from: String) throws -> Schedule {
                Schedule(
                    id: id, name: id, postings: [Posting(accountID: to, amount: money(minor)), Posting(accountID: from, amount: money(-minor))],
                    rule: try Rule(parsing: rule), start: start)
            }
            ledger = Ledger(
                currency: rub, accounts: accounts,
                transactions: [
                    Transaction(
                        id: "open", day: start,
                        postings: [
                            Posting(accountID: "bank", amount: money(bank)), Posting(accountID: "cash", amount: money(cash)),
                            Posting(accountID: "savings", amount: money(savings)), Posting(accountID: "card", amount: money(-debt)),
                            Posting(accountID: "capital", amount: money(debt - bank - cash - savings)),
                        ])
                ],
                schedules: [
                    try schedule("salary", "monthly on \(int(1...28))", int(600...2_000), to: "bank", from: "salary"),
                    try schedule("rent", "monthly on \(int(1...28))", int(300...1_600), to: "rent", from: "bank"),
                    try schedule(
                        "shop", repaid ? "monthly on \(int(1...28))" : ["weekly on mon", "monthly on \(int(1...28))"][int(0...1)],
                        repaid ? int(1...8) : int(20...200), to: "shop", from: "card"),
                ])
            let payback: CardPayback =
                int(0...2) == 0
                ? .fixed(Int64(int(50...600))) : .minimum(percent: Rate(perMillion: Int64(int(3...30)) * 10_000), floor: Int64(int(0...150)))
            let statementDay = int(1...31)
            let dueDay = (statementDay + int(1...29) - 1) % 31 + 1
            let terms = try CreditCard(
                limit: Int64(limit), statementDay: statementDay, due: int(0...1) == 0 ? .daysAfterStatement(int(5...25)) : .dayOfMonth(dueDay),
                payback: payback, rate: Rate(perMillion: Int64(int(15...90)) * 10_000), grace: int(0...1) == 0 ? .keep : .lose)
            ledger.cards = [
                LedgerCard(id: "c", accountID: "card", payFromID: outside ? "savings" : "bank", interestCategoryID: "interest", terms: terms)
            ]
            asked = int(0...1) == 0 ? 0 : int(0...horizon.number - today.number)
            if full {
                let second: CardPayback =
                    !repaid
                    ? .full
                    : int(0...1) == 0
                        ? .fixed(Int64(int(5...30))) : .minimum(percent: Rate(perMillion: Int64(int(5...30)) * 10_000), floor: Int64(int(0...10)))
                let terms = try CreditCard(
                    limit: Int64(repaid ? int(40...120) : int(20...60)), statementDay: int(1...28), due: .daysAfterStatement(int(5...25)),
                    payback: second, rate: Rate(perMillion: repaid ? Int64(int(15...90)) * 10_000 : 0), grace: int(0...1) == 0 ? .keep : .lose)
                ledger.cards.append(LedgerCard(id: "f", accountID: "full", payFromID: "bank", interestCategoryID: "interest", terms: terms))
                ledger.schedules.append(
                    try schedule("shop2", "monthly on \(int(1...28))", repaid ? int(1...5) : int(5...30), to: "shop", from: "full"))
            }
        }

        /// The forecast of `ledger` with `extra` spent on the card, and from the pool (the bank), on the asked day.
        func forecast(card extra: Int64 = 0, pool: Int64 = 0, full: Int64 = 0) throws -> (Ledger, Timeline) {
            var spent = ledger
            let day = today.advanced(by: asked)
            for (account, amount) in [("card", extra), ("bank", pool), ("full", full)] where amount > 0 {
                spent.transactions.append(
                    Transaction(
                        id: "spend-\(account)", day: day,
                        postings: [
                            Posting(accountID: account, amount: Money(minor: -amount, currency: rub)),
                            Posting(accountID: "shop", amount: Money(minor: amount, currency: rub)),
                        ]))
            }
            let forecast = try spent.forecastLedger(today: today, horizon: horizon, calendars: [:])
            return (forecast, try Timeline.build(forecast, today: today, horizon: horizon, calendars: [:]))
        }

        /// The engine's answer on the asked day at level 4.
        func answer(card: Int64 = 0, pool: Int64 = 0, full: Int64 = 0) throws -> Availability.Answer {
            let (forecast, timeline) = try forecast(card: card, pool: pool, full: full)
            let availability = try Availability(
                timeline, level: 4, cards: forecast.cards, defaultAccountID: "bank",
                repayments: forecast.cardRepayments(today: today, horizon: horizon, calendars: [:], .pessimistic))
            return try #require(availability.canSpend(on: today.advanced(by: asked)))
        }

        /// What the pool can still pay after `x` on the card (nil when the card or the pool is
        /// past its limit or floor), read off the forecast with `x` spent.
        func poolRoom(afterCard x: Int64, base: [Int64], full y: Int64 = 0, fullBase: [Int64] = []) throws -> Int64? {
            let (forecast, timeline) = try forecast(card: x, full: y)
            func series(_ id: String) -> [Int64] {
                let index = timeline.accounts.firstIndex { $0.id == id }!
                return Array(timeline.balances(ofAccountAt: index, .pessimistic))
            }
            let card = series("card")
            let limit = forecast.cards[0].terms.limit
            // A card over its limit already takes nothing; it still lets the pool pay.
            guard x == 0 || card[asked...].allSatisfy({ $0 >= -limit }) else { return nil }
            let floor = forecast.accounts.first { $0.id == "bank" }!.floor ?? 0
            let pool = zip(series("bank"), series("cash")).map { $0 + $1 - floor }
            // The second card: within its limit; paid in full, what its payback after the horizon
            // leaves owed is paid on the last day; paid over time, nothing more.
            var secondCharge: Int64 = 0
            if forecast.cards.count > 1 {
                let second = series("full")
                guard y == 0 || second[asked...].allSatisfy({ $0 >= -forecast.cards[1].terms.limit }) else { return nil }
                secondCharge = forecast.cards[1].terms.payback == .full ? fullBase.last! - second.last! : 0
            }
            let paidFromPool = forecast.cards[0].payFromID == "bank"
            if !paidFromPool && x > 0 {
                // Paid from savings, outside the level: savings must pay what the purchase adds
                // (on the days it changes them).
                let (_, plain) = try self.forecast()
                let before = Array(plain.balances(ofAccountAt: plain.accounts.firstIndex { $0.id == "savings" }!, .pessimistic))
                let savings = series("savings")
                for t in asked..<savings.count where savings[t] != before[t] && savings[t] < 0 { return nil }
            }
            // A full card's purchase whose payback falls after the horizon is paid on its last day.
            let room = min(pool[asked...].min()!, pool.last! - secondCharge)
            return room >= 0 ? room : nil
        }

        /// The brute force: the best total over every card part, and the least card part reaching it.
        func brute() throws -> (total: Int64, card: Int64, shortfall: Bool) {
            let (_, timeline) = try forecast()
            let base = Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == "card" }!, .pessimistic))
            guard let alone = try poolRoom(afterCard: 0, base: base) else { return (0, 0, true) }
            var best = (total: alone, card: Int64(0), shortfall: false)
            // The card's room on the day: no part above it fits.
            let most = base[asked] + ledger.cards[0].terms.limit
            guard most > 0 else { return best }
            for x in 1...most {
                guard let room = try poolRoom(afterCard: x, base: base) else { continue }
                if x + room > best.total { best = (x + room, x, false) }
            }
            return best
        }
    }

    @Test("the answer is the brute force's best, on every minor unit", arguments: 0..<48)
    func againstBruteForce(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let answer = try household.answer()
        let brute = try household.brute()
        #expect(answer.amount == brute.total, "\(household)")
        #expect((answer.shortfall > 0) == brute.shortfall, "\(household)")
        guard answer.amount > 0 else { return }
        let card = answer.parts.first { $0.isCard }?.amount ?? 0
        let pool = answer.parts.first { !$0.isCard }?.amount ?? 0
        #expect(card + pool == answer.amount, "\(household)")
        #expect(card == brute.card, "\(household): ties go to the least on the card")
        // Spent for real, the split keeps every account within its floor or limit, and the pool
        // has nothing left for a minor unit more.
        let (_, timeline) = try household.forecast()
        let base = Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == "card" }!, .pessimistic))
        let room = try #require(try household.poolRoom(afterCard: card, base: base), "\(household): the card's part breaks a limit")
        #expect(room >= pool, "\(household): the pool's part does not fit")
        #expect(room == pool, "\(household): the pool could pay more")
        // And the engine, asked again once the split is spent, has nothing more to offer.
        let after = try household.answer(card: card, pool: pool)
        #expect(after.amount == 0 && after.shortfall == 0, "\(household): after the split, \(after.amount) more (short \(after.shortfall))")
    }

    @Test("with a card paid in full beside it, the answer is the best of every pair of parts", arguments: 0..<8)
    func besideFullCard(seed: UInt64) throws {
        let household = try Household(seed: seed, full: true)
        let answer = try household.answer()
        let best = try household.bruteOverPairs()
        #expect(answer.amount == max(0, best), "\(household)")
    }

    @Test("with two cards paid over time, the answer is the best of every pair of parts", arguments: 0..<8)
    func twoPaidOverTime(seed: UInt64) throws {
        let household = try Household(seed: seed, full: true, repaid: true)
        let answer = try household.answer()
        let best = try household.bruteOverPairs()
        #expect(answer.amount == max(0, best), "\(household)")
        guard answer.amount > 0 else { return }
        // Spent for real, the parts fit and nothing more can be spent.
        let parts = answer.parts.map(\.amount)
        let after = try household.answer(card: parts[1], pool: parts[0], full: parts[2])
        #expect(after.amount == 0 && after.shortfall == 0, "\(household): after the split, \(after.amount) more")
    }

    @Test("a purchase paid off before the pool's lowest day adds nothing, and the search says so at once")
    func paidOffBeforeTheLowDay() throws {
        // The pool has 1 000 000.00 for 60 days, then 100 000 000.00. A purchase today joins the
        // 01-10 statement and is paid off on 01-15 by a fixed 5 000 000.00: whatever goes on the
        // card leaves the pool before its lowest days, so every part gives the same 1 000 000.00.
        // Bounds that did not see the purchase paid off would try every one of those 10^8 parts.
        let today = try Day(iso: "2026-01-01")
        let terms = try CreditCard(
            limit: 1_000_000_000, statementDay: 10, due: .daysAfterStatement(5), payback: .fixed(500_000_000), rate: Rate(perMillion: 240_000))
        let inputs = CardCycleInputs(terms: terms, opening: 0, flows: [], from: today, today: today, through: today.advanced(by: 119))
        let pool = [Int64](repeating: 100_000_000, count: 60) + [Int64](repeating: 10_000_000_000, count: 60)
        let card = CardConstraint(
            account: 1, headroom: [Int64](repeating: 1_000_000_000, count: 120), terms: terms, counting: .paidOverTime, payFrom: 0,
            repayment: CardRepayment(inputs), repaidFromPool: true)
        let split = SplitAvailability(pool: pool, cards: [card], today: today)
        let solution = split.solve(at: 0)
        #expect(solution.total == 100_000_000)
        #expect(solution.parts.map(\.amount) == [100_000_000, 0])
        #expect(split.firstIndex(toSpend: 100_000_000, poolSuffix: SuffixMinimum(pool)) == 0)
        // A minor unit more from 02-11 on: bought then, it joins the 03-10 statement, paid on 03-15
        // when the pool has its 100 000 000.00 (bought on 02-10, the statement day, it is paid on 02-15).
        #expect(split.firstIndex(toSpend: 100_000_001, poolSuffix: SuffixMinimum(pool)) == 41)
    }

    @Test("when: the first day from which an amount stays affordable, as every day's answer says", arguments: 0..<12)
    func when(seed: UInt64) throws {
        let household = try Household(seed: seed)
        let (forecast, timeline) = try household.forecast()
        let availability = try Availability(
            timeline, level: 4, cards: forecast.cards, defaultAccountID: "bank",
            repayments: forecast.cardRepayments(today: household.today, horizon: household.horizon, calendars: [:], .pessimistic))
        let split = SplitAvailability(pool: availability.headroom, cards: availability.cards, today: household.today)
        let lowest = split.lowestFromEachDay()
        // Round amounts, and each day's own answer and a minor unit more (where the day moves).
        let answers = stride(from: 0, to: lowest.values.count, by: 5).flatMap { [lowest.values[$0], lowest.values[$0] + 1] }
        for amount in [Int64(1), 200, 700, 1_500, 3_000] + answers {
            let expected = lowest.firstIndex(atLeast: amount).map { household.today.advanced(by: $0) }
            #expect(availability.firstDay(toSpend: amount) == expected, "\(household): \(amount)")
        }
    }

    @Test("a card paid over time from the pool adds what its repayments leave: the card of the docs")
    func worked() throws {
        // Bank 100 000 on 2026-12-01, rent 55 000 on the 1st, salary 60 000 on the 10th; a card
        // with a limit of 100 000, statements on the 25th due 20 days later, 10 % minimum with a
        // floor of 500, 24 % a year. Alone the bank can pay 45 000 today (the rent of 01-01
        // falls before the salary). On the card, a purchase is paid by minimums, the rest at the
        // horizon: far more fits.
        let household = try Self.worked(payback: .minimum(percent: Rate(perMillion: 100_000), floor: 500))
        let answer = try household.answer()
        let brute = try household.brute(step: 500)
        #expect(answer.amount >= brute.total)
        #expect(answer.amount > 45_000)
        let card = try #require(answer.parts.first { $0.isCard })
        #expect(card.amount > 0)
        #expect(card.payback == (try Day(iso: "2027-01-14")))
    }

    /// The docs' household over one year (`worked`), to check by a coarse brute force.
    static func worked(payback: CardPayback) throws -> Household {
        var household = try Household(seed: 0)
        let today = try Day(iso: "2026-12-01")
        household.today = today
        household.horizon = try Day(iso: "2027-03-31")
        household.asked = 0
        func money(_ minor: Int64) -> Money { Money(minor: minor, currency: rub) }
        func schedule(_ id: String, _ rule: String, _ minor: Int64, to: String, from: String) throws -> Schedule {
            Schedule(
                id: id, name: id, postings: [Posting(accountID: to, amount: money(minor)), Posting(accountID: from, amount: money(-minor))],
                rule: try Rule(parsing: rule), start: today)
        }
        household.ledger.accounts[0].floor = nil
        household.ledger.transactions = [
            Transaction(
                id: "open", day: today.advanced(by: -10),
                postings: [Posting(accountID: "bank", amount: money(100_000)), Posting(accountID: "capital", amount: money(-100_000))])
        ]
        household.ledger.schedules = [
            try schedule("salary", "monthly on 10", 60_000, to: "bank", from: "salary"),
            try schedule("rent", "monthly on 1", 55_000, to: "rent", from: "bank"),
        ]
        household.ledger.cards = [
            LedgerCard(
                id: "c", accountID: "card", payFromID: "bank", interestCategoryID: "interest",
                terms: try CreditCard(
                    limit: 100_000, statementDay: 25, due: .daysAfterStatement(20), payback: payback, rate: Rate(perMillion: 240_000)))
        ]
        return household
    }
}

extension RepaidCardTests.Household {
    /// With a second card: the best total over every pair of parts on the two cards (−1 when the pool is short).
    func bruteOverPairs() throws -> Int64 {
        let (_, timeline) = try forecast()
        func series(_ id: String) -> [Int64] { Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == id }!, .pessimistic)) }
        let base = series("card")
        let secondBase = series("full")
        var best: Int64 = -1
        let most = base[asked] + ledger.cards[0].terms.limit
        let mostSecond = secondBase[asked] + ledger.cards[1].terms.limit
        for y in 0...max(0, mostSecond) {
            for x in 0...max(0, most) {
                guard let room = try poolRoom(afterCard: x, base: base, full: y, fullBase: secondBase) else { continue }
                best = max(best, x + y + room)
            }
        }
        return best
    }

    /// The brute force on a grid of `step` minor units (for amounts too large to try each).
    func brute(step: Int64) throws -> (total: Int64, card: Int64) {
        let (_, timeline) = try forecast()
        let base = Array(timeline.balances(ofAccountAt: timeline.accounts.firstIndex { $0.id == "card" }!, .pessimistic))
        var best = (total: try poolRoom(afterCard: 0, base: base) ?? 0, card: Int64(0))
        let most = base[asked] + ledger.cards[0].terms.limit
        for x in stride(from: step, through: most, by: Int(step)) {
            guard let room = try poolRoom(afterCard: x, base: base) else { continue }
            if x + room > best.total { best = (x + room, x) }
        }
        return best
    }
}
