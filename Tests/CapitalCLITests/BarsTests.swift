import CapitalCore
import Testing

@testable import capital

/// The horizontal bars of `stats --chart`, and how `stats` writes shares.
@Suite("Bars")
struct BarsTests {
    /// Eighths of a column a bar line draws.
    static func eighths(_ line: String) -> Int {
        let partial: [Character: Int] = ["▏": 1, "▎": 2, "▍": 3, "▌": 4, "▋": 5, "▊": 6, "▉": 7, "█": 8]
        return line.compactMap { partial[$0] }.reduce(0, +)
    }

    static func lines(_ rows: [(label: String, value: Int64)], width: Int = 40, color: Bool = false) -> [String] {
        let text = renderBars(rows, width: width, format: { String($0) }, color: color)
        #expect(rows.isEmpty ? text.isEmpty : text.hasSuffix("\n"))
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test("the largest fills the bar area; others in proportion, to an eighth of a column")
    func proportional() {
        // Labels 4 wide, amounts 3 wide, two spaces: 40 − 9 = 31 columns of bar, 248 eighths.
        let lines = Self.lines([("rent", 800), ("food", 400), ("fun", 100)])
        #expect(lines.map(Self.eighths) == [248, 124, 31])
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[0].hasPrefix("rent 800 ████"))
        #expect(lines[2].hasPrefix("fun  100 ███▉"))
    }

    @Test("zero draws nothing, a tiny value at least an eighth, a negative one its magnitude")
    func edges() {
        let lines = Self.lines([("a", 1_000_000), ("b", 1), ("c", 0), ("d", -500_000)])
        // Labels 1 wide, amounts 7 wide: 30 columns of bar, 240 eighths.
        #expect(lines.map(Self.eighths) == [240, 1, 0, 120])
        #expect(lines[2] == "c       0")
        let colored = Self.lines([("a", 10), ("d", -10)], color: true)
        #expect(!colored[0].contains("\u{1B}[31m") && colored[1].contains("\u{1B}[31m"))
    }

    @Test("all zero or no rows: no bars")
    func nothing() {
        #expect(Self.lines([]).isEmpty)
        #expect(Self.lines([("a", 0), ("b", 0)]).map(Self.eighths) == [0, 0])
    }

    @Test("shares: basis points as a percentage in tables and a ratio in JSON and CSV")
    func shareTexts() {
        #expect(StatsReport.percent(2_345) == "23.45 %")
        #expect(StatsReport.percent(10_000) == "100.00 %")
        #expect(StatsReport.percent(5) == "0.05 %")
        #expect(StatsReport.percent(-120) == "-1.20 %")
        #expect(StatsReport.ratio(2_345) == "0.2345")
        #expect(StatsReport.ratio(10_000) == "1.0000")
        #expect(StatsReport.ratio(7) == "0.0007")
        #expect(StatsReport.ratio(-120) == "-0.0120")
    }
}
