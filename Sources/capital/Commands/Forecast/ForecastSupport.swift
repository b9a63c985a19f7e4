import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

/// `--until`/`--days`/`--expected`: the horizon and the case of a forecast or an availability answer.
struct HorizonOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The last day to look at (YYYY-MM-DD, YYYY-MM for its last day, or +N followed by d, w, m or y from today: +30y); default 12 months ahead.",
            valueName: "date"))
    var until: String?
    // Unconditional: `--days -5` is a value to refuse in words, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Look this many days ahead instead.", valueName: "n")) var days: Int?
    @Flag(help: "Use expected amounts of ranged schedules instead of the pessimistic ends.") var expected = false
    @OptionGroup var overdueChoice: OverdueOption
    @OptionGroup var rates: RateOptions

    /// Whether `--overdue ignore` was given.
    func ignoresOverdue() throws -> Bool { try overdueChoice.ignoresOverdue() }

    var forecastCase: ForecastCase { expected ? .expected : .pessimistic }

    /// The request these options make.
    var request: HorizonRequest { HorizonRequest(until: until, days: days) }
}

/// `--rate CODE=RATE`, `--rates-ahead FILE`, `--fx-window N`: what an answer assumes about rates
/// beyond the ledger's (issue 19).
struct RateOptions: ParsableArguments {
    @Option(
        name: .customLong("rate"),
        help: ArgumentHelp("What if CODE were worth RATE every day after today (CODE=RATE, repeatable).", valueName: "code=rate"))
    var whatIf: [String] = []
    @Option(help: ArgumentHelp("A rate file: the path assumed after each currency's last known rate.", valueName: "file"), completion: .file())
    var ratesAhead: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Days up to today the pessimistic case looks back: foreign assets at the lowest rate, debts at the highest (default 90).",
            valueName: "days"))
    var fxWindow: Int?

    /// The assumptions these options make for a ledger in `ledger`.
    func assumptions(ledger: Currency) throws -> RateAssumptions {
        var assumptions = RateAssumptions()
        try kit { try assumptions.add(whatIf: whatIf, ledger: ledger) }
        if let fxWindow { try kit { try assumptions.setLookBack(fxWindow) } }
        if let ratesAhead { try kit { try assumptions.readAhead(ratesAhead, ledger: ledger) } }
        return assumptions
    }
}

/// `--overdue count|ignore`: what an answer about the future does with the expected flows before
/// today that are still open.
struct OverdueOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Expected flows before today still open: count them today, saying so on stderr (count, the default), or leave them out (ignore).",
            valueName: "count|ignore"), completion: .list(["count", "ignore"]))
    var overdue: String?

    /// Whether `--overdue ignore` was given.
    func ignoresOverdue() throws -> Bool {
        switch overdue {
        case nil, "count": return false
        case "ignore": return true
        case let other?: throw CLIError.invalid("--overdue", other, "expected count or ignore")
        }
    }
}

extension GlobalOptions {
    /// The ledger opened into a projection over the horizon the options ask for.
    /// - Parameter store: the store a command already opened, so that account ids match (a ledger
    ///   file read again with `-f` gets new ids); else the options' store is opened.
    func projection(_ horizon: HorizonOptions, store: Store? = nil) throws -> Projection {
        let store = try store ?? ledgerStore(writing: false)
        let rates = try horizon.rates.assumptions(ledger: try store.currency())
        return try projection(store: store, forecastCase: horizon.forecastCase, ignoringOverdue: try horizon.ignoresOverdue(), rates: rates) {
            today in try kit { try horizon.request.lastDay(today: today) }
        }
    }

    /// The ledger opened into a projection to the last day `horizon` gives for today.
    func projection(
        store: Store? = nil, forecastCase: ForecastCase = .pessimistic, ignoringOverdue: Bool = false, rates: RateAssumptions = RateAssumptions(),
        horizon: (Day) throws -> Day
    ) throws -> Projection {
        let store = try store ?? ledgerStore(writing: false)
        let projection = try kit {
            try Projection(
                store: store, today: try todayDay(), horizon: horizon, forecastCase: forecastCase, ignoringOverdue: ignoringOverdue, rates: rates)
        }
        // Its ledgers, not the projection: the store in it must close (a database's last connection
        // checkpoints its log and removes its -wal and -shm files as it closes).
        UntilExit.keep([projection.stored, projection.ledger])
        return projection
    }

    /// Says on stderr, a line each, what `projection` counts today though it was expected before
    /// (issue 17: never silently) and the rates older than a week it values with (issue 19):
    /// what an answer that writes no JSON (a file, a page, an image) adds after itself.
    func noteCounted(_ projection: Projection) {
        noteOverdue(projection.overdue)
        noteStale(projection.staleRates)
    }

    /// The same for what an account's or a group's outlook counted.
    func noteOverdue(_ overdue: Overdue) {
        guard overdue.count > 0 else { return }
        Console.current.writeError(
            "capital: note: \(overdue.count.counted("expected flow")) before \(overdue.before) \(overdue.count == 1 ? "is" : "are") open "
                + "(net \(overdue.net.minor > 0 ? "+" : "")\(shown(overdue.net)) \(overdue.net.currency.code)), counted today: "
                + "run capital post, record them (capital expected list --overdue), or --overdue ignore\n")
    }
}

/// `--level N` checked against the ladder (the default level when not given).
func checkedLevel(_ level: Int?) throws -> Int {
    let value = level ?? Ladder.defaultLevel
    try kit { try Pool.check(level: value) }
    return value
}

extension GlobalOptions {
    /// Prints an answer from `projection`, its JSON carrying what it counts as overdue, and the
    /// overdue note after it.
    func print(_ report: Report, from projection: Projection) throws {
        try print(report.valued(with: projection.staleRates), counting: projection.overdue)
        noteStale(projection.staleRates)
    }

    /// One line on stderr naming the rates older than a week an answer valued other currencies at.
    func noteStale(_ stale: [StaleRate]) {
        guard !stale.isEmpty else { return }
        let named = stale.map(\.named)
        Console.current.writeError(
            "capital: note: valued with rates older than \(StaleRate.maximumAge) days: \(named.joined(separator: ", ")); import newer ones with capital rate import\n"
        )
    }

    /// Prints a report whose answer counts `overdue` today: JSON carries it, stderr says it.
    func print(_ report: Report, counting overdue: Overdue?) throws {
        guard let overdue else { return try print(report) }
        try print(report.counting(overdue))
        noteOverdue(overdue)
    }
}
