/// What a schedule recurs by: an RRULE (or a rule set: more RRULEs, RDATE, EXDATE, EXRULE), a
/// working-day calendar and a business-day adjustment.
///
/// Readable rules (`monthly on last working day`, `every 2 weeks on fri`), RRULE text and rule
/// sets all parse to this; `text` prints the readable form where there is one, else the RRULE.
public struct Rule: Hashable, Sendable {
    public var recurrence: Recurrence
    /// A rule set's other parts (`Rule+Set.swift`); empty for a plain rule.
    public var setParts = SetParts()
    /// How occurrences on non-working days move (or are skipped).
    public var adjustment: BusinessDayAdjustment
    /// The calendar's name (`RU`, `US`, `none`), or `ledgerCalendar` for the ledger's (whichever
    /// it is when the rule is expanded); the calendar itself is looked up when expanding.
    public var calendar: String

    /// The calendar name that stands for the ledger's calendar: the engine's callers pass the
    /// ledger's calendar under this key.
    public static let ledgerCalendar = ""

    /// A recurrence moved off non-working days of `calendar` by `adjustment`.
    public init(recurrence: Recurrence, adjustment: BusinessDayAdjustment = .none, calendar: String = "none") {
        self.recurrence = recurrence
        self.adjustment = adjustment
        self.calendar = calendar
    }

    /// Reads a rule set (`RRULE:… EXDATE:…`), RRULE text (anything with `FREQ=`) or a readable rule.
    /// - Throws: `RecurrenceError`; an unreadable rule's error carries the closest accepted form.
    public init(parsing text: String, calendar: String = "none") throws(RecurrenceError) {
        if Self.isSet(text) {
            try self.init(parsingSet: text, calendar: calendar)
        } else if text.containsIgnoringASCIICase("FREQ=") {
            self.init(recurrence: try Recurrence(rrule: text), calendar: calendar)
        } else {
            let (recurrence, adjustment) = try ReadableRule.parse(text)
            self.init(recurrence: recurrence, adjustment: adjustment, calendar: calendar)
        }
    }

    /// Reads a rule and applies an explicit adjustment, which must agree with one the rule implies
    /// (`monthly on last working day` already means `preceding`).
    /// - Throws: `RecurrenceError`; `.invalid(part: "adjust", ...)` when the two disagree.
    public init(parsing text: String, calendar: String, adjustment: BusinessDayAdjustment?) throws(RecurrenceError) {
        try self.init(parsing: text, calendar: calendar)
        guard let adjustment else { return }
        if self.adjustment != .none && self.adjustment != adjustment {
            throw .invalid(part: "adjust", value: adjustment.rawValue, reason: "'\(text)' already means \(self.adjustment.rawValue)")
        }
        self.adjustment = adjustment
    }

    /// The readable form when the rule has one (`monthly on 25`, `monthly on last working day`),
    /// else its RRULE text. An adjustment the readable form does not imply is not part of it.
    public var text: String {
        guard setParts.isEmpty else { return setText }
        return ReadableRule.print(recurrence, adjustment: adjustment) ?? ReadableRule.print(recurrence, adjustment: .none) ?? recurrence.rrule
    }

    /// The RRULE text, or a set's parts on one line: what is stored and what reads back to the rule.
    public var rrule: String { setParts.isEmpty ? recurrence.rrule : setText }

    /// The days the rule falls on from `start` through `last`, after the adjustment, in order.
    /// - Complexity: as `forEachOccurrence`, plus the array.
    public func days(start: Day, through last: Day, calendar: WorkingDayCalendar) -> [Day] {
        var days: [Day] = []
        forEachOccurrence(start: start, in: DayRange(start, last.advanced(by: 1)), calendar: calendar) { _, day in days.append(day) }
        return days
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
            if setParts.isEmpty {
                recurrence.forEachOccurrence(start: start, in: range) { body($0, $0) }
            } else {
                forEachSetDay(start: start, in: range) { body($0, $0) }
            }
            return
        }
        if isEveryWorkingDay {
            // `every working day`: walk the calendar's working days directly.
            let from = max(start, range.start)
            guard from < range.end else { return }
            calendar.forEachWorkingDay(in: DayRange(from, range.end)) { body($0, $0) }
            return
        }
        // An adjustment moves a day only across days off, so only the runs of days off touching
        // the range can bring occurrences into it.
        let limit = WorkingDayCalendar.searchLimit + 1
        let before = calendar.previousWorkingDay(onOrBefore: range.start.advanced(by: -1)) ?? range.start.advanced(by: -limit)
        let after = calendar.nextWorkingDay(onOrAfter: range.end) ?? range.end.advanced(by: limit)
        let widened = DayRange(before, max(after, range.end).advanced(by: 1))
        // Two literal closures rather than one shared: a stored closure is allocated on every call.
        if setParts.isEmpty {
            recurrence.forEachOccurrence(start: start, in: widened) { original in
                guard let day = adjustment.adjust(original, in: calendar), range.contains(day) else { return }
                body(original, day)
            }
        } else {
            forEachSetDay(start: start, in: widened) { original in
                guard let day = adjustment.adjust(original, in: calendar), range.contains(day) else { return }
                body(original, day)
            }
        }
    }
}

