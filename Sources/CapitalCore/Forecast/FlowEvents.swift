/// A flow into or out of a set of accounts: a transaction or one schedule occurrence, netted
/// over the set (a transfer between two of its accounts nets to zero and is left out).
public struct FlowEvent: Hashable, Sendable {
    public var day: Day
    public var label: String
    /// The net amount for the set (negative: money leaves it).
    public var amount: Int64
    /// The schedule it comes from, if any.
    public var scheduleID: String?

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
    /// - Complexity: O(transactions + occurrences in the range).
    public func flows(
        into accountIDs: Set<String>, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar],
        _ forecastCase: ForecastCase = .expected
    ) -> [FlowEvent] {
        var events: [FlowEvent] = []
        let currencies = Dictionary(accounts.map { ($0.id, $0.currency) }, uniquingKeysWith: { a, _ in a })
        for transaction in transactions {
            let day = transaction.day
            guard day >= today, range.contains(day) else { continue }
            var net: Int64 = 0
            let cases = caseAmounts.isEmpty ? nil : caseAmounts[transaction.id]
            for (position, posting) in transaction.postings.enumerated()
            where accountIDs.contains(posting.accountID) && currencies[posting.accountID] == posting.amount.currency {
                var amount = posting.amount.minor
                if let cases, forecastCase != .expected { amount = forecastCase == .pessimistic ? cases.pessimistic[position] : cases.optimistic[position] }
                net = net.addingReportingOverflow(amount).partialValue
            }
            if net != 0 { events.append(FlowEvent(day: day, label: transaction.payee.isEmpty ? "transaction" : transaction.payee, amount: net)) }
        }
        let tomorrow = today.advanced(by: 1)
        for schedule in schedules {
            let calendar = calendars[schedule.rule.calendar] ?? .none
            let state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            var occurrences: [(ScheduleOccurrence, Day)] = []
            if range.contains(today) {
                for o in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) { occurrences.append((o, today)) }
            }
            let from = max(range.start, tomorrow)
            if from < range.end {
                for o in schedule.occurrences(in: DayRange(from, range.end), calendar: calendar) { occurrences.append((o, o.day)) }
            }
            // A ranged transfer between two accounts of the set moves nothing out of it, whichever
            // end of the range it takes: no pessimism on a flow that nets out.
            let inside = schedule.postings.filter { accountIDs.contains($0.accountID) && currencies[$0.accountID] == $0.amount.currency }.count
            let netsOut = schedule.amount != nil && schedule.postings.count == 2 && inside == 2
            for (occurrence, day) in occurrences {
                var net: Int64 = 0
                for (position, posting) in occurrence.postings.enumerated()
                where accountIDs.contains(posting.accountID) && currencies[posting.accountID] == posting.amount.currency {
                    var amount = posting.amount.minor
                    if schedule.amount != nil, !netsOut, occurrence.amount.low != occurrence.amount.high {
                        let outflow = schedule.postings.count == 2 ? position == 1 : schedule.postings[position].amount.minor < 0
                        switch forecastCase {
                        case .expected: break
                        case .pessimistic: amount = outflow ? -occurrence.amount.high : occurrence.amount.low
                        case .optimistic: amount = outflow ? -occurrence.amount.low : occurrence.amount.high
                        }
                    }
                    net = net.addingReportingOverflow(amount).partialValue
                }
                if net != 0 { events.append(FlowEvent(day: day, label: schedule.name, amount: net, scheduleID: schedule.id)) }
            }
        }
        events.sort { ($0.day, $0.amount) < ($1.day, $1.amount) }
        return events
    }
}
