import CapitalCore

/// "How much can I spend on this day" at one ladder level, with its why when asked.
public struct CanSpendAnswer: Sendable {
    public var level: Int
    /// The amount (never below zero), the binding day and the balance there, the shortfall.
    public var answer: Availability.Answer
    /// The level's summed floors.
    public var floor: Int64
    public var why: Why?
    /// When the pool is short (levels 4–6): the smallest top-up that restores the answer.
    public var topUp: TopUp?
    /// The name of each part's account of `answer.parts`, in their order.
    public var payers: [String] = []

    /// How to pay it, in words every front end shows: `24 302.94 from VTB Debit, 62 500.00 on
    /// Tinkoff Card` (parts of nothing left out; empty when every part is nothing).
    public func payWith(_ shown: (Int64) -> String) -> String {
        zip(answer.parts, payers).filter { $0.0.amount > 0 }.map { part, name in
            "\(shown(part.amount)) \(part.isCard ? "on" : "from") \(name)"
        }.joined(separator: ", ")
    }

    /// Why the answer is what it is: the flows that drive the level down to the binding day and
    /// the inflow that lifts it after.
    public struct Why: Sendable {
        /// Levels 1–3 count that day's balance only: no drivers, no relief.
        public var countsThatDayOnly: Bool
        /// At most three, largest first.
        public var drivers: [FlowEvent]
        public var relief: FlowEvent?
        /// The binding day is the horizon: a later one could bind lower.
        public var bindsAtHorizon: Bool
        /// The accounts in other currencies the level holds on the binding day, and the rate
        /// each is valued at there.
        public var currencies: [CurrencyEffect] = []
    }

    /// An account in another currency counted in an answer: its balance on the binding day, the
    /// rate it is valued at there (in the answer's case: pessimistic, the lowest of the
    /// look-back for an asset), and its value.
    public struct CurrencyEffect: Sendable {
        public var account: String
        public var balance: Money
        public var rate: ExchangeRate
        public var value: Int64
        /// Whether `rate` is the one that holds on the binding day (else the look-back's lowest,
        /// for an asset, or highest, for a debt).
        public var holdsThatDay: Bool

        /// Which rate it is, in words every front end shows: "the rate of 2025-03-31", or "the
        /// lowest rate of the look-back, of 2025-03-28".
        public var whichRate: String {
            holdsThatDay
                ? "the rate of \(rate.day.iso)" : "the \(balance.minor > 0 ? "lowest" : "highest") rate of the look-back, of \(rate.day.iso)"
        }
    }
}

/// "From which day can I spend this amount", at one ladder level.
public struct WhenAnswer: Sendable {
    public var amount: Money
    public var level: Int
    /// The first day from which the amount stays affordable to the horizon; nil if none.
    public var day: Day?
    /// What the horizon lacks when there is no such day (else 0).
    public var shortfall: Int64
}

extension Projection {
    /// The level's availability: balance less floor, and its suffix minimum.
    public func availability(level: Int, _ forecastCase: ForecastCase) throws(KitError) -> Availability {
        try Pool.check(level: level)
        do {
            return try Availability(
                timeline, level: level, forecastCase, cards: ledger.cards, defaultAccountID: ledger.defaultAccountID,
                repayments: Ladder.isForecast(level)
                    ? ledger.cardRepayments(today: today, horizon: horizon, calendars: window.calendars, forecastCase) : [:])
        } catch {
            throw .engine(context: "level \(level)", reason: KitError.template(error))
        }
    }

    /// The pool a level's answer is about: at levels 4–6 the level's accounts less its cards with
    /// terms (a card's credit pays only for what is bought on it, and its payback comes back to
    /// the pool), with their floors; at levels 1–3 the level.
    public func answerPool(level: Int, _ forecastCase: ForecastCase) throws(KitError) -> Pool {
        let availability = try availability(level: level, forecastCase)
        return Pool(kind: .level(level), indices: availability.accounts, floor: availability.floor, currency: currency)
    }

    /// The most that can be spent on `day` at each of `levels`, with the why when `why` is set.
    /// - Throws: `KitError` naming `on` when the day is before today or after the horizon.
    public func canSpend(on day: Day, levels: [Int], why: Bool, _ forecastCase: ForecastCase) throws(KitError) -> [CanSpendAnswer] {
        guard day >= today else { throw .invalid(.on, value: day.iso, reason: "is before today \(today)") }
        guard day <= horizon else { throw .invalid(.on, value: day.iso, reason: "is after the horizon \(horizon)", remedy: .laterHorizon) }
        var answers: [CanSpendAnswer] = []
        for level in levels {
            if let answer = try canSpend(on: day, try availability(level: level, forecastCase), why: why, forecastCase) { answers.append(answer) }
        }
        return answers
    }

