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
        let common: Int
        switch month {
        case 1: common = 0
        case 2: common = 31
        case 3: common = 59
        case 4: common = 90
        case 5: common = 120
        case 6: common = 151
        case 7: common = 181
        case 8: common = 212
        case 9: common = 243
        case 10: common = 273
        case 11: common = 304
        case 12: common = 334
        default: common = 365
        }
        return leap && month > 2 ? common + 1 : common
    }
}
