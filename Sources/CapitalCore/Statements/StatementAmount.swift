/// Amounts as banks print them in statements, read to minor units without ever going through a
/// floating-point number.
public enum StatementAmount {
    /// The minor units of an amount as a bank prints it, nil for empty (or blank) text.
    ///
    /// ```swift
    /// try StatementAmount.parse("-1 234,56 ₽", exponent: 2, decimalMark: nil, line: 3)       // -123456
    /// try StatementAmount.parse("$1,234.56", exponent: 2, decimalMark: nil, line: 3)         // 123456
    /// try StatementAmount.parse("1.234,5", exponent: 2, decimalMark: UInt8(ascii: ","), line: 3) // 123450
    /// try StatementAmount.parse("(12.00)", exponent: 2, decimalMark: nil, line: 3)           // -1200
    /// try StatementAmount.parse("12,50-", exponent: 2, decimalMark: nil, line: 3)           // -1250
    /// try StatementAmount.parse("1,234", exponent: 2, decimalMark: nil, line: 3)            // throws: ambiguous
    /// ```
    ///
    /// - Sign: one at most, `+`, `-` or `−` (U+2212), before or after the number or the currency, spaced or
    ///   not (`-$5`, `$-5`, `5-`, `5 EUR-`), or parentheses around it all for a negative (`(12.00)`, `($12.00)`).
    /// - Currency, before or after, glued or spaced (`parseMarked` returns it; `parse` drops it): any run holding a currency symbol (`$`, `€`,
    ///   `£`, `₽`, `US$`), three letters (`EUR`, `usd`, `RUB`), or a local abbreviation (`руб.`, `р.`, `грн`, `zł`,
    ///   `kr`, `Kč`, `Ft`, `лв`, `Rs.`, `Fr.`, `TL`, `lei`). Other letters are not a number (`12x`), and `CR`/`DR`
    ///   are refused: a debit/credit marker is a sign whose direction depends on the statement.
    /// - Digit groups: space, no-break space, thin space, narrow no-break space, `'`, and whichever of `.` `,` is
    ///   not the decimal mark. Groups are strictly three digits after a first group of one to three
    ///   (`1 234 567,89`; `12 34,5` is refused; Indian `1,23,456` grouping too).
    /// - Decimal mark: `decimalMark` (`.` or `,`) when the file declares one; the other mark then only groups.
    ///   With nil, the mark is the last `.` or `,` when it appears once and no grouping follows it; a mark that
    ///   appears more than once groups (`1.234.567`). A lone mark with exactly three digits after it and one to
    ///   three before (`1,234`, `1.234`) could be either and is an error, except when `exponent` is 0 (yen,
    ///   won), where no one prints decimals, so it groups: `1,234` is 1234.
    /// - Decimals beyond `exponent` are an error unless they are zeros (`12.500` is 1250 with a declared mark).
    /// - Throws: `StatementError` at `line`, quoting the text: not a number, ambiguous, too many decimals, past
    ///   ±Int64.max (Int64.min too, so that every amount can be negated).
    /// - Complexity: O(n) in the length of `text`.
    public static func parse(_ text: Substring, exponent: Int, decimalMark: UInt8?, line: Int) throws(StatementError) -> Int64? {
        try parseMarked(text, exponent: exponent, decimalMark: decimalMark, line: line)?.minor
    }

