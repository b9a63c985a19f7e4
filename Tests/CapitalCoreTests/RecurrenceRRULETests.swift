import CapitalCore
import Testing

/// RRULE text: what capital reads, how it prints it back, and what it refuses.
@Suite("Recurrence RRULE text")
struct RecurrenceRRULETests {
    @Test("reads every supported part into the value")
    func readsEveryPart() throws {
        let rule = try Recurrence(
            rrule: "RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,12;BYYEARDAY=1,-1;BYMONTHDAY=1,-1;BYDAY=MO,-1FR,+2TU;BYSETPOS=1,-1;WKST=SU")
        var expected = Recurrence(frequency: .yearly)
        expected.interval = 2
        expected.count = 10
        expected.byMonth = [1, 12]
        expected.byYearDay = [1, -1]
        expected.byMonthDay = [1, -1]
        expected.byDay = [.init(.monday), .init(.friday, -1), .init(.tuesday, 2)]
        expected.bySetPos = [1, -1]
        expected.weekStart = .sunday
        #expect(rule == expected)
        #expect(try Recurrence(rrule: "FREQ=YEARLY;BYWEEKNO=1,-1,53").byWeekNo == [1, -1, 53])
        #expect(try Recurrence(rrule: "FREQ=DAILY;UNTIL=20250131").until == Day(iso: "2025-01-31"))
    }

