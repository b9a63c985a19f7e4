import CapitalCore
import Testing

/// `YYYY-MM-DD` as a `Day`, for tables of cases.
private func day(_ iso: String) -> Day { try! Day(iso: iso) }

/// A calendar with days off of several shapes (weekdays checked against Python's `datetime`):
/// Memorial Day Monday 2025-05-26, a Friday 2025-05-30 that makes the end of May awkward,
/// Labor Day Monday 2025-09-01, Russia's 2025-11-03 and 2025-11-04, a New Year's Eve Wednesday
/// 2025-12-31 and Russia's New Year holidays 2026-01-01 to 2026-01-08.
private let sample = WorkingDayCalendar(
    name: "sample",
    holidays: ["2025-05-26", "2025-05-30", "2025-09-01", "2025-11-03", "2025-11-04", "2025-12-31"].map(day)
        + (1...8).map { day("2026-01-0\($0)") }
)

/// Russia's November 2025: Saturday 2025-11-01 worked, Monday 2025-11-03 and Tuesday 2025-11-04 off.
private let novemberRU = WorkingDayCalendar(
    name: "RU", holidays: [day("2025-11-03"), day("2025-11-04")], workingDays: [day("2025-11-01")]
)

@Suite("WorkingDayCalendar")
struct WorkingDayCalendarTests {
    @Test("`none` has only the weekend off, before, inside and after the table's years")
    func weekendsOnlyEverywhere() {
        let none = WorkingDayCalendar.none
        #expect(none.name == "none")
        #expect(none.weekend == [.saturday, .sunday])
        // 1890 to 2210 covers the table (2020–2035) and the weekday rule on both sides of it.
        for number in Day.daysFromCivil(year: 1890, month: 1, day: 1)..<Day.daysFromCivil(year: 2210, month: 1, day: 1) {
            let d = Day(number)
            if none.isWorkingDay(d) == d.weekday.isWeekend {
                Issue.record("\(d) (\(d.weekday)) isWorkingDay \(none.isWorkingDay(d))")
                return
            }
        }
    }

    @Test("a holiday on a weekday is a day off; the days around it are not")
    func holidayOnWeekday() {
        #expect(!sample.isWorkingDay(day("2025-05-26")))
        #expect(sample.isWorkingDay(day("2025-05-23")))
        #expect(sample.isWorkingDay(day("2025-05-27")))
        #expect(!sample.isWorkingDay(day("2025-05-24")))
    }

    @Test("a transferred working Saturday counts as a working day, and no adjustment moves it")
    func transferredWorkingSaturday() {
        let saturday = day("2025-11-01")
        #expect(saturday.weekday == .saturday)
        #expect(novemberRU.isWorkingDay(saturday))
        #expect(!novemberRU.isWorkingDay(day("2025-11-08")))  // an ordinary Saturday
        for mode in BusinessDayAdjustment.allCases {
            #expect(mode.adjust(saturday, in: novemberRU) == saturday, "\(mode)")
        }
        // Without the transfer the same Saturday moves.
        #expect(BusinessDayAdjustment.preceding.adjust(saturday, in: .none) == day("2025-10-31"))
    }

    @Test("a salary on the Saturday before a Monday holiday, paid `preceding`, lands on Friday")
    func salaryBeforeMondayHoliday() {
        let memorialDay = WorkingDayCalendar(name: "US", holidays: [day("2025-05-26")])
        #expect(BusinessDayAdjustment.preceding.adjust(day("2025-05-24"), in: memorialDay) == day("2025-05-23"))
        #expect(BusinessDayAdjustment.preceding.adjust(day("2025-05-25"), in: memorialDay) == day("2025-05-23"))
        #expect(BusinessDayAdjustment.preceding.adjust(day("2025-05-26"), in: memorialDay) == day("2025-05-23"))
        #expect(BusinessDayAdjustment.following.adjust(day("2025-05-24"), in: memorialDay) == day("2025-05-27"))
    }

