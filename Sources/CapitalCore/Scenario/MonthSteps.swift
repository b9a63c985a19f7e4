/// `anchor.addingMonths(j × months)` for j = 0, 1, 2, …: the anchor's day of the month, clamped
/// to shorter months, stepping the civil month and adding month lengths instead of converting
/// each date.
///
/// A loan's payment days are this sequence anchored on its first payment (as `PaymentDays`
/// lays them out without a business-day adjustment).
struct MonthSteps {
    private var year: Int
    private var month: Int
    /// The day number of the 1st of `month`.
    private var monthStart: Int
    private let dayOfMonth: Int
    private let months: Int

    init(anchor: Day, every months: Int) {
        let civil = anchor.civil
        (year, month, dayOfMonth) = (civil.year, civil.month, civil.day)
        monthStart = anchor.number - civil.day + 1
        self.months = months
    }

    /// The next occurrence and its civil date.
    @inline(__always)
    mutating func next() -> (day: Day, civil: CivilDate) {
        var length = Day.daysIn(month: month, year: year)
        let day = min(dayOfMonth, length)
        let result = (Day(monthStart + day - 1), CivilDate(year: year, month: month, day: day))
        for step in 0..<months {
            if step > 0 { length = Day.daysIn(month: month, year: year) }
            monthStart += length
            month += 1
            if month > 12 {
                month = 1
                year += 1
            }
        }
        return result
    }
}
