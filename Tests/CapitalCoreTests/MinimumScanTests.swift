import CapitalCore
import Testing

/// The minimum-balance scans: `SuffixMinimum` (lowest value from each day to the end) and
/// `RangeMinimum` (lowest value of any range), against brute-force loops on thousands of random
/// series, first index reaching the minimum included.
@Suite("Minimum scans")
struct MinimumScanTests {
    /// A random series of length 1…500 whose values come from one of several shapes: the whole
    /// Int64 range with its extremes, a few small values (many ties), or a balance-like walk.
    static func series(_ random: inout SplitMix64) -> [Int64] {
        let count = Int.random(in: 1...500, using: &random)
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        switch Int.random(in: 0...3, using: &random) {
        case 0:
            return (0..<count).map { _ in
                Bool.random(using: &random) ? extremes.randomElement(using: &random)! : Int64(bitPattern: random.next())
            }
        case 1:
            return (0..<count).map { _ in Int64.random(in: -3...3, using: &random) }
        case 2:
            var balance: Int64 = 0
            return (0..<count).map { _ in
                balance += Int64.random(in: -50_000...50_000, using: &random)
                return balance
            }
        default:
            let value = extremes.randomElement(using: &random)!
            return [Int64](repeating: value, count: count)
        }
    }

    /// The minimum of `series[range]` and its first index, by looking at every element.
    static func bruteMinimum(_ series: [Int64], _ range: Range<Int>) -> (value: Int64, index: Int) {
        var best = range.lowerBound
        for index in range where series[index] < series[best] { best = index }
        return (series[best], best)
    }

    @Test("the suffix minimum is the lowest value from each day on, at the first day reaching it", arguments: 0..<4)
    func suffixMinimumMatchesBruteForce(batch: Int) {
        var random = SplitMix64(seed: 0x5FF1_0000 + UInt64(batch))
        for _ in 0..<750 {
            let series = Self.series(&random)
            let scan = SuffixMinimum(series)
            #expect(scan.values.count == series.count && scan.days.count == series.count)
            // Every day of short series; a sample of days (always the ends) of long ones.
            var days = Array(series.indices)
            if series.count > 60 {
                days = [0, series.count - 1] + (0..<24).map { _ in Int.random(in: 0..<series.count, using: &random) }
            }
            for day in days {
                let expected = Self.bruteMinimum(series, day..<series.count)
                guard scan.values[day] != expected.value || Int(scan.days[day]) != expected.index else { continue }
                Issue.record("day \(day) of \(series.count): got \(scan.values[day]) at \(scan.days[day]), expected \(expected)")
            }
        }
    }

    @Test("the suffix minimum never decreases and is reached where it says", arguments: 0..<2)
    func suffixMinimumInvariants(batch: Int) {
        var random = SplitMix64(seed: 0x5FF2_0000 + UInt64(batch))
        for _ in 0..<500 {
            let series = Self.series(&random)
            let scan = SuffixMinimum(series)
            for day in series.indices {
                let at = Int(scan.days[day])
                if day + 1 < series.count && scan.values[day] > scan.values[day + 1] { Issue.record("decreases at \(day)") }
                if at < day || series[at] != scan.values[day] || series[day] < scan.values[day] { Issue.record("day \(day): bad witness \(at)") }
            }
            #expect(scan.values.last == series.last)
        }
    }

    @Test("firstIndex(atLeast:) is the first day from which every later value reaches the amount", arguments: 0..<2)
    func firstIndexAtLeastMatchesBruteForce(batch: Int) {
        var random = SplitMix64(seed: 0x5FF3_0000 + UInt64(batch))
        for _ in 0..<300 {
            let series = Self.series(&random)
            let scan = SuffixMinimum(series)
            // Amounts at, around and between the series' own values, and beyond both ends.
            var amounts: [Int64] = [Int64.min, Int64.max, 0]
            for _ in 0..<8 where !series.isEmpty {
                let value = series[Int.random(in: 0..<series.count, using: &random)]
                amounts += [value, value &- 1, value &+ 1]
            }
            // Brute force: the first day d such that no value from d on is below the amount (the
            // last day below it, plus one), by a linear search per amount.
            for amount in amounts {
                let expected: Int?
                if let lastBelow = series.indices.last(where: { series[$0] < amount }) {
                    expected = lastBelow + 1 < series.count ? lastBelow + 1 : nil
                } else {
                    expected = series.isEmpty ? nil : 0
                }
                let got = scan.firstIndex(atLeast: amount)
                if got != expected {
                    Issue.record("\(series.count) values, amount \(amount): got \(String(describing: got)), expected \(String(describing: expected))")
                }
            }
        }
    }

    @Test("the range minimum is the lowest value of any range, at its first index", arguments: 0..<4)
    func rangeMinimumMatchesBruteForce(batch: Int) {
        var random = SplitMix64(seed: 0x4A46_0000 + UInt64(batch))
        for _ in 0..<750 {
            let series = Self.series(&random)
            let table = RangeMinimum(series)
            #expect(table.series == series)
            var ranges: [Range<Int>] = [0..<series.count, (series.count - 1)..<series.count]
            if series.count <= 24 {
                for low in 0..<series.count { for high in (low + 1)...series.count { ranges.append(low..<high) } }
            } else {
                for _ in 0..<40 {
                    let low = Int.random(in: 0..<series.count, using: &random)
                    // Lengths of every scale, powers of two and their neighbours included.
                    let length =
                        Bool.random(using: &random)
                        ? Int.random(in: 1...(series.count - low), using: &random)
                        : min(series.count - low, max(1, (1 << Int.random(in: 0...9, using: &random)) + Int.random(in: -1...1, using: &random)))
                    ranges.append(low..<(low + length))
                }
            }
            for range in ranges {
                let expected = Self.bruteMinimum(series, range)
                guard let got = table.minimum(range) else {
                    Issue.record("nil for \(range) of \(series.count)")
                    continue
                }
                if got.value != expected.value || got.index != expected.index {
                    Issue.record("\(range) of \(series.count): got \(got), expected \(expected)")
                }
            }
        }
    }

    @Test("an empty or out-of-bounds range has no minimum")
    func rangeMinimumRefusesBadRanges() {
        let table = RangeMinimum([5, 3, 8])
        #expect(table.minimum(1..<1) == nil)
        #expect(table.minimum(2..<4) == nil)
        #expect(table.minimum(-1..<2) == nil)
        #expect(RangeMinimum([]).minimum(0..<0) == nil)
        #expect(table.minimum(0..<3)! == (3, 1))
    }

    @Test("ties go to the first day reaching the minimum")
    func tiesGoToTheFirstDay() {
        let series: [Int64] = [4, 1, 7, 1, 1, 9, 1]
        let scan = SuffixMinimum(series)
        #expect(scan.values == [1, 1, 1, 1, 1, 1, 1])
        #expect(scan.days == [1, 1, 3, 3, 4, 6, 6])
        let table = RangeMinimum(series)
        #expect(table.minimum(0..<7)!.index == 1)
        #expect(table.minimum(2..<7)!.index == 3)
        #expect(table.minimum(4..<7)!.index == 4)
    }

    @Test("an empty series has empty scans")
    func emptySeries() {
        let scan = SuffixMinimum([])
        #expect(scan.values.isEmpty && scan.days.isEmpty)
    }
}
