import CapitalCore
import Testing

@testable import capital

/// The terminal chart of `forecast --chart`: its size, its axes, its marks, and that
/// downsampling never hides a dip.
@Suite("Chart")
struct ChartTests {
    static let march10 = try! Day(iso: "2025-03-10")

    static func chart(
        _ values: [Int64], firstDay: Day = march10, today: Int = 0, minimum: Int? = nil, width: Int = 60, height: Int = 8, color: Bool = false
    ) -> [String] {
        let minimumIndex = minimum ?? values.indices.min { values[$0] < values[$1] } ?? 0
        let text = renderChart(
            values: values, firstDay: firstDay, todayIndex: today, minimumIndex: minimumIndex, width: width, height: height,
            format: { String($0) }, color: color)
        #expect(values.isEmpty ? text.isEmpty : text.hasSuffix("\n"))
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The plot's rows (between the minimum's line and the axis).
    static func plot(_ lines: [String]) -> [String] { Array(lines[1..<(lines.count - 3)]) }

    /// A year of balances: a salary on the 25th, spending through the month.
    static let year: [Int64] = (0..<365).map { day in
        let date = march10.advanced(by: day).civil
        return 100_000 + Int64((date.day + 6) % 31) * 3_000 - (date.day >= 20 && date.day < 25 ? 40_000 : 0)
    }

    @Test("the chart is `height` plot rows plus four lines, never wider than `width`", arguments: [(60, 8), (80, 12), (40, 3), (200, 20)])
    func size(width: Int, height: Int) {
        let lines = Self.chart(Self.year, width: width, height: height)
        #expect(lines.count == height + 4)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        #expect(Self.plot(lines).allSatisfy { $0.count == Self.plot(lines)[0].count })
    }

    @Test("a short series gets a column a day")
    func shortSeries() {
        let lines = Self.chart([5, 3, 8, 1, 9], width: 60)
        #expect(Self.plot(lines).last == "1 ┤███▁█")
        #expect(Self.plot(lines).first == "9 ┤    █")
    }

    @Test("downsampling keeps each column's lowest day: a one-day dip shows")
    func dipIsNeverHidden() {
        var values = [Int64](repeating: 1_000, count: 3_000)
        values[1_234] = -500
        let lines = Self.chart(values, width: 50, height: 6)
        let bottom = Self.plot(lines).last!
        // Every column is full but the dip's, which is the lowest eighth.
        let cells = Array(bottom.drop { $0 != "┤" }.dropFirst())
        #expect(cells.filter { $0 == "▁" }.count == 1)
        #expect(cells.filter { $0 == "█" }.count == cells.count - 1)
        let column = cells.firstIndex(of: "▁")!
        // The minimum's marker sits over the same column.
        let markerColumn = Array(lines[0]).firstIndex(of: "▼")! - Array(bottom).firstIndex(of: "┤")! - 1
        #expect(markerColumn == column)
        #expect(lines[0].contains("▼ min -500 on \(Self.march10.advanced(by: 1_234))"))
    }

    @Test("the y-axis reads the highest column at the top and the minimum at the bottom")
    func yAxisLabels() {
        let lines = Self.plot(Self.chart([200, 150, 900, 400], width: 60, height: 5))
        #expect(lines.first!.hasPrefix("900 ┤"))
        #expect(lines.last!.hasPrefix("150 ┤"))
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("    │") })
    }

    @Test("a dotted, labelled zero line appears only when the series crosses zero")
    func zeroLine() {
        let crossing = Self.plot(Self.chart([-400, -100, 300, 800, 200, -50], width: 60, height: 8))
        let zero = crossing.filter { $0.contains("┼") }
        #expect(zero.count == 1)
        #expect(zero.first!.hasPrefix("   0 ┼"))
        #expect(zero.first!.contains("┈"))
        let positive = Self.chart([400, 100, 300], width: 60, height: 8)
        #expect(!positive.joined().contains("┼") && !positive.joined().contains("┈"))
    }

    @Test("the x-axis has the first and last dates and month marks; today is marked")
    func xAxis() {
        let lines = Self.chart(Self.year, width: 80, height: 6)
        let axis = lines[lines.count - 3]
        let labels = lines[lines.count - 2]
        let dates = lines[lines.count - 1]
        #expect(axis.contains("└") && axis.contains("┬"))
        #expect(labels.contains("▲ today"))
        #expect(labels.contains("Jun") && labels.contains("2026"))
        #expect(dates.drop { $0 == " " }.hasPrefix("2025-03-10"))
        #expect(dates.hasSuffix("2026-03-09"))
        // Under today's column (the first) sits the today mark.
        #expect(Array(labels).firstIndex(of: "▲") == Array(axis).firstIndex(of: "└")! + 1)
    }

    @Test("months crowd into years over a long horizon")
    func yearsOverDecades() {
        let values = [Int64](repeating: 1, count: 30 * 365)
        let labels = Self.chart(values, width: 80, height: 4).dropLast().last!
        #expect(!labels.contains("Jan") && !labels.contains("Jun"))
        #expect(labels.contains("2030") || labels.contains("2035") || labels.contains("2040"))
    }

    @Test("the minimum's note goes left of its marker near the right edge")
    func minimumNearTheRightEdge() {
        var values = [Int64](repeating: 100, count: 40)
        values[39] = 5
        let lines = Self.chart(values, width: 60)
        #expect(lines[0].hasSuffix("min 5 on 2025-04-18 ▼"))
        #expect(lines[0].count == Self.plot(lines).last!.count)
    }

    @Test("a flat or one-day series draws without trouble")
    func degenerateSeries() {
        let flat = Self.plot(Self.chart([7, 7, 7], height: 4))
        #expect(flat.count == 4)
        #expect(flat.joined().contains("█"))
        let one = Self.chart([42], height: 2)
        #expect(one.count == 6)
        #expect(one.last!.contains("2025-03-10"))
        #expect(Self.chart([], height: 2).isEmpty)
    }

    @Test("colour paints the negative columns and the minimum; without it there are no escapes")
    func color() {
        let plain = Self.chart([-400, 300, 800], color: false).joined(separator: "\n")
        #expect(!plain.contains("\u{1B}["))
        let painted = Self.chart([-400, 300, 800], color: true).joined(separator: "\n")
        #expect(painted.contains("\u{1B}[31m"))
        #expect(painted.contains("\u{1B}[1m▼ min -400"))
    }

    @Test("off a terminal the width is $COLUMNS when it is a positive number, else 80")
    func widthOffATerminalComesFromColumns() {
        let cases: [(String?, Int)] = [("100", 100), ("37", 37), (nil, 80), ("0", 80), ("-5", 80), ("wide", 80)]
        for (columns, expected) in cases {
            let console = Console.captured(environment: columns.map { ["COLUMNS": $0] } ?? [:]).0
            #expect(console.width == expected, "COLUMNS=\(columns ?? "unset")")
        }
    }
}
