import ArgumentParser
import CapitalCore
import CapitalStore

/// `--until`/`--days`/`--expected`: the horizon and the case of a forecast or an availability answer.
struct HorizonOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The last day to look at (YYYY-MM-DD, YYYY-MM for its last day, or +N followed by d, w, m or y from today: +30y); default 12 months ahead.",
            valueName: "date"))
    var until: String?
    @Option(help: ArgumentHelp("Look this many days ahead instead.", valueName: "n")) var days: Int?
    @Flag(help: "Use expected amounts of ranged schedules instead of the pessimistic ends.") var expected = false

    var forecastCase: ForecastCase { expected ? .expected : .pessimistic }

    /// The horizon (inclusive) for `today`.
    func horizon(today: Day) throws -> Day {
        if until != nil && days != nil { throw CLIError.invalid("--days", String(days!), "give --until or --days, not both") }
        if let days {
            guard days >= 1 else { throw CLIError.invalid("--days", String(days), "must be at least 1") }
            guard days <= 36_600 else { throw CLIError.invalid("--days", String(days), "looks further than 100 years") }
            return today.advanced(by: days)
        }
        if let until, until.hasPrefix("+") {
            // +90d, +6w, +18m, +30y: that far from today.
            guard let unit = until.last, "dwmy".contains(unit), let count = Int(until.dropFirst().dropLast()), count >= 1 else {
                throw CLIError.invalid("--until", until, "expected +N with d, w, m or y (+90d, +6w, +18m, +30y)")
            }
            guard count <= (unit == "d" ? 36_600 : unit == "w" ? 5_229 : unit == "m" ? 1_200 : 100) else {
                throw CLIError.invalid("--until", until, "looks further than 100 years")
            }
            switch unit {
            case "d": return today.advanced(by: count)
            case "w": return today.advanced(by: 7 * count)
            case "m": return today.addingMonths(count)
            default: return today.addingMonths(12 * count)
            }
        }
        if let until {
            let day = try parseDay(until, field: "--until", monthAs: .endOfMonth)
            guard day >= today else { throw CLIError.invalid("--until", until, "is before today \(today)") }
            return day
        }
        return today.addingMonths(12)
    }
}

/// A ledger with its timeline built: what forecast, can-spend and when work from.
struct Forecast {
    let store: Store
    /// The stored ledger with the transactions its loans, cards and deposits make.
    let ledger: Ledger
    let today: Day
    let timeline: Timeline
    let calendars: [String: WorkingDayCalendar]

    /// - Parameter store: the store a command already opened, so that account ids match (a ledger
    ///   file read again with `-f` gets new ids); else the options' store is opened.
    init(_ global: GlobalOptions, _ horizon: HorizonOptions, store: Store? = nil) throws {
        try self.init(global, store: store) { today in try horizon.horizon(today: today) }
    }

    /// - Parameter horizon: the last day (inclusive) for today, or an error when it is not one.
    init(_ global: GlobalOptions, store: Store? = nil, horizon: (Day) throws -> Day) throws {
        self.store = try store ?? global.ledgerStore(writing: false)
        let stored = try self.store.snapshot()
        today = try global.todayDay()
        let last = try horizon(today)
        calendars = try workingDayCalendars(stored, self.store)
        do {
            ledger = try stored.forecastLedger(today: today, horizon: last, calendars: calendars)
            timeline = try Timeline.build(ledger, today: today, horizon: last, calendars: calendars)
        } catch {
            throw CLIError("forecast: \(error)")
        }
    }

    /// The availability of a ladder level.
    func availability(level: Int, _ forecastCase: ForecastCase) throws -> Availability {
        do { return try Availability(timeline, level: level, forecastCase) } catch { throw CLIError("level \(level): \(error)") }
    }

    func money(_ minor: Int64) -> Money { Money(minor: minor, currency: ledger.currency) }

