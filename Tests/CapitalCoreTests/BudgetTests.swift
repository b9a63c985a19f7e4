import Testing

@testable import CapitalCore

@Suite("Budgets: periods, status at the current pace, expected spending against a day-by-day reference")
struct BudgetTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static func range(_ start: String, _ end: String) -> DayRange { DayRange(day(start), day(end)) }

    static func budget(_ period: BudgetPeriod, amount: Int64 = 300_000, start: String = "2020-01-01") -> Budget {
        Budget(id: "b", categoryID: "groceries", amount: amount, period: period, start: day(start))
    }

    // MARK: - Periods

    @Test(arguments: [
        ("2025-03-10", "2025-03-10", "2025-03-17"),  // a Monday starts its own week
        ("2025-03-14", "2025-03-10", "2025-03-17"),  // a Friday
        ("2025-03-16", "2025-03-10", "2025-03-17"),  // a Sunday ends it
        ("2025-03-17", "2025-03-17", "2025-03-24"),
        ("2025-01-01", "2024-12-30", "2025-01-06"),  // across a year end
        ("2024-02-29", "2024-02-26", "2024-03-04"),  // a leap day
    ])
    func aWeekRunsMondayToSunday(day: String, start: String, end: String) {
        #expect(Budget.period(.weekly, containing: Self.day(day)) == Self.range(start, end))
    }

    @Test(arguments: [
        ("2025-03-14", "2025-03-01", "2025-04-01"), ("2025-03-01", "2025-03-01", "2025-04-01"), ("2025-03-31", "2025-03-01", "2025-04-01"),
        ("2024-02-29", "2024-02-01", "2024-03-01"), ("2025-02-28", "2025-02-01", "2025-03-01"), ("2025-12-31", "2025-12-01", "2026-01-01"),
    ])
    func aMonthIsTheCalendarMonth(day: String, start: String, end: String) {
        #expect(Budget.period(.monthly, containing: Self.day(day)) == Self.range(start, end))
    }

    @Test(arguments: [
        ("2025-03-14", "2025-01-01", "2026-01-01"), ("2024-12-31", "2024-01-01", "2025-01-01"), ("2024-01-01", "2024-01-01", "2025-01-01"),
    ])
    func aYearIsTheCalendarYear(day: String, start: String, end: String) {
        #expect(Budget.period(.yearly, containing: Self.day(day)) == Self.range(start, end))
    }

    /// Every day of four years: its week starts on a Monday (counted from Monday 1 January 2024),
    /// holds the day and lasts 7 days; its month and year start on the 1st and hold it.
    @Test func everyDayFallsInItsWeekMonthAndYear() {
        let monday = Self.day("2024-01-01")
        for day in Self.range("2023-01-01", "2027-01-01") {
            let week = Budget.period(.weekly, containing: day)
            #expect(((week.start.number - monday.number) % 7 + 7) % 7 == 0, "\(day)")
            #expect(week.count == 7 && week.contains(day), "\(day)")
            let month = Budget.period(.monthly, containing: day)
            let civil = day.civil
            #expect(month.start.civil == CivilDate(year: civil.year, month: civil.month, day: 1) && month.contains(day), "\(day)")
            #expect(month.end.civil.day == 1 && month.count == Day.daysIn(month: civil.month, year: civil.year), "\(day)")
            let year = Budget.period(.yearly, containing: day)
            #expect(year.start.civil == CivilDate(year: civil.year, month: 1, day: 1), "\(day)")
            #expect(year.end.civil == CivilDate(year: civil.year + 1, month: 1, day: 1), "\(day)")
        }
    }

    @Test func aBudgetHasNoPeriodBeforeTheOneHoldingItsStart() {
        let budget = Self.budget(.monthly, start: "2025-03-20")
        #expect(budget.period(containing: Self.day("2025-02-28")) == nil)
        #expect(budget.period(containing: Self.day("2025-03-01")) == Self.range("2025-03-01", "2025-04-01"))
        #expect(budget.period(containing: Self.day("2025-04-30")) == Self.range("2025-04-01", "2025-05-01"))
        let weekly = Self.budget(.weekly, start: "2025-03-13")  // a Thursday: its week starts on the 10th
        #expect(weekly.period(containing: Self.day("2025-03-09")) == nil)
        #expect(weekly.period(containing: Self.day("2025-03-10")) == Self.range("2025-03-10", "2025-03-17"))
    }

    // MARK: - Status

    /// March has 31 days; on the 10th, 1 000.00 spent is 100.00 a day, so 3 100.00 at the month's end.
    @Test func theProjectionKeepsThePaceSoFar() throws {
        let status = try #require(Self.budget(.monthly, amount: 300_000).status(spent: 100_000, today: Self.day("2025-03-10")))
        #expect(status.period == Self.range("2025-03-01", "2025-04-01"))
        #expect(status.limit == 300_000 && status.spent == 100_000 && status.left == 200_000)
        #expect(status.projected == 310_000)
        #expect(!status.isOver && status.willBeOver)
        // On the last day the projection is what was spent.
        let last = try #require(Self.budget(.monthly, amount: 300_000).status(spent: 300_001, today: Self.day("2025-03-31")))
        #expect(last.projected == 300_001 && last.isOver && last.left == -1)
    }

    @Test func theProjectionRoundsHalfAwayFromZero() throws {
        let budget = Self.budget(.weekly, amount: 100)
        // 2025-03-10 is a Monday; on Tuesday 2 days have gone: 1 × 7 / 2 = 3.5.
        #expect(budget.status(spent: 1, today: Self.day("2025-03-11"))?.projected == 4)
        #expect(budget.status(spent: -1, today: Self.day("2025-03-11"))?.projected == -4)
        // 2 × 7 / 3 = 4.67 → 5; 1 × 7 / 3 = 2.33 → 2.
        #expect(budget.status(spent: 2, today: Self.day("2025-03-12"))?.projected == 5)
        #expect(budget.status(spent: 1, today: Self.day("2025-03-12"))?.projected == 2)
        #expect(Self.budget(.monthly, start: "2025-04-01").status(spent: 1, today: Self.day("2025-03-31")) == nil)
    }

    // MARK: - Expected spending

    /// Monthly 3 000.00 on 10 March with 1 000.00 spent: 2 000.00 spread over the 22 days left
    /// (90.90 and 20 kopecks over, one each to the first 20 days); April in full over 30 days.
    @Test func theCurrentRestIsSpreadToThePeriodsEndAndLaterPeriodsInFull() {
        let expected = Self.budget(.monthly).expectedSpending(today: Self.day("2025-03-10"), horizon: Self.day("2025-04-30"), spent: 100_000) { _ in 0
        }
        let march = expected.filter { $0.day < Self.day("2025-04-01") }
        #expect(march.count == 22 && march.first?.day == Self.day("2025-03-10"))
        #expect(march.map(\.amount) == Array(repeating: 9_091, count: 20) + [9_090, 9_090])
        let april = expected.filter { $0.day >= Self.day("2025-04-01") }
        #expect(april.count == 30 && april.allSatisfy { $0.amount == 10_000 })
    }

    /// A schedule spending 1 000.00 a month in a category budgeted 3 000.00: the budget adds
    /// 2 000.00; a schedule of 5 000.00 leaves it nothing to add.
    @Test(arguments: [(Int64(100_000), Int64(200_000)), (300_000, 0), (500_000, 0)])
    func schedulesCountFirstAndTheBudgetTopsUp(scheduled: Int64, added: Int64) {
        let expected = Self.budget(.monthly).expectedSpending(today: Self.day("2025-03-31"), horizon: Self.day("2025-06-30"), spent: 0) { range in
            // On the 5th of each month.
            range.filter { $0.civil.day == 5 }.count == 1 ? scheduled : 0
        }
        for month in [Self.range("2025-04-01", "2025-05-01"), Self.range("2025-05-01", "2025-06-01"), Self.range("2025-06-01", "2025-07-01")] {
            #expect(expected.filter { month.contains($0.day) }.reduce(0) { $0 + $1.amount } == added, "\(month)")
        }
    }

    @Test func aHorizonInsideAPeriodCountsOnlyItsDays() {
        // April's 3 000.00 is still spread over its 30 days; the 10 up to the horizon count.
        let expected = Self.budget(.monthly).expectedSpending(today: Self.day("2025-03-31"), horizon: Self.day("2025-04-10"), spent: 300_000) { _ in 0
        }
        #expect(expected.map(\.day) == Array(Self.range("2025-04-01", "2025-04-11")))
        #expect(expected.allSatisfy { $0.amount == 10_000 })
    }

    @Test func nothingIsExpectedBeforeTheBudgetStartsOrPastTheHorizon() {
        let later = Self.budget(.weekly, amount: 70_000, start: "2025-03-20").expectedSpending(
            today: Self.day("2025-03-10"), horizon: Self.day("2025-03-23"), spent: 5_000
        ) { _ in 0 }
        // The budget's first week starts Monday 17 March; what was spent this week is not its.
        #expect(later.map(\.day) == Array(Self.range("2025-03-17", "2025-03-24")))
        #expect(later.allSatisfy { $0.amount == 10_000 })
        #expect(Self.budget(.monthly).expectedSpending(today: Self.day("2025-03-10"), horizon: Self.day("2025-03-09"), spent: 0) { _ in 0 }.isEmpty)
    }

    @Test func overspendingLeavesNothingForTheRestOfThePeriod() {
        let expected = Self.budget(.monthly).expectedSpending(today: Self.day("2025-03-10"), horizon: Self.day("2025-04-02"), spent: 350_000) { _ in 0
        }
        #expect(expected.map(\.day) == [Self.day("2025-04-01"), Self.day("2025-04-02")])
    }

    /// Random budgets, starts, days, horizons, spending and schedules against a reference that
    /// walks day by day: each day's period found from the calendar, its rest (the limit less
    /// what was spent in it, when it holds today, and what schedules spend in it from today on)
    /// split over its days from today on, the first `rest mod days` of them a minor unit more.
    @Test(arguments: 0..<4)
    func expectedSpendingMatchesADayByDayReference(batch: Int) {
        var random = SplitMix64(seed: 0xB0D6_E700 + UInt64(batch))
        let base = Self.day("2023-01-01").number
        for _ in 0..<150 {
            let period = BudgetPeriod.allCases.randomElement(using: &random)!
            let amount: Int64 = Bool.random(using: &random) ? Int64.random(in: 1...40, using: &random) : Int64.random(in: 1...900_000, using: &random)
            let start = Day(base + Int.random(in: 0...1_200, using: &random))
            let today = Day(base + Int.random(in: 0...1_200, using: &random))
            let horizon = today.advanced(by: Int.random(in: -2...900, using: &random))
            let spent = Int64.random(in: -amount / 4...amount * 3 / 2, using: &random)
            var scheduled: [Int: Int64] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                scheduled[today.number + Int.random(in: -30...900, using: &random), default: 0] += Int64.random(
                    in: 1...max(1, amount / 3), using: &random)
            }
            let budget = Budget(id: "b", categoryID: "c", amount: amount, period: period, start: start)
            let actual = budget.expectedSpending(today: today, horizon: horizon, spent: spent) { range in
                range.reduce(0) { $0 + (scheduled[$1.number] ?? 0) }
            }
            let expected = Self.reference(budget, today: today, horizon: horizon, spent: spent, scheduled: scheduled)
            let context = "\(period) \(amount) from \(start), today \(today), horizon \(horizon), spent \(spent)"
            #expect(actual.map(\.day) == expected.map(\.day), "\(context)")
            #expect(actual.map(\.amount) == expected.map(\.amount), "\(context)")
            // A future period wholly inside the horizon spends exactly what schedules leave of the limit.
            let first = max(Self.periodOf(today, period).end, Self.periodOf(start, period).start)
            if Self.periodOf(first, period).end.advanced(by: -1) <= horizon {
                let whole = Self.periodOf(first, period)
                let sum = actual.filter { $0.day >= whole.start && $0.day < whole.end }.reduce(0) { $0 + $1.amount }
                let byScheduled = (whole.start.number..<whole.end.number).reduce(Int64(0)) { $0 + (scheduled[$1] ?? 0) }
                #expect(sum == max(0, amount - byScheduled), "\(context)")
            }
        }
    }

    // MARK: - The reference

    /// The period of `kind` holding `day`, from the civil calendar: weeks counted from Monday 1 January 2024.
    static func periodOf(_ day: Day, _ kind: BudgetPeriod) -> (start: Day, end: Day) {
        let civil = day.civil
        switch kind {
        case .weekly:
            let offset = ((day.number - Self.day("2024-01-01").number) % 7 + 7) % 7
            return (Day(day.number - offset), Day(day.number - offset + 7))
        case .monthly:
            let start = try! Day(year: civil.year, month: civil.month, day: 1)
            let end =
                civil.month == 12 ? try! Day(year: civil.year + 1, month: 1, day: 1) : try! Day(year: civil.year, month: civil.month + 1, day: 1)
            return (start, end)
        case .yearly:
            return (try! Day(year: civil.year, month: 1, day: 1), try! Day(year: civil.year + 1, month: 1, day: 1))
        }
    }

    static func reference(_ budget: Budget, today: Day, horizon: Day, spent: Int64, scheduled: [Int: Int64]) -> [(day: Day, amount: Int64)] {
        let first = periodOf(budget.start, budget.period).start
        var result: [(day: Day, amount: Int64)] = []
        var day = today
        while day <= horizon {
            defer { day = day.advanced(by: 1) }
            guard day >= first else { continue }
            let period = periodOf(day, budget.period)
            let from = max(today, period.start)
            var used: Int64 = period.start <= today && today < period.end ? spent : 0
            for number in from.number..<period.end.number { used += scheduled[number] ?? 0 }
            let rest = budget.amount - used
            guard rest > 0 else { continue }
            let days = Int64(period.end.number - from.number)
            let index = Int64(day.number - from.number)
            let value = rest / days + (index < rest % days ? 1 : 0)
            if value > 0 { result.append((day, value)) }
        }
        return result
    }
}
