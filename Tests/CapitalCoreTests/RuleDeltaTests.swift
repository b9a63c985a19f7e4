import CapitalCore
import Testing

@Suite("Rule delta buffer")
struct RuleDeltaTests {
    static let calendar = WorkingDayCalendar(
        name: "test", holidays: [try! Day(iso: "2025-05-09"), try! Day(iso: "2025-05-12"), try! Day(iso: "2025-12-31")],
        workingDays: [try! Day(iso: "2025-11-01")])

    static let rules: [(String, BusinessDayAdjustment)] = [
        ("FREQ=DAILY", .skip), ("FREQ=MONTHLY;BYMONTHDAY=10", .preceding), ("FREQ=MONTHLY;BYMONTHDAY=-1", .preceding),
        ("FREQ=MONTHLY;BYMONTHDAY=1", .following), ("FREQ=MONTHLY;BYMONTHDAY=31", .modifiedFollowing), ("FREQ=WEEKLY;BYDAY=SA,SU", .following),
        ("FREQ=WEEKLY;BYDAY=FR", .none),
    ]

    /// The buffer holds, for each day, the amount times the number of occurrences falling on it:
    /// the same as counting the occurrences one by one (two weekend days can move onto one Monday).
    @Test(arguments: rules)
    func bufferMatchesOccurrenceByOccurrenceSums(text: String, adjustment: BusinessDayAdjustment) throws {
        let rule = Rule(recurrence: try Recurrence(rrule: text), adjustment: adjustment, calendar: "test")
        let first = try Day(iso: "2025-01-01")
        let start = try Day(iso: "2024-12-15")
        var buffer = [Int64](repeating: 0, count: 400)
        let ok = buffer.withUnsafeMutableBufferPointer {
            rule.addAmount(-1_250, start: start, calendar: Self.calendar, into: $0, firstDay: first)
        }
        #expect(ok)
        var expected = [Int64](repeating: 0, count: 400)
        // Independent count: adjust every rule day of a wide window by hand.
        for original in rule.recurrence.occurrences(start: start, in: DayRange(first.advanced(by: -40), first.advanced(by: 440))) {
            guard let adjusted = adjustment.adjust(original, in: Self.calendar) else { continue }
            let index = adjusted.number - first.number
            if (0..<400).contains(index) { expected[index] -= 1_250 }
        }
        #expect(buffer == expected)
    }

    @Test func overflowLeavesTheBufferAsItWas() throws {
        let rule = Rule(recurrence: try Recurrence(rrule: "FREQ=DAILY"), adjustment: .skip, calendar: "test")
        let first = try Day(iso: "2025-01-01")
        var buffer = [Int64](repeating: 7, count: 30)
        buffer[20] = .max - 3
        let before = buffer
        let ok = buffer.withUnsafeMutableBufferPointer {
            rule.addAmount(5, start: first, calendar: Self.calendar, into: $0, firstDay: first)
        }
        #expect(!ok)
        #expect(buffer == before)
    }
}
