import CapitalCore
import GRDB

/// A bill or fine as a user writes it (`due add`, a ledger file's `dues:`).
public struct DueInput: Sendable {
    public var type: DueType
    public var total: String
    public var paid: String?
    public var reason: String
    public var dueDay: Day
    public var iban: String = ""
    public var address: String = ""
    public var institution: String = ""
    /// The account the rest is paid from; the default account when nil.
    public var payFrom: String?
    /// The expense category; `Bills` or `Fines` (created on first use) when nil.
    public var category: String?

    public init(type: DueType, total: String, reason: String, dueDay: Day) {
        self.type = type
        self.total = total
        self.reason = reason
        self.dueDay = dueDay
    }
}

/// Changes to a due payment: nil leaves a field as it is; an empty text clears an optional one.
public struct DueEdit: Sendable {
    public var type: DueType?
    public var total: String?
    public var paid: String?
    public var reason: String?
    public var dueDay: Day?
    public var iban: String?
    public var address: String?
    public var institution: String?
    public var payFrom: String?
    public var category: String?

    public init() {}
}

extension Store {
    // MARK: Dues

    /// Every due payment, in the order registered.
    public func dues() throws(StoreError) -> [Due] {
        try read("listing due payments") { db in try Store.fetchDues(db) }
    }

    /// A due payment by its number.
    public func due(_ reference: String) throws(StoreError) -> Due {
        try read("finding a due payment") { db in try Store.resolveDue(db, reference) }
    }

    @discardableResult
    public func addDue(_ input: DueInput) throws(StoreError) -> Due {
        try write("adding a \(input.type.rawValue)") { db in
            let number = (try Int.fetchOne(db, sql: "SELECT MAX(number) FROM due") ?? 0) + 1
            let due = try Store.buildDue(db, id: Store.newID(), number: number, input)
            try Store.insertDue(db, due)
            return due
        }
    }

    /// Records a payment of a due: a real transaction from `from` (else the due's paying
    /// account, else the default account) to its category, and raises what is paid.
    /// - Throws: `StoreError.invalid` for an amount of 0, above what is left (naming it), or a
    ///   due already fully paid; nothing is written then.
    public func payDue(_ reference: String, amount text: String, from: String?, on day: Day) throws(StoreError) -> (
        due: Due, transaction: Transaction
    ) {
        try write("paying due payment '\(reference)'") { db in
            let due = try Store.resolveDue(db, reference)
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            let amount = try Store.minor(text, currency: due.currency, field: "AMOUNT")
            // Quoted as typed (`'0'`, not `'0.00'`), before what is left is looked at.
            guard amount > 0 else { throw StoreError.malformed(field: "AMOUNT", value: text, reason: "must be more than 0") }
            let paid: Due
            do { paid = try due.paying(amount) } catch let error as DueError {
                throw Store.invalid(error, field: { $0 == "amount" ? "AMOUNT" : "--\($0)" })
            }
            let account: Account
            if let from {
                account = try Store.balanceAccount(accounts, from, field: "{from}")
            } else if let id = try due.payFromID ?? Store.setting(db, "defaultAccount"), let found = accounts[id: id] {
                account = found
            } else {
                throw StoreError.refused(field: "{from}", value: "", reason: "no account to pay from", remedy: .setPayFrom(due: due.number))
            }
            guard let categoryID = due.categoryID, accounts[id: categoryID] != nil else {
                throw StoreError.invalid(field: "category", value: "", reason: "the \(due.type.rawValue) has no category")
            }
            let money = Money(minor: amount, currency: due.currency)
            let transaction = Transaction(
                id: Store.newID(), day: day, payee: due.institution.isEmpty ? due.reason : due.institution,
                note: "\(due.type == .bill ? "Bill" : "Fine") #\(due.number): \(due.reason)",
                postings: [
                    Posting(accountID: account.id, amount: Money(minor: -amount, currency: due.currency)),
                    Posting(accountID: categoryID, amount: money),
                ])
            try Store.insertTransaction(db, transaction, accounts)
            try Store.checkBalancesFit(db, accountIDs: Set(transaction.postings.map(\.accountID)))
            try db.execute(sql: "INSERT INTO duePayment(dueId, txnId) VALUES (?, ?)", arguments: [due.id, transaction.id])
            try Store.updateDue(db, paid)
            return (paid, transaction)
        }
    }

