/// A calendar's working days as one bit per day over a span of days.
///
/// The span covers 2020-01-01 to 2035-12-31, widened to the calendar's exceptions between 1900
/// and 2199; exceptions further out (`hasOutliers`) are looked up in the calendar's set.
struct WorkingDayTable: Sendable {
    /// The first day of the span.
    let start: Int
    /// The number of days in the span.
    let count: Int
    let words: [UInt64]
    let hasOutliers: Bool

    static let defaultSpan = Day.daysFromCivil(year: 2020, month: 1, day: 1)..<Day.daysFromCivil(year: 2036, month: 1, day: 1)
    static let widestSpan = Day.daysFromCivil(year: 1900, month: 1, day: 1)..<Day.daysFromCivil(year: 2200, month: 1, day: 1)

    init(weekendMask: UInt8, exceptions: Set<Day>) {
        var low = Self.defaultSpan.lowerBound
        var high = Self.defaultSpan.upperBound
        var hasOutliers = false
        for day in exceptions {
            if Self.widestSpan.contains(day.number) {
                low = Swift.min(low, day.number)
                high = Swift.max(high, day.number + 1)
            } else {
                hasOutliers = true
            }
        }
        var words = [UInt64](repeating: 0, count: (high - low + 63) / 64)
        var weekday = WorkingDayCalendar.weekdayIndex(low)
        for offset in 0..<(high - low) {
            if weekendMask & (1 << UInt8(weekday)) == 0 { words[offset >> 6] |= 1 << UInt64(offset & 63) }
            weekday = weekday == 6 ? 0 : weekday + 1
        }
        for day in exceptions where Self.widestSpan.contains(day.number) {
            let offset = day.number - low
            words[offset >> 6] ^= 1 << UInt64(offset & 63)
        }
        self.start = low
        self.count = high - low
        self.words = words
        self.hasOutliers = hasOutliers
    }

    /// One past the last day of the span.
    var end: Day { Day(start + count) }

    func contains(_ day: Day) -> Bool { UInt(bitPattern: day.number &- start) < UInt(count) }

    /// Whether `day` is a working day, or nil outside the span.
    @inline(__always)
    func bit(_ day: Day) -> Bool? {
        let offset = day.number &- start
        guard UInt(bitPattern: offset) < UInt(count) else { return nil }
        return words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
    }

    /// Calls `body` with each working day in `[from, to)`, which lies inside the span.
    func forEachSetBit<E: Error>(from: Day, to: Day, _ body: (Day) throws(E) -> Void) throws(E) {
        let first = from.number - start
        let last = to.number - start  // exclusive
        guard first < last else { return }
        var index = first >> 6
        while index << 6 < last {
            var word = words[index]
            let base = index << 6
            if base < first { word &= ~0 << UInt64(first - base) }
            if last - base < 64 { word &= (1 << UInt64(last - base)) - 1 }
            while word != 0 {
                let bit = word.trailingZeroBitCount
                try body(Day(start + base + bit))
                word &= word - 1
            }
            index += 1
        }
    }
}
