import CapitalCore
import Testing

@Suite("Currency")
struct CurrencyTests {
    @Test(
        "knows the ISO 4217 minor-unit exponent",
        arguments: [
            ("RUB", 2), ("USD", 2), ("EUR", 2), ("GBP", 2), ("CNY", 2),
            ("JPY", 0), ("KRW", 0), ("VND", 0), ("ISK", 0),
            ("KWD", 3), ("BHD", 3), ("TND", 3),
            ("CLF", 4),
        ]
    )
    func exponent(code: String, exponent: Int) throws {
        let currency = try Currency(code)
        #expect(currency.code == code)
        #expect(currency.exponent == exponent)
    }

    @Test("minor units per major unit is ten to the exponent")
    func minorPerMajor() {
        #expect(Currency.jpy.minorPerMajor == 1)
        #expect(Currency.rub.minorPerMajor == 100)
        #expect(Currency.kwd.minorPerMajor == 1_000)
        #expect(Currency.clf.minorPerMajor == 10_000)
    }

    @Test("codes are case-insensitive and stored upper-case", arguments: ["rub", "Rub", "rUB", "RUB"])
    func caseInsensitive(code: String) throws {
        let currency = try Currency(code)
        #expect(currency.code == "RUB")
        #expect(currency == .rub)
        #expect(currency.description == "RUB")
    }

    @Test(
        "refuses a code that is not ISO 4217, quoting it",
        arguments: ["", "XYZ", "RUBL", "RU", " RUB", "RUB ", "руб", "R1B", "RUR"]
    )
    func unknownCode(code: String) {
        #expect(throws: MoneyError.unknownCurrency(code)) { try Currency(code) }
        #expect(MoneyError.unknownCurrency(code).description.contains("'\(code)'"))
    }
}