    @Test("a working day never moves, whatever the adjustment", arguments: BusinessDayAdjustment.allCases)
    func workingDayStays(mode: BusinessDayAdjustment) {
        for iso in ["2025-05-27", "2025-05-29", "2025-10-31", "2025-12-30", "2026-01-09"] {
            #expect(mode.adjust(day(iso), in: sample) == day(iso), "\(iso)")
        }
    }

    @Test(
        "each adjustment moves a day off as documented",
        arguments: [
            // none: unchanged, even on a holiday.
            (BusinessDayAdjustment.none, "2025-05-24", "2025-05-24"),
            (.none, "2025-12-31", "2025-12-31"),
            // following / preceding across a weekend and a Monday holiday.
            (.following, "2025-05-24", "2025-05-27"),
            (.preceding, "2025-05-24", "2025-05-23"),
            // across the year end and ten days off.
            (.following, "2026-01-01", "2026-01-09"),
            (.preceding, "2026-01-08", "2025-12-30"),
            (.following, "2025-12-31", "2026-01-09"),
            // modified-following: stays in the month when following does.
            (.modifiedFollowing, "2025-05-24", "2025-05-27"),
            // ...and turns back at the month end: Saturday 31 May would follow to 2 June, so it
            // precedes past the Friday holiday to Thursday.
            (.modifiedFollowing, "2025-05-31", "2025-05-29"),
            // a Saturday whose following day is past a Sunday and a Monday holiday in September.
            (.modifiedFollowing, "2025-08-30", "2025-08-29"),
            // New Year's Eve holiday: following is 9 January, so back to 30 December.
            (.modifiedFollowing, "2025-12-31", "2025-12-30"),
            // leap-year February end: Saturday 29 February 2020 goes back to Friday the 28th.
            (.modifiedFollowing, "2020-02-29", "2020-02-28"),
            // modified-preceding: stays in the month when preceding does.
            (.modifiedPreceding, "2025-05-31", "2025-05-29"),
            // ...and turns forward at the month start: Saturday 1 November would precede to
            // 31 October, so it follows past Sunday and two holidays to Wednesday 5 November.
            (.modifiedPreceding, "2025-11-01", "2025-11-05"),
            (.modifiedPreceding, "2026-01-01", "2026-01-09"),
            (.modifiedPreceding, "2026-03-01", "2026-03-02"),
            (.modifiedPreceding, "2025-09-01", "2025-09-02"),
        ]
    )
    func adjustments(mode: BusinessDayAdjustment, from: String, to: String) {
        #expect(mode.adjust(day(from), in: sample) == day(to))
    }

    @Test("skip drops weekend days and holidays and keeps working days")
    func skip() {
        #expect(BusinessDayAdjustment.skip.adjust(day("2025-05-24"), in: sample) == nil)
        #expect(BusinessDayAdjustment.skip.adjust(day("2025-05-26"), in: sample) == nil)
        #expect(BusinessDayAdjustment.skip.adjust(day("2026-01-05"), in: sample) == nil)
        #expect(BusinessDayAdjustment.skip.adjust(day("2025-05-27"), in: sample) == day("2025-05-27"))
    }

