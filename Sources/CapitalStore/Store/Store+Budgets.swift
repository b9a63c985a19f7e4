import CapitalCore
import GRDB

/// A budget as a user writes it (`budget set`, a ledger file's `budgets:`).
public struct BudgetInput: Sendable {
    public var category: String
    public var amount: String
    public var period: BudgetPeriod = .monthly
    public var start: Day
    public var payFrom: String?

    public init(category: String, amount: String, start: Day) {
        self.category = category
        self.amount = amount
        self.start = start
    }
}

extension Store {

    public func budgets() throws(StoreError) -> [Budget] {
        try read("listing budgets") { db in try Store.fetchBudgets(db) }
    }

    /// Sets the budget of a category, replacing the one it had. Returns the budget and whether it
    /// replaced one. The budget starts on the first day of the period containing `input.start` (the
    /// day `budget set` says and `export` writes).
    public func setBudget(_ input: BudgetInput) throws(StoreError) -> (budget: Budget, replaced: Bool) {
        var input = input
        input.start = Budget.period(input.period, containing: input.start).start
        return try write("setting the budget of '\(input.category)'") { db in
            let budget = try Store.buildBudget(db, id: Store.newID(), input)
            let replaced = try Store.fetchBudgets(db, filter: "AND budget.categoryId = ?", arguments: [budget.categoryID]).first
            if let replaced {
                try db.execute(
                    sql: "UPDATE budget SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?",
                    arguments: [Timestamp.now(), replaced.id])
            }
            try Store.insertBudget(db, budget)
            return (budget, replaced != nil)
        }
    }

    @discardableResult
    public func removeBudget(_ category: String) throws(StoreError) -> Budget {
        try write("removing the budget of '\(category)'") { db in
            let account = try AccountIndex(try Store.fetchAccounts(db)).resolve(category)
            guard let budget = try Store.fetchBudgets(db, filter: "AND budget.categoryId = ?", arguments: [account.id]).first else {
                throw StoreError.notFound(what: "budget of", reference: account.name, hint: .listBudgets)
            }
            try db.execute(
                sql: "UPDATE budget SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?", arguments: [Timestamp.now(), budget.id])
            return budget
        }
    }
}
