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

    /// The split problem of a pool's room `pool` and `cards`, from `today`.
    /// - Complexity: O(days log days) for the pool's range-minimum table.
    public init(pool: [Int64], cards: [CardConstraint], today: Day) {
        self.today = today
        self.pool = pool
        self.cards = cards
        self.range = RangeMinimum(pool)
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

    /// The best split on day index `index` (0 is today).
    ///
    /// Cards paid over time (`CardConstraint.Counting.paidOverTime`) are not linear: what a
    /// purchase on one costs the pool later (its extra payments with interest, `CardRepayment`)
    /// grows with the purchase by steps, so the best part on it is searched for exactly
    /// (`bestRepaid`); the other parts are the linear program's for the room those payments leave.
    /// Several such cards paid from the pool are searched together (`bestRepaid(_:at:)`); one
    /// paid from outside the pool takes the most its limit and paying account let.
    /// - Complexity: O(cards log cards), each stretch's minimum in O(1); with a card paid over
    ///   time, a search of a few dozen to a few hundred runs of its cycles (O(flows + cycles) each).
    public func solve(at index: Int) -> Solution {
        let alone = linear(at: index, charge: [])!
        guard alone.shortfall == 0 else { return alone }
        let over = cards.indices.filter { cards[$0].counting == .paidOverTime && cards[$0].repayment != nil }
        guard !over.isEmpty else { return alone }
        let members = over.filter { cards[$0].repaidFromPool }
        var best =
            members.count == 1
            ? bestRepaid(card: members[0], at: index) ?? alone : members.count > 1 ? bestRepaid(members, at: index) ?? alone : alone
        // Paid from outside the pool: each takes the most its limit and its paying account let, the pool charged nothing.
        for j in over where !cards[j].repaidFromPool {
            guard let own = bestRepaid(card: j, at: index) else { continue }
            best.parts[j + 1] = own.parts[j + 1]
            best.total = saturatingSum(best.total, own.parts[j + 1].amount)
        }
        return best
    }

    /// The best split with parts on `members`, several cards paid over time from the pool: the
    /// branch and bound of `bestRepaid` over boxes of parts. On a box `[a, b]` the pool's charge
    /// is at least the sum of each card's for `aⱼ` and, on the last day, `Σ (xⱼ − aⱼ)` more, so
    /// the same bound holds with `Σ aⱼ` and `Σ (bⱼ − aⱼ)`; the box of highest bound is halved on
    /// its widest side. Ties go to the first split the search reaches. Nil when no part on them
    /// adds anything.
    /// - Complexity: a run of one card's cycles and two solves of the linear program per box halved.
    func bestRepaid(_ members: [Int], at index: Int) -> Solution? {
        let count = pool.count
        let day = today.advanced(by: index)
        var repayments: [CardRepayment] = []
        var rooms: [(value: Int64, index: Int)] = []
        var paybacks: [Int] = []
        for j in members {
            guard let repayment = cards[j].repayment else { return nil }
            let payback = cards[j].paybackDay(forPurchaseOn: day).number - today.number
            let room = cards[j].range.minimum(index..<max(min(payback, count), index + 1)) ?? (0, index)
            repayments.append(repayment)
            rooms.append((max(0, room.value), room.index))
            paybacks.append(payback)
        }
        struct Box {
            var a: [Int64]
            var b: [Int64]
            var paid: [[CardRepayment.Step]]
            var at: Solution
            var bound: Int64
        }
        func split(_ a: [Int64], _ paid: [[CardRepayment.Step]]) -> Solution? {
            guard var found = linear(at: index, charge: SplitAvailability.sum(paid)) else { return nil }
            for (k, j) in members.enumerated() {
                found.parts[j + 1].amount = a[k]
                found.parts[j + 1].payback = today.advanced(by: paybacks[k])
                found.total = saturatingSum(found.total, a[k])
            }
            return found
        }
        func bound(_ box: Box) -> Int64 {
            let low = box.a.reduce(0, saturatingSum)
            let width = zip(box.a, box.b).reduce(Int64(0)) { saturatingSum($0, $1.1 - $1.0) }
            return repaidBound(at: index, low, SplitAvailability.sum(box.paid), saturatingSum(low, width))
        }
        let zero = members.map { _ in Int64(0) }
        let none = members.map { _ in [CardRepayment.Step]() }
        guard let start = split(zero, none) else { return nil }
        var whole = Box(a: zero, b: rooms.map(\.value), paid: none, at: start, bound: 0)
        whole.bound = bound(whole)
        var best = (a: zero, solution: start)
        var open = [whole]
        while let top = open.indices.max(by: { open[$0].bound < open[$1].bound }) {
            let next = open.remove(at: top)
            guard next.bound > best.solution.total else { break }
            guard let d = next.a.indices.max(by: { next.b[$0] - next.a[$0] < next.b[$1] - next.a[$1] }), next.b[d] > next.a[d] else { continue }
            let mid = next.a[d] + (next.b[d] - next.a[d] + 1) / 2
            var left = next
            left.b[d] = mid - 1
            left.bound = bound(left)
            open.append(left)
            // Past the card's limit, or the pool's floor, at `mid`: so is every larger part.
            let steps = repayments[d].charge(of: mid, at: index, count: count)
            guard SplitAvailability.violation(cards[members[d]], steps, count) == nil else { continue }
            var right = next
            right.a[d] = mid
            right.paid[d] = steps.paid
            guard let at = split(right.a, right.paid) else { continue }
            right.at = at
            right.bound = bound(right)
            if at.total > best.solution.total { best = (right.a, at) }
            open.append(right)
        }
        guard best.a.contains(where: { $0 > 0 }) else { return nil }
        var found = best.solution
        for (k, j) in members.enumerated() where best.a[k] > 0 {
            if best.a[k] == rooms[k].value {
                found.parts[j + 1].binding = .limit(today.advanced(by: rooms[k].index))
            } else if let breaks = SplitAvailability.violation(cards[j], repayments[k].charge(of: best.a[k] + 1, at: index, count: count), count) {
                found.parts[j + 1].binding = .limit(today.advanced(by: breaks))
            }
        }
        return found
    }

    /// The sum of step functions (each total from its day on).
    /// - Complexity: O(steps log steps).
    static func sum(_ functions: [[CardRepayment.Step]]) -> [CardRepayment.Step] {
        let present = functions.filter { !$0.isEmpty }
        guard present.count > 1 else { return present.first ?? [] }
        var positions = [Int](repeating: 0, count: present.count)
        var totals = [Int64](repeating: 0, count: present.count)
        return Set(present.flatMap { $0.map(\.index) }).sorted().map { day in
            for f in present.indices {
                while positions[f] < present[f].count && present[f][positions[f]].index <= day {
                    totals[f] = present[f][positions[f]].total
                    positions[f] += 1
                }
            }
            return CardRepayment.Step(index: day, total: totals.reduce(0, saturatingSum))
        }
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
            guard charge.isEmpty else { return nil }
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
        for j in cards.indices where cards[j].counting == .paidOverTime { parts[j + 1].binding = .repayments(today.advanced(by: binding)) }
        let total = parts.reduce(0) { saturatingSum($0, $1.amount) }
        return Solution(parts: parts, total: total, shortfall: 0, binding: binding)
    }

    /// The pool's lowest room on `days` less `charge` (each step's total from its day on), and
    /// the first day reaching it; nil for no days.
    /// - Complexity: O(1 + the steps inside `days` + log steps).
    func lowest(_ days: Range<Int>, less charge: [CardRepayment.Step]) -> (value: Int64, index: Int)? {
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

    /// The best split with a part on card `j` (paid over time) and none on the other cards paid
    /// over time, or nil when nothing fits on it.
    ///
    /// The part `x` is at most the card's room until its first payment (before it the extra debt
    /// only grows), and at most what keeps the card within its limit, and its paying account
    /// (outside the pool) at or above its floor, while the payments are made: both only tighten
    /// as `x` grows, so the largest such `X` is found by halving. Paid from the pool, the answer
    /// is `g(x) = x + L(x)` with `L(x)` the linear program's total for the pool's room less the
    /// payments for `x`: `L` only falls as `x` grows, but not at a steady rate (the minimum's
    /// floor, the interest's rounding, a grace lost), so `g` is not concave. It is maximised
    /// exactly by branch and bound over `[0, X]`: on `[a, b]`, the payments for any `x` are at
    /// least those for `a` and, on the last day, at least `x − a` more (all of the extra debt is
    /// paid by then), so `g(x) ≤ a + s + L(charge of a, plus s on the last day)` with `s` the
    /// most of `b − a` the last day's room lets; that bound grows with `s`. The search takes the
    /// interval of highest bound, halves it, and stops when no bound beats the best found; at
    /// single points the bound is the value, so the result is the maximum to the minor unit.
    /// Ties go to the smallest part on the card (the least interest).
    func bestRepaid(card j: Int, at index: Int) -> Solution? {
        let card = cards[j]
        guard let repayment = card.repayment else { return nil }
        let count = pool.count
        let day = today.advanced(by: index)
        let payback = card.paybackDay(forPurchaseOn: day).number - today.number
        guard let room = card.range.minimum(index..<max(min(payback, count), index + 1)), room.value > 0 else { return nil }
        func violation(_ x: Int64, _ steps: (debt: [CardRepayment.Step], paid: [CardRepayment.Step])) -> Int? {
            SplitAvailability.violation(card, steps, count)
        }
        // The largest part the card and its paying account allow, and the day the next unit breaks.
        var low: Int64 = 0
        var high = room.value
        while low < high {
            let mid = low + (high - low + 1) / 2
            if violation(mid, repayment.charge(of: mid, at: index, count: count)) != nil { high = mid - 1 } else { low = mid }
        }
        let most = low
        guard most > 0 else { return nil }
        let breaks = most < room.value ? violation(most + 1, repayment.charge(of: most + 1, at: index, count: count)) : room.index
        /// The split with `x` on the card, its payments charged to the pool when it pays them.
        func split(_ x: Int64, _ paid: [CardRepayment.Step]) -> Solution? {
            guard var found = linear(at: index, charge: card.repaidFromPool ? paid : []) else { return nil }
            found.parts[j + 1].amount = x
            found.parts[j + 1].payback = today.advanced(by: payback)
            found.total = saturatingSum(found.total, x)
            return found
        }
        guard card.repaidFromPool else {
            // Paid from outside the pool: the pool is not charged, so the most is best.
            guard var found = split(most, []) else { return nil }
            if let breaks { found.parts[j + 1].binding = .limit(today.advanced(by: breaks)) }
            return found
        }
        func bound(_ a: Int64, _ paid: [CardRepayment.Step], _ b: Int64) -> Int64 { repaidBound(at: index, a, paid, b) }
        /// `[a, b]`, with the split at `a` and the payments it charges, and the bound on the interval.
        struct Interval {
            var a: Int64
            var b: Int64
            var at: Solution
            var paid: [CardRepayment.Step]
            var bound: Int64
        }
        /// `[a, b]` given the split at `a`, or nil when the pool goes below its floor at `a`
        /// (and so for every larger part).
        func interval(_ a: Int64, _ b: Int64) -> Interval? {
            let paid = repayment.charge(of: a, at: index, count: count).paid
            guard let at = split(a, paid) else { return nil }
            return Interval(a: a, b: b, at: at, paid: paid, bound: bound(a, paid, b))
        }
        /// Its left half, reusing the split at `a`.
        func leftHalf(_ interval: Interval, to b: Int64) -> Interval {
            Interval(a: interval.a, b: b, at: interval.at, paid: interval.paid, bound: bound(interval.a, interval.paid, b))
        }
        guard let whole = interval(0, most) else { return nil }
        // The most: the interval of highest bound first, halved, until no bound beats the best.
        var best = (x: Int64(0), solution: whole.at)
        var open = [whole]
        while let top = open.indices.max(by: { open[$0].bound < open[$1].bound }) {
            let next = open.remove(at: top)
            guard next.bound > best.solution.total else { break }
            guard next.a < next.b else { continue }
            let mid = next.a + (next.b - next.a + 1) / 2
            open.append(leftHalf(next, to: mid - 1))
            guard let right = interval(mid, next.b) else { continue }
            if right.at.total > best.solution.total { best = (mid, right.at) }
            open.append(right)
        }
        // The least part that reaches it: intervals leftmost first, the first whose left end does.
        let total = best.solution.total
        var stack = [leftHalf(whole, to: best.x)]
        while let next = stack.popLast() {
            if next.at.total == total {
                best = (next.a, next.at)
                break
            }
            guard next.bound >= total, next.a < next.b else { continue }
            let mid = next.a + (next.b - next.a + 1) / 2
            if let right = interval(mid, next.b) { stack.append(right) }
            stack.append(leftHalf(next, to: mid - 1))
        }
        guard best.x > 0 else { return nil }
        var found = best.solution
        if best.x == most, let breaks { found.parts[j + 1].binding = .limit(today.advanced(by: breaks)) }
        return found
    }

    /// Whether `steps` (a purchase's extra debt and payments) keep card `card` within its limit
    /// and its paying account outside the pool at or above its floor: the first day they do not,
    /// or nil.
    static func violation(_ card: CardConstraint, _ steps: (debt: [CardRepayment.Step], paid: [CardRepayment.Step]), _ count: Int) -> Int? {
        if let day = exceeds(card.range, steps.debt, count) { return day }
        if !card.repaidFromPool, let paying = card.payingRoom, let day = exceeds(paying, steps.paid, count) { return day }
        return nil
    }

    /// The bound of `bestRepaid` on `[a, b]` on day index `index`, given the payments `paid`
    /// for `a`: the charge of any part in it is at least `a`'s, plus what it adds on the last day.
    func repaidBound(at index: Int, _ a: Int64, _ paid: [CardRepayment.Step], _ b: Int64) -> Int64 {
        let last = pool.count - 1
        let charged = paid.last?.total ?? 0
        let s = min(b - a, saturatingSum(pool[last], -charged))
        guard s >= 0 else { return .min }
        var raised = paid
        if let final = raised.last, final.index == last {
            raised[raised.count - 1].total = saturatingSum(final.total, s)
        } else {
            raised.append(CardRepayment.Step(index: last, total: saturatingSum(charged, s)))
        }
        guard let found = linear(at: index, charge: raised) else { return .min }
        return saturatingSum(saturatingSum(a, s), found.total)
    }

    /// Whether `amount` can be spent on day index `index`: the answer is at least it. The linear
    /// program alone settles most days; a card paid over time is searched as `bestRepaid` does,
    /// but only until a part reaches `amount` or no interval's bound does.
    /// - Complexity: that of `linear`, and for each card paid over time a few runs of its cycles.
    func reaches(_ amount: Int64, at index: Int) -> Bool {
        guard let alone = linear(at: index, charge: []), alone.shortfall == 0 else { return false }
        if alone.total >= amount { return true }
        // Parts on several such cards together: the answer itself.
        guard cards.filter({ $0.counting == .paidOverTime && $0.repayment != nil }).count <= 1 else { return solve(at: index).total >= amount }
        let count = pool.count
        let day = today.advanced(by: index)
        for card in cards where card.counting == .paidOverTime {
            guard let repayment = card.repayment else { continue }
            let payback = card.paybackDay(forPurchaseOn: day).number - today.number
            guard let room = card.range.minimum(index..<max(min(payback, count), index + 1)), room.value > 0 else { continue }
            guard card.repaidFromPool else {
                // The pool is not charged: the card must take the rest.
                let x = amount - alone.total
                if x <= room.value && SplitAvailability.violation(card, repayment.charge(of: x, at: index, count: count), count) == nil {
                    return true
                }
                continue
            }
            /// The total for `x` and its payments, nil when the card, its limit or the pool's floor breaks.
            func look(_ x: Int64) -> (total: Int64, paid: [CardRepayment.Step])? {
                let steps = repayment.charge(of: x, at: index, count: count)
                guard SplitAvailability.violation(card, steps, count) == nil, let found = linear(at: index, charge: steps.paid) else { return nil }
                return (saturatingSum(found.total, x), steps.paid)
            }
            var open = [(a: Int64(0), b: room.value, paid: [CardRepayment.Step](), bound: repaidBound(at: index, 0, [], room.value))]
            while let top = open.indices.max(by: { open[$0].bound < open[$1].bound }) {
                let next = open.remove(at: top)
                guard next.bound >= amount else { break }
                guard next.a < next.b else { continue }
                let mid = next.a + (next.b - next.a + 1) / 2
                open.append((next.a, mid - 1, next.paid, repaidBound(at: index, next.a, next.paid, mid - 1)))
                guard let found = look(mid) else { continue }
                if found.total >= amount { return true }
                open.append((mid, next.b, found.paid, repaidBound(at: index, mid, found.paid, next.b)))
            }
        }
        return false
    }

    /// The first day index on which `steps` (each total from its day on, to `count`) is above
    /// what `room` has, or nil when it never is.
    static func exceeds(_ room: RangeMinimum, _ steps: [CardRepayment.Step], _ count: Int) -> Int? {
        for (s, step) in steps.enumerated() where step.total > 0 {
            let end = s + 1 < steps.count ? steps[s + 1].index : count
            guard let found = room.minimum(step.index..<min(end, count)), found.value < step.total else { continue }
            // The first day of the stretch below the step.
            for day in step.index..<min(end, count) where room.series[day] < step.total { return day }
        }
        return nil
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
                case .paidOverTime where card.repaidFromPool: latest = count - 1
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
