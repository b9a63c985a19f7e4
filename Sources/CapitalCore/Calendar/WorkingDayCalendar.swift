/// Which days are working days: weekends and holidays are not, transferred working days are
/// (Russia's production calendar can make a Saturday a working day).
///
/// ```swift
/// let ru = WorkingDayCalendar(name: "RU", holidays: [try Day(iso: "2025-11-03"), try Day(iso: "2025-11-04")],
///                             workingDays: [try Day(iso: "2025-11-01")])
/// ru.isWorkingDay(try Day(iso: "2025-11-01"))   // true: a transferred working Saturday
/// ru.isWorkingDay(try Day(iso: "2025-11-03"))   // false: a holiday on a Monday
/// ru.isWorkingDay(try Day(iso: "2025-11-08"))   // false: an ordinary Saturday
/// ```
///
/// A calendar is its name, its weekend and the days that break the weekend rule: holidays on
/// weekdays and working days on weekend days. Two calendars are equal when they have the same name
/// and agree on every day; a holiday listed on a Saturday changes nothing and so does not count.
/// Lookups read a bitset over the days of the data (2020–2035, widened to the days a calendar
/// adds); outside it the weekend rule answers.
public struct WorkingDayCalendar: Hashable, Sendable {
    /// `RU`, `US`, `none`, ...
    public var name: String

    /// Bit `i` is set when ISO weekday `i + 1` is a weekend day.
    private let weekendMask: UInt8
    /// The days whose status differs from the weekend rule.
    private let exceptions: Set<Day>
    /// Working days as bits, for fast lookup.
    private let table: WorkingDayTable

    /// A calendar from its weekend days, holidays and transferred working days.
    ///
    /// A day given both as a holiday and as a working day is a working day.
    public init(name: String, weekend: Set<Weekday> = [.saturday, .sunday], holidays: [Day] = [], workingDays: [Day] = []) {
        var mask: UInt8 = 0
        for weekday in weekend { mask |= 1 << UInt8(weekday.rawValue - 1) }
        var exceptions = Set<Day>()
        Self.mark(holidays, working: false, weekendMask: mask, in: &exceptions)
        Self.mark(workingDays, working: true, weekendMask: mask, in: &exceptions)
        self.init(name: name, weekendMask: mask, exceptions: exceptions)
    }

    private init(name: String, weekendMask: UInt8, exceptions: Set<Day>) {
        self.name = name
        self.weekendMask = weekendMask
        self.exceptions = exceptions
        self.table = WorkingDayTable(weekendMask: weekendMask, exceptions: exceptions)
    }

    /// Weekends only.
    public static var none: WorkingDayCalendar { weekendsOnly }

    private static let weekendsOnly = WorkingDayCalendar(name: "none")

    /// The weekend days of this calendar.
    public var weekend: Set<Weekday> {
        Set(Weekday.allCases.filter { weekendMask & (1 << UInt8($0.rawValue - 1)) != 0 })
    }

    /// Whether `day` is a working day: not a weekend day unless transferred, and not a holiday.
    /// - Complexity: O(1): one bit of a table inside the data's years, the weekday outside them.
    public func isWorkingDay(_ day: Day) -> Bool {
        if let bit = table.bit(day) { return bit }
        let isWeekend = weekendMask & (1 << UInt8(truncatingIfNeeded: Self.weekdayIndex(day.number))) != 0
        if table.hasOutliers && exceptions.contains(day) { return isWeekend }
        return !isWeekend
    }

    /// This calendar with more holidays and working days (the user's own, from the ledger).
    ///
    /// The additions win over the calendar's own days: a shipped holiday added as a working day
    /// becomes one, and so does the reverse. A day in both lists is a working day.
    public func adding(holidays: [Day], workingDays: [Day]) -> WorkingDayCalendar {
        var exceptions = self.exceptions
        Self.mark(holidays, working: false, weekendMask: weekendMask, in: &exceptions)
        Self.mark(workingDays, working: true, weekendMask: weekendMask, in: &exceptions)
        return WorkingDayCalendar(name: name, weekendMask: weekendMask, exceptions: exceptions)
    }

    /// How far `nextWorkingDay` and `previousWorkingDay` look before giving up: a year, far more
    /// than any run of days off (Russia's New Year holidays are ten days).
    public static let searchLimit = 366

    /// `day` if it is a working day, else the first working day after it; nil when none comes
    /// within `searchLimit` days (a calendar whose every day is a weekend day).
    /// ```swift
    /// calendar.nextWorkingDay(onOrAfter: saturday)   // the Monday after, if that is no holiday
    /// ```
    /// - Complexity: O(length of the run of days off).
    public func nextWorkingDay(onOrAfter day: Day) -> Day? {
        var candidate = day
        for _ in 0...Self.searchLimit {
            if isWorkingDay(candidate) { return candidate }
            candidate = candidate.advanced(by: 1)
        }
        return nil
    }

    /// `day` if it is a working day, else the last working day before it; nil when none comes
    /// within `searchLimit` days.
    /// ```swift
    /// calendar.previousWorkingDay(onOrBefore: saturday)   // the Friday before, if that is no holiday
    /// ```
    /// - Complexity: O(length of the run of days off).
    public func previousWorkingDay(onOrBefore day: Day) -> Day? {
        var candidate = day
        for _ in 0...Self.searchLimit {
            if isWorkingDay(candidate) { return candidate }
            candidate = candidate.advanced(by: -1)
        }
        return nil
    }

    /// Calls `body` with each working day of `range`, in order.
    /// ```swift
    /// calendar.forEachWorkingDay(in: march) { day in deltas[day.number - base] += amount }
    /// ```
    /// - Complexity: O(`range.count` / 64 + working days) inside the table, O(`range.count`) outside.
    public func forEachWorkingDay<E: Error>(in range: DayRange, _ body: (Day) throws(E) -> Void) throws(E) {
        var day = range.start
        while day < range.end {
            if table.contains(day) {
                let stop = min(range.end, table.end)
                try table.forEachSetBit(from: day, to: stop, body)
                day = stop
            } else {
                if isWorkingDay(day) { try body(day) }
                day = day.advanced(by: 1)
            }
        }
    }

    /// Two calendars are equal when they have the same name and the same days off and on.
    public static func == (lhs: WorkingDayCalendar, rhs: WorkingDayCalendar) -> Bool {
        lhs.name == rhs.name && lhs.weekendMask == rhs.weekendMask && lhs.exceptions == rhs.exceptions
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(weekendMask)
        hasher.combine(exceptions)
    }

    /// Monday is 0 ... Sunday is 6, for any day number (1970-01-01 was a Thursday).
    static func weekdayIndex(_ number: Int) -> Int { (number % 7 + 10) % 7 }

    /// Records `days` as working or not, keeping only the days that break the weekend rule.
    private static func mark(_ days: [Day], working: Bool, weekendMask: UInt8, in exceptions: inout Set<Day>) {
        for day in days {
            let isWeekend = weekendMask & (1 << UInt8(weekdayIndex(day.number))) != 0
            if working == isWeekend {
                exceptions.insert(day)
            } else {
                exceptions.remove(day)
            }
        }
    }
}

extension WorkingDayCalendar: CustomStringConvertible {
    /// `RU (weekend saturday sunday; 205 holidays on weekdays, 7 working weekend days)`.
    public var description: String {
        let weekend = Weekday.allCases.filter { self.weekend.contains($0) }.map { "\($0)" }.joined(separator: " ")
        let working = exceptions.count { isWorkingDay($0) }
        return "\(name) (weekend \(weekend); \(exceptions.count - working) holidays on weekdays, \(working) working weekend days)"
    }
}
