/// What an expected flow comes from.
public enum ExpectedKind: String, CaseIterable, Hashable, Sendable {
    /// An occurrence of a recurring transaction.
    case schedule
    /// A loan's payment or planned prepayment.
    case loan
    /// A bill's or a fine's payment: open while money is left to pay (`due pay` records it), its
    /// key its due day.
    case due
    /// A credit card's payback of a statement (its key the statement day, its day the due day):
    /// what the card's policy asks of what it owes, open until transfers to the card pay it.
    case card
    /// A deposit's interest credited on a capitalisation day (its key), or at maturity its payout
    /// with the last interest.
    case deposit
    /// What a budget's period still expects to be spent (its key the period's first day, its day
    /// that or today): open, or skipped. Spending in the category uses it up; it is never posted
    /// and lapses with its period.
    case budget
}

/// Where an expected flow stands.
public enum ExpectedState: String, CaseIterable, Hashable, Sendable {
    /// Nothing stands for it yet: the forecast counts it (today when its day has passed).
    case open
    /// `post` wrote its transaction.
    case posted
    /// A transaction the user recorded stands for it.
    case settled
    /// It will not happen.
    case skipped
    /// Its day is within the history its schedule, loan or deposit was added with (`handledThrough`):
    /// recorded before capital knew of it, or never to be.
    case handled
}

/// An expected flow: what a schedule or a loan says will move on a day, named by its kind, its
/// schedule or loan, and its `key` day. It is *open* until a transaction stands for it (one `post`
/// wrote, or one the user recorded and said it settles) or it is skipped; the states are kept by
/// the store, the engine sees only which keys are no longer open (`ScheduleState`).
public struct ExpectedFlow: Hashable, Sendable {
    public var kind: ExpectedKind
    /// The schedule's or the loan's id.
    public var instrumentID: String
    /// The day that names it and never moves: a schedule occurrence's rule day, a loan payment's
    /// day before the working-day adjustment.
    public var key: Day
    /// The day the money moves.
    public var day: Day
    /// What `post` writes as the transaction's payee.
    public var payee: String
    /// At the expected amount; they balance.
    public var postings: [Posting]
    /// Whether nothing stands for it yet.
    public var isOpen: Bool
    /// The rest a loan's payments made short left owed (`Ledger.loanRest`): keyed by the first
    /// payment made short, whose mark it does not share; open while owed, and paid by any payment
    /// to the loan that stands for no other (`post` writes one).
    public var isRest = false

    /// What it moves (minor units): the sum of its positive postings.
    public var amount: Int64 { Transaction(id: "", day: day, postings: postings).amount }

    /// The flow as the transaction `post` writes, under `id`.
    public func transaction(id: String, note: String = "") -> Transaction {
        Transaction(id: id, day: day, payee: payee, note: note, postings: postings)
    }
}

extension LedgerLoan {
    /// The postings of a row of the schedule in `currency`: the payment out of the paying
    /// account, the interest to the loan's category, the principal to the liability.
    public func postings(_ row: LoanRow, currency: Currency) -> [Posting] {
        var postings = [Posting(accountID: payFromID, amount: Money(minor: -row.payment, currency: currency))]
        if row.interest != 0 { postings.append(Posting(accountID: interestCategoryID, amount: Money(minor: row.interest, currency: currency))) }
        postings.append(Posting(accountID: accountID, amount: Money(minor: row.principal, currency: currency)))
        return postings
    }

    /// Which of the loan's payments are made in `ledger`: those through `handledThrough` (without
    /// one, those whose day is before `today`), the marked ones, and the prepayments an overpaid
    /// payment made. `rows` are its schedule's.
    public func state(in ledger: Ledger, today: Day, rows: [LoanRow]) -> ScheduleState {
        let handled = handledThrough ?? rows.last { $0.day < today }?.original ?? terms.start.advanced(by: -1)
        var made = ledger.flowMarks[id] ?? []
        if !payments.isEmpty { for index in rows.indices where isExcess(rows, index) { made.insert(rows[index].original) } }
        return ScheduleState(handledThrough: handled, posted: made)
    }
}

