/// When a deposit's interest is added to it.
public enum Capitalisation: String, Hashable, Sendable, CaseIterable {
    /// Every month on the opening day of the month (clamped to shorter months), and at maturity.
    case monthly
    /// Every three months on the opening day of the month, and at maturity.
    case quarterly
    /// Once, at maturity: simple interest on the daily balances.
    case atMaturity = "at-maturity"
}

/// Money put into (positive) or taken out of (negative) a deposit account on a day.
/// Minor units, positive into the deposit.
public typealias DepositFlow = DatedAmount

/// Something a deposit does by itself: credit interest, or pay everything out at maturity.
public struct DepositEvent: Hashable, Sendable {
    /// Interest credited, or the balance paid out at maturity.
    public enum Kind: String, Hashable, Sendable {
        /// Interest credited to the deposit.
        case interest
        /// The whole balance moved out of the deposit at maturity.
        case payout
    }

    public var kind: Kind
    public var day: Day
    /// Minor units, always positive: credited for `interest`, moved out for `payout`.
    public var amount: Int64
}

/// A term deposit or an open-ended savings account: interest accrues daily on the balance,
/// actual/actual, and is capitalised monthly, quarterly or at maturity.
///
/// ```swift
/// let deposit = try Deposit(rate: Rate(parsing: "12"), capitalisation: .monthly,
///                           opened: try Day(iso: "2025-01-10"), maturity: try Day(iso: "2026-01-10"))
/// let events = deposit.events(flows: [DepositFlow(day: deposit.opened, amount: 100_000_000)],
///                             through: deposit.maturity!)
/// events.first    // interest of 1 019 178 on 2025-02-10: 1 000 000.00 × 12 % × 31/365
/// events.last     // payout of the whole balance on 2026-01-10
/// ```
public struct Deposit: Hashable, Sendable {
    /// The annual rate, from 0 to `Rate.maximum`.
    public var rate: Rate
    public var capitalisation: Capitalisation
    /// The first day that earns interest.
    public var opened: Day
    /// The day the deposit closes and pays out; nil for an open-ended savings account.
    public var maturity: Day?

    /// The longest deposit: 100 years.
    public static let maximumYears = 100

    /// - Throws: `DepositError` for a rate outside 0–1000 %, a maturity not after `opened` or more
    ///   than 100 years after it, or `.atMaturity` capitalisation without a maturity.
    public init(rate: Rate, capitalisation: Capitalisation, opened: Day, maturity: Day? = nil) throws(DepositError) {
        guard rate.perMillion >= 0, rate <= Rate.maximum else {
            // `Rate(parsing:)` never gives a negative rate, and `description` expects none.
            let value = rate.perMillion < 0 ? "\(rate.perMillion) per million" : rate.description
            throw .invalid(field: "{rate}", value: value, reason: "must be from 0 to 1000 %")
        }
        if let maturity {
            guard maturity > opened else {
                throw .invalid(field: "{maturity}", value: maturity.iso, reason: "must be after the opening day \(opened)")
            }
            guard maturity <= opened.addingMonths(12 * Deposit.maximumYears) else {
                throw .invalid(field: "{maturity}", value: maturity.iso, reason: "is more than 100 years after the opening day \(opened)")
            }
        } else if capitalisation == .atMaturity {
            throw .invalid(
                field: "{capitalisation}", value: capitalisation.rawValue,
                reason: "needs a maturity day; an open-ended account capitalises monthly or quarterly")
        }
        self.rate = rate
        self.capitalisation = capitalisation
        self.opened = opened
        self.maturity = maturity
    }

    /// Whether the deposit matures within a year of `today` (or has matured already): money the
    /// ladder counts at level 5; open-ended accounts and longer deposits are level 6.
    public func isShortTerm(today: Day) -> Bool {
        guard let maturity else { return false }
        return maturity <= today.advanced(by: 365)
    }

    /// The `k`th capitalisation day from 1, before the maturity cut: counted from `opened` each
    /// time, so 31 January gives 28 February, then 31 March. Nil when only maturity capitalises.
    func regularCapitalisation(_ k: Int) -> Day? {
        switch capitalisation {
        case .monthly: return opened.addingMonths(k)
        case .quarterly: return opened.addingMonths(3 * k)
        case .atMaturity: return nil
        }
    }

