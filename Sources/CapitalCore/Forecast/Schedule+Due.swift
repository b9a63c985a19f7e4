extension Schedule {
    /// The occurrences falling on or before `today` that `state` still has open (not handled,
    /// not posted): what the forecast counts as today's flows, in day order.
    ///
    /// An open occurrence's rule day is on or after `max(start, handledThrough + 1)`, but the day
    /// it falls on can be earlier: `preceding` (and the modified forms) carry it back across the
    /// days off before that day, and an exception can move it anywhere. Those count too: they are
    /// due and nothing has recorded them.
    /// ```swift
    /// // monthly on 1, preceding, handled through Friday 2025-05-30: the Sunday 1 June occurrence
    /// // falls on Friday 30 May and is still open.
    /// schedule.openOccurrences(dueBy: try Day(iso: "2025-06-02"), state: state, calendar: .none)
    /// ```
    /// - Complexity: O(occurrences from the first open one's day to today + exceptions).
    public func openOccurrences(dueBy today: Day, state: ScheduleState, calendar: WorkingDayCalendar) -> [ScheduleOccurrence] {
        let firstOpen = max(start, state.handledThrough.advanced(by: 1))
        var earliest = firstOpen
        if rule.adjustment != .none {
            earliest = calendar.previousWorkingDay(onOrBefore: firstOpen) ?? firstOpen.advanced(by: -WorkingDayCalendar.searchLimit - 1)
        }
        for exception in exceptions where exception.original >= firstOpen {
            if let to = exception.movedTo, to < earliest { earliest = to }
        }
        guard earliest <= today else { return [] }
        return occurrences(in: DayRange(earliest, today.advanced(by: 1)), calendar: calendar).filter { state.isOpen($0.original) }
    }
}
