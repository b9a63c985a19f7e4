/// Which amounts of ranged schedules a series takes.
public enum ForecastCase: Int, CaseIterable, Sendable {
    /// Each range at its expected value.
    case expected
    /// Outflows at their high end, inflows at their low end: what availability answers use.
    case pessimistic
    /// Outflows low, inflows high.
    case optimistic
}

/// Why a timeline could not be built.
public enum TimelineError: Error, Equatable, Sendable, CustomStringConvertible {
    case overflow(account: String)
    case horizonBeforeToday(today: Day, horizon: Day)

    public var description: String {
        switch self {
        case .overflow(let account):
            return "account '\(account)': its forecast balance overflows the largest amount capital can hold"
        case .horizonBeforeToday(let today, let horizon):
            return "the horizon \(horizon) is before today \(today)"
        }
    }
}

/// End-of-day balances of every balance-sheet account for each day from today to the horizon,
/// as contiguous Int64 arrays, in three cases (expected, pessimistic, optimistic).
///
/// Built from the opening balances (posted transactions up to today), transactions dated later,
/// and every schedule expanded from tomorrow to the horizon. Occurrences due on or before today
/// and not yet posted count as today's flows.
/// - Complexity: O(accounts × days + occurrences) time; 3 × accounts × days × 8 bytes.
public struct Timeline: Sendable {
    public let today: Day
    /// The last day of the timeline (inclusive).
    public let horizon: Day
    /// The accounts with a series, in ledger order: balance-sheet accounts (not categories).
    public let accounts: [Account]
    /// The ledger's main currency: level and group sums add accounts in it only.
    public let currency: Currency
    /// `storage[case][account * dayCount + dayIndex]`.
    private let storage: [[Int64]]

    /// Days from today to the horizon, both included.
    public var dayCount: Int { horizon.number - today.number + 1 }

    /// The day of a day index (0 is today).
    public func day(_ index: Int) -> Day { today.advanced(by: index) }

    /// The day index of a day in the timeline, or nil outside it.
    public func index(of day: Day) -> Int? {
        let index = day.number - today.number
        return index >= 0 && index < dayCount ? index : nil
    }

    /// One account's end-of-day balances, today first.
    public func balances(ofAccountAt account: Int, _ forecastCase: ForecastCase = .expected) -> ArraySlice<Int64> {
        let start = account * dayCount
        return storage[forecastCase.rawValue][start..<start + dayCount]
    }

    /// The sum of several accounts' balances, day by day (accounts in the main currency only).
    public func sum(accountsAt indices: [Int], _ forecastCase: ForecastCase = .expected) throws(TimelineError) -> [Int64] {
        var total = [Int64](repeating: 0, count: dayCount)
        for account in indices where accounts[account].currency == currency {
            let series = balances(ofAccountAt: account, forecastCase)
            var i = 0
            for value in series {
                let (sum, overflow) = total[i].addingReportingOverflow(value)
                if overflow { throw .overflow(account: accounts[account].name) }
                total[i] = sum
                i += 1
            }
        }
        return total
    }

    /// The accounts of a ladder level (main currency), with the sum of their floors.
    public func levelAccounts(_ level: Int) -> (indices: [Int], floor: Int64) {
        var indices: [Int] = []
        var floor: Int64 = 0
        for (index, account) in accounts.enumerated() where account.currency == currency && Ladder.includes(account, in: level) {
            indices.append(index)
            floor = floor.addingReportingOverflow(account.floor ?? 0).partialValue
        }
        return (indices, floor)
    }

