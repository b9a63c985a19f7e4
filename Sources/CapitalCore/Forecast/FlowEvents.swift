/// A flow into or out of a set of accounts: a transaction or one schedule occurrence, netted
/// over the set (a transfer between two of its accounts nets to zero and is left out).
public struct FlowEvent: Hashable, Sendable {
    public var day: Day
    public var label: String
    /// The net amount for the set (negative: money leaves it).
    public var amount: Int64
    /// The schedule it comes from, if any.
    public var scheduleID: String?

    /// A flow of `amount` on `day`, labelled as a person reads it, from a schedule when `scheduleID` is set.
    public init(day: Day, label: String, amount: Int64, scheduleID: String? = nil) {
        self.day = day
        self.label = label
        self.amount = amount
        self.scheduleID = scheduleID
    }
}

extension Ledger {
    /// The flows touching `accountIDs` on days in `range` (today's include overdue, unposted
    /// occurrences), in day order, as the timeline counts them for `forecastCase`.
    /// - Complexity: O(transactions + occurrences in the range + events × log events).
    public func flows(
        into accountIDs: Set<String>, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar],
        _ forecastCase: ForecastCase = .expected
    ) -> [FlowEvent] {
        var events: [FlowEvent] = []
        forEachFlowEvent(into: accountIDs, in: range, today: today, calendars: calendars, forecastCase) { event in events.append(event) }
        events.sort { ($0.day, $0.amount) < ($1.day, $1.amount) }
        return events
    }

    /// Calls `body` with each of the flows `flows` gives, in no particular order but the same on
    /// every call, without keeping them: for answers that need a few of them (the largest, the
    /// first after a day) over a long horizon. Sorting what `body` is given stably by day and
    /// amount gives `flows`' order.
    /// - Parameter wanted: whether a flow of this day and net amount is wanted at all; only
    ///   those are made into events (no label copied for the many a caller would drop).
    /// - Complexity: O(transactions + occurrences in the range), one event at a time.
    public func forEachFlowEvent(
        into accountIDs: Set<String>, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar],
        _ forecastCase: ForecastCase = .expected, where wanted: (Day, Int64) -> Bool = { _, _ in true },
        _ body: (FlowEvent) -> Void
    ) {
        forEachFlow(into: accountIDs, in: range, today: today, calendars: calendars, forecastCase) { day, net, _, transaction, schedule in
            guard wanted(day, net) else { return }
            if let schedule {
                body(FlowEvent(day: day, label: schedule.name, amount: net, scheduleID: schedule.id))
            } else if let transaction {
                body(FlowEvent(day: day, label: transaction.payee.isEmpty ? "transaction" : transaction.payee, amount: net))
            }
        }
    }

    /// What `flows` adds up per day and currency, in one walk: for each currency the set's
    /// accounts hold that something flows in or out of, the inflows and the outflows (negative)
    /// of each day of `range` in that currency, by offset from the range's start. No event is
    /// made: the forecast's periods need only these sums. A schedule without exceptions moves the
    /// set by the same net on each of its days after today: that net is laid straight onto the
    /// inflow or outflow row by `Rule.addAmount`, as the timeline lays its rows.
    /// - Complexity: O(transactions + occurrences in the range + days × currencies), without an
    ///   allocation per occurrence.
    public func flowTotalsByCurrency(
        into accountIDs: Set<String>, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar],
        _ forecastCase: ForecastCase = .expected
    ) -> [(currency: Currency, totals: (inflow: [Int64], outflow: [Int64]))] {
        let zeros = [Int64](repeating: 0, count: max(0, range.count))
        var currencies: [Currency] = []
        var inflows: [[Int64]] = []
        var outflows: [[Int64]] = []
        // A handful of currencies at most: found by a scan, not a hash per flow.
        func row(_ currency: Currency) -> Int {
            if let found = currencies.firstIndex(of: currency) { return found }
            currencies.append(currency)
            inflows.append(zeros)
            outflows.append(zeros)
            return currencies.count - 1
        }
        func add(_ net: Int64, _ currency: Currency, at day: Day) {
            let index = day.number - range.start.number
            let r = row(currency)
            if net > 0 {
                inflows[r][index] = inflows[r][index].addingReportingOverflow(net).partialValue
            } else {
                outflows[r][index] = outflows[r][index].addingReportingOverflow(net).partialValue
            }
        }
        forEachFlow(
            into: accountIDs, in: range, today: today, calendars: calendars, forecastCase,
            laying: { schedule, setNet, future, calendar in
                guard schedule.exceptions.isEmpty else { return false }
                let net = setNet.net(schedule.amount ?? AmountModel(fixed: schedule.postings[0].amount.minor))
                guard net != 0 else { return true }
                // An end bounds the days when no adjustment moves occurrences across it.
                let last =
                    schedule.rule.adjustment == .none ? min(future.end.advanced(by: -1), schedule.end ?? future.end) : future.end.advanced(by: -1)
                guard last >= future.start else { return true }
                if schedule.end == nil || schedule.rule.adjustment == .none {
                    let first = future.start.number - range.start.number
                    let r = row(setNet.currency)
                    func lay(into values: inout [Int64]) -> Bool {
                        values.withUnsafeMutableBufferPointer { row in
                            schedule.rule.addAmount(
                                net, start: schedule.start, calendar: calendar, into: .init(rebasing: row[first...last.number - range.start.number]),
                                firstDay: future.start)
                        }
                    }
                    if net > 0 ? lay(into: &inflows[r]) : lay(into: &outflows[r]) { return true }
                    // An overflowing row is left as it was; add with wrapping, as flow by flow.
                }
                let end = schedule.end
                schedule.rule.forEachOccurrence(start: schedule.start, in: future, calendar: calendar) { original, day in
                    if let end, original > end { return }
                    add(net, setNet.currency, at: day)
                }
                return true
            }
        ) { day, net, currency, _, _ in add(net, currency, at: day) }
        return currencies.indices.map { (currencies[$0], (inflows[$0], outflows[$0])) }
    }

    /// Calls `body` with each flow's day, its net amount for the set (never 0) and that amount's
    /// currency, and the transaction or schedule it comes from, in no particular order. A
    /// transaction moving accounts of the set in two currencies (an exchange) is a flow in each.
    /// - Parameter lay: takes a schedule's occurrences after today (in `future`) off the walk:
    ///   returns true when it has counted them itself.
    func forEachFlow(
        into accountIDs: Set<String>, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar], _ forecastCase: ForecastCase,
        laying lay: ((Schedule, SetNet, _ future: DayRange, WorkingDayCalendar) -> Bool)? = nil,
        _ body: (Day, Int64, Currency, Transaction?, Schedule?) -> Void
    ) {
        let currencies = Dictionary(accounts.map { ($0.id, $0.currency) }, uniquingKeysWith: { a, _ in a })
        for transaction in transactions {
            let day = transaction.day
            guard day >= today, range.contains(day) else { continue }
            var net: Int64 = 0
            var netCurrency: Currency?
            var others: [(currency: Currency, net: Int64)] = []  // an exchange inside the set
            let cases = caseAmounts.isEmpty ? nil : caseAmounts[transaction.id]
            for (position, posting) in transaction.postings.enumerated() where accountIDs.contains(posting.accountID) {
                guard let currency = currencies[posting.accountID], currency == posting.amount.currency else { continue }
                var amount = posting.amount.minor
                if let cases, forecastCase != .expected {
                    amount = forecastCase == .pessimistic ? cases.pessimistic[position] : cases.optimistic[position]
                }
                if netCurrency == nil || netCurrency == currency {
                    netCurrency = currency
                    net = net.addingReportingOverflow(amount).partialValue
                } else if let other = others.firstIndex(where: { $0.currency == currency }) {
                    others[other].net = others[other].net.addingReportingOverflow(amount).partialValue
                } else {
                    others.append((currency, amount))
                }
            }
            if let netCurrency, net != 0 { body(day, net, netCurrency, transaction, nil) }
            for other in others where other.net != 0 { body(day, other.net, other.currency, transaction, nil) }
        }
        let tomorrow = today.advanced(by: 1)
        for schedule in schedules {
            guard let setNet = SetNet(schedule, into: accountIDs, currencies: currencies, forecastCase) else { continue }
            let calendar = calendars[schedule.rule.calendar] ?? .none
            if range.contains(today) {
                let state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
                for occurrence in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) {
                    let amount = setNet.net(occurrence.amount)
                    if amount != 0 { body(today, amount, setNet.currency, nil, schedule) }
                }
            }
            let from = max(range.start, tomorrow)
            if from < range.end {
                let future = DayRange(from, range.end)
                if let lay, lay(schedule, setNet, future, calendar) { continue }
                schedule.forEachOccurrence(in: future, calendar: calendar) { _, day, model in
                    let amount = setNet.net(model)
                    if amount != 0 { body(day, amount, setNet.currency, nil, schedule) }
                }
            }
        }
    }
}

