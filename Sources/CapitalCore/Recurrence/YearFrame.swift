/// One year of an expansion: the frame its masks are laid over.
struct YearFrame {
    let year: Int
    /// Day number of 1 January.
    let first: Int
    let length: Int
    /// Weekday of 1 January, 0 = Monday.
    let firstWeekday: Int

    @inline(__always)
    init(year: Int) {
        self.year = year
        first = Day.daysFromCivil(year: year, month: 1, day: 1)
        length = Day.isLeap(year) ? 366 : 365
        firstWeekday = YearFrame.weekday(ofDay: first)
    }

    var isLeap: Bool { length == 366 }

    /// Weekday of index `i` (0 = Monday); `i >= 0`.
    @inline(__always)
    func weekday(at i: Int) -> Int { (firstWeekday + i) % 7 }

    @inline(__always)
    static func weekday(ofDay number: Int) -> Int { ((number % 7) + 7 + 3) % 7 }

    /// Index of the first day of `month` (1...13) in a frame.
    @inline(__always)
    static func monthStart(_ month: Int, leap: Bool) -> Int {
        // Days before the month in a common year: (367m − 362) / 12 counts February as 30 days,
        // 2 too many from March on (1 too many in a leap year). Checked month by month in YearFrameTests.
        let days = (367 * month - 362) / 12
        return month > 2 ? days - (leap ? 1 : 2) : days
    }
}