    @Test("adjustments are spelled as in rules and ledgers")
    func rawValues() {
        #expect(
            BusinessDayAdjustment.allCases.map(\.rawValue) == [
                "none", "following", "preceding", "modified-following", "modified-preceding", "skip",
            ])
    }

    @Test("the user's additions win over the calendar's own days, and leave the original alone")
    func addingUserDays() {
        let user = novemberRU.adding(
            holidays: [day("2025-11-05"), day("2025-11-01")],  // a Wednesday off; the worked Saturday off again
            workingDays: [day("2025-11-04"), day("2025-11-15")]  // a holiday worked; a Saturday worked
        )
        #expect(!user.isWorkingDay(day("2025-11-05")))
        #expect(!user.isWorkingDay(day("2025-11-01")))
        #expect(user.isWorkingDay(day("2025-11-04")))
        #expect(user.isWorkingDay(day("2025-11-15")))
        #expect(!user.isWorkingDay(day("2025-11-03")))  // untouched
        #expect(user.name == "RU")
        // The calendar it came from is unchanged.
        #expect(novemberRU.isWorkingDay(day("2025-11-01")))
        #expect(!novemberRU.isWorkingDay(day("2025-11-04")))
        #expect(novemberRU.isWorkingDay(day("2025-11-05")))
    }

    @Test("a day given as both a holiday and a working day is a working day")
    func workingDayWins() {
        let both = WorkingDayCalendar(name: "x", holidays: [day("2025-05-27")], workingDays: [day("2025-05-27")])
        #expect(both.isWorkingDay(day("2025-05-27")))
        #expect(both.adding(holidays: [day("2025-05-28")], workingDays: [day("2025-05-28")]).isWorkingDay(day("2025-05-28")))
    }

    @Test("calendars that agree on every day are equal and hash alike")
    func equality() {
        let a = WorkingDayCalendar(name: "x", holidays: [day("2025-05-26"), day("2025-12-31")], workingDays: [day("2025-11-01")])
        let b = WorkingDayCalendar(
            name: "x",
            holidays: [day("2025-12-31"), day("2025-05-26"), day("2025-05-26"), day("2025-05-24")],  // a Saturday holiday changes nothing
            workingDays: [day("2025-11-01"), day("2025-05-27")]  // a Tuesday was working already
        )
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a.adding(holidays: [], workingDays: []) == a)
        #expect(a != WorkingDayCalendar(name: "y", holidays: [day("2025-05-26"), day("2025-12-31")], workingDays: [day("2025-11-01")]))
        #expect(a != a.adding(holidays: [day("2025-05-28")], workingDays: []))
        #expect(
            a
                != WorkingDayCalendar(
                    name: "x", weekend: [.friday, .saturday], holidays: [day("2025-05-26"), day("2025-12-31")], workingDays: [day("2025-11-01")]))
        // Undoing an addition gives back an equal calendar.
        #expect(a.adding(holidays: [day("2025-05-28")], workingDays: []).adding(holidays: [], workingDays: [day("2025-05-28")]) == a)
    }

    @Test("another weekend: Friday and Saturday off, Sunday working")
    func otherWeekend() {
        let calendar = WorkingDayCalendar(name: "IL", weekend: [.friday, .saturday])
        #expect(calendar.weekend == [.friday, .saturday])
        #expect(!calendar.isWorkingDay(day("2025-05-23")))  // Friday
        #expect(calendar.isWorkingDay(day("2025-05-25")))  // Sunday
        #expect(calendar.isWorkingDay(day("2150-06-07")))  // a Sunday beyond the table
        #expect(!calendar.isWorkingDay(day("2150-06-06")))  // a Saturday beyond the table
    }

    @Test("days far from the data's years still count: in the widened table and beyond it")
    func farDays() {
        let calendar = WorkingDayCalendar(
            name: "far",
            holidays: [day("1901-01-01"), day("2199-12-31"), day("2500-01-04")],  // Tue, Tue, Mon
            workingDays: [day("1850-01-05"), day("2300-01-06")]  // Saturdays
        )
        #expect(!calendar.isWorkingDay(day("1901-01-01")))
        #expect(!calendar.isWorkingDay(day("2199-12-31")))
        #expect(!calendar.isWorkingDay(day("2500-01-04")))
        #expect(calendar.isWorkingDay(day("1850-01-05")))
        #expect(calendar.isWorkingDay(day("2300-01-06")))
        #expect(calendar.isWorkingDay(day("2500-01-05")))  // the Tuesday after
        #expect(!calendar.isWorkingDay(day("2300-01-07")))  // the Sunday after
        #expect(BusinessDayAdjustment.following.adjust(day("2500-01-02"), in: calendar) == day("2500-01-05"))
    }

    @Test(
        "forEachWorkingDay visits exactly the working days, in order",
        arguments: [("2019-12-20", "2036-01-15"), ("2025-11-01", "2025-11-06"), ("2025-05-24", "2025-05-24"), ("1849-12-25", "1850-01-10")]
    )
    func forEachWorkingDay(first: String, end: String) {
        let calendar = novemberRU.adding(holidays: [day("2035-12-31"), day("2020-01-01")], workingDays: [day("1850-01-05")])
        let range = DayRange(day(first), day(end))
        var visited: [Day] = []
        calendar.forEachWorkingDay(in: range) { visited.append($0) }
        #expect(visited == range.filter(calendar.isWorkingDay))
    }

    @Test("next and previous working day from a working day, a weekend and a holiday run")
    func nextAndPrevious() {
        #expect(sample.nextWorkingDay(onOrAfter: day("2025-05-27")) == day("2025-05-27"))
        #expect(sample.nextWorkingDay(onOrAfter: day("2025-12-31")) == day("2026-01-09"))
        #expect(sample.previousWorkingDay(onOrBefore: day("2026-01-04")) == day("2025-12-30"))
        #expect(sample.previousWorkingDay(onOrBefore: day("2025-06-01")) == day("2025-05-29"))
    }

    @Test("a calendar without working days gives nil instead of searching forever")
    func noWorkingDays() {
        let never = WorkingDayCalendar(name: "never", weekend: Set(Weekday.allCases))
        #expect(never.nextWorkingDay(onOrAfter: day("2025-05-24")) == nil)
        #expect(never.previousWorkingDay(onOrBefore: day("2025-05-24")) == nil)
        #expect(BusinessDayAdjustment.modifiedFollowing.adjust(day("2025-05-24"), in: never) == nil)
        #expect(BusinessDayAdjustment.none.adjust(day("2025-05-24"), in: never) == day("2025-05-24"))
        let once = never.adding(holidays: [], workingDays: [day("2025-06-10")])
        #expect(once.nextWorkingDay(onOrAfter: day("2025-05-24")) == day("2025-06-10"))
        #expect(BusinessDayAdjustment.modifiedPreceding.adjust(day("2025-06-30"), in: once) == day("2025-06-10"))
    }
}

