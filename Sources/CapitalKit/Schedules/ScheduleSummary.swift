import CapitalCore
import CapitalStore

/// A schedule at a glance: its next occurrence from today and what it moves a month on average.
public struct ScheduleSummary: Sendable {
    public let schedule: Schedule
    /// The first occurrence from today on (within ten years), if any.
    public let next: Day?
    /// What its occurrences of the coming twelve months move, divided by 12 (minor units).
    public let monthly: Int64
}

extension Store {
    /// Every schedule of the ledger, in its order, at a glance from `today`.
    /// - Throws: `StoreError` when the ledger or a calendar cannot be read.
    public func scheduleSummaries(today: Day) throws -> (ledger: Ledger, schedules: [ScheduleSummary]) {
        let ledger = try snapshot(asOf: [today])
        let summaries = try ledger.schedules.map { schedule in
            let calendar = try calendar(schedule.rule.calendar)
            let next = schedule.occurrences(in: DayRange(today, today.advanced(by: 3700)), calendar: calendar).first?.day
            var total: Int64 = 0
            for occurrence in schedule.occurrences(in: DayRange(today, today.addingMonths(12)), calendar: calendar) {
                total = total.addingReportingOverflow(Transaction.amount(of: occurrence.postings)).partialValue
            }
            return ScheduleSummary(schedule: schedule, next: next, monthly: total / 12)
        }
        return (ledger, summaries)
    }
}

/// A schedule as its screen shows it: its next occurrences from today, each with what it moves
/// and why it falls where it does.
public struct ScheduleDetail: Sendable {
    public let schedule: Schedule
    /// The calendar it follows (`RU`, `none`), and whether that is the ledger's, followed
    /// whatever `calendar use` sets, rather than its own.
    public let calendar: String
    public let followsLedgerCalendar: Bool
    /// The names of the accounts, by id, for its postings.
    public let accountNames: [String: String]
    public let occurrences: [Upcoming]

    /// One occurrence ahead.
    public struct Upcoming: Sendable {
        public let occurrence: ScheduleOccurrence
        /// What it moves at its expected amount, and at the low and high ends of a range (a
        /// split, which has no amount model, moves exactly its size).
        public let size: Int64
        public let low: Int64
        public let high: Int64
        /// Why it is not on its rule's day with its rule's amount: moved, amount changed,
        /// adjusted to the calendar, or nil.
        public let change: Change?
    }

    /// How an occurrence departs from its rule.
    public enum Change: String, Sendable {
        case moved
        case amountChanged = "amount changed"
        case adjusted
    }
}

extension Store {
    /// The schedule `reference` names (a name or an id prefix) with its next `count` occurrences
    /// from `today` (looking at most a hundred years ahead).
    /// - Throws: `StoreError` when there is no such schedule or its calendar cannot be read.
    public func scheduleDetail(_ reference: String, today: Day, next count: Int) throws -> ScheduleDetail {
        let schedule = try schedule(reference)
        let calendar = try calendar(schedule.rule.calendar)
        let names = Dictionary(try accounts(includeHidden: true).map { ($0.id, $0.name) }) { first, _ in first }
        var occurrences: [ScheduleOccurrence] = []
        var from = today
        while occurrences.count < count && from < today.advanced(by: 36_600) {
            occurrences += schedule.occurrences(in: DayRange(from, from.advanced(by: 366)), calendar: calendar)
            from = from.advanced(by: 366)
        }
        let upcoming = occurrences.prefix(count).map { occurrence in
            let size = Transaction.amount(of: occurrence.postings)
            let exception = schedule.exceptions.first { $0.original == occurrence.original }
            let change: ScheduleDetail.Change? =
                exception?.movedTo != nil
                ? .moved : exception?.amount != nil ? .amountChanged : occurrence.day != occurrence.original ? .adjusted : nil
            return ScheduleDetail.Upcoming(
                occurrence: occurrence, size: size, low: schedule.amount == nil ? size : occurrence.amount.low,
                high: schedule.amount == nil ? size : occurrence.amount.high, change: change)
        }
        return ScheduleDetail(
            schedule: schedule, calendar: calendar.name, followsLedgerCalendar: schedule.rule.calendar == Rule.ledgerCalendar, accountNames: names,
            occurrences: upcoming)
    }
}
