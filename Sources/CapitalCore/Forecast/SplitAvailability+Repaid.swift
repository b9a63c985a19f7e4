/// The exact answer with cards paid over time (a minimum or fixed payback): the search for their parts.
extension SplitAvailability {
    /// The best split on day index `index` (0 is today).
    ///
    /// Cards paid over time (`CardConstraint.Counting.paidOverTime`) are not linear: what a
    /// purchase on one costs the pool later (its extra payments with interest, `CardRepayment`)
    /// grows with the purchase by steps, so their parts are searched for exactly (`search`);
    /// the other parts are the linear program's for the room their payments leave. One paid
    /// from outside the pool takes the most its limit and its paying account let.
    /// - Complexity: O(cards log cards), each stretch's minimum in O(1); with cards paid over
    ///   time, a search of a few dozen to a few hundred runs of their cycles (O(flows + cycles) each).
    public func solve(at index: Int) -> Solution {
        best(at: index) ?? Solution(parts: [], total: 0, shortfall: 0, binding: index)
    }

    /// The best split on day index `index`, nil when `base` alone takes the pool below its floor.
    func best(at index: Int) -> Solution? {
        guard let alone = linear(at: index, charge: []) else { return nil }
        guard alone.shortfall == 0 else { return alone }
        let over = overTime
        guard !over.isEmpty else { return alone }
        let members = over.filter { cards[$0].repaidFromPool }
        var best = alone
        if !members.isEmpty, let found = search(members, at: index, reaching: nil) { best = found }
        for j in over where !cards[j].repaidFromPool {
            guard let part = mostOutside(card: j, at: index) else { continue }
            best.parts[j + 1] = part
            best.total = saturatingSum(best.total, part.amount)
        }
        return best
    }

    /// The cards paid over time whose cycles were given, by position.
    var overTime: [Int] { cards.indices.filter { cards[$0].counting == .paidOverTime && cards[$0].repayment != nil } }

    /// Whether `amount` can be spent on day index `index`: the answer is at least it.
    func reaches(_ amount: Int64, at index: Int) -> Bool { reaching(amount, at: index) != nil }

    /// A split of at least `amount` on day index `index`, or nil when the answer is less. The
    /// linear program alone settles most days; cards paid over time are searched as `solve`
    /// does, but only until a split reaches `amount` or no bound does.
    /// - Complexity: that of `linear`, and a few runs of the cards' cycles.
    func reaching(_ amount: Int64, at index: Int) -> Solution? {
        guard var alone = linear(at: index, charge: []), alone.shortfall == 0 else { return nil }
        if alone.total >= amount { return alone }
        let over = overTime
        guard !over.isEmpty else { return nil }
        // Outside the pool, each takes its most and charges the pool nothing.
        for j in over where !cards[j].repaidFromPool {
            guard let part = mostOutside(card: j, at: index) else { continue }
            alone.parts[j + 1] = part
            alone.total = saturatingSum(alone.total, part.amount)
        }
        if alone.total >= amount { return alone }
        let outside = over.filter { !cards[$0].repaidFromPool }.reduce(Int64(0)) { saturatingSum($0, alone.parts[$1 + 1].amount) }
        let members = over.filter { cards[$0].repaidFromPool }
        guard !members.isEmpty, var found = search(members, at: index, reaching: amount - outside), found.total >= amount - outside else {
            return nil
        }
        for j in over where !cards[j].repaidFromPool {
            found.parts[j + 1] = alone.parts[j + 1]
            found.total = saturatingSum(found.total, alone.parts[j + 1].amount)
        }
        return found
    }

    /// A part tried on a card paid over time: its extra debt and payments, and the first day it
    /// breaks the card's limit (or its paying account's floor: `payer`), if it does.
    struct Probe {
        var x: Int64
        var debt: [CardRepayment.Step]
        var paid: [CardRepayment.Step]
        var breaks: (day: Int, payer: Bool)?
    }

