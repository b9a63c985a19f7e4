/// SplitMix64 (Steele, Lea and Flood): a tiny seeded generator, so generated ledgers, benchmark
/// inputs and random tests repeat exactly on every machine. Not for anything secret.
///
/// ```swift
/// var random = SplitMix64(seed: 7)
/// let day = random.next(below: 365)
/// let amount = Int64.random(in: 1...1_000, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator started from `seed`: the same seed, the same draws.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< bound (bound > 0), by rejection so every value is as likely.
    public mutating func next(below bound: Int) -> Int {
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }
}
