extension Day {
    /// Which day a month written as `YYYY-MM` stands for.
    public enum MonthForm: Sendable {
        case startOfMonth
        case endOfMonth
    }

    /// Parses strict ISO `YYYY-MM-DD`: four-digit year, two-digit month and day.
    /// Refuses `2025-02-30`, `2025-13-01`, `25-1-1`.
    public init(iso text: String) throws(DayError) {
        // Fixed positions over the UTF-8 bytes: no allocation.
        let fields: (Int, Int, Int)? =
            text.utf8.withContiguousStorageIfAvailable { bytes -> (Int, Int, Int)? in
                guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
                func number(_ range: Range<Int>) -> Int? {
                    var value = 0
                    for index in range {
                        let digit = Int(bytes[index]) - 48
                        guard digit >= 0 && digit <= 9 else { return nil }
                        value = value * 10 + digit
                    }
                    return value
                }
                guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
                return (year, month, day)
            } ?? Day.splitISO(text)
        guard let (year, month, day) = fields else { throw .badFormat(text) }
        try self.init(checkedYear: year, month: month, day: day, text: text)
    }

    /// The slow path for strings without contiguous UTF-8 storage (bridged strings).
    private static func splitISO(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int.asciiDigits(parts[0]), let month = Int.asciiDigits(parts[1]), let day = Int.asciiDigits(parts[2])
        else { return nil }
        return (year, month, day)
    }

    /// Parses `YYYY-MM-DD`, or `YYYY-MM` as the first or last day of that month.
    /// ```swift
    /// try Day(parsing: "2025-12", monthAs: .endOfMonth)   // 2025-12-31
    /// ```
    public init(parsing text: String, monthAs form: MonthForm) throws(DayError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard parts[0].count == 4, parts[1].count == 2,
                let year = Int.asciiDigits(parts[0]), let month = Int.asciiDigits(parts[1])
            else { throw .badDateOrMonth(text) }
            guard (1...12).contains(month) else { throw .monthOutOfRange(text) }
            let day = form == .startOfMonth ? 1 : Day.daysIn(month: month, year: year)
            self.init(Day.daysFromCivil(year: year, month: month, day: day))
        } else {
            do { try self.init(iso: text) } catch .badFormat { throw .badDateOrMonth(text) }
        }
    }

    private init(checkedYear year: Int, month: Int, day: Int, text: String) throws(DayError) {
        guard (1...12).contains(month) else { throw .monthOutOfRange(text) }
        let last = Day.daysIn(month: month, year: year)
        guard (1...last).contains(day) else { throw .dayOutOfRange(text, lastDay: last) }
        self.init(Day.daysFromCivil(year: year, month: month, day: day))
    }
}

extension Int {
    /// The value of a run of ASCII digits, or nil if anything else is there.
    static func asciiDigits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9 else { return nil }
        var value = 0
        for scalar in text.unicodeScalars {
            guard let digit = scalar.asciiDigit else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}

extension Day {
    /// The years a date from outside may have: what `--on`, `--today`, a ledger file, a bank
    /// statement or a request says. `Day(iso:)` itself reads any four-digit year; the front ends
    /// and file readers refuse the rest with `checkedInputYear(_:)`.
    public static let inputYears: ClosedRange<Int> = 1900...2200

    /// This day, when its year is in `inputYears`.
    /// ```swift
    /// try Day(iso: "0000-01-01").checkedInputYear("0000-01-01")   // throws DayError.yearOutOfRange
    /// ```
    /// - Throws: `DayError.yearOutOfRange`, quoting `text` (the date as it was written).
    public func checkedInputYear(_ text: String) throws(DayError) -> Day {
        guard Day.inputYears.contains(civil.year) else { throw .yearOutOfRange(text) }
        return self
    }

    /// `Day(iso:)` for a date from outside: a year in `inputYears` too.
    public init(input text: String) throws(DayError) {
        self = try Day(iso: text).checkedInputYear(text)
    }

    /// `Day(parsing:monthAs:)` for a date from outside: a year in `inputYears` too.
    public init(input text: String, monthAs form: MonthForm) throws(DayError) {
        self = try Day(parsing: text, monthAs: form).checkedInputYear(text)
    }
}