    /// As `parse`, with the currency sign or code printed around the amount, as printed (`$`,
    /// `US$`, `€`, `EUR`, `руб.`: the first when there are two), nil when there is none; what it
    /// stands for is the caller's to judge (a statement in euros with `$12.00` in it is not).
    /// - Complexity: O(n) in the length of `text`.
    public static func parseMarked(
        _ text: Substring, exponent: Int, decimalMark: UInt8?, line: Int
    ) throws(StatementError) -> Marked? {
        precondition((0...18).contains(exponent), "an exponent of 0 to 18")
        precondition(decimalMark == nil || decimalMark == UInt8(ascii: ".") || decimalMark == UInt8(ascii: ","), "'.' or ','")
        let all = Array(text.unicodeScalars)
        guard let first = all.firstIndex(where: { !$0.properties.isWhitespace }) else { return nil }
        let last = all.lastIndex(where: { !$0.properties.isWhitespace })!
        let scalars = all[first...last]
        let refusal = Refusal(text: scalars, line: line)
        func notANumber(_ why: String? = nil) -> StatementError { refusal.notANumber(why) }

        // The prefix and the suffix: spaces, a sign, parentheses, currency.
        var signs = 0
        var negative = false
        var parentheses = (open: false, close: false)
        var mark: ArraySlice<Unicode.Scalar>?
        var low = scalars.startIndex
        var high = scalars.endIndex
        while low < high, !isDigit(scalars[low]) {
            let scalar = scalars[low]
            if scalar.properties.isWhitespace {
                low += 1
            } else if isSign(scalar) {
                signs += 1
                negative = scalar != "+"
                low += 1
            } else if scalar == "(" && !parentheses.open {
                parentheses.open = true
                low += 1
            } else if isCurrency(scalar) {
                var end = low
                while end < high, isCurrency(scalars[end]) || (scalars[end] == "." && scalars[end - 1].properties.isAlphabetic) { end += 1 }
                try checkCurrency(scalars[low..<end], refusal)
                if mark == nil { mark = scalars[low..<end] }
                low = end
            } else {
                throw notANumber()
            }
        }
        while high > low, !isDigit(scalars[high - 1]) {
            let scalar = scalars[high - 1]
            if scalar.properties.isWhitespace {
                high -= 1
            } else if isSign(scalar) {
                signs += 1
                negative = scalar != "+"
                high -= 1
            } else if scalar == ")" && !parentheses.close {
                parentheses.close = true
                high -= 1
            } else if isCurrency(scalar) || scalar == "." {
                var start = high
                while start > low, isCurrency(scalars[start - 1]) || scalars[start - 1] == "." { start -= 1 }
                try checkCurrency(scalars[start..<high], refusal)
                if mark == nil { mark = scalars[start..<high] }
                high = start
            } else {
                throw notANumber()
            }
        }
        guard low < high else { throw notANumber("there are no digits") }
        guard parentheses.open == parentheses.close else { throw notANumber("a parenthesis is not closed") }
        if parentheses.open {
            signs += 1
            negative = true
        }
        guard signs <= 1 else { throw notANumber("it has more than one sign") }

        // The number: digits with single separators between them. A first pass counts the marks…
        var dots = 0
        var commas = 0
        var lastMark: Int?
        var lastSeparator: Int?
        var separators = 0
        for index in low..<high where !isDigit(scalars[index]) {
            let scalar = scalars[index]
            guard scalar == "." || scalar == "," || isGroupSpace(scalar) else { throw notANumber() }
            guard isDigit(scalars[index - 1]) else { throw notANumber("two separators in a row") }
            separators += 1
            lastSeparator = index
            if scalar == "." { dots += 1; lastMark = index } else if scalar == "," { commas += 1; lastMark = index }
        }

        // … to find the decimal mark; every other separator groups digits …
        var decimal: Int?
        if let decimalMark {
            let mark = Unicode.Scalar(decimalMark)
            if (mark == "." ? dots : commas) > 1 { throw notANumber("the decimal mark '\(mark)' appears more than once") }
            decimal = scalars[low..<high].firstIndex(of: mark)
            if let decimal, decimal != lastSeparator { throw notANumber("digits are grouped after the decimal mark '\(mark)'") }
        } else if let lastMark {
            let mark = scalars[lastMark]
            if (mark == "." ? dots : commas) > 1 {
                if (mark == "." ? commas : dots) > 0 { throw notANumber("'.' and ',' both group digits") }
            } else {
                if lastMark != lastSeparator { throw notANumber("digits are grouped after the decimal mark '\(mark)'") }
                if separators == 1 && high - lastMark - 1 == 3 && lastMark - low <= 3 && scalars[low] != "0" {
                    guard exponent == 0 else { throw StatementError(line: line, "amount '\(refusal.shown)' is ambiguous: say decimal-mark") }
                } else {
                    decimal = lastMark
                }
            }
        }

        // … and a second pass checks the groups and adds the digits up, negatively so that Int64.min is reachable.
        var value: Int64 = 0
        var overflow = false
        func add(_ digit: Unicode.Scalar) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(digit.value &- 0x30))
            overflow = overflow || overflow1 || overflow2
            value = next
        }
        var run = 0
        var groups = 0
        var badGroup = false
        for index in low..<(decimal ?? high) {
            let scalar = scalars[index]
            if isDigit(scalar) {
                add(scalar)
                run += 1
            } else {
                badGroup = badGroup || (groups == 0 ? run > 3 : run != 3)
                groups += 1
                run = 0
            }
        }
        if badGroup || (groups > 0 && run != 3) { throw notANumber("digits must be grouped in threes") }
        var decimals = 0
        var extraDecimals = false  // past the exponent and not zero
        if let decimal {
            for scalar in scalars[(decimal + 1)..<high] {
                decimals += 1
                if decimals <= exponent { add(scalar) } else if scalar != "0" { extraDecimals = true }
            }
        }
        if extraDecimals { throw StatementError(line: line, "amount '\(refusal.shown)' has \(decimals) decimals; the currency has \(exponent)") }
        for _ in decimals..<max(decimals, exponent) { add("0") }
        // Int64.min is refused with either sign: every amount must be negatable (a counterpart's posting).
        if overflow || value == .min { throw StatementError(line: line, "amount '\(refusal.shown)' is too large") }
        var currency: String?
        if let mark {
            var text = ""
            text.unicodeScalars.append(contentsOf: mark)
            currency = text
        }
        return Marked(minor: negative ? value : -value, currency: currency)
    }

    /// An amount with the currency printed around it (`parseMarked`).
    public struct Marked: Sendable, Equatable {
        /// The amount in minor units.
        public var minor: Int64
        /// The sign or code printed with it, as printed; nil when none was.
        public var currency: String?
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    private static func isSign(_ scalar: Unicode.Scalar) -> Bool { scalar == "-" || scalar == "+" || scalar == "\u{2212}" }

    /// Space, no-break space, thin space, narrow no-break space, `'`.
    private static func isGroupSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0xA0, 0x2009, 0x202F, 0x27: return true
        default: return false
        }
    }

    /// A character of a currency sign or code: a letter or a currency symbol.
    private static func isCurrency(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.generalCategory == .currencySymbol
    }

    /// Letters banks print after (or before) amounts that are not ISO codes, lowercased and without dots.
    private static let abbreviations: Set<String> = ["руб", "р", "грн", "zł", "kr", "kč", "ft", "лв", "rs", "fr", "tl", "lei"]

    /// Refuses a run of letters around an amount that is no currency (see `parse`).
    private static func checkCurrency(_ run: ArraySlice<Unicode.Scalar>, _ refusal: Refusal) throws(StatementError) {
        var letters = ""
        var symbol = false
        var previous: Unicode.Scalar?
        for scalar in run {
            if scalar == "." {
                guard let previous, previous.properties.isAlphabetic else { throw refusal.notANumber(nil) }
            } else if scalar.properties.generalCategory == .currencySymbol {
                symbol = true
            } else {
                letters.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
            previous = scalar
        }
        if letters == "dr" || letters == "cr" {
            throw StatementError(line: refusal.line, "amount '\(refusal.shown)' carries a debit/credit marker '\(letters.uppercased())', not a sign")
        }
        let isCode = letters.unicodeScalars.count == 3 && letters.unicodeScalars.allSatisfy { $0.value >= 0x61 && $0.value <= 0x7A }
        guard symbol ? letters.unicodeScalars.count <= 3 : (isCode || abbreviations.contains(letters)) else {
            throw refusal.notANumber(nil)
        }
    }

    /// The text being parsed and its line, to quote in errors.
    private struct Refusal {
        let text: ArraySlice<Unicode.Scalar>
        let line: Int

        /// The text, for quoting.
        var shown: String {
            var shown = ""
            shown.unicodeScalars.append(contentsOf: text)
            return shown
        }

        func notANumber(_ why: String?) -> StatementError {
            StatementError(line: line, "amount '\(shown)' is not a number" + (why.map { ": \($0)" } ?? ""))
        }
    }
}
