/// A change of an asset's value posted on a day; minor units, negative when the asset loses value.
public typealias AssetChange = DatedAmount

/// A fixed asset's value changing at an annual rate, posted monthly: a car that loses 15 % a
/// year, a flat that gains 3.5 %.
///
/// ```swift
/// let car = try AssetRevaluation(parsing: "-15%", since: try Day(iso: "2025-01-01"))
/// let changes = car.changes(valueAt: { _ in 200_000_000 }, through: try Day(iso: "2025-12-31"))
/// changes.first   // −2 500 000 on 2025-02-01: a twelfth of the year's −30 000 000
/// ```
public struct AssetRevaluation: Hashable, Sendable, CustomStringConvertible {
    /// Millionths of the value a year, signed: −150 000 is "loses 15 % a year".
    public var annualChange: Int64
    /// The valuation day the rate counts from: rate years start here and every 12 months after.
    public var since: Day

    /// The changes capital accepts: from losing everything (−100 %) to gaining 1 000 % a year.
    public static let range: ClosedRange<Int64> = -1_000_000...10_000_000

    /// - Throws: `AssetValueError` for a change outside −100 … +1000 % a year.
    public init(annualChange: Int64, since: Day) throws(AssetValueError) {
        guard AssetRevaluation.range.contains(annualChange) else {
            throw AssetRevaluation.outOfRange(AssetRevaluation.percent(annualChange), negative: annualChange < 0)
        }
        self.annualChange = annualChange
        self.since = since
    }

