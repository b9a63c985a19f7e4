/// A credit card in the exact answer: its unused credit pays for purchases on it only, and a
/// purchase on it leaves the card's paying account on the due day of the statement it joins.
///
/// At the forecast levels (4–6) a card with terms is not pooled with the level's other accounts:
/// a purchase of `x` on day `d` takes `x` of the card's room from `d` until its payback day and
/// `x` of the pool's room from the payback day on (`SplitAvailability`).
public struct CardConstraint: Sendable {
    /// How much of a card's credit the exact answer counts.
    public enum Counting: Hashable, Sendable {
        /// Paid back in full on the due day from an account of the pool: the card's room until
        /// then, the pool's from then on.
        case paidFromPool
        /// Paid back from an account outside the pool: the card's room limits it, and what that
        /// account can pay from the payback on (none: the card's room alone).
        case paidOutsidePool
        /// Paid back by a minimum or fixed amount: a purchase costs its paying account the extra
        /// payments the card's own terms make, with interest, to the horizon (`CardRepayment`).
        case paidOverTime
        /// Paid back by a minimum or fixed amount, with no cycles to run (the card was given
        /// without its repayment): its credit is not counted.
        case notCounted
    }

    /// The card's index in the timeline's accounts.
    public let account: Int
    /// The card's balance less its floor (minus its limit unless it has a floor of its own), today first.
    public let headroom: [Int64]
    public let terms: CreditCard
    public let counting: Counting
    /// The paying account's index in the timeline's accounts, when it has one there.
    public let payFrom: Int?
    let range: RangeMinimum
    /// Paid from outside the pool: the paying account's own room (balance less floor), whose
    /// lowest from the payback on bounds a purchase on the card too.
    let payingRoom: RangeMinimum?
    /// Paid over time: the card's cycles, to run again with a purchase.
    public let repayment: CardRepayment?
    /// Paid over time from an account of the pool (else from outside it, or from none).
    public let repaidFromPool: Bool

    /// A card at timeline index `account` whose room is `headroom`, paid from `payFrom`; paid
    /// from outside the pool, `payingRoom` is that account's room day by day; paid over time,
    /// `repayment` runs its cycles and `repaidFromPool` says whether the pool pays them.
    /// - Complexity: O(days log days) for the range-minimum tables.
    public init(
        account: Int, headroom: [Int64], terms: CreditCard, counting: Counting, payFrom: Int?, payingRoom: [Int64]? = nil,
        repayment: CardRepayment? = nil, repaidFromPool: Bool = false
    ) {
        self.account = account
        self.repayment = repayment
        self.repaidFromPool = repaidFromPool
        self.headroom = headroom
        self.terms = terms
        self.counting = counting
        self.payFrom = payFrom
        self.range = RangeMinimum(headroom)
        self.payingRoom = payingRoom.map(RangeMinimum.init)
    }

    /// The day a purchase made on `day` is paid back: the due day of the statement it joins (the
    /// first statement on or after `day`; a purchase on a statement day is that statement's).
    public func paybackDay(forPurchaseOn day: Day) -> Day {
        let statement = terms.statement(onOrBefore: day) == day ? day : terms.statement(after: day)
        return terms.dueDay(forStatement: statement)
    }
}

/// One part of the split that reaches an exact answer: an amount from the pool, or on one card.
public struct SpendPart: Hashable, Sendable {
    /// What limits a part.
    public enum Binding: Hashable, Sendable {
        /// The pool's lowest day, from the asked day on (for the pool's own part, and for every
        /// part when the pool is short already).
        case pool(Day)
        /// The card's limit, reached on this day before the payback.
        case limit(Day)
        /// The payback on this day (the horizon's last, when it falls after it) moves the part to
        /// the pool, or to the paying account outside it, whose lowest day from then on binds.
        case payback(Day)
        /// Paid back over time (a minimum or fixed amount): what its payments, with interest, take
        /// from the pool (or its paying account) binds, lowest on this day.
        case repayments(Day)
        /// The card's payback is a minimum or fixed amount and its cycles were not given: its
        /// credit is not counted.
        case notCounted
        /// The card is already over its limit on this day before the payback: nothing more fits.
        case overLimit(Day)
    }

    /// The timeline index of the account to pay from: a pool account, or the card.
    public var account: Int
    public var amount: Int64
    /// Whether the part is on a card (else from the pool).
    public var isCard: Bool
    public var binding: Binding
    /// For a card: the day its purchase is paid back (after the horizon when it is later: the
    /// pool then pays for it on the horizon's last day); paid over time, the first payment's
    /// day; else nil.
    public var payback: Day?
    /// For a card: it is paid back from an account outside the pool (or none), so its limit and
    /// that account's room count, not the pool's.
    public var outsidePool = false
}
