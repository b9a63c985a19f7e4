/// When a card's statement must be paid.
public enum CardDue: Hashable, Sendable {
    /// On this day of the month (1…31): the first such day after the statement, 29–31 falling
    /// on the last day of shorter months; never the statement day itself. A statement on the
    /// 25th due on the 15th is paid on the 15th of the next month; one on the 5th due on the
    /// 20th, on the 20th of the same month.
    case dayOfMonth(Int)
    /// This many days (1…27) after the statement, so the due day always comes before the next one.
    case daysAfterStatement(Int)
}

/// What capital pays off a statement on its due day.
public enum CardPayback: Hashable, Sendable {
    /// The whole statement balance.
    case full
    /// `max(debt × percent, floor)`, rounded half up, never more than the debt: the issuer's minimum.
    case minimum(percent: Rate, floor: Int64)
    /// A fixed amount, or the debt when that is less.
    case fixed(Int64)

    /// What the policy asks of a statement balance of `debt` minor units (0 when there is no debt).
    func amount(for debt: Int64) -> Int64 {
        guard debt > 0 else { return 0 }
        switch self {
        case .full:
            return debt
        case .minimum(let percent, let floor):
            // percent ≤ 100 %, so the share is at most the debt and fits 64 bits.
            let perMillion = UInt64(min(max(percent.perMillion, 0), 1_000_000))
            let share = Wide(UInt64(debt), times: perMillion).divided(by: 1_000_000, .halfUp).map { Int64($0) } ?? debt
            return min(max(share, floor), debt)
        case .fixed(let amount):
            return min(max(amount, 0), debt)
        }
    }
}

/// Whether a statement not paid in full keeps its interest-free period.
public enum CardGrace: String, Hashable, Sendable, CaseIterable {
    /// Interest only on the balance carried past the due day, from the due day to the next statement.
    case keep
    /// A statement not paid in full by its due day also pays interest on the whole statement
    /// balance from the statement day to the due day, on top of the carried balance's.
    case lose
}

/// A credit card's terms: when its statements fall, when they are due, how capital pays them
/// and what a carried balance costs. `cycles(opening:flows:from:today:through:)` runs them.
///
/// ```swift
/// let card = try CreditCard(limit: 500_000, statementDay: 25, due: .dayOfMonth(15),
///                           payback: .full, rate: Rate(parsing: "24"))
/// card.dueDay(forStatement: try Day(iso: "2025-03-25"))   // 2025-04-15
/// ```
public struct CreditCard: Hashable, Sendable {
    /// The credit limit in minor units, 1 … 10^15. The engine does not enforce it.
    public var limit: Int64
    /// The day of the month statements fall on, 1…31: 29–31 fall on the last day of shorter
    /// months (31 is the last day of every month).
    public var statementDay: Int
    public var due: CardDue
    public var payback: CardPayback
    /// Annual interest on the carried balance, actual/365.
    public var rate: Rate
    public var grace: CardGrace

    /// The largest limit capital accepts: 10^15 minor units.
    public static let maximumLimit: Int64 = 1_000_000_000_000_000

