import CapitalCore

/// Where values and days land in a chart's drawing area, and the ticks its axes show.
struct ChartScale {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    /// The values at the bottom and the top of the area (minor units), ticks included.
    var low: Int64
    var high: Int64
    /// How many days the x axis spans (its last offset; at least 1).
    var lastOffset: Int
    /// The distance between two ticks.
    var step: Int64

    /// A scale from `low` to `high` widened to round ticks (at least `unit` apart).
    init(left: Double, top: Double, width: Double, height: Double, low: Int64, high: Int64, lastOffset: Int, unit: Int64) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.lastOffset = max(1, lastOffset)
        step = ChartScale.step(span: high.subtractingReportingOverflow(low).partialValue, unit: unit)
        self.low = ChartScale.floorMultiple(low, of: step)
        self.high = max(ChartScale.ceilMultiple(high, of: step), self.low.addingReportingOverflow(step).partialValue)
    }

    /// The x of the day `offset` days after the first.
    func x(_ offset: Int) -> Double { left + Double(offset) * width / Double(lastOffset) }

    /// The y of `value`.
    func y(_ value: Int64) -> Double {
        let span = Double(high) - Double(low)
        return top + (Double(high) - Double(value)) * height / (span == 0 ? 1 : span)
    }

    /// Round values from `low` to `high`, about five of them.
    var ticks: [Int64] {
        var ticks: [Int64] = []
        var value = low
        while value <= high && ticks.count < 12 {
            ticks.append(value)
            let (next, overflow) = value.addingReportingOverflow(step)
            if overflow { break }
            value = next
        }
        return ticks
    }

    /// A round step (1, 2 or 5 times a power of ten, at least `unit`) cutting `span` into about five.
    static func step(span: Int64, unit: Int64) -> Int64 {
        let target = max(span / 5, 1)
        var power: Int64 = 1
        while power <= Int64.max / 10 {
            for factor: Int64 in [1, 2, 5] where power * factor >= target && power * factor >= unit { return power * factor }
            power *= 10
        }
        return power
    }

    static func floorMultiple(_ value: Int64, of step: Int64) -> Int64 {
        let remainder = value % step
        return remainder < 0 ? value - remainder - step : value - remainder
    }

    static func ceilMultiple(_ value: Int64, of step: Int64) -> Int64 {
        let remainder = value % step
        return remainder > 0 ? value - remainder + step : value - remainder
    }

    /// An axis label: `1 M`, `250 k`, `-1.5 M`, `900` (in major units of `unit` minor units each).
    static func compact(_ minor: Int64, unit: Int64) -> String {
        let major = minor / unit
        let magnitude = major.magnitude
        let (divisor, suffix): (UInt64, String) =
            magnitude >= 1_000_000_000
            ? (1_000_000_000, " bn") : magnitude >= 1_000_000 ? (1_000_000, " M") : magnitude >= 1_000 ? (1_000, " k") : (1, "")
        let whole = magnitude / divisor
        let tenths = magnitude % divisor * 10 / divisor
        let sign = major < 0 ? "-" : ""
        return sign + String(whole) + (tenths > 0 && whole < 100 ? "." + String(tenths) : "") + suffix
    }
}

/// Numbers for SVG attributes: one decimal, no exponent, no locale.
enum SVGNumber {
    static func text(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? sign + String(magnitude / 10) : sign + String(magnitude / 10) + "." + String(magnitude % 10)
    }
}