    /// Reads a signed percentage a year: `-15`, `-15%`, `+3.5`, `3.5%`; at most four decimals,
    /// from −100 to +1000.
    /// - Throws: `AssetValueError` naming the text and what is wrong with it.
    public init(parsing text: String, since: Day) throws(AssetValueError) {
        var body = Substring(text)
        if body.hasSuffix("%") { body = body.dropLast() }
        let negative = body.hasPrefix("-")
        if negative || body.hasPrefix("+") { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard let whole = parts.first, !whole.isEmpty, digits(whole), digits(fraction), parts.count == 1 || !fraction.isEmpty else {
            throw .invalid(field: "{valueChange}", value: text, reason: "expected a percentage a year such as -15 or +3.5")
        }
        guard fraction.count <= 4 else { throw .invalid(field: "{valueChange}", value: text, reason: "at most four decimals (0.0001 %)") }
        // Too many digits for Int64 is out of range too; the error quotes the text as typed.
        guard let wholeValue = Int64(whole), wholeValue <= 1_000 else { throw AssetRevaluation.outOfRange(text, negative: negative) }
        var fractionValue = Int64(fraction) ?? 0
        for _ in fraction.count..<4 { fractionValue *= 10 }
        let magnitude = wholeValue * 10_000 + fractionValue
        let value = negative ? -magnitude : magnitude
        guard AssetRevaluation.range.contains(value) else { throw AssetRevaluation.outOfRange(text, negative: negative) }
        self.annualChange = value
        self.since = since
    }

    private static func outOfRange(_ value: String, negative: Bool) -> AssetValueError {
        .invalid(
            field: "{valueChange}", value: value,
            reason: negative ? "below -100 %: an asset cannot lose more than its whole value" : "over +1000 % a year")
    }

    /// `-15%`, `+3.5%`, `0%`: signed, without trailing zeros.
    public var description: String { AssetRevaluation.percent(annualChange) }

    static func percent(_ perMillion: Int64) -> String {
        let magnitude = perMillion.magnitude
        var fraction = String(magnitude % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = perMillion < 0 ? "-" : perMillion > 0 ? "+" : ""
        return sign + "\(magnitude / 10_000)" + (fraction.isEmpty ? "" : ".\(fraction)") + "%"
    }

    /// The changes of value the rate makes, posted monthly, with day ≤ `last`, in day order,
    /// without zeros.
    ///
    /// Rate year `k` (from 0) starts on `since.addingMonths(12 k)`. Its base `B` is
    /// `valueAt(start)` (the value real postings give at the end of that day) plus every change
    /// generated before, and it changes by `B × annualChange / 10^6`, exact, rounded half away from
    /// zero (a loss rounds like the same gain), posted on `since.addingMonths(12 k + m)` for
    /// `m = 1 … 12`: a twelfth truncated toward zero in months 1–11, the rest in month 12, so the
    /// year changes by exactly the rounded amount. 2 000 000.00 losing 15 % is 1 700 000.00 a year
    /// later and 1 445 000.00 two years later.
    ///
    /// - A value entered after `since` (`valuedFrom`, the first day real postings give the asset a
    ///   value, is later than `since` and nothing is posted by `since`): that value counts as the
    ///   value on `since`, so the change still counts from `since`. What it changes by before
    ///   `valuedFrom` is posted on that day, in one change: whole rate years before it, and of the
    ///   year it falls in the part of the days passed (`yearChange × days since the year's start /
    ///   days of the year`, rounded half away from zero); the rest of that year is posted in equal
    ///   parts (truncated, the last takes the rest) on the year's monthly days after `valuedFrom`.
    ///   A car bought on 2026-06-20 for 1 500 000.00 losing 15 % and entered on 2026-10-01 loses
    ///   63 493.15 (103 of 365 days of 225 000.00) on 2026-10-01 and is worth 1 275 000.00 on
    ///   2027-06-20.
    /// - The value never goes below 0: before each posting, the value then
    ///   (`valueAt(day)` plus the changes generated so far) caps a loss so that it reaches exactly
    ///   0; an asset worth 0 or less then (sold, written off) gets no change, and a year whose
    ///   base is 0 or less changes by nothing.
    /// - Values past Int64 (only absurd gains compounded for years reach them) end the list at
    ///   the last change that fits.
    /// - Complexity: O(months through `last`), calling `valueAt` once a month.
    public func changes(valueAt: (Day) -> Int64, through last: Day, valuedFrom first: Day? = nil) -> [AssetChange] {
        guard annualChange != 0 else { return [] }
        // The day a value entered late was entered: before it, the asset is worth what it was then.
        let late = first.flatMap { $0 > since && valueAt(since) <= 0 ? $0 : nil }
        if let late, late > last { return [] }
        func value(_ day: Day) -> Int64 {
            if let late, day < late { return valueAt(late) }
            return valueAt(day)
        }
        var changes: [AssetChange] = []
        var generated: Int64 = 0
        var year = 0
        while since.addingMonths(12 * year + 1) <= last || (late.map { since.addingMonths(12 * year) <= $0 } ?? false) {
            let start = since.addingMonths(12 * year)
            let end = since.addingMonths(12 * year + 12)
            let (base, overflow) = value(start).addingReportingOverflow(generated)
            guard !overflow, let yearChange = yearChange(base: base) else { return changes }
            for (day, planned) in parts(of: yearChange, from: start, to: end, year: year, late: late) {
                guard day <= last else { return changes }
                let (worth, overflow) = value(day).addingReportingOverflow(generated)
                guard !overflow else { return changes }
                var amount = planned
                if worth <= 0 { amount = 0 } else if amount < -worth { amount = -worth }
                guard amount != 0 else { continue }
                let (sum, sumOverflow) = generated.addingReportingOverflow(amount)
                guard !sumOverflow, !worth.addingReportingOverflow(amount).overflow else { return changes }
                generated = sum
                if changes.last?.day == day {
                    changes[changes.count - 1].amount += amount  // within `generated`, so no overflow
                } else {
                    changes.append(AssetChange(day: day, amount: amount))
                }
            }
            year += 1
        }
        return changes
    }

    /// Rate year `year`'s change (from `start` to `end`) in the parts it is posted in, in day
    /// order: twelve monthly ones; for a value entered late, every part before `late` on `late`,
    /// the year it falls in split by days there.
    private func parts(of yearChange: Int64, from start: Day, to end: Day, year: Int, late: Day?) -> [(Day, Int64)] {
        let months = (1...12).map { since.addingMonths(12 * year + $0) }
        guard let late, late > start else {
            let part = yearChange / 12  // toward zero
            return months.enumerated().map { ($0.element, $0.offset == 11 ? yearChange - 11 * part : part) }
        }
        guard late < end else { return [(late, yearChange)] }
        let elapsed = Wide(yearChange.magnitude, times: UInt64(start.distance(to: late)))
        let accrued = Int64(elapsed.divided(by: UInt64(start.distance(to: end)), .halfUp) ?? 0)
        let before = yearChange < 0 ? -accrued : accrued
        let after = months.filter { $0 > late }
        let rest = yearChange - before
        let part = rest / Int64(after.count)
        return [(late, before)] + after.enumerated().map { ($0.element, $0.offset == after.count - 1 ? rest - Int64(after.count - 1) * part : part) }
    }

    /// `base × annualChange / 10^6` rounded half away from zero, never below `−base`; 0 for a
    /// base of 0 or less; nil past Int64.
    func yearChange(base: Int64) -> Int64? {
        guard base > 0 else { return 0 }
        let product = Wide(base.magnitude, times: annualChange.magnitude)
        guard let rounded = product.divided(by: 1_000_000, .halfUp), let magnitude = Int64(exactly: rounded) else { return nil }
        guard annualChange < 0 else { return base.addingReportingOverflow(magnitude).overflow ? nil : magnitude }
        return -min(magnitude, base)
    }
}

/// Why an asset's change of value is not accepted.
public typealias AssetValueError = FieldError
