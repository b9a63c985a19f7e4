/// One posting of a schedule into an account with a series: its slot and its amount per case.
struct Leg {
    var account: Int
    /// The posting's position in the schedule's template.
    var position: Int
    /// The template amount (expected).
    var amount: Int64
    /// Whether the amount follows the schedule's range (two-posting schedules with an amount model).
    var ranged: Bool
    var outflow: Bool

    /// The leg's amount for one occurrence: expected, pessimistic (the worse end for the account)
    /// and optimistic. The template holds +expected / −expected; a range gives the ends.
    @inline(__always)
    func amounts(_ model: AmountModel?) -> (expected: Int64, worse: Int64, better: Int64) {
        guard ranged, let model else { return (amount, amount, amount) }
        return outflow ? (-model.expected, -model.high, -model.low) : (model.expected, model.low, model.high)
    }

    static func legs(of schedule: Schedule, slot: [String: Int], accounts: [Account]) -> [Leg] {
        var legs: [Leg] = []
        for (position, posting) in schedule.postings.enumerated() {
            guard let account = slot[posting.accountID], posting.amount.currency == accounts[account].currency else { continue }
            // A ranged schedule moves its amount from its second posting into its first, whatever
            // the template's sign (an expected amount of 0 has none).
            let outflow = schedule.amount != nil && schedule.postings.count == 2 ? position == 1 : posting.amount.minor < 0
            legs.append(Leg(account: account, position: position, amount: posting.amount.minor, ranged: schedule.amount != nil, outflow: outflow))
        }
        return legs
    }
}

/// Per-account day deltas, then prefix sums: the timeline's kernel. Pessimistic and optimistic
/// deltas are kept as corrections to the expected ones, allocated only when a range needs them.
struct DeltaBuilder {
    let accounts: Int
    let days: Int
    var expected: [Int64]
    var pessimistic: [Int64] = []
    var optimistic: [Int64] = []
    var overflowed = false
    var overflowAccount: Int?

    /// The day of index 1 (tomorrow), where `lay` starts.
    let firstDay: Day

    init(accounts: Int, days: Int, today: Day) {
        self.accounts = accounts
        self.days = days
        self.firstDay = today.advanced(by: 1)
        expected = [Int64](repeating: 0, count: accounts * days)
    }

    /// Adds an amount with its pessimistic and optimistic variants for an account on a day index.
    mutating func add(_ minor: Int64, account: Int, day: Int, low: Int64, high: Int64) {
        let slot = account * days + day
        let (sum, overflow) = expected[slot].addingReportingOverflow(minor)
        if overflow {
            overflowed = true
            overflowAccount = account
            return
        }
        expected[slot] = sum
        if low != minor || high != minor {
            allocateRanges()
            // Pessimistic: the worse end for this account (lower), optimistic: the better end.
            let (p, o1) = pessimistic[slot].addingReportingOverflow(low - minor)
            let (q, o2) = optimistic[slot].addingReportingOverflow(high - minor)
            if o1 || o2 {
                overflowed = true
                overflowAccount = account
                return
            }
            pessimistic[slot] = p
            optimistic[slot] = q
        }
    }

    /// Adds one occurrence of a schedule at its template amounts (or its range).
    @inline(__always)
    mutating func add(legs: [Leg], model: AmountModel?, day: Int) {
        for leg in legs {
            let (amount, worse, better) = leg.amounts(model)
            add(amount, account: leg.account, day: day, low: worse, high: better)
        }
    }

