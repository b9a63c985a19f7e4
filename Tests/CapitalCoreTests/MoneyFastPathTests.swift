import Testing

@testable import CapitalCore

/// `Money.parseMinor` reads the common amount (`-1234.5`) straight from its bytes
/// (`plainMinor`) and everything else the long way (`readMinor`). The short way must give what
/// the long way gives, wherever it answers: held to it on seeded random texts of digits, signs,
/// separators and spaces, at every exponent.
@Suite("Money: the short way reads as the long way")
struct MoneyFastPathTests {
    @Test(arguments: [0, 2, 3, 4])
    func theShortWayAgreesWithTheLongWay(exponent: Int) {
        var random = SplitMix64(seed: 0x5EED &+ UInt64(exponent))
        let alphabet: [Character] = ["0", "1", "2", "5", "7", "9", "9", "9", "-", "+", ".", ",", " "]
        var short = 0
        let cases = 20_000
        for index in 0..<cases {
            let length = 1 + Int(random.next() % 22)
            // Mostly digits, so that the short way is often taken.
            let text = String(
                (0..<length).map { _ in
                    random.next() % 3 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : alphabet[Int(random.next() % 8)]
                })
            guard let fast = Money.plainMinor(text, exponent: exponent) else { continue }
            short += 1
            let long = Result { () throws(MoneyError) in try Money.readMinor(text, exponent: exponent, code: "X") }
            #expect((try? long.get()) == fast, "case \(index): \(String(reflecting: text)) at exponent \(exponent): \(fast) vs \(long)")
        }
        #expect(short > cases / 10 && short < cases, "the short way read \(short) of \(cases)")
    }

    @Test func theEdgesAreLeftToTheLongWay() {
        // Past 18 digits once scaled, groups, spaces, a bare separator, too many decimals.
        for text in ["9223372036854775807", "99999999999999999", "1 234", " 12", "12.", ".5", "1.234", "--1", "1,2,3", "−5", ""] {
            #expect(Money.plainMinor(text, exponent: 2) == nil, "\(String(reflecting: text))")
        }
        #expect(Money.plainMinor("9999999999999999", exponent: 2) == 999_999_999_999_999_900)
        #expect(Money.plainMinor("-0,5", exponent: 2) == -50)
        #expect(Money.plainMinor("+7", exponent: 0) == 7)
    }
}
