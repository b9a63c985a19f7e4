/// An amount on a day: a flow into a card or a deposit, a change in an asset's value, an asset
/// sold in a scenario. Each use names it (`CardFlow`, `DepositFlow`, `AssetChange`, `AssetSale`)
/// and says what its sign means.
public struct DatedAmount: Hashable, Sendable {
    public var day: Day
    /// Minor units, signed as the use says.
    public var amount: Int64

    /// `amount` on `day`.
    public init(day: Day, amount: Int64) {
        self.day = day
        self.amount = amount
    }
}
