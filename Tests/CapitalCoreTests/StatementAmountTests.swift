import CapitalCore
import Testing

@Suite("Statement amounts")
struct StatementAmountTests {
    static let dot = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")

    static func parse(_ text: String, exponent: Int = 2, mark: UInt8? = nil) throws(StatementError) -> Int64? {
        try StatementAmount.parse(text[...], exponent: exponent, decimalMark: mark, line: 9)
    }

    @Test(
        "reads amounts as banks print them",
        arguments: [
            // Plain numbers and signs.
            ("0", 2, nil, 0), ("12", 2, nil, 1_200), ("12.5", 2, nil, 1_250), ("12,5", 2, nil, 1_250), ("12.05", 2, nil, 1_205),
            ("-12.05", 2, nil, -1_205), ("+12.05", 2, nil, 1_205), ("\u{2212}12.05", 2, nil, -1_205), ("  7  ", 2, nil, 700),
            ("0.01", 2, nil, 1), ("-0,99", 2, nil, -99), ("1234,56", 2, nil, 123_456), ("1234.567", 3, nil, 1_234_567),
            // Signs after, parentheses.
            ("12.5-", 2, nil, -1_250), ("12,50 -", 2, nil, -1_250), ("12.50+", 2, nil, 1_250), ("- 12", 2, nil, -1_200),
            ("(12.00)", 2, nil, -1_200), ("( 12.00 )", 2, nil, -1_200), ("($1,234.56)", 2, nil, -123_456), ("$(5)", 2, nil, -500),
            ("(12.00 EUR)", 2, nil, -1_200),
            // Currency before or after, glued or spaced.
            ("$1,234.56", 2, nil, 123_456), ("-$1,234.56", 2, nil, -123_456), ("$-1,234.56", 2, nil, -123_456), ("€ 5", 2, nil, 500),
            ("5 €", 2, nil, 500), ("5€", 2, nil, 500), ("£0.50", 2, nil, 50), ("US$12", 2, nil, 1_200), ("EUR 12,50", 2, nil, 1_250),
            ("12.50 USD", 2, nil, 1_250), ("RUB12", 2, nil, 1_200), ("usd 3", 2, nil, 300), ("-1 234,56 ₽", 2, nil, -123_456),
            ("1 234,56 руб.", 2, nil, 123_456), ("1 234,56руб", 2, nil, 123_456), ("-15,00 р.", 2, nil, -1_500), ("10 грн", 2, nil, 1_000),
            ("Rs.1,234.00", 2, nil, 123_400), ("12,50 zł", 2, nil, 1_250), ("100 Kč", 2, nil, 10_000), ("-5 EUR", 2, nil, -500),
            ("5 EUR-", 2, nil, -500), ("¥1,234", 0, nil, 1_234), ("CHF 1'234.50", 2, nil, 123_450),
            // Grouping.
            ("1 234 567,89", 2, nil, 123_456_789), ("1\u{00A0}234,56", 2, nil, 123_456), ("1\u{2009}234.56", 2, nil, 123_456),
            ("1\u{202F}234,56", 2, nil, 123_456), ("1'234'567.80", 2, nil, 123_456_780), ("1,234,567", 2, nil, 123_456_700),
            ("1.234.567", 2, nil, 123_456_700), ("1,234,567.89", 2, nil, 123_456_789), ("1.234.567,89", 2, nil, 123_456_789),
            ("1,234.5", 2, nil, 123_450), ("1.234,5", 2, nil, 123_450), ("1 234", 2, nil, 123_400),
            // A declared decimal mark; the other mark only groups.
            ("1.234,56", 2, comma, 123_456), ("1,234.56", 2, dot, 123_456), ("1,234", 2, dot, 123_400), ("1.234", 2, comma, 123_400),
            ("1,5", 2, comma, 150), ("1.5", 2, dot, 150), ("1,230", 2, comma, 123), ("12.500", 2, dot, 1_250), ("1.234.567", 2, comma, 123_456_700),
            ("-1 234,56 ₽", 2, comma, -123_456), ("7", 2, comma, 700),
            // Exponents 0 and 3.
            ("1,234", 0, nil, 1_234), ("1.234", 0, nil, 1_234), ("1,234,567", 0, nil, 1_234_567), ("12.00", 0, nil, 12), ("12,000", 0, dot, 12_000),
            ("1.234,567", 3, nil, 1_234_567), ("0,123", 3, nil, 123), ("0.5", 3, nil, 500), ("1234,5", 0, comma, nil as Int64?),
            // Decimals beyond the exponent that are zeros.
            ("12.3400", 2, nil, 1_234), ("5,0000", 2, nil, 500),
            // The extremes of Int64.
            ("92233720368547758.07", 2, nil, Int64.max), ("-92233720368547758.07", 2, nil, -Int64.max),
            // Int64.min has no negation, which every statement line needs (its counterpart posting): refused.
            ("-92233720368547758.08", 2, nil, nil as Int64?), ("(92233720368547758.08)", 2, nil, nil as Int64?),
            ("9223372036854775807", 0, nil, Int64.max),
        ] as [(String, Int, UInt8?, Int64?)])
    func readsAmounts(text: String, exponent: Int, mark: UInt8?, expected: Int64?) throws {
        if let expected {
            #expect(try Self.parse(text, exponent: exponent, mark: mark) == expected)
        } else {
            #expect(throws: StatementError.self) { try Self.parse(text, exponent: exponent, mark: mark) }
        }
    }

