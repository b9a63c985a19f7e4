extension Ledger {
    /// The transactions bills, fines and budgets add to a forecast, in no particular order:
    ///
    /// - **Dues**: the unpaid rest of each bill or fine, on its due day from its paying account
    ///   (or the default account) to its category; an overdue one today. Without an account to
    ///   pay from it is left out.
    /// - **Budgets**: what each budget expects (`budgetSpending`), one transaction a day from its
    ///   paying account (or the default account) to its category, but in the periods skipped
    ///   (`flowMarks`, by period start); what was spent, what schedules spend and what bills and
    ///   fines in the category will cost count first, so no money is counted twice.
    /// - Complexity: O(dues + budgets × (transactions + days to the horizon + occurrences of their
    ///   schedules + periods × transactions after today)).
    public func trackingTransactions(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]) -> [Transaction] {
        var origins: [String: FlowOrigin] = [:]
        return trackingTransactions(today: today, horizon: horizon, calendars: calendars, origins: &origins)
    }

    /// The same, with what made each transaction recorded in `origins`.
    func trackingTransactions(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], origins: inout [String: FlowOrigin]) -> [Transaction]
    {
        var generated: [Transaction] = []
        for due in dues where due.status != .fullyPaid {
            guard let from = due.payFromID ?? defaultAccountID, let category = due.categoryID else { continue }
            let day = max(due.dueDay, today)
            guard day <= horizon else { continue }
            let amount = Money(minor: due.left, currency: due.currency)
            let id = "due:\(due.id)"
            origins[id] = .due(id: due.id)
            generated.append(
                Transaction(
                    id: id, day: day, payee: "\(due.type == .bill ? "Bill" : "Fine") #\(due.number): \(due.reason)",
                    postings: [
                        Posting(accountID: from, amount: Money(minor: -due.left, currency: due.currency)),
                        Posting(accountID: category, amount: amount),
                    ]))
        }
        guard !budgets.isEmpty else { return generated }
        let names = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for budget in budgets {
            guard let from = budget.payFromID ?? defaultAccountID, let category = names[budget.categoryID] else { continue }
            let skipped = flowMarks[budget.id] ?? []
            let expected = budgetSpending(budget, today: today, horizon: horizon, calendars: calendars).filter {
                !skipped.contains(Budget.period(budget.period, containing: $0.day).start)
            }
            for (day, amount) in expected {
                let id = "budget:\(budget.id):\(day.number)"
                origins[id] = .budget(id: budget.id)
                generated.append(
                    Transaction(
                        id: id, day: day, payee: "Budget: \(category.name)",
                        postings: [
                            Posting(accountID: from, amount: Money(minor: -amount, currency: category.currency)),
                            Posting(accountID: category.id, amount: Money(minor: amount, currency: category.currency)),
                        ]))
            }
        }
        return generated
    }
    /// What `budget` expects to be spent each day from `today` through `horizon`
    /// (`Budget.expectedSpending`), skipped periods included: what was spent in the current period
    /// counts the category's postings up to today; what schedules spend counts their expected
    /// amounts in the category as the timeline lays them (from today on, occurrences still open
    /// by today count today, posted ones are in what was spent), and transactions recorded for
    /// days after today and the unpaid rest of bills and fines in the category count with them.
    /// - Complexity: O(transactions + days to the horizon + occurrences of its schedules + periods × transactions after today).
    func budgetSpending(_ budget: Budget, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]) -> [(day: Day, amount: Int64)] {
        let categoryID = budget.categoryID
        var spent: Int64 = 0
        // Transactions already recorded for later days: known spending, counted like a schedule's.
        var later: [(day: Day, minor: Int64)] = []
        let current = budget.period(containing: today)
        precondition(current.map { (opening?.day ?? $0.start) <= $0.start } ?? true, "a budget period from before the ledger's opening")
        for transaction in transactions where transaction.day > today || current?.contains(transaction.day) == true {
            for posting in transaction.postings where posting.accountID == categoryID {
                if transaction.day > today { later.append((transaction.day, posting.amount.minor)) } else { spent &+= posting.amount.minor }
            }
        }
        // Bills and fines filed under the category count first too, on the day the forecast pays them.
        for due in dues where due.status != .fullyPaid && due.categoryID == categoryID && (due.payFromID ?? defaultAccountID) != nil {
            later.append((max(due.dueDay, today), due.left))
        }
        let covering = schedules.filter { schedule in schedule.postings.contains { $0.accountID == categoryID } }
        return budget.expectedSpending(today: today, horizon: horizon, spent: spent) { range in
            var sum: Int64 = 0
            for schedule in covering {
                let calendar = calendars[schedule.rule.calendar] ?? .none
                var occurrences: [ScheduleOccurrence]
                if range.contains(today) {
                    // As the timeline counts them: what is open by today (not posted: a posted
                    // one is in `spent`) is today's; from tomorrow on, every occurrence.
                    let state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
                    occurrences = schedule.openOccurrences(dueBy: today, state: state, calendar: calendar)
                    if range.end > today.advanced(by: 1) {
                        occurrences += schedule.occurrences(in: DayRange(today.advanced(by: 1), range.end), calendar: calendar)
                    }
                } else {
                    occurrences = schedule.occurrences(in: range, calendar: calendar)
                }
                for occurrence in occurrences {
                    for posting in occurrence.postings where posting.accountID == categoryID { sum &+= posting.amount.minor }
                }
            }
            for entry in later where range.contains(entry.day) { sum &+= entry.minor }
            return sum
        }
    }
}
