import CapitalCore
import Foundation
import GRDB

/// An approval given to `post`: the occurrence of `schedule` on `day`, at `amount` if given.
public struct OccurrenceApproval: Sendable {
    public var schedule: String
    public var day: Day
    public var amount: String?
    /// As the user wrote it (`--approve 3f2a@2025-03-10=450`).
    public var field: String

    public init(schedule: String, day: Day, amount: String?, field: String) {
        self.schedule = schedule
        self.day = day
        self.amount = amount
        self.field = field
    }
}

/// What `post` did, or would do with `--dry-run`.
public struct PostResult: Sendable {
    public struct Item: Sendable {
        public var schedule: Schedule
        public var occurrence: ScheduleOccurrence
        /// The transaction created (nil for a dry run or a pending occurrence).
        public var transactionID: String?
        /// What the transaction moves (minor units): the sum of its positive postings.
        public var amount: Int64
    }

    public var posted: [Item] = []
    /// `confirm` occurrences due and not approved: listed until approved.
    public var pending: [Item] = []
}

extension Store {
    /// Turns every occurrence due up to `until` that has not been posted into a real transaction:
    /// `auto` schedules at once, `confirm` ones only when approved. All or nothing, and never twice
    /// (each posted occurrence is recorded under its schedule and rule day).
    public func post(until: Day, approvals: [OccurrenceApproval], dryRun: Bool) throws(StoreError) -> PostResult {
        try write("posting due occurrences") { db in
            var result = PostResult()
            var approvalsBySchedule: [String: [(OccurrenceApproval, used: Bool)]] = [:]
            for approval in approvals {
                let schedule = try Store.resolveSchedule(db, approval.schedule)
                if schedule.approval == .auto {
                    throw StoreError.invalid(
                        field: "{approve}", value: approval.field,
                        reason: "'\(FieldKeys.literal(schedule.name))' posts by itself (approval auto): nothing to approve")
                }
                approvalsBySchedule[schedule.id, default: []].append((approval, false))
            }
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            for schedule in try Store.fetchSchedules(db) {
                let handled = Day(
                    try Int.fetchOne(db.cachedStatement(sql: "SELECT handledThrough FROM schedule WHERE id = ?"), arguments: [schedule.id]) ?? 0)
                let posted = Set(
                    try Int.fetchAll(db.cachedStatement(sql: "SELECT original FROM postedOccurrence WHERE scheduleId = ?"), arguments: [schedule.id])
                        .map(Day.init))
                let calendar = try Store.workingDayCalendar(db, schedule.rule.calendar)
                // The same occurrences the forecast counts as due: open ones falling on or before `until`.
                let state = ScheduleState(handledThrough: handled, posted: posted)
                for occurrence in schedule.openOccurrences(dueBy: until, state: state, calendar: calendar) {
                    var amount = occurrence.amount.expected
                    if schedule.approval == .confirm {
                        guard let index = approvalsBySchedule[schedule.id]?.firstIndex(where: { $0.0.day == occurrence.day && !$0.used }) else {
                            let size = Transaction(id: "", day: occurrence.day, postings: occurrence.postings).amount
                            result.pending.append(.init(schedule: schedule, occurrence: occurrence, transactionID: nil, amount: size))
                            continue
                        }
                        let approval = approvalsBySchedule[schedule.id]![index].0
                        approvalsBySchedule[schedule.id]![index].used = true
                        if let text = approval.amount {
                            let model: AmountModel
                            do {
                                model = try Store.amountModel(text, expected: nil, currency: schedule.currency, field: "{approve}")
                            } catch StoreError.invalid(_, _, let reason) {
                                throw StoreError.invalid(field: "{approve}", value: approval.field, reason: reason)
                            }
                            guard model.isFixed else {
                                throw StoreError.invalid(
                                    field: "{approve}", value: approval.field,
                                    reason: "approve with one amount, not the range '\(FieldKeys.literal(text))'")
                            }
                            amount = model.expected
                        }
                    }
                    let transaction = Transaction(
                        id: Store.newID(), day: occurrence.day, payee: schedule.name, note: schedule.note,
                        tags: [], postings: schedule.postings(for: amount))
                    if !dryRun {
                        try Store.insertTransaction(db, transaction, accounts)
                        try db.execute(
                            sql: "INSERT INTO postedOccurrence(scheduleId, original, txnId) VALUES (?, ?, ?)",
                            arguments: [schedule.id, occurrence.original.number, transaction.id])
                    }
                    result.posted.append(
                        .init(schedule: schedule, occurrence: occurrence, transactionID: dryRun ? nil : transaction.id, amount: transaction.amount))
                }
            }
            for (_, entries) in approvalsBySchedule {
                if let unused = entries.first(where: { !$0.used }) {
                    throw StoreError.refused(
                        field: "{approve}", value: unused.0.field,
                        reason: "no occurrence of that schedule awaiting approval is due on \(unused.0.day) (by \(until))", remedy: .dryRunPost)
                }
            }
            result.posted.sort { ($0.occurrence.day, $0.schedule.name) < ($1.occurrence.day, $1.schedule.name) }
            result.pending.sort { ($0.occurrence.day, $0.schedule.name) < ($1.occurrence.day, $1.schedule.name) }
            if !dryRun {
                try Store.checkBalancesFit(db, accountIDs: Set(result.posted.flatMap { $0.schedule.postings.map(\.accountID) }))
            }
            return result
        }
    }
}
