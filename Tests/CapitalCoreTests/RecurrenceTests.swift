import CapitalCore
import Testing

/// The expansion's edge cases, each with python-dateutil's answer (the reference) written out.
@Suite("Recurrence expansion")
struct RecurrenceTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// The occurrences of `rule` anchored at `start` from `first` to `last`, both inclusive, as ISO text.
    static func expand(_ rule: String, from start: String, _ first: String, _ last: String) throws -> [String] {
        try Recurrence(rrule: rule).occurrences(start: day(start), in: DayRange(through: day(last), from: day(first))).map(\.iso)
    }

    @Test("last Friday of every month")
    func lastFridayOfMonth() throws {
        #expect(
            try Self.expand("FREQ=MONTHLY;BYDAY=-1FR", from: "2025-01-01", "2025-01-01", "2025-12-31") == [
                "2025-01-31", "2025-02-28", "2025-03-28", "2025-04-25", "2025-05-30", "2025-06-27",
                "2025-07-25", "2025-08-29", "2025-09-26", "2025-10-31", "2025-11-28", "2025-12-26",
            ])
    }

    @Test(
        "monthly on the 31st skips the months without one (RFC 5545), whether said or taken from the start",
        arguments: ["FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=MONTHLY"])
    func monthlyOn31stSkipsShortMonths(rule: String) throws {
        #expect(
            try Self.expand(rule, from: "2025-01-31", "2025-01-01", "2025-12-31") == [
                "2025-01-31", "2025-03-31", "2025-05-31", "2025-07-31", "2025-08-31", "2025-10-31", "2025-12-31",
            ])
    }

    @Test("BYSETPOS=-1 over BYMONTHDAY=28,29,30,31 is the month's last day: monthly on the 31st, clamped")
    func monthlyOn31stClampsToMonthEnd() throws {
        #expect(
            try Self.expand("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", from: "2024-01-31", "2024-01-01", "2025-04-30") == [
                "2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30", "2024-07-31",
                "2024-08-31", "2024-09-30", "2024-10-31", "2024-11-30", "2024-12-31", "2025-01-31", "2025-02-28",
                "2025-03-31", "2025-04-30",
            ])
    }

    @Test("yearly from 29 February falls only in leap years")
    func yearlyOn29FebruaryOnlyInLeapYears() throws {
        #expect(
            try Self.expand("FREQ=YEARLY", from: "2024-02-29", "2024-01-01", "2036-12-31")
                == ["2024-02-29", "2028-02-29", "2032-02-29", "2036-02-29"])
        // A year without one yields nothing rather than 28 February or 1 March.
        #expect(try Self.expand("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", from: "2025-01-01", "2025-01-01", "2027-12-31").isEmpty)
    }

    @Test("BYWEEKNO with WKST=SU across year ends: week 1 starts on the Sunday of the week holding 4 January")
    func weekNumbersWithSundayWeekStartAcrossYearEnds() throws {
        #expect(
            try Self.expand("FREQ=YEARLY;BYWEEKNO=1;WKST=SU", from: "2019-12-01", "2019-12-01", "2021-01-31") == [
                "2019-12-29", "2019-12-30", "2019-12-31", "2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04",
                "2021-01-03", "2021-01-04", "2021-01-05", "2021-01-06", "2021-01-07", "2021-01-08", "2021-01-09",
            ])
        // With the default WKST=MO the same weeks start a day later (ISO 8601 weeks).
        #expect(
            try Self.expand("FREQ=YEARLY;BYWEEKNO=1", from: "2019-12-01", "2019-12-01", "2021-01-31") == [
                "2019-12-30", "2019-12-31", "2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04", "2020-01-05",
                "2021-01-04", "2021-01-05", "2021-01-06", "2021-01-07", "2021-01-08", "2021-01-09", "2021-01-10",
            ])
        #expect(
            try Self.expand("FREQ=YEARLY;BYWEEKNO=-1;WKST=SU;BYDAY=SU", from: "2019-01-01", "2019-01-01", "2023-12-31")
                == ["2019-12-22", "2020-12-27", "2021-12-26", "2022-12-25", "2023-12-24"])
    }

    @Test("week 53 with WKST=SU follows dateutil, including its reckoning of the previous year's last week")
    func week53FollowsDateutil() throws {
        // 2014 has 53 Sunday-weeks, its last running into 2015. dateutil also counts 1–2 January
        // 2027 as week 53 of 2026 (its `lnumweeks` uses the wrong year's length); capital agrees
        // with its reference.
        #expect(
            try Self.expand("FREQ=YEARLY;BYWEEKNO=53;WKST=SU", from: "2014-06-01", "2014-06-01", "2027-12-31") == [
                "2014-12-28", "2014-12-29", "2014-12-30", "2014-12-31", "2015-01-01", "2015-01-02", "2015-01-03",
                "2020-12-27", "2020-12-28", "2020-12-29", "2020-12-30", "2020-12-31", "2021-01-01", "2021-01-02",
                "2025-12-28", "2025-12-29", "2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02", "2026-01-03",
                "2027-01-01", "2027-01-02",
            ])
    }

    @Test("WKST decides which weeks a fortnightly rule keeps (RFC 5545's example)")
    func weekStartShiftsWeeklyIntervals() throws {
        let monday = try Self.expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", from: "1997-08-05", "1997-01-01", "1997-12-31")
        let sunday = try Self.expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", from: "1997-08-05", "1997-01-01", "1997-12-31")
        #expect(monday == ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"])
        #expect(sunday == ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"])
    }

    @Test("COUNT counts from the start, also the occurrences before the window")
    func countCountsFromStartBeforeWindow() throws {
        #expect(
            try Self.expand("FREQ=DAILY;COUNT=10", from: "2025-01-01", "2025-01-05", "2025-12-31")
                == ["2025-01-05", "2025-01-06", "2025-01-07", "2025-01-08", "2025-01-09", "2025-01-10"])
        // Used up in the window's own year before the window opens: nothing left.
        #expect(try Self.expand("FREQ=MONTHLY;COUNT=3", from: "2025-01-15", "2025-03-20", "2025-12-31").isEmpty)
        #expect(try Self.expand("FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH", from: "2025-01-01", "2025-01-09", "2025-12-31") == ["2025-01-09", "2025-01-14"])
    }

    @Test(
        "UNTIL is inclusive, whichever way it is written",
        arguments: ["UNTIL=20250110", "UNTIL=20250110T000000", "UNTIL=20250110T235959Z", "UNTIL=2025-01-10"])
    func untilIsInclusive(until: String) throws {
        let dates = try Self.expand("FREQ=DAILY;INTERVAL=3;" + until, from: "2025-01-01", "2025-01-01", "2025-12-31")
        #expect(dates == ["2025-01-01", "2025-01-04", "2025-01-07", "2025-01-10"])
    }

    @Test("the start is an occurrence only when it matches the rule (dateutil, unlike RFC 5545)")
    func startCountsOnlyWhenItMatches() throws {
        #expect(try Self.expand("FREQ=MONTHLY;BYDAY=-1FR;COUNT=2", from: "2025-01-15", "2025-01-01", "2025-12-31") == ["2025-01-31", "2025-02-28"])
        // 2025-01-01 is a Wednesday.
        #expect(try Self.expand("FREQ=WEEKLY;BYDAY=MO;COUNT=2", from: "2025-01-01", "2025-01-01", "2025-12-31") == ["2025-01-06", "2025-01-13"])
    }

    @Test("BYSETPOS picks within the first week from the start on, not within the whole week")
    func weeklySetPositionsStartAtTheStart() throws {
        // Wednesday 2025-01-01: the first period is Wednesday to Sunday, so its first MO/FR is Friday.
        #expect(
            try Self.expand("FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1", from: "2025-01-01", "2025-01-01", "2025-01-20")
                == ["2025-01-03", "2025-01-06", "2025-01-13", "2025-01-20"])
    }

    @Test(
        "RFC 5545's examples, as dateutil expands them",
        arguments: [
            ("FREQ=MONTHLY;BYDAY=TU,WE,TH;BYSETPOS=3;COUNT=3", "1997-09-04", ["1997-09-04", "1997-10-07", "1997-11-06"]),
            (
                "FREQ=MONTHLY;BYMONTHDAY=-2;COUNT=6", "1997-09-28",
                ["1997-09-29", "1997-10-30", "1997-11-29", "1997-12-30", "1998-01-30", "1998-02-27"]
            ),
            ("FREQ=YEARLY;BYDAY=20MO;COUNT=3", "1997-01-01", ["1997-05-19", "1998-05-18", "1999-05-17"]),
            ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;COUNT=3", "1997-01-01", ["1997-05-12", "1998-05-11", "1999-05-17"]),
            (
                "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", "1997-01-01",
                [
                    "1997-01-01", "1997-04-10", "1997-07-19", "2000-01-01", "2000-04-09", "2000-07-18", "2003-01-01", "2003-04-10", "2003-07-19",
                    "2006-01-01",
                ]
            ),
        ])
    func rfcExamples(rule: String, start: String, dates: [String]) throws {
        #expect(try Self.expand(rule, from: start, start, "2010-12-31") == dates)
    }

    @Test("plain and ordinal weekdays in one BYDAY must both hold, as in dateutil")
    func mixedWeekdaysIntersect() throws {
        // RFC 5545 would give every Monday and the last Friday; dateutil, the reference, keeps
        // days that are both, so none.
        #expect(try Self.expand("FREQ=MONTHLY;BYDAY=MO,-1FR", from: "2025-01-01", "2025-01-01", "2025-12-31").isEmpty)
        #expect(
            try Self.expand("FREQ=MONTHLY;BYDAY=FR,-1FR", from: "2025-01-01", "2025-01-01", "2025-03-31") == [
                "2025-01-31", "2025-02-28", "2025-03-28",
            ])
    }

    @Test(
        "a rule with no occurrences ends, with or without COUNT, over years 1 to 9999",
        arguments: ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31;COUNT=1", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=6"])
    func emptyRulesEnd(rule: String) throws {
        #expect(try Self.expand(rule, from: "2024-01-01", "0001-01-01", "9999-12-31").isEmpty)
        let everything = DayRange(Day(Int.min / 2), Day(Int.max / 2))
        #expect(try Recurrence(rrule: rule).occurrences(start: Self.day("2024-01-01"), in: everything).isEmpty)
    }

    @Test("a window far from the start gives the same dates as expanding from the start")
    func windowSkipsAhead() throws {
        for rule in [
            "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,SU;WKST=SU", "FREQ=MONTHLY;INTERVAL=5;BYDAY=-1MO,2TU", "FREQ=DAILY;INTERVAL=7;BYMONTHDAY=1,2,3,4,5,6,7",
        ] {
            let parsed = try Recurrence(rrule: rule)
            let start = Self.day("2001-12-30")
            let all = parsed.occurrences(start: start, in: DayRange(start, Self.day("2040-01-01")))
            let window = DayRange(Self.day("2031-12-29"), Self.day("2033-01-08"))
            #expect(parsed.occurrences(start: start, in: window) == all.filter(window.contains), "\(rule)")
        }
    }

    @Test("occurrenceCount counts what forEachOccurrence reports")
    func countMatchesOccurrences() throws {
        let rule = try Recurrence(rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")  // last weekday of the month
        let range = DayRange(Self.day("2025-01-01"), Self.day("2035-01-01"))
        #expect(rule.occurrenceCount(start: Self.day("2025-01-01"), in: range) == 120)
        #expect(rule.occurrences(start: Self.day("2025-01-01"), in: range).count == 120)
    }
}
