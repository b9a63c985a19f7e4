/// Why a working-day calendar could not be found or read.
public enum CalendarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No calendar of that name; `known` lists the ones there are.
    case unknown(String, known: [String])
    /// A line of a calendar's data that is not `YYYY-MM-DD holiday NAME` or `YYYY-MM-DD workday NOTE`.
    case badLine(calendar: String, line: Int, text: String)
    /// A line whose date is not a calendar date.
    case badDay(calendar: String, line: Int, DayError)
    /// A shipped calendar whose data file could not be read.
    case unreadable(calendar: String, reason: String)

    public var description: String {
        switch self {
        case .unknown(let name, let known):
            return "calendar '\(name)': unknown; capital ships \(Self.list(known))"
        case .badLine(let calendar, let line, let text):
            return "calendar '\(calendar)', line \(line): '\(text)': expected 'YYYY-MM-DD holiday NAME' or 'YYYY-MM-DD workday NOTE'"
        case .badDay(let calendar, let line, let error):
            return "calendar '\(calendar)', line \(line): \(error)"
        case .unreadable(let calendar, let reason):
            return "calendar '\(calendar)': its data file cannot be read: \(reason)"
        }
    }

    /// `RU, US and none`.
    private static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "no calendars" }
        guard names.count > 1 else { return last }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
