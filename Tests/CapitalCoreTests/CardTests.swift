import Testing

@testable import CapitalCore

@Suite("Credit cards: statement cycles worked by hand, bad terms, a naive day-by-day reference")
struct CardTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static func days(_ texts: String...) -> [Day] { texts.map(day) }
    static func flow(_ text: String, _ amount: Int64) -> CardFlow { CardFlow(day: day(text), amount: amount) }

    /// Statement on the 25th, due on the 15th of the next month, 24 % a year.
    static func card(_ payback: CardPayback, grace: CardGrace = .keep) -> CreditCard {
        try! CreditCard(limit: 10_000_000, statementDay: 25, due: .dayOfMonth(15), payback: payback, rate: Rate(perMillion: 240_000), grace: grace)
    }

    /// Four purchases up to and on the 25 March statement, one just after it.
    static let smallMonth = [
        flow("2025-03-01", -12_000), flow("2025-03-10", -4_550), flow("2025-03-18", -30_000), flow("2025-03-25", -999),
        flow("2025-03-28", -2_000),
    ]
    /// 34 567.90 spent in March, 500.00 more on 2 April.
    static let bigMonth = [
        flow("2025-03-03", -1_200_000), flow("2025-03-12", -2_000_000), flow("2025-03-20", -256_790), flow("2025-04-02", -50_000),
    ]
    static let minimum = CardPayback.minimum(percent: Rate(perMillion: 50_000), floor: 100_000)

    // MARK: - Cycles worked by hand

    /// 25 March: 120.00 + 45.50 + 300.00 + 9.99 (on the statement day itself) = 475.49 owed,
    /// paid in full on 15 April. The 20.00 of 28 March and the 10.00 of 25 April (again on the
    /// statement day) are the 25 April statement's: 30.00, paid on 15 May. Nothing is carried,
    /// so no interest; the 25 May statement is due after the window.
    @Test func aFullPaybackClearsEachStatementWithoutInterest() {
        let cycles = Self.card(.full).cycles(
            opening: 0, flows: Self.smallMonth + [Self.flow("2025-04-25", -1_000)], from: Self.day("2025-02-26"), today: Self.day("2025-02-26"),
            through: Self.day("2025-05-31"))
        #expect(cycles.map(\.statement) == Self.days("2025-03-25", "2025-04-25", "2025-05-25"))
        #expect(cycles.map(\.due) == Self.days("2025-04-15", "2025-05-15", "2025-06-15"))
        #expect(cycles.map(\.debt) == [47_549, 3_000, 0])
        #expect(cycles.map(\.payback) == [47_549, 3_000, 0])
        #expect(cycles.map(\.interest) == [0, 0, 0])
        #expect(cycles.map(\.carried) == [0, 0, 0])
    }

    /// The minimum is 5 % with a floor of 1 000.00, at 24 % a year:
    ///
    /// - 25 Mar: 12 000.00 + 20 000.00 + 2 567.90 = 34 567.90 owed; 5 % is 1 728.395 → 1 728.40
    ///   (half up), over the floor, paid on 15 Apr: 32 839.50 carried.
    /// - 25 Apr: 10 days from the due day: 3 283 950 × 0.24 × 10 / 365 = 21 593.0958… → 21 593
    ///   interest; owed 3 283 950 + 50 000 (2 Apr) + 21 593 = 3 355 543; 5 % is 167 777.15 →
    ///   167 777 paid on 15 May, 3 187 766 carried.
    /// - 25 May: 3 187 766 × 0.24 × 10 / 365 = 20 960.653… → 20 961; owed 3 208 727, due on
    ///   15 June, after the window: nothing paid, all of it carried.
    @Test func aMinimumPaybackCarriesTheRestAndChargesInterestFromTheDueDay() {
        let cycles = Self.card(Self.minimum).cycles(
            opening: 0, flows: Self.bigMonth, from: Self.day("2025-02-26"), today: Self.day("2025-02-26"), through: Self.day("2025-05-31"))
        #expect(cycles.map(\.debt) == [3_456_790, 3_355_543, 3_208_727])
        #expect(cycles.map(\.payback) == [172_840, 167_777, 0])
        #expect(cycles.map(\.carried) == [3_283_950, 3_187_766, 3_208_727])
        #expect(cycles.map(\.interest) == [0, 21_593, 20_961])
    }

    /// `max(debt × percent, floor)`, never more than the debt: 5 % of 34 567.90 is 1 728.395 →
    /// 1 728.40; 5 % of 15 000.00 is 750.00, under the 1 000.00 floor; a 600.00 debt is under it.
    @Test(arguments: [
        (Int64(3_456_790), Int64(172_840)), (1_500_000, 100_000), (60_000, 60_000), (0, 0), (2_000_010, 100_001), (2_000_009, 100_000),
    ])
    func theMinimumIsAShareWithAFloorButNeverMoreThanTheDebt(debt: Int64, expected: Int64) {
        #expect(Self.minimum.amount(for: debt) == expected)
    }

    /// A fixed 1 500.00 of the 34 567.90: 33 067.90 carried, 3 306 790 × 0.24 × 10 / 365 =
    /// 21 743.27… → 21 743 interest, 3 306 790 + 50 000 + 21 743 = 3 378 533 owed on 25 April.
    /// A fixed 1 000.00 pays a 475.49 statement in full.
    @Test func aFixedPaybackPaysItsAmountOrTheWholeDebtWhenLess() {
        let from = Self.day("2025-02-26")
        let big = Self.card(.fixed(150_000)).cycles(opening: 0, flows: Self.bigMonth, from: from, today: from, through: Self.day("2025-04-30"))
        #expect(big.map(\.payback) == [150_000, 0])
        #expect(big.map(\.carried) == [3_306_790, 3_378_533])
        #expect(big.map(\.interest) == [0, 21_743])
        #expect(big.map(\.debt) == [3_456_790, 3_378_533])
        let small = Self.card(.fixed(100_000)).cycles(opening: 0, flows: Self.smallMonth, from: from, today: from, through: Self.day("2025-04-30"))
        #expect(small.map(\.payback) == [47_549, 0])
        #expect(small.map(\.carried) == [0, 2_000])
    }

    /// A skipped payback pays nothing: the whole 34 567.90 is carried, paying 3 456 790 × 0.24 ×
    /// 10 / 365 = 22 729.58… → 22 730 interest to 25 April, owed 3 456 790 + 50 000 + 22 730 =
    /// 3 529 520; the next statement's payback is asked as usual.
    /// Issue 50, item 5.1: an overdue rest keeps costing interest until the day it is paid.
    /// 50 000.00 spent on 20 March is the 25 March statement, due 15 April, not paid; the 25 April
    /// statement is history. Paid today, 1 May (before the 25 April statement's due day): the rest
    /// was carried from 25 April to 1 May, 6 days: 5 000 000 × 0.24 × 6 / 365 = 19 726.027… →
    /// 19 726, charged at the 25 May statement (nothing was charged before).
    @Test func anOverdueRestPaidTodayCostsInterestUntilToday() {
        let cycles = Self.card(.full).cycles(
            opening: 0, flows: [Self.flow("2025-03-20", -5_000_000)], from: Self.day("2025-02-26"), today: Self.day("2025-05-01"),
            through: Self.day("2025-06-30"), overdue: Self.flow("2025-05-01", 5_000_000))
        #expect(cycles.map(\.statement) == Self.days("2025-03-25", "2025-04-25", "2025-05-25", "2025-06-25"))
        #expect(cycles.map(\.interest) == [0, 0, 19_726, 0])
        // Paid after its own due day (spent 2 April, statement 25 April, due 15 May, paid 20 May):
        // 5 days from the due day, not the 10 to the next statement: 16 438.356… → 16 438.
        let late = Self.card(.full).cycles(
            opening: 0, flows: [Self.flow("2025-04-02", -5_000_000)], from: Self.day("2025-03-26"), today: Self.day("2025-05-20"),
            through: Self.day("2025-06-30"), overdue: Self.flow("2025-05-20", 5_000_000))
        #expect(late.map(\.statement) == Self.days("2025-04-25", "2025-05-25", "2025-06-25"))
        #expect(late.map(\.interest) == [0, 16_438, 0])
        // Not paid at all, it costs the 10 days to the next statement: 32 876.71… → 32 877.
        let unpaid = Self.card(.full).cycles(
            opening: 0, flows: [Self.flow("2025-04-02", -5_000_000)], from: Self.day("2025-03-26"), today: Self.day("2025-05-20"),
            through: Self.day("2025-06-30"))
        #expect(unpaid.map(\.interest) == [0, 32_877, 0])
    }

    @Test func aSkippedPaybackCarriesTheWholeStatement() {
        let from = Self.day("2025-02-26")
        let cycles = Self.card(.fixed(150_000)).cycles(
            opening: 0, flows: Self.bigMonth, from: from, today: from, through: Self.day("2025-05-31"), skipped: [Self.day("2025-03-25")])
        #expect(cycles.map(\.statement) == [Self.day("2025-03-25"), Self.day("2025-04-25"), Self.day("2025-05-25")])
        #expect(cycles[0].payback == 0 && cycles[0].carried == 3_456_790)
        #expect(cycles[1].interest == 22_730 && cycles[1].debt == 3_529_520 && cycles[1].payback == 150_000)
    }

    /// Losing the grace: the 34 567.90 statement is not paid in full, so it pays interest for
    /// the 21 days from 25 March to 15 April as well as the carried 32 839.50 for the 10 days to
    /// 25 April: (3 283 950 × 10 + 3 456 790 × 21) × 0.24 / 365 = 105 432 090 × 0.24 / 365 =
    /// 69 325.209… → 69 325; owed 3 283 950 + 50 000 + 69 325 = 3 403 275. Paid in full, the
    /// same statement pays no interest at all.
    @Test func losingTheGraceChargesTheWholeStatementFromItsDay() {
        let from = Self.day("2025-02-26")
        let cycles = Self.card(Self.minimum, grace: .lose).cycles(
            opening: 0, flows: Self.bigMonth, from: from, today: from, through: Self.day("2025-04-30"))
        #expect(cycles.map(\.interest) == [0, 69_325])
        #expect(cycles.map(\.debt) == [3_456_790, 3_403_275])
        let paid = Self.card(.full, grace: .lose).cycles(opening: 0, flows: Self.bigMonth, from: from, today: from, through: Self.day("2025-04-30"))
        #expect(paid.map(\.interest) == [0, 0])
        #expect(paid.map(\.debt) == [3_456_790, 50_000])
    }

    /// At 36.5 % a year a day costs a thousandth. 15.00 owed on 25 March, 14.50 paid on 15 April:
    /// 0.50 carried 10 days is 0.5 minor units, 15.00 for 21 days 31.5. Rounded once the sum is
    /// 32; rounding each part first would give 1 + 32 = 33.
    @Test func theInterestIsOneExactFractionRoundedOnce() throws {
        let card = try CreditCard(
            limit: 100_000, statementDay: 25, due: .dayOfMonth(15), payback: .fixed(1_450), rate: Rate(parsing: "36.5"), grace: .lose)
        let cycles = card.cycles(
            opening: 0, flows: [Self.flow("2025-03-10", -1_500)], from: Self.day("2025-03-01"), today: Self.day("2025-03-01"),
            through: Self.day("2025-04-25"))
        #expect(cycles.map(\.carried) == [50, 82])
        #expect(cycles.map(\.interest) == [0, 32])
        #expect(
            card.interest(debt: 1_500, carried: 50, statement: Self.day("2025-03-25"), due: Self.day("2025-04-15"), next: Self.day("2025-04-25"))
                == 32)
        // Keeping the grace, the 0.50 carried costs 0.5 minor units, which rounds half up to 1.
        var keep = card
        keep.grace = .keep
        #expect(
            keep.interest(debt: 1_500, carried: 50, statement: Self.day("2025-03-25"), due: Self.day("2025-04-15"), next: Self.day("2025-04-25")) == 1
        )
        #expect(
            keep.cycles(
                opening: 0, flows: [Self.flow("2025-03-10", -1_500)], from: Self.day("2025-03-01"), today: Self.day("2025-03-01"),
                through: Self.day("2025-04-25")
            ).map(\.interest) == [0, 1])
    }

    /// A payment of 1 000.00 on 5 April counts towards the 1 728.40 minimum: capital pays
    /// 728.40 more and 32 839.50 is carried as before. 2 000.00 covers the minimum: nothing is
    /// generated, 32 567.90 carried. Towards a full payback, 400.00 paid leaves 75.49 to generate.
    @Test func aPaymentBeforeTheDueDayReducesThePayback() {
        let from = Self.day("2025-02-26")
        let last = Self.day("2025-04-20")
        let some = Self.card(Self.minimum).cycles(
            opening: 0, flows: Self.bigMonth + [Self.flow("2025-04-05", 100_000)], from: from, today: from, through: last)
        #expect(some.map(\.payback) == [72_840])
        #expect(some.map(\.carried) == [3_283_950])
        let more = Self.card(Self.minimum).cycles(
            opening: 0, flows: Self.bigMonth + [Self.flow("2025-04-05", 200_000)], from: from, today: from, through: last)
        #expect(more.map(\.payback) == [0])
        #expect(more.map(\.carried) == [3_256_790])
        let full = Self.card(.full).cycles(
            opening: 0, flows: Self.smallMonth + [Self.flow("2025-04-15", 40_000)], from: from, today: from, through: last)
        #expect(full.map(\.payback) == [7_549])
        #expect(full.map(\.carried) == [0])
    }

    /// A refund after the statement counts like a payment: 300.00 back on 1 April leaves
    /// 475.49 − 300.00 = 175.49 of the minimum (the 1 000.00 floor, capped at the 475.49 debt).
    @Test func aRefundAfterTheStatementCountsLikeAPayment() {
        let from = Self.day("2025-02-26")
        let flows = Self.smallMonth.filter { $0.day <= Self.day("2025-03-25") } + [Self.flow("2025-04-01", 30_000)]
        let cycles = Self.card(Self.minimum).cycles(opening: 0, flows: flows, from: from, today: from, through: Self.day("2025-04-30"))
        #expect(cycles.map(\.payback) == [17_549, 0])
        #expect(cycles.map(\.carried) == [0, 0])
        #expect(cycles.map(\.debt) == [47_549, 0])
    }

    /// A card in credit owes nothing: 100.00 in credit, 75.00 spent.
    @Test func aCardInCreditOwesNothing() {
        let cycles = Self.card(.full).cycles(
            opening: 10_000, flows: [Self.flow("2025-03-05", -7_500)], from: Self.day("2025-03-01"), today: Self.day("2025-03-01"),
            through: Self.day("2025-04-30"))
        #expect(cycles.map(\.debt) == [0, 0])
        #expect(cycles.map(\.payback) == [0, 0])
    }

    /// The 31st is the last day of every month, 29 February in a leap year; the 30th is 28
    /// February in a common one.
    @Test func statementDay31FallsOnEveryMonthsLastDay() throws {
        let card = try CreditCard(limit: 100_000, statementDay: 31, due: .daysAfterStatement(20), payback: .full, rate: Rate(perMillion: 0))
        let cycles = card.cycles(opening: 0, flows: [], from: Self.day("2024-01-01"), today: Self.day("2024-01-01"), through: Self.day("2024-06-30"))
        #expect(cycles.map(\.statement) == Self.days("2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30"))
        #expect(card.statement(onOrBefore: Self.day("2025-03-15")) == Self.day("2025-02-28"))
        #expect(card.statement(onOrBefore: Self.day("2024-02-29")) == Self.day("2024-02-29"))
        #expect(card.statement(onOrBefore: Self.day("2024-02-28")) == Self.day("2024-01-31"))
        #expect(card.statement(after: Self.day("2024-02-29")) == Self.day("2024-03-31"))
        #expect(card.statement(after: Self.day("2024-12-31")) == Self.day("2025-01-31"))
        var thirtieth = card
        thirtieth.statementDay = 30
        #expect(thirtieth.statement(after: Self.day("2025-01-30")) == Self.day("2025-02-28"))
        #expect(thirtieth.statement(after: Self.day("2025-02-28")) == Self.day("2025-03-30"))
    }

    /// Due days across month and year ends: `(statement day, due, statement, expected due)`.
    @Test(arguments: [
        (31, CardDue.daysAfterStatement(20), "2025-01-31", "2025-02-20"),
        (31, .daysAfterStatement(20), "2025-02-28", "2025-03-20"),
        (31, .daysAfterStatement(20), "2024-12-31", "2025-01-20"),
        (25, .daysAfterStatement(27), "2025-01-25", "2025-02-21"),
        (25, .dayOfMonth(15), "2024-12-25", "2025-01-15"),
        (5, .dayOfMonth(31), "2025-02-05", "2025-02-28"),
        (5, .dayOfMonth(31), "2024-02-05", "2024-02-29"),
        (5, .dayOfMonth(31), "2025-04-05", "2025-04-30"),
        (31, .dayOfMonth(1), "2024-12-31", "2025-01-01"),
        (10, .dayOfMonth(30), "2025-02-10", "2025-02-28"),
        (30, .dayOfMonth(10), "2025-02-28", "2025-03-10"),
        (28, .dayOfMonth(29), "2025-01-28", "2025-01-29"),
        (28, .dayOfMonth(29), "2024-02-28", "2024-02-29"),
    ])
    func dueDaysCrossMonthEnds(statementDay: Int, due: CardDue, statement: String, expected: String) throws {
        let card = try CreditCard(limit: 100_000, statementDay: statementDay, due: due, payback: .full, rate: Rate(perMillion: 0))
        #expect(card.statement(onOrBefore: Self.day(statement)) == Self.day(statement))
        #expect(card.dueDay(forStatement: Self.day(statement)) == Self.day(expected))
    }

    /// A due day of the month that would land on or after the next statement in a short month
    /// moves to the day before that statement: on the 31st due the 28th, 31 January's next
    /// statement is 28 February itself; on the 28th due the 29th, 28 February 2025's first
    /// 29th is 29 March, after the 28 March statement.
    @Test(arguments: [
        (31, 28, "2025-01-31", "2025-02-27"), (31, 28, "2025-03-31", "2025-04-28"), (28, 29, "2025-02-28", "2025-03-27"),
        (30, 31, "2025-04-30", "2025-05-29"), (30, 29, "2025-01-30", "2025-02-27"),
    ])
    func aDueDayReachingTheNextStatementMovesBeforeIt(statementDay: Int, dueDay: Int, statement: String, expected: String) throws {
        let card = try CreditCard(limit: 100_000, statementDay: statementDay, due: .dayOfMonth(dueDay), payback: .full, rate: Rate(perMillion: 0))
        #expect(card.dueDay(forStatement: Self.day(statement)) == Self.day(expected))
        #expect(card.dueDay(forStatement: Self.day(statement)) < card.statement(after: Self.day(statement)))
    }

    /// Today on 20 April, with 2 000.00 really paid on 14 April: the 25 March statement's due
    /// day has passed, so nothing is generated and 34 567.90 − 2 000.00 = 32 567.90 is carried;
    /// the 25 April statement is still to come and charges 3 256 790 × 0.24 × 10 / 365 =
    /// 21 414.509… → 21 415, owing 3 256 790 + 50 000 + 21 415 = 3 328 205, whose minimum of
    /// 166 410.25 → 166 410 is paid on 15 May. With today on 26 April that statement has passed
    /// too: no interest, 3 306 790 owed, 165 339.5 → 165 340 paid.
    @Test func theDaysBeforeTodayGenerateNothing() {
        let flows = Self.bigMonth + [Self.flow("2025-04-14", 200_000)]
        let (from, last) = (Self.day("2025-02-26"), Self.day("2025-05-20"))
        let mid = Self.card(Self.minimum).cycles(opening: 0, flows: flows, from: from, today: Self.day("2025-04-20"), through: last)
        #expect(mid.map(\.payback) == [0, 166_410])
        #expect(mid.map(\.carried) == [3_256_790, 3_328_205 - 166_410])
        #expect(mid.map(\.interest) == [0, 21_415])
        #expect(mid.map(\.debt) == [3_456_790, 3_328_205])
        let later = Self.card(Self.minimum).cycles(opening: 0, flows: flows, from: from, today: Self.day("2025-04-26"), through: last)
        #expect(later.map(\.interest) == [0, 0])
        #expect(later.map(\.debt) == [3_456_790, 3_306_790])
        #expect(later.map(\.payback) == [0, 165_340])
        // A statement that is today still charges interest; a due day that is today is still paid.
        let onTheStatement = Self.card(Self.minimum).cycles(opening: 0, flows: flows, from: from, today: Self.day("2025-04-25"), through: last)
        #expect(onTheStatement.map(\.interest) == [0, 21_415])
        let onTheDay = Self.card(Self.minimum).cycles(opening: 0, flows: Self.bigMonth, from: from, today: Self.day("2025-04-15"), through: last)
        #expect(onTheDay.first?.payback == 172_840)
    }

    /// A statement before the window is not the engine's: its due day generates nothing and the
    /// first statement in the window charges no interest. A cycle due after the window pays
    /// nothing and carries what the real credits up to `last` leave.
    @Test func theWindowBoundsWhatIsGenerated() {
        let card = Self.card(.full)
        let from = Self.day("2025-04-01")
        let before = card.cycles(
            opening: -47_549, flows: [Self.flow("2025-04-20", -1_000)], from: from, today: from, through: Self.day("2025-04-30"))
        #expect(before.map(\.statement) == Self.days("2025-04-25"))
        #expect(before.map(\.debt) == [48_549])
        #expect(before.map(\.interest) == [0])
        let after = card.cycles(
            opening: 0, flows: [Self.flow("2025-03-20", -10_000), Self.flow("2025-04-01", 3_000)], from: Self.day("2025-03-01"),
            today: Self.day("2025-03-01"), through: Self.day("2025-04-10"))
        #expect(after.map(\.payback) == [0])
        #expect(after.map(\.carried) == [7_000])
        #expect(card.cycles(opening: 0, flows: [], from: from, today: from, through: Self.day("2025-04-24")).isEmpty)
        #expect(card.cycles(opening: 0, flows: [], from: from, today: from, through: Self.day("2025-03-01")).isEmpty)
        // The window opening on a statement day includes it.
        #expect(card.cycles(opening: -5, flows: [], from: Self.day("2025-04-25"), today: from, through: Self.day("2025-04-25")).map(\.debt) == [5])
    }

    // MARK: - Bad terms

    struct Terms: Sendable, CustomTestStringConvertible {
        var limit: Int64 = 500_000
        var statementDay = 25
        var due = CardDue.dayOfMonth(15)
        var payback = CardPayback.full
        var rate = Rate(perMillion: 240_000)
        var field: String
        var value: String
        var testDescription: String { "\(field) \(value)" }
    }

    @Test(arguments: [
        Terms(statementDay: 0, field: "{statementDay}", value: "0"),
        Terms(statementDay: 32, field: "{statementDay}", value: "32"),
        Terms(due: .dayOfMonth(0), field: "{dueDay}", value: "0"),
        Terms(due: .dayOfMonth(32), field: "{dueDay}", value: "32"),
        Terms(due: .dayOfMonth(25), field: "{dueDay}", value: "25"),
        Terms(due: .daysAfterStatement(0), field: "{dueAfter}", value: "0"),
        Terms(due: .daysAfterStatement(28), field: "{dueAfter}", value: "28"),
        Terms(payback: .minimum(percent: Rate(perMillion: 0), floor: 0), field: "{minimum}", value: "0%"),
        Terms(payback: .minimum(percent: Rate(perMillion: 1_000_001), floor: 0), field: "{minimum}", value: "100.0001%"),
        Terms(payback: .minimum(percent: Rate(perMillion: -10_000), floor: 0), field: "{minimum}", value: "-1%"),
        Terms(payback: .minimum(percent: Rate(perMillion: 50_000), floor: -1), field: "{minimumFloor}", value: "-1"),
        Terms(payback: .fixed(0), field: "{fixed}", value: "0"),
        Terms(payback: .fixed(-100), field: "{fixed}", value: "-100"),
        Terms(limit: 0, field: "{limit}", value: "0"),
        Terms(limit: 1_000_000_000_000_001, field: "{limit}", value: "1000000000000001"),
        Terms(rate: Rate(perMillion: -1), field: "{rate}", value: "-0.0001%"),
        Terms(rate: Rate(perMillion: 10_000_001), field: "{rate}", value: "1000.0001%"),
    ])
    func badTermsAreRefusedNamingTheOption(terms: Terms) {
        let error = #expect(throws: CardError.self) {
            try CreditCard(limit: terms.limit, statementDay: terms.statementDay, due: terms.due, payback: terms.payback, rate: terms.rate)
        }
        guard case .invalid(let field, let value, _) = error else { return }
        #expect(field == terms.field)
        #expect(value == terms.value)
    }

    @Test func theEdgesOfEachRangeAreAccepted() throws {
        for (day, due) in [(1, CardDue.dayOfMonth(31)), (31, .dayOfMonth(1)), (15, .daysAfterStatement(1)), (15, .daysAfterStatement(27))] {
            _ = try CreditCard(limit: 1, statementDay: day, due: due, payback: .full, rate: Rate(perMillion: 0))
        }
        _ = try CreditCard(
            limit: CreditCard.maximumLimit, statementDay: 1, due: .dayOfMonth(2), payback: .minimum(percent: Rate(perMillion: 1_000_000), floor: 0),
            rate: Rate.maximum)
        _ = try CreditCard(limit: 1, statementDay: 1, due: .dayOfMonth(2), payback: .fixed(1), rate: Rate(perMillion: 0), grace: .lose)
    }

    @Test func errorsQuoteTheOptionAndTheInput() {
        let error = #expect(throws: CardError.self) {
            try CreditCard(limit: 1, statementDay: 0, due: .dayOfMonth(2), payback: .full, rate: Rate(perMillion: 0))
        }
        // The field by key: in braces in the template, for a front end to spell; as itself in the description.
        #expect(error?.template == "{statementDay} '0': a statement day is 1 to 31 (29–31 fall on the last day of shorter months)")
        #expect(error?.description == "statementDay '0': a statement day is 1 to 31 (29–31 fall on the last day of shorter months)")
        #expect(
            CardError.invalid(field: "{dueDay}", value: "25", reason: "must differ from the statement day 25").description
                == "dueDay '25': must differ from the statement day 25")
    }

    // MARK: - Against a naive reference

    /// The specification read literally: every day from `from` to `last`, statement and due days
    /// found by looking at the calendar, every balance summed again from all the flows so far.
    static func reference(_ card: CreditCard, opening: Int64, flows: [CardFlow], from: Day, today: Day, last: Day) -> [CardCycle] {
        func isStatement(_ day: Day) -> Bool {
            let c = day.civil
            return c.day == min(card.statementDay, Day.daysIn(month: c.month, year: c.year))
        }
        func due(_ statement: Day) -> Day {
            var next = statement.advanced(by: 1)
            while !isStatement(next) { next = next.advanced(by: 1) }
            switch card.due {
            case .daysAfterStatement(let days):
                return statement.advanced(by: days)
            case .dayOfMonth(let wanted):
                var day = statement.advanced(by: 1)
                while day.civil.day != min(wanted, Day.daysIn(month: day.civil.month, year: day.civil.year)) { day = day.advanced(by: 1) }
                return min(day, next.advanced(by: -1))
            }
        }
        func policy(_ debt: Int64) -> Int64 {
            switch card.payback {
            case .full: return debt
            case .fixed(let amount): return min(amount, debt)
            case .minimum(let percent, let floor):
                let (product, overflow) = debt.multipliedReportingOverflow(by: percent.perMillion)
                if overflow { Issue.record("reference overflow: \(debt) × \(percent)") }
                return min(max((product + 500_000) / 1_000_000, floor), debt)
            }
        }
        var generated: [Int64] = []
        func balance(through day: Day) -> Int64 {
            opening + flows.filter { $0.day <= day }.map(\.amount).reduce(0, +) + generated.reduce(0, +)
        }
        func credits(after start: Day, through end: Day) -> Int64 {
            flows.filter { $0.day > start && $0.day <= end && $0.amount > 0 }.map(\.amount).reduce(0, +)
        }
        var cycles: [CardCycle] = []
        var day = from
        while day <= last {
            if isStatement(day) {
                var interest: Int64 = 0
                if let previous = cycles.last, day >= today, previous.carried > 0 {
                    // rate × (carried × days after the due day [+ debt × days before it]) / (365 × 10^6), half up.
                    var weighted = previous.carried * Int64(previous.due.distance(to: day))
                    if card.grace == .lose { weighted += previous.debt * Int64(previous.statement.distance(to: previous.due)) }
                    let (high, low) = UInt64(weighted).multipliedFullWidth(by: UInt64(card.rate.perMillion))
                    let (sum, carry) = low.addingReportingOverflow(182_500_000)
                    interest = Int64((365_000_000 as UInt64).dividingFullWidth((high + (carry ? 1 : 0), sum)).quotient)
                }
                generated.append(-interest)
                cycles.append(
                    CardCycle(statement: day, due: due(day), interest: interest, debt: max(0, -balance(through: day)), payback: 0, carried: 0))
            }
            if let k = cycles.firstIndex(where: { $0.due == day }) {
                let paid = credits(after: cycles[k].statement, through: day)
                if day >= today {
                    cycles[k].payback = min(max(0, policy(cycles[k].debt) - paid), max(0, -balance(through: day)))
                    generated.append(cycles[k].payback)
                }
                cycles[k].carried = max(0, cycles[k].debt - paid - cycles[k].payback)
            }
            day = day.advanced(by: 1)
        }
        for k in cycles.indices where cycles[k].due > last {
            cycles[k].carried = max(0, cycles[k].debt - credits(after: cycles[k].statement, through: last))
        }
        return cycles
    }

    static func randomCard(_ random: inout SplitMix64) -> CreditCard {
        let statementDay = Bool.random(using: &random) ? Int.random(in: 26...31, using: &random) : Int.random(in: 1...31, using: &random)
        var due = CardDue.daysAfterStatement(Int.random(in: 1...27, using: &random))
        if Bool.random(using: &random) {
            var day = Int.random(in: 1...31, using: &random)
            while day == statementDay { day = Int.random(in: 1...31, using: &random) }
            due = .dayOfMonth(day)
        }
        let payback: CardPayback
        switch Int.random(in: 0...2, using: &random) {
        case 0: payback = .full
        case 1:
            payback = .minimum(
                percent: Rate(perMillion: Int64.random(in: 1...1_000_000, using: &random)), floor: Int64.random(in: 0...50_000, using: &random))
        default: payback = .fixed(Int64.random(in: 1...300_000, using: &random))
        }
        let rate = [Int64(0), 190_000, 240_000, 299_900, Rate.maximum.perMillion, Int64.random(in: 0...Rate.maximum.perMillion, using: &random)]
        return try! CreditCard(
            limit: 1_000_000, statementDay: statementDay, due: due, payback: payback, rate: Rate(perMillion: rate.randomElement(using: &random)!),
            grace: CardGrace.allCases.randomElement(using: &random)!)
    }

    /// A few hundred random cards and months of spending, payments and refunds (several on
    /// some days, in any order), with `today` before, inside or after the window.
    @Test("cycles agree with the naive day-by-day reference", arguments: 0..<4)
    func cyclesMatchTheNaiveReference(batch: Int) {
        var random = SplitMix64(seed: 0xCA4D_0000 + UInt64(batch))
        var seen: [Int64] = [0, 0, 0, 0]  // cycles with interest, a payback, a carried balance, due after the window
        defer { #expect(seen.allSatisfy { $0 >= 10 }, "the random cards exercise too little: \(seen)") }
        for _ in 0..<100 {
            let card = Self.randomCard(&random)
            let from = Day(Day.daysFromCivil(year: 2023, month: 1, day: 1) + Int.random(in: 0...1_100, using: &random))
            let last = from.advanced(by: Int.random(in: 0...420, using: &random))
            let today = from.advanced(by: Int.random(in: -40...(from.distance(to: last) + 40), using: &random))
            let opening = Bool.random(using: &random) ? 0 : Int64.random(in: -500_000...100_000, using: &random)
            let busy = (0..<5).map { _ in from.advanced(by: Int.random(in: 0...from.distance(to: last), using: &random)) }
            let flows = (0..<Int.random(in: 0...80, using: &random)).map { _ in
                let day =
                    Bool.random(using: &random)
                    ? busy.randomElement(using: &random)!
                    : from.advanced(by: Int.random(in: 0...from.distance(to: last), using: &random))
                let amount =
                    Int.random(in: 0..<5, using: &random) == 0
                    ? Int64.random(in: 1...300_000, using: &random) : -Int64.random(in: 1...200_000, using: &random)
                return CardFlow(day: day, amount: amount)
            }
            let expected = Self.reference(card, opening: opening, flows: flows, from: from, today: today, last: last)
            let actual = card.cycles(opening: opening, flows: flows, from: from, today: today, through: last)
            for cycle in actual {
                seen[0] += cycle.interest > 0 ? 1 : 0
                seen[1] += cycle.payback > 0 ? 1 : 0
                seen[2] += cycle.carried > 0 ? 1 : 0
                seen[3] += cycle.due > last ? 1 : 0
            }
            guard actual != expected else { continue }
            Issue.record("\(card) from \(from) today \(today) through \(last), opening \(opening), \(flows.count) flows:\n\(actual)\n\(expected)")
            return
        }
    }

    // MARK: - Extremes

    /// A million flows of ±10^15 overflow Int64 many times over: the balances are held at its
    /// bounds, the interest of 1000 % on them too, and nothing traps.
    @Test func extremeAmountsSaturateInsteadOfTrapping() throws {
        let card = try CreditCard(
            limit: CreditCard.maximumLimit, statementDay: 31, due: .dayOfMonth(28),
            payback: .minimum(percent: Rate(perMillion: 1), floor: 0), rate: Rate.maximum, grace: .lose)
        let from = Self.day("2024-01-01")
        var random = SplitMix64(seed: 0xCA4D_FFFF)
        let flows = (0..<1_000_000).map { i in
            CardFlow(
                day: from.advanced(by: Int.random(in: 0..<730, using: &random)), amount: i % 10 == 0 ? 1_000_000_000_000_000 : -1_000_000_000_000_000)
        }
        let cycles = card.cycles(opening: .min, flows: flows, from: from, today: from, through: Self.day("2025-12-31"))
        #expect(cycles.count == 24)
        #expect(cycles.allSatisfy { $0.debt >= 0 && $0.interest >= 0 && $0.payback >= 0 && $0.carried >= 0 && $0.carried <= $0.debt })
        #expect(cycles.contains { $0.debt == .max })
        #expect(
            card.interest(debt: .max, carried: .max, statement: Self.day("2025-01-31"), due: Self.day("2025-02-27"), next: Self.day("2025-03-31"))
                == .max)
    }

    /// Fields set out of range after `init` are read clamped rather than trapping or looping.
    @Test func fieldsSetOutOfRangeAfterInitDoNotTrap() {
        var card = Self.card(.full)
        card.payback = .fixed(-5)
        card.statementDay = -40
        card.due = .daysAfterStatement(Int.max)
        card.rate = Rate(perMillion: .min)
        let cycles = card.cycles(
            opening: -1_000, flows: [Self.flow("2025-03-05", -7_500)], from: Self.day("2025-03-01"), today: Self.day("2025-03-01"),
            through: Self.day("2025-05-31"))
        #expect(cycles.map(\.statement) == Self.days("2025-03-01", "2025-04-01", "2025-05-01"))
        #expect(cycles.allSatisfy { $0.payback == 0 && $0.interest == 0 })
    }
}
