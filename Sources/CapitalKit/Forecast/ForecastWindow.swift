import CapitalCore

/// What every forecast answer is seen through: today, the last day looked at (inclusive), the
/// working-day calendars the ledger's rules name, and the case of ranged amounts.
///
/// One value instead of four loose arguments, from the opening of a ledger to the last query.
public struct ForecastWindow: Sendable {
    public var today: Day
    /// The last day looked at, inclusive.
    public var horizon: Day
    /// The working-day calendar of each name the ledger's schedules and loans use.
    public var calendars: [String: WorkingDayCalendar]
    /// Pessimistic ends of ranged amounts, or their expected values.
    public var forecastCase: ForecastCase

    /// A window from `today` through `horizon` (inclusive), in `forecastCase` unless a query asks otherwise.
    public init(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], forecastCase: ForecastCase = .pessimistic) {
        self.today = today
        self.horizon = horizon
        self.calendars = calendars
        self.forecastCase = forecastCase
    }

    /// The days looked at, as a half-open range.
    public var days: DayRange { DayRange(today, horizon.advanced(by: 1)) }
}

/// How far ahead to look, as asked: a last day (`2026-12-31`, `2026-12` for its last day, or
/// `+N` days, weeks, months or years from today) or a number of days; twelve months by default.
public struct HorizonRequest: Sendable, Equatable {
    public var until: String?
    public var days: Int?

    /// A request for `until` (as typed) or `days` ahead; neither asks for twelve months.
    public init(until: String? = nil, days: Int? = nil) {
        self.until = until
        self.days = days
    }

    /// The last day (inclusive) for `today`.
    /// - Throws: `KitError` naming `until` or `days` when the request is not a day from today
    ///   on, within 100 years.
    public func lastDay(today: Day) throws(KitError) -> Day {
        if let days, until != nil { throw .invalid(.days, value: String(days), reason: "", remedy: .oneOf([.until, .days])) }
        if let days {
            guard days >= 1 else { throw .invalid(.days, value: String(days), reason: "must be at least 1") }
            guard days <= 36_600 else { throw .invalid(.days, value: String(days), reason: "looks further than 100 years") }
            return today.advanced(by: days)
        }
        guard let until else { return today.addingMonths(12) }
        if until.hasPrefix("+") {
            // +90d, +6w, +18m, +30y: that far from today.
            guard let unit = until.last, "dwmy".contains(unit), let count = Int(until.dropFirst().dropLast()), count >= 1 else {
                throw .invalid(.until, value: until, reason: "expected +N with d, w, m or y (+90d, +6w, +18m, +30y)")
            }
            guard count <= (unit == "d" ? 36_600 : unit == "w" ? 5_229 : unit == "m" ? 1_200 : 100) else {
                throw .invalid(.until, value: until, reason: "looks further than 100 years")
            }
            switch unit {
            case "d": return today.advanced(by: count)
            case "w": return today.advanced(by: 7 * count)
            case "m": return today.addingMonths(count)
            default: return today.addingMonths(12 * count)
            }
        }
        let day: Day
        do { day = try Day(parsing: until, monthAs: .endOfMonth) } catch { throw .unreadable(.until, reason: "\(error)") }
        guard day >= today else { throw .invalid(.until, value: until, reason: "is before today \(today)") }
        return day
    }
}
