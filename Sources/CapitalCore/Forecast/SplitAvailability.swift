/// The exact answer of a forecast level with credit cards: the largest total of a split (a part
/// `x₀` from the pool, a part `xⱼ` on each card) that keeps the pool at or above its floor and
/// every card within its limit on every day to the horizon.
///
/// A purchase of `xⱼ` on card `j` on day `d` takes `xⱼ` of the card's room from `d` until its
/// payback day `Pⱼ(d)` and, paid from the pool, `xⱼ` of the pool's room from `Pⱼ(d)` on (a payback
/// after the horizon counts on its last day, so nothing is counted twice). With the pool's room
/// `h(t)` and card `j`'s `cⱼ(t)` the problem is the linear program
///
///     maximise x₀ + Σ xⱼ   subject to   xⱼ ≤ min over [d, Pⱼ) of cⱼ,
///                                      x₀ + Σ over Pⱼ ≤ t of xⱼ ≤ h(t)   for every t in [d, horizon],
///                                      x ≥ 0.
///
/// Sorting the cards by payback day cuts `[d, horizon]` into stretches; on stretch `k` only its
/// minimum `Mₖ` matters, and since the charged sum only grows, only `Nₖ = min over k' ≥ k of Mₖ'`.
/// Its prefix sums `Sₖ = x₀ + (the parts of the cards of stretches 0…k)` must stay at or under
/// `Nₖ`, each stretch adding at most its cards' room `Cₖ`: the most is `S₀ = N₀`,
/// `Sₖ = min(Nₖ, Sₖ₋₁ + Cₖ)`, all in integers, so the optimum is exact to the minor unit.
/// Of the splits that reach it, the one with the least from the pool (`x₀ = max(0, S − ΣCₖ)`,
/// the cards then filled earliest payback first, in card order) keeps the most in the pool.
/// A card paid from outside the pool adds its own room. A card paid by a minimum or fixed amount
/// is not linear (its payments, with interest, follow its own terms): `solve(at:)` searches its
/// part exactly (`bestRepaid`).
public struct SplitAvailability: Sendable {
    public let today: Day
    /// The pool's balance less its floor, today first.
    public let pool: [Int64]
    public let cards: [CardConstraint]
    let range: RangeMinimum
    /// What the pool pays besides the split, as a step function (a scenario's own later
    /// payments: `charged(_:)`); empty for can-spend.
    var base: [CardRepayment.Step] = []

    /// The split problem of a pool's room `pool` and `cards`, from `today`.
    /// - Complexity: O(days log days) for the pool's range-minimum table.
    public init(pool: [Int64], cards: [CardConstraint], today: Day) {
        self.today = today
        self.pool = pool
        self.cards = cards
        self.range = RangeMinimum(pool)
    }

    /// The same problem with the pool also paying `base` (each step's total from its day on):
    /// a scenario's payments other than the part the split pays.
    func charged(_ base: [CardRepayment.Step]) -> SplitAvailability {
        var copy = self
        copy.base = base
        return copy
    }

    /// The solution on one day.
    public struct Solution: Hashable, Sendable {
        /// The pool's part first (its account to be named by the caller), then one per card.
        public var parts: [SpendPart]
        public var total: Int64
        /// How far the pool is below its floor when it cannot pay anything (else 0).
        public var shortfall: Int64
        /// The pool's lowest day once the split is spent (a day index).
        public var binding: Int
    }