@Suite("WorkingDayCalendar data text")
struct WorkingDayCalendarParsingTests {
    @Test("reads holiday and workday lines, skipping comments, blank lines and carriage returns")
    func parsesDataText() throws {
        let text = """
            # RU: a comment
            2025-11-01 workday working Saturday; its day off moved to 2025-11-03\r
            2025-11-03 holiday Day off (substituted from 11/01/2025)

              2025-11-04 holiday Unity Day
            2025-11-05 holiday
            """
        let parsed = try WorkingDayCalendar(name: "RU", parsing: text)
        #expect(parsed == novemberRU.adding(holidays: [day("2025-11-05")], workingDays: []))
    }

    @Test(
        "refuses a line that is not a day and a kind, naming the line",
        arguments: [
            (
                "# ok\n2025-11-03 vacation Unity Day",
                "calendar 'RU', line 2: '2025-11-03 vacation Unity Day': expected 'YYYY-MM-DD holiday NAME' or 'YYYY-MM-DD workday NOTE'"
            ),
            ("2025-11-03", "calendar 'RU', line 1: '2025-11-03': expected 'YYYY-MM-DD holiday NAME' or 'YYYY-MM-DD workday NOTE'"),
            ("2025-02-30 holiday Nope", "calendar 'RU', line 1: '2025-02-30' is not a date: that month has days 01 to 28"),
            ("\n\n3 Nov holiday Unity Day", "calendar 'RU', line 3: '3' is not a date: expected YYYY-MM-DD"),
        ]
    )
    func refusesBadLines(text: String, message: String) {
        #expect {
            _ = try WorkingDayCalendar(name: "RU", parsing: text)
        } throws: { error in
            (error as? CalendarError)?.description == message
        }
    }

    @Test("an unknown calendar's error lists the known ones")
    func unknownMessage() {
        #expect(CalendarError.unknown("XX", known: ["RU", "US", "none"]).description == "calendar 'XX': unknown; capital ships RU, US and none")
        #expect(CalendarError.unknown("XX", known: ["none"]).description == "calendar 'XX': unknown; capital ships none")
    }
}
