import CapitalCore
import Testing

@testable import CapitalWeb

/// Down-sampling keeps every column's lowest and highest value: checked against a brute-force
/// scan of each column's days on random series.
@Suite("SeriesSampler")
struct SeriesSamplerTests {
    /// A reproducible walk of balances with dips (a tiny LCG: no Foundation).
    static func walk(_ count: Int, seed: UInt64) -> [Int64] {
        var state = seed
        var value: Int64 = 100_000
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            value += Int64(state >> 40 % 20_001) - 10_000
            if state % 97 == 0 { value -= 500_000 }
            return value
        }
    }

    @Test(arguments: [(1, 10), (10, 10), (11, 10), (10_958, 876), (365, 876), (10_000, 7), (877, 876)])
    func everyColumnHoldsItsDaysExtremes(count: Int, width: Int) {
        let series = Self.walk(count, seed: UInt64(count * 31 + width))
        let columns = SeriesSampler.columns(series, width: width)
        #expect(columns.count == min(count, width))
        // The columns cover every day once, in order.
        #expect(columns.first?.first == 0)
        #expect(columns.last?.last == count - 1)
        for (a, b) in zip(columns, columns.dropFirst()) { #expect(b.first == a.last + 1) }
        for column in columns {
            let days = series[column.first...column.last]
            #expect(column.low == days.min())
            #expect(column.high == days.max())
            #expect(series[column.lowOffset] == column.low && series[column.highOffset] == column.high)
            #expect((column.first...column.last).contains(column.lowOffset))
        }
        // The line passes through the lowest day of the whole series and is at most two points a pixel.
        let points = SeriesSampler.points(columns)
        let lowest = series.min()!
        #expect(points.contains { $0.value == lowest && series[$0.offset] == lowest })
        #expect(points.count <= 2 * width)
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.offset < $1.offset })
    }

    @Test func anEmptySeriesHasNoColumns() {
        #expect(SeriesSampler.columns([], width: 10).isEmpty)
        #expect(SeriesSampler.columns([1, 2], width: 0).isEmpty)
    }
}

@Suite("ChartScale")
struct ChartScaleTests {
    @Test(arguments: [
        (Int64(100_000_000), 2, "1 M"), (25_000_000, 2, "250 k"), (150_000_000, 2, "1.5 M"), (-200_000_000, 2, "-2 M"), (99_900, 2, "999"),
        (0, 2, "0"), (1_000_000, 0, "1 M"), (123_456_789_000, 2, "1.2 bn"), (12_500_000, 2, "125 k"), (1_050_000_000, 2, "10.5 M"),
    ])
    func axisLabelsAreCompact(minor: Int64, exponent: Int, label: String) throws {
        #expect(ChartScale.compact(minor, unit: try Currency(exponent == 0 ? "JPY" : "RUB").minorPerMajor) == label)
    }

    @Test(arguments: [(Int64(-13_000_000), Int64(64_000_000)), (0, 1), (5, 5), (-4_000_000_000_00, 9_000_000_000_00), (17, 12_345_678)])
    func ticksAreRoundAndSpanTheValues(low: Int64, high: Int64) {
        let scale = ChartScale(left: 0, top: 0, width: 100, height: 100, low: low, high: high, lastOffset: 10, unit: 100)
        let ticks = scale.ticks
        #expect(scale.low <= low && scale.high >= high)
        #expect(ticks.first == scale.low && ticks.last == scale.high)
        #expect(ticks.count >= 2 && ticks.count <= 12)
        let step = ticks[1] - ticks[0]
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1 - $0 == step })
        // 1, 2 or 5 times a power of ten.
        var mantissa = step
        while mantissa % 10 == 0 { mantissa /= 10 }
        #expect([1, 2, 5].contains(mantissa))
        #expect(scale.y(scale.high) == 0 && scale.y(scale.low) == 100)
    }

    @Test func svgNumbersHaveOneDecimalAtMost() {
        #expect(SVGNumber.text(12.34) == "12.3")
        #expect(SVGNumber.text(-0.06) == "-0.1")
        #expect(SVGNumber.text(7) == "7")
        #expect(SVGNumber.text(-3.95) == "-4")
    }
}

@Suite("HTML")
struct HTMLTests {
    @Test func markupCharactersAndForbiddenControlsAreEscaped() {
        #expect(HTML.escape("<a href=\"x\">Tom & Jerry's</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTML.escape("bell\u{7}\u{0}tab\there\u{FFFF}") == "belltab\there")
        #expect(HTML.escape("Кофе ☕ 2025") == "Кофе ☕ 2025")
    }

    @Test func attributesLeaveOutNothing() {
        #expect(HTML.element("p", [("class", "a<b"), ("id", nil)], "x") == "<p class=\"a&lt;b\">x</p>")
        #expect(HTML.empty("circle", [("r", "2")]) == "<circle r=\"2\"/>")
    }
}