    /// Changes a due payment. Lowering the total below what is paid sets paid to the total
    /// (`clamped` is then true).
    public func editDue(_ reference: String, _ edit: DueEdit) throws(StoreError) -> (due: Due, clamped: Bool) {
        try Store.validateDueTexts(reason: edit.reason, address: edit.address, institution: edit.institution)
        return try write("editing due payment '\(reference)'") { db in
            var due = try Store.resolveDue(db, reference)
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            if let type = edit.type {
                // A default category follows the type: Bills ↔ Fines.
                if edit.category == nil, type != due.type, let current = due.categoryID, accounts[id: current]?.name == Store.dueCategory(due.type) {
                    due.categoryID = try Store.category(
                        db, accounts, nil, default: Store.dueCategory(type), kind: .expense, currency: due.currency, field: "{category}"
                    ).id
                }
                due.type = type
            }
            if let reason = edit.reason { due.reason = reason }
            if let day = edit.dueDay { due.dueDay = day }
            if let iban = edit.iban { due.iban = try Store.iban(iban) }
            if let address = edit.address { due.address = address }
            if let institution = edit.institution { due.institution = institution }
            if let from = edit.payFrom {
                if from.isEmpty {
                    due.payFromID = nil
                } else {
                    let account = try Store.balanceAccount(accounts, from, field: "{from}")
                    try Store.sameCurrency(account, due.currency, field: "{from}")
                    due.payFromID = account.id
                }
            }
            if let name = edit.category {
                due.categoryID = try Store.category(
                    db, accounts, name.isEmpty ? nil : name, default: Store.dueCategory(due.type), kind: .expense, currency: due.currency,
                    field: "{category}"
                ).id
            }
            if let paid = edit.paid { due.paid = try Store.minor(paid, currency: due.currency, field: "{paid}") }
            var clamped = false
            do {
                if let total = edit.total {
                    let minor = try Store.minor(total, currency: due.currency, field: "{total}")
                    if edit.paid == nil {
                        (due, clamped) = try due.withTotal(minor)
                    } else {
                        due.total = minor
                    }
                }
                try due.validate()
            } catch let error as DueError { throw Store.invalid(error, field: fieldKey) }
            try Store.updateDue(db, due)
            return (due, clamped)
        }
    }

    @discardableResult
    public func removeDue(_ reference: String) throws(StoreError) -> Due {
        try write("removing due payment '\(reference)'") { db in
            let due = try Store.resolveDue(db, reference)
            try db.execute(
                sql: "UPDATE due SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?", arguments: [Timestamp.now(), due.id])
            return due
        }
    }

    /// The transactions `due pay` recorded for a due payment, oldest first.
    public func duePayments(_ due: Due) throws(StoreError) -> [Transaction] {
        try read("reading payments") { db in
            let ids = Set(try String.fetchAll(db, sql: "SELECT txnId FROM duePayment WHERE dueId = ?", arguments: [due.id]))
            return try Store.fetchTransactions(db).filter { ids.contains($0.id) }
        }
    }

    // MARK: Helpers

    static func dueCategory(_ type: DueType) -> String { type == .bill ? "Bills" : "Fines" }

    static func minor(_ text: String, currency: Currency, field: String) throws -> Int64 {
        do { return try Money(parsing: text, currency: currency).minor } catch { throw StoreError.money(field: field, error) }
    }