    /// The linear program's split on day index `index` with the pool's room less `charge` (a
    /// step function: what cards paid over time take from the pool), cards paid over time
    /// taking nothing; nil when the charge takes the pool below its floor (with no charge, a
    /// pool short already gives nothing and its shortfall).
    func linear(at index: Int, charge: [CardRepayment.Step]) -> Solution? {
        let count = pool.count
        let day = today.advanced(by: index)
        var parts = [SpendPart(account: -1, amount: 0, isCard: false, binding: .pool(day))]
        // Each card's room until its payback, and the stretch its part joins the pool at.
        var rooms = [Int64](repeating: 0, count: cards.count)
        var starts = [Int](repeating: count, count: cards.count)
        for (j, card) in cards.enumerated() {
            let payback = card.paybackDay(forPurchaseOn: day).number - today.number
            let end = min(payback, count)
            let lowest = card.range.minimum(index..<max(end, index + 1)) ?? (card.headroom[index], index)
            let bind = today.advanced(by: lowest.index)
            var part = SpendPart(
                account: card.account, amount: 0, isCard: true, binding: lowest.value < 0 ? .overLimit(bind) : .limit(bind),
                payback: today.advanced(by: payback))
            switch card.counting {
            case .notCounted:
                part.binding = .notCounted
            case .paidOverTime:
                part.outsidePool = !card.repaidFromPool
            case .paidOutsidePool:
                part.amount = max(0, lowest.value)
                part.outsidePool = true
                // What its paying account can pay from the payback on bounds it too.
                if let paying = card.payingRoom?.minimum(min(payback, count - 1)..<count), paying.value < part.amount, lowest.value >= 0 {
                    part.amount = max(0, paying.value)
                    part.binding = .payback(today.advanced(by: min(payback, count - 1)))
                }
            case .paidFromPool:
                rooms[j] = max(0, lowest.value)
                starts[j] = min(payback, count - 1)
            }
            parts.append(part)
        }
        guard let lowest = lowest(index..<count, less: charge) else { return Solution(parts: parts, total: 0, shortfall: 0, binding: index) }
        guard lowest.value >= 0 else {
            guard charge.isEmpty && base.isEmpty else { return nil }
            // The pool is short already: nothing can be spent, from it or on a card; the pool binds.
            for j in parts.indices {
                parts[j].amount = 0
                if parts[j].binding != .notCounted { parts[j].binding = .pool(today.advanced(by: lowest.index)) }
            }
            return Solution(parts: parts, total: 0, shortfall: Availability.shortfall(lowest.value), binding: lowest.index)
        }
        // The stretches: from the asked day, then from each distinct payback day (the cards paid from the pool).
        let order = cards.indices.filter { cards[$0].counting == .paidFromPool }.sorted { (starts[$0], $0) < (starts[$1], $1) }
        var bounds = [index]
        var members: [[Int]] = [[]]
        for j in order {
            if starts[j] > bounds[bounds.count - 1] {
                bounds.append(starts[j])
                members.append([])
            }
            members[members.count - 1].append(j)
        }
        let stretches = bounds.count
        var minimum = [Int64](repeating: .max, count: stretches)
        var lowDay = [Int](repeating: index, count: stretches)
        for k in 0..<stretches {
            let end = k + 1 < stretches ? bounds[k + 1] : count
            if let found = self.lowest(bounds[k]..<end, less: charge) { (minimum[k], lowDay[k]) = found }
        }
        var bound = minimum
        for k in stride(from: stretches - 2, through: 0, by: -1) { bound[k] = min(bound[k], bound[k + 1]) }
        var room = [Int64](repeating: 0, count: stretches)
        for k in 0..<stretches { for j in members[k] { room[k] = saturatingSum(room[k], rooms[j]) } }
        // The most the pool's cards and the pool can carry together, then the least from the pool.
        var most = bound[0]
        for k in 1..<stretches { most = min(bound[k], saturatingSum(most, room[k])) }
        let cardRoom = room.reduce(0, saturatingSum)
        var charged = max(0, most - cardRoom)
        parts[0].amount = charged
        var spent = [Int64](repeating: 0, count: stretches)
        for k in 0..<stretches {
            var left = min(bound[k], saturatingSum(charged, room[k])) - charged
            for j in members[k] {
                let take = min(rooms[j], left)
                parts[j + 1].amount = take
                if take < rooms[j] { parts[j + 1].binding = .payback(today.advanced(by: starts[j])) }
                left -= take
                charged += take
            }
            spent[k] = charged
        }
        // The pool's lowest day once the split is spent: the first stretch with the least room left.
        var binding = lowDay[0]
        var least = Int64.max
        for k in 0..<stretches where minimum[k] != .max {
            let left = minimum[k] - spent[k]
            if left < least {
                least = left
                binding = lowDay[k]
            }
        }
        parts[0].binding = .pool(today.advanced(by: binding))
        for j in cards.indices where cards[j].counting == .paidOverTime {
            if case .overLimit = parts[j + 1].binding { continue }
            parts[j + 1].binding = .repayments(today.advanced(by: binding))
        }
        let total = parts.reduce(0) { saturatingSum($0, $1.amount) }
        return Solution(parts: parts, total: total, shortfall: 0, binding: binding)
    }

