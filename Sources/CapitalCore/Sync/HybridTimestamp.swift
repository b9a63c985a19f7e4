/// A hybrid logical clock's reading (Kulkarni et al., "Logical Physical Clocks", 2014): the
/// milliseconds since 1970 of the latest physical time the clock has seen, and a counter that
/// orders events within that millisecond. One `UInt64`: 48 bits of milliseconds (until the year
/// 10 889), 16 of counter, so readings compare as integers.
///
/// Its text form is 16 lower-case hexadecimal digits, so readings also compare as text.
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds × 65 536 + counter.
    public let rawValue: UInt64

    /// The reading with this raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The reading `counter` events into millisecond `milliseconds`.
    public init(milliseconds: Int64, counter: UInt16) {
        rawValue = UInt64(max(0, min(milliseconds, Int64(1) << 48 - 1))) << 16 | UInt64(counter)
    }

    /// The physical part: milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64 { Int64(rawValue >> 16) }
    /// The logical part: events within the same millisecond.
    public var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// The reading before every other: what a record no device has changed carries.
    public static let zero = HybridTimestamp(rawValue: 0)

    /// Earlier readings first.
    public static func < (a: HybridTimestamp, b: HybridTimestamp) -> Bool { a.rawValue < b.rawValue }

    /// 16 hexadecimal digits, `0000018f2b3c4d5e0003`-style without the separators.
    public var description: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Parses the 16 hexadecimal digits of `description`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        rawValue = value
    }
}

/// A device's hybrid logical clock: it never goes backwards, stays within a bounded distance of
/// physical time, and after seeing another device's reading orders every later event after it.
///
/// Physical time is an argument (`now`, in milliseconds): the clock reads nothing itself.
public struct HybridClock: Sendable, Equatable {
    /// The latest reading this clock handed out or saw.
    public private(set) var last: HybridTimestamp

    /// A clock that continues after `last` (a device's saved reading, or `.zero` for a new one).
    public init(last: HybridTimestamp = .zero) { self.last = last }

    /// The reading for a local event at physical time `now`: later than every reading before.
    ///
    /// A clock whose physical time went backwards keeps its last millisecond and counts on. When
    /// the counter would overflow (65 536 events in one millisecond) the reading moves to the
    /// next millisecond, a millisecond ahead of physical time at worst.
    public mutating func tick(now: Int64) -> HybridTimestamp {
        last = Self.after(last, now: now)
        return last
    }

    /// Takes in a reading from another device (a change it made), so that every later local
    /// event is ordered after it; returns the clock's new reading.
    public mutating func observe(_ remote: HybridTimestamp, now: Int64) -> HybridTimestamp {
        last = Self.after(max(last, remote), now: now)
        return last
    }

    /// The next reading after `latest` at physical time `now`.
    private static func after(_ latest: HybridTimestamp, now: Int64) -> HybridTimestamp {
        let physical = HybridTimestamp(milliseconds: now, counter: 0)
        if physical > latest { return physical }
        if latest.counter == UInt16.max { return HybridTimestamp(milliseconds: latest.milliseconds + 1, counter: 0) }
        return HybridTimestamp(rawValue: latest.rawValue + 1)
    }
}