    /// The core's error as the store's: a total of 0, a negative paid amount or an empty reason is
    /// malformed whatever the ledger holds; more than is left, or a payment on a paid due, is not.
    static func invalid(_ error: DueError, field: (String) -> String) -> StoreError {
        switch error {
        case .invalid(let key, let value, let reason) where reason == "must be more than 0" || reason == "cannot be negative":
            return .malformed(field: field(key), value: value, reason: reason)
        case .invalid(let key, let value, let reason): return .invalid(field: field(key), value: value, reason: reason)
        case .missing(let key): return .malformed(field: field(key), value: "", reason: "is required and cannot be empty")
        }
    }

    /// An IBAN checked and in its electronic form; empty stays empty.
    static func iban(_ text: String, field: String = "{iban}") throws -> String {
        guard text.contains(where: { !$0.isWhitespace }) else { return "" }
        do { return try IBAN(validating: text).electronic } catch {
            throw StoreError.malformed(field: field, value: text, reason: FieldKeys.literal("\(error)"))
        }
    }

    /// The texts of a due payment, checked as a name's (one line, at most 200 characters).
    static func validateDueTexts(
        reason: String?, address: String?, institution: String?, field: (String) -> String = { "{\($0)}" }
    ) throws(StoreError) {
        for (text, key) in [(reason, "reason"), (address, "address"), (institution, "institution")] {
            if let text { try validateText(text, field: field(key), limit: TextLimits.name) }
        }
    }

    static func buildDue(_ db: some LedgerContext, id: String, number: Int, _ input: DueInput) throws -> Due {
        let f = fieldKey
        try validateDueTexts(reason: input.reason, address: input.address, institution: input.institution, field: f)
        let accounts = try db.accountIndex()
        let currency = try ledgerCurrency(db, location: "")
        let payFrom = try input.payFrom.map { try balanceAccount(accounts, $0, field: f("payFrom")) }
        if let payFrom { try sameCurrency(payFrom, currency, field: f("payFrom")) }
        let category = try category(
            db, accounts, input.category, default: dueCategory(input.type), kind: .expense, currency: currency, field: f("category"))
        do {
            return try Due(
                id: id, number: number, type: input.type, total: try minor(input.total, currency: currency, field: f("total")),
                paid: try input.paid.map { try minor($0, currency: currency, field: f("paid")) } ?? 0, reason: input.reason, dueDay: input.dueDay,
                currency: currency, iban: try iban(input.iban, field: f("iban")), address: input.address, institution: input.institution,
                payFromID: payFrom?.id,
                categoryID: category.id)
        } catch let error as DueError {
            throw invalid(error, field: f)
        }
    }