    @Test(
        "prints parts in canonical order with defaults left out",
        arguments: [
            ("rrule:freq=monthly;byday=-1fr", "FREQ=MONTHLY;BYDAY=-1FR"),
            ("FREQ=DAILY;INTERVAL=1;WKST=MO", "FREQ=DAILY"),
            ("WKST=SU;BYSETPOS=-1;BYDAY=MO,TU;FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU;BYSETPOS=-1;WKST=SU"),
            ("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
            ("FREQ=YEARLY;UNTIL=20300228T120000Z;BYMONTH=2;BYMONTHDAY=-1", "FREQ=YEARLY;UNTIL=20300228;BYMONTH=2;BYMONTHDAY=-1"),
            ("FREQ=DAILY;UNTIL=2025-12-31", "FREQ=DAILY;UNTIL=20251231"),
            ("FREQ=YEARLY;BYWEEKNO=-1;BYYEARDAY=100;BYMONTH=4;COUNT=3", "FREQ=YEARLY;COUNT=3;BYMONTH=4;BYWEEKNO=-1;BYYEARDAY=100"),
            ("FREQ=MONTHLY;BYDAY=+1MO,2TU", "FREQ=MONTHLY;BYDAY=1MO,2TU"),
            (" Freq = Weekly ; ByDay = fr ; ", "FREQ=WEEKLY;BYDAY=FR"),
        ])
    func printsCanonically(text: String, canonical: String) throws {
        let rule = try Recurrence(rrule: text)
        #expect(rule.rrule == canonical)
        #expect(try Recurrence(rrule: rule.rrule) == rule)
    }

    @Test("a rule built in code prints to text that reads back to it")
    func builtRuleRoundTrips() throws {
        var rule = Recurrence(frequency: .monthly)
        rule.interval = 3
        rule.until = try Day(iso: "2031-07-04")
        rule.byDay = [.init(.wednesday, -2), .init(.sunday, 1)]
        rule.byMonth = [12, 3]
        rule.bySetPos = [2]
        rule.weekStart = .saturday
        #expect(rule.rrule == "FREQ=MONTHLY;INTERVAL=3;UNTIL=20310704;BYMONTH=12,3;BYDAY=-2WE,1SU;BYSETPOS=2;WKST=SA")
        #expect(try Recurrence(rrule: rule.rrule) == rule)
    }

    // MARK: Bad input (issue 3)

    @Test("FREQ=HOURLY is refused by name")
    func hourlyIsUnsupported() {
        #expect(throws: RecurrenceError.unsupported(part: "FREQ", value: "HOURLY")) { try Recurrence(rrule: "FREQ=HOURLY;INTERVAL=2") }
        let message = RecurrenceError.unsupported(part: "FREQ", value: "HOURLY").description
        #expect(message.contains("FREQ=HOURLY"))
    }

    @Test("BYMONTHDAY=32 is out of range, and the error says so with the value")
    func monthDay32IsInvalid() throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(rrule: "FREQ=MONTHLY;BYMONTHDAY=1,32") }
        guard case .invalid(let part, let value, _) = error else { Issue.record("\(error)"); return }
        #expect(part == "BYMONTHDAY" && value == "32")
        #expect(error.description.contains("BYMONTHDAY") && error.description.contains("'32'"))
    }

    @Test("INTERVAL=0 is refused")
    func intervalZeroIsInvalid() throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(rrule: "FREQ=WEEKLY;INTERVAL=0") }
        guard case .invalid(let part, let value, _) = error else { Issue.record("\(error)"); return }
        #expect(part == "INTERVAL" && value == "0")
        #expect(error.description.contains("INTERVAL") && error.description.contains("'0'"))
    }

    @Test("UNTIL before the start is valid, as in dateutil, and never occurs")
    func untilBeforeStartNeverOccurs() throws {
        let rule = try Recurrence(rrule: "FREQ=DAILY;UNTIL=20241231")
        try rule.validate(start: Day(iso: "2025-01-01"))
        #expect(rule.neverOccurs(from: try Day(iso: "2025-01-01")) == "UNTIL 2024-12-31 is before the start 2025-01-01: the rule has no occurrences")
        #expect(rule.neverOccurs(from: try Day(iso: "2024-12-31")) == nil)  // the same day is fine
        // The expansion itself has nothing to give, as dateutil's.
        #expect(rule.occurrences(start: try Day(iso: "2025-01-01"), in: DayRange(try Day(iso: "2024-01-01"), try Day(iso: "2026-01-01"))).isEmpty)
    }

    @Test("COUNT and UNTIL together conflict, naming both")
    func countWithUntilConflicts() throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(rrule: "FREQ=DAILY;COUNT=3;UNTIL=20250131") }
        guard case .conflict(let message) = error else { Issue.record("\(error)"); return }
        #expect(message.contains("COUNT=3") && message.contains("UNTIL=20250131"))
        var built = Recurrence(frequency: .daily)
        built.count = 3
        built.until = try Day(iso: "2025-01-31")
        #expect(throws: error) { try built.validate(start: Day(iso: "2025-01-01")) }
    }

    @Test(
        "parts capital does not expand are refused by name",
        arguments: [
            ("FREQ=MINUTELY", "FREQ", "MINUTELY"), ("FREQ=SECONDLY", "FREQ", "SECONDLY"),
            ("FREQ=DAILY;BYHOUR=9", "BYHOUR", "9"), ("FREQ=DAILY;BYMINUTE=30", "BYMINUTE", "30"),
            ("FREQ=DAILY;BYSECOND=0", "BYSECOND", "0"), ("FREQ=YEARLY;BYEASTER=0", "BYEASTER", "0"),
            ("FREQ=DAILY;RDATE=20250101", "RDATE", "20250101"),
        ])
    func unsupportedParts(text: String, part: String, value: String) {
        #expect(throws: RecurrenceError.unsupported(part: part, value: value)) { try Recurrence(rrule: text) }
    }

    @Test func aRefusedPartSaysWhyForItsKind() {
        #expect(RecurrenceError.unsupported(part: "BYEASTER", value: "0").description.contains("python-dateutil's own extension, not RFC 5545"))
        #expect(RecurrenceError.unsupported(part: "RDATE", value: "20250101").description.contains("as a line of a rule set (RRULE:… RDATE:…)"))
        #expect(RecurrenceError.unsupported(part: "BYHOUR", value: "9").description.contains("capital's rules recur by day"))
    }

    @Test(
        "values out of range or not allowed with the FREQ are invalid, naming the part and the value",
        arguments: [
            ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY", "0"), ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY", "-32"),
            ("FREQ=YEARLY;BYMONTH=13", "BYMONTH", "13"), ("FREQ=YEARLY;BYMONTH=0", "BYMONTH", "0"),
            ("FREQ=YEARLY;BYYEARDAY=367", "BYYEARDAY", "367"), ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO", "54"),
            ("FREQ=YEARLY;BYWEEKNO=0", "BYWEEKNO", "0"),
            ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS", "0"), ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367", "BYSETPOS", "367"),
            ("FREQ=DAILY;INTERVAL=-1", "INTERVAL", "-1"), ("FREQ=DAILY;INTERVAL=two", "INTERVAL", "TWO"),
            ("FREQ=WEEKLY;BYDAY=XX", "BYDAY", "XX"), ("FREQ=WEEKLY;BYDAY=MO,", "BYDAY", "MO,"),
            ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY", "6MO"), ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY", "0MO"),
            ("FREQ=YEARLY;BYDAY=54MO", "BYDAY", "54MO"), ("FREQ=DAILY;COUNT=-1", "COUNT", "-1"), ("FREQ=WEEKLY;BYDAY=0MO", "BYDAY", "0MO"),
            ("FREQ=DAILY;UNTIL=20250230", "UNTIL", "20250230"), ("FREQ=DAILY;UNTIL=2025", "UNTIL", "2025"),
            ("FREQ=DAILY;UNTIL=20250101T250000", "UNTIL", "20250101T250000"), ("FREQ=DAILY;UNTIL=00001231", "UNTIL", "00001231"),
            ("FREQ=DAILY;WKST=XY", "WKST", "XY"), ("FREQ=FORTNIGHTLY", "FREQ", "FORTNIGHTLY"),
            ("FREQ=DAILY;FOO=1", "FOO", "1"), ("FREQ=DAILY;COUNT", "COUNT", ""),
        ])
    func invalidValues(text: String, part: String, value: String) throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(rrule: text) }
        guard case .invalid(let actualPart, let actualValue, let reason) = error else {
            Issue.record("\(text): expected .invalid, got \(error)")
            return
        }
        #expect(actualPart == part && actualValue == value, "\(text): \(error)")
        #expect(!reason.isEmpty)
    }

    /// Issue 17, case 13: what RFC 5545 leaves out but python-dateutil expands is read, with
    /// dateutil's meaning (the dates are checked against dateutil in RecurrenceFixtureTests); a rule
    /// that never occurs says why, for schedules to refuse.
    @Test(
        "what python-dateutil expands beyond RFC 5545 is read",
        arguments: [
            "FREQ=DAILY;COUNT=0", "FREQ=WEEKLY;BYDAY=1MO", "FREQ=DAILY;BYDAY=-1FR", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", "FREQ=MONTHLY;BYWEEKNO=1",
            "FREQ=WEEKLY;BYWEEKNO=1,2", "FREQ=MONTHLY;BYYEARDAY=100", "FREQ=DAILY;BYYEARDAY=1", "FREQ=WEEKLY;BYMONTHDAY=15",
            "FREQ=DAILY;UNTIL=20241231",
        ])
    func readsWhatDateutilExpands(text: String) throws {
        let rule = try Recurrence(rrule: text)
        let start = try Day(iso: "2025-01-01")
        try rule.validate(start: start)
        #expect(try Recurrence(rrule: rule.rrule) == rule)
        let never = rule.neverOccurs(from: start)
        #expect((never != nil) == (text.contains("COUNT=0") || text.contains("UNTIL")), "\(text): \(never ?? "occurs")")
        if never != nil { #expect(rule.occurrences(start: start, in: DayRange(start, start.advanced(by: 400))).isEmpty) }
    }

    @Test(
        "a missing FREQ or a part given twice conflicts",
        arguments: [
            ("BYDAY=MO", "FREQ is missing"), ("", "FREQ is missing"),
            ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"), ("FREQ=MONTHLY;BYDAY=MO;byday=TU", "BYDAY is given twice"),
        ])
    func conflicts(text: String, beginning: String) throws {
        let error = try #require(throws: RecurrenceError.self) { try Recurrence(rrule: text) }
        guard case .conflict(let message) = error else { Issue.record("\(text): \(error)"); return }
        #expect(message.hasPrefix(beginning), "\(message)")
    }

    @Test("a rule built in code with invalid parts has no occurrences and fails validation")
    func invalidBuiltRuleHasNoOccurrences() throws {
        var rule = Recurrence(frequency: .daily)
        rule.interval = 0
        let start = try Day(iso: "2025-01-01")
        #expect(rule.occurrences(start: start, in: DayRange(start, start.advanced(by: 30))).isEmpty)
        #expect(throws: RecurrenceError.invalid(part: "INTERVAL", value: "0", reason: "must be 1 or more")) { try rule.validate(start: start) }
    }
}