extension Ledger {
    /// The expected flows of schedules, loans, deposits, dues and cards (of `kinds`) whose day
    /// falls in `range`, made or open, in day order (then kind, then key); a card's are its
    /// paybacks still to make seen from `today` (its cycles are worked out from its balance, not
    /// kept). Loans' days are their schedules' (each loan on its calendar); `today` decides which
    /// payments of a loan or credits of a deposit without `handledThrough` are made.
    /// - Throws: `InstrumentError` for a loan whose terms give no schedule.
    /// - Complexity: O(occurrences in range + Σ loan rows + Σ deposit periods).
    public func expectedFlows(
        in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar], kinds: Set<ExpectedKind> = Set(ExpectedKind.allCases)
    ) throws(InstrumentError) -> [ExpectedFlow] {
        var flows: [ExpectedFlow] = []
        for schedule in schedules where kinds.contains(.schedule) {
            let state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            for occurrence in schedule.occurrences(in: range, calendar: calendars[schedule.rule.calendar] ?? .none) {
                flows.append(
                    ExpectedFlow(
                        kind: .schedule, instrumentID: schedule.id, key: occurrence.original, day: occurrence.day, payee: schedule.name,
                        postings: occurrence.postings, isOpen: state.isOpen(occurrence.original)))
            }
        }
        for loan in loans where kinds.contains(.loan) {
            guard let account = accounts.first(where: { $0.id == loan.accountID }) else { continue }
            let rows = try loanRows(loan, calendars: calendars)
            let state = loan.state(in: self, today: today, rows: rows)
            for row in rows where range.contains(row.day) {
                flows.append(loanFlow(loan, account: account, row: row, isOpen: state.isOpen(row.original)))
            }
            if let rest = loanRest(loan, rows: rows, state: state), range.contains(rest.since) {
                flows.append(
                    ExpectedFlow(
                        kind: .loan, instrumentID: loan.id, key: rest.key, day: rest.since, payee: rest.payee(account.name),
                        postings: rest.postings(loan, currency: account.currency), isOpen: true, isRest: true))
            }
        }
        // Cards pay back what the forecast pays: the spending budgets and bills expect on them too.
        let spending = kinds.contains(.card) ? withExpectedSpending(today: today, horizon: range.end.advanced(by: -1), calendars: calendars) : self
        for card in cards where kinds.contains(.card) {
            // The paybacks still to make: the overdue one, then each due day from today on.
            guard let account = accounts.first(where: { $0.id == card.accountID }) else { continue }
            let (cycles, late, overdue) = spending.cardCycles(
                card, today: today, horizon: max(today, range.end.advanced(by: -1)), calendars: calendars)
            func payback(_ cycle: CardCycle, _ amount: Int64, isOpen: Bool = true) -> ExpectedFlow {
                ExpectedFlow(
                    kind: .card, instrumentID: card.id, key: cycle.statement, day: cycle.due, payee: "\(account.name) payback",
                    postings: [
                        Posting(accountID: card.accountID, amount: Money(minor: amount, currency: account.currency)),
                        Posting(accountID: card.payFromID, amount: Money(minor: -amount, currency: account.currency)),
                    ], isOpen: isOpen)
            }
            if let late, overdue > 0, range.contains(late.due) { flows.append(payback(late, overdue)) }
            for cycle in cycles where cycle.due >= today && cycle.payback > 0 && range.contains(cycle.due) {
                flows.append(payback(cycle, cycle.payback))
            }
            // Skipped ones, not open, at what they would have asked.
            for statement in flowMarks[card.id] ?? [] {
                var unmarked = spending
                unmarked.flowMarks[card.id]?.remove(statement)
                let (cycles, late, overdue) = unmarked.cardCycles(
                    card, today: today, horizon: max(today, range.end.advanced(by: -1)), calendars: calendars)
                if let late, late.statement == statement, overdue > 0, range.contains(late.due) {
                    flows.append(payback(late, overdue, isOpen: false))
                } else if let cycle = cycles.first(where: { $0.statement == statement }), cycle.due >= today, cycle.payback > 0,
                    range.contains(cycle.due)
                {
                    flows.append(payback(cycle, cycle.payback, isOpen: false))
                }
            }
        }
        for deposit in deposits where kinds.contains(.deposit) {
            flows += listedDepositFlows(deposit, in: range, today: today, calendars: calendars)
        }
        for budget in budgets where kinds.contains(.budget) {
            flows += listedBudgetFlows(budget, in: range, today: today, calendars: calendars)
        }
        for due in dues where kinds.contains(.due) && range.contains(due.dueDay) {
            // As the forecast pays it: from its account (else the default one) to its category.
            guard let from = due.payFromID ?? defaultAccountID, let category = due.categoryID else { continue }
            let amount = due.status == .fullyPaid ? due.total : due.left
            flows.append(
                ExpectedFlow(
                    kind: .due, instrumentID: due.id, key: due.dueDay, day: due.dueDay,
                    payee: "\(due.type == .bill ? "Bill" : "Fine") #\(due.number): \(due.reason)",
                    postings: [
                        Posting(accountID: category, amount: Money(minor: amount, currency: due.currency)),
                        Posting(accountID: from, amount: Money(minor: -amount, currency: due.currency)),
                    ], isOpen: due.status != .fullyPaid))
        }
        flows.sort { ($0.day, $0.kind.rawValue, $0.key.number) < ($1.day, $1.kind.rawValue, $1.key.number) }
        return flows
    }

    /// A loan's schedule rows, on its calendar.
    func loanRows(_ loan: LedgerLoan, calendars: [String: WorkingDayCalendar]) throws(InstrumentError) -> [LoanRow] {
        do { return try loan.schedule(calendar: calendars[loan.calendar] ?? .none).rows } catch {
            throw .loan(name: accounts.first { $0.id == loan.accountID }?.name ?? loan.id, error)
        }
    }

    /// A row of `loan`'s schedule as an expected flow.
    func loanFlow(_ loan: LedgerLoan, account: Account, row: LoanRow, isOpen: Bool) -> ExpectedFlow {
        ExpectedFlow(
            kind: .loan, instrumentID: loan.id, key: row.original, day: row.day,
            payee: row.kind == .payment ? "\(account.name) payment" : "\(account.name) prepayment",
            postings: loan.postings(row, currency: account.currency), isOpen: isOpen)
    }
}