    /// The pool's lowest room on `days` less `charge` and `base` (each step's total from its day
    /// on), and the first day reaching it; nil for no days.
    /// - Complexity: O(1 + the steps inside `days` + log steps), and O(steps) to add `base`.
    func lowest(_ days: Range<Int>, less charge: [CardRepayment.Step]) -> (value: Int64, index: Int)? {
        SplitAvailability.lowest(range, days, less: base.isEmpty ? charge : SplitAvailability.sum([base, charge]))
    }

    /// The lowest of `range`'s series on `days` less `charge`, and the first day reaching it;
    /// nil for no days.
    /// - Complexity: O(1 + the steps inside `days` + log steps).
    static func lowest(_ range: RangeMinimum, _ days: Range<Int>, less charge: [CardRepayment.Step]) -> (value: Int64, index: Int)? {
        guard !charge.isEmpty else { return range.minimum(days) }
        guard !days.isEmpty else { return nil }
        // The first step after the first day: the ones before it set the charge there.
        var low = 0
        var high = charge.count
        while low < high {
            let mid = (low + high) / 2
            if charge[mid].index <= days.lowerBound { low = mid + 1 } else { high = mid }
        }
        var next = low
        var current: Int64 = next > 0 ? charge[next - 1].total : 0
        var start = days.lowerBound
        var best: (value: Int64, index: Int)?
        while start < days.upperBound {
            let end = next < charge.count ? min(charge[next].index, days.upperBound) : days.upperBound
            if let found = range.minimum(start..<end) {
                let value = saturatingSum(found.value, current == .min ? .max : -current)
                if best == nil || value < best!.value { best = (value, found.index) }
            }
            guard next < charge.count else { break }
            start = end
            current = charge[next].total
            next += 1
        }
        return best
    }

    /// The lowest answer from each day to the horizon: the first day of `firstIndex(atLeast:)`
    /// is when an amount becomes spendable and stays so.
    /// - Complexity: O(days × cards log cards).
    public func lowestFromEachDay() -> SuffixMinimum {
        SuffixMinimum((0..<pool.count).map { solve(at: $0).total })
    }

    /// The first day index from which every day's answer to the horizon is at least `amount`, or
    /// nil when the last day's is not: the day after the last one short of it.
    ///
    /// `poolSuffix` is the pool's own suffix minimum: what the pool alone can pay from a day on
    /// is a lower bound of that day's answer, so the days from which it covers the amount are
    /// skipped; before them, going back, a day is short when even the pool's lowest room from its
    /// last payback on (plus what cards paid from outside the pool can take) is short, else it is
    /// solved. Equal to `lowestFromEachDay().firstIndex(atLeast:)`, tested.
    /// - Complexity: O(log days + cards) for the bounds of each day looked at, and a solution for
    ///   those the bounds do not settle: usually a few, O(days × cards log cards) at worst.
    public func firstIndex(toSpend amount: Int64, poolSuffix: SuffixMinimum) -> Int? {
        let count = pool.count
        // Every answer is at least nothing.
        guard amount > 0 else { return count > 0 ? 0 : nil }
        var index = (poolSuffix.firstIndex(atLeast: amount) ?? count) - 1
        while index >= 0 {
            let day = today.advanced(by: index)
            var latest = index
            var outside: Int64 = 0
            for card in cards {
                let payback = card.paybackDay(forPurchaseOn: day).number - today.number
                switch card.counting {
                case .paidFromPool: latest = max(latest, min(payback, count - 1))
                // Paid over time, at most its room until its first payment, whoever pays it.
                case .paidOutsidePool, .paidOverTime:
                    let room = card.range.minimum(index..<max(min(payback, count), index + 1))?.value ?? 0
                    outside = saturatingSum(outside, max(0, room))
                case .notCounted: break
                }
            }
            let bound = saturatingSum(poolSuffix.values[latest], outside)
            if bound < amount || !reaches(amount, at: index) { return index + 1 < count ? index + 1 : nil }
            index -= 1
        }
        return count > 0 ? 0 : nil
    }
}
