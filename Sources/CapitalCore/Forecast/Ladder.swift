/// The six honest answers to "how much can I spend" (DESIGN.md).
///
/// | level | name | counts |
/// | --- | --- | --- |
/// | 1 | cash | cash accounts now |
/// | 2 | debit | + debit / current accounts now |
/// | 3 | credit | + available credit on cards now (a card's floor is minus its limit) |
/// | 4 | forecast | level 3's accounts, at their lowest future balance to the horizon |
/// | 5 | liquid | + deposits, receivables, payables, forecast |
/// | 6 | net | + fixed assets and loans, forecast |
public enum Ladder {
    public static let levels = 1...6
    /// The level answers use unless told otherwise.
    public static let defaultLevel = 4

    /// The name of a level (1–6): cash, debit, credit, forecast, liquid, net.
    public static func name(_ level: Int) -> String {
        ["cash", "debit", "credit", "forecast", "liquid", "net"][level - 1]
    }

    /// Levels 1–3 answer with the balance on the day; 4–6 with the lowest balance from that day on.
    public static func isForecast(_ level: Int) -> Bool { level >= 4 }

    /// The level an account kind joins the ladder at; nil for categories and equity, which hold no money.
    public static func level(of kind: AccountKind) -> Int? {
        switch kind {
        case .cash: return 1
        case .debit: return 2
        case .creditCard: return 3
        case .deposit, .receivable, .payable: return 5
        case .fixedAsset, .loan: return 6
        case .income, .expense, .equity: return nil
        }
    }

    /// The level of an account: its override, else its kind's.
    public static func level(of account: Account) -> Int? {
        account.level ?? level(of: account.kind)
    }

    /// Whether an account counts in a level's sum (it joins at its level and stays in every higher one).
    public static func includes(_ account: Account, in level: Int) -> Bool {
        guard let own = self.level(of: account) else { return false }
        return own <= level
    }
}
