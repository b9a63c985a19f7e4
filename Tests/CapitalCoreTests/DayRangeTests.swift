import CapitalCore
import Testing

@Suite("DayRange")
struct DayRangeTests {
    @Test("is half-open: contains its start, not its end")
    func halfOpen() throws {
        let start = try Day(iso: "2025-01-01")
        let end = try Day(iso: "2025-02-01")
        let january = DayRange(start, end)
        #expect(january.contains(start))
        #expect(january.contains(try Day(iso: "2025-01-31")))
        #expect(!january.contains(end))
        #expect(!january.contains(start.advanced(by: -1)))
        #expect(january.count == 31)
        #expect(!january.isEmpty)
    }

    @Test("iterates every day from start up to, not including, end")
    func iteration() throws {
        let range = DayRange(try Day(iso: "2024-02-27"), try Day(iso: "2024-03-02"))
        #expect(range.map(\.iso) == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"])
        #expect(Array(range).count == range.count)
    }

    @Test("a range whose start is its end is empty")
    func empty() throws {
        let day = try Day(iso: "2025-06-15")
        let range = DayRange(day, day)
        #expect(range.isEmpty)
        #expect(range.count == 0)
        #expect(!range.contains(day))
        #expect(Array(range).isEmpty)
    }

    @Test("through:from: includes its last day")
    func closedRange() throws {
        let first = try Day(iso: "2025-03-01")
        let last = try Day(iso: "2025-03-31")
        let march = DayRange(through: last, from: first)
        #expect(march == DayRange(first, try Day(iso: "2025-04-01")))
        #expect(march.contains(last))
        #expect(march.count == 31)
        #expect(DayRange(through: first, from: first).count == 1)
    }

    @Test("adjacent ranges share no day and leave no gap")
    func adjacentRangesPartition() throws {
        let a = try Day(iso: "2024-12-20")
        let b = try Day(iso: "2025-01-01")
        let c = try Day(iso: "2025-01-10")
        let first = DayRange(a, b)
        let second = DayRange(b, c)
        for day in DayRange(a, c) {
            #expect(first.contains(day) != second.contains(day), "\(day)")
        }
        #expect(first.count + second.count == DayRange(a, c).count)
    }

    @Test(
        "a month's range counts that month's days",
        arguments: [("2024-02-01", 29), ("2025-02-01", 28), ("2100-02-01", 28), ("2025-04-01", 30), ("2025-12-01", 31)]
    )
    func monthLength(start: String, days: Int) throws {
        let first = try Day(iso: start)
        #expect(DayRange(first, first.addingMonths(1)).count == days)
        #expect(DayRange(through: first.endOfMonth, from: first).count == days)
    }

    @Test("prints as a half-open interval")
    func description() throws {
        let range = DayRange(try Day(iso: "2025-01-01"), try Day(iso: "2025-02-01"))
        #expect(range.description == "[2025-01-01, 2025-02-01)")
    }

    @Test("refuses a start after its end")
    func startAfterEndTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = DayRange(Day(10), Day(9))
        }
    }
}
