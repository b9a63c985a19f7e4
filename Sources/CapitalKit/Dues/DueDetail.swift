import CapitalCore
import CapitalStore

/// A bill or fine as its screen shows it: where it is paid from, what it is filed under, and
/// the payments made.
public struct DueDetail: Sendable {
    public let due: Due
    /// The account it is paid from; nil for the default account.
    public let payFrom: Account?
    public let category: Account?
    public let payments: [Payment]

    /// A payment of the due: the transaction, the account the money came from, and how much.
    public struct Payment: Sendable {
        public let transaction: Transaction
        public let from: Account
        public let amount: Money
    }
}

extension Store {
    /// The bill or fine numbered (or id-prefixed) `reference`, with its payments.
    /// - Throws: `StoreError` when there is no such due or the ledger cannot be read.
    public func dueDetail(_ reference: String) throws -> DueDetail {
        let due = try due(reference)
        let payments = try duePayments(due).compactMap { transaction -> DueDetail.Payment? in
            guard let from = transaction.postings.first else { return nil }
            return DueDetail.Payment(transaction: transaction, from: try account(from.accountID), amount: try from.amount.negated())
        }
        return DueDetail(
            due: due, payFrom: try due.payFromID.map { try account($0) }, category: try due.categoryID.map { try account($0) }, payments: payments)
    }
}
