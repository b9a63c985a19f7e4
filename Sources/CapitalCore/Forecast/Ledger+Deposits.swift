extension LedgerDeposit {
    /// The last day whose credits are history: `handledThrough`, or without one the day before `today`.
    public func handled(today: Day) -> Day { handledThrough ?? today.advanced(by: -1) }
}

extension Ledger {
    /// What a deposit credits through `horizon`, as expected flows keyed by capitalisation day: its
    /// interest (into the deposit from its category), and at maturity the payout to its payout
    /// account together with the last interest (one flow: the bank pays out the balance with it).
    ///
    /// The interest follows the deposit account's postings (the recorded and posted credits among
    /// them) and the schedules moving money in or out from `today` on. With `made` (the key days
    /// marked posted, settled or skipped) those are left out: what stands for them is among the
    /// postings. A flow is open (`isOpen`) when its key day is after the deposit's history.
    /// - Complexity: O(postings of the account + occurrences into it + capitalisation periods).
    /// With `before`, only postings dated before it count (what a marked flow would have credited,
    /// without the transaction that stands for it).
    func depositFlows(
        _ deposit: LedgerDeposit, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], made: Set<Day>, before: Day? = nil
    ) -> [ExpectedFlow] {
        guard let account = accounts.first(where: { $0.id == deposit.accountID }) else { return [] }
        var flows = accountFlows(deposit.accountID, from: Day(Int.min / 4), today: today, horizon: horizon, calendars: calendars)
        if let before { flows.removeAll { $0.day >= before } }
        let handled = deposit.handled(today: today)
        func money(_ minor: Int64) -> Money { Money(minor: minor, currency: account.currency) }
        var result: [ExpectedFlow] = []
        for event in deposit.terms.events(flows: flows, through: horizon, made: made) {
            switch event.kind {
            case .interest:
                result.append(
                    ExpectedFlow(
                        kind: .deposit, instrumentID: deposit.id, key: event.day, day: event.day, payee: "\(account.name) interest",
                        postings: [
                            Posting(accountID: deposit.accountID, amount: money(event.amount)),
                            Posting(accountID: deposit.interestCategoryID, amount: money(-event.amount)),
                        ], isOpen: event.day > handled))
            case .payout:
                guard let payout = deposit.payoutID else { continue }
                // The last interest, credited the same day, is paid out with the balance.
                var interest: Int64 = 0
                if let last = result.last, last.key == event.day {
                    interest = last.amount
                    result.removeLast()
                }
                var postings = [Posting(accountID: payout, amount: money(event.amount))]
                if event.amount != interest { postings.append(Posting(accountID: deposit.accountID, amount: money(interest - event.amount))) }
                if interest != 0 { postings.append(Posting(accountID: deposit.interestCategoryID, amount: money(-interest))) }
                result.append(
                    ExpectedFlow(
                        kind: .deposit, instrumentID: deposit.id, key: event.day, day: event.day, payee: "\(account.name) paid out",
                        postings: postings, isOpen: event.day > handled))
            }
        }
        return result
    }

    /// The transactions deposits add to a forecast: their history's credits on their days, and
    /// with `expected` the open ones (those whose day has passed today, said "overdue").
    func depositTransactions(
        today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], expected: Bool, origins: inout [String: FlowOrigin]
    ) -> [Transaction] {
        var generated: [Transaction] = []
        for deposit in deposits {
            let flows = depositFlows(deposit, today: today, horizon: horizon, calendars: calendars, made: flowMarks[deposit.id] ?? [])
            for (index, var flow) in flows.enumerated() where expected || !flow.isOpen {
                if flow.isOpen && flow.day < today {
                    flow.day = today
                    flow.payee += " (overdue since \(flow.key))"
                }
                let id = "\(deposit.id)#\(index)"
                origins[id] = .deposit(id: deposit.id)
                generated.append(flow.transaction(id: id))
            }
        }
        return generated
    }

    /// A deposit's flows in `range` for a listing: the open ones and its history's as the forecast
    /// makes them, and each marked one at what it would have credited, not open.
    /// - Complexity: that of `depositFlows`, once and once more for each marked flow in `range`.
    func listedDepositFlows(_ deposit: LedgerDeposit, in range: DayRange, today: Day, calendars: [String: WorkingDayCalendar])
        -> [ExpectedFlow]
    {
        let horizon = max(range.end.advanced(by: -1), today)
        let made = flowMarks[deposit.id] ?? []
        var flows = depositFlows(deposit, today: today, horizon: horizon, calendars: calendars, made: made)
        for key in made where range.contains(key) {
            let unmarked = depositFlows(deposit, today: today, horizon: key, calendars: calendars, made: made.subtracting([key]), before: key)
            guard var flow = unmarked.first(where: { $0.key == key }) else { continue }
            flow.isOpen = false
            flows.append(flow)
        }
        return flows.filter { range.contains($0.day) }
    }
}