    /// The most that can be spent on `day` by `availability`'s level, with its why when `why`
    /// is set, its payers and its top-up; nil when the day is outside the timeline.
    func canSpend(on day: Day, _ availability: Availability, why: Bool, _ forecastCase: ForecastCase) throws(KitError) -> CanSpendAnswer? {
        let level = availability.level
        guard let answer = availability.canSpend(on: day) else { return nil }
        var explanation: CanSpendAnswer.Why?
        if why {
            let pool = Pool(kind: .level(level), indices: availability.accounts, floor: availability.floor, currency: currency)
            explanation = self.why(
                of: answer, level: level,
                drivers: Ladder.isForecast(level) ? drivers(of: pool, from: answer.day, binding: answer.bindingDay, forecastCase) : nil)
            explanation?.currencies = try currencyEffects(availability.accounts, on: answer.bindingDay, forecastCase)
        }
        let payers = answer.parts.map { timeline.accounts.indices.contains($0.account) ? timeline.accounts[$0.account].name : "" }
        return CanSpendAnswer(
            level: level, answer: answer, floor: availability.floor, why: explanation, topUp: topUp(for: answer, availability), payers: payers)
    }

    /// The accounts at `indices` in other currencies with a balance on `day`, and how each is valued there.
    func currencyEffects(_ indices: [Int], on day: Day, _ forecastCase: ForecastCase) throws(KitError) -> [CanSpendAnswer.CurrencyEffect] {
        guard let valuation = timeline.valuation, let offset = timeline.index(of: day) else { return [] }
        var effects: [CanSpendAnswer.CurrencyEffect] = []
        for index in indices where timeline.accounts[index].currency != currency {
            let account = timeline.accounts[index]
            let balance = timeline.balances(ofAccountAt: index, forecastCase)[timeline.balances(ofAccountAt: index).startIndex + offset]
            guard balance != 0, let rate = valuation.rate(for: balance, in: account.currency, on: day, forecastCase) else { continue }
            let value: Int64
            do { value = try valuation.value(balance, in: account.currency, on: day, forecastCase) } catch {
                throw .engine(context: "level", reason: KitError.template(error))
            }
            effects.append(
                .init(
                    account: account.name, balance: Money(minor: balance, currency: account.currency), rate: rate, value: value,
                    holdsThatDay: valuation.rate(account.currency, on: day)?.day == rate.day))
        }
        return effects
    }

    /// The why of `answer` at `level`: for a forecast level (4–6) with its `drivers`; levels 1–3
    /// count that day's balance only.
    func why(of answer: Availability.Answer, level: Int, drivers found: (drivers: [FlowEvent], relief: FlowEvent?)?) -> CanSpendAnswer.Why {
        guard Ladder.isForecast(level), let found else { return .init(countsThatDayOnly: true, drivers: [], relief: nil, bindsAtHorizon: false) }
        return .init(countsThatDayOnly: false, drivers: found.drivers, relief: found.relief, bindsAtHorizon: answer.bindingDay == horizon)
    }

    /// The first day from which `text`, an amount in the ledger's currency, can be spent at
    /// `level` and stays affordable to the horizon.
    /// - Throws: `KitError` naming `amount` when it is not an amount of the currency, or not more than zero.
    public func when(_ text: String, level: Int, _ forecastCase: ForecastCase) throws(KitError) -> WhenAnswer {
        let amount: Money
        do { amount = try Money(parsing: text, currency: currency) } catch { throw .unreadable(.amount, reason: "\(error)") }
        guard amount.minor > 0 else { throw .invalid(.amount, value: text, reason: "must be more than zero") }
        return try when(amount, level: level, forecastCase)
    }

    /// The first day from which `amount` (more than zero) can be spent at `level` and stays
    /// affordable to the horizon.
    public func when(_ amount: Money, level: Int, _ forecastCase: ForecastCase) throws(KitError) -> WhenAnswer {
        let availability = try availability(level: level, forecastCase)
        let day = availability.firstDay(toSpend: amount.minor)
        return WhenAnswer(amount: amount, level: level, day: day, shortfall: day == nil ? availability.shortfallAtHorizon(for: amount.minor) : 0)
    }
}