/// What a loan's payments made short left owed: the rest of each posted or settled payment that
/// paid less than planned, less what was paid to the loan since by transactions that stand for no
/// payment. It is owed from the first payment made short (overdue from then) until paid.
public struct LoanRest: Hashable, Sendable {
    /// Minor units owed.
    public var amount: Int64
    /// The part of `amount` that is interest those payments left unpaid.
    public var interest: Int64
    /// The first payment made short: its key day and the day it was due.
    public var key: Day
    public var since: Day

    /// `Mortgage payment: rest owed since 2025-05-05`: what `post` writes as the payee.
    public func payee(_ name: String) -> String { "\(name) payment: rest owed since \(since)" }

    /// The rest out of the paying account: its unpaid interest to the loan's category, the remainder to the loan.
    public func postings(_ loan: LedgerLoan, currency: Currency) -> [Posting] {
        var postings = [Posting(accountID: loan.payFromID, amount: Money(minor: -amount, currency: currency))]
        if interest > 0 { postings.append(Posting(accountID: loan.interestCategoryID, amount: Money(minor: interest, currency: currency))) }
        if amount > interest { postings.append(Posting(accountID: loan.accountID, amount: Money(minor: amount - interest, currency: currency))) }
        return postings
    }
}

extension Ledger {
    /// What `loan`'s payments after its history that were paid short of plan (`LedgerLoan.payments`)
    /// still leave owed, with `rows` and `state` its schedule and state; nil when nothing is.
    /// A payment of less than its interest leaves that interest owed too. What was paid to the
    /// loan's account after its history by transactions that stand for none of its payments
    /// (a transfer, `post` of the rest) pays the rest, interest first.
    /// - Complexity: O(rows) when no payment was short; O(rows + transactions) otherwise.
    public func loanRest(_ loan: LedgerLoan, rows: [LoanRow], state: ScheduleState) -> LoanRest? {
        guard !loan.payments.isEmpty else { return nil }
        var owed: Int64 = 0
        var unpaidInterest: Int64 = 0
        var first: LoanRow?
        for row in rows where row.kind == .payment && row.original > state.handledThrough && !state.isOpen(row.original) {
            guard let paid = loan.payments[row.original]?.amount, paid < row.payment else { continue }
            owed = saturatingSum(owed, row.payment - max(paid, 0))
            unpaidInterest = saturatingSum(unpaidInterest, max(0, row.interest - max(paid, 0)))
            if first == nil { first = row }
        }
        guard let first, owed > 0 else { return nil }
        let standing = Set(loan.payments.values.map(\.transactionID))
        let historyEnd = rows.last { $0.original <= state.handledThrough }?.day ?? loan.terms.start
        var paidSince: Int64 = 0
        var interestSince: Int64 = 0
        for transaction in transactions where transaction.day > historyEnd && !standing.contains(transaction.id) {
            guard transaction.postings.contains(where: { $0.accountID == loan.accountID }) else { continue }
            for posting in transaction.postings {
                if posting.accountID == loan.accountID { paidSince = saturatingSum(paidSince, posting.amount.minor) }
                if posting.accountID == loan.interestCategoryID {
                    paidSince = saturatingSum(paidSince, posting.amount.minor)
                    interestSince = saturatingSum(interestSince, posting.amount.minor)
                }
            }
        }
        let amount = owed - paidSince
        guard amount > 0 else { return nil }
        return LoanRest(amount: amount, interest: min(amount, max(0, unpaidInterest - interestSince)), key: first.original, since: first.day)
    }
}

