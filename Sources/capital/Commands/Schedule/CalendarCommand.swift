import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct CalendarCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar", abstract: "Working-day calendars: the ledger's default, and your own holidays and working days.",
            subcommands: [List.self, Use.self, AddHoliday.self, AddWorkday.self])
    }
}

extension Capital.CalendarCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List the calendars, the ledger's default, and the days you added.", example: "capital calendar list")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let current = try store.defaultCalendar()
            var calendars = Section(name: "calendars", columns: [Column("name", "Calendar"), Column("default", "Default")])
            calendars.rows = Calendars.names.map { [.text($0), .bool($0.lowercased() == current.lowercased())] }
            var days = Section(
                name: "days", title: "Your days",
                columns: [Column("calendar", "Calendar"), Column("date", "Date"), Column("kind", "Kind"), Column("name", "Name")])
            days.rows = try store.calendarDays().map {
                [.text($0.calendar), .day($0.day), .text($0.holiday ? "holiday" : "workday"), .text($0.name)]
            }
            try global.print(Report([calendars, days], keyed: true))
        }
    }

    struct Use: ParsableCommand {
        static let configuration = CommandConfiguration(
            "use", "Make a calendar the ledger's default for schedules.", example: "capital calendar use RU")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "RU, US or none.", completion: .calendarNames) var name: String

        func run() throws {
            let output = try global.writeOutput()
            try global.ledgerStore(writing: true).setDefaultCalendar(name)
            try output.said("Schedules now use the \(name) calendar unless they name another.") {
                Report.record("calendar", [(Column("default", "Default"), .text(try global.ledgerStore(writing: false).defaultCalendar()))])
            }
        }
    }

    struct AddHoliday: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add-holiday", "Make a day a holiday in a calendar, for this ledger.",
            example: "capital calendar add-holiday RU 2025-06-13 --name \"Company day off\"")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var day: CalendarDay

        func run() throws { try day.add(holiday: true, global) }
    }

    struct AddWorkday: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add-workday", "Make a day a working day in a calendar, for this ledger.",
            example: "capital calendar add-workday RU 2025-11-01 --name \"Transferred working Saturday\"")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var day: CalendarDay

        func run() throws { try day.add(holiday: false, global) }
    }
}

/// A day to add to a calendar, for this ledger, and what it is.
struct CalendarDay: ParsableArguments {
    @Argument(help: "The calendar.", completion: .calendarNames) var calendar: String
    @Argument(help: "The day (YYYY-MM-DD).") var date: String
    @Option(parsing: .unconditional, help: "What it is.") var name = ""

    /// Adds the day as a holiday or a working day: the body of both add commands.
    func add(holiday: Bool, _ global: GlobalOptions) throws {
        let day = try parseDay(date, field: "DATE")
        let output = try global.writeOutput()
        try global.ledgerStore(writing: true).addCalendarDay(calendar, day: day, holiday: holiday, name: name)
        try output.said("\(day) is now a \(holiday ? "holiday" : "working day") in \(calendar).") {
            Report.record(
                "day",
                [
                    (Column("calendar", "Calendar"), .text(calendar)), (Column("date", "Date"), .day(day)),
                    (Column("kind", "Kind"), .text(holiday ? "holiday" : "workday")), (Column("name", "Name"), .text(name)),
                ])
        }
    }
}
