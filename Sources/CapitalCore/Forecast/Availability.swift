/// "How much can I spend, and when" for one ladder level over a built timeline.
///
/// Levels 1–3 answer with the balance on the day less the floor; levels 4–6 with the lowest
/// balance from that day to the horizon less the floor (a suffix minimum, O(1) per question).
/// `firstDay(toSpend:)` is a binary search over that non-decreasing suffix minimum.
public struct Availability: Sendable {
    public let level: Int
    public let forecastCase: ForecastCase
    public let today: Day
    /// The level's summed floors (reserves never to be spent).
    public let floor: Int64
    /// The level's end-of-day balance, today first.
    public let balances: [Int64]
    /// `balances − floor`, day by day.
    public let headroom: [Int64]
    public let suffix: SuffixMinimum
    /// The level's accounts (indices into the timeline's accounts).
    public let accounts: [Int]

    /// One answer: the amount (never below zero), the day that binds it and the balance there.
    public struct Answer: Hashable, Sendable {
        public var day: Day
        public var amount: Int64
        /// What is missing to reach the floor when the answer is 0 (else 0).
        public var shortfall: Int64
        public var bindingDay: Day
        public var bindingBalance: Int64
    }

    /// The availability of ladder `level` over `timeline`: its accounts' summed balance less their floors.
    /// - Throws: `TimelineError.overflow` when a sum leaves Int64.
    /// - Complexity: O(accounts × days).
    public init(_ timeline: Timeline, level: Int, _ forecastCase: ForecastCase = .pessimistic) throws(TimelineError) {
        let (indices, floor) = try timeline.levelAccounts(level)
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
        self.suffix = SuffixMinimum(headroom)
    }

    /// The most that can be spent on `day` without the level going below its floor later
    /// (levels 4–6) or that day (levels 1–3); nil outside the timeline.
    /// - Complexity: O(1).
    public func canSpend(on day: Day) -> Answer? {
        let index = day.number - today.number
        guard index >= 0 && index < headroom.count else { return nil }
        let value: Int64
        let binding: Int
        if Ladder.isForecast(level) {
            value = suffix.values[index]
            binding = Int(suffix.days[index])
        } else {
            value = headroom[index]
            binding = index
        }
        return Answer(
            day: day, amount: max(0, value), shortfall: value < 0 ? value.magnitude > UInt64(Int64.max) ? .max : -value : 0,
            bindingDay: today.advanced(by: binding), bindingBalance: balances[binding])
    }

    /// The first day from which `amount` can be spent and stays affordable to the horizon, or nil.
    /// - Complexity: O(log days).
    public func firstDay(toSpend amount: Int64) -> Day? {
        suffix.firstIndex(atLeast: amount).map { today.advanced(by: $0) }
    }

    /// What the horizon's suffix lacks for `amount`: how far the lowest balance at the end falls short.
    public func shortfallAtHorizon(for amount: Int64) -> Int64 {
        guard let last = suffix.values.last else { return amount }
        return max(0, amount.subtractingReportingOverflow(last).partialValue)
    }
}