    /// - Throws: `CardError.invalid` naming the command-line option whose value is out of range.
    public init(
        limit: Int64, statementDay: Int, due: CardDue, payback: CardPayback, rate: Rate, grace: CardGrace = .keep
    ) throws(CardError) {
        guard limit > 0 else { throw .invalid(field: "{limit}", value: "\(limit)", reason: "must be more than 0") }
        guard limit <= CreditCard.maximumLimit else {
            throw .invalid(field: "{limit}", value: "\(limit)", reason: "is over 10^15 minor units")
        }
        guard (1...31).contains(statementDay) else {
            throw .invalid(
                field: "{statementDay}", value: "\(statementDay)",
                reason: "a statement day is 1 to 31 (29–31 fall on the last day of shorter months)")
        }
        switch due {
        case .dayOfMonth(let day):
            guard (1...31).contains(day) else {
                throw .invalid(field: "{dueDay}", value: "\(day)", reason: "a due day is 1 to 31 (29–31 fall on the last day of shorter months)")
            }
            guard day != statementDay else {
                throw .invalid(field: "{dueDay}", value: "\(day)", reason: "must differ from the statement day \(statementDay)")
            }
        case .daysAfterStatement(let days):
            guard (1...27).contains(days) else {
                throw .invalid(
                    field: "{dueAfter}", value: "\(days)", reason: "must be 1 to 27 days, so the due day comes before the next statement")
            }
        }
        switch payback {
        case .full:
            break
        case .minimum(let percent, let floor):
            guard percent.perMillion > 0, percent.perMillion <= 1_000_000 else {
                throw .invalid(field: "{minimum}", value: CreditCard.percentText(percent), reason: "must be more than 0 and at most 100 %")
            }
            guard floor >= 0 else { throw .invalid(field: "{minimumFloor}", value: "\(floor)", reason: "cannot be negative") }
        case .fixed(let amount):
            guard amount > 0 else { throw .invalid(field: "{fixed}", value: "\(amount)", reason: "must be more than 0") }
        }
        guard rate.perMillion >= 0, rate <= Rate.maximum else {
            throw .invalid(field: "{rate}", value: CreditCard.percentText(rate), reason: "must be from 0 to 1000 %")
        }
        self.limit = limit
        self.statementDay = statementDay
        self.due = due
        self.payback = payback
        self.rate = rate
        self.grace = grace
    }

    /// The latest statement day on or before `day`.
    public func statement(onOrBefore day: Day) -> Day {
        let month = statementMonth(onOrBefore: day)
        return statement(inMonth: month)
    }

    /// Where a card's cycles seen from `today` start: the statement before the one before today,
    /// so that a statement not paid by its due day stays overdue after the next one falls.
    public func cyclesStart(today: Day) -> Day {
        statement(onOrBefore: statement(onOrBefore: today.advanced(by: -1)).advanced(by: -1))
    }

    /// The first statement day after `day`.
    public func statement(after day: Day) -> Day {
        statement(inMonth: statementMonth(onOrBefore: day) + 1)
    }

    /// The day a statement falls due. A `dayOfMonth` that would reach the next statement in a
    /// short month (a statement on the 31st due on the 28th, in February) moves to the day before it.
    public func dueDay(forStatement statement: Day) -> Day {
        switch due {
        case .daysAfterStatement(let days):
            return statement.advanced(by: min(max(days, 1), 27))
        case .dayOfMonth(let dayOfMonth):
            let wanted = min(max(dayOfMonth, 1), 31)
            let c = statement.civil
            let sameMonth = statement.number - c.day + min(wanted, Day.daysIn(month: c.month, year: c.year))
            let (year, month) = Day.shift(year: c.year, month: c.month, by: 1)
            let nextMonth = Day.daysFromCivil(year: year, month: month, day: min(wanted, Day.daysIn(month: month, year: year)))
            let day = sameMonth > statement.number ? sameMonth : nextMonth
            return Day(min(day, self.statement(after: statement).number - 1))
        }
    }