/// How one schedule's occurrences move a set of accounts: which of its template postings count
/// (worked out once), and the set's net of an occurrence.
struct SetNet {
    let schedule: Schedule
    let forecastCase: ForecastCase
    /// Whether each template posting is into the set (its account, in the account's currency).
    let inside: [Bool]
    /// A ranged transfer between two accounts of the set moves nothing out of it, whichever end
    /// of the range it takes: no pessimism on a flow that nets out.
    let netsOut: Bool
    /// The currency of the set's postings (a schedule moves one currency).
    let currency: Currency

    /// Nil when no posting of the schedule is into the set.
    init?(_ schedule: Schedule, into accountIDs: Set<String>, currencies: [String: Currency], _ forecastCase: ForecastCase) {
        inside = schedule.postings.map { accountIDs.contains($0.accountID) && currencies[$0.accountID] == $0.amount.currency }
        guard let first = inside.firstIndex(of: true) else { return nil }
        currency = schedule.postings[first].amount.currency
        self.schedule = schedule
        self.forecastCase = forecastCase
        netsOut = schedule.amount != nil && schedule.postings.count == 2 && inside[0] && inside[1]
    }

    /// The set's net of one occurrence of `model` (the template's postings for its expected
    /// amount, as `Schedule.postings(for:)` makes them, each at its case's end).
    func net(_ model: AmountModel) -> Int64 {
        let minor = model.expected
        let postings = schedule.postings
        var net: Int64 = 0
        for position in postings.indices where inside[position] {
            var amount = postings[position].amount.minor
            if schedule.amount != nil, postings.count == 2 {
                amount = position == 0 ? minor : -minor
            } else if postings[0].amount.minor != minor, postings.count >= 2 {
                let delta = minor.subtractingReportingOverflow(postings[0].amount.minor)
                let last = postings[postings.count - 1].amount.minor.subtractingReportingOverflow(delta.partialValue)
                if !delta.overflow && !last.overflow {
                    if position == 0 { amount = minor } else if position == postings.count - 1 { amount = last.partialValue }
                }
            }
            if schedule.amount != nil, !netsOut, model.low != model.high {
                let outflow = postings.count == 2 ? position == 1 : postings[position].amount.minor < 0
                switch forecastCase {
                case .expected: break
                case .pessimistic: amount = outflow ? -model.high : model.low
                case .optimistic: amount = outflow ? -model.low : model.high
                }
            }
            net = net.addingReportingOverflow(amount).partialValue
        }
        return net
    }
}
