import Foundation

/// Posting ids: UUIDs of version 7 (RFC 9562), written in lower case. The first 48 bits are the
/// Unix time in milliseconds and the next 12 a counter within the millisecond (RFC 9562's
/// "method 1"), so the ids one process makes sort, as text, in the order it made them; the last
/// 62 bits are random, so ids made by different processes and devices do not collide.
///
/// Why the order matters: SQLite keeps every table's id in a B-tree. Random ids (version 4) land
/// on random pages of it, so a write of a million postings touches every page of a 100 MB index
/// again and again; ids in order append at its right edge. (Records people name by an id prefix keep
/// random ids: a time-ordered prefix would be the same for a month of records.)
enum RecordID {
    private static let lock = NSLock()
    /// The last stamp handed out: milliseconds × 4096 + the counter.
    nonisolated(unsafe) private static var last: UInt64 = 0

    /// A new id, greater than every id this process made before (as text and as a number).
    static func next() -> String {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000)) << 12
        lock.lock()
        let stamp = max(now, last &+ 1)
        last = stamp
        // The random tail from the generator seeded once (as `random()`): a system call per id
        // was a tenth of the kernel's time in an import of a million transactions.
        let tail = generator.next()
        lock.unlock()
        let high = (stamp >> 12) << 16 | 0x7000 | (stamp & 0xFFF)  // 48 bits of time, the version, 12 of counter
        let low = 0x8000_0000_0000_0000 | tail >> 2  // the variant (10), then 62 random bits
        return text(high: high, low: low)
    }

    /// A random id: a UUID of version 4 in lower case, as `UUID().uuidString.lowercased()` writes
    /// one, from the system's random numbers without opening a file for each.
    static func random() -> String {
        lock.lock()
        let (first, second) = (generator.next(), generator.next())
        lock.unlock()
        let high = first & ~0xF000 | 0x4000  // the version
        let low = second >> 2 | 0x8000_0000_0000_0000  // the variant (10)
        return text(high: high, low: low)
    }

    /// xoshiro256** seeded once from the system's random numbers: a system call per id costs more
    /// than the id when an import makes a hundred thousand of them.
    nonisolated(unsafe) private static var generator = Xoshiro256()

    private struct Xoshiro256 {
        var state: (UInt64, UInt64, UInt64, UInt64)

        init() {
            var system = SystemRandomNumberGenerator()
            state = (system.next(), system.next(), system.next(), system.next())
        }

        mutating func next() -> UInt64 {
            let result = rotate(state.1 &* 5, 7) &* 9
            let t = state.1 << 17
            state.2 ^= state.0
            state.3 ^= state.1
            state.1 ^= state.2
            state.0 ^= state.3
            state.2 ^= t
            state.3 = rotate(state.3, 45)
            return result
        }

        private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
    }

    /// `high` and `low` as 8-4-4-4-12 lower-case hexadecimal digits.
    private static func text(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            // 8-4-4-4-12 hexadecimal digits: `high` gives the first 16, `low` the last 16.
            var at = 35
            for (value, digits) in [(low, 16), (high, 16)] {
                var rest = value
                for _ in 0..<digits {
                    if at == 8 || at == 13 || at == 18 || at == 23 {
                        text[at] = UInt8(ascii: "-")
                        at -= 1
                    }
                    let digit = UInt8(rest & 0xF)
                    text[at] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    rest >>= 4
                    at -= 1
                }
            }
            return 36
        }
    }
}