    /// The statement cycles whose statement falls in `from ... last`, in order: each statement's
    /// balance, the interest charged on it and what capital pays back on its due day.
    ///
    /// The card's balance is negative while money is owed. `opening` is the balance at the end of
    /// the day before `from`; `flows` are the real flows into the card account on `from ... last`
    /// (spending negative, payments and refunds positive; any order; others are ignored), without
    /// the paybacks and interest this generates. Day by day, each day's flows come first; then on
    /// a statement day the interest for the cycle before (when that cycle's statement is in the
    /// window and the statement is on or after `today`), and the debt is what is owed; on a due
    /// day on or after `today`, the payback policy less the real credits since the statement, at
    /// most what is owed then. A due day of a statement before `from` generates nothing; a
    /// cycle due after `last` pays nothing and counts as carried what is unpaid by `last`. The
    /// statements in `skipped` pay nothing back: what they owe is carried to the next.
    /// - Complexity: O(flows + cycles).
    ///
    /// `overdue` is the payment of what an earlier statement left unpaid (made today): it lowers
    /// the balance like any payment, and counts toward the statement it falls in only when that
    /// statement is paid in full (its balance holds the unpaid rest); a minimum or fixed payback
    /// still asks its own amount.
    public func cycles(
        opening: Int64, flows: [CardFlow], from: Day, today: Day, through last: Day, skipped: Set<Day> = [], overdue: CardFlow? = nil
    ) -> [CardCycle] {
        guard from <= last else { return [] }
        var statements: [Day] = []
        var next = statement(onOrBefore: from) == from ? from : statement(after: from)
        while next <= last {
            statements.append(next)
            next = statement(after: next)
        }
        guard let first = statements.first else { return [] }
        let dues = statements.map(dueDay(forStatement:))
        let firstMonth = statementMonth(onOrBefore: first)

        // Sums of the real flows by stretch: up to the first statement, then per cycle from the
        // statement to its due day (and the credits among them), and from there to the next statement.
        var opening = opening
        var beforeDue = [Int64](repeating: 0, count: statements.count)
        var credits = beforeDue
        var afterDue = beforeDue
        // Paid toward an earlier statement: lowers what is carried, not what this one asks.
        var paidLate = beforeDue
        // The overdue payment, by when it is made: by this cycle's due day (an earlier statement's
        // rest, carried in), or after it (this statement's own rest): it costs interest until then.
        var lateBeforeDue = beforeDue
        var lateAfterDue = beforeDue
        let late = overdue.map { [($0, payback != .full, true)] } ?? []
        for (flow, isLate, isOverdue) in flows.map({ ($0, false, false) }) + late where flow.day >= from && flow.day <= last {
            guard flow.day > first else {
                opening = saturatingSum(opening, flow.amount)
                continue
            }
            // A flow on a statement day is that statement's: its cycle is the one before.
            let k = statementMonth(onOrBefore: flow.day.advanced(by: -1)) - firstMonth
            if flow.day <= dues[k] {
                beforeDue[k] = saturatingSum(beforeDue[k], flow.amount)
                if flow.amount > 0 {
                    if isLate { paidLate[k] = saturatingSum(paidLate[k], flow.amount) } else { credits[k] = saturatingSum(credits[k], flow.amount) }
                    if isOverdue { lateBeforeDue[k] = saturatingSum(lateBeforeDue[k], flow.amount) }
                }
            } else {
                afterDue[k] = saturatingSum(afterDue[k], flow.amount)
                if isOverdue { lateAfterDue[k] = saturatingSum(lateAfterDue[k], flow.amount) }
            }
        }

        var result: [CardCycle] = []
        result.reserveCapacity(statements.count)
        var balance = opening
        for (k, statement) in statements.enumerated() {
            var cycle = CardCycle(statement: statement, due: dues[k], interest: 0, debt: 0, payback: 0, carried: 0)
            if k > 0, statement >= today {
                let previous = result[k - 1]
                cycle.interest = interest(
                    debt: previous.debt, carried: previous.carried, statement: previous.statement, due: previous.due, next: statement,
                    late: overdue.map { (lateBeforeDue[k - 1], lateAfterDue[k - 1], $0.day) })
                balance = saturatingSum(balance, -cycle.interest)
            }
            cycle.debt = CreditCard.owed(balance)
            balance = saturatingSum(balance, beforeDue[k])
            if cycle.due <= last, cycle.due >= today, !skipped.contains(statement) {
                let asked = max(0, payback.amount(for: cycle.debt) - credits[k])
                cycle.payback = min(asked, CreditCard.owed(balance))
                balance = saturatingSum(balance, cycle.payback)
            }
            cycle.carried = max(0, cycle.debt - saturatingSum(saturatingSum(credits[k], paidLate[k]), cycle.payback))
            balance = saturatingSum(balance, afterDue[k])
            result.append(cycle)
        }
        return result
    }

