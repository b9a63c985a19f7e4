import CapitalCore
import CapitalStore

/// What the forecast makes of a stored deposit: today's balance (what was posted and its
/// history's interest), its ladder level, and the interest and payout expected from today to its
/// maturity (or a year ahead for an open-ended account), overdue ones today.
public struct DepositStatus: Sendable {
    public let deposit: LedgerDeposit
    public let account: Account
    /// Where the balance goes at maturity; nil when it stays in the deposit.
    public let payoutAccount: Account?
    public let balance: Int64
    /// The level the deposit counts at: its own, else 5 when it matures within a year, else 6.
    public let level: Int
    /// The forecast's transactions of this deposit from today on.
    public let ahead: [Transaction]

    /// The interest a transaction of the deposit credits (the payout at maturity carries the last).
    public func interest(of transaction: Transaction) -> Int64 {
        -(transaction.postings.first { $0.accountID == deposit.interestCategoryID }?.amount.minor ?? 0)
    }

    /// Transactions ahead that credit interest.
    public var interest: [Transaction] { ahead.filter { interest(of: $0) > 0 } }
    /// The payout at maturity, when the deposit pays out to another account.
    public var payout: Transaction? {
        guard let payoutID = deposit.payoutID else { return nil }
        return ahead.first { $0.postings.contains { $0.accountID == payoutID } }
    }
    /// What the payout moves to the payout account.
    public var payoutAmount: Int64? { payout?.postings.first { $0.accountID == deposit.payoutID }?.amount.minor }
    /// The sum of the interest credited ahead (saturating: it cannot pass the largest amount).
    public var interestAhead: Int64 { interest.reduce(0) { saturatingSum($0, interest(of: $1)) } }
}

extension Store {
    /// The status of the deposit `reference` names (its account's name or an id prefix), seen from `today`.
    public func depositStatus(_ reference: String, today: Day) throws -> DepositStatus {
        try depositStatus(try deposit(reference), today: today)
    }

    /// The status of one stored deposit seen from `today`.
    public func depositStatus(_ deposit: LedgerDeposit, today: Day) throws -> DepositStatus {
        let stored = try snapshot(asOf: [today])
        guard let account = stored.accounts.first(where: { $0.id == deposit.accountID }) else {
            throw StoreError.notFound(what: "deposit account", reference: deposit.accountID, hint: nil)
        }
        let last = max(today, deposit.terms.maturity ?? today.addingMonths(12))
        let calendars = try calendars(for: stored)
        let posted = try instrumentLedger(stored, today: today, through: today, calendars: calendars)
        let ledger: Ledger
        let balances: [BalanceKey: Int64]
        do {
            ledger = try stored.forecastLedger(today: today, horizon: last, calendars: calendars)
            balances = try posted.balances(on: today)
        } catch { throw KitError.engine(context: "balance", reason: KitError.template(error)) }
        return DepositStatus(
            deposit: deposit, account: account, payoutAccount: deposit.payoutID.flatMap { id in stored.accounts.first { $0.id == id } },
            balance: balances[BalanceKey(accountID: deposit.accountID, currency: account.currency)] ?? 0,
            level: Ladder.level(of: ledger.accounts.first { $0.id == deposit.accountID } ?? account) ?? 6,
            ahead: ledger.transactions.filter { $0.day >= today && ledger.origin(of: $0) == .deposit(id: deposit.id) })
    }
}
