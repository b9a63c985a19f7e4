import CapitalCore
import CapitalStore

/// Which transactions to list, as a person writes it: days (`YYYY-MM-DD`, or `YYYY-MM` for the
/// month's first or last day), account and category names, amounts as text, a kind.
public struct TransactionQuery: Sendable {
    public var from: String?
    public var to: String?
    public var accounts: [String] = []
    public var categories: [String] = []
    public var min: String?
    public var max: String?
    /// Text in the payee or the note, any case.
    public var search: String?
    public var spender: String?
    /// `income`, `expense` or `transfer`.
    public var kind: String?

    /// A query that keeps every transaction.
    public init() {}
}

extension Store {
    /// The ledger and the transactions `query` keeps, in the ledger's order.
    /// - Throws: `KitError` naming the field that cannot be read or used (a day that is not one,
    ///   `to` before `from`, a category that is an account, an amount, a kind); `StoreError` for
    ///   a name that is no account.
    public func transactions(matching query: TransactionQuery) throws -> (ledger: Ledger, transactions: [Transaction]) {
        let ledger = try snapshot()
        var filter = TransactionFilter()
        func day(_ text: String?, _ field: KitError.Field, _ form: Day.MonthForm) throws -> Day? {
            guard let text else { return nil }
            do { return try Day(parsing: text, monthAs: form) } catch { throw KitError.unreadable(field, reason: "\(error)") }
        }
        func minor(_ text: String?, _ field: KitError.Field) throws -> Int64? {
            guard let text else { return nil }
            do { return try Money(parsing: text, currency: ledger.currency).minor } catch { throw KitError.unreadable(field, reason: "\(error)") }
        }
        filter.from = try day(query.from, .from, .startOfMonth)
        filter.to = try day(query.to, .to, .endOfMonth)
        if let from = filter.from, let to = filter.to, from > to {
            throw KitError.invalid(.to, value: query.to!, reason: "it is before {from} \(FieldKeys.literal(query.from!))")
        }
        filter.accountIDs = Set(try query.accounts.map { try account($0).id })
        filter.categoryIDs = Set(
            try query.categories.map { name in
                let found = try account(name)
                guard found.kind.isCategory else {
                    throw KitError.invalid(
                        .category, value: name, reason: "it is \(found.kind.withArticle) account, not an income or expense category")
                }
                return found.id
            })
        filter.min = try minor(query.min, .min)
        filter.max = try minor(query.max, .max)
        filter.search = query.search
        filter.spender = query.spender
        if let kind = query.kind {
            guard let value = TransactionKind(rawValue: kind), value != .mixed else {
                throw KitError.invalid(.kind, value: kind, reason: "expected income, expense or transfer")
            }
            filter.kind = value
        }
        return (ledger, ledger.transactions(matching: filter))
    }
}
