import CapitalCore
import GRDB

/// A deposit as a user writes it (`deposit add`, a ledger file's `deposits:`).
public struct DepositInput: Sendable {
    /// The deposit account; created when there is none of that name.
    public var account: String
    /// Where the balance goes at maturity; nil leaves it in the deposit.
    public var payout: String?
    /// The income category of the interest; `Interest` when nil.
    public var category: String?
    public var rate: String
    public var capitalisation: Capitalisation = .monthly
    public var opened: Day
    public var maturity: Day?
    /// The last day of the history it is added with (`LedgerDeposit.handledThrough`); nil: every
    /// credit before today happened.
    public var handledThrough: Day?

    public init(account: String, rate: String, opened: Day) {
        self.account = account
        self.rate = rate
        self.opened = opened
    }
}

extension Store {

    public func deposits() throws(StoreError) -> [LedgerDeposit] {
        try read("listing deposits") { db in try Store.fetchDeposits(db) }
    }

    /// A deposit by its account's name (case-insensitive) or id prefix.
    public func deposit(_ reference: String) throws(StoreError) -> LedgerDeposit {
        try read("finding a deposit") { db in
            try Store.resolveInstrument(db, reference, what: "deposit") { try Store.fetchDeposits(db, filter: "AND accountId = ?", arguments: [$0]) }
        }
    }

    @discardableResult
    public func addDeposit(_ input: DepositInput) throws(StoreError) -> LedgerDeposit {
        try write("adding deposit '\(input.account)'") { db in
            let deposit = try Store.buildDeposit(db, id: Store.newID(), input)
            try Store.insertDeposit(db, deposit)
            return deposit
        }
    }

    static func buildDeposit(_ db: some LedgerContext, id: String, _ input: DepositInput) throws -> LedgerDeposit {
        let f = fieldKey
        try validateName(input.account, field: f("account"))
        let accounts = try db.accountIndex()
        let existing = try instrumentAccount(db, accounts, input.account, kind: .deposit, table: "deposit", id: id, field: f("account"))
        let payout = try input.payout.map { try balanceAccount(accounts, $0, field: f("payout")) }
        let ledgerCurrency = try ledgerCurrency(db, location: "")
        let currency = existing?.currency ?? payout?.currency ?? ledgerCurrency
        if let payout, payout.currency != currency {
            throw StoreError.currencyMismatch(account: payout.name, accountCurrency: payout.currency.code, amountCurrency: currency.code)
        }
        let terms: Deposit
        do {
            terms = try Deposit(
                rate: try rate(input.rate, field: f("rate")), capitalisation: input.capitalisation, opened: input.opened, maturity: input.maturity)
        } catch DepositError.invalid(let option, let value, let reason) {
            throw StoreError.malformed(field: f(String(option.dropFirst().dropLast())), value: value, reason: reason)
        }
        let category = try category(db, accounts, input.category, default: "Interest", kind: .income, currency: currency, field: f("category"))
        let account = try existing ?? created(db, Account(id: newID(), name: input.account, kind: .deposit, currency: currency))
        return LedgerDeposit(
            id: id, accountID: account.id, payoutID: payout?.id, interestCategoryID: category.id, terms: terms, handledThrough: input.handledThrough)
    }

    static func insertDeposit(_ db: Database, _ deposit: LedgerDeposit) throws {
        let now = Timestamp.now()
        let t = deposit.terms
        try db.cachedStatement(
            sql: """
                INSERT INTO deposit(id, createdAt, updatedAt, accountId, payoutId, categoryId, ratePerMillion, capitalisation, opened, maturity,
                    handledThrough)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            deposit.id, now, now, deposit.accountID, deposit.payoutID, deposit.interestCategoryID, t.rate.perMillion, t.capitalisation.rawValue,
            t.opened.number, t.maturity?.number, deposit.handledThrough?.number,
        ])
    }

    static func fetchDeposits(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [LedgerDeposit] {
        let deposits = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM deposit WHERE deleted = 0 \(filter)"), arguments: arguments)
            .map { row in
                let terms = try Deposit(
                    rate: Rate(perMillion: row["ratePerMillion"]), capitalisation: value("capitalisation", Capitalisation.self, row),
                    opened: Day(row["opened"]),
                    maturity: (row["maturity"] as Int?).map(Day.init))
                return LedgerDeposit(
                    id: row["id"], accountID: row["accountId"], payoutID: row["payoutId"], interestCategoryID: row["categoryId"], terms: terms,
                    handledThrough: (row["handledThrough"] as Int?).map(Day.init))
            }
        return try inListingOrder(deposits, account: \.accountID, names: accountNames(db))
    }
}
