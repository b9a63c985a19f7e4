import CapitalCore
import GRDB

/// Reading a long posted history without loading it: the transactions an answer needs listed,
/// the rest summed up from the balance checkpoints (`Checkpoints`) into `Ledger.opening`.
///
/// Listed: every transaction from the first day of the month before the earliest day asked (the
/// last card statement before it and the current budget periods reach back further when they
/// start earlier), and, at any date, every transaction touching a loan, a deposit or an account
/// whose value changes, whose generated flows replay their own history.
enum History {
    /// The first day whose transactions a ledger answering as of `days` lists; nil when it must
    /// list everything.
    static func firstListedDay(of ledger: Ledger, asOf days: [Day]) -> Day? {
        guard let earliest = days.min() else { return nil }
        var first = earliest.startOfMonth.advanced(by: -1).startOfMonth
        for card in ledger.cards {
            first = min(first, card.terms.cyclesStart(today: earliest).startOfMonth)
        }
        for budget in ledger.budgets {
            if let period = budget.period(containing: earliest) { first = min(first, period.start.startOfMonth) }
        }
        return first
    }

    /// Lists the transactions from `first` (a month's first day) and the instruments' whole
    /// history into `ledger`, and sums up the rest.
    /// - Complexity: O(transactions listed + accounts × months), not O(history).
    static func read(_ db: Database, from first: Day, into ledger: inout Ledger) throws {
        let replayed =
            ledger.loans.map(\.accountID) + ledger.deposits.map(\.accountID)
            + ledger.accounts.filter { $0.valueChange != nil }.map(\.id)
        var older: [Transaction] = []
        if !replayed.isEmpty {
            let marks = replayed.map { _ in "?" }.joined(separator: ",")
            older = try Store.fetchTransactions(
                db, where: "AND txn.day < ? AND txn.id IN (SELECT txnId FROM posting WHERE accountId IN (\(marks)))",
                StatementArguments([first.number] + replayed))
        }
        let recent = try Store.fetchTransactions(db, where: "AND txn.day >= ?", [first.number])
        var (balances, postings) = try Checkpoints.balances(db, before: first)
        for transaction in older {
            for posting in transaction.postings {
                let key = BalanceKey(accountID: posting.accountID, currency: posting.amount.currency)
                balances[key] = (balances[key] ?? 0) &- posting.amount.minor
                postings[posting.accountID, default: 0] -= 1
            }
        }
        ledger.transactions = older + recent
        let firstDay = try Int.fetchOne(db.cachedStatement(sql: "SELECT day FROM txn WHERE deleted = 0 ORDER BY day LIMIT 1")).map(Day.init)
        ledger.opening = OpeningBalances(
            day: first, balances: balances.filter { $0.value != 0 }, postings: postings.filter { $0.value != 0 }, firstDay: firstDay)
    }
}
