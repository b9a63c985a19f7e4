import CapitalCore
import Foundation
import Testing

@Suite("Day")
struct DayTests {
    // MARK: Reference fixture

    /// One row of `Tests/Fixtures/days.csv`, written by `Scripts/gen-day-fixture.py` from Python's
    /// `datetime`, an implementation independent of ours.
    struct ReferenceDay {
        var number: Int
        var iso: String
        var isoWeekday: Int
    }

    static func referenceDays() throws -> [ReferenceDay] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/days.csv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "number,iso,isoWeekday")
        return try lines.dropFirst().map { line in
            let fields = line.split(separator: ",")
            try #require(fields.count == 3, "bad fixture line '\(line)'")
            let number = try #require(Int(fields[0]), "bad day number in '\(line)'")
            let weekday = try #require(Int(fields[2]), "bad weekday in '\(line)'")
            return ReferenceDay(number: number, iso: String(fields[1]), isoWeekday: weekday)
        }
    }

    @Test("agrees with Python's datetime on every day of the reference fixture")
    func matchesReferenceFixture() throws {
        let rows = try Self.referenceDays()
        #expect(rows.count >= 2_000)
        // The fixture must cover both turn-of-century Februaries and the whole 0001...9999 span.
        #expect(rows.contains { $0.iso == "2000-02-29" })
        #expect(rows.contains { $0.iso == "2100-02-28" } && !rows.contains { $0.iso == "2100-02-29" })
        #expect(rows.first?.iso == "0001-01-01" && rows.last?.iso == "9999-12-31")
        for row in rows {
            let day = Day(row.number)
            #expect(day.civil.iso == row.iso, "day \(row.number)")
            #expect(day.iso == row.iso, "day \(row.number)")
            #expect(try Day(iso: row.iso).number == row.number, "\(row.iso)")
            #expect(day.weekday.rawValue == row.isoWeekday, "\(row.iso)")
        }
    }

    @Test("the fixture holds every day of the 2000 and 2100 windows, weekdays in sequence")
    func referenceWindowsAreContiguous() throws {
        let rows = try Self.referenceDays()
        for (first, last) in [("1999-12-25", "2000-03-05"), ("2099-12-25", "2100-03-05")] {
            let window = try Day(iso: first).number...Day(iso: last).number
            let inWindow = rows.filter { window.contains($0.number) }
            #expect(inWindow.map(\.number) == Array(window))
            #expect(inWindow.first?.iso == first && inWindow.last?.iso == last)
            for (a, b) in zip(inWindow, inWindow.dropFirst()) {
                #expect(b.isoWeekday == a.isoWeekday % 7 + 1)
            }
        }
    }

    // MARK: Conversions over wide ranges

    @Test("ISO text round-trips for every seventh day from 0000-01-01 to 9999-12-31")
    func isoRoundTrip() throws {
        let first = try Day(iso: "0000-01-01").number
        let last = try Day(iso: "9999-12-31").number
        #expect(first == -719_528 && last == 2_932_896)
        var failures: [Int] = []
        for number in stride(from: first, through: last, by: 7) {
            if (try? Day(iso: Day(number).iso))?.number != number { failures.append(number) }
        }
        #expect(failures.isEmpty, "first failures: \(failures.prefix(5))")
    }

    @Test("civil dates round-trip and advance by one calendar day, far outside the ISO range too")
    func civilRoundTripAndSuccession() throws {
        var failures: [String] = []
        var previous = Day(-800_001).civil
        for number in -800_000...3_000_000 {
            let civil = Day(number).civil
            let expectedNext: CivilDate =
                previous.day < Day.daysIn(month: previous.month, year: previous.year)
                ? CivilDate(year: previous.year, month: previous.month, day: previous.day + 1)
                : previous.month < 12
                    ? CivilDate(year: previous.year, month: previous.month + 1, day: 1)
                    : CivilDate(year: previous.year + 1, month: 1, day: 1)
            if civil != expectedNext { failures.append("day \(number): \(civil), expected \(expectedNext)") }
            if (try? Day(year: civil.year, month: civil.month, day: civil.day))?.number != number {
                failures.append("day \(number): \(civil) does not map back")
            }
            if failures.count > 5 { break }
            previous = civil
        }
        #expect(failures.isEmpty, "\(failures)")
        // Python's datetime, shifted by two 400-year cycles (146 097 days each) into its range.
        #expect(Day(-800_000).civil == CivilDate(year: -221, month: 9, day: 4))
        #expect(Day(3_000_000).civil == CivilDate(year: 10_183, month: 9, day: 21))
    }

    @Test("years outside 0000...9999 print with a sign or five digits, which strict ISO parsing refuses")
    func isoTextOutsideFourDigitYears() {
        #expect(Day(-719_529).iso == "-0001-12-31")
        #expect(Day(2_932_897).iso == "10000-01-01")
        #expect(throws: DayError.badFormat("-0001-12-31")) { try Day(iso: "-0001-12-31") }
        #expect(throws: DayError.badFormat("10000-01-01")) { try Day(iso: "10000-01-01") }
    }

    // MARK: ISO parsing

    @Test(
        "parses strict ISO dates",
        arguments: [
            ("1970-01-01", 1970, 1, 1, 0),
            ("2024-02-29", 2024, 2, 29, 19_782),
            ("2000-02-29", 2000, 2, 29, 11_016),
            ("1969-12-31", 1969, 12, 31, -1),
            ("2025-03-01", 2025, 3, 1, 20_148),
            ("0000-01-01", 0, 1, 1, -719_528),
            ("9999-12-31", 9_999, 12, 31, 2_932_896),
        ]
    )
    func parsesISO(text: String, year: Int, month: Int, day: Int, number: Int) throws {
        let parsed = try Day(iso: text)
        #expect(parsed.civil == CivilDate(year: year, month: month, day: day))
        #expect(parsed.number == number)
        #expect(parsed == (try Day(year: year, month: month, day: day)))
        #expect(parsed.description == text)
    }

    @Test(
        "refuses text that is not YYYY-MM-DD",
        arguments: [
            "", "25-1-1", "2025-1-01", "2025-01-1", "abcd-ef-gh", "2025/01/01", "20250101",
            " 2025-01-01", "2025-01-01 ", "2025-01-01T00:00", "+025-01-01", "2025-01-01-", "2025--01",
            "2025-01", "２０２５-01-01", "2025-0a-01", "-2025-01-01",
        ]
    )
    func refusesBadFormat(text: String) {
        #expect(throws: DayError.badFormat(text)) { try Day(iso: text) }
    }

    @Test("refuses a month that does not exist, quoting the text")
    func refusesMonthOutOfRange() {
        #expect(throws: DayError.monthOutOfRange("2025-13-01")) { try Day(iso: "2025-13-01") }
        #expect(throws: DayError.monthOutOfRange("2025-00-10")) { try Day(iso: "2025-00-10") }
        #expect(DayError.monthOutOfRange("2025-13-01").description.contains("'2025-13-01'"))
    }

    @Test(
        "refuses a day past the end of its month, naming the last day",
        arguments: [
            ("2025-02-30", 28), ("2025-02-29", 28), ("2023-02-29", 28), ("1900-02-29", 28), ("2100-02-29", 28),
            ("2024-02-30", 29), ("2025-04-31", 30), ("2025-01-32", 31), ("2025-01-00", 31),
        ]
    )
    func refusesDayOutOfRange(text: String, lastDay: Int) {
        #expect(throws: DayError.dayOutOfRange(text, lastDay: lastDay)) { try Day(iso: text) }
    }

    @Test("the memberwise initialiser refuses impossible dates")
    func refusesInvalidCivilDate() {
        #expect(throws: DayError.invalidDate(year: 2025, month: 2, day: 29)) { try Day(year: 2025, month: 2, day: 29) }
        #expect(throws: DayError.invalidDate(year: 2025, month: 0, day: 1)) { try Day(year: 2025, month: 0, day: 1) }
        #expect(throws: DayError.invalidDate(year: 2025, month: 1, day: 0)) { try Day(year: 2025, month: 1, day: 0) }
        #expect(throws: DayError.invalidDate(year: 2025, month: 13, day: 1)) { try Day(year: 2025, month: 13, day: 1) }
    }

    // MARK: Month form

    @Test(
        "a month stands for its first or last day",
        arguments: [
            ("2025-12", "2025-12-01", "2025-12-31"),
            ("2024-02", "2024-02-01", "2024-02-29"),
            ("2025-02", "2025-02-01", "2025-02-28"),
            ("2100-02", "2100-02-01", "2100-02-28"),
            ("2025-04", "2025-04-01", "2025-04-30"),
        ]
    )
    func monthForm(text: String, start: String, end: String) throws {
        #expect(try Day(parsing: text, monthAs: .startOfMonth) == Day(iso: start))
        #expect(try Day(parsing: text, monthAs: .endOfMonth) == Day(iso: end))
    }

    @Test("a full date is read as itself whatever the month form")
    func monthFormPassesFullDates() throws {
        let day = try Day(iso: "2025-12-15")
        #expect(try Day(parsing: "2025-12-15", monthAs: .startOfMonth) == day)
        #expect(try Day(parsing: "2025-12-15", monthAs: .endOfMonth) == day)
        #expect(throws: DayError.dayOutOfRange("2025-02-30", lastDay: 28)) {
            try Day(parsing: "2025-02-30", monthAs: .endOfMonth)
        }
    }

    @Test("the month form refuses bad months")
    func monthFormRefusals() {
        #expect(throws: DayError.monthOutOfRange("2025-13")) { try Day(parsing: "2025-13", monthAs: .endOfMonth) }
        #expect(throws: DayError.monthOutOfRange("2025-00")) { try Day(parsing: "2025-00", monthAs: .startOfMonth) }
        #expect(throws: DayError.badDateOrMonth("2025-1")) { try Day(parsing: "2025-1", monthAs: .endOfMonth) }
        #expect(throws: DayError.badDateOrMonth("25-12")) { try Day(parsing: "25-12", monthAs: .endOfMonth) }
        #expect(throws: DayError.badDateOrMonth("2025")) { try Day(parsing: "2025", monthAs: .endOfMonth) }
        #expect(throws: DayError.badDateOrMonth("")) { try Day(parsing: "", monthAs: .startOfMonth) }
    }

    // MARK: Month arithmetic

    @Test(
        "adding months clamps to the end of a shorter month",
        arguments: [
            ("2025-01-31", 1, "2025-02-28"),
            ("2024-01-31", 1, "2024-02-29"),
            ("2025-05-31", 1, "2025-06-30"),
            ("2025-03-31", -1, "2025-02-28"),
            ("2024-03-31", -1, "2024-02-29"),
            ("2025-08-31", -6, "2025-02-28"),
            ("2025-01-15", -1, "2024-12-15"),
            ("2024-12-31", 2, "2025-02-28"),
            ("2024-11-30", 3, "2025-02-28"),
            ("2025-01-31", -13, "2023-12-31"),
            ("2025-01-15", -25, "2022-12-15"),
            ("2024-02-29", 12, "2025-02-28"),
            ("2024-02-29", 48, "2028-02-29"),
            ("2024-02-29", -48, "2020-02-29"),
            ("2025-01-01", 120, "2035-01-01"),
            ("2025-06-15", 0, "2025-06-15"),
            ("2099-12-31", 2, "2100-02-28"),
            ("0001-01-15", -1, "0000-12-15"),
        ]
    )
    func addingMonthsClamps(from: String, months: Int, expected: String) throws {
        #expect(try Day(iso: from).addingMonths(months) == Day(iso: expected))
    }

    @Test(
        "adding months exactly gives nil when the day does not exist in the target month",
        arguments: [
            ("2025-01-31", 1, nil),
            ("2025-01-30", 1, nil),
            ("2025-01-29", 1, nil),
            ("2024-01-29", 1, "2024-02-29"),
            ("2025-01-28", 1, "2025-02-28"),
            ("2025-03-31", -1, nil),
            ("2025-03-31", 1, nil),
            ("2025-03-31", 2, "2025-05-31"),
            ("2024-02-29", 12, nil),
            ("2024-02-29", 48, "2028-02-29"),
            ("2025-12-31", 1, "2026-01-31"),
            ("2025-01-15", -13, "2023-12-15"),
        ] as [(String, Int, String?)]
    )
    func addingMonthsExactly(from: String, months: Int, expected: String?) throws {
        let result = try Day(iso: from).addingMonths(exactly: months)
        #expect(result == (try expected.map { try Day(iso: $0) }))
    }

    @Test("month arithmetic crosses year 0 of the proleptic calendar")
    func monthArithmeticBeforeYearZero() throws {
        let start = try Day(year: 0, month: 1, day: 31)
        #expect(start.addingMonths(-1).civil == CivilDate(year: -1, month: 12, day: 31))
        #expect(start.addingMonths(-11).civil == CivilDate(year: -1, month: 2, day: 28))  // -1 is a common year
        #expect(start.addingMonths(-47).civil == CivilDate(year: -4, month: 2, day: 29))  // -4 is a leap year
        #expect(start.addingMonths(-13).civil == CivilDate(year: -2, month: 12, day: 31))
        #expect(start.addingMonths(exactly: -11) == nil)
        #expect(start.addingMonths(exactly: -12)?.civil == CivilDate(year: -1, month: 1, day: 31))
        #expect(try Day(year: -1, month: 12, day: 31).addingMonths(1).iso == "0000-01-31")
    }

    @Test("exact and clamped month arithmetic agree whenever the exact day exists")
    func exactAgreesWithClamped() throws {
        let start = try Day(iso: "2023-11-01")
        for day in DayRange(start, start.advanced(by: 800)) {
            for months in -30...30 {
                let clamped = day.addingMonths(months)
                if let exact = day.addingMonths(exactly: months) {
                    #expect(exact == clamped)
                    #expect(exact.civil.day == day.civil.day)
                } else {
                    #expect(clamped == clamped.endOfMonth && clamped.civil.day < day.civil.day)
                }
            }
        }
    }

    @Test("start and end of month")
    func monthBounds() throws {
        #expect(try Day(iso: "2024-02-10").startOfMonth == Day(iso: "2024-02-01"))
        #expect(try Day(iso: "2024-02-10").endOfMonth == Day(iso: "2024-02-29"))
        #expect(try Day(iso: "2025-02-10").endOfMonth == Day(iso: "2025-02-28"))
        #expect(try Day(iso: "2025-12-31").startOfMonth == Day(iso: "2025-12-01"))
        #expect(try Day(iso: "2025-12-01").endOfMonth == Day(iso: "2025-12-31"))
    }

    // MARK: Weekday and leap years

    @Test(
        "weekday is ISO numbered, Monday 1 to Sunday 7",
        arguments: [
            ("1970-01-01", Weekday.thursday),
            ("1969-12-31", .wednesday),
            ("1969-12-29", .monday),
            ("2000-01-01", .saturday),
            ("2025-03-01", .saturday),
            ("2025-03-02", .sunday),
            ("2025-03-03", .monday),
            ("0001-01-01", .monday),
        ]
    )
    func weekday(text: String, weekday: Weekday) throws {
        #expect(try Day(iso: text).weekday == weekday)
    }

    @Test("only Saturday and Sunday are the weekend")
    func weekend() {
        #expect(Weekday.allCases.filter(\.isWeekend) == [.saturday, .sunday])
        #expect(Weekday.monday.rawValue == 1 && Weekday.sunday.rawValue == 7)
    }

    @Test(
        "leap years follow the Gregorian rule",
        arguments: [
            (1900, false), (2000, true), (2024, true), (2100, false),
            (2023, false), (1600, true), (2400, true), (0, true), (-4, true), (-1, false), (-100, false),
        ]
    )
    func leapYears(year: Int, isLeap: Bool) {
        #expect(Day.isLeap(year) == isLeap)
        #expect(Day.daysIn(month: 2, year: year) == (isLeap ? 29 : 28))
    }

    @Test("month lengths")
    func monthLengths() {
        #expect((1...12).map { Day.daysIn(month: $0, year: 2025) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    }

    // MARK: Ordering and text

    @Test("days are ordered and strideable by day number")
    func strideable() throws {
        let a = try Day(iso: "2024-12-30")
        let b = try Day(iso: "2025-01-02")
        #expect(a < b)
        #expect(a.distance(to: b) == 3)
        #expect(a.advanced(by: 3) == b)
        #expect(b.advanced(by: -3) == a)
        #expect(Array(stride(from: a, to: b, by: 1)).map(\.iso) == ["2024-12-30", "2024-12-31", "2025-01-01"])
    }

    @Test("civil dates print zero-padded")
    func civilDateText() {
        #expect(CivilDate(year: 5, month: 3, day: 7).iso == "0005-03-07")
        #expect(CivilDate(year: 2025, month: 11, day: 30).description == "2025-11-30")
    }
}
