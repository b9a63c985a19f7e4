import CapitalCore

/// The brute-force scenario reference: apply the scenario to a copy of the base headroom day by
/// day (every payment added on its own day, the loan's from `Loan.amortize`), then scan every day.
/// It shares nothing with `ScenarioEvaluator` but the `Scenario` value it reads.
struct ScenarioReference {
    let headroom: [Int64]
    let today: Day

    var last: Int { headroom.count - 1 }
    var horizon: Day { today.advanced(by: last) }

    struct Applied {
        /// Headroom after the scenario, every day.
        var after: [Int64]
        /// The first day index judged: the scenario's first day, today if earlier.
        var window: Int
        var interest: Int64
        var costs: Int64
    }

    /// The scenario at `price` (its own price by default), moved by `shift` days.
    func apply(_ scenario: Scenario, price: Int64? = nil, shift: Int = 0) -> Applied {
        let price = price ?? scenario.price
        var flow = [Int64](repeating: 0, count: headroom.count)
        let horizon = self.horizon
        func pay(_ day: Day, _ amount: Int64) {
            let index = day.number - today.number
            guard index <= last else { return }
            flow[max(0, index)] += amount
        }
        let day = scenario.day.advanced(by: shift)
        var first = day
        var interest: Int64 = 0
        var costs: Int64 = 0
        switch scenario.financing {
        case .cash:
            pay(day, price)
        case .loan(let terms):
            let down = min(terms.downPayment, price)
            pay(day, down)
            if price > down {
                let loan = try! Loan(
                    principal: price - down, rate: terms.rate, term: terms.term, start: day, method: terms.method, dayCount: terms.dayCount)
                for row in try! loan.amortize().rows {
                    pay(row.day, row.payment)
                    if row.day <= horizon { interest += row.interest }
                }
            }
        case .instalments(let count, let start):
            let each = price / Int64(count)
            for j in 0..<count {
                let due = day.addingMonths(j + (start == .oneMonthLater ? 1 : 0))
                pay(due, j == count - 1 ? price - each * Int64(count - 1) : each)
            }
        }
        func occurrences(_ change: RecurringChange, _ body: (Day) -> Void) {
            let start = change.start.advanced(by: shift)
            let end = change.end.map { $0.advanced(by: shift) }
            first = min(first, start)
            var j = 0
            while true {
                let due = start.addingMonths(j * change.period.months)
                if due > horizon || (end.map { due > $0 } ?? false) { break }
                body(due)
                j += 1
            }
        }
        for cost in scenario.costs {
            occurrences(cost) { due in
                pay(due, cost.amount)
                costs += cost.amount
            }
        }
        for change in scenario.incomeChanges {
            occurrences(change) { due in pay(due, -change.amount) }
        }
        if let sale = scenario.sale {
            let saleDay = sale.day.advanced(by: shift)
            first = min(first, saleDay)
            pay(saleDay, -sale.amount)
        }
        var after = headroom
        var cumulative: Int64 = 0
        for t in after.indices {
            cumulative += flow[t]
            after[t] -= cumulative
        }
        return Applied(after: after, window: max(0, first.number - today.number), interest: interest, costs: costs)
    }

    /// The lowest headroom after the scenario over its window and the first day index reaching it.
    func worst(_ scenario: Scenario, price: Int64? = nil, shift: Int = 0) -> (value: Int64, index: Int) {
        let applied = apply(scenario, price: price, shift: shift)
        var best = applied.window
        for t in applied.window..<applied.after.count where applied.after[t] < applied.after[best] { best = t }
        return (applied.after[best], best)
    }

    func feasible(_ scenario: Scenario, price: Int64? = nil, shift: Int = 0) -> Bool {
        worst(scenario, price: price, shift: shift).value >= 0
    }

    /// The first day from the purchase day (today if later) whose moved scenario is feasible,
    /// trying every day to the horizon.
    func earliest(_ scenario: Scenario) -> Day? {
        let base = scenario.day.number - today.number
        var shift = max(0, -base)
        while base + shift <= last {
            if feasible(scenario, shift: shift) { return scenario.day.advanced(by: shift) }
            shift += 1
        }
        return nil
    }
}

/// Random headroom series and scenarios over them, drawn with `SplitMix64`.
enum ScenarioDraw {
    static let origin = try! Day(iso: "2026-01-01")