    /// Builds the timeline.
    /// - Parameters:
    ///   - calendars: the working-day calendar of each name schedules use.
    /// - Throws: `TimelineError` when a balance overflows or the horizon is before today.
    public static func build(
        _ ledger: Ledger, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]
    ) throws(TimelineError) -> Timeline {
        guard horizon >= today else { throw .horizonBeforeToday(today: today, horizon: horizon) }
        let accounts = ledger.accounts.filter { $0.kind.isBalanceSheet && $0.kind != .equity }
        var slot: [String: Int] = [:]
        for (index, account) in accounts.enumerated() { slot[account.id] = index }
        let days = horizon.number - today.number + 1
        var builder = DeltaBuilder(accounts: accounts.count, days: days)

        // Opening balances (transactions before today) and transactions from today on.
        var opening = [Int64](repeating: 0, count: accounts.count)
        for transaction in ledger.transactions where transaction.day <= horizon {
            for posting in transaction.postings {
                guard let account = slot[posting.accountID], posting.amount.currency == accounts[account].currency else { continue }
                if transaction.day < today {
                    let (sum, overflow) = opening[account].addingReportingOverflow(posting.amount.minor)
                    if overflow { throw .overflow(account: accounts[account].name) }
                    opening[account] = sum
                } else {
                    let minor = posting.amount.minor
                    builder.add(minor, account: account, day: transaction.day.number - today.number, low: minor, high: minor)
                    if builder.overflowed { throw .overflow(account: accounts[account].name) }
                }
            }
        }
        for (account, value) in opening.enumerated() where value != 0 {
            builder.add(value, account: account, day: 0, low: value, high: value)
            if builder.overflowed { throw .overflow(account: accounts[account].name) }
        }

        // Schedules.
        let tomorrow = today.advanced(by: 1)
        for schedule in ledger.schedules {
            let calendar = calendars[schedule.rule.calendar] ?? .none
            let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            let legs = Leg.legs(of: schedule, slot: slot, accounts: accounts)
            if legs.isEmpty { continue }
            // Due on or before today and not posted: today's flows.
            for occurrence in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) {
                builder.add(legs: legs, occurrence: occurrence, schedule: schedule, day: 0)
            }
            if tomorrow <= horizon {
                let future = DayRange(tomorrow, horizon.advanced(by: 1))
                if schedule.exceptions.isEmpty {
                    let end = schedule.end
                    let model = schedule.amount
                    schedule.rule.forEachOccurrence(start: schedule.start, in: future, calendar: calendar) { original, day in
                        if let end, original > end { return }
                        builder.add(legs: legs, model: model, day: day.number - today.number)
                    }
                } else {
                    for occurrence in schedule.occurrences(in: future, calendar: calendar) {
                        builder.add(legs: legs, occurrence: occurrence, schedule: schedule, day: occurrence.day.number - today.number)
                    }
                }
            }
            if builder.overflowed { throw .overflow(account: schedule.name) }
        }

        guard let storage = builder.balances() else {
            throw .overflow(account: builder.overflowAccount.map { accounts[$0].name } ?? "?")
        }
        return Timeline(today: today, horizon: horizon, accounts: accounts, currency: ledger.currency, storage: storage, opening: opening)
    }

    private init(today: Day, horizon: Day, accounts: [Account], currency: Currency, storage: [[Int64]], opening: [Int64]) {
        self.today = today
        self.horizon = horizon
        self.accounts = accounts
        self.currency = currency
        self.storage = storage
        self.opening = opening
    }

    /// Each account's balance at the end of yesterday: before today's flows.
    public let opening: [Int64]

    /// The summed opening of several accounts (main currency only).
    public func opening(ofAccountsAt indices: [Int]) -> Int64 {
        indices.filter { accounts[$0].currency == currency }.reduce(Int64(0)) { $0.addingReportingOverflow(opening[$1]).partialValue }
    }
}

/// One posting of a schedule into an account with a series: its slot and its amount per case.
struct Leg {
    var account: Int
    /// The posting's position in the schedule's template.
    var position: Int
    /// The template amount (expected).
    var amount: Int64
    /// Whether the amount follows the schedule's range (two-posting schedules with an amount model).
    var ranged: Bool
    var outflow: Bool

    static func legs(of schedule: Schedule, slot: [String: Int], accounts: [Account]) -> [Leg] {
        var legs: [Leg] = []
        for (position, posting) in schedule.postings.enumerated() {
            guard let account = slot[posting.accountID], posting.amount.currency == accounts[account].currency else { continue }
            // A ranged schedule moves its amount from its second posting into its first, whatever
            // the template's sign (an expected amount of 0 has none).
            let outflow = schedule.amount != nil && schedule.postings.count == 2 ? position == 1 : posting.amount.minor < 0
            legs.append(Leg(account: account, position: position, amount: posting.amount.minor, ranged: schedule.amount != nil, outflow: outflow))
        }
        return legs
    }
}

