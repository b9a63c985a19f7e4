/// How an occurrence that falls on a non-working day moves.
///
/// The examples use a calendar where 2025-05-26 (a Monday) is a holiday.
public enum BusinessDayAdjustment: String, Hashable, Sendable, CaseIterable {
    /// Stays where it is: Saturday 2025-05-24 stays on 2025-05-24.
    case none
    /// The next working day on or after: Saturday 2025-05-24 moves to Tuesday 2025-05-27.
    case following
    /// The last working day on or before: Saturday 2025-05-24 moves to Friday 2025-05-23.
    case preceding
    /// Following, unless that lands in the next month, then preceding: Saturday 2025-05-31
    /// would follow to 2025-06-02, so it moves back to Friday 2025-05-30.
    case modifiedFollowing = "modified-following"
    /// Preceding, unless that lands in the previous month, then following: Saturday 2025-11-01
    /// would precede to 2025-10-31, so it moves on to Monday 2025-11-03.
    case modifiedPreceding = "modified-preceding"
    /// Dropped: Saturday 2025-05-24 has no occurrence; working days stay.
    case skip

    /// The adjusted day, or nil when the occurrence is skipped.
    ///
    /// A working day never moves. `following` and `preceding` give nil only for a calendar
    /// without a working day within `WorkingDayCalendar.searchLimit` days; the modified forms
    /// then try the other direction.
    /// - Complexity: O(length of the run of days off around `day`).
    public func adjust(_ day: Day, in calendar: WorkingDayCalendar) -> Day? {
        switch self {
        case .none:
            return day
        case .skip:
            return calendar.isWorkingDay(day) ? day : nil
        case .following:
            return calendar.nextWorkingDay(onOrAfter: day)
        case .preceding:
            return calendar.previousWorkingDay(onOrBefore: day)
        case .modifiedFollowing:
            if let next = calendar.nextWorkingDay(onOrAfter: day), next == day || next <= day.endOfMonth { return next }
            return calendar.previousWorkingDay(onOrBefore: day)
        case .modifiedPreceding:
            if let previous = calendar.previousWorkingDay(onOrBefore: day), previous == day || previous >= day.startOfMonth {
                return previous
            }
            return calendar.nextWorkingDay(onOrAfter: day)
        }
    }
}
