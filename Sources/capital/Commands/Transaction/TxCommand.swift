import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
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
    @Option(parsing: .unconditional, help: "Who in the household spent it (default: the person signed in to a sync server, if any).") var spender:
        String?
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A tag (repeatable).", valueName: "tag")) var tag: [String] = []
}

/// `ACCOUNT=AMOUNT`, `ACCOUNT=AMOUNT CUR` (a currency other than the account's: only for the equity
/// account) or just `ACCOUNT` for the balancing posting, from `--posting`; an amount in another
/// currency may carry its price in the ledger's, hledger's way: `@ 92.5` a unit, `@@ 9250` in all.
func parsePosting(_ text: String) throws -> PostingInput {
    let field = "--posting '\(text)'"
    guard let equals = text.lastIndex(of: "=") else {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { throw CLIError.invalid("--posting", text, "expected ACCOUNT=AMOUNT") }
        return PostingInput(account: text, amount: nil, field: field)
    }
    let account = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
    var amount = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
    if account.isEmpty { throw CLIError.invalid("--posting", text, "expected ACCOUNT=AMOUNT, the account is missing") }
    var price: PostingInput.Price?
    if let at = amount.range(of: "@") {
        let total = amount[at.upperBound...].hasPrefix("@")
        let value = String(amount[(total ? amount.index(after: at.upperBound) : at.upperBound)...]).trimmingCharacters(in: .whitespaces)
        if value.isEmpty { throw CLIError.invalid("--posting", text, "expected a price after \(total ? "@@" : "@")") }
        price = total ? .total(value) : .unit(value)
        amount = String(amount[..<at.lowerBound]).trimmingCharacters(in: .whitespaces)
    }
    var currency: String?
    if let space = amount.lastIndex(of: " "), amount[amount.index(after: space)...].allSatisfy(\.isLetter) {
        currency = String(amount[amount.index(after: space)...])
        amount = String(amount[..<space]).trimmingCharacters(in: .whitespaces)
    }
    var input = PostingInput(account: account, amount: amount, currency: currency, field: field)
    input.price = price
    return input
}

