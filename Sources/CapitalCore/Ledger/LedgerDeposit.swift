/// A deposit kept in a ledger: its terms on its deposit account, paid out at maturity.
///
/// Its interest and payout are expected flows (`ExpectedKind.deposit`): those through
/// `handledThrough` are its history, generated as they fall; later ones are open until posted,
/// settled or skipped (`Ledger.flowMarks`).
public struct LedgerDeposit: Hashable, Sendable, Identifiable {
    public var id: String
    /// The deposit account: the deposit goes by its name.
    public var accountID: String
    /// Where the balance goes at maturity; nil leaves it in the deposit account.
    public var payoutID: String?
    /// The income category the interest comes from.
    public var interestCategoryID: String
    public var terms: Deposit
    /// The last day of the history it was added with: interest and payout through it happened as
    /// its terms say; nil (a ledger written before deposits had expected flows) counts those
    /// before today as happened.
    public var handledThrough: Day?

    /// A deposit with its terms on `accountID`, paid out to `payoutID` at maturity.
    public init(id: String, accountID: String, payoutID: String?, interestCategoryID: String, terms: Deposit, handledThrough: Day? = nil) {
        self.id = id
        self.accountID = accountID
        self.payoutID = payoutID
        self.interestCategoryID = interestCategoryID
        self.terms = terms
        self.handledThrough = handledThrough
    }
}
