/// A set of day indexes `0..<512` within an expansion frame (a year plus the first days of the
/// next), as eight 64-bit words: the masks python-dateutil keeps as lists, as bits.
///
/// Index `i` is the day `i` days after 1 January of the frame's year; 366 + 7 indexes are in use
/// (the 7 extra days hold the end of a weekly period that starts in December).
struct DayBits: Equatable {
    var words: SIMD8<UInt64>

    @inline(__always)
    init(words: SIMD8<UInt64>) { self.words = words }

    static var empty: DayBits { DayBits(words: SIMD8(repeating: 0)) }

    /// The indexes `lower..<upper`, clamped to `0..<512`.
    @inline(__always)
    init(range lower: Int, _ upper: Int) {
        // Built from eight scalars at once: writing lanes one by one into a vector costs a
        // store-forwarding stall when the vector is next read whole.
        let lower = Swift.max(Swift.min(lower, 512), 0)
        let upper = Swift.max(Swift.min(upper, 512), 0)
        @inline(__always) func word(_ base: Int) -> UInt64 {
            let lo = Swift.min(Swift.max(lower &- base, 0), 64)
            let hi = Swift.min(Swift.max(upper &- base, 0), 64)
            guard lo < hi else { return 0 }
            let top: UInt64 = hi == 64 ? ~0 : (1 &<< UInt64(hi)) &- 1
            return top & ~((1 &<< UInt64(lo)) &- 1)
        }
        words = SIMD8(word(0), word(64), word(128), word(192), word(256), word(320), word(384), word(448))
    }

    /// Every 7th day whose weekday is in `pattern`, for a frame whose index 0 has `firstWeekday`.
    /// - Parameters:
    ///   - pattern: 64 bits where bit `j` is set when weekday `j % 7` (0 = Monday) is wanted.
    ///   - firstWeekday: the weekday of index 0, 0 = Monday.
    @inline(__always)
    init(weekdayPattern pattern: UInt64, firstWeekday: Int) {
        // Index 64k + j falls on weekday (firstWeekday + k + j) % 7, since 64 ≡ 1 (mod 7). The
        // pattern repeats with period 7 over 63 bits, so rotating it by o within 63 bits gives
        // bit j = pattern bit (j + o) % 7.
        @inline(__always) func word(_ lane: Int) -> UInt64 {
            var o = firstWeekday &+ lane
            if o >= 7 { o &-= 7 }
            let shift = UInt64(o)
            return (pattern &>> shift) | (pattern &<< (63 &- shift))
        }
        words = SIMD8(word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
    }

    @inline(__always)
    static func & (a: DayBits, b: DayBits) -> DayBits { DayBits(words: a.words & b.words) }

    @inline(__always)
    static func | (a: DayBits, b: DayBits) -> DayBits { DayBits(words: a.words | b.words) }

    @inline(__always)
    static func &= (a: inout DayBits, b: DayBits) { a.words &= b.words }

    @inline(__always)
    static func |= (a: inout DayBits, b: DayBits) { a.words |= b.words }

    /// Sets the bits of `pattern` (at most 64 bits wide) from `offset` on.
    @inline(__always)
    mutating func insert(pattern: UInt64, at offset: Int) {
        let lane = offset &>> 6
        let shift = UInt64(offset & 63)
        words[lane] |= pattern &<< shift
        if shift > 0, lane < 7 { words[lane &+ 1] |= pattern &>> (64 &- shift) }
    }

    var count: Int {
        Int(words.nonzeroBitCount.wrappedSum())
    }

    /// The index of the set bit with `rank` set bits before it (0 is the first); `rank < count`.
    func index(ofRank rank: Int) -> Int {
        var rank = rank
        for lane in 0..<8 {
            var word = words[lane]
            let n = word.nonzeroBitCount
            if rank < n {
                for _ in 0..<rank { word &= word &- 1 }
                return lane &* 64 &+ word.trailingZeroBitCount
            }
            rank &-= n
        }
        preconditionFailure("rank \(rank) out of range")
    }

    /// Calls `body` with each set index, ascending, while it returns true; false if it stopped.
    @inline(__always)
    func forEachIndex(_ body: (Int) -> Bool) -> Bool {
        for lane in 0..<8 {
            var word = words[lane]
            while word != 0 {
                if !body(lane &* 64 &+ word.trailingZeroBitCount) { return false }
                word &= word &- 1
            }
        }
        return true
    }
}

/// Builds a `DayBits` one index at a time in eight scalar words, so that the inserts stay in
/// registers (inserting into the vector lane by lane stalls on every later read of the vector).
struct DayBitsBuilder {
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
    private var w4: UInt64 = 0, w5: UInt64 = 0, w6: UInt64 = 0, w7: UInt64 = 0

    @inline(__always)
    init() {}

    @inline(__always)
    mutating func insert(_ index: Int) {
        let bit: UInt64 = 1 &<< UInt64(index & 63)
        switch index &>> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        case 3: w3 |= bit
        case 4: w4 |= bit
        case 5: w5 |= bit
        case 6: w6 |= bit
        default: w7 |= bit
        }
    }

    @inline(__always)
    var bits: DayBits { DayBits(words: SIMD8(w0, w1, w2, w3, w4, w5, w6, w7)) }
}