    /// A box of parts on the cards searched: each card's part from `low[k]` to `high[k]`, both
    /// tried; the split at `low` (every part at its low end), and the box's bound.
    struct Box {
        var low: [Probe]
        var high: [Probe]
        var at: Solution
        var bound: Int64
    }

    /// The best split with parts on `members` (cards paid over time from the pool), by branch and
    /// bound over boxes of parts; with `target`, the first split found that reaches it (or nil).
    ///
    /// With `g(x) = Σ xⱼ + L(x)`, `L(x)` the linear program's total for the pool's room less the
    /// cards' payments for `x`: `L` only falls as a part grows (a larger debt asks at least as
    /// much, `CardRepayment`), but not at a steady rate (the minimum's floor, the interest's
    /// rounding, a grace lost), so `g` is not concave. On a box `[a, b]`, card `j`'s payments
    /// for `xⱼ` are at least those for `aⱼ` and, since what it pays is what it owes less what it
    /// still owes, at least `xⱼ − aⱼ` more on each day less the extra debt `Eⱼ(t)` that `bⱼ`
    /// still owes there over `aⱼ`. So with `s = Σ (xⱼ − aⱼ)` and `E = Σ Eⱼ`, the pool's charge
    /// is at least `C(a) + max(0, s − E)`, and
    /// `g(x) ≤ Σ aⱼ + s + L(C(a) + max(0, s − E))`, which grows with `s` while the pool stays at
    /// or above its floor: the bound is its value at the largest such `s` up to `Σ (bⱼ − aⱼ)`.
    /// Where the card's purchase is paid off before the pool's lowest day (`g` flat), the bound
    /// is the value itself and the box is dropped at once. The box of highest bound is halved on
    /// its widest side until no bound beats the best found; single points are exact, so the
    /// result is the maximum to the minor unit. A part past the card's limit, or the pool's
    /// floor, drops every box beyond it. With one card, ties go to its least part (a second
    /// search, leftmost first); with several, to the first split found.
    func search(_ members: [Int], at index: Int, reaching target: Int64?) -> Solution? {
        let count = pool.count
        let day = today.advanced(by: index)
        let paybacks = members.map { cards[$0].paybackDay(forPurchaseOn: day) }
        func probe(_ k: Int, _ x: Int64) -> Probe {
            let card = cards[members[k]]
            let steps = card.repayment!.charge(of: x, at: index, count: count)
            return Probe(x: x, debt: steps.debt, paid: steps.paid, breaks: x == 0 ? nil : SplitAvailability.violation(card, steps, count))
        }
        /// The split with each card's part at `low`, nil when the pool goes below its floor.
        func split(_ low: [Probe]) -> Solution? {
            guard var found = linear(at: index, charge: SplitAvailability.sum(low.map(\.paid))) else { return nil }
            for (k, j) in members.enumerated() {
                found.parts[j + 1].amount = low[k].x
                found.parts[j + 1].payback = paybacks[k]
                found.total = saturatingSum(found.total, low[k].x)
            }
            return found
        }
        func bound(_ low: [Probe], _ high: [Probe]) -> Int64 {
            let extra = SplitAvailability.sum(zip(low, high).map { SplitAvailability.difference($0.1.debt, $0.0.debt) })
            let width = zip(low, high).reduce(Int64(0)) { saturatingSum($0, $1.1.x - $1.0.x) }
            return repaidBound(at: index, low.reduce(0) { saturatingSum($0, $1.x) }, SplitAvailability.sum(low.map(\.paid)), extra, width)
        }
        func box(_ low: [Probe], _ high: [Probe]) -> Box? {
            guard !low.contains(where: { $0.breaks != nil }), let at = split(low) else { return nil }
            return Box(low: low, high: high, at: at, bound: bound(low, high))
        }
        // Each card's part is at most its room until its first payment: before it the extra debt only grows.
        var highs: [Probe] = []
        for (k, j) in members.enumerated() {
            let payback = paybacks[k].number - today.number
            let room = cards[j].range.minimum(index..<max(min(payback, count), index + 1))?.value ?? 0
            highs.append(probe(k, max(0, room)))
        }
        let zeros = members.indices.map { probe($0, 0) }
        guard let whole = box(zeros, highs) else { return nil }
        var best = (low: zeros, solution: whole.at)
        let goal = target ?? .min
        if let target, best.solution.total >= target { return best.solution }
        /// The two halves of `next` on its widest side (a side of width 1 into its two ends).
        func halves(_ next: Box) -> (left: Box, right: Box?)? {
            guard let d = next.low.indices.max(by: { next.high[$0].x - next.low[$0].x < next.high[$1].x - next.low[$1].x }),
                next.high[d].x > next.low[d].x
            else { return nil }
            let width = next.high[d].x - next.low[d].x
            let mid = width == 1 ? next.high[d] : probe(d, next.low[d].x + width / 2)
            var leftHigh = next.high
            leftHigh[d] = width == 1 ? next.low[d] : mid
            var rightLow = next.low
            rightLow[d] = mid
            let left = Box(low: next.low, high: leftHigh, at: next.at, bound: bound(next.low, leftHigh))
            return (left, box(rightLow, next.high))
        }
        var open = [whole]
        while let top = open.indices.max(by: { open[$0].bound < open[$1].bound }) {
            let next = open.remove(at: top)
            guard target == nil ? next.bound > best.solution.total : next.bound >= goal else { break }
            guard let (left, right) = halves(next) else { continue }
            open.append(left)
            guard let right else { continue }
            if right.at.total > best.solution.total { best = (right.low, right.at) }
            if let target, best.solution.total >= target { return best.solution }
            open.append(right)
        }
        if let target { return best.solution.total >= target ? best.solution : nil }
        // One card: the least part that reaches the best, leftmost box first.
        if members.count == 1 {
            let total = best.solution.total
            var stack = [Box(low: zeros, high: best.low, at: whole.at, bound: bound(zeros, best.low))]
            while let next = stack.popLast() {
                if next.at.total == total {
                    best = (next.low, next.at)
                    break
                }
                guard next.bound >= total, let (left, right) = halves(next) else { continue }
                if let right { stack.append(right) }
                stack.append(left)
            }
        }
        guard best.low.contains(where: { $0.x > 0 }) else { return nil }
        var found = best.solution
        for (k, j) in members.enumerated() where best.low[k].x > 0 {
            // At the most the card lets (its room, or the next minor unit breaks it): its limit binds.
            let more = best.low[k].x == highs[k].x ? nil : probe(k, best.low[k].x + 1).breaks
            if best.low[k].x == highs[k].x, let room = cards[j].range.minimum(index..<max(min(paybacks[k].number - today.number, count), index + 1)) {
                found.parts[j + 1].binding = .limit(today.advanced(by: room.index))
            } else if let more {
                found.parts[j + 1].binding = more.payer ? .payback(today.advanced(by: more.day)) : .limit(today.advanced(by: more.day))
            }
        }
        return found
    }

