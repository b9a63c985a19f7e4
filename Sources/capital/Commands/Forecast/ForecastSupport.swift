import ArgumentParser
import CapitalCore
import CapitalKit
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

    /// The request these options make.
    var request: HorizonRequest { HorizonRequest(until: until, days: days) }
}

extension GlobalOptions {
    /// The ledger opened into a projection over the horizon the options ask for.
    /// - Parameter store: the store a command already opened, so that account ids match (a ledger
    ///   file read again with `-f` gets new ids); else the options' store is opened.
    func projection(_ horizon: HorizonOptions, store: Store? = nil) throws -> Projection {
        try projection(store: store, forecastCase: horizon.forecastCase) { today in try kit { try horizon.request.lastDay(today: today) } }
    }

    /// The ledger opened into a projection to the last day `horizon` gives for today.
    func projection(store: Store? = nil, forecastCase: ForecastCase = .pessimistic, horizon: (Day) throws -> Day) throws -> Projection {
        let store = try store ?? ledgerStore(writing: false)
        return try kit { try Projection(store: store, today: try todayDay(), horizon: horizon, forecastCase: forecastCase) }
    }
}

/// `--level N` checked against the ladder (the default level when not given).
func checkedLevel(_ level: Int?) throws -> Int {
    let value = level ?? Ladder.defaultLevel
    try kit { try Pool.check(level: value) }
    return value
}
