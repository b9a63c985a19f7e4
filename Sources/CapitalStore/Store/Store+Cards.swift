import CapitalCore
import GRDB

/// A credit card as a user writes it (`card add`, a ledger file's `cards:`).
public struct CardInput: Sendable {
    /// The credit-card account; created when there is none of that name.
    public var account: String
    /// Where paybacks come from: required, since every statement comes due.
    public var payFrom: String?
    /// The expense category of the interest; `Card interest` when nil.
    public var category: String?
    public var limit: String
    public var statementDay: Int
    public var dueDay: Int?
    public var dueAfter: Int?
    public var payback: String = "full"
    /// The minimum payback's percentage and floor amount.
    public var minimum: String?
    public var minimumFloor: String?
    public var fixed: String?
    public var rate = "0"
    public var grace: CardGrace = .keep

    public init(account: String, limit: String, statementDay: Int) {
        self.account = account
        self.limit = limit
        self.statementDay = statementDay
    }
}

extension Store {
    // MARK: Cards

    public func cards() throws(StoreError) -> [LedgerCard] {
        try read("listing cards") { db in try Store.fetchCards(db) }
    }

    /// A card by its account's name (case-insensitive) or id prefix.
    public func card(_ reference: String) throws(StoreError) -> LedgerCard {
        try read("finding a card") { db in
            try Store.resolveInstrument(db, reference, what: "card") { try Store.fetchCards(db, filter: "AND accountId = ?", arguments: [$0]) }
        }
    }

    @discardableResult
    public func addCard(_ input: CardInput) throws(StoreError) -> LedgerCard {
        try write("adding card '\(input.account)'") { db in
            let card = try Store.buildCard(db, id: Store.newID(), input)
            try Store.insertCard(db, card)
            return card
        }
    }

    static func buildCard(_ db: some LedgerContext, id: String, _ input: CardInput) throws -> LedgerCard {
        let f = fieldKey
        try validateName(input.account, field: f("account"))
        guard let payFromName = input.payFrom else {
            throw StoreError.malformed(
                field: f("payFrom"), value: "", reason: "a card needs the account its paybacks come from: every statement comes due")
        }
        let accounts = try db.accountIndex()
        let payFrom = try balanceAccount(accounts, payFromName, field: f("payFrom"))
        let existing = try instrumentAccount(db, accounts, input.account, kind: .creditCard, table: "card", id: id, field: f("account"))
        let currency = existing?.currency ?? payFrom.currency
        guard payFrom.currency == currency else {
            throw StoreError.currencyMismatch(account: payFrom.name, accountCurrency: payFrom.currency.code, amountCurrency: currency.code)
        }
        func minor(_ text: String, _ key: String) throws -> Int64 {
            do { return try Money(parsing: text, currency: currency).minor } catch { throw StoreError.money(field: f(key), error) }
        }
        let due: CardDue
        switch (input.dueDay, input.dueAfter) {
        case (let day?, nil): due = .dayOfMonth(day)
        case (nil, let days?): due = .daysAfterStatement(days)
        case (nil, nil):
            throw StoreError.malformed(
                field: f("dueDay"), value: "", reason: "give the due day of the month or the days after the statement (\(f("dueAfter")))")
        case (let day?, _): throw StoreError.malformed(field: f("dueDay"), value: String(day), reason: "give a due day or \(f("dueAfter")), not both")
        }
        // Terms of another payback would be passed over without a word: refused instead.
        if input.payback != "minimum", let given = input.minimum ?? input.minimumFloor {
            let field = input.minimum != nil ? "minimum" : "minimumFloor"
            throw StoreError.malformed(
                field: f(field), value: given, reason: "goes with a minimum payback ({payback} minimum), not '\(FieldKeys.literal(input.payback))'")
        }
        if input.payback != "fixed", let given = input.fixed {
            throw StoreError.malformed(
                field: f("fixed"), value: given, reason: "goes with a fixed payback ({payback} fixed), not '\(FieldKeys.literal(input.payback))'")
        }
        let payback: CardPayback
        switch input.payback {
        case "full":
            payback = .full
        case "minimum":
            guard let percent = input.minimum else {
                throw StoreError.malformed(field: f("minimum"), value: "", reason: "a minimum payback needs its percentage of the statement")
            }
            payback = .minimum(
                percent: try rate(percent, field: f("minimum")), floor: try input.minimumFloor.map { try minor($0, "minimumFloor") } ?? 0)
        case "fixed":
            guard let amount = input.fixed else {
                throw StoreError.malformed(field: f("fixed"), value: "", reason: "a fixed payback needs its amount")
            }
            payback = .fixed(try minor(amount, "fixed"))
        default:
            throw StoreError.malformed(field: f("payback"), value: input.payback, reason: "expected full, minimum or fixed")
        }
        let terms: CreditCard
        do {
            terms = try CreditCard(
                limit: try minor(input.limit, "limit"), statementDay: input.statementDay, due: due, payback: payback,
                rate: try rate(input.rate, field: f("rate")),
                grace: input.grace)
        } catch CardError.invalid(let option, let value, let reason) {
            // The core names fields by key in braces; the input says how to name them here (a
            // ledger file names its fields by path).
            let key = String(option.dropFirst().dropLast())
            // The value as typed (`--limit -5`, not `'-5.00'`), where the input has it as text.
            let typed: [String: String?] = [
                "limit": input.limit, "fixed": input.fixed, "minimumFloor": input.minimumFloor, "minimum": input.minimum, "rate": input.rate,
            ]
            let shown = typed[key].flatMap { $0 } ?? value
            throw StoreError.malformed(field: f(key), value: shown, reason: reason)
        }
        let category = try category(db, accounts, input.category, default: "Card interest", kind: .expense, currency: currency, field: f("category"))
        let account = try existing ?? created(db, Account(id: newID(), name: input.account, kind: .creditCard, currency: currency))
        return LedgerCard(id: id, accountID: account.id, payFromID: payFrom.id, interestCategoryID: category.id, terms: terms)
    }

