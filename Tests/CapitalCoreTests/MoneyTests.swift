import CapitalCore
import Testing

/// The currencies the tests use, one per minor-unit exponent.
extension Currency {
    static let rub = try! Currency("RUB")  // exponent 2
    static let usd = try! Currency("USD")  // exponent 2
    static let jpy = try! Currency("JPY")  // exponent 0
    static let kwd = try! Currency("KWD")  // exponent 3
    static let clf = try! Currency("CLF")  // exponent 4
}

extension Money {
    static func rub(_ minor: Int64) -> Money { Money(minor: minor, currency: .rub) }
}

@Suite("Money parsing")
struct MoneyParsingTests {
    @Test(
        "accepts signs, either decimal separator and grouping spaces",
        arguments: [
            ("1234.5", 123_450),
            ("1234,5", 123_450),
            ("1 234,50", 123_450),
            ("1 234.50", 123_450),
            ("1 234 567.89", 123_456_789),
            ("-12", -1_200),
            ("+3", 300),
            ("\u{2212}7", -700),  // U+2212 MINUS SIGN
            ("1\u{00A0}234.50", 123_450),  // no-break space
            ("1\u{2009}234.50", 123_450),  // thin space
            ("1\u{202F}234.50", 123_450),  // narrow no-break space
            ("1'234", 123_400),
            ("1_234", 123_400),
            ("0.05", 5),
            ("-0,05", -5),
            ("-0", 0),
            ("007", 700),
            ("  42 ", 4_200),
            ("\u{00A0}42\u{00A0}", 4_200),
            ("999", 99_900),
            ("92233720368547758.07", Int64.max),
            ("-92233720368547758.08", Int64.min),
            ("-92 233 720 368 547 758.08", Int64.min),
        ] as [(String, Int64)]
    )
    func acceptsRoubleAmount(text: String, minor: Int64) throws {
        #expect(try Money(parsing: text, currency: .rub) == .rub(minor))
    }

    @Test(
        "refuses text that is not a plainly written number, quoting it",
        arguments: [
            "12,34.5", "12.34,5", "1,234,567", "1.2.3",
            "NaN", "nan", "inf", "-inf", "Infinity", "1e5", "0x10", "12a", "$12", "12 RUB",
            "1 23", "12 345 67", "1234 567", "1  234", "1 234.5 6", "1 ,5", " 1 234 .5",
            ".5", ",5", "5.", "5,", "-.5",
            "--5", "+-5", "-+5", "-", "+", "- 5", "5-",
        ]
    )
    func refusesMalformedText(text: String) {
        let error = #expect(throws: MoneyError.self) { try Money(parsing: text, currency: .rub) }
        guard case .notANumber(let quoted, let reason) = error else {
            Issue.record("expected notANumber for '\(text)', got \(String(describing: error))")
            return
        }
        #expect(quoted == text)
        #expect(!reason.isEmpty)
        #expect(error?.description.contains("'\(text)'") == true)
    }

    @Test("refuses empty or blank text as empty", arguments: ["", " ", "\t", "\u{00A0}\u{2009}"])
    func refusesEmptyText(text: String) {
        #expect(throws: MoneyError.empty) { try Money(parsing: text, currency: .rub) }
    }