    /// Interest charged at `next` for the cycle of `statement`: the carried balance from the due
    /// day on and, when the grace is lost, the whole debt from the statement to the due day; one
    /// exact fraction over 365 days, rounded half up once (`Int64.max` past 64 bits).
    ///
    /// `late` is the overdue payment of an earlier statement's rest made on `day` in this cycle:
    /// `before` its due day (that rest was carried in from the statement on, so it costs interest
    /// from the statement to `day` while the grace is kept; a lost grace charges the whole debt
    /// already), `after` it (this statement's own rest, carried from the due day to `day`, not to
    /// `next`).
    func interest(
        debt: Int64, carried: Int64, statement: Day, due: Day, next: Day, late: (before: Int64, after: Int64, day: Day)? = nil
    ) -> Int64 {
        let perMillion = UInt64(min(max(rate.perMillion, 0), Rate.maximum.perMillion))
        let before = grace == .keep ? max(0, late?.before ?? 0) : 0
        let after = min(max(0, late?.after ?? 0), max(0, carried))
        guard carried > 0 || before > 0, perMillion > 0 else { return 0 }
        var numerator = Wide(UInt64(carried - after), times: perMillion).multiplied(by: UInt64(max(0, next.number - due.number)))
        if let late, numerator != nil {
            let afterPart = Wide(UInt64(after), times: perMillion).multiplied(by: UInt64(max(0, min(late.day, next).number - due.number)))
            let beforePart = Wide(UInt64(before), times: perMillion).multiplied(by: UInt64(max(0, min(late.day, next).number - statement.number)))
            numerator = afterPart.flatMap { a in beforePart.flatMap { b in numerator!.adding(a).flatMap { $0.adding(b) } } }
        }
        if grace == .lose, let carriedPart = numerator {
            let debtPart = Wide(UInt64(max(0, debt)), times: perMillion).multiplied(by: UInt64(max(0, due.number - statement.number)))
            numerator = debtPart.flatMap(carriedPart.adding)
        }
        guard let quotient = numerator?.divided(by: 365 * 1_000_000, .halfUp), quotient <= UInt64(Int64.max) else { return .max }
        return Int64(quotient)
    }

    /// `year × 12 + month − 1` of the latest statement on or before `day`.
    private func statementMonth(onOrBefore day: Day) -> Int {
        let c = day.civil
        let month = c.year * 12 + c.month - 1
        return c.day >= min(clampedStatementDay, Day.daysIn(month: c.month, year: c.year)) ? month : month - 1
    }

    /// The statement day of the month `year × 12 + month − 1`.
    private func statement(inMonth index: Int) -> Day {
        let (year, month) = Day.shift(year: 0, month: 1, by: index)
        return Day(Day.daysFromCivil(year: year, month: month, day: min(clampedStatementDay, Day.daysIn(month: month, year: year))))
    }

    /// `statementDay`, held to 1…31 should it have been set out of range after `init`.
    private var clampedStatementDay: Int { min(max(statementDay, 1), 31) }

    /// What a balance owes: its negation when negative, else 0.
    private static func owed(_ balance: Int64) -> Int64 {
        balance >= 0 ? 0 : balance == .min ? .max : -balance
    }

    private static func percentText(_ rate: Rate) -> String {
        guard rate.perMillion < 0 else { return rate.description }
        return rate.perMillion == .min ? "\(rate.perMillion) millionths" : "-" + Rate(perMillion: -rate.perMillion).description
    }
}

/// A real flow into a card account: spending is negative (the debt grows), a payment or refund positive.
public typealias CardFlow = DatedAmount

/// One statement of a card and what became of it.
public struct CardCycle: Hashable, Sendable {
    public var statement: Day
    public var due: Day
    /// Interest charged at this statement for the cycle before (already in `debt`); 0 for a
    /// statement before `today`.
    public var interest: Int64
    /// What the statement says is owed: the balance owing at the end of the statement day, after interest.
    public var debt: Int64
    /// What capital pays on the due day; 0 for a due day before `today` or after the window.
    public var payback: Int64
    /// What is still unpaid of `debt` at the end of the due day, counting the real payments and
    /// refunds since the statement and the payback.
    public var carried: Int64
}

/// Why a card's terms are refused.
public typealias CardError = FieldError