extension Capital.TxCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add", "Record a transaction with two or more postings that balance.",
            about: "One posting may leave out its amount: it takes what balances the others.",
            example: "capital tx add --on 2025-03-05 --payee Bank --posting \"Loan interest=60000\" --posting Mortgage=10000 --posting \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: TransactionFields
        @Option(
            name: [.customShort("p"), .long], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("ACCOUNT=AMOUNT, positive into the account; ACCOUNT alone balances the rest (repeatable).", valueName: "posting"))
        var posting: [String] = []
        @OptionGroup var settle: SettleOptions

        func run() throws {
            if posting.count < 2 { throw CLIError.invalid("--posting", posting.joined(separator: " "), "a transaction needs at least 2 postings") }
            let day = try fields.on.map { try parseDay($0, field: "--on") } ?? global.todayDay()
            let output = try global.writeOutput()
            let settling = try settle.settling()
            let store = try global.ledgerStore(writing: true)
            let (transaction, settled) = try store.addTransaction(
                TransactionInput(
                    day: day, payee: fields.payee ?? "", note: fields.note ?? "", spender: try fields.spender ?? store.syncLogin()?.user ?? "",
                    tags: fields.tag,
                    postings: try posting.map(parsePosting)),
                settling: settling)
            SettleOptions.say(settled, global)
            try output.said("Added transaction \(Store.shortID(transaction.id)) on \(transaction.day).") { try global.transactionRecord(transaction) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List transactions, oldest first, with filters.",
            example: "capital tx list --from 2025-03-01 --to 2025-03-31 --category Groceries --min 1000",
            "capital tx list --limit 20 --before 3f2a1b2c")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("First day (YYYY-MM-DD, or YYYY-MM for its first day).", valueName: "date")) var from: String?
        @Option(help: ArgumentHelp("Last day (YYYY-MM-DD, or YYYY-MM for its last day).", valueName: "date")) var to: String?
        @Option(help: ArgumentHelp("With a posting to this account (repeatable).", valueName: "account"), completion: .accountNames) var account:
            [String] = []
        @Option(help: ArgumentHelp("With a posting to this category (repeatable).", valueName: "category"), completion: .categoryNames) var category:
            [String] = []
        @Flag(help: "Only what a statement import left in the Uncategorised category.") var uncategorised = false
        @Option(parsing: .unconditional, help: ArgumentHelp("Amount at least this.", valueName: "amount")) var min: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Amount at most this.", valueName: "amount")) var max: String?
        @Option(help: ArgumentHelp("Text in the payee or note (case-insensitive).", valueName: "text")) var search: String?
        @Option(help: ArgumentHelp("Spent by this person.", valueName: "name")) var spender: String?
        @Option(help: ArgumentHelp("income, expense or transfer.", valueName: "kind")) var kind: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("At most N transactions (default 100 in a table, all in CSV and JSON).", valueName: "n"))
        var limit: Int?
        @Option(help: ArgumentHelp("The page after this transaction (id prefix): the next N.", valueName: "id")) var after: String?
        @Option(help: ArgumentHelp("The page before this transaction (id prefix): the N before it.", valueName: "id")) var before: String?

        func run() throws {
            let table = try global.outputFormat() == .table
            var query = TransactionQuery()
            (query.from, query.to, query.accounts, query.categories) = (from, to, account, category)
            query.uncategorised = uncategorised
            (query.min, query.max, query.search, query.spender, query.kind) = (min, max, search, spender, kind)
            (query.limit, query.after, query.before) = (limit ?? (table ? 100 : nil), after, before)
            let store = try global.ledgerStore(writing: false)
            let (ledger, page) = try kit { try store.transactionPage(matching: query) }
            var report = Report([transactionSection(page.transactions, ledger)])
            if let first = page.transactions.first, let last = page.transactions.last {
                if page.earlier { report.footer.append("Earlier ones: capital tx list --before \(Store.shortID(first.id)) (with the same filters).") }
                if page.later { report.footer.append("Later ones: capital tx list --after \(Store.shortID(last.id)) (with the same filters).") }
            }
            if limit != nil || after != nil || before != nil {
                report.envelope = Envelope(fields: [("earlier", .bool(page.earlier)), ("later", .bool(page.later))])
            }
            try global.print(report)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration("show", "Show a transaction with its postings.", example: "capital tx show 3f2a")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id prefix (at least 4 hex digits).") var id: String

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let t = try store.transaction(id)
            let accounts = try store.accounts(includeHidden: true)
            try global.print(Report.transaction(t, accounts, table: try global.outputFormat() == .table))
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            "edit", "Change a transaction; --posting replaces all its postings.",
            example: "capital tx edit 3f2a --payee \"Swimming pool\" --on 2025-03-06")

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
            let output = try global.writeOutput()
            let edit = try global.ledgerStore(writing: true).editTransaction(id, changes)
            for entry in edit.reopened {
                Console.current.writeError(
                    "capital: note: no longer stands for \(entry.flow.payee) of \(entry.flow.day) (\(entry.reference)): open again\n")
            }
            SettleOptions.say(edit.settled, global)
            try output.said("Updated transaction \(Store.shortID(edit.transaction.id)).") { try global.transactionRecord(edit.transaction) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration("rm", "Remove a transaction.", example: "capital tx rm 3f2a")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Id prefix (at least 4 hex digits).") var id: String

        func run() throws {
            let output = try global.writeOutput()
            let removed = try global.ledgerStore(writing: true).removeTransaction(id)
            try output.said("Removed transaction \(Store.shortID(removed.id)) of \(removed.day) (\(removed.payee)).") {
                Report.removed(removed.id, [("date", removed.day.iso), ("payee", removed.payee)])
            }
        }
    }
}
