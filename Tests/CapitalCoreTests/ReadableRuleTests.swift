import CapitalCore
import Testing

/// Readable rules: each documented form (docs/rules.md) maps to an RRULE and an adjustment and
/// prints back; where capital deliberately differs from RFC 5545, a named test says so.
@Suite("Readable rules")
struct ReadableRuleTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// The days `rule` falls on from `first` to `last` (both included), anchored at `start`.
    static func expand(
        _ text: String, start: String, _ first: String, _ last: String, adjust: BusinessDayAdjustment? = nil,
        calendar: WorkingDayCalendar = .none
    ) throws -> [String] {
        var rule = try Rule(parsing: text)
        if let adjust { rule.adjustment = adjust }
        var days: [String] = []
        rule.forEachOccurrence(start: day(start), in: DayRange(through: day(last), from: day(first)), calendar: calendar) { _, day in
            days.append(day.iso)
        }
        return days
    }

    struct Form: Sendable, CustomTestStringConvertible {
        var text: String
        var rrule: String
        var adjustment: BusinessDayAdjustment
        /// How capital prints it back: the text itself for canonical forms.
        var printed: String
        var testDescription: String { text }

        init(_ text: String, _ rrule: String, _ adjustment: BusinessDayAdjustment = .none, printed: String? = nil) {
            self.text = text
            self.rrule = rrule
            self.adjustment = adjustment
            self.printed = printed ?? text
        }
    }

    /// The table of docs/rules.md and of the issue, form by form.
    static let documentedForms: [Form] = [
        Form("daily", "FREQ=DAILY"),
        Form("every 3 days", "FREQ=DAILY;INTERVAL=3"),
        Form("every working day", "FREQ=DAILY", .skip),
        Form("weekly on mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH"),
        Form("every 2 weeks on fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        Form("monthly on 25", "FREQ=MONTHLY;BYMONTHDAY=25"),
        Form("monthly on 10,25", "FREQ=MONTHLY;BYMONTHDAY=10,25"),
        Form("monthly on 31", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
        Form("monthly on 29", "FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1"),
        Form("monthly on last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        Form("monthly on last working day", "FREQ=MONTHLY;BYMONTHDAY=-1", .preceding),
        Form("monthly on first working day", "FREQ=MONTHLY;BYMONTHDAY=1", .following),
        Form("monthly on 2nd tue", "FREQ=MONTHLY;BYDAY=2TU"),
        Form("monthly on last fri", "FREQ=MONTHLY;BYDAY=-1FR"),
        Form("quarterly on 15", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"),
        Form("every 3 months on 1", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", printed: "quarterly on 1"),
        Form("yearly on 03-01", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1"),
        Form("yearly on 02-29", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"),
    ]

    @Test("each documented form parses to its RRULE and adjustment", arguments: documentedForms)
    func documentedFormParsesToItsRRULE(_ form: Form) throws {
        let rule = try Rule(parsing: form.text)
        #expect(rule.recurrence.rrule == form.rrule)
        #expect(rule.adjustment == form.adjustment)
    }

    @Test("each documented form prints back: canonical forms as written, `every 3 months` as `quarterly`", arguments: documentedForms)
    func documentedFormPrintsBack(_ form: Form) throws {
        #expect(try Rule(parsing: form.text).text == form.printed)
    }

    @Test("the RRULE of each documented form, with its adjustment, prints as the readable form", arguments: documentedForms)
    func rruleOfADocumentedFormPrintsReadably(_ form: Form) throws {
        var rule = try Rule(parsing: form.rrule)
        rule.adjustment = form.adjustment
        #expect(rule.text == form.printed)
        #expect(try Rule(parsing: rule.text) == rule)
    }

    @Test(
        "other spellings read as the canonical form",
        arguments: [
            ("every day", "daily"), ("Every Working Day", "every working day"), ("every business day", "every working day"),
            ("weekly on monday,thursday", "weekly on mon,thu"), ("biweekly on fri", "every 2 weeks on fri"),
            ("fortnightly on friday", "every 2 weeks on fri"), ("MONTHLY ON 2ND TUESDAY", "monthly on 2nd tue"),
            ("monthly on second tue", "monthly on 2nd tue"), ("monthly on first business day", "monthly on first working day"),
            ("monthly on last business day", "monthly on last working day"), ("monthly on 25,10", "monthly on 10,25"),
            ("annually on 12-25", "yearly on 12-25"), ("every 1 months on 5", "monthly on 5"), ("  monthly   on 5 ", "monthly on 5"),
            ("weekly", "weekly"),
        ])
    func otherSpellingsReadAsTheCanonicalForm(text: String, canonical: String) throws {
        #expect(try Rule(parsing: text).text == canonical)
    }

    @Test("a rule without a readable form prints as its RRULE text")
    func ruleWithoutReadableFormPrintsAsRRULE() throws {
        for rrule in ["FREQ=YEARLY;INTERVAL=2;BYMONTH=3;BYMONTHDAY=1", "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=5", "FREQ=MONTHLY;BYDAY=MO,FR;BYSETPOS=1"] {
            #expect(try Rule(parsing: rrule).text == rrule)
        }
        // An adjustment the readable form does not imply is not part of its text.
        var salary = try Rule(parsing: "monthly on 10")
        salary.adjustment = .preceding
        #expect(salary.text == "monthly on 10")
    }

    // MARK: Where capital differs from RFC 5545 on purpose

    @Test("monthly on 31 clamps to the month's last day: 31 Jan, 29 Feb 2024, 31 Mar, 30 Apr, 28 Feb 2025")
    func monthlyOn31ClampsToMonthEnd() throws {
        #expect(
            try Self.expand("monthly on 31", start: "2024-01-01", "2024-01-01", "2024-06-30") == [
                "2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30",
            ])
        #expect(
            try Self.expand("monthly on 31", start: "2025-01-01", "2025-01-01", "2025-04-30") == [
                "2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30",
            ])
    }

    @Test("capital deliberately differs from RFC 5545: RRULE BYMONTHDAY=31 skips short months, readable `monthly on 31` does not")
    func capitalDeliberatelyDiffersFromRFCOnTheThirtyFirst() throws {
        let rfc = try Self.expand("FREQ=MONTHLY;BYMONTHDAY=31", start: "2025-01-01", "2025-01-01", "2025-06-30")
        let capital = try Self.expand("monthly on 31", start: "2025-01-01", "2025-01-01", "2025-06-30")
        #expect(rfc == ["2025-01-31", "2025-03-31", "2025-05-31"])
        #expect(capital == ["2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30", "2025-05-31", "2025-06-30"])
    }

    @Test(
        "monthly on 30 and on 29 clamp in February only",
        arguments: [("monthly on 30", "2025-02-28", "2025-03-30"), ("monthly on 29", "2025-02-28", "2025-03-29")])
    func monthlyOn29Or30ClampsInFebruary(text: String, february: String, march: String) throws {
        #expect(try Self.expand(text, start: "2025-02-01", "2025-02-01", "2025-03-31") == [february, march])
        #expect(try Self.expand(text, start: "2024-02-01", "2024-02-01", "2024-02-29") == ["2024-02-29"])
    }

    @Test("yearly on 02-29 falls on 28 February in common years, where RRULE skips them")
    func yearlyOn29FebruaryFallsOn28thInCommonYears() throws {
        #expect(
            try Self.expand("yearly on 02-29", start: "2024-01-01", "2024-01-01", "2028-12-31") == [
                "2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29",
            ])
        #expect(
            try Self.expand("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", start: "2024-01-01", "2024-01-01", "2028-12-31") == ["2024-02-29", "2028-02-29"])
    }

    // MARK: Expansion of the other forms

    @Test("every 2 weeks on fri counts weeks from the start's week")
    func everyTwoWeeksCountsFromTheStartsWeek() throws {
        // 2025-01-01 is a Wednesday: its week's Friday is the 3rd.
        #expect(
            try Self.expand("every 2 weeks on fri", start: "2025-01-01", "2025-01-01", "2025-02-28") == [
                "2025-01-03", "2025-01-17", "2025-01-31", "2025-02-14", "2025-02-28",
            ])
    }

    @Test("quarterly on 15 is every third month from the start")
    func quarterlyIsEveryThirdMonthFromTheStart() throws {
        #expect(
            try Self.expand("quarterly on 15", start: "2025-02-01", "2025-01-01", "2025-12-31") == [
                "2025-02-15", "2025-05-15", "2025-08-15", "2025-11-15",
            ])
        #expect(
            try Self.expand("every 3 months on 1", start: "2025-01-01", "2025-01-01", "2025-12-31") == [
                "2025-01-01", "2025-04-01", "2025-07-01", "2025-10-01",
            ])
    }

    @Test("monthly on 2nd tue and on last fri")
    func ordinalWeekdaysOfTheMonth() throws {
        #expect(try Self.expand("monthly on 2nd tue", start: "2025-01-01", "2025-01-01", "2025-03-31") == ["2025-01-14", "2025-02-11", "2025-03-11"])
        #expect(
            try Self.expand("monthly on last fri", start: "2025-01-01", "2025-01-01", "2025-03-31") == ["2025-01-31", "2025-02-28", "2025-03-28"])
    }

    @Test("weekly on mon,thu and monthly on 10,25")
    func listsOfDays() throws {
        #expect(
            try Self.expand("weekly on mon,thu", start: "2025-01-01", "2025-01-01", "2025-01-14") == [
                "2025-01-02", "2025-01-06", "2025-01-09", "2025-01-13",
            ])
        #expect(
            try Self.expand("monthly on 10,25", start: "2025-01-01", "2025-01-01", "2025-02-28") == [
                "2025-01-10", "2025-01-25", "2025-02-10", "2025-02-25",
            ])
    }

    // MARK: Working days and adjustments (weekends only; the RU calendar's cases are in CapitalStoreTests)

    @Test("every working day leaves out weekends and, on a calendar, its holidays; keeps transferred working days")
    func everyWorkingDayFollowsTheCalendar() throws {
        #expect(
            try Self.expand("every working day", start: "2025-05-29", "2025-05-29", "2025-06-03") == [
                "2025-05-29", "2025-05-30", "2025-06-02", "2025-06-03",
            ])
        let calendar = WorkingDayCalendar(name: "test", holidays: [Self.day("2025-06-02")], workingDays: [Self.day("2025-05-31")])
        #expect(
            try Self.expand("every working day", start: "2025-05-29", "2025-05-29", "2025-06-03", calendar: calendar) == [
                "2025-05-29", "2025-05-30", "2025-05-31", "2025-06-03",
            ])
    }

    @Test("monthly on last working day and on first working day")
    func lastAndFirstWorkingDayOfTheMonth() throws {
        // May 2025 ends on a Saturday; June starts on a Sunday; August ends on a Sunday.
        #expect(
            try Self.expand("monthly on last working day", start: "2025-05-01", "2025-05-01", "2025-08-31") == [
                "2025-05-30", "2025-06-30", "2025-07-31", "2025-08-29",
            ])
        #expect(
            try Self.expand("monthly on first working day", start: "2025-05-01", "2025-05-01", "2025-08-31") == [
                "2025-05-01", "2025-06-02", "2025-07-01", "2025-08-01",
            ])
    }

    @Test(
        "each adjustment of Saturday 31 May 2025 (monthly on 31)",
        arguments: [
            (BusinessDayAdjustment.none, ["2025-05-31"]), (.following, ["2025-06-02"]), (.preceding, ["2025-05-30"]),
            (.modifiedFollowing, ["2025-05-30"]), (.modifiedPreceding, ["2025-05-30"]), (.skip, []),
        ])
    func adjustmentsAtAMonthEnd(adjustment: BusinessDayAdjustment, days: [String]) throws {
        #expect(try Self.expand("monthly on 31", start: "2025-05-01", "2025-05-20", "2025-06-10", adjust: adjustment) == days)
    }

    @Test(
        "each adjustment of Saturday 1 November 2025 (monthly on 1), weekends only",
        arguments: [
            (BusinessDayAdjustment.none, ["2025-11-01"]), (.following, ["2025-11-03"]), (.preceding, ["2025-10-31"]),
            (.modifiedFollowing, ["2025-11-03"]), (.modifiedPreceding, ["2025-11-03"]), (.skip, []),
        ])
    func adjustmentsAtAMonthStart(adjustment: BusinessDayAdjustment, days: [String]) throws {
        #expect(try Self.expand("monthly on 1", start: "2025-11-01", "2025-10-20", "2025-11-10", adjust: adjustment) == days)
    }

    @Test("an occurrence adjusted into the range counts; one adjusted out of it does not; `original` is the rule's day")
    func adjustedOccurrencesCountWhereTheyFall() throws {
        var rule = try Rule(parsing: "monthly on 31")
        rule.adjustment = .following
        var seen: [(String, String)] = []
        rule.forEachOccurrence(
            start: Self.day("2025-01-01"), in: DayRange(through: Self.day("2025-08-31"), from: Self.day("2025-06-01")), calendar: .none
        ) {
            seen.append(($0.iso, $1.iso))
        }
        // 31 May (Sat) follows into the range on 2 June; 31 August (Sun) follows out of it to 1 September.
        #expect(seen.map(\.0) == ["2025-05-31", "2025-06-30", "2025-07-31"])
        #expect(seen.map(\.1) == ["2025-06-02", "2025-06-30", "2025-07-31"])
    }

    // MARK: Refusals

    @Test(
        "an unreadable rule is refused with the closest accepted form",
        arguments: [
            ("monthly on 2nd tuesday of", "monthly on 2nd tue"), ("monthly on the 2nd tuesday of the month", "monthly on 2nd tue"),
            ("every month on 25", "monthly on 25"), ("weekly on mondays", "weekly on mon"), ("every week on friday", "weekly on fri"),
            ("montly on 25", "monthly on 25"), ("monthly on the 25th", "monthly on 25"), ("monthly", "monthly on 25"),
            ("yearly on 1 march", "yearly on 03-01"),
        ])
    func unreadableRuleGetsASuggestion(text: String, suggestion: String) throws {
        #expect(throws: RecurrenceError.unreadable(text, suggestion: suggestion)) { try Rule(parsing: text) }
        // The suggestion itself reads.
        _ = try Rule(parsing: suggestion)
    }

    @Test("the unreadable error quotes the text and the suggestion")
    func unreadableErrorMessage() {
        #expect(
            RecurrenceError.unreadable("monthly on 2nd tuesday of", suggestion: "monthly on 2nd tue").description
                == "'monthly on 2nd tuesday of' is not a rule capital reads; did you mean 'monthly on 2nd tue'?")
    }

    @Test(
        "every suggestion reads, whatever the text",
        arguments: ["", "sometimes", "every", "every 0 days", "weekly on funday", "monthly on 1st", "yearly on 3-1", "quarterly", "every fortnight"])
    func everySuggestionReads(text: String) throws {
        do {
            _ = try Rule(parsing: text)
            Issue.record("'\(text)' was read")
        } catch RecurrenceError.unreadable(_, let suggestion) {
            _ = try Rule(parsing: suggestion)
        }
    }

    @Test(
        "a readable rule with a value out of range names the part and the value",
        arguments: [
            ("monthly on 32", "day of month", "32"), ("monthly on 0", "day of month", "0"), ("yearly on 02-30", "day", "02-30"),
            ("yearly on 04-31", "day", "04-31"), ("yearly on 13-01", "month", "13"), ("yearly on 00-10", "month", "00"),
            ("monthly on 10,31", "day of month", "31"),
        ])
    func outOfRangeValueIsInvalid(text: String, part: String, value: String) {
        #expect {
            try Rule(parsing: text)
        } throws: { error in
            guard case RecurrenceError.invalid(let p, let v, _) = error else { return false }
            return p == part && v == value
        }
    }
}
