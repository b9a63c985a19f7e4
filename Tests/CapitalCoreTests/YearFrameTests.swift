import Testing

@testable import CapitalCore

@Suite("YearFrame")
struct YearFrameTests {
    /// Each month's first day is `monthStart` days after the year's first, in a common year and
    /// a leap year; month 13 is the next year's first day. Day numbers come from `Day`, whose
    /// conversion is checked against Python's `datetime` (DayTests).
    @Test(arguments: [2023, 2024, 1900, 2000])
    func monthStartsCountTheDaysOfTheMonthsBefore(year: Int) throws {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let first = try Day(year: year, month: 1, day: 1)
        for month in 1...12 {
            #expect(YearFrame.monthStart(month, leap: leap) == first.distance(to: try Day(year: year, month: month, day: 1)), "month \(month)")
        }
        #expect(YearFrame.monthStart(13, leap: leap) == first.distance(to: try Day(year: year + 1, month: 1, day: 1)))
    }
}
