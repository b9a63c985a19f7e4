/// "How much can I spend, and when" for one ladder level over a built timeline.
///
/// Levels 1–3 answer with the balance on the day less the floor. Levels 4–6 answer exactly
/// (`SplitAvailability`): the level's accounts other than credit cards with terms form a pool
/// whose lowest balance from the day to the horizon, less its floor, bounds what it can pay; each
/// card is a constraint of its own, its credit paying only for purchases on it, paid back from the
/// pool on the statement's due day (a card paid by a minimum or fixed amount: as its own terms
/// pay it, `CardRepayment`). Without cards that is the pool's suffix minimum, O(1) per question;
/// with them, a split per question in O(cards log cards), and a search for a card paid over time.
public struct Availability: Sendable {
    public let level: Int
    public let forecastCase: ForecastCase
    public let today: Day
    /// The pool's summed floors (reserves never to be spent): at levels 4–6 without the cards.
    public let floor: Int64
    /// The pool's end-of-day balance, today first.
    public let balances: [Int64]
    /// `balances − floor`, day by day.
    public let headroom: [Int64]
    public let suffix: SuffixMinimum
    /// The pool's accounts (indices into the timeline's accounts): at levels 4–6 the level's
    /// accounts less its cards with terms.
    public let accounts: [Int]
    /// The level's cards with terms, each a constraint of its own (levels 4–6 only).
    public let cards: [CardConstraint]
    /// The pool's account a pool part is paid from: the default account when it is in the
    /// pool, else (nil) the pool account with the most room on the day.
    public let defaultAccount: Int?
    let split: SplitAvailability?
    let accountRoom: [[Int64]]

    /// One answer: the amount (never below zero), the day that binds it and the balance there.
    public struct Answer: Hashable, Sendable {
        public var day: Day
        public var amount: Int64
        /// What is missing to reach the floor when the answer is 0 (else 0).
        public var shortfall: Int64
        /// The pool's binding day: its lowest day from `day` on once the split is spent.
        public var bindingDay: Day
        /// The pool's balance on the binding day (before the split is spent).
        public var bindingBalance: Int64
        /// How to pay it (levels 4–6): a part from the pool, then one on each card, their
        /// amounts summing to `amount`. Empty at levels 1–3.
        public var parts: [SpendPart] = []
    }

    /// The availability of ladder `level` over `timeline`: its accounts' summed balance less
    /// their floors; at levels 4–6, `cards` in the ledger's currency counted each on its own.
    /// - Parameters:
    ///   - cards: the ledger's cards with terms (those of the level are split off the pool).
    ///   - defaultAccountID: the account a pool part is paid from when it is in the pool.
    ///   - repayments: by card id, the cycles of the cards paid back by a minimum or fixed
    ///     amount (`Ledger.cardCycleInputs` in the same case, without the cards' own paybacks
    ///     and interest); such a card without them counts no credit.
    /// - Throws: `TimelineError.overflow` when a sum leaves Int64.
    /// - Complexity: O(accounts × days), plus O(days log days) per card and for the pool when
    ///   the level has cards.
    public init(
        _ timeline: Timeline, level: Int, _ forecastCase: ForecastCase = .pessimistic, cards: [LedgerCard] = [],
        defaultAccountID: String? = nil, repayments: [String: CardCycleInputs] = [:]
    ) throws(TimelineError) {
        var (indices, floor) = try timeline.levelAccounts(level)
        var found: [(account: Int, room: [Int64], terms: CreditCard, payFrom: Int?, id: String)] = []
        if Ladder.isForecast(level) {
            for card in cards {
                guard let index = indices.first(where: { timeline.accounts[$0].id == card.accountID }),
                    timeline.accounts[index].currency == timeline.currency
                else { continue }
                indices.removeAll { $0 == index }
                let cardFloor = timeline.accounts[index].floor ?? -card.terms.limit
                var room = Array(timeline.balances(ofAccountAt: index, forecastCase))
                for i in room.indices {
                    let (value, overflow) = room[i].subtractingReportingOverflow(cardFloor)
                    if overflow { throw .overflow(account: timeline.accounts[index].name) }
                    room[i] = value
                }
                found.append((index, room, card.terms, timeline.accounts.firstIndex { $0.id == card.payFromID }, card.id))
            }
            if !found.isEmpty { floor = try timeline.floor(ofAccountsAt: indices) }
        }
        let pool = indices
        let constraints = found.map { card in
            let fromPool = card.payFrom.map(pool.contains) == true
            let repayment = card.terms.payback == .full ? nil : repayments[card.id].map(CardRepayment.init)
            let counting: CardConstraint.Counting =
                card.terms.payback != .full ? (repayment == nil ? .notCounted : .paidOverTime) : fromPool ? .paidFromPool : .paidOutsidePool
            var paying: [Int64]?
            if counting == .paidOutsidePool || (counting == .paidOverTime && !fromPool), let index = card.payFrom,
                timeline.accounts[index].currency == timeline.currency
            {
                let own = timeline.accounts[index].floor ?? 0
                paying = timeline.balances(ofAccountAt: index, forecastCase).map { saturatingSum($0, own == .min ? .max : -own) }
            }
            return CardConstraint(
                account: card.account, headroom: card.room, terms: card.terms, counting: counting, payFrom: card.payFrom, payingRoom: paying,
                repayment: repayment, repaidFromPool: fromPool)
        }
        let balances = try timeline.sum(accountsAt: indices, forecastCase)
        var headroom = balances
        for i in headroom.indices {
            let (value, overflow) = balances[i].subtractingReportingOverflow(floor)
            if overflow { throw .overflow(account: "level \(level)") }
            headroom[i] = value
        }
        self.level = level
        self.forecastCase = forecastCase
        self.today = timeline.today
        self.floor = floor
        self.balances = balances
        self.headroom = headroom
        self.accounts = indices
        self.cards = constraints
        self.suffix = SuffixMinimum(headroom)
        self.defaultAccount = indices.first { timeline.accounts[$0].id == defaultAccountID }
        self.split = constraints.isEmpty ? nil : SplitAvailability(pool: headroom, cards: constraints, today: timeline.today)
        // Each pool account's own room (balance less floor) in its own currency, for naming the
        // account a pool part is paid from: only the ledger's currency's accounts are offered.
        var rooms: [[Int64]] = []
        if Ladder.isForecast(level) && defaultAccount == nil {
            for index in indices {
                guard timeline.accounts[index].currency == timeline.currency else {
                    rooms.append([])
                    continue
                }
                let own = timeline.accounts[index].floor ?? 0
                rooms.append(timeline.balances(ofAccountAt: index, forecastCase).map { saturatingSum($0, own == .min ? .max : -own) })
            }
        }
        self.accountRoom = rooms
    }

