import CapitalCore
import CapitalStore
import Testing

/// Rules on the shipped RU production calendar (Sources/CapitalStore/Calendars/RU.txt): holidays,
/// the days off they move to, and the Saturdays that become working days.
///
/// The days used: 1–2 and 8–9 May 2025 are days off (Thu–Fri), 1 November 2025 is a working
/// Saturday (its day off moved to Monday 3 November), 31 December 2025 and 1–9 January 2026 are
/// days off, 12 June is Russia Day (a Monday in 2023).
@Suite("Rules on the RU calendar")
struct RuleCalendarTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static let ru = try! Calendars.named("RU")

    /// The days `text` falls on from `first` to `last` (both included) on the RU calendar.
    static func expand(_ text: String, start: String, _ first: String, _ last: String, adjust: BusinessDayAdjustment? = nil) throws -> [String] {
        var rule = try Rule(parsing: text, calendar: "RU")
        if let adjust { rule.adjustment = adjust }
        var days: [String] = []
        rule.forEachOccurrence(start: day(start), in: DayRange(through: day(last), from: day(first)), calendar: ru) { _, day in days.append(day.iso) }
        return days
    }

    @Test("a salary due on Saturday 10 May 2025, with 8–9 May off, is paid on Wednesday 7 May under `preceding`")
    func salaryOnASaturdayBeforeHolidaysPrecedesPastThem() throws {
        #expect(
            try Self.expand("monthly on 10", start: "2025-01-10", "2025-04-01", "2025-06-30", adjust: .preceding) == [
                "2025-04-10", "2025-05-07", "2025-06-10",
            ])
        // Without the calendar's holidays it would be Friday 9 May.
        #expect(BusinessDayAdjustment.preceding.adjust(Self.day("2025-05-10"), in: .none) == Self.day("2025-05-09"))
    }

    @Test("a salary due on Saturday 10 June 2023, before Monday 12 June (Russia Day): preceding pays on Friday, following on Tuesday")
    func salaryOnASaturdayBeforeAMondayHoliday() throws {
        #expect(try Self.expand("monthly on 10", start: "2023-01-10", "2023-06-01", "2023-06-30", adjust: .preceding) == ["2023-06-09"])
        #expect(try Self.expand("monthly on 10", start: "2023-01-10", "2023-06-01", "2023-06-30", adjust: .following) == ["2023-06-13"])
        #expect(try Self.expand("monthly on 10", start: "2023-01-10", "2023-06-01", "2023-06-30", adjust: .modifiedFollowing) == ["2023-06-13"])
    }

    @Test("a salary due on Saturday 10 January 2026 is paid on 30 December 2025 under `preceding`, and shows in December's window")
    func salaryAfterTheNewYearHolidaysPrecedesIntoDecember() throws {
        #expect(
            try Self.expand("monthly on 10", start: "2025-01-10", "2025-12-01", "2025-12-31", adjust: .preceding) == ["2025-12-10", "2025-12-30"])
        #expect(try Self.expand("monthly on 10", start: "2025-01-10", "2026-01-01", "2026-01-31", adjust: .preceding) == [])
        #expect(try Self.expand("monthly on 10", start: "2025-01-10", "2025-12-31", "2026-02-28", adjust: .preceding) == ["2026-02-10"])
    }

    @Test("a payment due on 1 January 2026 follows the New Year holidays to Monday 12 January, and shows in January's window only")
    func paymentOnNewYearFollowsTheHolidays() throws {
        #expect(try Self.expand("monthly on 31", start: "2025-12-01", "2026-01-01", "2026-01-31", adjust: .following) == ["2026-01-12"])
        #expect(try Self.expand("monthly on 31", start: "2025-12-01", "2025-12-01", "2025-12-31", adjust: .following) == [])
    }

    @Test("every working day includes the working Saturday 1 November 2025 and leaves out 2 May and 31 December 2025")
    func everyWorkingDayFollowsTheProductionCalendar() throws {
        #expect(
            try Self.expand("every working day", start: "2025-10-30", "2025-10-30", "2025-11-05") == [
                "2025-10-30", "2025-10-31", "2025-11-01", "2025-11-05",
            ])
        #expect(
            try Self.expand("every working day", start: "2025-04-28", "2025-04-28", "2025-05-12") == [
                "2025-04-28", "2025-04-29", "2025-04-30", "2025-05-05", "2025-05-06", "2025-05-07", "2025-05-12",
            ])
        #expect(try Self.expand("every working day", start: "2025-12-29", "2025-12-29", "2026-01-12") == ["2025-12-29", "2025-12-30", "2026-01-12"])
    }

    @Test("every working day over 2025 counts the calendar's 247 working days")
    func everyWorkingDayCounts2025() throws {
        #expect(try Self.expand("every working day", start: "2025-01-01", "2025-01-01", "2025-12-31").count == 247)
    }

    @Test("monthly on last working day: 30 December 2025 (the 31st is a day off), 30 May 2025 (the 31st is a Saturday)")
    func lastWorkingDayOfTheMonth() throws {
        #expect(
            try Self.expand("monthly on last working day", start: "2025-01-01", "2025-05-01", "2025-12-31") == [
                "2025-05-30", "2025-06-30", "2025-07-31", "2025-08-29", "2025-09-30", "2025-10-31", "2025-11-28", "2025-12-30",
            ])
    }

    @Test("monthly on first working day: 5 May 2025 (1–2 May off, then a weekend), the working Saturday 1 November, 12 January 2026")
    func firstWorkingDayOfTheMonth() throws {
        #expect(try Self.expand("monthly on first working day", start: "2025-01-01", "2025-05-01", "2025-05-31") == ["2025-05-05"])
        #expect(
            try Self.expand("monthly on first working day", start: "2025-01-01", "2025-11-01", "2026-01-31") == [
                "2025-11-01", "2025-12-01", "2026-01-12",
            ])
    }

    @Test(
        "modified-following at a month end moves back when the next working day is in the next month",
        arguments: [
            ("2025-05-01", "2025-05-31", ["2025-05-30"]),  // Saturday 31 May: Monday 2 June is next month
            ("2025-08-01", "2025-08-31", ["2025-08-29"]),  // Sunday 31 August
            ("2025-12-01", "2025-12-31", ["2025-12-30"]),  // 31 December 2025 is a day off, then the New Year holidays
            ("2025-10-01", "2025-10-31", ["2025-10-31"]),  // a Friday, a working day: stays
        ])
    func modifiedFollowingAtAMonthEnd(first: String, last: String, days: [String]) throws {
        #expect(try Self.expand("monthly on 31", start: "2025-01-01", first, last, adjust: .modifiedFollowing) == days)
    }

    @Test("modified-preceding at a month start: the working Saturday stays, 1 January 2026 moves on to the 12th")
    func modifiedPrecedingAtAMonthStart() throws {
        #expect(try Self.expand("monthly on 1", start: "2025-01-01", "2025-11-01", "2025-11-30", adjust: .modifiedPreceding) == ["2025-11-01"])
        #expect(try Self.expand("monthly on 1", start: "2025-01-01", "2026-01-01", "2026-01-31", adjust: .modifiedPreceding) == ["2026-01-12"])
        #expect(try Self.expand("monthly on 1", start: "2025-01-01", "2025-06-01", "2025-06-30", adjust: .modifiedPreceding) == ["2025-06-02"])
    }

    @Test("skip drops an occurrence on a day off, the working Saturday included as a working day")
    func skipDropsDaysOff() throws {
        #expect(
            try Self.expand("monthly on 1", start: "2025-01-01", "2025-01-01", "2025-12-31", adjust: .skip) == [
                "2025-04-01", "2025-07-01", "2025-08-01", "2025-09-01", "2025-10-01", "2025-11-01", "2025-12-01",
            ])
    }

    @Test("the ledger's own days change the calendar: a holiday added moves a salary, a working day added keeps it")
    func addedDaysChangeTheRule() throws {
        let changed = Self.ru.adding(holidays: [Self.day("2025-06-10")], workingDays: [Self.day("2025-05-08"), Self.day("2025-05-09")])
        var rule = try Rule(parsing: "monthly on 10", calendar: "RU")
        rule.adjustment = .preceding
        var days: [String] = []
        rule.forEachOccurrence(
            start: Self.day("2025-01-10"), in: DayRange(through: Self.day("2025-06-30"), from: Self.day("2025-05-01")), calendar: changed
        ) { days.append($1.iso) }
        #expect(days == ["2025-05-09", "2025-06-09"])
    }
}
