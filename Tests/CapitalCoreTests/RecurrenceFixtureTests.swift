import CapitalCore
import Foundation
import Testing

/// capital's expansion against python-dateutil's on the rules of `Tests/Fixtures/rrule.json` and
/// of `rrule-extended.json` (what dateutil expands beyond RFC 5545: BYWEEKNO and BYYEARDAY with any
/// FREQ, BYMONTHDAY with WEEKLY, COUNT=0, an UNTIL before the start), written by
/// `Scripts/rrule-fixtures.py`.
@Suite("Recurrence against python-dateutil")
struct RecurrenceFixtureTests {
    /// One fixture entry: a rule, its start (DTSTART) and dateutil's occurrences in an inclusive
    /// window.
    struct Entry: Decodable {
        var rule: String
        var start: String
        var windowStart: String
        var windowEnd: String
        var dates: [String]
    }

    static func entries(_ name: String = "rrule.json") throws -> [Entry] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
    }

    /// Both fixture files.
    static func allEntries() throws -> [Entry] { try entries() + entries("rrule-extended.json") }

    @Test("agrees with dateutil date for date on every fixture rule")
    func matchesDateutil() throws {
        let entries = try Self.allEntries()
        #expect(entries.count >= 3_000)
        var mismatches: [String] = []
        var agreeing = 0
        for entry in entries {
            let rule = try Recurrence(rrule: entry.rule)
            let start = try Day(iso: entry.start)
            let window = DayRange(through: try Day(iso: entry.windowEnd), from: try Day(iso: entry.windowStart))
            let ours = rule.occurrences(start: start, in: window).map(\.iso)
            if ours == entry.dates {
                agreeing += 1
            } else {
                let index =
                    zip(ours, entry.dates).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(ours.count, entry.dates.count)
                mismatches.append(
                    "\(entry.rule) from \(entry.start) in [\(entry.windowStart), \(entry.windowEnd)]: "
                        + "first difference at #\(index): capital \(ours.dropFirst(index).prefix(3)) "
                        + "dateutil \(entry.dates.dropFirst(index).prefix(3)) (\(ours.count) vs \(entry.dates.count) dates)"
                )
            }
        }
        let report = mismatches.prefix(8).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(entries.count) rules differ:\n\(report)")
        #expect(agreeing == entries.count)
    }

    @Test("counting and the delta buffer agree with the listed occurrences on every fixture rule")
    func countAndDeltaAgree() throws {
        for entry in try Self.allEntries() {
            let rule = try Recurrence(rrule: entry.rule)
            let start = try Day(iso: entry.start)
            let first = try Day(iso: entry.windowStart)
            let window = DayRange(through: try Day(iso: entry.windowEnd), from: first)
            #expect(rule.occurrenceCount(start: start, in: window) == entry.dates.count, "\(entry.rule)")
            var buffer = [Int64](repeating: 1, count: window.count)
            let added = buffer.withUnsafeMutableBufferPointer { rule.addAmount(5, start: start, into: $0, firstDay: first) }
            #expect(added)
            let marked = buffer.indices.filter { buffer[$0] == 6 }.map { first.advanced(by: $0).iso }
            #expect(marked == entry.dates, "\(entry.rule) from \(entry.start)")
        }
    }

    @Test("every fixture rule prints to text that parses back to it")
    func fixtureRulesRoundTrip() throws {
        for entry in try Self.allEntries() {
            let rule = try Recurrence(rrule: entry.rule)
            #expect(try Recurrence(rrule: rule.rrule) == rule, "\(entry.rule) printed as \(rule.rrule)")
        }
    }

    /// Issue 17, item 8: rule sets (RRULEs, RDATE, EXDATE, EXRULE) as python-dateutil's
    /// `rrulestr(..., forceset=True)` expands them, from `Tests/Fixtures/rrule-sets.json`.
    @Test("rule sets agree with dateutil's rruleset date for date, and read back from their text")
    func ruleSetsMatchDateutil() throws {
        let entries = try Self.entries("rrule-sets.json")
        #expect(entries.count >= 300)
        var mismatches: [String] = []
        for entry in entries {
            let rule = try Rule(parsing: entry.rule)
            let start = try Day(iso: entry.start)
            try rule.validate(start: start)
            let window = DayRange(through: try Day(iso: entry.windowEnd), from: try Day(iso: entry.windowStart))
            var ours: [String] = []
            rule.forEachOccurrence(start: start, in: window, calendar: .none) { original, day in
                #expect(original == day)
                ours.append(day.iso)
            }
            if ours != entry.dates {
                mismatches.append("\(entry.rule) from \(entry.start): capital \(ours.prefix(6)) dateutil \(entry.dates.prefix(6))")
            }
            #expect(try Rule(parsing: rule.rrule) == rule, "\(entry.rule) printed as \(rule.rrule)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(entries.count) sets differ:\n\(mismatches.prefix(6).joined(separator: "\n"))")
    }
}