    @Test(
        "refuses any decimal beyond the currency's exponent, zeros too: '1,000' is not silently 1.00",
        arguments: ["1,000", "1.000", "10,000", "250.000", "1.230", "1.2300000"])
    func refusesZeroDecimalsBeyondTheExponent(text: String) {
        #expect(throws: MoneyError.tooManyDecimals(text, currency: "RUB", allowed: 2)) {
            try Money(parsing: text, currency: .rub)
        }
    }

    @Test("refuses a nonzero decimal beyond the currency's exponent")
    func refusesTooManyDecimalsForRoubles() {
        #expect(throws: MoneyError.tooManyDecimals("1.234", currency: "RUB", allowed: 2)) {
            try Money(parsing: "1.234", currency: .rub)
        }
        #expect(throws: MoneyError.tooManyDecimals("0.001", currency: "RUB", allowed: 2)) {
            try Money(parsing: "0.001", currency: .rub)
        }
    }

    @Test("yen has no minor unit: whole yen only")
    func yenHasExponentZero() throws {
        #expect(try Money(parsing: "1234", currency: .jpy).minor == 1_234)
        #expect(try Money(parsing: "1 234", currency: .jpy).minor == 1_234)
        #expect(throws: MoneyError.tooManyDecimals("1.0", currency: "JPY", allowed: 0)) {
            try Money(parsing: "1.0", currency: .jpy)
        }
        #expect(throws: MoneyError.tooManyDecimals("-1,000", currency: "JPY", allowed: 0)) {
            try Money(parsing: "-1,000", currency: .jpy)
        }
        #expect(throws: MoneyError.tooManyDecimals("1.5", currency: "JPY", allowed: 0)) {
            try Money(parsing: "1.5", currency: .jpy)
        }
        #expect(throws: MoneyError.tooManyDecimals("0.01", currency: "JPY", allowed: 0)) {
            try Money(parsing: "0.01", currency: .jpy)
        }
    }

    @Test("Kuwaiti dinar has three decimals")
    func dinarHasExponentThree() throws {
        #expect(try Money(parsing: "1.234", currency: .kwd).minor == 1_234)
        #expect(try Money(parsing: "1.2", currency: .kwd).minor == 1_200)
        #expect(try Money(parsing: "0.001", currency: .kwd).minor == 1)
        #expect(throws: MoneyError.tooManyDecimals("1.2340", currency: "KWD", allowed: 3)) {
            try Money(parsing: "1.2340", currency: .kwd)
        }
        #expect(throws: MoneyError.tooManyDecimals("1.2345", currency: "KWD", allowed: 3)) {
            try Money(parsing: "1.2345", currency: .kwd)
        }
    }

    @Test(
        "refuses values past Int64 instead of wrapping",
        arguments: [
            ("92233720368547758.08", Currency.rub),  // Int64.max + 1 kopeck
            ("-92233720368547758.09", Currency.rub),  // Int64.min - 1 kopeck
            ("92 233 720 368 547 758.08", Currency.rub),
            ("100000000000000000", Currency.rub),
            ("9223372036854775808", Currency.jpy),
            ("-9223372036854775809", Currency.jpy),
            ("99999999999999999999999999", Currency.jpy),
            ("9223372036854775.808", Currency.kwd),
        ]
    )
    func refusesOverflow(text: String, currency: Currency) {
        let error = #expect(throws: MoneyError.self) { try Money(parsing: text, currency: currency) }
        guard case .overflow(let what) = error else {
            Issue.record("expected overflow for '\(text)', got \(String(describing: error))")
            return
        }
        #expect(what.contains(text))
    }

    @Test("the extreme Int64 values parse exactly in a zero-exponent currency")
    func extremesParseInYen() throws {
        #expect(try Money(parsing: "9223372036854775807", currency: .jpy).minor == .max)
        #expect(try Money(parsing: "-9223372036854775808", currency: .jpy).minor == .min)
        #expect(try Money(parsing: "-9 223 372 036 854 775 808", currency: .jpy).minor == .min)
    }
}

@Suite("Money arithmetic")
struct MoneyArithmeticTests {
    @Test("adds, subtracts, negates and multiplies within range")
    func arithmeticInRange() throws {
        #expect(try Money.rub(100).adding(.rub(250)) == .rub(350))
        #expect(try Money.rub(100).subtracting(.rub(250)) == .rub(-150))
        #expect(try Money.rub(100).negated() == .rub(-100))
        #expect(try Money.rub(0).negated() == .rub(0))
        #expect(try Money.rub(.max).negated() == .rub(-Int64.max))
        #expect(try Money.rub(-1_250).multiplied(by: 3) == .rub(-3_750))
        #expect(try Money.rub(1_250).multiplied(by: -2) == .rub(-2_500))
        #expect(try Money.rub(.min).multiplied(by: 0) == .rub(0))
        #expect(try Money.rub(.max).adding(.rub(.min)) == .rub(-1))
        #expect(try Money.rub(.min).subtracting(.rub(.min)) == .rub(0))
        #expect(try Money.rub(.min).multiplied(by: 1) == .rub(.min))
    }

    static let overflowingOperations: [(String, @Sendable () throws -> Money)] = [
        ("max + 1", { try Money.rub(.max).adding(.rub(1)) }),
        ("min + (-1)", { try Money.rub(.min).adding(.rub(-1)) }),
        ("min - 1", { try Money.rub(.min).subtracting(.rub(1)) }),
        ("0 - min", { try Money.rub(0).subtracting(.rub(.min)) }),
        ("max - (-1)", { try Money.rub(.max).subtracting(.rub(-1)) }),
        ("-min", { try Money.rub(.min).negated() }),
        ("min × -1", { try Money.rub(.min).multiplied(by: -1) }),
        ("(max / 2 + 1) × 2", { try Money.rub(Int64.max / 2 + 1).multiplied(by: 2) }),
        ("-3e9 × 4e9", { try Money.rub(-3_000_000_000).multiplied(by: 4_000_000_000) }),
    ]

    @Test("reports an overflow instead of trapping", arguments: overflowingOperations)
    func overflowIsAnError(operation: String, perform: @Sendable () throws -> Money) {
        let error = #expect(throws: MoneyError.self, "\(operation)") { try perform() }
        guard case .overflow(let what) = error else {
            Issue.record("expected overflow from \(operation), got \(String(describing: error))")
            return
        }
        #expect(what.contains("RUB"))
    }

