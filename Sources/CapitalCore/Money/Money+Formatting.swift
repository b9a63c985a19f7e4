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
        var text = TextBytes(capacity: 22 + max(0, exponent))
        text.append(amount: minor, exponent: exponent)
        guard let grouping else { return text.text }
        let plain = text.text
        let unsigned = minor < 0 ? plain.dropFirst() : plain[...]
        let integer = unsigned.prefix { $0 != "." }
        var result = minor < 0 ? "-" : ""
        for (index, digit) in integer.enumerated() {
            if index > 0 && (integer.count - index) % 3 == 0 { result += grouping }
            result.append(digit)
        }
        return result + unsigned.dropFirst(integer.count)
    }
}
