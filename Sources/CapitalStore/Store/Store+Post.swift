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
    /// An expected flow posted, or awaiting approval.
    public struct Item: Sendable {
        public var kind: ExpectedKind
        /// The schedule's name, or the loan's (its account's).
        public var name: String
        /// The day that names the flow (a rule day, a payment's day before adjustment).
        public var key: Day
        /// The day of the transaction.
        public var day: Day
        /// What the transaction moves (minor units): the sum of its positive postings.
        public var amount: Int64
        public var currency: Currency
        /// The transaction created (nil for a dry run or a pending occurrence).
        public var transactionID: String?
    }

    public var posted: [Item] = []
    /// `confirm` occurrences due and not approved: listed until approved.
    public var pending: [Item] = []
}

extension Store {
    /// Turns every expected flow due up to `until` that is still open into a real transaction:
    /// occurrences of `auto` schedules, loan payments, deposits' credits and overdue card paybacks at once, occurrences of `confirm`
    /// schedules only when approved. All or nothing, and never twice (each posted flow is marked
    /// under its schedule or loan and key day).
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
            let ledger = try Store.fetchLedger(db, location: "")
            let calendars = try Store.fetchCalendars(db, for: ledger)
            /// Writes `transaction` for `key` (unless a dry run) and lists it.
            func post(_ transaction: Transaction, _ key: FlowKey, name: String) throws {
                if !dryRun {
                    try Store.insertFlowTransaction(db, transaction, accounts)
                    try Store.mark(db, key, FlowMark(state: .posted, transactionID: transaction.id))
                }
                result.posted.append(
                    .init(
                        kind: key.kind, name: name, key: key.day, day: transaction.day, amount: transaction.amount,
                        currency: transaction.postings[0].amount.currency, transactionID: dryRun ? nil : transaction.id))
            }
            for schedule in ledger.schedules {
                let calendar = calendars[schedule.rule.calendar] ?? .none
                // The same occurrences the forecast counts as due: open ones falling on or before `until`.
                let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
                for occurrence in schedule.openOccurrences(dueBy: until, state: state, calendar: calendar) {
                    var amount = occurrence.amount.expected
                    let key = FlowKey(kind: .schedule, instrumentID: schedule.id, day: occurrence.original)
                    if schedule.approval == .confirm {
                        guard let index = approvalsBySchedule[schedule.id]?.firstIndex(where: { $0.0.day == occurrence.day && !$0.used }) else {
                            let size = Transaction(id: "", day: occurrence.day, postings: occurrence.postings).amount
                            result.pending.append(
                                .init(
                                    kind: .schedule, name: schedule.name, key: occurrence.original, day: occurrence.day, amount: size,
                                    currency: schedule.currency, transactionID: nil))
                            continue
                        }
                        let approval = approvalsBySchedule[schedule.id]![index].0
                        approvalsBySchedule[schedule.id]![index].used = true
                        if let text = approval.amount {
                            let model: AmountModel
                            do {
                                model = try Store.amountModel(text, expected: nil, currency: schedule.currency, field: "{approve}")
                            } catch StoreError.malformed(_, _, let reason) {
                                throw StoreError.malformed(field: "{approve}", value: approval.field, reason: reason)
                            }
                            guard model.isFixed else {
                                throw StoreError.malformed(
                                    field: "{approve}", value: approval.field,
                                    reason: "approve with one amount, not the range '\(FieldKeys.literal(text))'")
                            }
                            amount = model.expected
                        }
                    }
                    let transaction = Transaction(
                        id: Store.flowTransactionID(key), day: occurrence.day, payee: schedule.name, note: schedule.note,
                        tags: [], postings: schedule.postings(for: amount))
                    try post(transaction, key, name: schedule.name)
                }
            }
            // Loan payments and deposits' credits: every open one whose day has come.
            let names = Dictionary(ledger.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            var instrumentNames = Dictionary(ledger.loans.map { ($0.id, names[$0.accountID] ?? $0.id) }, uniquingKeysWith: { a, _ in a })
            for deposit in ledger.deposits { instrumentNames[deposit.id] = names[deposit.accountID] ?? deposit.id }
            let flows: [ExpectedFlow]
            // One that never said how far its history goes has what fell before today made.
            let ahead = until.advanced(by: 1)
            do {
                flows = try ledger.expectedFlows(in: DayRange(Day(Int.min / 4), ahead), today: ahead, calendars: calendars, kinds: [.loan, .deposit])
            } catch let error as InstrumentError { throw StoreError.invalid(field: "loan", value: "", reason: error.template) }
            // A deposit's credits follow one another: each is posted with the ones before it.
            for flow in flows where flow.isOpen {
                let key = FlowKey(flow)
                if flow.isRest {
                    // Paid by its transaction, which stands for no payment: no mark.
                    // Derived, so that two devices posting the same rest make one transaction; a
                    // later rest of the same size after it gets its own.
                    var id = DerivedID.uuid("flow/loan-rest/\(flow.instrumentID)/\(flow.key.number)/\(flow.amount)")
                    if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM txn WHERE id = ? AND deleted = 0)", arguments: [id]) == true {
                        id = Store.newID()
                    }
                    let transaction = flow.transaction(id: id)
                    if !dryRun { try Store.insertFlowTransaction(db, transaction, accounts) }
                    result.posted.append(
                        .init(
                            kind: .loan, name: instrumentNames[flow.instrumentID] ?? flow.instrumentID, key: flow.key, day: flow.day,
                            amount: transaction.amount, currency: transaction.postings[0].amount.currency, transactionID: dryRun ? nil : id))
                    continue
                }
                try post(flow.transaction(id: Store.flowTransactionID(key)), key, name: instrumentNames[flow.instrumentID] ?? flow.instrumentID)
            }
            // Card paybacks overdue by `until`: what the card's policy asked and was not paid, on
            // its due day. The card's cycles follow its balance (the transfer pays it); the mark
            // says post wrote it.
            for card in ledger.cards {
                let (_, late, overdue) = ledger.cardCycles(card, today: ahead, horizon: ahead, calendars: calendars)
                guard let late, overdue > 0 else { continue }
                let currency = ledger.accounts.first { $0.id == card.accountID }?.currency ?? ledger.currency
                let key = FlowKey(kind: .card, instrumentID: card.id, day: late.statement)
                let transaction = Transaction(
                    id: Store.flowTransactionID(key), day: late.due, payee: "\(names[card.accountID] ?? "Card") payback",
                    postings: [
                        Posting(accountID: card.accountID, amount: Money(minor: overdue, currency: currency)),
                        Posting(accountID: card.payFromID, amount: Money(minor: -overdue, currency: currency)),
                    ])
                if !dryRun {
                    try Store.insertFlowTransaction(db, transaction, accounts)
                    try Store.mark(db, key, FlowMark(state: .posted, transactionID: transaction.id))
                }
                result.posted.append(
                    .init(
                        kind: .card, name: names[card.accountID] ?? card.id, key: late.statement, day: late.due, amount: overdue, currency: currency,
                        transactionID: dryRun ? nil : transaction.id))
            }
            for (_, entries) in approvalsBySchedule {
                if let unused = entries.first(where: { !$0.used }) {
                    throw StoreError.refused(
                        field: "{approve}", value: unused.0.field,
                        reason: "no occurrence of that schedule awaiting approval is due on \(unused.0.day) (by \(until))", remedy: .dryRunPost)
                }
            }
            result.posted.sort { ($0.day, $0.name) < ($1.day, $1.name) }
            result.pending.sort { ($0.day, $0.name) < ($1.day, $1.name) }
            if !dryRun {
                let touched = try Set(
                    result.posted.compactMap(\.transactionID).flatMap { try Store.resolveTransaction(db, $0).postings.map(\.accountID) })
                try Store.checkBalancesFit(db, accountIDs: touched)
            }
            return result
        }
    }
}

extension Store {
    /// The id of the transaction that posts the expected flow `key`: derived from the flow, so
    /// that two devices posting the same occurrence offline make one transaction when they sync.
    public static func flowTransactionID(_ key: FlowKey) -> String {
        DerivedID.uuid("flow/\(key.kind.rawValue)/\(key.instrumentID)/\(key.day.number)")
    }

    /// Inserts a flow's transaction under its derived id, with derived posting ids. A removed
    /// transaction of the same flow (posted, deleted, posted again) gives its row up first.
    static func insertFlowTransaction(_ db: Database, _ transaction: Transaction, _ accounts: AccountIndex) throws {
        try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ? AND deleted = 1").execute(arguments: [transaction.id])
        try insertTransaction(db, transaction, accounts, derivedPostings: true)
    }
}
