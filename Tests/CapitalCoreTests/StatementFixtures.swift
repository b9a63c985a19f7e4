import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

/// What the statement readers' tests share: the fixture files of `Tests/Fixtures/statements/`
/// and days written as year, month, day.
enum StatementFixtures {
    /// A file of `Tests/Fixtures/statements/`, as UTF-8 text.
    static func text(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/statements/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Day { Day(Day.daysFromCivil(year: year, month: month, day: day)) }

    /// Reads `400 × Hostile.scale` mutations of `seeds` (up to six edits each: spans of `span`
    /// scalars, the format's own `pieces`, runs of nines) with `read`, which may throw only a
    /// one-line `StatementError` with a reason; no case may take a second (a hang or a
    /// quadratic path, not a speed measure).
    static func hostile(
        seed: UInt64, seeds: [String], pieces: [String], span: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ read: (String, inout Hostile) throws(StatementError) -> Void
    ) {
        var hostile = Hostile(seed: seed)
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for index in 0..<(400 * Hostile.scale) {
            var scalars = Array(hostile.pick(seeds).unicodeScalars)
            for _ in 0...hostile.below(6) {
                hostile.edit(&scalars, span: span, nines: 30, choices: 9, pieces: pieces, scalars: [0x20...0x7E, 0x00...0x1F, 0x80...0x24FF])
            }
            let text = Hostile.string(scalars)
            let elapsed = clock.measure {
                do throws(StatementError) {
                    try read(text, &hostile)
                } catch {
                    #expect(
                        Hostile.isOneLine(error.description) && !error.reason.isEmpty, "case \(index): \(String(reflecting: text))",
                        sourceLocation: sourceLocation)
                }
            }
            slowest = max(slowest, elapsed)
        }
        #expect(slowest < .seconds(1), sourceLocation: sourceLocation)
    }
}
