import CapitalCore
import CapitalStore

/// One account as its screen shows it: its balance today, how it is used, and the year ahead.
public struct AccountDetail: Sendable {
    public let account: Account
    /// Today's balance in the account's currency.
    public let balance: Money
    /// Whether quick entries use it when none is named.
    public let isDefault: Bool
    /// How many postings touch it.
    public let postings: Int
    /// The names of the groups it is in.
    public let groups: [String]
    /// The year ahead at expected amounts; nil for categories and equity.
    public let outlook: Outlook?
}

/// One group as its screen shows it: its accounts' balances today, its totals, and the year ahead.
public struct GroupDetail: Sendable {
    public let group: AccountGroup
    /// Its accounts, in the group's order, with today's balance in each one's currency.
    public let accounts: [(account: Account, balance: Money)]
    /// The sum per currency, by currency code.
    public let totals: [Money]
    /// The year ahead of its accounts in the ledger's currency, at expected amounts.
    public let outlook: Outlook?
    /// The ledger's currency, which the outlook is in.
    public let currency: Currency
}

extension Store {
    /// The account `reference` names (a name or an id prefix), as its screen shows it on `today`:
    /// its balance at the end of `on` (default today), its year ahead from today.
    /// - Throws: `StoreError` when there is no such account or the ledger cannot be read;
    ///   `KitError` when the engine cannot lay it out.
    public func accountDetail(_ reference: String, today: Day, on: Day? = nil, ignoringOverdue: Bool = false) throws -> AccountDetail {
        let account = try account(reference)
        let sheet = try balanceSheet(on: on ?? today, today: today)
        let listed = sheet.ledger.transactions.reduce(0) { $0 + $1.postings.filter { $0.accountID == account.id }.count }
        let postings = listed + (sheet.ledger.opening?.postings[account.id] ?? 0)
        return AccountDetail(
            account: account, balance: sheet.balance(of: account), isDefault: try defaultAccount()?.id == account.id, postings: postings,
            groups: sheet.ledger.groups.filter { $0.accountIDs.contains(account.id) }.map(\.name),
            outlook: account.kind.isBalanceSheet && account.kind != .equity
                ? try outlook(accountIDs: [account.id], today: today, ignoringOverdue: ignoringOverdue) : nil)
    }

    /// The group `reference` names (a name or an id prefix), as its screen shows it on `today`:
    /// its accounts' balances as `balanceSheet(on:today:)` gives them, so that its totals are
    /// the sums of what `balance` shows, at the end of `on` (default today); its year ahead from today.
    /// - Throws: `StoreError` when there is no such group or the ledger cannot be read;
    ///   `KitError` when a sum overflows or the engine cannot lay the ledger out.
    public func groupDetail(_ reference: String, today: Day, on: Day? = nil, ignoringOverdue: Bool = false) throws -> GroupDetail {
        let group = try group(reference)
        let sheet = try balanceSheet(on: on ?? today, today: today)
        let accounts = group.accountIDs.compactMap { id in sheet.ledger.accounts.first { $0.id == id } }
        return GroupDetail(
            group: group, accounts: accounts.map { ($0, sheet.balance(of: $0)) }, totals: try sheet.totals(of: group),
            outlook: try outlook(accountIDs: group.accountIDs, today: today, ignoringOverdue: ignoringOverdue), currency: sheet.ledger.currency)
    }

    /// Today's value of some accounts and their lowest ahead over the next 12 months, at
    /// expected amounts; nil when none of them is in the ledger's currency. Open expected flows
    /// before today count today, unless `ignoringOverdue`.
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` when the engine cannot lay it out.
    public func outlook(accountIDs: [String], today: Day, ignoringOverdue: Bool = false) throws -> Outlook? {
        try Projection(store: self, today: today, horizon: { $0.addingMonths(12) }, ignoringOverdue: ignoringOverdue).outlook(accountIDs: accountIDs)
    }
}
