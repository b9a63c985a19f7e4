import ArgumentParser
import CapitalCore
import CapitalStore

/// Records `amount` moving from one account to another: the shared core of spend, earn and transfer.
private func move(
    _ global: GlobalOptions, _ fields: TransactionFields, amount: String, from: Account, to: Account
) throws -> (Store, Transaction) {
    let store = try global.ledgerStore(writing: true)
    if from.currency != to.currency {
        throw CLIError(
            "'\(from.name)' holds \(from.currency.code) and '\(to.name)' holds \(to.currency.code): a quick entry moves one currency; "
                + "record an exchange with `capital tx add` and a posting to Capital in each currency")
    }
    let money = try parseMoney(amount, field: "AMOUNT", currency: from.currency)
    guard money.minor > 0 else { throw CLIError.invalid("AMOUNT", amount, "must be more than zero") }
    let day = try fields.on.map { try parseDay($0, field: "--on") } ?? global.todayDay()
    let transaction = try store.addTransaction(
        TransactionInput(
            day: day, payee: fields.payee ?? "", note: fields.note ?? "", spender: fields.spender ?? "", tags: fields.tag,
            postings: [
                PostingInput(account: to.id, amount: money.plain, field: "AMOUNT"),
                PostingInput(account: from.id, amount: try money.negated().plain, field: "AMOUNT"),
            ]))
    return (store, transaction)
}

/// The named account, or the default one for quick entries.
private func accountOrDefault(_ store: Store, _ reference: String?, option: String) throws -> Account {
    if let reference { return try store.account(reference) }
    guard let account = try store.defaultAccount() else {
        throw CLIError("\(option): no account given and no default account; pass \(option) ACCOUNT or run `capital account edit ACCOUNT --default`")
    }
    return account
}

extension Capital {
    struct Spend: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "spend",
            abstract: "Record spending on a category, from the default account or --from.",
            discussion: "Example: capital spend 1500 Groceries --from Cash --note \"market\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An expense category.") var category: String
        @Option(help: ArgumentHelp("Pay from this account (default: the default account).", valueName: "account")) var from: String?
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let store = try global.ledgerStore(writing: true)
            let target = try store.account(category)
            guard target.kind == .expense else {
                throw CLIError.invalid(
                    "CATEGORY", category, "it is \(target.kind.withArticle) account, not an expense category; use `capital transfer` between accounts"
                )
            }
            let source = try accountOrDefault(store, from, option: "--from")
            let (_, t) = try move(global, fields, amount: amount, from: source, to: target)
            Console.current.line(
                "Spent \(Money(minor: t.amount, currency: source.currency).formatted()) \(source.currency.code) on \(target.name) from \(source.name) on \(t.day) (\(Store.shortID(t.id)))."
            )
        }
    }

    struct Earn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "earn",
            abstract: "Record income from a category, into the default account or --to.",
            discussion: "Example: capital earn 180000 Salary --to \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An income category.") var category: String
        @Option(help: ArgumentHelp("Put it into this account (default: the default account).", valueName: "account")) var to: String?
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let store = try global.ledgerStore(writing: true)
            let source = try store.account(category)
            guard source.kind == .income else {
                throw CLIError.invalid("CATEGORY", category, "it is \(source.kind.withArticle) account, not an income category")
            }
            let target = try accountOrDefault(store, to, option: "--to")
            let (_, t) = try move(global, fields, amount: amount, from: source, to: target)
            Console.current.line(
                "Earned \(Money(minor: t.amount, currency: target.currency).formatted()) \(target.currency.code) from \(source.name) into \(target.name) on \(t.day) (\(Store.shortID(t.id)))."
            )
        }
    }

    struct Transfer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transfer",
            abstract: "Move money between two accounts.", discussion: "Example: capital transfer 5000 --from \"VTB Debit\" --to Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Option(help: ArgumentHelp("From this account.", valueName: "account")) var from: String
        @Option(help: ArgumentHelp("To this account.", valueName: "account")) var to: String
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let store = try global.ledgerStore(writing: true)
            let source = try store.account(from)
            let target = try store.account(to)
            if source.id == target.id { throw CLIError.invalid("--to", to, "it is the same account as --from") }
            let (_, t) = try move(global, fields, amount: amount, from: source, to: target)
            Console.current.line(
                "Moved \(Money(minor: t.amount, currency: source.currency).formatted()) \(source.currency.code) from \(source.name) to \(target.name) on \(t.day) (\(Store.shortID(t.id)))."
            )
        }
    }
}
