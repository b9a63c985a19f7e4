/// An annual interest rate, exact: millionths of one (0.0001 %), so `7.75 %` is 77 500.
/// ```swift
/// let rate = try Rate(parsing: "7.75")      // or "7.75%"
/// rate.perMillion                           // 77_500
/// rate.description                          // "7.75%"
/// ```
public struct Rate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The rate in millionths of one: 1 000 000 is 100 % a year.
    public var perMillion: Int64

    /// The largest rate capital accepts: 1 000 % a year. Anything above is a typo, not a loan.
    public static let maximum = Rate(perMillion: 10_000_000)

    /// A rate of `perMillion` millionths a year (12 % is 120 000).
    public init(perMillion: Int64) { self.perMillion = perMillion }

    /// Reads a percentage: `12`, `7.75`, `0.0001`, optionally followed by `%`; at most four
    /// decimals, from 0 to 1000.
    /// - Throws: `LoanError.invalidRate` naming the text and what is wrong with it.
    public init(parsing text: String) throws(LoanError) {
        var body = Substring(text)
        if body.hasSuffix("%") { body = body.dropLast() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !body.isEmpty, let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidRate(text, reason: body.hasPrefix("-") ? "a rate cannot be negative" : "expected a percentage such as 12 or 7.75")
        }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else {
            throw .invalidRate(text, reason: "expected a percentage such as 12 or 7.75")
        }
        guard fraction.count <= 4 else { throw .invalidRate(text, reason: "at most four decimals (0.0001 %)") }
        guard whole.count <= 5, let wholeValue = Int64(whole) else { throw .invalidRate(text, reason: "over 1000 % a year") }
        var fractionValue = Int64(fraction) ?? 0
        for _ in fraction.count..<4 { fractionValue *= 10 }
        let value = wholeValue * 10_000 + fractionValue * 1
        guard value <= Rate.maximum.perMillion else { throw .invalidRate(text, reason: "over 1000 % a year") }
        perMillion = value
    }

    /// `7.75%`, without trailing zeros.
    public var description: String { percent + "%" }

    /// The percentage as a decimal, `7.75`, without trailing zeros: what data formats carry.
    public var percent: String {
        let whole = perMillion / 10_000
        var fraction = String(perMillion % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }

    /// Lower rates come first.
    public static func < (lhs: Rate, rhs: Rate) -> Bool { lhs.perMillion < rhs.perMillion }
}
