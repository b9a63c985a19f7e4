import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct CategoryCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "category", "Add, list, edit and remove categories: the income and expense accounts, with a colour and an icon.",
            about: """
                Categories are income and expense accounts; `capital account` sees them too. A colour and an \
                icon (one emoji) are shown in tables: the icon before the name, the name in its colour on a terminal.
                Example: capital category add Pets --icon 🐈 --color bright-magenta
                """,
            subcommands: [Add.self, List.self, Edit.self, Remove.self])
    }
}

extension Capital.CategoryCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add", "Add a category: an expense one unless --income.", example: "capital category add Bonus --income --icon 🎁 --color green")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The category's name (unique among accounts and categories).") var name: String
        @Flag(help: "An income category (money comes from it).") var income = false
        @Flag(help: "An expense category (money goes to it); the default.") var expense = false
        @Option(help: ArgumentHelp("ISO 4217 code (default: the ledger's).", valueName: "code")) var currency: String?
        @OptionGroup var style: StyleOptions

        func validate() throws {
            if income && expense { throw ValidationError("--income and --expense: choose one") }
        }

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var code: Currency?
            if let currency {
                do { code = try Currency(currency) } catch { throw CLIError.invalid("--currency", currency, "not an ISO 4217 currency code") }
            }
            let category: Account
            do {
                category = try store.addAccount(
                    name: name, kind: income ? .income : .expense, currency: code, color: style.newColor, icon: style.newIcon)
            } catch .duplicateName {
                // A name taken is well-formed, as for `account add`: exit 1 (docs/cli.md "Errors").
                let existing = try store.account(name)
                throw CLIError.refused(
                    "category", name,
                    "the name is taken by \(existing.kind.isCategory ? "the \(existing.kind.rawValue) category" : "the \(existing.kind.rawValue) account") '\(existing.name)'"
                )
            }
            try output.said(
                "Added \(category.kind.rawValue) category '\(category.name)' (\(Store.shortID(category.id)), \(category.currency.code))."
            ) {
                try global.accountRecord(category.id)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List categories with their icon, colour and this month's total.",
            about: """
                This month's total runs from the 1st to today (--today), positive for what was spent \
                (expense) or earned (income).
                """,
            example: "capital category list --kind expense --format json")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Only income or only expense categories.", valueName: "kind"), completion: .list(["income", "expense"])) var kind:
            String?
        @Flag(help: "Include hidden categories.") var all = false

        func run() throws {
            var only: AccountKind?
            if let kind {
                guard let value = AccountKind(rawValue: kind), value.isCategory else {
                    throw CLIError.invalid("--kind", kind, "expected income or expense")
                }
                only = value
            }
            let month = try global.answer { try $0.monthToDate(today: $1) }
            let shown = month.now.ledger.accounts.filter { $0.kind.isCategory && (only == nil || $0.kind == only) && (all || !$0.hidden) }
            try global.print(try Report.categories(shown, month, showHidden: all))
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            "edit", "Rename a category or change its colour or icon.",
            example: "capital category edit Groceries --icon 🛒 --color green   (--icon \"\" clears the icon)")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Category name or id prefix.", completion: .categoryNames) var category: String
        @Option(help: "A new name.") var name: String?
        @OptionGroup var style: StyleOptions

        func run() throws {
            guard name != nil || style.color != nil || style.icon != nil else {
                throw CLIError.invalid("category", category, "nothing to change; give --name, --color or --icon")
            }
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let found = try store.category(category)
            var changes = AccountChanges()
            changes.name = name
            style.apply(to: &changes)
            let updated = try store.editAccount(found.id, changes)
            try output.said("Updated \(updated.kind.rawValue) category '\(updated.name)' (\(Store.shortID(updated.id))).") {
                try global.accountRecord(updated.id)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rm", "Remove a category nothing uses.",
            about: """
                A category with transactions, schedules, loans, cards, deposits, due payments or budgets is \
                refused; `capital account rm NAME --move-to OTHER` moves its postings, `--hide` keeps it out of listings.
                """,
            example: "capital category rm Gifts")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Category name or id prefix.", completion: .categoryNames) var category: String

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let found = try store.category(category)
            let done = try store.removeCategory(category)
            try output.said(done.capitalizedFirst + ".") { Report.removed(found.id, [("name", found.name)]) }
        }
    }
}