    /// The most that can be spent on `day` without the pool going below its floor or a card
    /// past its limit later (levels 4–6), with the split that reaches it; or without the level
    /// going below its floor that day (levels 1–3); nil outside the timeline.
    /// - Complexity: O(1) without cards; O(cards log cards) with them.
    public func canSpend(on day: Day) -> Answer? {
        let index = day.number - today.number
        guard index >= 0 && index < headroom.count else { return nil }
        guard Ladder.isForecast(level) else {
            let value = headroom[index]
            return Answer(day: day, amount: max(0, value), shortfall: Availability.shortfall(value), bindingDay: day, bindingBalance: balances[index])
        }
        if let split {
            let found = split.solve(at: index)
            var parts = found.parts
            if let first = parts.first, !first.isCard { parts[0].account = payingAccount(at: index) }
            return Answer(
                day: day, amount: found.total, shortfall: found.shortfall, bindingDay: today.advanced(by: found.binding),
                bindingBalance: balances[found.binding], parts: parts)
        }
        let value = suffix.values[index]
        let binding = Int(suffix.days[index])
        let part = SpendPart(account: payingAccount(at: index), amount: max(0, value), isCard: false, binding: .pool(today.advanced(by: binding)))
        return Answer(
            day: day, amount: max(0, value), shortfall: Availability.shortfall(value), bindingDay: today.advanced(by: binding),
            bindingBalance: balances[binding], parts: accounts.isEmpty ? [] : [part])
    }

    /// The first day from which `amount` can be spent and stays affordable to the horizon, or nil.
    /// - Complexity: O(log days) without cards; with them the days before the pool alone covers
    ///   `amount`, going back, bounded or solved until one is short (`SplitAvailability.firstIndex`).
    public func firstDay(toSpend amount: Int64) -> Day? {
        if let split, Ladder.isForecast(level) {
            return split.firstIndex(toSpend: amount, poolSuffix: suffix).map { today.advanced(by: $0) }
        }
        return suffix.firstIndex(atLeast: amount).map { today.advanced(by: $0) }
    }

    /// What the horizon's suffix lacks for `amount`: how far the lowest answer at the end falls short.
    public func shortfallAtHorizon(for amount: Int64) -> Int64 {
        // With cards, the last day's answer; a pool short already lacks that too.
        let last =
            split.map { split in
                let solution = split.solve(at: headroom.count - 1)
                return solution.shortfall > 0 ? -solution.shortfall : solution.total
            } ?? suffix.values.last
        guard let last else { return amount }
        return max(0, amount.subtractingReportingOverflow(last).partialValue)
    }

    /// The pool account a pool part on day index `index` (0 is today) is paid from: the default
    /// account when it is in the pool, else the one with the most room that day (-1 for no account).
    public func payingAccount(at index: Int) -> Int {
        if let defaultAccount { return defaultAccount }
        var best: (account: Int, room: Int64)?
        for (position, account) in accounts.enumerated() where position < accountRoom.count && !accountRoom[position].isEmpty {
            let room = accountRoom[position][index]
            if best == nil || room > best!.room { best = (account, room) }
        }
        return best?.account ?? accounts.first ?? -1
    }

    /// What a headroom below zero lacks (0 when it is not below).
    static func shortfall(_ value: Int64) -> Int64 {
        value < 0 ? value.magnitude > UInt64(Int64.max) ? .max : -value : 0
    }
}
