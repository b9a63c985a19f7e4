import CapitalCore
import CapitalStore

/// Every account's balance at the end of a day, per currency, and each group's sum: what
/// `balance`, the account and group screens and the listings show.
public struct BalanceSheet: Sendable {
    /// The ledger the balances are read from.
    public let ledger: Ledger
    /// The day the balances are at the end of.
    public let day: Day
    public let balances: [BalanceKey: Int64]
    /// The ledger's rates laid out for `day`, built once; nil when every balance is in the ledger's currency.
    let valuation: Valuation?

    /// The balances of `ledger`'s posted transactions through `day`.
    /// - Throws: `KitError.engine` when an account's sum overflows.
    public init(_ ledger: Ledger, on day: Day) throws(KitError) {
        self.ledger = ledger
        self.day = day
        do { balances = try ledger.balances(on: day) } catch { throw .engine(context: "balance", reason: KitError.template(error)) }
        valuation =
            balances.keys.contains { $0.currency != ledger.currency }
            ? Valuation(rates: ledger.rates, currency: ledger.currency, today: day, through: day, pessimisticDays: 1) : nil
    }

    /// The balance of `account` in its own currency.
    public func balance(of account: Account) -> Money {
        Money(minor: balances[BalanceKey(accountID: account.id, currency: account.currency)] ?? 0, currency: account.currency)
    }

    /// The balances of `account`, one for each currency it holds, by currency code; its own
    /// currency at zero when it holds none.
    public func balances(of account: Account) -> [Money] {
        let keys = balances.keys.filter { $0.accountID == account.id }.sorted { $0.currency.code < $1.currency.code }
        guard !keys.isEmpty else { return [Money(minor: 0, currency: account.currency)] }
        return keys.map { Money(minor: balances[$0] ?? 0, currency: $0.currency) }
    }

    /// A group's balance per currency (the sum of its accounts'), by currency code; the
    /// ledger's currency at zero when the group holds nothing.
    /// - Throws: `KitError.engine` when a sum overflows.
    public func totals(of group: AccountGroup) throws(KitError) -> [Money] {
        try totals(of: Set(group.accountIDs), context: "group '\(FieldKeys.literal(group.name))'")
    }

    /// What the household owns less what it owes, per currency: every balance-sheet account's
    /// balance but the equity account's (which carries the other side of opening balances and
    /// exchanges), by currency code.
    /// - Throws: `KitError.engine` when a sum overflows.
    public func netWorth() throws(KitError) -> [Money] {
        try totals(of: Set(ledger.accounts.filter { $0.kind.isBalanceSheet && $0.kind != .equity }.map(\.id)), context: "net worth")
    }

    /// The balances of the accounts with these ids summed per currency, by currency code; the
    /// ledger's currency at zero when they hold nothing.
    func totals(of ids: Set<String>, context: String) throws(KitError) -> [Money] {
        var sums: [Currency: Int64] = [:]
        for (key, minor) in balances where ids.contains(key.accountID) {
            let (sum, overflow) = sums[key.currency, default: 0].addingReportingOverflow(minor)
            if overflow { throw .engine(context: context, reason: "its balance overflows") }
            sums[key.currency] = sum
        }
        if sums.isEmpty { sums[ledger.currency] = 0 }
        return sums.sorted { $0.key.code < $1.key.code }.map { Money(minor: $0.value, currency: $0.key) }
    }

    /// `money` on this sheet's day in the ledger's currency, at that day's rate.
    /// - Throws: `KitError.engine` naming `what` when no rate of its currency holds on the day.
    public func value(_ money: Money, of what: String) throws(KitError) -> Money {
        guard money.currency != ledger.currency, money.minor != 0 else { return Money(minor: money.minor, currency: ledger.currency) }
        guard let valuation else {
            throw .engine(context: what, reason: KitError.template(ValuationError.missingRate(currency: money.currency, day: day, firstRate: nil)))
        }
        do { return Money(minor: try valuation.value(money.minor, in: money.currency, on: day), currency: ledger.currency) } catch {
            throw .engine(context: what, reason: KitError.template(error))
        }
    }

    /// A group's balance in the ledger's currency: each account's balance in each currency valued
    /// at the day's rate (rounded once per account and currency), then summed.
    public func total(of group: AccountGroup) throws(KitError) -> Money {
        var sum: Int64 = 0
        for (key, minor) in balances where group.accountIDs.contains(key.accountID) {
            let name = ledger.accounts.first { $0.id == key.accountID }?.name ?? key.accountID
            let valued = try value(Money(minor: minor, currency: key.currency), of: "account '\(FieldKeys.literal(name))'")
            let (next, overflow) = sum.addingReportingOverflow(valued.minor)
            if overflow { throw .engine(context: "group '\(FieldKeys.literal(group.name))'", reason: "its balance overflows") }
            sum = next
        }
        return Money(minor: sum, currency: ledger.currency)
    }

    /// The rates older than a week that value the sheet's balances in other currencies, by currency.
    public var staleRates: [StaleRate] {
        guard let valuation else { return [] }
        let currencies = Set(balances.filter { $0.key.currency != ledger.currency && $0.value != 0 }.map(\.key.currency))
        return currencies.sorted { $0.code < $1.code }.compactMap { StaleRate(valuation.rate($0, on: day), on: day) }
    }
}

/// Each category's total this month, from its first day through today: what was spent on an
/// expense category, what came from an income category, both positive.
public struct MonthToDate: Sendable {
    /// The balances today and at the end of the month before.
    public let now: BalanceSheet
    public let before: BalanceSheet

    /// This month's total of `category`.
    /// - Throws: `KitError.engine` when it overflows.
    public func total(of category: Account) throws(KitError) -> Money {
        let key = BalanceKey(accountID: category.id, currency: category.currency)
        let (flow, overflow) = (now.balances[key] ?? 0).subtractingReportingOverflow(before.balances[key] ?? 0)
        guard !overflow, flow != .min else {
            throw .engine(context: "category '\(FieldKeys.literal(category.name))'", reason: "this month's total overflows")
        }
        // Income accounts are credited (negative) as money comes in: shown as earned, positive.
        return Money(minor: category.kind == .income ? -flow : flow, currency: category.currency)
    }
}

extension Store {
    /// Each category's total this month through `today`.
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` when its instruments
    ///   cannot be laid out or a sum overflows.
    public func monthToDate(today: Day) throws -> MonthToDate {
        let ledger = try instrumentLedger(today: today, through: today)
        return MonthToDate(now: try BalanceSheet(ledger, on: today), before: try BalanceSheet(ledger, on: today.startOfMonth.advanced(by: -1)))
    }

    /// The balances at the end of `day` of the stored ledger with what its instruments make up to
    /// today (loan balances, capitalised interest, value changes as they stand today: a balance
    /// is not a forecast).
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` when its instruments
    ///   cannot be laid out or a sum overflows.
    public func balanceSheet(on day: Day, today: Day) throws -> BalanceSheet {
        try BalanceSheet(try instrumentLedger(try snapshot(asOf: [day, today]), today: today, through: today, calendars: nil), on: day)
    }
}
