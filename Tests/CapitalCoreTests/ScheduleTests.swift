import CapitalCore
import Testing

/// A schedule's occurrences: its rule between its start and end, exceptions applied (skip one,
/// move one, change one's amount), and the postings of each.
@Suite("Schedules")
struct ScheduleTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static let rub = try! Currency("RUB")

    /// Rent: 500.00 from `debit` to `housing` by `rule`, from `start`.
    static func rent(
        _ rule: String = "monthly on 5", start: String = "2025-01-05", end: String? = nil, amount: AmountModel? = nil,
        exceptions: [Schedule.Exception] = []
    ) throws -> Schedule {
        let minor = amount?.expected ?? 50000
        return Schedule(
            id: "rent", name: "Rent",
            postings: [
                Posting(accountID: "housing", amount: Money(minor: minor, currency: rub)),
                Posting(accountID: "debit", amount: Money(minor: -minor, currency: rub)),
            ],
            amount: amount, rule: try Rule(parsing: rule), start: day(start), end: end.map(day), exceptions: exceptions)
    }

    /// A mortgage payment: 600.00 interest + 100.00 principal from the debit account.
    static func mortgage(exceptions: [Schedule.Exception] = []) throws -> Schedule {
        Schedule(
            id: "mortgage", name: "Mortgage",
            postings: [
                Posting(accountID: "interest", amount: Money(minor: 60000, currency: rub)),
                Posting(accountID: "principal", amount: Money(minor: 10000, currency: rub)),
                Posting(accountID: "debit", amount: Money(minor: -70000, currency: rub)),
            ],
            rule: try Rule(parsing: "monthly on 5"), start: day("2025-01-05"), exceptions: exceptions)
    }

    static func days(_ schedule: Schedule, _ first: String, _ last: String, calendar: WorkingDayCalendar = .none) -> [String] {
        schedule.occurrences(in: DayRange(through: day(last), from: day(first)), calendar: calendar).map(\.day.iso)
    }

    @Test("without exceptions a schedule falls where its rule does, from its start")
    func occurrencesFollowTheRule() throws {
        #expect(Self.days(try Self.rent(start: "2025-02-01"), "2025-01-01", "2025-04-30") == ["2025-02-05", "2025-03-05", "2025-04-05"])
    }

    @Test("the end day is inclusive")
    func endDayIsInclusive() throws {
        #expect(Self.days(try Self.rent(end: "2025-03-05"), "2025-01-01", "2025-12-31") == ["2025-01-05", "2025-02-05", "2025-03-05"])
        #expect(Self.days(try Self.rent(end: "2025-03-04"), "2025-01-01", "2025-12-31") == ["2025-01-05", "2025-02-05"])
    }

    @Test("the end bounds the rule's day, not the day an adjustment moves it to")
    func endBoundsTheRuleDay() throws {
        var schedule = try Self.rent("monthly on 31", start: "2025-04-01", end: "2025-05-31")
        schedule.rule.adjustment = .following
        // 31 May 2025 is a Saturday: the occurrence is paid on Monday 2 June, after the end.
        let occurrences = schedule.occurrences(in: DayRange(through: Self.day("2025-12-31"), from: Self.day("2025-01-01")), calendar: .none)
        #expect(occurrences.map(\.original.iso) == ["2025-04-30", "2025-05-31"])
        #expect(occurrences.map(\.day.iso) == ["2025-04-30", "2025-06-02"])
    }

    @Test("COUNT limits the occurrences, counted from the start")
    func countLimitsTheOccurrences() throws {
        var schedule = try Self.rent()
        schedule.rule.recurrence.count = 3
        #expect(Self.days(schedule, "2025-01-01", "2025-12-31") == ["2025-01-05", "2025-02-05", "2025-03-05"])
        #expect(Self.days(schedule, "2025-03-01", "2025-12-31") == ["2025-03-05"])
    }

    @Test("a skipped occurrence is left out")
    func skippedOccurrenceIsLeftOut() throws {
        let schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-02-05"), skip: true)])
        #expect(Self.days(schedule, "2025-01-01", "2025-03-31") == ["2025-01-05", "2025-03-05"])
    }

    @Test("a moved occurrence falls on its new day, keeps its rule day, and stays in day order")
    func movedOccurrenceFallsOnItsNewDay() throws {
        let schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-02-05"), movedTo: Self.day("2025-03-10"))])
        let occurrences = schedule.occurrences(in: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-01-01")), calendar: .none)
        #expect(occurrences.map(\.day.iso) == ["2025-01-05", "2025-03-05", "2025-03-10"])
        #expect(occurrences.map(\.original.iso) == ["2025-01-05", "2025-03-05", "2025-02-05"])
    }

    @Test("an occurrence moved far lands in a range its rule day is outside of, and leaves the range it was in")
    func movedOccurrenceCountsWhereItLands() throws {
        let schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-01-05"), movedTo: Self.day("2025-06-20"))])
        #expect(Self.days(schedule, "2025-06-10", "2025-06-30") == ["2025-06-20"])
        #expect(Self.days(schedule, "2025-01-01", "2025-01-31") == [])
    }

    @Test("a moved occurrence is not adjusted again: the day given is the day it happens")
    func movedOccurrenceIsNotAdjusted() throws {
        var schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-02-05"), movedTo: Self.day("2025-02-08"))])
        schedule.rule.adjustment = .following
        #expect(Self.days(schedule, "2025-02-01", "2025-02-28") == ["2025-02-08"])  // a Saturday
    }

    @Test("a changed amount applies to that occurrence only, as a fixed amount")
    func changedAmountAppliesToOneOccurrence() throws {
        let range = try AmountModel(low: 25000, high: 50000, expected: 40000)
        let schedule = try Self.rent(amount: range, exceptions: [.init(original: Self.day("2025-02-05"), amount: 45000)])
        let occurrences = schedule.occurrences(in: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-01-01")), calendar: .none)
        #expect(occurrences.map(\.amount) == [range, AmountModel(fixed: 45000), range])
        #expect(occurrences.map { $0.postings.map(\.amount.minor) } == [[40000, -40000], [45000, -45000], [40000, -40000]])
    }

    @Test("exceptions on one occurrence combine: moved and re-amounted")
    func exceptionsCombine() throws {
        let schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-02-05"), movedTo: Self.day("2025-02-07"), amount: 55000)])
        let occurrence = try #require(
            schedule.occurrences(in: DayRange(through: Self.day("2025-02-28"), from: Self.day("2025-02-01")), calendar: .none).first)
        #expect(occurrence.day == Self.day("2025-02-07"))
        #expect(occurrence.postings.map(\.amount.minor) == [55000, -55000])
    }

    @Test("an exception for a day that is not an occurrence changes nothing")
    func exceptionOffTheRuleChangesNothing() throws {
        let schedule = try Self.rent(exceptions: [.init(original: Self.day("2025-02-06"), skip: true)])
        #expect(Self.days(schedule, "2025-01-01", "2025-03-31") == ["2025-01-05", "2025-02-05", "2025-03-05"])
    }

    @Test("a ranged schedule posts its expected amount: to gets it, from gives it")
    func rangedSchedulePostsTheExpectedAmount() throws {
        let schedule = try Self.rent(amount: try AmountModel(low: 25000, high: 50000))
        let occurrence = try #require(
            schedule.occurrences(in: DayRange(through: Self.day("2025-01-31"), from: Self.day("2025-01-01")), calendar: .none).first)
        #expect(occurrence.amount.expected == 37500)
        #expect(occurrence.postings.map(\.accountID) == ["housing", "debit"])
        #expect(occurrence.postings.map(\.amount.minor) == [37500, -37500])
        #expect(schedule.postings(for: 30000).map(\.amount.minor) == [30000, -30000])
    }

    @Test("a split posts its template; a new amount goes to the first posting and the last balances")
    func splitTakesTheNewAmountInItsFirstPosting() throws {
        let plain = try Self.mortgage()
        #expect(plain.postings(for: 60000).map(\.amount.minor) == [60000, 10000, -70000])
        #expect(plain.postings(for: 65000).map(\.amount.minor) == [65000, 10000, -75000])
        let changed = try Self.mortgage(exceptions: [.init(original: Self.day("2025-02-05"), amount: 55000)])
        let occurrences = changed.occurrences(in: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-01-01")), calendar: .none)
        #expect(occurrences.map { $0.postings.map(\.amount.minor) } == [[60000, 10000, -70000], [55000, 10000, -65000], [60000, 10000, -70000]])
        for occurrence in occurrences { #expect(occurrence.postings.reduce(0) { $0 + $1.amount.minor } == 0) }
    }

    @Test("occurrences follow the schedule's calendar and adjustment")
    func occurrencesFollowTheCalendar() throws {
        var schedule = try Self.rent("monthly on 10", start: "2025-05-01")
        schedule.rule.adjustment = .preceding
        let calendar = WorkingDayCalendar(name: "test", holidays: [Self.day("2025-05-09")])
        // Saturday 10 May 2025, with Friday 9 May a holiday: paid on Thursday 8 May.
        #expect(Self.days(schedule, "2025-05-01", "2025-06-30", calendar: calendar) == ["2025-05-08", "2025-06-10"])
    }
}