    @Test("refuses to combine two currencies, naming both")
    func currencyMismatch() {
        #expect(throws: MoneyError.currencyMismatch("RUB", "USD")) {
            try Money.rub(100).adding(Money(minor: 100, currency: .usd))
        }
        #expect(throws: MoneyError.currencyMismatch("USD", "RUB")) {
            try Money(minor: 100, currency: .usd).subtracting(.rub(100))
        }
        #expect(MoneyError.currencyMismatch("RUB", "USD").description == "cannot combine RUB with USD")
    }

    @Test("a checked sum of minor units reports overflow")
    func checkedSumOverflows() throws {
        #expect(try checkedSum(40, 2) == 42)
        #expect(throws: MoneyError.self) { try checkedSum(.max, 1) }
        #expect(throws: MoneyError.self) { try checkedSum(.min, -1) }
    }

    @Test("zero and sign helpers")
    func zeroAndSign() {
        #expect(Money.zero(.rub).isZero)
        #expect(Money.zero(.rub).minor == 0 && Money.zero(.rub).currency == .rub)
        #expect(Money.rub(-1).isNegative)
        #expect(!Money.rub(0).isNegative)
        #expect(!Money.rub(1).isZero)
    }
}

@Suite("Money formatting")
struct MoneyFormattingTests {
    @Test(
        "formatted() groups integer digits in threes with a space",
        arguments: [
            (Money.rub(123_456_789), "1 234 567.89"),
            (Money.rub(-100_000), "-1 000.00"),
            (Money.rub(99_999), "999.99"),
            (Money.rub(100_000), "1 000.00"),
            (Money.rub(0), "0.00"),
            (Money.rub(-5), "-0.05"),
            (Money.rub(.max), "92 233 720 368 547 758.07"),
            (Money.rub(.min), "-92 233 720 368 547 758.08"),
            (Money(minor: 1_234_567, currency: .jpy), "1 234 567"),
            (Money(minor: -123_456, currency: .jpy), "-123 456"),
            (Money(minor: .min, currency: .jpy), "-9 223 372 036 854 775 808"),
            (Money(minor: 1_234_567, currency: .kwd), "1 234.567"),
            (Money(minor: 12_345_678, currency: .clf), "1 234.5678"),
        ]
    )
    func groupsDigits(money: Money, expected: String) {
        #expect(money.formatted() == expected)
    }

    @Test("formatted() takes another group separator")
    func customSeparator() {
        #expect(Money.rub(123_456_789).formatted(groupSeparator: "\u{00A0}") == "1\u{00A0}234\u{00A0}567.89")
        #expect(Money.rub(123_456_789).formatted(groupSeparator: "") == "1234567.89")
    }

    @Test(
        "plain has no grouping and always the currency's decimals",
        arguments: [
            (Money.rub(123_450), "1234.50"),
            (Money.rub(-5), "-0.05"),
            (Money.rub(-123_456_789), "-1234567.89"),
            (Money.rub(7), "0.07"),
            (Money.rub(.min), "-92233720368547758.08"),
            (Money(minor: 1_234, currency: .jpy), "1234"),
            (Money(minor: -1, currency: .jpy), "-1"),
            (Money(minor: 1, currency: .kwd), "0.001"),
            (Money(minor: -10_000, currency: .clf), "-1.0000"),
        ]
    )
    func plainText(money: Money, expected: String) {
        #expect(money.plain == expected)
    }

    @Test("description is the plain amount and the currency code")
    func description() {
        #expect(Money.rub(123_450).description == "1234.50 RUB")
        #expect(Money(minor: -7, currency: .jpy).description == "-7 JPY")
    }

    @Test(
        "parsing what was formatted gives back the same amount",
        arguments: [Currency.rub, .jpy, .kwd, .clf]
    )
    func formatParseRoundTrip(currency: Currency) throws {
        var generator = SplitMix64(seed: 0x00C0_FFEE ^ UInt64(currency.exponent))
        var values: [Int64] = [0, 1, -1, 999, 1_000, -1_000, .max, .min, .max - 1, .min + 1]
        for _ in 0..<5_000 {
            let raw = Int64(bitPattern: generator.next())
            values.append(raw)
            values.append(raw >> (generator.next() % 63))  // small magnitudes too
        }
        for minor in values {
            let money = Money(minor: minor, currency: currency)
            for text in [money.plain, money.formatted(), money.formatted(groupSeparator: "\u{202F}")] {
                let parsed = try Money(parsing: text, currency: currency)
                #expect(parsed == money, "'\(text)' parsed as \(parsed.minor), expected \(minor)")
            }
        }
    }
}
