extension Recurrence {
    /// Checks the rule against its start day: every part in range (as `init(rrule:)` checks). An
    /// UNTIL before the start is no error: as in python-dateutil, the rule has no occurrences.
    /// - Throws: `RecurrenceError` naming the part, the value and why.
    public func validate(start: Day) throws(RecurrenceError) {
        try validateParts()
    }

    /// Why the rule has no occurrence at all from `start` (COUNT=0, or UNTIL before the start),
    /// or nil: what a schedule, which must happen, refuses.
    public func neverOccurs(from start: Day) -> String? {
        if count == 0 { return "COUNT=0: the rule has no occurrences" }
        if let until, until < start { return "UNTIL \(until.iso) is before the start \(start.iso): the rule has no occurrences" }
        return nil
    }

    /// The checks that do not need the start day. Expansion yields nothing for a rule that fails them.
    func validateParts() throws(RecurrenceError) {
        guard interval >= 1 else { throw .invalid(part: "INTERVAL", value: "\(interval)", reason: "must be 1 or more") }
        if let count {
            // COUNT=0 is a rule with no occurrences, as in python-dateutil.
            guard count >= 0 else { throw .invalid(part: "COUNT", value: "\(count)", reason: "must be 0 or more") }
            if let until {
                let untilText = rrulePart(until: until)
                throw .conflict(
                    "COUNT=\(count) and \(untilText) together: a rule ends after a number of occurrences or on a day, not both (RFC 5545)"
                )
            }
        }
        if let until, !Self.supportedDays.contains(until.number) {
            throw .invalid(part: "UNTIL", value: String(rrulePart(until: until).dropFirst(6)), reason: "must be a day in the years 0001 to 9999")
        }
        for month in byMonth where !(1...12).contains(month) {
            throw .invalid(part: "BYMONTH", value: "\(month)", reason: "must be 1 to 12")
        }
        for week in byWeekNo where week == 0 || !(-53...53).contains(week) {
            throw .invalid(part: "BYWEEKNO", value: "\(week)", reason: "must be 1 to 53 or -53 to -1")
        }
        for yearDay in byYearDay where yearDay == 0 || !(-366...366).contains(yearDay) {
            throw .invalid(part: "BYYEARDAY", value: "\(yearDay)", reason: "must be 1 to 366 or -366 to -1")
        }
        for monthDay in byMonthDay where monthDay == 0 || !(-31...31).contains(monthDay) {
            throw .invalid(part: "BYMONTHDAY", value: "\(monthDay)", reason: "must be 1 to 31 or -31 to -1")
        }
        for position in bySetPos where position == 0 || !(-366...366).contains(position) {
            throw .invalid(part: "BYSETPOS", value: "\(position)", reason: "must be 1 to 366 or -366 to -1")
        }
        for entry in byDay {
            guard let ordinal = entry.ordinal else { continue }
            switch frequency {
            case .daily, .weekly:
                // python-dateutil reads an ordinal weekday there as the plain weekday (so does
                // the expansion); an ordinal of 0 is no weekday at all.
                guard ordinal != 0 else { throw .invalid(part: "BYDAY", value: entry.rrule, reason: "the ordinal must not be 0") }
            case .monthly:
                guard ordinal != 0, (-5...5).contains(ordinal) else {
                    throw .invalid(
                        part: "BYDAY", value: entry.rrule, reason: "a month has at most 5 of each weekday: the ordinal must be 1 to 5 or -5 to -1")
                }
            case .yearly:
                guard ordinal != 0, (-53...53).contains(ordinal) else {
                    throw .invalid(part: "BYDAY", value: entry.rrule, reason: "the ordinal must be 1 to 53 or -53 to -1")
                }
            }
        }
        // RFC 5545 allows BYWEEKNO with YEARLY only, BYYEARDAY not with DAILY, WEEKLY or MONTHLY,
        // BYMONTHDAY not with WEEKLY, and no ordinal weekday beside BYWEEKNO; python-dateutil, whose
        // meaning capital follows, takes each as a filter on the days of every period.
    }

    /// Day numbers of 0001-01-01 through 9999-12-31: python-dateutil's range, and the days rules
    /// reach.
    static let supportedDays = Day.daysFromCivil(year: 1, month: 1, day: 1)...Day.daysFromCivil(year: 9999, month: 12, day: 31)

    /// `UNTIL=YYYYMMDD`.
    func rrulePart(until: Day) -> String {
        let c = until.civil
        return "UNTIL=" + Self.padded(c.year, 4) + Self.padded(c.month, 2) + Self.padded(c.day, 2)
    }

    static func joined(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
}
