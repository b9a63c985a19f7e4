/// Which days are working days: weekends and holidays are not, transferred working days are
/// (Russia's production calendar can make a Saturday a working day).
public struct WorkingDayCalendar: Hashable, Sendable {
    /// `RU`, `US`, `none`, ...
    public var name: String

    /// A calendar from its weekend days, holidays and transferred working days.
    public init(name: String, weekend: Set<Weekday> = [.saturday, .sunday], holidays: [Day] = [], workingDays: [Day] = []) {
        fatalError("TODO: helper implements")
    }

    /// Weekends only.
    public static var none: WorkingDayCalendar { WorkingDayCalendar(name: "none") }

    public func isWorkingDay(_ day: Day) -> Bool {
        fatalError("TODO: helper implements")
    }

    /// This calendar with more holidays and working days (the user's own, from the ledger).
    public func adding(holidays: [Day], workingDays: [Day]) -> WorkingDayCalendar {
        fatalError("TODO: helper implements")
    }
}

/// How an occurrence that falls on a non-working day moves.
public enum BusinessDayAdjustment: String, Hashable, Sendable, CaseIterable {
    case none
    case following
    case preceding
    case modifiedFollowing = "modified-following"
    case modifiedPreceding = "modified-preceding"
    case skip

    /// The adjusted day, or nil when the occurrence is skipped.
    public func adjust(_ day: Day, in calendar: WorkingDayCalendar) -> Day? {
        fatalError("TODO: helper implements")
    }
}
