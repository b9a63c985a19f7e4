import CapitalCore
import Testing

/// `addAmount(_:start:into:firstDay:)`: occurrences laid straight onto a day-indexed buffer.
@Suite("Recurrence delta buffer")
struct RecurrenceDeltaTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    @Test("adds the amount on each occurrence inside the buffer and nowhere else")
    func addsOnOccurrences() throws {
        let rule = try Recurrence(rrule: "FREQ=MONTHLY;BYMONTHDAY=25")
        let first = Self.day("2025-02-01")
        var buffer = [Int64](repeating: 7, count: 59)  // 2025-02-01 ... 2025-03-31
        let added = buffer.withUnsafeMutableBufferPointer { rule.addAmount(-1_500, start: Self.day("2025-01-25"), into: $0, firstDay: first) }
        #expect(added)
        #expect(buffer[24] == 7 - 1_500)  // 2025-02-25
        #expect(buffer[52] == 7 - 1_500)  // 2025-03-25
        #expect(buffer.enumerated().filter { $0.offset != 24 && $0.offset != 52 }.allSatisfy { $0.element == 7 })
    }

    @Test("two rules add up on a shared day")
    func rulesAccumulate() throws {
        let first = Self.day("2025-01-01")
        var buffer = [Int64](repeating: 0, count: 31)
        buffer.withUnsafeMutableBufferPointer { slots in
            #expect(try! Recurrence(rrule: "FREQ=WEEKLY;BYDAY=FR").addAmount(100, start: first, into: slots, firstDay: first))
            #expect(try! Recurrence(rrule: "FREQ=MONTHLY;BYDAY=-1FR").addAmount(1_000, start: first, into: slots, firstDay: first))
        }
        #expect(buffer[30] == 1_100)  // Friday 2025-01-31: weekly and last Friday
        #expect(buffer[2] == 100)  // Friday 2025-01-03
        #expect(buffer.reduce(0, +) == 5 * 100 + 1_000)
    }

    @Test("COUNT still counts from the start when the buffer starts later")
    func countBeforeBuffer() throws {
        let rule = try Recurrence(rrule: "FREQ=DAILY;COUNT=10")
        let first = Self.day("2025-01-08")
        var buffer = [Int64](repeating: 0, count: 10)
        #expect(buffer.withUnsafeMutableBufferPointer { rule.addAmount(1, start: Self.day("2025-01-01"), into: $0, firstDay: first) })
        #expect(buffer == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("an addition that would overflow leaves the buffer as it was and reports false")
    func overflowLeavesBufferUnchanged() throws {
        let rule = try Recurrence(rrule: "FREQ=DAILY")
        let first = Self.day("2025-01-01")
        var buffer = [Int64](repeating: 0, count: 10)
        buffer[6] = .max - 5
        let before = buffer
        let added = buffer.withUnsafeMutableBufferPointer { rule.addAmount(10, start: first, into: $0, firstDay: first) }
        #expect(!added)
        #expect(buffer == before)
        buffer[6] = .min + 5
        #expect(!buffer.withUnsafeMutableBufferPointer { rule.addAmount(-10, start: first, into: $0, firstDay: first) })
        #expect(buffer[0] == 0 && buffer[6] == .min + 5)
    }

    @Test("an empty buffer or a zero amount changes nothing")
    func emptyCases() throws {
        let rule = try Recurrence(rrule: "FREQ=DAILY")
        var empty: [Int64] = []
        #expect(empty.withUnsafeMutableBufferPointer { rule.addAmount(5, start: Self.day("2025-01-01"), into: $0, firstDay: Self.day("2025-01-01")) })
        var buffer = [Int64](repeating: 3, count: 5)
        #expect(
            buffer.withUnsafeMutableBufferPointer { rule.addAmount(0, start: Self.day("2025-01-01"), into: $0, firstDay: Self.day("2025-01-01")) })
        #expect(buffer == [3, 3, 3, 3, 3])
    }
}