    /// Flows into the accounts at these timeline indices between two days (inclusive).
    func flows(accounts indices: [Int], from first: Day, through last: Day, _ forecastCase: ForecastCase) -> [FlowEvent] {
        guard first <= last else { return [] }
        let ids = Set(indices.map { timeline.accounts[$0].id })
        return ledger.flows(into: ids, in: DayRange(first, last.advanced(by: 1)), today: today, calendars: calendars, forecastCase)
    }

    /// The inflows and outflows of each day from `first` through `last` (by offset from `first`).
    func flowTotals(accounts indices: [Int], from first: Day, through last: Day, _ forecastCase: ForecastCase) -> (inflow: [Int64], outflow: [Int64]) {
        guard first <= last else { return ([], []) }
        let ids = Set(indices.map { timeline.accounts[$0].id })
        return ledger.flowTotals(into: ids, in: DayRange(first, last.advanced(by: 1)), today: today, calendars: calendars, forecastCase)
    }
}

/// Today's value and the lowest value ahead (for a debt, its largest) of some accounts over the
/// next 12 months at expected amounts: the account and group screens. One account is shown in its
/// own currency; several are summed over those in the ledger's currency.
func outlook(_ global: GlobalOptions, store: Store, accountIDs: [String]) throws -> [(Column, Cell)] {
    let forecast = try Forecast(global, try HorizonOptions.parse([]), store: store)
    let timeline = forecast.timeline
    var indices = accountIDs.compactMap { id in timeline.accounts.firstIndex { $0.id == id } }
    let currency = accountIDs.count == 1 && indices.count == 1 ? timeline.accounts[indices[0]].currency : timeline.currency
    indices = indices.filter { timeline.accounts[$0].currency == currency }
    guard !indices.isEmpty else { return [] }
    let series: [Int64]
    if indices.count == 1 {
        series = Array(timeline.balances(ofAccountAt: indices[0], .expected))
    } else {
        do { series = try timeline.sum(accountsAt: indices, .expected) } catch { throw CLIError("forecast: \(error)") }
    }
    var low = 0
    for i in series.indices where series[i] < series[low] { low = i }
    let debt = series[0] < 0
    return [
        (Column("current", "Today (with today's flows)"), .money(Money(minor: series[0], currency: currency))),
        (Column("forecastLow", debt ? "Largest debt ahead" : "Lowest ahead"), .money(Money(minor: series[low], currency: currency))),
        (Column("forecastLowDay", debt ? "Largest debt on" : "Lowest on"), .day(timeline.day(low))),
        (Column("forecastUntil", "Looking to"), .day(timeline.horizon)),
    ]
}

/// `--level N` checked against the ladder.
func checkedLevel(_ level: Int?) throws -> Int {
    let value = level ?? Ladder.defaultLevel
    guard Ladder.levels.contains(value) else {
        throw CLIError.invalid("--level", String(value), "the answer ladder has levels 1 (cash) to 6 (net)")
    }
    return value
}

/// The working-day calendars a ledger's schedules and loans name.
func workingDayCalendars(_ ledger: Ledger, _ store: Store) throws -> [String: WorkingDayCalendar] {
    var calendars: [String: WorkingDayCalendar] = [:]
    for name in Set(ledger.schedules.map(\.rule.calendar) + ledger.loans.map(\.calendar)) { calendars[name] = try store.calendar(name) }
    return calendars
}

/// The stored ledger with what its instruments make up to `day` (at least today): loans at their
/// scheduled balance, their payments, deposit interest, card paybacks, value changes. What
/// balances as of a day are read from.
func instrumentLedger(_ store: Store, _ global: GlobalOptions, through day: Day) throws -> Ledger {
    let stored = try store.snapshot()
    if stored.loans.isEmpty && stored.cards.isEmpty && stored.deposits.isEmpty && !stored.accounts.contains(where: { $0.valueChange != nil }) {
        return stored
    }
    let today = try global.todayDay()
    do {
        return try stored.forecastLedger(today: today, horizon: max(day, today), calendars: try workingDayCalendars(stored, store), tracking: false)
    } catch let error as InstrumentError { throw CLIError("balance: \(error)") }
}