    static func insertCard(_ db: Database, _ card: LedgerCard) throws {
        let now = Timestamp.now()
        let t = card.terms
        var dueDay: Int?
        var dueAfter: Int?
        switch t.due {
        case .dayOfMonth(let day): dueDay = day
        case .daysAfterStatement(let days): dueAfter = days
        }
        var kind = "full"
        var percent: Int64?
        var floor: Int64?
        var fixed: Int64?
        switch t.payback {
        case .full: break
        case .minimum(let p, let f): (kind, percent, floor) = ("minimum", p.perMillion, f)
        case .fixed(let amount): (kind, fixed) = ("fixed", amount)
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO card(id, createdAt, updatedAt, accountId, payFromId, categoryId, creditLimit, statementDay, dueDay, dueAfter, payback,
                    minimumPerMillion, minimumFloor, fixedAmount, ratePerMillion, grace)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            card.id, now, now, card.accountID, card.payFromID, card.interestCategoryID, t.limit, t.statementDay, dueDay, dueAfter, kind, percent,
            floor, fixed,
            t.rate.perMillion, t.grace.rawValue,
        ])
    }

    static func fetchCards(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [LedgerCard] {
        let cards = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM card WHERE deleted = 0 \(filter)"), arguments: arguments)
            .map {
                row in
                let due: CardDue = (row["dueDay"] as Int?).map { .dayOfMonth($0) } ?? .daysAfterStatement(row["dueAfter"] ?? 0)
                let payback: CardPayback
                switch row["payback"] as String {
                case "minimum": payback = .minimum(percent: Rate(perMillion: row["minimumPerMillion"] ?? 0), floor: row["minimumFloor"] ?? 0)
                case "fixed": payback = .fixed(row["fixedAmount"] ?? 0)
                default: payback = .full
                }
                let terms = try CreditCard(
                    limit: row["creditLimit"], statementDay: row["statementDay"], due: due, payback: payback,
                    rate: Rate(perMillion: row["ratePerMillion"]),
                    grace: value("grace", CardGrace.self, row))
                return LedgerCard(
                    id: row["id"], accountID: row["accountId"], payFromID: row["payFromId"], interestCategoryID: row["categoryId"], terms: terms)
            }
        return try inListingOrder(cards, account: \.accountID, names: accountNames(db))
    }

    // MARK: Helpers shared by the instruments

    /// The existing account an instrument is added to (nil: it will be created): it must be of
    /// `kind` and carry no other live instrument of `table`.
    static func instrumentAccount(
        _ db: some LedgerContext, _ accounts: AccountIndex, _ name: String, kind: AccountKind, table: String, id: String, field: String
    ) throws -> Account? {
        guard let existing = accounts[name: name] else { return nil }
        guard existing.kind == kind else {
            throw StoreError.invalid(
                field: field, value: name,
                reason: "it is \(existing.kind.withArticle) account; a \(table) needs \(kind.withArticle) account (or a new name)")
        }
        if try db.instrumentExists(in: table, onAccount: existing.id, except: id) {
            throw StoreError.invalid(field: field, value: name, reason: "it already has \(table) terms; remove them first")
        }
        return existing
    }

    /// The loan, card or deposit on the account `reference` names, or an error naming what there is.
    static func resolveInstrument<T>(_ db: Database, _ reference: String, what: String, onAccount fetch: (String) throws -> [T]) throws -> T {
        let account: Account
        do { account = try resolveAccount(db, reference) } catch StoreError.notFound {
            throw StoreError.notFound(what: what, reference: reference, hint: .list(what))
        }
        guard let found = try fetch(account.id).first else {
            throw StoreError.notFound(
                what: what, reference: reference, hint: .noTerms(account: account.name, kind: what))
        }
        return found
    }

    static func rate(_ text: String, field: String) throws -> Rate {
        do { return try Rate(parsing: text) } catch .invalidRate(_, let reason) {
            throw StoreError.malformed(field: field, value: text, reason: reason)
        } catch { throw StoreError.malformed(field: field, value: text, reason: FieldKeys.literal("\(error)")) }
    }

    /// An account money can be in (not a category, not equity).
    static func balanceAccount(_ accounts: AccountIndex, _ name: String, field: String) throws -> Account {
        let found = try accounts.resolve(name)
        guard found.kind.isBalanceSheet, found.kind != .equity else {
            throw StoreError.invalid(
                field: field, value: name, reason: "it is \(found.kind.withArticle) account; give a cash, debit or other balance account")
        }
        return found
    }

    /// The category `name` (or `defaultName`, created when missing) of `kind`.
    static func category(
        _ db: some LedgerContext, _ accounts: AccountIndex, _ name: String?, default defaultName: String, kind: AccountKind, currency: Currency,
        field: String
    ) throws -> Account {
        let found = try name.map { try accounts.resolve($0) } ?? accounts[name: defaultName]
        if let found {
            guard found.kind == kind else {
                throw StoreError.invalid(
                    field: field, value: found.name, reason: "it is \(found.kind.withArticle) account; interest goes to \(kind.withArticle) category")
            }
            // Its postings are in `currency`: a category in another one would refuse every one of
            // them when it is posted (and with them everything else `post` was to write).
            try sameCurrency(found, currency, field: field)
            return found
        }
        return try created(db, Account(id: newID(), name: defaultName, kind: kind, currency: currency))
    }

    /// Refuses `account` for `field` unless it holds `currency`, the currency of what it is named for.
    static func sameCurrency(_ account: Account, _ currency: Currency, field: String) throws {
        guard account.currency != currency else { return }
        throw StoreError.invalid(
            field: field, value: account.name,
            reason: "it holds \(account.currency.code), the amounts are in \(currency.code); name one in \(currency.code)")
    }

    static func created(_ db: some LedgerContext, _ account: Account) throws -> Account {
        try db.addAccount(account)
        return account
    }
}
