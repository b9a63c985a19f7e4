/// One leg of a transaction: an amount into (positive) or out of (negative) an account.
public struct Posting: Hashable, Sendable {
    public var accountID: String
    public var amount: Money
    public var note: String

    /// `amount` posted to `accountID` (positive: into the account).
    public init(accountID: String, amount: Money, note: String = "") {
        self.accountID = accountID
        self.amount = amount
        self.note = note
    }
}

/// A double-entry transaction: two or more postings whose amounts sum to zero in each currency.
///
/// Spending 500 on groceries from a debit card is `Groceries +500`, `VTB Debit −500`; a mortgage
/// payment is `Loan interest +60 000`, `Mortgage +10 000`, `VTB Debit −70 000`.
public struct Transaction: Hashable, Sendable, Identifiable {
    public var id: String
    public var day: Day
    public var payee: String
    public var note: String
    public var spender: String
    public var tags: [String]
    public var postings: [Posting]

    /// A transaction with every field given; `validate()` checks that its postings balance.
    public init(
        id: String, day: Day, payee: String = "", note: String = "", spender: String = "",
        tags: [String] = [], postings: [Posting]
    ) {
        self.id = id
        self.day = day
        self.payee = payee
        self.note = note
        self.spender = spender
        self.tags = tags
        self.postings = postings
    }

    /// Checks the double-entry rules.
    /// - Throws: `LedgerError.tooFewPostings`, `.unbalanced` (naming the currency and the difference),
    ///   or `.overflow`.
    /// - Complexity: O(postings).
    public func validate() throws(LedgerError) {
        guard postings.count >= 2 else { throw .tooFewPostings(count: postings.count) }
        guard postings.contains(where: { $0.amount.minor != 0 }) else { throw .nothingMoves }
        var sums: [(Currency, Int64)] = []
        for posting in postings {
            if let index = sums.firstIndex(where: { $0.0 == posting.amount.currency }) {
                let (sum, overflow) = sums[index].1.addingReportingOverflow(posting.amount.minor)
                if overflow { throw .overflow }
                sums[index].1 = sum
            } else {
                sums.append((posting.amount.currency, posting.amount.minor))
            }
        }
        if let off = sums.first(where: { $0.1 != 0 }) {
            throw .unbalanced(Money(minor: off.1, currency: off.0))
        }
    }

    /// What the transaction does, seen from its categories: income, expense, or a transfer between
    /// balance-sheet accounts.
    public func kind(accountKinds: (String) -> AccountKind?) -> TransactionKind {
        var sawIncome = false
        var sawExpense = false
        for posting in postings {
            switch accountKinds(posting.accountID) {
            case .income: sawIncome = true
            case .expense: sawExpense = true
            default: break
            }
        }
        if sawIncome && !sawExpense { return .income }
        if sawExpense && !sawIncome { return .expense }
        return sawIncome ? .mixed : .transfer
    }
}

/// The nature of a transaction, for filters and statistics.
public enum TransactionKind: String, Sendable, CaseIterable {
    case income, expense, transfer, mixed
}

/// Why a ledger change breaks the rules.
public enum LedgerError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooFewPostings(count: Int)
    case unbalanced(Money)
    case overflow
    case nothingMoves

    public var description: String {
        switch self {
        case .tooFewPostings(let count):
            return "a transaction needs at least 2 postings, got \(count)"
        case .unbalanced(let off):
            return "postings do not balance: they sum to \(off.plain) \(off.currency.code) instead of 0"
        case .overflow:
            return "postings overflow the largest representable amount"
        case .nothingMoves:
            return "every posting is zero; a transaction must move some money"
        }
    }
}
