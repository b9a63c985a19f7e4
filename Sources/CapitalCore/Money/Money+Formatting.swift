extension Money {
    /// Plain decimal text for JSON, CSV and ledger files: `-1234.50`, `1234` for JPY.
    public var plain: String { Money.format(minor: minor, exponent: currency.exponent, grouping: nil) }

    /// Text for tables, with digits grouped in threes: `1 234 567.89`.
    /// - Parameter separator: the group separator, a space by default (which `Money(parsing:)` reads back).
    public func formatted(groupSeparator separator: String = " ") -> String {
        Money.format(minor: minor, exponent: currency.exponent, grouping: separator)
    }

    /// Formats a minor-unit count with `exponent` decimals, optionally grouping the integer digits.
    public static func format(minor: Int64, exponent: Int, grouping: String?) -> String {
        let negative = minor < 0
        let magnitude = minor.magnitude  // UInt64: safe for Int64.min
        var divisor: UInt64 = 1
        for _ in 0..<exponent { divisor *= 10 }
        let integer = String(magnitude / divisor)
        var result = negative ? "-" : ""
        if let grouping, integer.count > 3 {
            let digits = Array(integer)
            for (index, digit) in digits.enumerated() {
                if index > 0 && (digits.count - index) % 3 == 0 { result += grouping }
                result.append(digit)
            }
        } else {
            result += integer
        }
        if exponent > 0 {
            let fraction = String(magnitude % divisor)
            result += "." + String(repeating: "0", count: exponent - fraction.count) + fraction
        }
        return result
    }
}
