import Foundation
import GRDB
import Testing

@testable import CapitalStore

@Suite("Record timestamps")
struct TimestampTests {
    /// The hand-written formatter against GRDB's own `Date.databaseValue` (Foundation's
    /// `DateFormatter`, UTC): the same text for instants across four centuries, before and after
    /// 1970, on every millisecond boundary kind.
    @Test func timestampsAreTheTextGRDBWritesForADate() throws {
        var generator = SystemRandomNumberGenerator()
        var instants: [Int64] = [0, -1, 1, 999, 1000, -1000, -86_400_000, 86_399_999, 951_782_400_000, 1_732_233_599_999]
        for _ in 0..<2_000 { instants.append(Int64.random(in: -2_208_988_800_000...7_258_118_399_999, using: &generator)) }
        for ms in instants {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            guard case .string(let expected) = date.databaseValue.storage else {
                Issue.record("GRDB stored \(date) as something other than text")
                continue
            }
            #expect(Timestamp.text(millisecondsSince1970: ms) == expected, "ms \(ms)")
        }
    }

    @Test func nowReadsBackAsTheCurrentInstant() throws {
        let before = Date()
        let text = Timestamp.now()
        let after = Date()
        let read = try #require(Date.fromDatabaseValue(text.databaseValue))
        // Compared in whole milliseconds: the stored text keeps three decimals, and reading it
        // back goes through a Double.
        let milliseconds = { (date: Date) in (date.timeIntervalSince1970 * 1000).rounded() }
        #expect(milliseconds(read) >= (before.timeIntervalSince1970 * 1000).rounded(.down))
        #expect(milliseconds(read) <= milliseconds(after))
    }
}