    /// What the deposit does from its opening through `last` (inclusive), in day order, interest
    /// before payout on the same day.
    ///
    /// Each day `d` from `opened` on, the balance at the end of `d` earns
    /// `balance × rate / daysInYear(d)`. A capitalisation period `(P, C]` (P the previous
    /// capitalisation day or `opened`) earns the sum over `d = P … C−1`, exact, rounded half up
    /// once and credited at the end of `C`: an `interest` event, part of `C`'s end-of-day balance
    /// and so earning from the next period on (with `.atMaturity` there is one period, so the
    /// interest is simple). The maturity day always ends a period. There, after the interest, a
    /// `payout` event moves out the whole balance (including the flows of that day).
    ///
    /// - Flows may come in any order; those on one day add up. Flows before `opened` make up the
    ///   opening balance (they earn nothing before `opened`). Flows after maturity are ignored:
    ///   the deposit is closed, nothing accrues and no event follows.
    /// - A negative balance (more taken out than put in) earns nothing, as if it were 0, and a
    ///   balance of 0 or less at maturity pays nothing out. Periods that earn 0 give no event.
    /// - Amounts past Int64 (only absurd rates compounded for decades reach them) end the list
    ///   at the last event that fits. A deposit whose fields were set past what `init` accepts
    ///   (a maturity not after `opened`, `.atMaturity` without one) gives no events.
    /// - Capitalisation days in `made` (their interest, or at maturity the payout, already
    ///   recorded, or skipped) give no event and add nothing themselves: the transaction that
    ///   stands for them, if any, is among `flows`. A made maturity ends the list.
    /// - Complexity: O(flows × log flows + periods + years), at most O(days).
    public func events(flows: [DepositFlow], through last: Day, made: Set<Day> = []) -> [DepositEvent] {
        if let maturity, maturity <= opened { return [] }
        if maturity == nil && capitalisation == .atMaturity { return [] }
        guard last > opened else { return [] }
        let end = min(last, maturity ?? last)
        let flows = flows.sorted { $0.day < $1.day }
        let perMillion = UInt64(clamping: rate.perMillion)
        let basis = UInt64(1_000_000) * DayCount.actualActual.basis

        var events: [DepositEvent] = []
        var balance: Int64 = 0
        var next = 0  // the next flow
        /// Adds the flows up to `day` (inclusive) to the balance; false past Int64.
        func addFlows(through day: Day) -> Bool {
            while next < flows.count, flows[next].day <= day {
                let (sum, overflow) = balance.addingReportingOverflow(flows[next].amount)
                if overflow { return false }
                balance = sum
                next += 1
            }
            return true
        }
        guard addFlows(through: opened) else { return events }

        var k = 1
        var previous = opened
        while true {
            var day = regularCapitalisation(k) ?? maturity!
            if let maturity, day > maturity { day = maturity }
            guard day <= end else { return events }
            // Σ balance × weight, a segment per constant balance: the actual/actual numerator
            // counts each day of a 365-day year as 366 and of a 366-day year as 365 over 365 × 366.
            var accrued = Wide(0)
            var from = previous
            func accrue(to stop: Day) -> Bool {
                let weight = DayCount.actualActual.numerator(from: from, to: stop)
                guard let sum = accrued.adding(Wide(UInt64(max(balance, 0)), times: weight)) else { return false }
                accrued = sum
                from = stop
                return true
            }
            while next < flows.count, flows[next].day < day {
                let flowDay = flows[next].day
                guard accrue(to: flowDay), addFlows(through: flowDay) else { return events }
            }
            guard accrue(to: day), addFlows(through: day),
                let scaled = accrued.multiplied(by: perMillion),
                let rounded = scaled.divided(by: basis, .halfUp), let interest = Int64(exactly: rounded)
            else { return events }
            if made.contains(day) {
                if day == maturity { return events }
            } else if interest > 0 {
                let (sum, overflow) = balance.addingReportingOverflow(interest)
                if overflow { return events }
                balance = sum
                events.append(DepositEvent(kind: .interest, day: day, amount: interest))
            }
            if day == maturity {
                if balance > 0 { events.append(DepositEvent(kind: .payout, day: day, amount: balance)) }
                return events
            }
            previous = day
            k += 1
        }
    }
}

/// Why a deposit's terms are not accepted.
public typealias DepositError = FieldError
