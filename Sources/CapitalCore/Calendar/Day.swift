/// A calendar day as a day number: days since 1970-01-01 (which is day 0).
///
/// Conversions to and from the proleptic Gregorian civil date use integer arithmetic only
/// (Howard Hinnant's `days_from_civil` / `civil_from_days`), so they are exact and fast.
/// ```swift
/// let day = try Day(iso: "2025-03-01")
/// day.weekday          // .saturday
/// day.civil            // CivilDate(year: 2025, month: 3, day: 1)
/// day.addingMonths(1)  // 2025-04-01
/// ```
public struct Day: Hashable, Comparable, Strideable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var number: Int

    /// The day `number` days after 1970-01-01 (before it when negative).
    public init(_ number: Int) { self.number = number }

    /// The day of a valid civil date.
    /// - Throws: `DayError.invalidDate` when the month or day does not exist (2025-02-30).
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...12).contains(month), day >= 1, day <= Day.daysIn(month: month, year: year) else {
            throw .invalidDate(year: year, month: month, day: day)
        }
        self.number = Day.daysFromCivil(year: year, month: month, day: day)
    }

    /// The civil date of this day.
    /// - Complexity: O(1), integer arithmetic only.
    public var civil: CivilDate {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return CivilDate(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Day number of a civil date, which must be valid.
    /// - Complexity: O(1), integer arithmetic only.
    @inlinable
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Whether `year` is a leap year of the proleptic Gregorian calendar.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days of `month` (1–12) in `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ISO weekday: Monday is 1, Sunday is 7. 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        let index = ((number % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday(rawValue: index + 1)!
    }

    /// Earlier days come first.
    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }
    /// The number of days from this day to `other` (negative when `other` is earlier).
    public func distance(to other: Day) -> Int { other.number - number }
    /// The day `n` days later (earlier when `n` is negative).
    public func advanced(by n: Int) -> Day { Day(number + n) }

    /// ISO 8601 text, `YYYY-MM-DD`.
    public var iso: String { civil.iso }
    public var description: String { iso }
}

/// A year, month and day in the proleptic Gregorian calendar.
public struct CivilDate: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// A civil date as given; nothing checks that it exists (`Day(year:month:day:)` does).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`, zero-padded.
    public var iso: String {
        var text = TextBytes(capacity: 66)
        text.append(civil: self)
        return text.text
    }

    public var description: String { iso }
}

/// ISO weekday numbering: Monday is 1 … Sunday is 7.
public enum Weekday: Int, CaseIterable, Sendable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public var isWeekend: Bool { self == .saturday || self == .sunday }
}

/// Why a day could not be made or parsed.
public enum DayError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidDate(year: Int, month: Int, day: Int)
    /// Not `YYYY-MM-DD` (where only a full date is accepted).
    case badFormat(String)
    /// Neither `YYYY-MM-DD` nor `YYYY-MM` (where a month is accepted too).
    case badDateOrMonth(String)
    case monthOutOfRange(String)
    case dayOutOfRange(String, lastDay: Int)
    /// A year outside `Day.inputYears` (1900 to 2200), in a date from outside.
    case yearOutOfRange(String)

    /// One line, with any line break in the quoted input escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .invalidDate(let y, let m, let d):
            return "\(y)-\(m)-\(d) is not a calendar date"
        case .badFormat(let text):
            return "'\(text)' is not a date: expected YYYY-MM-DD"
        case .badDateOrMonth(let text):
            return "'\(text)' is not a date: expected YYYY-MM-DD, or YYYY-MM for a month"
        case .monthOutOfRange(let text):
            return "'\(text)' is not a date: the month must be 01 to 12"
        case .dayOutOfRange(let text, let lastDay):
            return "'\(text)' is not a date: that month has days 01 to \(lastDay)"
        case .yearOutOfRange(let text):
            return "'\(text)': the year must be \(Day.inputYears.lowerBound) to \(Day.inputYears.upperBound)"
        }
    }
}
