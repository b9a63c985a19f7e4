import CapitalCore
import Foundation
import Testing

@testable import CapitalStore

/// `YYYY-MM-DD` as a `Day`, for tables of cases.
private func day(_ iso: String) -> Day { try! Day(iso: iso) }

/// A shipped data file as it stands in the repository, read apart from the loader under test.
private struct DataFile {
    /// `(day, kind)` for every `YYYY-MM-DD holiday|workday ...` line.
    var entries: [(day: Day, kind: Substring)] = []
    /// The header's `Working days per year by the package's is_working_day: 2020=248 ...`.
    var workingDaysPerYear: [Int: Int] = [:]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CapitalStore/Calendars")

    init(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
        let countsPrefix = "# Working days per year by the package's is_working_day: "
        for line in text.split(separator: "\n") {
            if line.hasPrefix(countsPrefix) {
                for pair in line.dropFirst(countsPrefix.count).split(separator: " ") {
                    let parts = pair.split(separator: "=")
                    workingDaysPerYear[Int(parts[0])!] = Int(parts[1])!
                }
            } else if !line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 2)
                entries.append((try Day(iso: String(words[0])), words[1]))
            }
        }
    }
}

/// The working days of a year by the loaded calendar.
private func workingDays(in year: Int, of calendar: WorkingDayCalendar) -> Int {
    DayRange(Day(Day.daysFromCivil(year: year, month: 1, day: 1)), Day(Day.daysFromCivil(year: year + 1, month: 1, day: 1)))
        .filter(calendar.isWorkingDay).count
}

@Suite("Shipped calendar data")
struct CalendarDataTests {
    @Test("RU: the days off moved from the 2025 New Year weekend fall on 2 May and 31 December")
    func russianTransferredDaysOff() throws {
        let ru = try Calendars.named("RU")
        #expect(!ru.isWorkingDay(day("2025-05-02")))  // a Friday, off for Saturday 2025-01-04
        #expect(!ru.isWorkingDay(day("2025-12-31")))  // a Wednesday, off for Sunday 2025-01-05
        #expect(!ru.isWorkingDay(day("2025-11-03")))  // a Monday, off for Saturday 2025-11-01
        #expect(ru.isWorkingDay(day("2025-05-05")))  // an ordinary Monday between the May holidays
    }

    @Test("RU: the production calendar's working Saturdays are working days", arguments: ["2024-04-27", "2024-11-02", "2024-12-28", "2025-11-01"])
    func russianWorkingSaturdays(iso: String) throws {
        #expect(day(iso).weekday == .saturday)
        #expect(try Calendars.named("RU").isWorkingDay(day(iso)))
    }

    @Test("RU: the production calendar's yearly totals of working days")
    func russianYearTotals() throws {
        // Published production calendars: 2024 had 248 working days, 2025 has 247.
        let ru = try Calendars.named("RU")
        #expect(workingDays(in: 2024, of: ru) == 248)
        #expect(workingDays(in: 2025, of: ru) == 247)
    }

    @Test("RU: 1 to 8 January are days off every year from 2020 to 2035")
    func russianNewYearHolidays() throws {
        let ru = try Calendars.named("RU")
        for year in 2020...2035 {
            for dom in 1...8 {
                let d = Day(Day.daysFromCivil(year: year, month: 1, day: dom))
                #expect(!ru.isWorkingDay(d), "\(d)")
            }
        }
    }

    @Test("US: Independence Day, Thanksgiving and an observed Friday are days off")
    func unitedStatesHolidays() throws {
        let us = try Calendars.named("US")
        #expect(!us.isWorkingDay(day("2025-07-04")))
        #expect(!us.isWorkingDay(day("2025-11-27")))  // the fourth Thursday of November
        #expect(!us.isWorkingDay(day("2026-07-03")))  // Friday, for Saturday 2026-07-04
        #expect(us.isWorkingDay(day("2025-07-03")))
        #expect(!us.isWorkingDay(day("2025-11-01")))  // Russia's working Saturday is a plain Saturday here
    }

