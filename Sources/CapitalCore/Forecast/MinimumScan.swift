/// The lowest value of a series from each day to its end: `suffixMinimum[d] = min(series[d...])`,
/// with the first day reaching it.
///
/// `spendable(d) = min over t in [d, horizon] of (balance(t) − floor)` is one lookup after one
/// backward pass.
/// - Complexity: O(days) to build, O(1) per query.
public struct SuffixMinimum: Sendable {
    public let values: [Int64]
    /// The first day index at which `values[d]` is reached, from `d` on.
    public let days: [Int32]

    /// The suffix minima of `series`, by one backward pass.
    /// - Complexity: O(days).
    public init(_ series: [Int64]) {
        var values = series
        var days = [Int32](repeating: 0, count: series.count)
        var index = series.count - 1
        while index >= 0 {
            days[index] = Int32(index)
            if index + 1 < series.count && values[index + 1] < series[index] {
                values[index] = values[index + 1]
                days[index] = days[index + 1]
            }
            index -= 1
        }
        self.values = values
        self.days = days
    }

    /// The first index from which the suffix minimum is at least `amount` (the values never fall
    /// as the index grows), or nil when not even the last one is: "from which day does `amount`
    /// stay affordable".
    /// - Complexity: O(log days).
    public func firstIndex(atLeast amount: Int64) -> Int? {
        guard let last = values.last, last >= amount else { return nil }
        var low = 0
        var high = values.count - 1
        while low < high {
            let middle = (low + high) / 2
            if values[middle] >= amount { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Minimum of any range of a series in O(1): a sparse table of minima over power-of-two spans.
///
/// Scenarios ask "the lowest balance between these two days" many times over one timeline.
/// - Complexity: O(days log days) to build and memory; O(1) per query.
public struct RangeMinimum: Sendable {
    /// `table[k][i]` is the index of the minimum of `series[i ..< i + 2^k]` (the first such index).
    private let table: [[Int32]]
    public let series: [Int64]

    /// The sparse table of `series`.
    /// - Complexity: O(days log days).
    public init(_ series: [Int64]) {
        self.series = series
        var table: [[Int32]] = [(0..<series.count).map { Int32($0) }]
        var span = 1
        while span * 2 <= series.count {
            let previous = table[table.count - 1]
            var level = [Int32](repeating: 0, count: series.count - span * 2 + 1)
            for i in 0..<level.count {
                let a = previous[i]
                let b = previous[i + span]
                level[i] = series[Int(b)] < series[Int(a)] ? b : a
            }
            table.append(level)
            span *= 2
        }
        self.table = table
    }

    /// The minimum of `series[range]` and the first index reaching it; nil for an empty range.
    public func minimum(_ range: Range<Int>) -> (value: Int64, index: Int)? {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= series.count else { return nil }
        let length = range.count
        let k = Int.bitWidth - 1 - length.leadingZeroBitCount
        let a = Int(table[k][range.lowerBound])
        let b = Int(table[k][range.upperBound - (1 << k)])
        return series[b] < series[a] ? (series[b], b) : (series[a], a)
    }
}