    /// Adds every occurrence of `rule` from day index 1 (tomorrow) through `last` onto each leg's
    /// row, no work per occurrence beyond the addition. One amount to lay (one leg, no range)
    /// goes straight in by `Rule.addAmount`; several (two legs, or a range's corrections) share
    /// one expansion.
    mutating func lay(_ rule: Rule, start: Day, calendar: WorkingDayCalendar, legs: [Leg], model: AmountModel?, through last: Int) {
        guard last >= 1 else { return }
        if legs.count == 1 {
            // The common case, one leg without a range: straight in, nothing listed.
            let leg = legs[0]
            let (amount, worse, better) = leg.amounts(model)
            if worse == amount && better == amount {
                if amount != 0 { layOne(Layer(row: 0, base: leg.account * days, account: leg.account, minor: amount), rule, start, calendar, last) }
                return
            }
        }
        var layers: [Layer] = []
        for leg in legs {
            let (amount, worse, better) = leg.amounts(model)
            let base = leg.account * days
            if amount != 0 { layers.append(Layer(row: 0, base: base, account: leg.account, minor: amount)) }
            if worse != amount || better != amount {
                allocateRanges()
                if worse != amount { layers.append(Layer(row: 1, base: base, account: leg.account, minor: worse - amount)) }
                if better != amount { layers.append(Layer(row: 2, base: base, account: leg.account, minor: better - amount)) }
            }
        }
        if layers.isEmpty { return }
        if layers.count == 1 {
            layOne(layers[0], rule, start, calendar, last)
            return
        }
        // Several: one expansion, each day adding every layer's amount at its row.
        let fits = expected.withUnsafeMutableBufferPointer { e in
            pessimistic.withUnsafeMutableBufferPointer { p in
                optimistic.withUnsafeMutableBufferPointer { o in
                    withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Int64>.self, capacity: layers.count) { slots in
                        withUnsafeTemporaryAllocation(of: Int64.self, capacity: layers.count) { amounts in
                            for (index, layer) in layers.enumerated() {
                                let row = layer.row == 0 ? e : layer.row == 1 ? p : o
                                // Day index d (1 = firstDay) is at slot base + d: day number n at base + 1 + n − firstDay.
                                slots[index] = row.baseAddress! + layer.base + 1 - firstDay.number
                                amounts[index] = layer.minor
                            }
                            return rule.addAmounts(
                                UnsafeBufferPointer(slots), UnsafeBufferPointer(amounts), start: start, calendar: calendar,
                                in: DayRange(firstDay, firstDay.advanced(by: last)))
                        }
                    }
                }
            }
        }
        if !fits { overflow(at: layers[0].account) }
    }

    /// An amount to lay: its row (0 expected, 1 pessimistic, 2 optimistic), the slot of day index
    /// 0 of its account in the row, the account, the amount.
    private struct Layer {
        var row: Int
        var base: Int
        var account: Int
        var minor: Int64
    }

    /// Lays one amount by `Rule.addAmount` (which takes its additions back on overflow).
    private mutating func layOne(_ layer: Layer, _ rule: Rule, _ start: Day, _ calendar: WorkingDayCalendar, _ last: Int) {
        let firstDay = firstDay
        func lay(into values: inout [Int64]) -> Bool {
            values.withUnsafeMutableBufferPointer { all in
                rule.addAmount(
                    layer.minor, start: start, calendar: calendar, into: .init(rebasing: all[layer.base + 1...layer.base + last]), firstDay: firstDay)
            }
        }
        let fits = layer.row == 0 ? lay(into: &expected) : layer.row == 1 ? lay(into: &pessimistic) : lay(into: &optimistic)
        if !fits { overflow(at: layer.account) }
    }

    /// The builder overflowed at an account's row: `balances()` gives nil (the rows are left as
    /// they are; nothing reads them after).
    private mutating func overflow(at account: Int) {
        overflowed = true
        overflowAccount = account
    }

    private mutating func allocateRanges() {
        if pessimistic.isEmpty {
            pessimistic = [Int64](repeating: 0, count: accounts * days)
            optimistic = [Int64](repeating: 0, count: accounts * days)
        }
    }

    /// Adds one occurrence with exceptions applied (its own amount model).
    mutating func add(legs: [Leg], occurrence: ScheduleOccurrence, schedule: Schedule, day: Int) {
        if schedule.amount != nil {
            add(legs: legs, model: occurrence.amount, day: day)
            return
        }
        // A split: the occurrence's own postings (a re-amounted one changes the first and the last).
        for leg in legs {
            let amount = occurrence.postings[leg.position].amount.minor
            add(amount, account: leg.account, day: day, low: amount, high: amount)
        }
    }

    /// Prefix sums into end-of-day balances per case; nil on overflow.
    mutating func balances() -> [[Int64]]? {
        if overflowed { return nil }
        if let account = DeltaBuilder.prefix(&expected, accounts: accounts, days: days) {
            overflowAccount = account
            return nil
        }
        if pessimistic.isEmpty { return [expected, expected, expected] }
        if let account = DeltaBuilder.correct(&pessimistic, expected, accounts: accounts, days: days)
            ?? DeltaBuilder.correct(&optimistic, expected, accounts: accounts, days: days)
        {
            overflowAccount = account
            return nil
        }
        return [expected, pessimistic, optimistic]
    }

    /// Running sums per account in place; the account that overflows, or nil.
    private static func prefix(_ values: inout [Int64], accounts: Int, days: Int) -> Int? {
        values.withUnsafeMutableBufferPointer { values in
            for account in 0..<accounts {
                var running: Int64 = 0
                for slot in account * days..<(account + 1) * days {
                    let (sum, overflow) = running.addingReportingOverflow(values[slot])
                    if overflow { return account }
                    running = sum
                    values[slot] = sum
                }
            }
            return nil
        }
    }

    /// Per-day corrections into one case's balances, in place: the expected balance plus the
    /// corrections' running sum, in one pass. The account that overflows, or nil.
    private static func correct(_ corrections: inout [Int64], _ expected: [Int64], accounts: Int, days: Int) -> Int? {
        expected.withUnsafeBufferPointer { expected in
            corrections.withUnsafeMutableBufferPointer { values in
                for account in 0..<accounts {
                    var running: Int64 = 0
                    for slot in account * days..<(account + 1) * days {
                        let (sum, o1) = running.addingReportingOverflow(values[slot])
                        let (balance, o2) = expected[slot].addingReportingOverflow(sum)
                        if o1 || o2 { return account }
                        running = sum
                        values[slot] = balance
                    }
                }
                return nil
            }
        }
    }
}