    @Test("empty or blank text is no amount", arguments: ["", "   ", "\u{00A0}", "\t"])
    func emptyIsNil(text: String) throws {
        #expect(try Self.parse(text) == nil)
    }

    @Test("a lone mark with three digits after it is ambiguous", arguments: ["1,234", "1.234", "-12,345", "$999.000", "(1.000)", "123,456 руб."])
    func ambiguous(text: String) {
        #expect(throws: StatementError(line: 9, "amount '\(text)' is ambiguous: say decimal-mark")) { try Self.parse(text) }
        #expect(throws: StatementError(line: 9, "amount '\(text)' is ambiguous: say decimal-mark")) { try Self.parse(text, exponent: 3) }
    }

    @Test(
        "refuses what is not a number",
        arguments: [
            ("12x", "amount '12x' is not a number"),
            ("x12", "amount 'x12' is not a number"),
            ("12 abcd", "amount '12 abcd' is not a number"),
            ("1-2", "amount '1-2' is not a number"),
            ("abc", "amount 'abc' is not a number: there are no digits"),
            ("EUR", "amount 'EUR' is not a number: there are no digits"),
            ("-", "amount '-' is not a number: there are no digits"),
            ("$", "amount '$' is not a number: there are no digits"),
            ("--12", "amount '--12' is not a number: it has more than one sign"),
            ("-12-", "amount '-12-' is not a number: it has more than one sign"),
            ("-(12)", "amount '-(12)' is not a number: it has more than one sign"),
            ("(12", "amount '(12' is not a number: a parenthesis is not closed"),
            ("12)", "amount '12)' is not a number: a parenthesis is not closed"),
            ("1..5", "amount '1..5' is not a number: two separators in a row"),
            ("1, 234", "amount '1, 234' is not a number: two separators in a row"),
            (".5", "amount '.5' is not a number"),
            ("5.", "amount '5.' is not a number"),
            ("$.50", "amount '$.50' is not a number"),
            ("12 34,5", "amount '12 34,5' is not a number: digits must be grouped in threes"),
            ("1,23,456.00", "amount '1,23,456.00' is not a number: digits must be grouped in threes"),
            ("1234 567", "amount '1234 567' is not a number: digits must be grouped in threes"),
            ("1,234.567.890", "amount '1,234.567.890' is not a number: '.' and ',' both group digits"),
            ("1,5 000", "amount '1,5 000' is not a number: digits are grouped after the decimal mark ','"),
            ("1e5", "amount '1e5' is not a number"),
            ("12.00 DR", "amount '12.00 DR' carries a debit/credit marker 'DR', not a sign"),
            ("12.00cr", "amount '12.00cr' carries a debit/credit marker 'CR', not a sign"),
        ])
    func refusesGarbage(text: String, message: String) {
        #expect(throws: StatementError(line: 9, message)) { try Self.parse(text) }
    }

    @Test(
        "with a declared mark, refuses what contradicts it",
        arguments: [
            ("1,234.56", comma, "amount '1,234.56' is not a number: digits are grouped after the decimal mark ','"),
            ("1.2.3", dot, "amount '1.2.3' is not a number: the decimal mark '.' appears more than once"),
            ("12,34", dot, "amount '12,34' is not a number: digits must be grouped in threes"),
        ] as [(String, UInt8, String)])
    func declaredMarkContradicted(text: String, mark: UInt8, message: String) {
        #expect(throws: StatementError(line: 9, message)) { try Self.parse(text, mark: mark) }
    }

    @Test(
        "refuses decimals the currency does not have",
        arguments: [
            ("12.345", 2, UInt8(ascii: "."), "amount '12.345' has 3 decimals; the currency has 2"),
            ("1,2345", 2, nil, "amount '1,2345' has 4 decimals; the currency has 2"),
            ("12.5", 0, nil, "amount '12.5' has 1 decimals; the currency has 0"),
            ("1.234,567", 2, nil, "amount '1.234,567' has 3 decimals; the currency has 2"),
        ] as [(String, Int, UInt8?, String)])
    func tooManyDecimals(text: String, exponent: Int, mark: UInt8?, message: String) {
        #expect(throws: StatementError(line: 9, message)) { try Self.parse(text, exponent: exponent, mark: mark) }
    }

    @Test("refuses amounts past Int64", arguments: ["92233720368547758.08", "-92233720368547758.09", "99 999 999 999 999 999 999,00"])
    func overflow(text: String) {
        #expect(throws: StatementError(line: 9, "amount '\(text)' is too large")) { try Self.parse(text) }
    }

    @Test("error messages quote the text without the spaces around it")
    func quotesTrimmedText() {
        #expect(throws: StatementError(line: 9, "amount '12x' is not a number")) { try Self.parse("  12x\u{00A0}") }
    }

    @Test(
        "the currency printed around an amount is returned as printed, the first of two",
        arguments: [
            ("$1,234.56", "$"), ("-1 234,56 ₽", "₽"), ("12.00 EUR", "EUR"), ("-12,00 €", "€"), ("US$5", "US$"), ("(£7.00)", "£"),
            ("123,45 руб.", "руб."), ("$5 USD", "$"), ("12.00", nil as String?), ("-5", nil as String?),
        ])
    func currencyMarks(text: String, mark: String?) throws {
        let parsed = try #require(try StatementAmount.parseMarked(Substring(text), exponent: 2, decimalMark: nil, line: 1))
        #expect(parsed.currency == mark)
        #expect(parsed.minor == (try Self.parse(text)))
    }
}