    static func insertDue(_ db: Database, _ due: Due) throws {
        let now = Timestamp.now()
        try db.execute(
            sql: """
                INSERT INTO due(id, createdAt, updatedAt, type, total, paid, currency, reason, dueDay, iban, address, institution, payFromId, categoryId, number)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                due.id, now, now, due.type.rawValue, due.total, due.paid, due.currency.code, due.reason, due.dueDay.number, due.iban, due.address,
                due.institution,
                due.payFromID, due.categoryID, due.number,
            ])
    }

    static func updateDue(_ db: Database, _ due: Due) throws {
        try db.execute(
            sql: """
                UPDATE due SET updatedAt = ?, version = version + 1, type = ?, total = ?, paid = ?, reason = ?, dueDay = ?, iban = ?, address = ?,
                    institution = ?, payFromId = ?, categoryId = ? WHERE id = ?
                """,
            arguments: [
                Timestamp.now(), due.type.rawValue, due.total, due.paid, due.reason, due.dueDay.number, due.iban, due.address, due.institution,
                due.payFromID,
                due.categoryID, due.id,
            ])
    }

    static func fetchDues(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [Due] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM due WHERE deleted = 0 \(filter) ORDER BY number"), arguments: arguments).map { row in
            try Due(
                id: row["id"], number: row["number"], type: DueType(rawValue: row["type"]) ?? .bill, total: row["total"], paid: row["paid"],
                reason: row["reason"],
                dueDay: Day(row["dueDay"] as Int), currency: try Currency(row["currency"] as String), iban: row["iban"], address: row["address"],
                institution: row["institution"], payFromID: row["payFromId"], categoryID: row["categoryId"])
        }
    }

    /// A due payment by its number (`3` or `#3`).
    static func resolveDue(_ db: Database, _ reference: String) throws -> Due {
        let digits = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        guard let number = Int(digits), number > 0 else {
            throw StoreError.refused(field: "ID", value: reference, reason: "not a due payment number", remedy: .listAllDues)
        }
        guard let due = try fetchDues(db, filter: "AND number = ?", arguments: [number]).first else {
            throw StoreError.notFound(what: "due payment", reference: reference, hint: .listAllDues)
        }
        return due
    }

    static func buildBudget(_ db: some LedgerContext, id: String, _ input: BudgetInput) throws -> Budget {
        let f = fieldKey
        let accounts = try db.accountIndex()
        let category: Account
        do { category = try accounts.resolve(input.category) } catch let error as StoreError { throw error.named("category") }
        guard category.kind == .expense else {
            throw StoreError.invalid(
                field: f("category"), value: input.category,
                reason: "it is \(category.kind.withArticle) account; a budget is set on an expense category")
        }
        let amount = try minor(input.amount, currency: category.currency, field: f("amount"))
        guard amount > 0 else { throw StoreError.malformed(field: f("amount"), value: input.amount, reason: "must be more than 0") }
        let payFrom = try input.payFrom.map { try balanceAccount(accounts, $0, field: f("payFrom")) }
        if let payFrom { try sameCurrency(payFrom, category.currency, field: f("payFrom")) }
        return Budget(id: id, categoryID: category.id, payFromID: payFrom?.id, amount: amount, period: input.period, start: input.start)
    }

    static func insertBudget(_ db: Database, _ budget: Budget) throws {
        let now = Timestamp.now()
        try db.execute(
            sql: "INSERT INTO budget(id, createdAt, updatedAt, categoryId, payFromId, amount, period, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [budget.id, now, now, budget.categoryID, budget.payFromID, budget.amount, budget.period.rawValue, budget.start.number])
    }

    /// The live budgets `filter` keeps, in listing order (`inListingOrder`).
    static func fetchBudgets(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [Budget] {
        var names: [String: String] = [:]
        let budgets = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT budget.*, account.name AS categoryName FROM budget LEFT JOIN account ON account.id = budget.categoryId
                    WHERE budget.deleted = 0 \(filter)
                    """), arguments: arguments
        )
        .map { row in
            names[row["categoryId"]] = row["categoryName"]
            return Budget(
                id: row["id"], categoryID: row["categoryId"], payFromID: row["payFromId"], amount: row["amount"],
                period: BudgetPeriod(rawValue: row["period"]) ?? .monthly, start: Day(row["start"] as Int))
        }
        return inListingOrder(budgets, categoryNames: names)
    }

    /// Budgets in the order every device lists them: by their category's name as names compare
    /// (`nameKey`), then id. Both travel with sync; the order they were written in is each
    /// device's own (a device that joined wrote them in the order they arrived).
    static func inListingOrder(_ budgets: [Budget], categoryNames: [String: String]) -> [Budget] {
        inListingOrder(budgets, account: \.categoryID, names: categoryNames)
    }

    /// Records in the order every device lists them: by the name of their account (`account`:
    /// a budget's category, a loan's, card's or deposit's own account) as names compare
    /// (`nameKey`), then id. Both travel with sync; the order they were written in is each
    /// device's own (a device that joined wrote them in the order they arrived).
    static func inListingOrder<Record: Identifiable>(_ records: [Record], account: KeyPath<Record, String>, names: [String: String]) -> [Record]
    where Record.ID == String {
        records.map { (nameKey(names[$0[keyPath: account]] ?? ""), $0) }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)
    }

    /// Every account's name by id, for `inListingOrder`.
    static func accountNames(_ db: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name FROM account")) { names[row["id"]] = row["name"] }
        return names
    }
}
