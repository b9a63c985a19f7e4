import CapitalCore
import CapitalStore

/// Where a stored card stands today: its balance and its statement cycles.
public struct CardStatus: Sendable {
    public let card: LedgerCard
    public let account: Account
    /// The account paybacks come from.
    public let payFrom: Account?
    public let today: Day
    /// Today's balance, with what the instruments make up to today (negative: owed).
    public let balance: Int64
    /// From the statement before today, two statements ahead (enough for the next statement and its due day).
    public let cycles: [CardCycle]
    /// The last statement due before today, when part of what it asked is unpaid, and that part.
    public let late: CardCycle?
    public let overdue: Int64
    /// When something is overdue: the first due day it missed (`Ledger.overdueSince`), which does
    /// not move on with each statement while the debt stays unpaid.
    public let overdueSince: Day?

    /// What is owed today (never below zero).
    public var debt: Int64 { max(0, -balance) }
    /// The credit left today (never below zero).
    public var available: Int64 { max(0, card.terms.limit + balance) }
    /// The statement issued on or before today whose due day is still ahead (or today).
    public var open: CardCycle? { cycles.last { $0.statement <= today && $0.due >= today } }
    /// The first statement after today.
    public var nextStatement: Day { card.terms.statement(after: today) }
    /// The last statement on or before today.
    public var lastStatement: CardCycle? { cycles.last { $0.statement <= today } }
    /// The cycle of the first statement after today.
    public var nextCycle: CardCycle? { cycles.first { $0.statement > today } }
}

extension Store {
    /// The status of the card `reference` names (its account's name or an id prefix).
    /// - Throws: `StoreError` when there is no such card; as `cardStatuses(today:of:)`.
    public func cardStatus(_ reference: String, today: Day) throws -> CardStatus {
        try cardStatuses(today: today, of: [try card(reference)])[0]
    }

    /// The status of `cards` (every card when nil) from one read of the ledger.
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` when its instruments
    ///   cannot be laid out to today.
    public func cardStatuses(today: Day, of cards: [LedgerCard]? = nil) throws -> [CardStatus] {
        let stored = try snapshot(asOf: [today])
        let calendars = try calendars(for: stored)
        let ledger = try instrumentLedger(stored, today: today, through: today, calendars: calendars)
        let balances: [BalanceKey: Int64]
        do { balances = try ledger.balances(on: today) } catch { throw KitError.engine(context: "balance", reason: KitError.template(error)) }
        // The whole history, read only when a card is overdue: since when it is.
        var history: Ledger?
        return try (cards ?? stored.cards).map { card in
            guard let account = stored.accounts.first(where: { $0.id == card.accountID }) else {
                throw StoreError.notFound(what: "card account", reference: card.accountID, hint: nil)
            }
            let (cycles, late, overdue) = stored.cardCycles(card, today: today, horizon: today.advanced(by: 70), calendars: calendars)
            var since: Day?
            if let late {
                if history == nil { history = try snapshot() }
                since = history?.overdueSince(card, today: today, calendars: calendars) ?? late.due
            }
            return CardStatus(
                card: card, account: account, payFrom: stored.accounts.first { $0.id == card.payFromID }, today: today,
                balance: balances[BalanceKey(accountID: card.accountID, currency: account.currency)] ?? 0,
                cycles: cycles, late: late, overdue: overdue, overdueSince: since)
        }
    }
}
