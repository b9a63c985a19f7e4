/// What an account holds. Categories are the `income` and `expense` kinds.
public enum AccountKind: String, CaseIterable, Sendable, Codable {
    case cash
    case debit
    case creditCard = "credit-card"
    case deposit
    case receivable
    case fixedAsset = "fixed-asset"
    case loan
    case payable
    case income
    case expense
    case equity

    /// Income and expense accounts are the categories.
    public var isCategory: Bool { self == .income || self == .expense }

    /// Accounts that appear on a balance sheet: everything but categories.
    public var isBalanceSheet: Bool { !isCategory }

    /// The kind's name after "a" or "an": "an expense", "a debit".
    public var withArticle: String {
        ("aeiou".contains(rawValue.first!) ? "an " : "a ") + rawValue
    }

    /// The kinds a user may pick, listed for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// An account: a place money is (debit, cash, a loan) or a category it flows to or from.
public struct Account: Hashable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var kind: AccountKind
    public var currency: Currency
    /// A reserve the balance must not go below, in minor units.
    public var floor: Int64?
    /// An override of the answer-ladder level (1…6).
    public var level: Int?
    /// Hidden accounts keep their history but are left out of listings.
    public var hidden: Bool
    public var note: String
    /// For an asset whose value changes at a yearly rate (a car, a flat): posted monthly in forecasts.
    public var valueChange: AssetRevaluation?
    /// The colour tables and charts draw the name in: a terminal colour name or `#rrggbb`,
    /// checked by `Account.checkedColor`. Mostly for categories.
    public var color: String?
    /// One emoji shown before the name, checked by `Account.checkedIcon`. Mostly for categories.
    public var icon: String?

    /// An account with every field given; `Store` checks names, kinds and currencies before one is kept.
    public init(
        id: String, name: String, kind: AccountKind, currency: Currency,
        floor: Int64? = nil, level: Int? = nil, hidden: Bool = false, note: String = "", valueChange: AssetRevaluation? = nil,
        color: String? = nil, icon: String? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.currency = currency
        self.floor = floor
        self.level = level
        self.hidden = hidden
        self.note = note
        self.valueChange = valueChange
        self.color = color
        self.icon = icon
    }

    /// The equity account that always exists: opening balances and corrections come from it.
    public static let capitalName = "Capital"

    /// Categories `init` creates: income first, then expenses.
    public static let defaultCategories: [(name: String, kind: AccountKind)] =
        [("Salary", .income), ("Other income", .income)]
        + [
            "Groceries", "Housing", "Utilities", "Transport", "Health", "Kids", "Eating out", "Entertainment",
            "Clothing", "Insurance", "Loan interest", "Gifts", "Other",
        ].map { ($0, AccountKind.expense) }
}

/// How a group is used: to sum balances (cash flow) or to sum flows (profit and loss).
public enum GroupType: String, CaseIterable, Sendable {
    case cashFlow = "cash-flow"
    case profitAndLoss = "profit-and-loss"
}

/// A named set of accounts; an account may be in several groups.
public struct AccountGroup: Hashable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var type: GroupType
    public var accountIDs: [String]

    /// A group of `type` holding the accounts with `accountIDs`.
    public init(id: String, name: String, type: GroupType, accountIDs: [String] = []) {
        self.id = id
        self.name = name
        self.type = type
        self.accountIDs = accountIDs
    }
}
