/// A recurrence rule with RFC 5545 RRULE semantics (python-dateutil's `rrule` is the reference),
/// anchored at a start day (DTSTART) given when it is expanded.
///
/// Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT, UNTIL (inclusive), BYDAY (with
/// ordinals, `1MO`, `-1FR`), BYMONTHDAY (negative too), BYMONTH, BYYEARDAY, BYWEEKNO, BYSETPOS, WKST.
/// ```swift
/// let lastFriday = try Recurrence(rrule: "FREQ=MONTHLY;BYDAY=-1FR")
/// lastFriday.occurrences(start: try Day(iso: "2025-01-01"), in: range)
/// ```
public struct Recurrence: Hashable, Sendable {
    /// How often a rule repeats (RFC 5545 FREQ).
    public enum Frequency: String, Sendable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday, with an optional ordinal (`1MO` first Monday, `-1FR` last Friday).
    public struct WeekdayNumber: Hashable, Sendable {
        public var weekday: Weekday
        /// nil for every such weekday in the period; ±1…±53 for the n-th (from the end if negative).
        public var ordinal: Int?

        /// A weekday, or its `ordinal`th in the period (`-1`: the last).
        public init(_ weekday: Weekday, _ ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    public var frequency: Frequency
    public var interval: Int = 1
    /// At most this many occurrences, counted from the start day (which counts if it matches).
    public var count: Int?
    /// The last day an occurrence may fall on (inclusive).
    public var until: Day?
    public var byDay: [WeekdayNumber] = []
    public var byMonthDay: [Int] = []
    public var byMonth: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var bySetPos: [Int] = []
    public var weekStart: Weekday = .monday

    /// A rule of `frequency` with no other part: every period from the start.
    public init(frequency: Frequency) {
        self.frequency = frequency
    }
}

/// Why a rule was refused: the part, the value and why.
public enum RecurrenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A part capital does not support (HOURLY, BYHOUR, BYMINUTE, BYSECOND, BYEASTER, ...).
    case unsupported(part: String, value: String)
    /// A supported part with a value out of range or malformed.
    case invalid(part: String, value: String, reason: String)
    /// COUNT and UNTIL together, FREQ missing, UNTIL before the start, ...
    case conflict(String)
    /// A readable rule that could not be read, with the closest accepted form.
    case unreadable(String, suggestion: String)

    /// One line, with any line break in the quoted input escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .unsupported(let part, let value):
            switch part {
            case "BYEASTER":
                return "\(part)=\(value) is not supported: it is python-dateutil's own extension, not RFC 5545; list the days with RDATE"
            case "RDATE", "EXDATE", "EXRULE", "DTSTART":
                return "\(part)=\(value) is not supported inside a rule: give it as a line of a rule set (RRULE:… \(part):…)"
            default:
                return "\(part)=\(value) is not supported: capital's rules recur by day (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY)"
            }
        case .invalid(let part, let value, let reason):
            return "\(part) '\(value)': \(reason)"
        case .conflict(let message):
            return message
        case .unreadable(let text, let suggestion):
            return "'\(text)' is not a rule capital reads; did you mean '\(suggestion)'?"
        }
    }
}