/// Per-account day deltas, then prefix sums: the timeline's kernel. Pessimistic and optimistic
/// deltas are kept as corrections to the expected ones, allocated only when a range needs them.
struct DeltaBuilder {
    let accounts: Int
    let days: Int
    var expected: [Int64]
    var pessimistic: [Int64] = []
    var optimistic: [Int64] = []
    var overflowed = false
    var overflowAccount: Int?

    init(accounts: Int, days: Int) {
        self.accounts = accounts
        self.days = days
        expected = [Int64](repeating: 0, count: accounts * days)
    }

    /// Adds an amount with its pessimistic and optimistic variants for an account on a day index.
    mutating func add(_ minor: Int64, account: Int, day: Int, low: Int64, high: Int64) {
        let slot = account * days + day
        let (sum, overflow) = expected[slot].addingReportingOverflow(minor)
        if overflow {
            overflowed = true
            overflowAccount = account
            return
        }
        expected[slot] = sum
        if low != minor || high != minor {
            if pessimistic.isEmpty {
                pessimistic = [Int64](repeating: 0, count: accounts * days)
                optimistic = [Int64](repeating: 0, count: accounts * days)
            }
            // Pessimistic: the worse end for this account (lower), optimistic: the better end.
            let (p, o1) = pessimistic[slot].addingReportingOverflow(low - minor)
            let (q, o2) = optimistic[slot].addingReportingOverflow(high - minor)
            if o1 || o2 {
                overflowed = true
                overflowAccount = account
                return
            }
            pessimistic[slot] = p
            optimistic[slot] = q
        }
    }

    /// Adds one occurrence of a schedule at its template amounts (or its range).
    @inline(__always)
    mutating func add(legs: [Leg], model: AmountModel?, day: Int) {
        for leg in legs {
            if leg.ranged, let model {
                // The template holds +expected / −expected; the range gives the ends.
                let sign: Int64 = leg.outflow ? -1 : 1
                let worse = leg.outflow ? -model.high : model.low
                let better = leg.outflow ? -model.low : model.high
                add(sign * model.expected, account: leg.account, day: day, low: worse, high: better)
            } else {
                add(leg.amount, account: leg.account, day: day, low: leg.amount, high: leg.amount)
            }
        }
    }

    /// Adds one occurrence with exceptions applied (its own amount model).
    mutating func add(legs: [Leg], occurrence: ScheduleOccurrence, schedule: Schedule, day: Int) {
        if schedule.amount != nil {
            add(legs: legs, model: occurrence.amount, day: day)
            return
        }
        // A split: the occurrence's own postings (a re-amounted one changes the first and the last).
        for leg in legs {
            let amount = occurrence.postings[leg.position].amount.minor
            add(amount, account: leg.account, day: day, low: amount, high: amount)
        }
    }

    /// Prefix sums into end-of-day balances per case; nil on overflow.
    mutating func balances() -> [[Int64]]? {
        if overflowed { return nil }
        if let account = DeltaBuilder.prefix(&expected, accounts: accounts, days: days) {
            overflowAccount = account
            return nil
        }
        if pessimistic.isEmpty { return [expected, expected, expected] }
        if let account = DeltaBuilder.prefix(&pessimistic, accounts: accounts, days: days)
            ?? DeltaBuilder.prefix(&optimistic, accounts: accounts, days: days)
        {
            overflowAccount = account
            return nil
        }
        for i in 0..<expected.count {
            let (p, o1) = expected[i].addingReportingOverflow(pessimistic[i])
            let (q, o2) = expected[i].addingReportingOverflow(optimistic[i])
            if o1 || o2 {
                overflowAccount = i / days
                return nil
            }
            pessimistic[i] = p
            optimistic[i] = q
        }
        return [expected, pessimistic, optimistic]
    }

    /// Running sums per account in place; the account that overflows, or nil.
    private static func prefix(_ values: inout [Int64], accounts: Int, days: Int) -> Int? {
        for account in 0..<accounts {
            var running: Int64 = 0
            let base = account * days
            for day in 0..<days {
                let (sum, overflow) = running.addingReportingOverflow(values[base + day])
                if overflow { return account }
                running = sum
                values[base + day] = sum
            }
        }
        return nil
    }
}
