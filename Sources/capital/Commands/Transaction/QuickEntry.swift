import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension TransactionFields {
    /// A quick entry of `amount` with these fields: the day (`--on`, else today), payee, note, spender, tags.
    func entry(_ move: QuickEntry.Move, amount: String, _ global: GlobalOptions) throws -> QuickEntry {
        var entry = QuickEntry(move, amount: amount, day: try on.map { try parseDay($0, field: "--on") } ?? global.todayDay())
        (entry.payee, entry.note, entry.spender, entry.tags) = (payee ?? "", note ?? "", spender ?? "", tag)
        return entry
    }

    /// Records it: the use case's answer, or its error in the command line's words.
    func record(_ move: QuickEntry.Move, amount: String, _ global: GlobalOptions) throws -> (transaction: Transaction, from: Account, to: Account) {
        let store = try global.ledgerStore(writing: true)
        let entry = try entry(move, amount: amount, global)
        let recorded = try kit { try store.record(entry) }
        // Recorded all the same: money already spent is a fact, the floor a plan.
        if let (balance, floor) = (try? store.belowFloor(recorded.from, on: entry.day)) ?? nil {
            Console.current.writeError(
                "capital: warning: \(recorded.from.name) is at \(global.shown(balance)) \(balance.currency.code) on \(entry.day), below its floor of \(global.shown(floor))\n"
            )
        }
        return recorded
    }
}

extension Capital {
    struct Spend: ParsableCommand, SpellsFields {
        static let fieldNames = ["category": "CATEGORY"]

        static let configuration = CommandConfiguration(
            commandName: "spend",
            abstract: "Record spending on a category, from the default account or --from.",
            discussion: "Example: capital spend 1500 Groceries --from Cash --note \"market\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An expense category.", completion: .categoryNames) var category: String
        @Option(help: ArgumentHelp("Pay from this account (default: the default account).", valueName: "account"), completion: .accountNames)
        var from: String?
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let output = try global.writeOutput()
            let (t, source, target) = try fields.record(.spend(category: category, from: from), amount: amount, global)
            try output.said(
                "Spent \(Money(minor: t.amount, currency: source.currency).formatted()) \(source.currency.code) on \(target.name) from \(source.name) on \(t.day) (\(Store.shortID(t.id)))."
            ) { try global.transactionRecord(t) }
        }
    }

    struct Earn: ParsableCommand, SpellsFields {
        static let fieldNames = ["category": "CATEGORY"]

        static let configuration = CommandConfiguration(
            commandName: "earn",
            abstract: "Record income from a category, into the default account or --to.",
            discussion: "Example: capital earn 180000 Salary --to \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An income category.", completion: .categoryNames) var category: String
        @Option(help: ArgumentHelp("Put it into this account (default: the default account).", valueName: "account"), completion: .accountNames)
        var to: String?
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let output = try global.writeOutput()
            let (t, source, target) = try fields.record(.earn(category: category, to: to), amount: amount, global)
            try output.said(
                "Earned \(Money(minor: t.amount, currency: target.currency).formatted()) \(target.currency.code) from \(source.name) into \(target.name) on \(t.day) (\(Store.shortID(t.id)))."
            ) { try global.transactionRecord(t) }
        }
    }

    struct Transfer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transfer",
            abstract: "Move money between two accounts.", discussion: "Example: capital transfer 5000 --from \"VTB Debit\" --to Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Option(help: ArgumentHelp("From this account.", valueName: "account"), completion: .accountNames) var from: String
        @Option(help: ArgumentHelp("To this account.", valueName: "account"), completion: .accountNames) var to: String
        @OptionGroup var fields: TransactionFields

        func run() throws {
            let output = try global.writeOutput()
            let (t, source, target) = try fields.record(.transfer(from: from, to: to), amount: amount, global)
            try output.said(
                "Moved \(Money(minor: t.amount, currency: source.currency).formatted()) \(source.currency.code) from \(source.name) to \(target.name) on \(t.day) (\(Store.shortID(t.id)))."
            ) { try global.transactionRecord(t) }
        }
    }
}
