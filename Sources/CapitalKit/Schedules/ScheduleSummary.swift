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
        let ledger = try snapshot()
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
