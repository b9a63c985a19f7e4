extension Money {
    /// Parses a decimal amount without ever going through a floating-point number.
    ///
    /// Accepted: an optional sign (`-12`, `+3`), digits grouped by spaces in threes (`1 234`; also
    /// no-break, thin and narrow no-break spaces, `'` and `_`), and one decimal separator, `.` or `,`
    /// (`1234.5`, `1 234,50`). Decimals beyond the currency's exponent are refused, zeros too:
    /// `1,000` or `1.000` in RUB is far more likely a thousand than one rouble, so it is an error,
    /// never silently 1.00.
    ///
    /// Refused: empty text, `NaN`, `12,34.5` (two separators), `1 23` (bad grouping), values past Int64.
    /// - Complexity: O(n) in the length of `text`.
    public init(parsing text: String, currency: Currency) throws(MoneyError) {
        self.init(minor: try Money.parseMinor(text, exponent: currency.exponent, code: currency.code), currency: currency)
    }

    /// The minor-unit value of `text` for a currency with `exponent` decimal digits.
    public static func parseMinor(_ text: String, exponent: Int, code: String = "the currency") throws(MoneyError) -> Int64 {
        if let value = plainMinor(text, exponent: exponent) { return value }
        return try readMinor(text, exponent: exponent, code: code)
    }

    /// `parseMinor` the long way: every form it takes, every refusal.
    static func readMinor(_ text: String, exponent: Int, code: String) throws(MoneyError) -> Int64 {
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty { throw .empty }
        var scalars = Array(trimmed.unicodeScalars)
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" || first == "\u{2212}" {
            negative = first != "+"
            scalars.removeFirst()
        }
        var integerDigits: [UInt8] = []
        var fractionDigits: [UInt8] = []
        var separator: Unicode.Scalar?
        var groups: [Int] = []  // lengths of digit runs between group separators
        var run = 0
        var lastWasGroupSeparator = false
        for scalar in scalars {
            if let digit = scalar.asciiDigit {
                if separator == nil { integerDigits.append(digit); run += 1 } else { fractionDigits.append(digit) }
                lastWasGroupSeparator = false
            } else if scalar == "." || scalar == "," {
                if let previous = separator {
                    throw .notANumber(
                        text,
                        reason: previous == scalar
                            ? "'\(scalar)' appears more than once"
                            : "it mixes '\(previous)' and '\(scalar)'; use one decimal separator and spaces to group digits")
                }
                if integerDigits.isEmpty { throw .notANumber(text, reason: "no digits before '\(scalar)'") }
                if lastWasGroupSeparator { throw .notANumber(text, reason: "a digit group ends without digits") }
                separator = scalar
            } else if scalar.isGroupSeparator {
                if separator != nil { throw .notANumber(text, reason: "digit groups are only allowed before the decimal separator") }
                if run == 0 { throw .notANumber(text, reason: "a digit group is empty") }
                groups.append(run)
                run = 0
                lastWasGroupSeparator = true
            } else {
                throw .notANumber(text, reason: "unexpected character '\(scalar)'")
            }
        }
        if integerDigits.isEmpty { throw .notANumber(text, reason: "there are no digits") }
        if lastWasGroupSeparator { throw .notANumber(text, reason: "a digit group ends without digits") }
        if separator != nil && fractionDigits.isEmpty { throw .notANumber(text, reason: "no digits after the decimal separator") }
        if !groups.isEmpty {
            groups.append(run)
            if groups.first! > 3 || groups.dropFirst().contains(where: { $0 != 3 }) {
                throw .notANumber(text, reason: "digits must be grouped in threes")
            }
        }
        if fractionDigits.count > exponent {
            throw .tooManyDecimals(text, currency: code, allowed: exponent)
        }
        while fractionDigits.count < exponent { fractionDigits.append(0) }
        var value: Int64 = 0
        for digit in integerDigits + fractionDigits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))  // accumulate negatively: reaches Int64.min
            if o1 || o2 { throw .overflow("'\(text)'") }
            value = next
        }
        if !negative {
            if value == .min { throw .overflow("'\(text)'") }
            value = -value
        }
        return value
    }
}

extension Money {
    /// The common case read straight from the bytes: an optional sign, at most 18 digits with
    /// one `.` or `,` before at most `exponent` of them (no spaces, no groups). Nil for anything
    /// else, which `parseMinor` reads (and refuses) the long way; for what it reads, it gives
    /// what the long way gives (`MoneyTests` compares the two).
    static func plainMinor(_ text: String, exponent: Int) -> Int64? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Int64? in
            var index = 0
            var negative = false
            if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
                negative = first == UInt8(ascii: "-")
                index = 1
            }
            var value: Int64 = 0
            var digits = 0
            var fraction = -1  // digits after the separator; -1 before it
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    digits += 1
                    guard digits <= 18 else { return nil }
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                    if fraction >= 0 { fraction += 1 }
                } else if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && fraction < 0 && digits > 0 {
                    fraction = 0
                } else {
                    return nil
                }
                index += 1
            }
            // At most 18 digits once scaled to minor units: no overflow.
            guard digits > 0, fraction != 0, fraction <= exponent, digits + exponent - max(fraction, 0) <= 18 else { return nil }
            for _ in max(fraction, 0)..<exponent { value *= 10 }
            return negative ? -value : value
        } ?? nil
    }
}

extension Unicode.Scalar {
    var asciiDigit: UInt8? {
        value >= 48 && value <= 57 ? UInt8(value - 48) : nil
    }

    var isGroupSeparator: Bool {
        switch value {
        case 0x20, 0xA0, 0x2009, 0x202F, 0x27, 0x5F: return true  // space, no-break, thin, narrow no-break, ' and _
        default: return false
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
