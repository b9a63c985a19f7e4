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

    /// A deposit with its terms on `accountID`, paid out to `payoutID` at maturity.
    public init(id: String, accountID: String, payoutID: String?, interestCategoryID: String, terms: Deposit) {
        self.id = id
        self.accountID = accountID
        self.payoutID = payoutID
        self.interestCategoryID = interestCategoryID
        self.terms = terms
    }
}
