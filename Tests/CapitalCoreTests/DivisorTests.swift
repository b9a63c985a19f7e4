import Testing

@testable import CapitalCore

/// `Divisor` (division as a multiplication) against the hardware divide.
@Suite("Divisor")
struct DivisorTests {
    /// The divisors loans use, powers of two, their neighbours, and the extremes of 64 bits.
    static let divisors: [UInt64] = {
        var values: [UInt64] = [
            2, 3, 5, 7, 10, 360_000_000, 365_000_000, 133_590_000_000, 1 << 32, (1 << 32) + 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, .max - 1, .max,
        ]
        for bit in 1..<64 { values += [UInt64(1) << bit, (UInt64(1) << bit) - 1, (UInt64(1) << bit) + 1].filter { $0 > 1 } }
        var random = SplitMix64(seed: 64)
        for _ in 0..<200 { values.append(max(2, random.next() >> (random.next() % 63))) }
        return values
    }()

    @Test(arguments: divisors)
    func matchesTheHardwareDivide(_ d: UInt64) {
        let divisor = Divisor(d)
        var random = SplitMix64(seed: d)
        var numerators: [UInt64] = [0, 1, d - 1, d, d &+ 1, .max, .max - 1, d &* 2, d &* 3 &- 1]
        for _ in 0..<2_000 { numerators.append(random.next() >> (random.next() % 64)) }
        for n in numerators {
            let (q, r) = divisor.quotientAndRemainder(n)
            #expect(q == n / d && r == n % d, "\(n) / \(d)")
        }
    }

    @Test func roundsLikeWide() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let d = 2 + random.next() % 1_000_000_000
            let wide = Wide(random.next() >> 8, times: random.next() % 1_000)
            for rounding in Rounding.allCases {
                #expect(Divisor(d).divide(wide, rounding) == wide.divided(by: d, rounding))
            }
        }
    }
}
