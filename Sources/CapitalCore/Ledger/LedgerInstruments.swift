/// A credit card kept in a ledger: its terms on its credit-card account, paid back from another.
public struct LedgerCard: Hashable, Sendable, Identifiable {
    public var id: String
    /// The credit-card account: the card goes by its name.
    public var accountID: String
    public var payFromID: String
    /// The expense category of the interest on carried balances.
    public var interestCategoryID: String
    public var terms: CreditCard

    public init(id: String, accountID: String, payFromID: String, interestCategoryID: String, terms: CreditCard) {
        self.id = id
        self.accountID = accountID
        self.payFromID = payFromID
        self.interestCategoryID = interestCategoryID
        self.terms = terms
    }
}

/// A deposit kept in a ledger: its terms on its deposit account, paid out at maturity.
public struct LedgerDeposit: Hashable, Sendable, Identifiable {
    public var id: String
    /// The deposit account: the deposit goes by its name.
    public var accountID: String
    /// Where the balance goes at maturity; nil leaves it in the deposit account.
    public var payoutID: String?
    /// The income category the interest comes from.
    public var interestCategoryID: String
    public var terms: Deposit

    public init(id: String, accountID: String, payoutID: String?, interestCategoryID: String, terms: Deposit) {
        self.id = id
        self.accountID = accountID
        self.payoutID = payoutID
        self.interestCategoryID = interestCategoryID
        self.terms = terms
    }
}
