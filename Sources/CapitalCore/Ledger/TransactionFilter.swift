/// Which transactions a listing shows. Empty fields match everything.
public struct TransactionFilter: Sendable {
    /// First and last day, both included.
    public var from: Day?
    public var to: Day?
    /// Transactions with a posting to any of these accounts.
    public var accountIDs: Set<String> = []
    /// Transactions with a posting to any of these categories.
    public var categoryIDs: Set<String> = []
    /// Bounds on `Transaction.amount`, in minor units, both included.
    public var min: Int64?
    public var max: Int64?
    /// Case-insensitive text in the payee or the note.
    public var search: String?
    /// Case-insensitive spender name.
    public var spender: String?
    public var kind: TransactionKind?

    /// A filter that keeps every transaction.
    public init() {}

    /// Whether `transaction` passes every criterion.
    /// - Complexity: O(postings + text length).
    public func matches(_ transaction: Transaction, kinds: (String) -> AccountKind?) -> Bool {
        if let from, transaction.day < from { return false }
        if let to, transaction.day > to { return false }
        if !accountIDs.isEmpty && !transaction.postings.contains(where: { accountIDs.contains($0.accountID) }) { return false }
        if !categoryIDs.isEmpty && !transaction.postings.contains(where: { categoryIDs.contains($0.accountID) }) { return false }
        if min != nil || max != nil {
            let amount = transaction.amount
            if let min, amount < min { return false }
            if let max, amount > max { return false }
        }
        if let search, !search.isEmpty {
            let needle = search.lowercased()
            if !transaction.payee.lowercased().contains(needle) && !transaction.note.lowercased().contains(needle) { return false }
        }
        if let spender, transaction.spender.lowercased() != spender.lowercased() { return false }
        if let kind, transaction.kind(accountKinds: kinds) != kind { return false }
        return true
    }
}

extension Ledger {
    /// The transactions `filter` keeps, in the ledger's order.
    /// - Complexity: O(postings of every transaction).
    public func transactions(matching filter: TransactionFilter) -> [Transaction] {
        let kinds = Dictionary(accounts.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
        return transactions.filter { filter.matches($0, kinds: { kinds[$0] }) }
    }
}

extension Transaction {
    /// The size of a transaction: the sum of its positive postings in the first posting's currency
    /// (what moved; 70 000 for the mortgage payment split 60 000 + 10 000). Saturates instead of overflowing.
    public var amount: Int64 { Self.amount(of: postings) }

    /// The size of what `postings` move: the sum of the positive ones in the first one's currency
    /// (a transaction's `amount`, a schedule occurrence's). Saturates instead of overflowing.
    public static func amount(of postings: [Posting]) -> Int64 {
        guard let currency = postings.first?.amount.currency else { return 0 }
        var sum: Int64 = 0
        for posting in postings where posting.amount.currency == currency && posting.amount.minor > 0 {
            let (next, overflow) = sum.addingReportingOverflow(posting.amount.minor)
            sum = overflow ? .max : next
        }
        return sum
    }
}
