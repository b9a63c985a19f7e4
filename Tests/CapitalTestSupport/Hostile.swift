import CapitalCore
import Foundation

/// Seeded draws for the hostile-input tests of every test target: which edit, where, which
/// piece, which scalar. Each target extends it with the pieces and edits that suit its inputs
/// (RRULEs and amounts, ledger files, command lines) and a `mutate`; the draws stay the same so a
/// failure's seed reproduces it, and the figures in docs/reliability.md were taken with them.
public struct Hostile {
    public var random: SplitMix64

    /// How many times the suite's share of mutated cases the hostile tests try: 1, or
    /// `CAPITAL_HOSTILE_CASES=N` for a longer search (`CAPITAL_HOSTILE_CASES=10 swift test --filter Hostile`).
    public static let scale = max(1, ProcessInfo.processInfo.environment["CAPITAL_HOSTILE_CASES"].flatMap { Int($0) } ?? 1)

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// 0 ..< count (0 when count ≤ 1), by plain modulo.
    public mutating func below(_ count: Int) -> Int { count <= 1 ? 0 : Int(random.next() % UInt64(count)) }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A scalar from one of `ranges`, picked first (surrogates drawn again).
    public mutating func scalar(in ranges: [ClosedRange<UInt32>]) -> Unicode.Scalar {
        let range = pick(ranges)
        while true {
            if let scalar = Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))) { return scalar }
        }
    }

    /// One edit of `s` at a random place: a scalar replaced or inserted, a run of up to `span`
    /// scalars removed or doubled, up to `nines` nines inserted, the rest cut off, or one of
    /// `pieces` inserted (choices 6 and up).
    public mutating func edit(
        _ s: inout [Unicode.Scalar], span: Int, nines: Int, choices: Int, pieces: [String], scalars ranges: [ClosedRange<UInt32>]
    ) {
        let at = below(s.count + 1)
        let length = min(s.count - at, 1 + below(span))
        switch below(choices) {
        case 0 where !s.isEmpty: s[min(at, s.count - 1)] = scalar(in: ranges)
        case 1: s.removeSubrange(at..<at + length)
        case 2: s.insert(contentsOf: s[at..<at + length], at: at)
        case 3: s.insert(scalar(in: ranges), at: at)
        case 4: s.insert(contentsOf: String(repeating: "9", count: 1 + below(nines)).unicodeScalars, at: at)
        case 5: s.removeSubrange(at...)
        default: s.insert(contentsOf: pick(pieces).unicodeScalars, at: at)
        }
    }

    /// Whether a message stays on one line: no line feed, carriage return, vertical tab, form
    /// feed, next line, or line or paragraph separator.
    public static func isOneLine(_ message: String) -> Bool {
        !message.unicodeScalars.contains {
            $0 == "\n" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}"
        }
    }

    /// Scalars as a string.
    public static func string(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