    /// The part on card `j`, paid over time from outside the pool: the most its limit and its
    /// paying account let (the pool is not charged), by halving; nil when nothing fits.
    /// - Complexity: about 60 runs of the card's cycles.
    func mostOutside(card j: Int, at index: Int) -> SpendPart? {
        let card = cards[j]
        guard let repayment = card.repayment else { return nil }
        let count = pool.count
        let day = today.advanced(by: index)
        let payback = card.paybackDay(forPurchaseOn: day).number - today.number
        guard let room = card.range.minimum(index..<max(min(payback, count), index + 1)), room.value > 0 else { return nil }
        var low: Int64 = 0
        var high = room.value
        while low < high {
            let mid = low + (high - low) / 2 + 1
            if SplitAvailability.violation(card, repayment.charge(of: mid, at: index, count: count), count) != nil {
                high = mid - 1
            } else {
                low = mid
            }
        }
        guard low > 0 else { return nil }
        let breaks = low < room.value ? SplitAvailability.violation(card, repayment.charge(of: low + 1, at: index, count: count), count) : nil
        return SpendPart(
            account: card.account, amount: low, isCard: true,
            binding: breaks.map { $0.payer ? .payback(today.advanced(by: $0.day)) : .limit(today.advanced(by: $0.day)) }
                ?? .limit(today.advanced(by: room.index)),
            payback: today.advanced(by: payback), outsidePool: true)
    }

