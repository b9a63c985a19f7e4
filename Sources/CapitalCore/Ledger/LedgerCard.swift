/// A credit card kept in a ledger: its terms on its credit-card account, paid back from another.
public struct LedgerCard: Hashable, Sendable, Identifiable {
    public var id: String
    /// The credit-card account: the card goes by its name.
    public var accountID: String
    public var payFromID: String
    /// The expense category of the interest on carried balances.
    public var interestCategoryID: String
    public var terms: CreditCard

    /// A card with its terms on `accountID`, paid back from `payFromID`.
    public init(id: String, accountID: String, payFromID: String, interestCategoryID: String, terms: CreditCard) {
        self.id = id
        self.accountID = accountID
        self.payFromID = payFromID
        self.interestCategoryID = interestCategoryID
        self.terms = terms
    }
}