    /// A level's headroom: a random walk with a salary a month and daily spending (the usual
    /// shape), a flat line, or small noisy values with many ties.
    static func headroom(_ random: inout SplitMix64, maxDays: Int) -> [Int64] {
        let count = Int.random(in: 1...maxDays, using: &random)
        switch Int.random(in: 0...5, using: &random) {
        case 0:
            return [Int64](repeating: Int64.random(in: -100_000...10_000_000, using: &random), count: count)
        case 1:
            return (0..<count).map { _ in Int64.random(in: -3...3, using: &random) * 100_000 }
        default:
            // Mostly saving a little each month from a positive start; sometimes not.
            var balance = Int64.random(in: Int.random(in: 0...4, using: &random) == 0 ? -500_000...1_000_000 : 1_000_000...20_000_000, using: &random)
            let salary = Int64.random(in: 100_000...30_000_000, using: &random)
            let spending = Int64.random(in: 0...(Int.random(in: 0...3, using: &random) == 0 ? salary / 25 : salary / 45), using: &random)
            let payday = Int.random(in: 0...29, using: &random)
            return (0..<count).map { t in
                if t % 30 == payday { balance += salary }
                balance -= Int64.random(in: 0...(2 * spending), using: &random)
                if Int.random(in: 0...60, using: &random) == 0 { balance -= Int64.random(in: 0...salary / 2 + 1, using: &random) }
                return balance
            }
        }
    }

    /// A valid random scenario over `headroom` from `today`: every kind of financing, purchase
    /// days before today and at the horizon, loans longer than the horizon, recurring costs and
    /// income changes, sales.
    static func scenario(_ random: inout SplitMix64, headroom: [Int64], today: Day) -> Scenario {
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        let last = headroom.count - 1
        let horizon = today.advanced(by: last)
        let scale = max(100, headroom.map { $0.magnitude }.max().map { Int64(min($0, 1 << 50)) } ?? 100)
        let price = Int64.random(in: 1...(chance(20) ? scale * 3 : scale), using: &random)
        let offset: Int
        switch int(0...5) {
        case 0: offset = -int(1...90)
        case 1: offset = 0
        case 2: offset = last
        case 3: offset = max(0, last - int(0...40))
        default: offset = int(0...last)
        }
        let day = today.advanced(by: offset)
        let financing: ScenarioFinancing
        switch int(0...2) {
        case 0:
            financing = .cash
        case 1:
            let down: Int64 = chance(20) ? 0 : chance(10) ? price : Int64.random(in: 0...price, using: &random)
            let term = chance(15) ? int(121...400) : chance(15) ? int(1...3) : int(1...120)
            // High rates on short terms only: an annuity on actual days at 100 % over 200 months
            // grows its balance past Int64 (the loan engine traps on it, the reference with it).
            let rate = chance(10) ? 0 : chance(10) && term <= 120 ? int(300_000...1_000_000) : 100 * int(1...3_000)
            financing = .loan(
                ScenarioLoan(
                    downPayment: down, rate: Rate(perMillion: Int64(rate)), term: term, method: chance(70) ? .annuity : .linear,
                    dayCount: DayCount.allCases.randomElement(using: &random)!))
        default:
            financing = .instalments(count: chance(20) ? 1 : int(1...36), first: chance(60) ? .purchaseDay : .oneMonthLater)
        }
        func recurring(sign: Bool) -> RecurringChange {
            var start = day.advanced(by: int(-60...200))
            if start > horizon { start = horizon }
            var amount = Int64.random(in: 1...(scale / 20 + 1), using: &random)
            if sign && chance(50) { amount = -amount }
            let end: Day? = chance(50) ? nil : start.advanced(by: int(0...500))
            return RecurringChange(amount: amount, period: chance(70) ? .monthly : .yearly, start: start, end: end)
        }
        let costs = (0..<(chance(50) ? 0 : int(1...2))).map { _ in recurring(sign: false) }
        let income = (0..<(chance(70) ? 0 : int(1...2))).map { _ in recurring(sign: true) }
        var sale: AssetSale? = nil
        if chance(25) {
            var saleDay = day.advanced(by: int(-30...60))
            if saleDay > horizon { saleDay = horizon }
            sale = AssetSale(day: saleDay, amount: Int64.random(in: 1...scale, using: &random))
        }
        return try! Scenario(price: price, day: day, financing: financing, costs: costs, incomeChanges: income, sale: sale)
    }
}
