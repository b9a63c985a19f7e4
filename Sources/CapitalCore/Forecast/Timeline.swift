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
    /// An account in another currency could not be valued in the ledger's.
    case valuation(account: String, ValuationError)

    public var description: String {
        switch self {
        case .overflow(let account):
            return "account '\(account)': its forecast balance overflows the largest amount capital can hold"
        case .horizonBeforeToday(let today, let horizon):
            return "the horizon \(horizon) is before today \(today)"
        case .valuation(let account, let error):
            return "account '\(account)': \(error)"
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
    /// The ledger's main currency: level and group sums are in it.
    public let currency: Currency
    /// Values accounts in other currencies in `currency`, day by day (nil when every account is in it).
    public let valuation: Valuation?
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

    /// One account's end-of-day balances in the ledger's currency, today first: an account in
    /// another currency valued each day (`Valuation`), rounded once per day.
    /// - Throws: `TimelineError.valuation` when a day's balance has no rate to be valued at.
    public func value(ofAccountAt account: Int, _ forecastCase: ForecastCase = .expected) throws(TimelineError) -> [Int64] {
        let series = balances(ofAccountAt: account, forecastCase)
        let foreign = accounts[account].currency
        guard foreign != currency else { return Array(series) }
        guard let valuation else { throw .valuation(account: accounts[account].name, .missingRate(currency: foreign, day: today, firstRate: nil)) }
        do { return try valuation.values(series, in: foreign, from: today, forecastCase) } catch {
            throw .valuation(account: accounts[account].name, error)
        }
    }

    /// The sum of several accounts' balances in the ledger's currency, day by day: accounts in
    /// other currencies valued each day (`value(ofAccountAt:)`).
    ///
    /// Each account's series takes the worse end of a range for that account; a ranged transfer
    /// between two of the summed accounts moves nothing out of the sum, so its ends are netted back.
    public func sum(accountsAt indices: [Int], _ forecastCase: ForecastCase = .expected) throws(TimelineError) -> [Int64] {
        var total = try netOfPairs(indices, forecastCase)
        for account in indices {
            let series =
                accounts[account].currency == currency
                ? Array(balances(ofAccountAt: account, forecastCase)) : try value(ofAccountAt: account, forecastCase)
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

    /// The sum of several accounts' balances in their own currency, day by day, unvalued: what
    /// `sum(accountsAt:)` values, for accounts that all hold `currency` (others are left out).
    public func sum(accountsAt indices: [Int], in currency: Currency, _ forecastCase: ForecastCase = .expected) throws(TimelineError) -> [Int64] {
        let members = indices.filter { accounts[$0].currency == currency }
        var total = try netOfPairs(members, forecastCase, valued: false)
        for account in members {
            var i = 0
            for value in balances(ofAccountAt: account, forecastCase) {
                let (sum, overflow) = total[i].addingReportingOverflow(value)
                if overflow { throw .overflow(account: accounts[account].name) }
                total[i] = sum
                i += 1
            }
        }
        return total
    }

    /// The running correction for ranged transfers inside `indices`: the pessimistic series lost
    /// high − low on both sides of each occurrence; the optimistic one gained it. `valued`: in the
    /// ledger's currency (else in the pair's own, for indices of one currency).
    private func netOfPairs(_ indices: [Int], _ forecastCase: ForecastCase, valued: Bool = true) throws(TimelineError) -> [Int64] {
        var correction = [Int64](repeating: 0, count: dayCount)
        guard forecastCase != .expected, !pairs.isEmpty else { return correction }
        let members = Set(indices)
        // Per currency: a transfer's two accounts share one (schedules do not cross currencies).
        var byCurrency: [Currency: [Int64]] = [:]
        for pair in pairs where members.contains(pair.first) && members.contains(pair.second) {
            let pairCurrency = accounts[pair.first].currency
            var daily = byCurrency[pairCurrency] ?? [Int64](repeating: 0, count: dayCount)
            for (day, spread) in zip(pair.days, pair.spreads) {
                let (value, overflow) = daily[Int(day)].addingReportingOverflow(forecastCase == .pessimistic ? spread : -spread)
                if overflow { throw .overflow(account: accounts[pair.first].name) }
                daily[Int(day)] = value
            }
            byCurrency[pairCurrency] = daily
        }
        for (pairCurrency, var daily) in byCurrency {
            var running: Int64 = 0
            for i in daily.indices {
                let (value, overflow) = running.addingReportingOverflow(daily[i])
                if overflow { throw .overflow(account: "a ranged transfer") }
                running = value
                daily[i] = value
            }
            // A correction in another currency is valued at each day's rate (expected case).
            if valued && pairCurrency != currency {
                guard let valuation else {
                    throw .valuation(account: "a ranged transfer", .missingRate(currency: pairCurrency, day: today, firstRate: nil))
                }
                do { daily = try valuation.values(daily[...], in: pairCurrency, from: today, .expected) } catch {
                    throw .valuation(account: "a ranged transfer", error)
                }
            }
            for i in daily.indices {
                let (sum, overflowed) = correction[i].addingReportingOverflow(daily[i])
                if overflowed { throw .overflow(account: "a ranged transfer") }
                correction[i] = sum
            }
        }
        return correction
    }

    /// The accounts of a ladder level, every currency's, with the sum of their floors in the
    /// ledger's currency (a floor in another currency valued at today's rate).
    /// - Throws: `TimelineError.valuation` when a foreign floor has no rate today.
    public func levelAccounts(_ level: Int) throws(TimelineError) -> (indices: [Int], floor: Int64) {
        let indices = accounts.indices.filter { Ladder.includes(accounts[$0], in: level) }
        return (indices, try floor(ofAccountsAt: indices))
    }

    /// The summed floors of several accounts in the ledger's currency: a floor in another
    /// currency valued at today's rate.
    public func floor(ofAccountsAt indices: [Int]) throws(TimelineError) -> Int64 {
        var floor: Int64 = 0
        for index in indices {
            floor = saturatingSum(floor, try valued(accounts[index].floor ?? 0, ofAccountAt: index, on: today))
        }
        return floor
    }

    /// An amount of an account's currency on a day, in the ledger's currency (expected case).
    func valued(_ amount: Int64, ofAccountAt index: Int, on day: Day) throws(TimelineError) -> Int64 {
        let foreign = accounts[index].currency
        if foreign == currency || amount == 0 { return amount }
        guard let valuation else { throw .valuation(account: accounts[index].name, .missingRate(currency: foreign, day: day, firstRate: nil)) }
        do { return try valuation.value(amount, in: foreign, on: day) } catch { throw .valuation(account: accounts[index].name, error) }
    }

    /// Builds the timeline.
    /// - Parameters:
    ///   - calendars: the working-day calendar of each name schedules use.
    /// - Throws: `TimelineError` when a balance overflows or the horizon is before today.
    /// - Parameter lookBack: how many days up to today the pessimistic valuation of accounts in
    ///   other currencies looks back for its lowest and highest rates.
    public static func build(
        _ ledger: Ledger, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], lookBack: Int = Valuation.defaultPessimisticDays
    ) throws(TimelineError) -> Timeline {
        guard horizon >= today else { throw .horizonBeforeToday(today: today, horizon: horizon) }
        let accounts = ledger.accounts.filter { $0.kind.isBalanceSheet && $0.kind != .equity }
        var slot: [String: Int] = [:]
        for (index, account) in accounts.enumerated() { slot[account.id] = index }
        let days = horizon.number - today.number + 1
        var builder = DeltaBuilder(accounts: accounts.count, days: days, today: today)

        // Opening balances (transactions before today) and transactions from today on.
        var opening = [Int64](repeating: 0, count: accounts.count)
        if let summed = ledger.opening {
            precondition(summed.day <= today, "a timeline from before the ledger's opening")
            for (key, value) in summed.balances {
                guard let account = slot[key.accountID], key.currency == accounts[account].currency else { continue }
                opening[account] = value
            }
        }
        // Through the buffer: each transaction's fields read in place, not a copy of it.
        try ledger.transactions.withUnsafeBufferPointer { (transactions) throws(TimelineError) in
            for index in transactions.indices where transactions[index].day <= horizon {
                let day = transactions[index].day
                let cases = ledger.caseAmounts.isEmpty ? nil : ledger.caseAmounts[transactions[index].id]
                for (position, posting) in transactions[index].postings.enumerated() {
                    guard let account = slot[posting.accountID], posting.amount.currency == accounts[account].currency else { continue }
                    if day < today {
                        let (sum, overflow) = opening[account].addingReportingOverflow(posting.amount.minor)
                        if overflow { throw .overflow(account: accounts[account].name) }
                        opening[account] = sum
                    } else {
                        let minor = posting.amount.minor
                        builder.add(
                            minor, account: account, day: day.number - today.number, low: cases?.pessimistic[position] ?? minor,
                            high: cases?.optimistic[position] ?? minor)
                        if builder.overflowed { throw .overflow(account: accounts[account].name) }
                    }
                }
            }
        }
        for (account, value) in opening.enumerated() where value != 0 {
            builder.add(value, account: account, day: 0, low: value, high: value)
            if builder.overflowed { throw .overflow(account: accounts[account].name) }
        }

        // Schedules.
        let tomorrow = today.advanced(by: 1)
        var pairs: [RangedPair] = []
        for schedule in ledger.schedules {
            let calendar = calendars[schedule.rule.calendar] ?? .none
            let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            let legs = Leg.legs(of: schedule, slot: slot, accounts: accounts)
            if legs.isEmpty { continue }
            if schedule.amount != nil && legs.count == 2 {
                pairs.append(RangedPair(schedule, legs: legs, state: state, calendar: calendar, today: today, horizon: horizon))
            }
            // Due on or before today and not posted: today's flows.
            for occurrence in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) {
                builder.add(legs: legs, occurrence: occurrence, schedule: schedule, day: 0)
            }
            if tomorrow <= horizon {
                let future = DayRange(tomorrow, horizon.advanced(by: 1))
                if schedule.exceptions.isEmpty && (schedule.end == nil || schedule.rule.adjustment == .none) {
                    // Straight onto each leg's row: an end bounds the days when nothing moves them.
                    let last = min(horizon, schedule.end ?? horizon)
                    if last >= tomorrow {
                        builder.lay(
                            schedule.rule, start: schedule.start, calendar: calendar, legs: legs, model: schedule.amount,
                            through: last.number - today.number)
                    }
                } else if schedule.exceptions.isEmpty {
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
        let valuation =
            accounts.contains { $0.currency != ledger.currency }
            ? Valuation(rates: ledger.rates, currency: ledger.currency, today: today, through: horizon, pessimisticDays: lookBack) : nil
        return Timeline(
            today: today, horizon: horizon, accounts: accounts, currency: ledger.currency, valuation: valuation, storage: storage, opening: opening,
            pairs: pairs)
    }

    private init(
        today: Day, horizon: Day, accounts: [Account], currency: Currency, valuation: Valuation?, storage: [[Int64]], opening: [Int64],
        pairs: [RangedPair]
    ) {
        self.today = today
        self.horizon = horizon
        self.accounts = accounts
        self.currency = currency
        self.valuation = valuation
        self.storage = storage
        self.opening = opening
        self.pairs = pairs
    }

    /// Ranged schedules between two accounts with series: summed together, their ends cancel.
    let pairs: [RangedPair]

    /// Each account's balance at the end of yesterday: before today's flows.
    public let opening: [Int64]

    /// The summed opening of several accounts in the ledger's currency (another currency's
    /// valued at today's rate, as the day's flows are).
    public func opening(ofAccountsAt indices: [Int]) throws(TimelineError) -> Int64 {
        var sum: Int64 = 0
        for index in indices { sum = saturatingSum(sum, try valued(opening[index], ofAccountAt: index, on: today)) }
        return sum
    }
}

/// A ranged schedule between two accounts with series: the day index and spread (high − low) of
/// each occurrence, so that sums over both accounts can net the range's ends out.
struct RangedPair: Sendable {
    let first: Int
    let second: Int
    var days: [Int32] = []
    var spreads: [Int64] = []

    init(_ schedule: Schedule, legs: [Leg], state: ScheduleState, calendar: WorkingDayCalendar, today: Day, horizon: Day) {
        first = legs[0].account
        second = legs[1].account
        for occurrence in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) {
            days.append(0)
            spreads.append(occurrence.amount.high - occurrence.amount.low)
        }
        let tomorrow = today.advanced(by: 1)
        guard tomorrow <= horizon else { return }
        schedule.forEachOccurrence(in: DayRange(tomorrow, horizon.advanced(by: 1)), calendar: calendar) { _, day, amount in
            days.append(Int32(day.number - today.number))
            spreads.append(amount.high - amount.low)
        }
    }
}

/// `a + b`, held at Int64's bounds instead of wrapping (sums of floors and openings: a wrapped sum
/// would flip an answer's sign).
public func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b > 0 ? .max : .min
}
