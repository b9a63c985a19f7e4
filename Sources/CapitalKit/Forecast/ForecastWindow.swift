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
    /// What-if rates, an assumed path ahead, the pessimistic look-back.
    public var rates = RateAssumptions()

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
        if until.hasPrefix("+") { return try today.counting(until, field: .until) }
        let day: Day
        do { day = try Day(input: until, monthAs: .endOfMonth) } catch { throw .unreadable(.until, reason: "\(error)") }
        guard day >= today else { throw .invalid(.until, value: until, reason: "is before today \(today)") }
        return day
    }
}

extension Day {
    /// The day `text` counts from this one: a sign, a count and a unit of days, weeks, months or
    /// years (`+90d`, `+6w`, `-18m`, `-1y`), at most 100 years away.
    /// - Throws: `KitError.invalid(field)` for text of another form or a count too far.
    public func counting(_ text: String, field: KitError.Field) throws(KitError) -> Day {
        let sign = text.first == "-" ? -1 : 1
        guard let first = text.first, "+-".contains(first), let unit = text.last, "dwmy".contains(unit),
            let count = Int(text.dropFirst().dropLast()), count >= 1
        else {
            let examples = sign < 0 ? "-30d, -2w, -6m, -1y" : "+90d, +6w, +18m, +30y"
            throw .invalid(field, value: text, reason: "expected \(sign < 0 ? "-" : "+")N with d, w, m or y (\(examples))")
        }
        guard count <= (unit == "d" ? 36_600 : unit == "w" ? 5_229 : unit == "m" ? 1_200 : 100) else {
            throw .invalid(field, value: text, reason: "looks further than 100 years")
        }
        let day: Day
        switch unit {
        case "d": day = advanced(by: sign * count)
        case "w": day = advanced(by: sign * 7 * count)
        case "m": day = addingMonths(sign * count)
        default: day = addingMonths(sign * 12 * count)
        }
        guard Day.inputYears.contains(day.civil.year) else {
            throw .invalid(
                field, value: text, reason: "reaches \(day), and the year must be \(Day.inputYears.lowerBound) to \(Day.inputYears.upperBound)")
        }
        return day
    }
}