    /// Whether a purchase's extra debt and payments (`steps`) keep `card` within its limit and its
    /// paying account outside the pool at or above its floor: the first day they do not (and
    /// whether the paying account breaks), or nil.
    static func violation(_ card: CardConstraint, _ steps: (debt: [CardRepayment.Step], paid: [CardRepayment.Step]), _ count: Int) -> (
        day: Int, payer: Bool
    )? {
        if let day = exceeds(card.range, steps.debt, count) { return (day, false) }
        if !card.repaidFromPool, let paying = card.payingRoom, let day = exceeds(paying, steps.paid, count) { return (day, true) }
        return nil
    }

    /// The bound of `search` on a box whose low corner's parts sum to `low` and charge the pool
    /// `paid`, whose high corner owes `extra` more day by day, and whose sides sum to `width`:
    /// `low + s + L(paid + max(0, s − extra))` at the largest `s ≤ width` that keeps the pool at
    /// or above its floor.
    func repaidBound(at index: Int, _ low: Int64, _ paid: [CardRepayment.Step], _ extra: [CardRepayment.Step], _ width: Int64) -> Int64 {
        let owed = extra
        // The most of `width` the pool lets: its room less `paid` plus what is still owed.
        guard let room = lowest(index..<pool.count, less: SplitAvailability.combine(paid, owed) { $0 - $1 }) else { return .min }
        let s = min(width, room.value)
        guard s >= 0 else { return .min }
        guard let found = linear(at: index, charge: SplitAvailability.combine(paid, owed) { saturatingSum($0, max(0, s - $1)) }) else { return .min }
        return saturatingSum(saturatingSum(low, s), found.total)
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

    /// The sum of step functions (each total from its day on, none before its first step).
    /// - Complexity: O(steps log steps).
    static func sum(_ functions: [[CardRepayment.Step]]) -> [CardRepayment.Step] {
        let present = functions.filter { !$0.isEmpty }
        guard present.count > 1 else { return present.first ?? [] }
        return present.dropFirst().reduce(present[0]) { combine($0, $1, saturatingSum) }
    }

    /// `f − g`, step by step.
    static func difference(_ f: [CardRepayment.Step], _ g: [CardRepayment.Step]) -> [CardRepayment.Step] {
        combine(f, g) { saturatingSum($0, $1 == .min ? .max : -$1) }
    }

    /// `op(f, g)` on every day, as a step function: a step on each day either steps (a value of
    /// 0 before each one's first step; `op(0, 0)` must be 0 for the days before both).
    /// - Complexity: O(steps of f + steps of g).
    static func combine(
        _ f: [CardRepayment.Step], _ g: [CardRepayment.Step], _ op: (Int64, Int64) -> Int64
    ) -> [CardRepayment.Step] {
        var result: [CardRepayment.Step] = []
        result.reserveCapacity(f.count + g.count)
        var i = 0
        var j = 0
        var a: Int64 = 0
        var b: Int64 = 0
        while i < f.count || j < g.count {
            let day = min(i < f.count ? f[i].index : .max, j < g.count ? g[j].index : .max)
            if i < f.count && f[i].index == day {
                a = f[i].total
                i += 1
            }
            if j < g.count && g[j].index == day {
                b = g[j].total
                j += 1
            }
            result.append(CardRepayment.Step(index: day, total: op(a, b)))
        }
        return result
    }
}
