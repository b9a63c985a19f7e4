/// What a schedule recurs by: an RRULE, a working-day calendar and a business-day adjustment.
///
/// Readable rules (`monthly on last working day`, `every 2 weeks on fri`) and RRULE text both
/// parse to this; `text` prints the readable form where there is one, else the RRULE.
public struct Rule: Hashable, Sendable {
    public var recurrence: Recurrence
    /// How occurrences on non-working days move (or are skipped).
    public var adjustment: BusinessDayAdjustment
    /// The calendar's name (`RU`, `US`, `none`); the calendar itself is looked up when expanding.
    public var calendar: String

    public init(recurrence: Recurrence, adjustment: BusinessDayAdjustment = .none, calendar: String = "none") {
        self.recurrence = recurrence
        self.adjustment = adjustment
        self.calendar = calendar
    }

    /// Reads RRULE text (anything with `FREQ=`) or a readable rule.
    /// - Throws: `RecurrenceError`; an unreadable rule's error carries the closest accepted form.
    public init(parsing text: String, calendar: String = "none") throws(RecurrenceError) {
        if text.uppercased().contains("FREQ=") {
            self.init(recurrence: try Recurrence(rrule: text), calendar: calendar)
        } else {
            let (recurrence, adjustment) = try ReadableRule.parse(text)
            self.init(recurrence: recurrence, adjustment: adjustment, calendar: calendar)
        }
    }

    /// The readable form when the rule has one (`monthly on 25`, `monthly on last working day`),
    /// else its RRULE text. An adjustment the readable form does not imply is not part of it.
    public var text: String {
        ReadableRule.print(recurrence, adjustment: adjustment) ?? ReadableRule.print(recurrence, adjustment: .none) ?? recurrence.rrule
    }

    /// Calls `body` with each occurrence in `range`: the rule's day (`original`) and the day it
    /// falls on after the adjustment (`day`); skipped occurrences are left out. Occurrences whose
    /// rule day lies in the run of days off just before or just after `range` are considered, since
    /// an adjustment can move them in (a salary due on Saturday 10 January 2026 is paid, preceding,
    /// on 30 December 2025 under the RU calendar).
    /// - Complexity: O(occurrences in the range + the runs of days off at its ends), no allocation per occurrence.
    public func forEachOccurrence(
        start: Day, in range: DayRange, calendar: WorkingDayCalendar, _ body: (_ original: Day, _ day: Day) -> Void
    ) {
        if adjustment == .none {
            recurrence.forEachOccurrence(start: start, in: range) { body($0, $0) }
            return
        }
        // An adjustment moves a day only across days off, so only the runs of days off touching
        // the range can bring occurrences into it.
        let limit = WorkingDayCalendar.searchLimit + 1
        let before = calendar.previousWorkingDay(onOrBefore: range.start.advanced(by: -1)) ?? range.start.advanced(by: -limit)
        let after = calendar.nextWorkingDay(onOrAfter: range.end) ?? range.end.advanced(by: limit)
        let widened = DayRange(before, max(after, range.end).advanced(by: 1))
        recurrence.forEachOccurrence(start: start, in: widened) { original in
            guard let day = adjustment.adjust(original, in: calendar), range.contains(day) else { return }
            body(original, day)
        }
    }
}
