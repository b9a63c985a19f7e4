import CapitalCore
import Testing

/// A schedule's amount: fixed, or a range `LOW..HIGH` with an expected value (default the midpoint,
/// rounded down to the minor unit). Minor units throughout; RUB has two decimals.
@Suite("Amount models")
struct AmountModelTests {
    static func parse(_ text: String, expected: String? = nil, exponent: Int = 2) throws(AmountModelError) -> AmountModel {
        try AmountModel.parse(text, expected: expected, exponent: exponent, code: "RUB")
    }

    @Test("a single amount is fixed: low, high and expected are the same")
    func singleAmountIsFixed() throws {
        let model = try Self.parse("500")
        #expect(model == AmountModel(fixed: 50000))
        #expect(model.isFixed)
        #expect([model.low, model.high, model.expected] == [50000, 50000, 50000])
        #expect(model.text(exponent: 2) == "500.00")
    }

    @Test(
        "a range's expected value defaults to its midpoint, rounded down to the minor unit",
        arguments: [
            ("250..500", 25000, 50000, 37500), ("0.01..0.02", 1, 2, 1), ("250..500.01", 25000, 50001, 37500), ("100..100", 10000, 10000, 10000),
        ])
    func rangeDefaultsToTheMidpoint(text: String, low: Int64, high: Int64, expected: Int64) throws {
        let model = try Self.parse(text)
        #expect([model.low, model.high, model.expected] == [low, high, expected])
        #expect(try AmountModel(low: low, high: high) == model)
    }

    @Test("a range takes an expected value anywhere inside it, bounds included", arguments: ["250", "400", "500"])
    func rangeTakesAnExpectedValue(expected: String) throws {
        let model = try Self.parse("250..500", expected: expected)
        #expect(model.expected == Int64(expected)! * 100)
        #expect(!model.isFixed)
        #expect(model.text(exponent: 2) == "250.00..500.00")
    }

    @Test("a reversed range is refused, quoting it")
    func reversedRangeIsRefused() {
        #expect(throws: AmountModelError.reversed("500..250")) { try Self.parse("500..250") }
        #expect(throws: AmountModelError.reversed("50000..25000 (minor units)")) { try AmountModel(low: 50000, high: 25000) }
        #expect(AmountModelError.reversed("500..250").description == "'500..250': the range starts above its end; write LOW..HIGH")
    }

    @Test("an expected value outside the range is refused")
    func expectedOutsideTheRangeIsRefused() throws {
        #expect(throws: AmountModelError.expectedOutside(expected: 60000, low: 25000, high: 50000)) { try Self.parse("250..500", expected: "600") }
        #expect(throws: AmountModelError.expectedOutside(expected: 24999, low: 25000, high: 50000)) { try Self.parse("250..500", expected: "249.99") }
        #expect(throws: AmountModelError.expectedOutside(expected: 10, low: 25000, high: 50000)) {
            try AmountModel(low: 25000, high: 50000, expected: 10)
        }
        // A fixed amount's expected value can only be itself.
        #expect(throws: AmountModelError.expectedOutside(expected: 40000, low: 50000, high: 50000)) { try Self.parse("500", expected: "400") }
        #expect(try Self.parse("500", expected: "500") == AmountModel(fixed: 50000))
    }

    @Test("negative amounts are refused: postings say which way money flows", arguments: ["-5", "-5..10", "5..-1"])
    func negativeAmountsAreRefused(text: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            guard case AmountModelError.negative = error else { return false }
            return true
        }
    }

    @Test("text that is not an amount or a range is refused as money", arguments: ["", "abc", "1..2..3", "250-500", "1.234", "..5"])
    func malformedAmountsAreRefused(text: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            guard case AmountModelError.money = error else { return false }
            return true
        }
    }

    @Test("a currency without decimals counts whole units")
    func currencyWithoutDecimals() throws {
        #expect(try Self.parse("1000..3000", exponent: 0) == AmountModel(low: 1000, high: 3000))
        #expect(try Self.parse("1000..3000", exponent: 0).text(exponent: 0) == "1000..3000")
    }
}
