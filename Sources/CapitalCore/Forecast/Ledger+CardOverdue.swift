extension Ledger {
    /// The due day since which `card` is overdue: the first of the due days before `today`, in an
    /// unbroken run ending with the last one, whose statement was not paid as its payback asked
    /// (and not skipped or posted: `flowMarks`). Nil when the last due day before `today` was paid.
    ///
    /// `cardCycles` tells what is overdue from the last due day only; this looks back through the
    /// ledger's whole history (from its opening when it has one), so that a debt left unpaid month
    /// after month is overdue since the first due day it missed, not the latest.
    /// ```swift
    /// // 3 000 spent in March, nothing paid: due 15 May, then 14 June.
    /// ledger.overdueSince(card, today: try Day(iso: "2025-06-20"), calendars: [:])   // 2025-05-15
    /// ```
    /// - Complexity: O(transactions + statements) from the ledger's first day to `today`.
    public func overdueSince(_ card: LedgerCard, today: Day, calendars: [String: WorkingDayCalendar]) -> Day? {
        guard !ignoresOverduePaybacks else { return nil }
        let terms = card.terms
        let from: Day
        if let opening {
            // The first statement on or after the opening: the cycles start where the history does.
            let before = terms.statement(onOrBefore: opening.day)
            from = before >= opening.day ? before : terms.statement(after: opening.day)
        } else {
            guard let first = transactions.lazy.filter({ $0.postings.contains { $0.accountID == card.accountID } }).map(\.day).min() else {
                return nil
            }
            from = terms.statement(onOrBefore: first)
        }
        guard from < today else { return nil }
        var balance: Int64 = opening?.sum(of: card.accountID) ?? 0
        for transaction in transactions where transaction.day < from {
            for posting in transaction.postings where posting.accountID == card.accountID { balance = saturatingSum(balance, posting.amount.minor) }
        }
        let flows = accountFlows(card.accountID, from: from, today: today, horizon: today, calendars: calendars)
        let made = flowMarks[card.id] ?? []
        let cycles = terms.cycles(opening: balance, flows: flows, from: from, today: today, through: today, skipped: made)
        var since: Day?
        for cycle in cycles.reversed() where cycle.due < today {
            guard !made.contains(cycle.statement) else { break }
            let paid = cycle.debt - cycle.carried
            guard min(max(0, terms.payback.amount(for: cycle.debt) - paid), cycle.carried) > 0 else { break }
            since = cycle.due
        }
        return since
    }
}