extension Ledger {
    /// The ledger with what was expected before `today` and is still open left out, as if it had
    /// happened: schedules handled through yesterday, loans' payments and deposits' credits before
    /// today made, bills
    /// and fines due before today gone, cards' overdue paybacks not paid. What `--overdue ignore`
    /// answers from.
    /// - Complexity: O(schedules + Σ loan rows + dues).
    public func ignoringOverdue(today: Day, calendars: [String: WorkingDayCalendar]) -> Ledger {
        var result = self
        let yesterday = today.advanced(by: -1)
        for schedule in schedules {
            var state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            let calendar = calendars[schedule.rule.calendar] ?? .none
            // Rule days before today, and those adjusted or moved to before today.
            for occurrence in schedule.openOccurrences(dueBy: yesterday, state: state, calendar: calendar) {
                state.posted.insert(occurrence.original)
            }
            state.handledThrough = max(state.handledThrough, yesterday)
            // An occurrence whose rule day has passed but that falls today or later is still to come.
            for occurrence in schedule.occurrences(in: DayRange(today, today.advanced(by: WorkingDayCalendar.searchLimit + 1)), calendar: calendar)
            where occurrence.original < today && state.posted.contains(occurrence.original) == false {
                state.handledThrough = min(state.handledThrough, occurrence.original.advanced(by: -1))
            }
            result.scheduleStates[schedule.id] = state
        }
        for (index, loan) in loans.enumerated() {
            guard let rows = try? loanRows(loan, calendars: calendars) else { continue }
            for row in rows where row.day < today {
                result.flowMarks[loan.id, default: []].insert(row.original)
                // A payment made short before today leaves no rest: as if paid as planned.
                if row.kind == .payment, let paid = loan.payments[row.original], paid.amount < row.payment {
                    result.loans[index].payments[row.original] = nil
                }
            }
        }
        for deposit in deposits {
            let flows = depositFlows(deposit, today: today, horizon: yesterday, calendars: calendars, made: flowMarks[deposit.id] ?? [])
            for flow in flows where flow.isOpen { result.flowMarks[deposit.id, default: []].insert(flow.key) }
        }
        result.dues = dues.filter { $0.dueDay >= today || $0.status == .fullyPaid }
        result.ignoresOverduePaybacks = true
        return result
    }
}

extension Ledger {
    /// A budget's periods from the current one on whose flow day (the period's start, or today in
    /// the current one) falls in `range`: each what the period still expects (0 when spending and
    /// schedules use it all), as one flow from its paying account to its category; open, or not
    /// when skipped.
    /// - Complexity: that of `budgetSpending` to the end of the last period in `range`.
    func listedBudgetFlows(_ budget: Budget, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar]) -> [ExpectedFlow] {
        guard let from = budget.payFromID ?? defaultAccountID, let category = accounts.first(where: { $0.id == budget.categoryID }),
            range.end > today
        else { return [] }
        let last = Budget.period(budget.period, containing: range.end.advanced(by: -1)).end.advanced(by: -1)
        var sums: [Day: Int64] = [:]
        for (day, amount) in budgetSpending(budget, today: today, horizon: last, calendars: calendars) {
            let start = Budget.period(budget.period, containing: day).start
            sums[start] = saturatingSum(sums[start, default: 0], amount)
        }
        let skipped = flowMarks[budget.id] ?? []
        var flows: [ExpectedFlow] = []
        var period = Budget.period(budget.period, containing: max(today, budget.start))
        while period.start <= last {
            let day = max(period.start, today)
            if range.contains(day) {
                let amount = sums[period.start] ?? 0
                flows.append(
                    ExpectedFlow(
                        kind: .budget, instrumentID: budget.id, key: period.start, day: day, payee: "Budget: \(category.name)",
                        postings: [
                            Posting(accountID: category.id, amount: Money(minor: amount, currency: category.currency)),
                            Posting(accountID: from, amount: Money(minor: -amount, currency: category.currency)),
                        ], isOpen: !skipped.contains(period.start)))
            }
            period = Budget.period(budget.period, containing: period.end)
        }
        return flows
    }
}
