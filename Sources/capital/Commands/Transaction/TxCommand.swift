import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension Capital {
    struct TxCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tx", abstract: "Add, list, show, edit and remove transactions.",
            subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self])
    }
}

/// Options describing a transaction's text fields, shared by `tx add`, `spend`, `earn` and `transfer`.
struct TransactionFields: ParsableArguments {
    @Option(help: ArgumentHelp("The day (YYYY-MM-DD); default today.", valueName: "date")) var on: String?
    // Free text may start with "-" ("-5% promo"): taken as the value, never as an option.
    @Option(parsing: .unconditional, help: "Who was paid, or who paid.") var payee: String?
    @Option(parsing: .unconditional, help: "A free-text note.") var note: String?
    @Option(parsing: .unconditional, help: "Who in the household spent it.") var spender: String?
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A tag (repeatable).", valueName: "tag")) var tag: [String] = []
}

/// `ACCOUNT=AMOUNT`, `ACCOUNT=AMOUNT CUR` (a currency other than the account's: only for the equity
/// account) or just `ACCOUNT` for the balancing posting, from `--posting`.
func parsePosting(_ text: String) throws -> PostingInput {
    let field = "--posting '\(text)'"
    guard let equals = text.lastIndex(of: "=") else {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { throw CLIError.invalid("--posting", text, "expected ACCOUNT=AMOUNT") }
        return PostingInput(account: text, amount: nil, field: field)
    }
    let account = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
    var amount = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
    if account.isEmpty { throw CLIError.invalid("--posting", text, "expected ACCOUNT=AMOUNT, the account is missing") }
    var currency: String?
    if let space = amount.lastIndex(of: " "), amount[amount.index(after: space)...].allSatisfy(\.isLetter) {
        currency = String(amount[amount.index(after: space)...])
        amount = String(amount[..<space]).trimmingCharacters(in: .whitespaces)
    }
    return PostingInput(account: account, amount: amount, currency: currency, field: field)
}

/// Rows of the transaction listing: id, date, payee, amount, from and to accounts.
func transactionSection(_ transactions: [Transaction], _ ledger: Ledger) -> Section {
    let labels = AccountLabels(ledger.accounts)
    var section = Section(
        name: "transactions",
        columns: [
            Column("id", "ID"), Column("date", "Date"), Column("payee", "Payee"), Column("amount", "Amount", numeric: true),
            Column("currency", "Cur"), Column("from", "From"), Column("to", "To"), Column("spender", "Spender"), Column("note", "Note"),
        ])
    for t in transactions {
        let currency = t.postings.first?.amount.currency ?? ledger.currency
        func accounts(_ negative: Bool) -> [Label] {
            var result: [Label] = []
            for p in t.postings where p.amount.minor != 0 && (p.amount.minor < 0) == negative {
                let label = labels[p.accountID]
                if !result.contains(where: { $0.name == label.name }) { result.append(label) }
            }
            return result
        }
        section.rows.append([
            .id(t.id), .day(t.day), .text(t.payee), .money(Money(minor: t.amount, currency: currency)), .text(currency.code),
            .labels(accounts(true)), .labels(accounts(false)), .text(t.spender), .text(t.note),
        ])
    }
    return section
}

