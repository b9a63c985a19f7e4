import CapitalCore
import CapitalStore

/// Which transactions to list, as a person writes it: days (`YYYY-MM-DD`, or `YYYY-MM` for the
/// month's first or last day), account and category names, amounts as text, a kind.
public struct TransactionQuery: Sendable {
    public var from: String?
    public var to: String?
    public var accounts: [String] = []
    public var categories: [String] = []
    /// Only transactions with a posting to `Uncategorised` (what a statement import could not
    /// categorise); none when the ledger has no such category.
    public var uncategorised = false
    public var min: String?
    public var max: String?
    /// Text in the payee or the note, any case.
    public var search: String?
    public var spender: String?
    /// `income`, `expense` or `transfer`.
    public var kind: String?
    /// At most this many transactions (at least 1); nil: every one.
    public var limit: Int?
    /// Id prefixes of the transactions the page starts after or ends before.
    public var after: String?
    public var before: String?

    /// A query that keeps every transaction.
    public init() {}
}

/// One page of the transactions a query keeps, oldest first, and whether it keeps more before
/// or after the page.
public struct TransactionPage: Sendable {
    /// The page, oldest first.
    public var transactions: [Transaction]
    /// Whether the query keeps a transaction before the first one listed.
    public var earlier: Bool
    /// Whether the query keeps a transaction after the last one listed.
    public var later: Bool
}

extension Store {
    /// The ledger and the transactions `query` keeps, in the ledger's order.
    /// - Throws: as `transactionPage(matching:)`.
    public func transactions(matching query: TransactionQuery) throws -> (ledger: Ledger, transactions: [Transaction]) {
        var whole = query
        (whole.limit, whole.after, whole.before) = (nil, nil, nil)
        let (ledger, page) = try transactionPage(matching: whole)
        return (ledger, page.transactions)
    }

    /// A page of the transactions `query` keeps, oldest first: with `after`, the first `limit`
    /// after it; otherwise the last `limit` before `before` (or the newest). Reads only the
    /// transactions it passes (from the database's day index), never the whole history; the
    /// ledger it returns holds the accounts, not the transactions.
    /// - Throws: `KitError` naming the field that cannot be read or used (a day that is not one,
    ///   `to` before `from`, a category that is an account, an amount, a kind, a limit below 1);
    ///   `StoreError` for a name that is no account or an id that is no transaction.
    /// - Complexity: O(transactions passed until the page is full).
    public func transactionPage(matching query: TransactionQuery) throws -> (ledger: Ledger, page: TransactionPage) {
        let ledger = Ledger(currency: try currency(), accounts: try accounts(includeHidden: true))
        var filter = TransactionFilter()
        func day(_ text: String?, _ field: KitError.Field, _ form: Day.MonthForm) throws -> Day? {
            guard let text else { return nil }
            do { return try Day(input: text, monthAs: form) } catch { throw KitError.unreadable(field, reason: "\(error)") }
        }
        func minor(_ text: String?, _ field: KitError.Field) throws -> Int64? {
            guard let text else { return nil }
            do { return try Money(parsing: text, currency: ledger.currency).minor } catch { throw KitError.unreadable(field, reason: "\(error)") }
        }
        if let limit = query.limit, limit < 1 { throw KitError.invalid(.limit, value: String(limit), reason: "must be at least 1") }
        filter.from = try day(query.from, .from, .startOfMonth)
        filter.to = try day(query.to, .to, .endOfMonth)
        if let from = filter.from, let to = filter.to, from > to {
            throw KitError.invalid(.to, value: query.to!, reason: "it is before {from} \(FieldKeys.literal(query.from!))")
        }
        filter.accountIDs = Set(try query.accounts.map { try account($0).id })
        filter.categoryIDs = Set(
            try query.categories.map { name in
                let found: Account
                do { found = try account(name) } catch let error as StoreError { throw error.named("category") }
                guard found.kind.isCategory else {
                    throw KitError.invalid(
                        .category, value: name, reason: "it is \(found.kind.withArticle) account, not an income or expense category")
                }
                return found.id
            })
        if query.uncategorised {
            guard
                let category = ledger.accounts.first(where: {
                    $0.kind.isCategory && $0.name.lowercased() == StatementImport.uncategorised.lowercased()
                })
            else { return (ledger, TransactionPage(transactions: [], earlier: false, later: false)) }
            filter.categoryIDs.insert(category.id)
        }
        filter.min = try minor(query.min, .min)
        filter.max = try minor(query.max, .max)
        if let min = filter.min, let max = filter.max, min > max {
            throw KitError.invalid(.max, value: query.max!, reason: "it is less than {min} \(FieldKeys.literal(query.min!)): no amount is both")
        }
        filter.search = query.search
        filter.spender = query.spender
        if let kind = query.kind {
            guard let value = TransactionKind(rawValue: kind), value != .mixed else {
                throw KitError.invalid(.kind, value: kind, reason: "expected income, expense or transfer")
            }
            filter.kind = value
        }
        var range = TransactionRange()
        (range.from, range.to) = (filter.from, filter.to)
        // The day index narrows the walk; the accounts' postings do when they are named alone.
        if filter.categoryIDs.isEmpty {
            range.accountIDs = filter.accountIDs
        } else if filter.accountIDs.isEmpty {
            range.accountIDs = filter.categoryIDs
        }
        range.after = try query.after.map { try transaction($0).id }
        range.before = try query.before.map { try transaction($0).id }
        let kinds = Dictionary(ledger.accounts.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
        let matches = { (transaction: Transaction) in filter.matches(transaction, kinds: { kinds[$0] }) }
        var listed: [Transaction] = []
        var full = false
        range.newestFirst = query.limit != nil && query.after == nil
        try walkTransactions(range) { transaction in
            guard matches(transaction) else { return true }
            if let limit = query.limit, listed.count == limit {
                full = true
                return false
            }
            listed.append(transaction)
            return true
        }
        if range.newestFirst { listed.reverse() }
        var page = TransactionPage(transactions: listed, earlier: false, later: false)
        guard let first = listed.first, let last = listed.last else { return (ledger, page) }
        // A walk that stopped on one more match knows; past the cursor it started from, a look tells.
        if range.newestFirst { page.earlier = full } else if range.after != nil { page.earlier = try exists(range, before: first.id, matches) }
        if !range.newestFirst && full { page.later = true } else if range.before != nil { page.later = try exists(range, after: last.id, matches) }
        return (ledger, page)
    }
}

extension Store {
    /// Whether the walk over `range` finds a transaction `matches` keeps just before `before`
    /// (walking back) or just after `after`, past the range's own cursors.
    fileprivate func exists(
        _ range: TransactionRange, before: String? = nil, after: String? = nil, _ matches: (Transaction) -> Bool
    ) throws -> Bool {
        var look = range
        (look.after, look.before, look.newestFirst) = (after, before, before != nil)
        var found = false
        try walkTransactions(look) { transaction in
            found = matches(transaction)
            return !found
        }
        return found
    }
}
