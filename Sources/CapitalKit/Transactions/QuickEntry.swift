import CapitalCore
import CapitalStore

/// Money moved in one step, as a person says it: spent on a category, earned from one, or moved
/// between two accounts. Names and the amount as written; an account left out is the default one.
public struct QuickEntry: Sendable {
    /// Where the money goes.
    public enum Move: Sendable {
        /// Spent on an expense category, from `from` (the default account when nil).
        case spend(category: String, from: String?)
        /// Earned from an income category, into `to` (the default account when nil).
        case earn(category: String, to: String?)
        /// Moved between two balance accounts.
        case transfer(from: String, to: String)
    }

    public var move: Move
    /// The amount, more than zero.
    public var amount: String
    public var day: Day
    public var payee = ""
    public var note = ""
    public var spender = ""
    public var tags: [String] = []
    /// The expected flow it stands for: none, one named, or the nearest that matches.
    public var settling: Settling = .none
    /// Between accounts of two currencies: what the other side came to, or the rate.
    public var paid: String?
    public var rate: String?

    /// An entry of `amount` on `day`, without payee, note, spender or tags.
    public init(_ move: Move, amount: String, day: Day) {
        self.move = move
        self.amount = amount
        self.day = day
    }
}

extension Store {
    /// Records a quick entry as a two-posting transaction, settling what `entry.settling` says.
    /// - Returns: the transaction, the accounts the money left and reached, and the expected flow
    ///   it settled.
    /// - Throws: `KitError` naming the field at fault (a category of the wrong kind, the same
    ///   account twice, an amount that is not one or not more than zero, no account and no
    ///   default account), or refusing two currencies; `StoreError` for names that are no account.
    public func record(_ entry: QuickEntry) throws -> (transaction: Transaction, from: Account, to: Account, settled: Settlement?) {
        let from: Account
        let to: Account
        switch entry.move {
        case .spend(let category, let account):
            to = try self.account(category)
            guard to.kind == .expense else {
                throw KitError.invalid(
                    .category, value: category, reason: "it is \(to.kind.withArticle) account, not an expense category",
                    remedy: to.kind == .income ? .earnFromIncome : .transferBetweenAccounts)
            }
            from = try accountOrDefault(account, field: .from)
        case .earn(let category, let account):
            from = try self.account(category)
            guard from.kind == .income else {
                throw KitError.invalid(.category, value: category, reason: "it is \(from.kind.withArticle) account, not an income category")
            }
            to = try accountOrDefault(account, field: .to)
        case .transfer(let source, let target):
            from = try self.account(source)
            to = try self.account(target)
            if from.id == to.id { throw KitError.invalid(.to, value: target, reason: "it is the same account as {from}") }
            // A transfer moves money between balance-sheet accounts; a category's side is spent or earned.
            if from.kind.isCategory {
                throw KitError.invalid(
                    .from, value: source, reason: "it is \(from.kind.withArticle) category, not an account",
                    remedy: from.kind == .income ? .earnFromIncome : nil)
            }
            if to.kind.isCategory {
                throw KitError.invalid(
                    .to, value: target, reason: "it is \(to.kind.withArticle) category, not an account",
                    remedy: to.kind == .expense ? .spendOnExpense : nil)
            }
        }
        if from.currency != to.currency {
            guard entry.paid != nil || entry.rate != nil else {
                throw KitError.missing(
                    .paid,
                    reason:
                        "'\(FieldKeys.literal(from.name))' holds \(from.currency.code) and '\(FieldKeys.literal(to.name))' holds \(to.currency.code): "
                        + "give {paid} (what the other currency came to) or {rate} (its units per unit)")
            }
            // The amount is in the balance account's currency (the one paid from, for a transfer).
            let side: Account
            if case .earn = entry.move { side = to } else { side = from }
            var exchange = ExchangeEntry(amount: entry.amount, currency: side.currency.code, from: from.id, to: to.id, day: entry.day)
            (exchange.paid, exchange.rate, exchange.payee, exchange.note) = (entry.paid, entry.rate, entry.payee, entry.note)
            (exchange.spender, exchange.tags) = (entry.spender, entry.tags)
            exchange.betweenBalanceAccounts = false
            if case .transfer = entry.move { exchange.betweenBalanceAccounts = true }
            let recorded = try record(exchange)
            return (recorded.transaction, from, to, nil)
        }
        if entry.paid != nil || entry.rate != nil {
            throw KitError.invalid(
                entry.paid != nil ? .paid : .rate, value: entry.paid ?? entry.rate ?? "",
                reason: "both accounts hold \(from.currency.code): nothing changes currency")
        }
        let money: Money
        do { money = try Money(parsing: entry.amount, currency: from.currency) } catch { throw KitError.unreadable(.amount, reason: "\(error)") }
        guard money.minor > 0 else { throw KitError.invalid(.amount, value: entry.amount, reason: "must be more than zero") }
        let (transaction, settled) = try addTransaction(
            TransactionInput(
                day: entry.day, payee: entry.payee, note: entry.note, spender: entry.spender, tags: entry.tags,
                postings: [
                    PostingInput(account: to.id, amount: money.plain, field: "{amount}"),
                    PostingInput(account: from.id, amount: try money.negated().plain, field: "{amount}"),
                ]),
            settling: entry.settling)
        return (transaction, from, to, settled)
    }

    /// The balance of a cash or debit `account` at the end of `day` when it is below the
    /// account's floor (what a spend or a transfer from it should warn about; it is not refused);
    /// nil otherwise.
    /// Reads the whole ledger with what its instruments make (a loan payment from the account
    /// counts): one read per quick entry from an account with a floor; a checkpointed balance
    /// (issue 20) would make it cheap on long histories.
    /// - Throws: as `balanceSheet(on:today:)`.
    public func belowFloor(_ account: Account, on day: Day) throws -> (balance: Money, floor: Money)? {
        guard [.cash, .debit].contains(account.kind), let floor = account.floor else { return nil }
        let balance = try balanceSheet(on: day, today: day).balance(of: account)
        return balance.minor < floor ? (balance, Money(minor: floor, currency: account.currency)) : nil
    }

    /// The named account, or the default one for quick entries.
    private func accountOrDefault(_ reference: String?, field: KitError.Field) throws -> Account {
        if let reference { return try account(reference) }
        guard let account = try defaultAccount() else {
            throw KitError.missing(field, reason: "no account given and no default account", remedy: .nameOrSetDefault(field))
        }
        return account
    }
}