    @Test("US: Thanksgiving, the fourth Thursday of November, is off every year from 2020 to 2035")
    func unitedStatesThanksgiving() throws {
        let us = try Calendars.named("US")
        for year in 2020...2035 {
            let first = Day(Day.daysFromCivil(year: year, month: 11, day: 1))
            let firstThursday = first.advanced(by: (Weekday.thursday.rawValue - first.weekday.rawValue + 7) % 7)
            let thanksgiving = firstThursday.advanced(by: 21)
            #expect(!us.isWorkingDay(thanksgiving), "\(thanksgiving)")
            #expect(us.isWorkingDay(thanksgiving.advanced(by: -1)), "\(thanksgiving)")
        }
    }

    @Test("every line of the shipped file is honoured, and no other weekday is off", arguments: ["RU", "US"])
    func calendarMatchesItsFile(name: String) throws {
        let file = try DataFile(name)
        let calendar = try Calendars.named(name)
        var listed: [Day: Substring] = [:]
        for (d, kind) in file.entries {
            #expect(kind == "holiday" || kind == "workday")
            listed[d] = kind
        }
        let years = DayRange(day("2020-01-01"), day("2036-01-01"))
        for d in years {
            let expected: Bool
            switch listed[d] {
            case "holiday": expected = false
            case "workday": expected = true
            default: expected = !d.weekday.isWeekend
            }
            if calendar.isWorkingDay(d) != expected {
                Issue.record("\(name) \(d): isWorkingDay \(!expected), the file says \(listed[d] ?? "nothing")")
                return
            }
        }
    }

    @Test("each year 2020–2035 is covered and counts as many working days as the holidays package does", arguments: ["RU", "US"])
    func everyYearAgreesWithThePackage(name: String) throws {
        let file = try DataFile(name)
        let calendar = try Calendars.named(name)
        #expect(file.workingDaysPerYear.keys.sorted() == Array(2020...2035))
        for year in 2020...2035 {
            let holidays = file.entries.filter { $0.kind == "holiday" && $0.day.civil.year == year }
            #expect(holidays.count >= 10, "\(name) \(year) lists only \(holidays.count) holidays")
            #expect(workingDays(in: year, of: calendar) == file.workingDaysPerYear[year], "\(name) \(year)")
        }
    }

    @Test("names are looked up in any case; none is weekends only")
    func lookup() throws {
        #expect(Calendars.names == ["RU", "US", "none"])
        #expect(try Calendars.named("ru") == Calendars.named("RU"))
        #expect(try Calendars.named("Us").name == "US")
        #expect(try Calendars.named("NONE") == WorkingDayCalendar.none)
        #expect(try Calendars.named("none") == WorkingDayCalendar.none)
    }

    @Test("every shipped file is a known calendar and every calendar but none has a file")
    func namesMatchFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DataFile.folder.path)
            .filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
        #expect(files == Calendars.names.filter { $0 != "none" })
    }

    @Test("an unknown calendar is refused, listing the ones capital ships", arguments: ["XX", "", "RUS", "ru "])
    func unknownCalendar(name: String) {
        #expect(throws: CalendarError.unknown(name, known: ["RU", "US", "none"])) {
            try Calendars.named(name)
        }
        #expect(CalendarError.unknown("XX", known: Calendars.names).description == "calendar 'XX': unknown; capital ships RU, US and none")
    }

    @Test("lookups from many tasks at once share one parsed calendar")
    func concurrentLookups() async throws {
        let results = try await withThrowingTaskGroup(of: WorkingDayCalendar.self) { group in
            for index in 0..<64 {
                group.addTask { try Calendars.named(index.isMultiple(of: 2) ? "RU" : "ru") }
            }
            return try await group.reduce(into: [WorkingDayCalendar]()) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
    }
}

@Suite("Calendar data compiled in")
struct CompiledCalendarDataTests {
    /// The compiled-in text is the data files' text, so the files stay the one source.
    @Test(arguments: ["RU", "US"])
    func compiledTextEqualsTheDataFile(name: String) throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CapitalStore/Calendars/\(name).txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(CalendarData.files[name].map { $0 + "\n" } == text)
    }
}
