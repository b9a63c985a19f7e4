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
        let lower = Swift.max(Swift.min(lower, 512), 0)
        let upper = Swift.max(Swift.min(upper, 512), 0)
        var words = SIMD8<UInt64>(repeating: 0)
        if lower < upper {
            for lane in 0..<8 {
                let base = lane &* 64
                let lo = Swift.max(lower &- base, 0)
                let hi = Swift.min(upper &- base, 64)
                if lo < hi {
                    let top: UInt64 = hi == 64 ? ~0 : (1 &<< UInt64(hi)) &- 1
                    words[lane] = top & ~((1 &<< UInt64(lo)) &- 1)
                }
            }
        }
        self.words = words
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
        var words = SIMD8<UInt64>(repeating: 0)
        var offset = firstWeekday
        for lane in 0..<8 {
            let o = UInt64(offset)
            words[lane] = (pattern &>> o) | (pattern &<< (63 &- o))
            offset = offset == 6 ? 0 : offset &+ 1
        }
        self.words = words
    }

    @inline(__always)
    static func & (a: DayBits, b: DayBits) -> DayBits { DayBits(words: a.words & b.words) }

    @inline(__always)
    static func | (a: DayBits, b: DayBits) -> DayBits { DayBits(words: a.words | b.words) }

    @inline(__always)
    static func &= (a: inout DayBits, b: DayBits) { a.words &= b.words }

    @inline(__always)
    static func |= (a: inout DayBits, b: DayBits) { a.words |= b.words }

    var isEmpty: Bool { words == SIMD8(repeating: 0) }

    @inline(__always)
    mutating func insert(_ index: Int) {
        words[index &>> 6] |= 1 &<< UInt64(index & 63)
    }

    /// Sets the bits of `pattern` (at most 64 bits wide) from `offset` on.
    @inline(__always)
    mutating func insert(pattern: UInt64, at offset: Int) {
        let lane = offset &>> 6
        let shift = UInt64(offset & 63)
        words[lane] |= pattern &<< shift
        if shift > 0, lane < 7 { words[lane &+ 1] |= pattern &>> (64 &- shift) }
    }

    var count: Int {
        var total = 0
        for lane in 0..<8 { total &+= words[lane].nonzeroBitCount }
        return total
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
