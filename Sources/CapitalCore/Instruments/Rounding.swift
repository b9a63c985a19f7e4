/// How an exact amount is rounded to minor units.
public enum Rounding: String, Hashable, Sendable, CaseIterable {
    /// Halves go up (away from zero for the positive amounts loans deal in): 0.5 → 1, 1.5 → 2.
    case halfUp = "half-up"
    /// Halves go to the even neighbour (banker's rounding): 0.5 → 0, 1.5 → 2, 2.5 → 2.
    case halfEven = "half-even"

    /// `quotient + remainder / divisor` rounded: whether to add one to `quotient`.
    @inline(__always)
    func roundsUp(quotient: UInt64, remainder: UInt64, divisor: UInt64) -> Bool {
        let rest = divisor - remainder  // remainder < divisor, so no overflow
        if remainder > rest { return true }
        if remainder < rest { return false }
        return self == .halfUp || quotient & 1 == 1
    }
}

/// An unsigned 128-bit intermediate for `a × b × c / d` with one rounding at the end: interest
/// is `balance × rate × days / basis`, whose product overflows 64 bits long before its quotient
/// does. (Swift's `UInt128` needs macOS 15; this needs nothing.)
struct Wide: Sendable, Equatable {
    var high: UInt64
    var low: UInt64

    init(_ value: UInt64) {
        high = 0
        low = value
    }

    init(_ a: UInt64, times b: UInt64) {
        (high, low) = a.multipliedFullWidth(by: b)
    }

    /// `self + other`, or nil past 128 bits.
    func adding(_ other: Wide) -> Wide? {
        let (low, carry) = self.low.addingReportingOverflow(other.low)
        let (high1, o1) = self.high.addingReportingOverflow(other.high)
        let (high2, o2) = high1.addingReportingOverflow(carry ? 1 : 0)
        if o1 || o2 { return nil }
        var result = Wide(low)
        result.high = high2
        return result
    }

    /// `self × k`, or nil past 128 bits.
    @inline(__always)
    func multiplied(by k: UInt64) -> Wide? {
        let (h1, l1) = low.multipliedFullWidth(by: k)
        let (h2, l2) = high.multipliedFullWidth(by: k)
        guard h2 == 0 else { return nil }
        let (high, overflow) = h1.addingReportingOverflow(l2)
        if overflow { return nil }
        var result = Wide(l1)
        result.high = high
        return result
    }

    /// `self / d` rounded, or nil when the quotient does not fit 64 bits.
    @inline(__always)
    func divided(by d: UInt64, _ rounding: Rounding) -> UInt64? {
        guard d > 0, high < d else { return nil }
        // Most products fit 64 bits: a hardware divide instead of the 128-bit routine.
        let (q, r) = high == 0 ? low.quotientAndRemainder(dividingBy: d) : d.dividingFullWidth((high, low))
        guard rounding.roundsUp(quotient: q, remainder: r, divisor: d) else { return q }
        let (up, overflow) = q.addingReportingOverflow(1)
        return overflow ? nil : up
    }
}

/// Division by one fixed 64-bit divisor as a multiplication (Granlund and Montgomery's
/// round-up method, as libdivide does it): a loan divides every period's interest by the same
/// basis, and a hardware 64-bit divide costs several times a multiply.
struct Divisor: Sendable {
    let value: UInt64
    private let multiplier: UInt64
    private let shift: UInt64

    /// - Precondition: `value > 1`.
    init(_ value: UInt64) {
        precondition(value > 1)
        self.value = value
        // l = ceil(log2(value)); m = floor(2^64 × (2^l − value) / value) + 1.
        let l = UInt64(64 - (value - 1).leadingZeroBitCount)
        let excess = l == 64 ? 0 &- value : (1 << l) - value  // 2^l − value, below value
        multiplier = value.dividingFullWidth((high: excess, low: 0)).quotient &+ 1
        shift = l - 1
    }

    /// `n / value` and `n % value`, exactly as the hardware divide gives them.
    @inline(__always)
    func quotientAndRemainder(_ n: UInt64) -> (quotient: UInt64, remainder: UInt64) {
        let t = multiplier.multipliedFullWidth(by: n).high
        let q = (t &+ ((n &- t) >> 1)) >> shift
        return (q, n &- q &* value)
    }

    /// `wide / value` rounded, or nil when the quotient does not fit 64 bits.
    @inline(__always)
    func divide(_ wide: Wide, _ rounding: Rounding) -> UInt64? {
        guard wide.high == 0 else { return wide.divided(by: value, rounding) }
        let (q, r) = quotientAndRemainder(wide.low)
        guard rounding.roundsUp(quotient: q, remainder: r, divisor: value) else { return q }
        let (up, overflow) = q.addingReportingOverflow(1)
        return overflow ? nil : up
    }
}

/// A natural number of any size, little-endian 64-bit limbs: just what settling an annuity
/// payment exactly needs (products of a few factors and powers, differences, comparisons).
struct BigNatural: Sendable, Comparable {
    private(set) var limbs: [UInt64]

    init(_ value: UInt64) { limbs = value == 0 ? [] : [value] }

    mutating func multiply(by k: UInt64) {
        guard k != 0 else {
            limbs = []
            return
        }
        var carry: UInt64 = 0
        for i in limbs.indices {
            let (high, low) = limbs[i].multipliedFullWidth(by: k)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[i] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
    }

    func multiplied(by k: UInt64) -> BigNatural {
        var result = self
        result.multiply(by: k)
        return result
    }

    /// `base ^ exponent`.
    static func power(_ base: UInt64, _ exponent: Int) -> BigNatural {
        var result = BigNatural(1)
        for _ in 0..<exponent { result.multiply(by: base) }
        return result
    }

    /// `self − other`; `other` must not be larger.
    func subtracting(_ other: BigNatural) -> BigNatural {
        precondition(other <= self, "BigNatural subtraction below zero")
        var result = self
        var borrow = false
        for i in result.limbs.indices {
            let subtrahend = i < other.limbs.count ? other.limbs[i] : 0
            let (d1, o1) = result.limbs[i].subtractingReportingOverflow(subtrahend)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
            result.limbs[i] = d2
            borrow = o1 || o2
        }
        while result.limbs.last == 0 { result.limbs.removeLast() }
        return result
    }

    static func < (lhs: BigNatural, rhs: BigNatural) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for i in lhs.limbs.indices.reversed() where lhs.limbs[i] != rhs.limbs[i] { return lhs.limbs[i] < rhs.limbs[i] }
        return false
    }
}
