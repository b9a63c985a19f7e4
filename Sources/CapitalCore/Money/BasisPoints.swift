/// Shares and averages by integer arithmetic: money never passes through floating point.
public enum BasisPoints {
    /// A whole in basis points: 10 000 is 100 %.
    public static let whole: Int64 = 10_000

    /// `part` as a share of `whole` in basis points, rounded half up (halves away from zero, as
    /// loans round): 1 of 3 is 3 333, 2 of 3 is 6 667, 1 of 8 is 1 250.
    ///
    /// Rounded one by one, the shares of several parts of a whole sum to 10 000 give or take half
    /// a basis point per part.
    /// - Returns: nil when `whole` is zero (or the share does not fit Int64).
    /// - Complexity: O(1); the product is taken 128 bits wide, so it never overflows.
    public static func share(_ part: Int64, of whole: Int64) -> Int64? {
        rounded(part, times: BasisPoints.whole, dividedBy: whole)
    }

    /// `value / count`, rounded half up (halves away from zero): an average per month.
    /// - Returns: nil when `count` is zero.
    public static func average(_ value: Int64, over count: Int) -> Int64? {
        rounded(value, times: 1, dividedBy: Int64(count))
    }

    /// `value × factor / divisor` with one rounding, half up, away from zero.
    static func rounded(_ value: Int64, times factor: Int64, dividedBy divisor: Int64) -> Int64? {
        guard divisor != 0 else { return nil }
        let negative = ((value < 0) != (factor < 0)) != (divisor < 0)
        guard let magnitude = Wide(value.magnitude, times: factor.magnitude).divided(by: divisor.magnitude, .halfUp),
            let result = Int64(exactly: magnitude)
        else { return nil }
        return negative ? -result : result
    }
}
