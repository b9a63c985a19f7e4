import CapitalCore
import Foundation

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
}
