import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct BudgetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "budget", "Spending limits per expense category: where they stand, and their place in the forecast.",
            about: """
                In the forecast, a budget's category is expected to spend its limit each period: the current period's \
                unspent rest, spread evenly over its days from today, and each later period in full, spread over its \
                days. Schedules count first: what schedules already spend in the category in a period is taken off \
                the budget's share of it, so money is never counted twice (a category fully paid by a schedule adds nothing).
                """,
            subcommands: [Set.self, List.self, Status.self, Remove.self])
    }
}

/// A budget's period as words: "a month", "a week", "a year".
func periodWords(_ period: BudgetPeriod) -> String {
    switch period {
    case .weekly: "a week"
    case .monthly: "a month"
    case .yearly: "a year"
    }
}

extension Capital.BudgetCommand {
    struct Set: ParsableCommand, SpellsFields {
        static let fieldNames = ["category": "CATEGORY", "amount": "AMOUNT"]

        static let configuration = CommandConfiguration(
            "set", "Set (or replace) the budget of an expense category.",
            about: """
                AMOUNT is the limit per period: --monthly (the default), --weekly (Monday to Sunday) or --yearly. \
                --from is the month (YYYY-MM) or day the budget starts; it counts from the period containing it \
                (default: the current one). The forecast takes the expected spending from --pay-from, else the default account.
                """,
            example: "capital budget set Groceries 40000", "capital budget set Entertainment 2500 --weekly --from 2025-04")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "An expense category.", completion: .expenseCategoryNames) var category: String
        @Argument(help: "The limit per period.") var amount: String
        @Flag(help: "The period.") var period: BudgetPeriod = .monthly
        @Option(help: ArgumentHelp("The first month (YYYY-MM) or day.", valueName: "month")) var from: String?
        @Option(
            help: ArgumentHelp("The account the expected spending comes from (default: the default account).", valueName: "account"),
            completion: .accountNames) var payFrom: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let start = try from.map { try parseDay($0, field: "--from", monthAs: .startOfMonth) } ?? global.todayDay()
            var input = BudgetInput(category: category, amount: amount, start: start)
            input.period = period
            input.payFrom = payFrom
            let (budget, replaced) = try store.setBudget(input)
            let name = try store.account(budget.categoryID).name
            let money = Money(minor: budget.amount, currency: try store.account(budget.categoryID).currency).formatted()
            let first = Budget.period(budget.period, containing: budget.start).start
            try output.said("\(replaced ? "Replaced the" : "Set a") budget for \(name): \(money) \(periodWords(budget.period)) from \(first).") {
                let currency = try store.account(budget.categoryID).currency
                return Report.record(
                    "budget",
                    [
                        (Column("id", "ID"), .text(budget.id)), (Column("category", "Category"), .text(name)),
                        (Column("amount", "Amount"), .money(Money(minor: budget.amount, currency: currency))),
                        (Column("period", "Period"), .text(budget.period.rawValue)), (Column("from", "From"), .day(first)),
                        (
                            Column("payFrom", "Paid from"),
                            try budget.payFromID.map { .text(try store.account($0).name) } ?? .absent("(the default account)")
                        ),
                        (Column("replaced", "Replaced"), .bool(replaced)),
                    ])
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration("list", "List the budgets.", example: "capital budget list --format json")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            var section = Section(
                name: "budgets",
                columns: [
                    Column("id", "ID", tableHidden: true), Column("category", "Category"), Column("amount", "Limit", numeric: true),
                    Column("period", "Period"), Column("from", "From"), Column("payFrom", "Paid from"),
                ])
            for budget in try store.budgets() {
                let category = try store.account(budget.categoryID)
                section.rows.append([
                    .id(budget.id), .label(Label(category)), .money(Money(minor: budget.amount, currency: category.currency)),
                    .text(budget.period.rawValue),
                    .day(Budget.period(budget.period, containing: budget.start).start),
                    try budget.payFromID.map { .text(try store.account($0).name) } ?? .absent("(the default account)"),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            "status", "Where each budget stands: limit, spent, left, and the projected spend at the current pace.",
            about: """
                For the current month, each budget's current period as of today; projected = spent so far × the \
                period's days ÷ the days gone (today included). With --month, the period containing that month's \
                last day (or today, in the current month); a month ahead shows nothing spent yet.
                """,
            example: "capital budget status", "capital budget status --month 2025-03 --format csv")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("The month, YYYY-MM (default: this month).", valueName: "month")) var month: String?

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let today = try global.todayDay()
            let day = try kit { try BudgetRequest(month: month).day(today: today) }
            let lines = try store.budgetReport(try store.snapshot(asOf: [day, today]), on: day, today: today)
            try global.print(Report.budgets(lines))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration("rm", "Remove the budget of a category.", example: "capital budget rm Entertainment")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The budget's category.", completion: .categoryNames) var category: String

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let removed = try store.removeBudget(category)
            let name = try store.account(removed.categoryID).name
            try output.said("Removed the budget for \(name).") { Report.removed(removed.id, [("category", name)]) }
        }
    }
}

extension BudgetPeriod: EnumerableFlag {}
