import CapitalCore
import Foundation

/// The working-day calendars capital ships: `RU` and `US` from the data files in `Calendars/`
/// (written by `Scripts/make-calendars.py` from the `holidays` package, 2020–2035, and compiled in
/// as `CalendarData`), and `none` (weekends only).
/// ```swift
/// let ru = try Calendars.named("ru")                 // case does not matter
/// ru.isWorkingDay(try Day(iso: "2025-11-01"))        // true: a transferred working Saturday
/// try Calendars.named("XX")   // calendar 'XX': unknown; capital ships RU, US and none
/// ```
/// Each file is parsed once, on its first use, and shared by every caller and thread.
public enum Calendars {
    /// The calendars with a data file, as their files are named.
    static let shipped = ["RU", "US"]

    /// Every calendar name `named(_:)` accepts, as capital spells them: `RU`, `US`, `none`.
    public static var names: [String] { shipped + [WorkingDayCalendar.none.name] }

    /// The calendar called `name`, in any case.
    /// - Throws: `CalendarError.unknown` listing the known names; `.unreadable`, `.badLine` or
    ///   `.badDay` if a shipped file is missing or damaged.
    /// - Complexity: O(1) after the first call, which reads the data files.
    public static func named(_ name: String) throws(CalendarError) -> WorkingDayCalendar {
        let key = name.uppercased()
        if key == WorkingDayCalendar.none.name.uppercased() { return .none }
        switch key {
        case "RU": return try ru.get()
        case "US": return try us.get()
        default: throw .unknown(name, known: names)
        }
    }

    // Each calendar is parsed on its first use only: a `static let` is initialised exactly once,
    // thread-safely, and a ledger on the RU calendar does not pay for parsing US.
    private static let ru = Result { () throws(CalendarError) in try load("RU") }
    private static let us = Result { () throws(CalendarError) in try load("US") }

    private static func load(_ name: String) throws(CalendarError) -> WorkingDayCalendar {
        guard let text = CalendarData.files[name] else {
            throw .unreadable(calendar: name, reason: "no data for \(name) is compiled in (run Scripts/make-calendars.py)")
        }
        return try WorkingDayCalendar(name: name, parsing: text + "\n")
    }
}