extension Capital.TxCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a transaction with two or more postings that balance.",
            discussion: """
                One posting may leave out its amount: it takes what balances the others.
                Example: capital tx add --on 2025-03-05 --payee Bank --posting "Loan interest=60000" --posting Mortgage=10000 --posting "VTB Debit"
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: TransactionFields
        @Option(
            name: [.customShort("p"), .long], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("ACCOUNT=AMOUNT, positive into the account; ACCOUNT alone balances the rest (repeatable).", valueName: "posting"))
        var posting: [String] = []

        func run() throws {
            if posting.count < 2 { throw CLIError.invalid("--posting", posting.joined(separator: " "), "a transaction needs at least 2 postings") }
            let day = try fields.on.map { try parseDay($0, field: "--on") } ?? global.todayDay()
            let store = try global.ledgerStore(writing: true)
            let transaction = try store.addTransaction(
                TransactionInput(
                    day: day, payee: fields.payee ?? "", note: fields.note ?? "", spender: fields.spender ?? "", tags: fields.tag,
                    postings: try posting.map(parsePosting)))
            Console.current.line("Added transaction \(Store.shortID(transaction.id)) on \(transaction.day).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List transactions, oldest first, with filters.",
            discussion: "Example: capital tx list --from 2025-03-01 --to 2025-03-31 --category Groceries --min 1000")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("First day (YYYY-MM-DD, or YYYY-MM for its first day).", valueName: "date")) var from: String?
        @Option(help: ArgumentHelp("Last day (YYYY-MM-DD, or YYYY-MM for its last day).", valueName: "date")) var to: String?
        @Option(help: ArgumentHelp("With a posting to this account (repeatable).", valueName: "account")) var account: [String] = []
        @Option(help: ArgumentHelp("With a posting to this category (repeatable).", valueName: "category")) var category: [String] = []
        @Option(help: ArgumentHelp("Amount at least this.", valueName: "amount")) var min: String?
        @Option(help: ArgumentHelp("Amount at most this.", valueName: "amount")) var max: String?
        @Option(help: ArgumentHelp("Text in the payee or note (case-insensitive).", valueName: "text")) var search: String?
        @Option(help: ArgumentHelp("Spent by this person.", valueName: "name")) var spender: String?
        @Option(help: ArgumentHelp("income, expense or transfer.", valueName: "kind")) var kind: String?

        func run() throws {
            var query = TransactionQuery()
            (query.from, query.to, query.accounts, query.categories) = (from, to, account, category)
            (query.min, query.max, query.search, query.spender, query.kind) = (min, max, search, spender, kind)
            let store = try global.ledgerStore(writing: false)
            let (ledger, matching) = try kit { try store.transactions(matching: query) }
            try global.print(Report([transactionSection(matching, ledger)]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a transaction with its postings.", discussion: "Example: capital tx show 3f2a")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id prefix (at least 4 hex digits).") var id: String

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let t = try store.transaction(id)
            let accounts = try store.accounts(includeHidden: true)
            let names = Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0.name) })
            var head = Section(
                name: "transaction",
                columns: [
                    Column("id", "ID"), Column("date", "Date"), Column("payee", "Payee"), Column("note", "Note"), Column("spender", "Spender"),
                    Column("tags", "Tags"),
                ])
            head.rows = [[.text(t.id), .day(t.day), .text(t.payee), .text(t.note), .text(t.spender), .list(t.tags)]]
            var postings = Section(
                name: "postings", title: "Postings",
                columns: [Column("account", "Account"), Column("amount", "Amount", numeric: true), Column("currency", "Cur"), Column("note", "Note")])
            let labels = AccountLabels(accounts)
            postings.rows = t.postings.map { [.label(labels[$0.accountID]), .money($0.amount), .text($0.amount.currency.code), .text($0.note)] }
            var report = Report([head, postings])
            report.json = .object([
                ("id", .string(t.id)), ("date", .string(t.day.iso)), ("payee", .string(t.payee)), ("note", .string(t.note)),
                ("spender", .string(t.spender)), ("tags", .array(t.tags.map(JSON.string))),
                (
                    "postings",
                    .array(
                        t.postings.map {
                            .object([
                                ("account", .string(names[$0.accountID] ?? $0.accountID)), ("amount", .string($0.amount.plain)),
                                ("currency", .string($0.amount.currency.code)), ("note", .string($0.note)),
                            ])
                        })
                ),
            ])
            if try global.outputFormat() == .table {
                Console.current.line("\(t.day)  \(t.payee.isEmpty ? "(no payee)" : t.payee)  [\(t.id)]")
                if !t.note.isEmpty { Console.current.line("note: \(t.note)") }
                if !t.spender.isEmpty { Console.current.line("spender: \(t.spender)") }
                if !t.tags.isEmpty { Console.current.line("tags: \(t.tags.joined(separator: ", "))") }
                try global.print(Report([postings]))
            } else {
                try global.print(report)
            }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a transaction; --posting replaces all its postings.",
            discussion: "Example: capital tx edit 3f2a --payee \"Swimming pool\" --on 2025-03-06")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id prefix (at least 4 hex digits).") var id: String
        @OptionGroup var fields: TransactionFields
        @Option(
            name: [.customShort("p"), .long], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("ACCOUNT=AMOUNT; replaces all postings (repeatable).", valueName: "posting"))
        var posting: [String] = []
        @Flag(name: .customLong("clear-tags"), help: "Remove all tags.") var clearTags = false

        func run() throws {
            if posting.count == 1 { throw CLIError.invalid("--posting", posting[0], "a transaction needs at least 2 postings") }
            var changes = TransactionChanges()
            changes.day = try fields.on.map { try parseDay($0, field: "--on") }
            changes.payee = fields.payee
            changes.note = fields.note
            changes.spender = fields.spender
            if !fields.tag.isEmpty || clearTags { changes.tags = fields.tag }
            if !posting.isEmpty { changes.postings = try posting.map(parsePosting) }
            let updated = try global.ledgerStore(writing: true).editTransaction(id, changes)
            Console.current.line("Updated transaction \(Store.shortID(updated.id)).")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a transaction.", discussion: "Example: capital tx rm 3f2a")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id prefix (at least 4 hex digits).") var id: String

        func run() throws {
            let removed = try global.ledgerStore(writing: true).removeTransaction(id)
            Console.current.line("Removed transaction \(Store.shortID(removed.id)) of \(removed.day) (\(removed.payee)).")
        }
    }
}
