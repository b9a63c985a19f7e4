import CapitalCore
import GRDB

/// What refers to an account: its postings, and the schedules, loans, cards, deposits, due
/// payments and budgets that name it. What `category rm` checks, and what `account rm` checks
/// before it leaves a record pointing at a removed account.
public struct AccountUses: Sendable, Equatable {
    /// Postings in live transactions.
    public var postings = 0
    /// Schedule names.
    public var schedules: [String] = []
    /// Loans, cards and deposits, each as "loan Mortgage", named by their own account.
    public var instruments: [String] = []
    /// Due payments, each as "due 3 (Traffic fine)".
    public var dues: [String] = []
    /// Budgets, each as "budget monthly".
    public var budgets: [String] = []

    public init() {}

    /// Nothing refers to the account: it can go without touching anything else.
    public var isEmpty: Bool { postings == 0 && schedules.isEmpty && records.isEmpty }

    /// The records other than postings and schedules that name the account.
    public var records: [String] { instruments + dues + budgets }

    /// "12 postings, schedule Rent, loan Mortgage": what uses it, for messages.
    public var description: String {
        var parts: [String] = []
        if postings > 0 { parts.append("\(postings) posting\(postings == 1 ? "" : "s")") }
        if !schedules.isEmpty { parts.append((schedules.count == 1 ? "schedule " : "schedules ") + schedules.joined(separator: ", ")) }
        return (parts + records).joined(separator: ", ")
    }
}

extension Store {
    /// A category (income or expense account) by name or id prefix.
    /// - Throws: `StoreError.invalid` when the account exists but is not a category.
    public func category(_ reference: String) throws(StoreError) -> Account {
        try read("finding a category") { db in try Store.resolveCategory(db, reference) }
    }

    /// What refers to an account (by name or id prefix).
    public func uses(ofAccount reference: String) throws(StoreError) -> AccountUses {
        try read("finding what uses an account") { db in
            try Store.uses(db, accountID: try Store.resolveAccount(db, reference).id)
        }
    }

    /// Removes (soft-deletes) a category that nothing refers to.
    /// - Throws: `StoreError.invalid` naming what still uses it (postings, schedules, loans, cards,
    ///   deposits, due payments, budgets), or when the account is not a category.
    /// - Returns: what was done, for the user.
    @discardableResult
    public func removeCategory(_ reference: String) throws(StoreError) -> String {
        try write("removing category '\(reference)'") { db in
            let category = try Store.resolveCategory(db, reference)
            let uses = try Store.uses(db, accountID: category.id)
            guard uses.isEmpty else {
                throw StoreError.refused(
                    field: "category", value: category.name, reason: "it is in use (\(FieldKeys.literal(uses.description)))",
                    remedy: uses.records.isEmpty ? .moveOrHideCategory(category.name) : .changeOrHideCategory(category.name))
            }
            let now = Timestamp.now()
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE accountId = ?").execute(arguments: [category.id])
            try db.cachedStatement(sql: "UPDATE account SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                now, category.id,
            ])
            return "removed \(category.kind.rawValue) category '\(category.name)'"
        }
    }

    // MARK: Helpers

    static func resolveCategory(_ db: Database, _ reference: String) throws -> Account {
        let account = try resolveAccount(db, reference)
        guard account.kind.isCategory else {
            throw StoreError.refused(
                field: "category", value: reference,
                reason: "'\(FieldKeys.literal(account.name))' is \(account.kind.withArticle) account, not a category (an income or expense account)",
                remedy: .seeAccounts)
        }
        return account
    }

    static func uses(_ db: Database, accountID id: String) throws -> AccountUses {
        var uses = AccountUses()
        uses.postings = try postingCount(db, accountID: id)
        uses.schedules = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT schedule.name FROM schedulePosting JOIN schedule ON schedule.id = schedulePosting.scheduleId
                    WHERE schedule.deleted = 0 AND schedulePosting.accountId = ? ORDER BY schedule.position
                    """), arguments: [id])
        // Loans, cards and deposits are named by their own account.
        for table in ["loan", "card", "deposit"] {
            let references = [
                "loan": "accountId = ?1 OR payFromId = ?1 OR categoryId = ?1 OR disburseToId = ?1 OR collateralId = ?1",
                "card": "accountId = ?1 OR payFromId = ?1 OR categoryId = ?1", "deposit": "accountId = ?1 OR payoutId = ?1 OR categoryId = ?1",
            ][table]!
            uses.instruments += try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT account.name FROM \(table) JOIN account ON account.id = \(table).accountId
                        WHERE \(table).deleted = 0 AND (\(references)) ORDER BY account.position
                        """), arguments: [id]
            ).map { "\(table) \($0)" }
        }
        uses.dues = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT number, reason FROM due WHERE deleted = 0 AND (categoryId = ?1 OR payFromId = ?1) ORDER BY number"),
            arguments: [id]
        ).map { row in
            let reason: String = row["reason"]
            return "due \(row["number"] as Int)" + (reason.isEmpty ? "" : " (\(reason))")
        }
        uses.budgets = try String.fetchAll(
            db.cachedStatement(sql: "SELECT period FROM budget WHERE deleted = 0 AND categoryId = ?"), arguments: [id]
        ).map { "a \($0) budget" }
        return uses
    }
}
