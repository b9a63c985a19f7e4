import Foundation
import Testing

@testable import CapitalCore

/// Exchange rates (issue 19): exact decimals, and conversions rounded half to even, against
/// Python's decimal module (`Scripts/rate-references.py` wrote the fixtures).
@Suite("Exchange rates")
struct ExchangeRateTests {
    static func fixture(_ name: String) throws -> [[Substring]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rates/\(name)")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        return lines.dropFirst().map { $0.split(separator: ",") }
    }

    @Test func ratesReadAsExactDecimals() throws {
        let rate = try ExchangeRate.Decimal(parsing: "92.5012")
        #expect(rate.coefficient == 925012 && rate.scale == 4)
        #expect(rate.description == "92.5012")
        // A decimal comma (the Bank of Russia's), trailing zeros dropped, leading zeros not significant.
        #expect(try ExchangeRate.Decimal(parsing: "87,1500") == ExchangeRate.Decimal(coefficient: 8715, scale: 2))
        #expect(try ExchangeRate.Decimal(parsing: "0.0000001234567891").description == "0.0000001234567891")
        #expect(try ExchangeRate.Decimal(parsing: "1234567891").description == "1234567891")
        #expect(try ExchangeRate.Decimal(parsing: "1.5") < ExchangeRate.Decimal(parsing: "1.55"))
        #expect(try ExchangeRate.Decimal(parsing: "10") > ExchangeRate.Decimal(parsing: "9.99"))
    }

    @Test(arguments: [
        ("0", ExchangeRateError.notPositive("0")), ("0.000", .notPositive("0.000")), ("-1", .notPositive("-1")),
        ("12345678901", .tooManyDigits("12345678901")), ("1.0000000001", .tooManyDigits("1.0000000001")), ("", .notANumber("")),
        ("abc", .notANumber("abc")), ("1.2.3", .notANumber("1.2.3")), ("1e3", .notANumber("1e3")), (".", .notANumber(".")),
        ("92.5 ", .notANumber("92.5 ")),
    ])
    func badRatesAreRefused(text: String, error: ExchangeRateError) {
        #expect(throws: error) { try ExchangeRate.Decimal(parsing: text) }
    }

    @Test func conversionsMatchPythonsDecimal() throws {
        let rows = try Self.fixture("conversions.csv")
        #expect(rows.count > 1900)
        for row in rows {
            let amount = try #require(Int64(row[0]))
            let value = ExchangeRate.Decimal(coefficient: try #require(Int64(row[1])), scale: try #require(Int(row[2])))
            let per = try #require(Int64(row[3]))
            let from = try Self.currency(exponent: try #require(Int(row[4])))
            let to = try Self.currency(exponent: try #require(Int(row[5])))
            let rate = ExchangeRate(id: "", currency: from, day: Day(0), value: value, per: per)
            #expect(rate.convert(amount, from: from, to: to) == Int64(row[6]), "\(row)")
        }
    }

    /// A currency whose minor unit has `exponent` digits.
    static func currency(exponent: Int) throws -> Currency { try Currency([0: "JPY", 2: "USD", 3: "KWD"][exponent]!) }

    @Test func aConversionPastInt64IsNil() throws {
        let rate = ExchangeRate(id: "", currency: try Currency("USD"), day: Day(0), value: ExchangeRate.Decimal(coefficient: 9_999_999_999, scale: 0))
        #expect(rate.convert(.max / 2, from: try Currency("USD"), to: try Currency("RUB")) == nil)
    }

    @Test func fractionsRoundToTenSignificantDigitsAsPythonDoes() throws {
        let rows = try Self.fixture("rounding.csv")
        #expect(rows.count > 900)
        for row in rows {
            let numerator = try #require(Int128(String(row[0])))
            let denominator = try #require(Int128(String(row[1])))
            let rounded = try #require(ExchangeRate.Decimal(rounding: numerator, over: denominator), "\(row)")
            #expect(rounded == ExchangeRate.Decimal(coefficient: try #require(Int64(row[2])), scale: try #require(Int(row[3]))), "\(row)")
        }
        #expect(ExchangeRate.Decimal(rounding: 0, over: 3) == nil)
        var huge: Int128 = 1
        for _ in 0..<20 { huge *= 10 }
        #expect(ExchangeRate.Decimal(rounding: 1, over: huge) == nil)
    }
}