extension Rule {
    /// `FREQ=DAILY` with nothing else, skipping days off: every working day of the calendar.
    var isEveryWorkingDay: Bool {
        let r = recurrence
        return setParts.isEmpty && adjustment == .skip && r.frequency == .daily && r.interval == 1 && r.count == nil && r.until == nil
            && r.byDay.isEmpty
            && r.byMonthDay.isEmpty && r.byMonth.isEmpty && r.byYearDay.isEmpty && r.byWeekNo.isEmpty && r.bySetPos.isEmpty
    }

    /// Adds `minor` to `buffer[day - firstDay]` for every occurrence (on its adjusted day) that
    /// falls in `[firstDay, firstDay + buffer.count)`: the forecast kernel's way to lay a schedule
    /// onto a day-indexed delta buffer, calendar and adjustment included.
    ///
    /// The additions are checked: if one would overflow, those already made are taken back and
    /// the result is false, the buffer as it was.
    /// - Complexity: as `forEachOccurrence(start:in:calendar:_:)`; no allocation.
    public func addAmount(
        _ minor: Int64, start: Day, calendar: WorkingDayCalendar, into buffer: UnsafeMutableBufferPointer<Int64>, firstDay: Day
    ) -> Bool {
        if adjustment == .none && setParts.isEmpty { return recurrence.addAmount(minor, start: start, into: buffer, firstDay: firstDay) }
        guard minor != 0, let base = buffer.baseAddress, buffer.count > 0 else { return true }
        let range = DayRange(firstDay, firstDay.advanced(by: buffer.count))
        let slots = base - firstDay.number
        var added = 0
        var overflowed = false
        forEachOccurrence(start: start, in: range, calendar: calendar) { _, day in
            guard !overflowed else { return }
            let (sum, overflow) = slots[day.number].addingReportingOverflow(minor)
            if overflow {
                overflowed = true
                return
            }
            slots[day.number] = sum
            added += 1
        }
        guard overflowed else { return true }
        forEachOccurrence(start: start, in: range, calendar: calendar) { _, day in
            guard added > 0 else { return }
            slots[day.number] -= minor  // cannot overflow: the slot holds an earlier value plus `minor`
            added -= 1
        }
        return false
    }
}

extension Rule {
    /// Adds `amounts[i]` at `slots[i][day.number]` for each occurrence's (adjusted) day in `range`
    /// and each i: one expansion laying several amounts (a transfer's two legs, a range's
    /// corrections). Stops at the first addition that would overflow and returns false; what was
    /// added stays (the caller gives up on the rows).
    /// - Complexity: as `forEachOccurrence(start:in:calendar:_:)`; no allocation.
    func addAmounts(
        _ slots: UnsafeBufferPointer<UnsafeMutablePointer<Int64>>, _ amounts: UnsafeBufferPointer<Int64>, start: Day, calendar: WorkingDayCalendar,
        in range: DayRange
    ) -> Bool {
        var sink = LayeredDeltaSink(slots: slots, amounts: amounts)
        if adjustment == .none && setParts.isEmpty {
            recurrence.expand(start: start, in: range, into: &sink)
        } else {
            forEachOccurrence(start: start, in: range, calendar: calendar) { _, day in _ = sink.take(day.number) }
        }
        return !sink.overflowed
    }
}

/// Adds each layer's amount at its slot of the day; after an overflow, nothing more.
private struct LayeredDeltaSink: OccurrenceSink {
    let slots: UnsafeBufferPointer<UnsafeMutablePointer<Int64>>
    let amounts: UnsafeBufferPointer<Int64>
    var overflowed = false

    @inline(__always)
    mutating func take(_ day: Int) -> Bool {
        guard !overflowed else { return false }
        for index in 0..<slots.count {
            let (sum, overflow) = slots[index][day].addingReportingOverflow(amounts[index])
            if overflow {
                overflowed = true
                return false
            }
            slots[index][day] = sum
        }
        return true
    }
}
