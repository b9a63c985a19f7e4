/// Why a ledger's instruments could not be laid into a forecast.
public enum InstrumentError: KeyedError, Equatable, Sendable {
    case loan(name: String, LoanError)

    /// The message, its field keys in braces.
    public var template: String {
        switch self {
        case .loan(let name, let error): return "loan '\(FieldKeys.literal(name))': \(error.template)"
        }
    }
}

extension Ledger {
    /// The ledger a forecast works on: the same ledger plus the transactions its instruments make,
    /// each an ordinary dated transaction, so the timeline, the drivers of `--why` and group sums
    /// see them like any other. In this order, each seeing what the ones before made:
    ///
    /// - **Loans**: through the day its history was handled (`loanStates`), the liability account
    ///   follows its schedule (corrections against the equity account); after it, the account holds
    ///   what was posted and settled, like any account. Each open payment is a transaction from the
    ///   paying account, the interest to the loan's category and the principal to the liability:
    ///   on its day from today to the horizon, today when its day has passed (overdue). A loan
    ///   starting after today is paid out on its start day.
    /// - **Assets with a value change**: the monthly changes from their valuation day on, against
    ///   the equity account (those before today make up today's value).
    /// - **Deposits** (`depositTransactions`): interest credited on each capitalisation day from
    ///   the opening on and the payout at maturity; through the deposit's history on their days,
    ///   after it each open one on its day, today when its day has passed (overdue); posted,
    ///   settled and skipped ones are what stands for them. A deposit without a ladder level of
    ///   its own is level 5 when it matures within a year, else 6.
    /// - **Cards**: from the statement before today, the interest charged at each statement and
    ///   the payback on each due day from the paying account (`cardCycles`); a card account
    ///   without a floor gets minus its limit, so level 3 counts the credit left.
    /// - **Dues and budgets** (`trackingTransactions`): the unpaid rest of each bill and fine, and
    ///   the spending budgets expect; before the cards, so what a card pays is paid back.
    ///
    /// With `expected` false — balances as of a day, which hold what happened, not what is
    /// expected — loans' payments and payouts, deposits' open credits, cards' interest and
    /// paybacks, dues and budgets are left out; loans' and deposits' histories and assets' value
    /// changes stay.
    /// - Complexity: O(transactions + occurrences + Σ loan terms + days × (deposits + cards + budgets)).
    public func forecastLedger(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], expected: Bool = true)
        throws(InstrumentError)
        -> Ledger
    {
        let revalued = accounts.filter { $0.valueChange != nil }
        var origins: [String: FlowOrigin] = [:]
        let tracking = expected ? trackingTransactions(today: today, horizon: horizon, calendars: calendars, origins: &origins) : []
        guard !loans.isEmpty || !cards.isEmpty || !deposits.isEmpty || !revalued.isEmpty else {
            var result = adding(tracking)
            result.origins.merge(origins) { _, new in new }
            return result
        }
        var result = self
        result.transactions = try loanTransactions(today: today, horizon: horizon, calendars: calendars, expected: expected, origins: &origins)
        if !revalued.isEmpty { result.add(result.assetTransactions(revalued, horizon: horizon, origins: &origins)) }
        if !deposits.isEmpty {
            result.add(
                result.depositTransactions(today: today, horizon: horizon, calendars: calendars, expected: expected, origins: &origins))
        }
        // Before the cards: a bill or budget paid by card is paid back with the rest.
        result.add(tracking)
        if expected && !cards.isEmpty {
            var generated: [Transaction] = []
            var cases: [String: CaseAmounts] = [:]
            for card in cards {
                let made = result.cardTransactions(card, today: today, horizon: horizon, calendars: calendars)
                for transaction in made.transactions { origins[transaction.id] = .card(id: card.id) }
                generated += made.transactions
                cases.merge(made.cases) { a, _ in a }
            }
            result.add(generated)
            result.caseAmounts.merge(cases) { a, _ in a }
        }
        result.origins.merge(origins) { _, new in new }
        for index in result.accounts.indices {
            let id = result.accounts[index].id
            if let card = cards.first(where: { $0.accountID == id }), result.accounts[index].floor == nil {
                result.accounts[index].floor = -card.terms.limit
            }
            if let deposit = deposits.first(where: { $0.accountID == id }), result.accounts[index].level == nil {
                result.accounts[index].level = deposit.terms.isShortTerm(today: today) ? 5 : 6
            }
        }
        return result
    }

    /// The transactions, with each loan's corrections, payout and open payments merged in (only
    /// the corrections without `expected`).
    private func loanTransactions(
        today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], expected: Bool, origins: inout [String: FlowOrigin]
    ) throws(InstrumentError) -> [Transaction] {
        guard !loans.isEmpty else { return transactions }
        var generated: [Transaction] = []
        let byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Each loan account's postings, by day: its history's schedule overrides them.
        var posted: [String: [(day: Day, amount: Int64)]] = [:]
        let loanAccounts = Set(loans.map(\.accountID))
        // Through the buffer: each transaction's day and postings read in place, not a copy of it.
        transactions.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                for posting in buffer[index].postings where loanAccounts.contains(posting.accountID) {
                    posted[posting.accountID, default: []].append((buffer[index].day, posting.amount.minor))
                }
            }
        }
        for loan in loans {
            guard let account = byID[loan.accountID] else { continue }
            let first = generated.count
            defer { for transaction in generated[first...] { origins[transaction.id] = .loan(id: loan.id) } }
            let rows = try loanRows(loan, calendars: calendars)
            func money(_ minor: Int64) -> Money { Money(minor: minor, currency: account.currency) }
            let terms = loan.terms
            let state = loan.state(in: self, today: today, rows: rows)
            // Through its history the account follows the schedule day by day: on the start day, on
            // each payment day and on each day something was posted to it, it is brought to the
            // schedule's balance (0 before the start). After it, what is posted is what it holds.
            var steps: [(day: Day, balance: Int64)] = []
            // The money lent is history once its day has passed (paid out on it when it is ahead).
            if terms.start < today || terms.start <= state.handledThrough {
                steps.append((terms.start, -terms.principal))
                for row in rows where row.original <= state.handledThrough { steps.append((row.day, -row.balance)) }
            }
            let historyEnd = steps.last?.day ?? Day(Int.min / 4)
            let postedDays = posted[loan.accountID, default: []].map(\.day).filter { $0 <= historyEnd }
            var checkpoints: [(day: Day, balance: Int64)] = []
            var step = 0
            for day in (steps.map(\.day) + postedDays).sorted() where day != checkpoints.last?.day {
                while step < steps.count && steps[step].day <= day { step += 1 }
                checkpoints.append((day, step == 0 ? 0 : steps[step - 1].balance))
            }
            var postings = posted[loan.accountID, default: []][...]
            var level: Int64 = 0
            for (index, checkpoint) in checkpoints.enumerated() {
                while let next = postings.first, next.day <= checkpoint.day {
                    level = saturatingSum(level, next.amount)
                    postings = postings.dropFirst()
                }
                let correction = checkpoint.balance - level
                guard correction != 0 else { continue }
                level = checkpoint.balance
                generated.append(
                    Transaction(
                        id: "\(loan.id)#balance\(index)", day: checkpoint.day, payee: "\(account.name): balance by its schedule",
                        postings: [
                            Posting(accountID: loan.accountID, amount: money(correction)), Posting(accountID: equityID, amount: money(-correction)),
                        ]))
            }
            guard expected else { continue }
            if terms.start >= today && terms.start <= horizon {
                generated.append(
                    Transaction(
                        id: "\(loan.id)#0", day: terms.start, payee: "\(account.name): loan paid out",
                        postings: [
                            Posting(accountID: loan.disburseToID ?? loan.payFromID, amount: money(terms.principal)),
                            Posting(accountID: loan.accountID, amount: money(-terms.principal)),
                        ]))
            }
            for (index, row) in rows.enumerated() where row.day <= horizon && state.isOpen(row.original) {
                var flow = loanFlow(loan, account: account, row: row, isOpen: true)
                if row.day < today {
                    flow.day = today
                    flow.payee += " (overdue since \(row.day))"
                }
                generated.append(flow.transaction(id: "\(loan.id)#\(index + 1)"))
            }
            // What payments made short left owed: paid today, like an overdue payment.
            if today <= horizon, let rest = loanRest(loan, rows: rows, state: state) {
                generated.append(
                    Transaction(
                        id: "\(loan.id)#rest", day: today, payee: rest.payee(account.name), postings: rest.postings(loan, currency: account.currency))
                )
            }
        }
        return adding(generated).transactions
    }

    /// The equity account's id: the other side of corrections and value changes.
    private var equityID: String { accounts.first { $0.kind == .equity }?.id ?? Account.capitalName }

    /// Each revalued asset's monthly value changes through the horizon.
    private func assetTransactions(_ assets: [Account], horizon: Day, origins: inout [String: FlowOrigin]) -> [Transaction] {
        var generated: [Transaction] = []
        for account in assets {
            let first = generated.count
            defer { for transaction in generated[first...] { origins[transaction.id] = .valueChange(accountID: account.id) } }
            guard let change = account.valueChange else { continue }
            // The value from real postings at the end of a day: running sums by day.
            var days: [Day] = []
            var sums: [Int64] = []
            for transaction in transactions {
                for posting in transaction.postings where posting.accountID == account.id && posting.amount.currency == account.currency {
                    if days.last == transaction.day {
                        sums[sums.count - 1] = saturatingSum(sums[sums.count - 1], posting.amount.minor)
                    } else {
                        days.append(transaction.day)
                        sums.append(saturatingSum(sums.last ?? 0, posting.amount.minor))
                    }
                }
            }
            let value = { (day: Day) -> Int64 in
                var low = 0
                var high = days.count
                while low < high {
                    let mid = (low + high) / 2
                    if days[mid] <= day { low = mid + 1 } else { high = mid }
                }
                return low == 0 ? 0 : sums[low - 1]
            }
            // The first day real postings give it a value: one entered after its valuation day counts from that day.
            let valued = sums.firstIndex { $0 > 0 }.map { days[$0] }
            for (index, step) in change.changes(valueAt: value, through: horizon, valuedFrom: valued).enumerated() {
                generated.append(
                    Transaction(
                        id: "\(account.id)#value\(index)", day: step.day, payee: "\(account.name): value change \(change)",
                        postings: [
                            Posting(accountID: account.id, amount: Money(minor: step.amount, currency: account.currency)),
                            Posting(accountID: equityID, amount: Money(minor: -step.amount, currency: account.currency)),
                        ]))
            }
        }
        return generated
    }

    /// The real flows into one account: posted transactions before today one by one, then the
    /// transactions and schedule occurrences (expected amounts) from today to the horizon.
    func accountFlows(
        _ accountID: String, from: Day, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], _ forecastCase: ForecastCase = .expected
    ) -> [DatedAmount] {
        var flows: [DatedAmount] = []
        for transaction in transactions where transaction.day >= from && transaction.day < today {
            var net: Int64 = 0
            for posting in transaction.postings where posting.accountID == accountID { net = saturatingSum(net, posting.amount.minor) }
            if net != 0 { flows.append(DatedAmount(day: transaction.day, amount: net)) }
        }
        if today <= horizon {
            // Only what touches the account: the rest of the ledger need not be expanded.
            var touching = self
            touching.transactions = transactions.filter { $0.day >= today && $0.postings.contains { $0.accountID == accountID } }
            touching.schedules = schedules.filter { $0.postings.contains { $0.accountID == accountID } }
            for event in touching.flows(
                into: [accountID], in: DayRange(max(from, today), horizon.advanced(by: 1)), today: today, calendars: calendars, forecastCase)
            {
                flows.append(DatedAmount(day: event.day, amount: event.amount))
            }
        }
        return flows
    }

    /// A card's statement cycles from the statement before the one before today (the one before
    /// today when the ledger's history starts after it) through the horizon: the debt of each
    /// statement, the interest charged at it, and the payback on its due day; and what is
    /// overdue: the part of the last statement due before today that its policy asked and was not
    /// paid (so a statement paid in part stays overdue after the next statement, until its due day). Overdue amounts count today, like overdue bills: the cycles are those with that
    /// payment made today. Statements whose paybacks are skipped or posted (`flowMarks`) ask
    /// nothing more: a skipped one's debt is carried to the next statement.
    /// The cycles follow the spending of `forecastCase` (ranged schedules at their expected value,
    /// their high end, or their low end).
    public func cardCycles(
        _ card: LedgerCard, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], _ forecastCase: ForecastCase = .expected
    ) -> (cycles: [CardCycle], overdue: CardCycle?, overdueAmount: Int64) {
        let found = cardCycleInputs(card, today: today, horizon: horizon, calendars: calendars, forecastCase)
        return (found.cycles, found.late, found.overdueAmount)
    }

    /// What `cardCycles` runs the card's terms on (with the overdue payment made today when one
    /// is owed), the cycles it gives, and what is overdue: the inputs a purchase on the card is
    /// added to when the exact answer asks what it costs later (`CardRepayment`).
    public func cardCycleInputs(
        _ card: LedgerCard, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], _ forecastCase: ForecastCase = .expected
    ) -> (inputs: CardCycleInputs, cycles: [CardCycle], late: CardCycle?, overdueAmount: Int64) {
        // From the statement before the one before today (when the ledger's history reaches it):
        // a statement not paid by its due day stays overdue after the next statement falls.
        let earlier = card.terms.cyclesStart(today: today)
        let from = (self.opening?.day ?? earlier) <= earlier ? earlier : card.terms.statement(onOrBefore: today.advanced(by: -1))
        precondition(self.opening?.day ?? from <= from, "a card cycle from before the ledger's opening")
        var opening: Int64 = self.opening?.sum(of: card.accountID) ?? 0
        for transaction in transactions where transaction.day < from {
            for posting in transaction.postings where posting.accountID == card.accountID { opening = saturatingSum(opening, posting.amount.minor) }
        }
        let flows = accountFlows(card.accountID, from: from, today: today, horizon: horizon, calendars: calendars, forecastCase)
        // Skipped paybacks (and posted ones: their transfers paid them) are not asked again.
        let made = flowMarks[card.id] ?? []
        var inputs = CardCycleInputs(terms: card.terms, opening: opening, flows: flows, from: from, today: today, through: horizon, skipped: made)
        let cycles = inputs.cycles()
        guard !ignoresOverduePaybacks, let late = cycles.last(where: { $0.due < today }), !made.contains(late.statement) else {
            return (inputs, cycles, nil, 0)
        }
        // Paid since the statement: the debt less what is still carried.
        let paid = late.debt - late.carried
        let overdue = min(max(0, card.terms.payback.amount(for: late.debt) - paid), late.carried)
        guard overdue > 0 else { return (inputs, cycles, nil, 0) }
        inputs.overdue = CardFlow(day: today, amount: overdue)
        return (inputs, inputs.cycles(), late, overdue)
    }

    /// By card id, the cycles of each card paid back by a minimum or fixed amount in a forecast
    /// ledger (`forecastLedger`), in `forecastCase`: what the exact answer runs again with a
    /// purchase on the card (`Availability`'s `repayments`). They are the forecast ledger's
    /// without the card's own paybacks and interest, as the forecast ran them.
    /// - Complexity: O(transactions + the card's flows) per such card.
    public func cardRepayments(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], _ forecastCase: ForecastCase)
        -> [String: CardCycleInputs]
    {
        var found: [String: CardCycleInputs] = [:]
        for card in cards where card.terms.payback != .full {
            var own = self
            own.transactions = transactions.filter { origins[$0.id] != .card(id: card.id) }
            found[card.id] = own.cardCycleInputs(card, today: today, horizon: horizon, calendars: calendars, forecastCase).inputs
        }
        return found
    }

    /// The ledger with what bills, fines and budgets expect to spend to `horizon`
    /// (`trackingTransactions`), as the forecast has it before it pays the cards: the ledger whose
    /// `cardCycles` pay back what the forecast pays (a budget spent on a card is paid back with
    /// the rest). The ledger itself when it has no cards, dues or budgets.
    /// - Complexity: that of `trackingTransactions`, and a merge of what it makes.
    public func withExpectedSpending(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]) -> Ledger {
        guard !cards.isEmpty, !dues.isEmpty || !budgets.isEmpty else { return self }
        return adding(trackingTransactions(today: today, horizon: max(today, horizon), calendars: calendars))
    }

    /// A card's overdue payback today, then each statement's interest and each due day's payback,
    /// with their amounts in each forecast case (the spending they follow differs by case).
    private func cardTransactions(
        _ card: LedgerCard, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]
    ) -> (transactions: [Transaction], cases: [String: CaseAmounts]) {
        guard let account = accounts.first(where: { $0.id == card.accountID }) else { return ([], [:]) }
        let money = { (minor: Int64) in Money(minor: minor, currency: account.currency) }
        var generated: [Transaction] = []
        var cases: [String: CaseAmounts] = [:]
        let (cycles, late, overdue) = cardCycles(card, today: today, horizon: horizon, calendars: calendars)
        if let late, overdue > 0 {
            generated.append(
                Transaction(
                    id: "\(card.id)#overdue\(late.due.number)", day: today, payee: "\(account.name) payback (overdue since \(late.due))",
                    postings: [
                        Posting(accountID: card.accountID, amount: money(overdue)), Posting(accountID: card.payFromID, amount: money(-overdue)),
                    ]))
        }
        let pessimistic = cardCycles(card, today: today, horizon: horizon, calendars: calendars, .pessimistic).cycles
        let optimistic = cardCycles(card, today: today, horizon: horizon, calendars: calendars, .optimistic).cycles
        /// A transfer of `amount` (by case) into `to` from `from`.
        func add(_ id: String, _ day: Day, _ payee: String, to: String, from: String, _ amounts: (Int64, Int64, Int64)) {
            guard amounts.0 > 0 || amounts.1 > 0 || amounts.2 > 0 else { return }
            generated.append(
                Transaction(
                    id: id, day: day, payee: payee,
                    postings: [Posting(accountID: to, amount: money(amounts.0)), Posting(accountID: from, amount: money(-amounts.0))]))
            if amounts.1 != amounts.0 || amounts.2 != amounts.0 {
                cases[id] = CaseAmounts(pessimistic: [amounts.1, -amounts.1], optimistic: [amounts.2, -amounts.2])
            }
        }
        for (index, cycle) in cycles.enumerated() {
            let p = index < pessimistic.count ? pessimistic[index] : cycle
            let o = index < optimistic.count ? optimistic[index] : cycle
            if cycle.statement >= today && cycle.statement <= horizon {
                add(
                    "\(card.id)#interest\(cycle.statement.number)", cycle.statement, "\(account.name) interest", to: card.interestCategoryID,
                    from: card.accountID,
                    (cycle.interest, p.interest, o.interest))
            }
            if cycle.due >= today && cycle.due <= horizon {
                add(
                    "\(card.id)#payback\(cycle.due.number)", cycle.due, "\(account.name) payback", to: card.accountID, from: card.payFromID,
                    (cycle.payback, p.payback, o.payback))
            }
        }
        return (generated, cases)
    }

    /// The ledger with `generated` merged in day order (after the day's own transactions).
    func adding(_ generated: [Transaction]) -> Ledger {
        var result = self
        result.add(generated)
        return result
    }

    /// Merges `generated` in day order (after the day's own transactions), in place: the
    /// transactions before the first day `generated` has stay where they are, so that merging a
    /// year of flows into decades of history rewrites only the few transactions after it, not
    /// every one (a copy of a transaction retains each of its texts and lists). The list is
    /// copied whole only when another ledger shares it (the first merge into a copy of one).
    /// - Complexity: O(transactions before that day, compared by day only + (later transactions + g) log g),
    ///   plus a copy of every transaction when the list is shared.
    mutating func add(_ generated: [Transaction]) {
        guard !generated.isEmpty else { return }
        let extra = generated.enumerated().sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
        // Where the first generated transaction goes: after every transaction up to the first of a later day.
        let first = extra[0].day
        let start = transactions.withUnsafeBufferPointer { buffer in buffer.firstIndex { $0.day > first } ?? buffer.count }
        var merged: [Transaction] = []
        merged.reserveCapacity(transactions.count - start + extra.count)
        var i = 0
        for transaction in transactions[start...] {
            while i < extra.count && extra[i].day < transaction.day {
                merged.append(extra[i])
                i += 1
            }
            merged.append(transaction)
        }
        merged.append(contentsOf: extra[i...])
        transactions.replaceSubrange(start..., with: merged)
    }
}
