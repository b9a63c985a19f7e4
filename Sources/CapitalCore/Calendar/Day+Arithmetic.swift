extension Day {
    /// The same day of the month `months` later (or earlier), or `nil` if that month is too short
    /// (RFC 5545 behaviour: 31 January + 1 month does not exist).
    public func addingMonths(exactly months: Int) -> Day? {
        let c = civil
        let (year, month) = Day.shift(year: c.year, month: c.month, by: months)
        guard c.day <= Day.daysIn(month: month, year: year) else { return nil }
        return Day(Day.daysFromCivil(year: year, month: month, day: c.day))
    }

    /// The same day of the month `months` later (or earlier), clamped to the end of a shorter
    /// month: 2025-01-31 + 1 month is 2025-02-28.
    public func addingMonths(_ months: Int) -> Day {
        let c = civil
        let (year, month) = Day.shift(year: c.year, month: c.month, by: months)
        return Day(Day.daysFromCivil(year: year, month: month, day: min(c.day, Day.daysIn(month: month, year: year))))
    }

    /// The first day of this day's month.
    public var startOfMonth: Day {
        let c = civil
        return Day(Day.daysFromCivil(year: c.year, month: c.month, day: 1))
    }

    /// The last day of this day's month.
    public var endOfMonth: Day {
        let c = civil
        return Day(Day.daysFromCivil(year: c.year, month: c.month, day: Day.daysIn(month: c.month, year: c.year)))
    }

    static func shift(year: Int, month: Int, by months: Int) -> (year: Int, month: Int) {
        let zeroBased = year * 12 + (month - 1) + months
        let y = zeroBased >= 0 ? zeroBased / 12 : (zeroBased - 11) / 12
        return (y, zeroBased - y * 12 + 1)
    }
}

/// A half-open range of days, `[start, end)`.
public struct DayRange: Hashable, Sendable, Sequence, CustomStringConvertible {
    public var start: Day
    public var end: Day

    /// - Precondition: `start <= end`.
    public init(_ start: Day, _ end: Day) {
        precondition(start <= end, "DayRange start \(start) is after end \(end)")
        self.start = start
        self.end = end
    }

    /// The range `[first, last]`, written as a half-open range.
    public init(through last: Day, from first: Day) {
        self.init(first, last.advanced(by: 1))
    }

    public var count: Int { end.number - start.number }
    public var isEmpty: Bool { start == end }
    /// Whether `day` is in the range (the start included, the end not).
    public func contains(_ day: Day) -> Bool { day >= start && day < end }

    /// The days of the range in order.
    public func makeIterator() -> StrideTo<Day>.Iterator { stride(from: start, to: end, by: 1).makeIterator() }

    public var description: String { "[\(start), \(end))" }
}
