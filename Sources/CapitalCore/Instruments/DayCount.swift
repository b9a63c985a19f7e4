/// How interest accrues over a stretch of days: the year fraction of a period.
///
/// Each convention gives the fraction as `numerator / basis`, both integers, so that interest is
/// one exact quotient rounded once: `balance × rate × numerator / basis`.
public enum DayCount: String, Hashable, Sendable, CaseIterable {
    /// Every month 30 days, the year 360 (the ISDA "30/360 bond basis"): a regular monthly period
    /// is exactly 1/12 of a year whatever its length, as in the annuity formula (numpy-financial,
    /// HP 10bII). Counted on the unadjusted payment days.
    case thirty360 = "30/360"
    /// The real days of the period over 365, in leap years too.
    case actual365 = "actual/365"
    /// The real days of the period, those in a leap year over 366 and the others over 365, as
    /// Russian banks compute it: 2024-12-20 → 2025-01-20 is 12/366 + 19/365.
    case actualActual = "actual/actual"

    /// The common denominator of every fraction this convention gives.
    public var basis: UInt64 {
        switch self {
        case .thirty360: return 360
        case .actual365: return 365
        case .actualActual: return 365 * 366
        }
    }

    /// The numerator of the year fraction from `start` to `end` (`end` excluded, so
    /// consecutive periods add up): `fraction = numerator / basis`. Zero when `end <= start`.
    /// - Complexity: O(years spanned).
    public func numerator(from start: Day, to end: Day) -> UInt64 {
        guard end > start else { return 0 }
        return numerator(from: start, start.civil, to: end, end.civil)
    }

    /// The same, given both days' civil dates (a schedule knows them already).
    @inline(__always)
    func numerator(from start: Day, _ a: CivilDate, to end: Day, _ b: CivilDate) -> UInt64 {
        guard end > start else { return 0 }
        switch self {
        case .thirty360:
            let d1 = min(a.day, 30)
            let d2 = d1 == 30 ? min(b.day, 30) : b.day
            return UInt64(360 * (b.year - a.year) + 30 * (b.month - a.month) + (d2 - d1))
        case .actual365:
            return UInt64(end.number - start.number)
        case .actualActual:
            if a.year == b.year { return UInt64(end.number - start.number) * (Day.isLeap(a.year) ? 365 : 366) }
            var total: UInt64 = 0
            var from = start
            for year in a.year...b.year {
                let to = year == b.year ? end : Day(Day.daysFromCivil(year: year + 1, month: 1, day: 1))
                total += UInt64(to.number - from.number) * (Day.isLeap(year) ? 365 : 366)
                from = to
            }
            return total
        }
    }
}
