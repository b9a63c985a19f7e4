import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension TransactionFields {
    /// A quick entry of `amount` with these fields: the day (`--on`, else today), payee, note, spender, tags.
    func entry(_ move: QuickEntry.Move, amount: String, settling: Settling, _ global: GlobalOptions, _ conversion: ConversionOptions) throws
        -> QuickEntry
    {
        var entry = QuickEntry(move, amount: amount, day: try on.map { try parseDay($0, field: "--on") } ?? global.todayDay())
        (entry.paid, entry.rate) = (conversion.paid, conversion.rate)
        (entry.payee, entry.note, entry.spender, entry.tags) = (payee ?? "", note ?? "", spender ?? "", tag)
        entry.settling = settling
        return entry
    }

    /// Records it and says so: `sentence` in tables, the transaction's record in JSON.
    func enter(
        _ move: QuickEntry.Move, amount: String, _ settle: SettleOptions, _ global: GlobalOptions, _ conversion: ConversionOptions,
        sentence: (Transaction, _ from: Account, _ to: Account) -> String
    ) throws {
        let output = try global.writeOutput()
        let (transaction, from, to) = try record(move, amount: amount, settle, global, conversion)
        try output.said(sentence(transaction, from, to)) { try global.transactionRecord(transaction) }
    }

    /// Records it: the use case's answer, or its error in the command line's words.
    func record(_ move: QuickEntry.Move, amount: String, _ settle: SettleOptions, _ global: GlobalOptions, _ conversion: ConversionOptions)
        throws -> (transaction: Transaction, from: Account, to: Account)
    {
        let settling = try settle.settling()
        let store = try global.ledgerStore(writing: true)
        var entry = try entry(move, amount: amount, settling: settling, global, conversion)
        if spender == nil { entry.spender = try store.syncLogin()?.user ?? "" }
        let recorded = try kit { try store.record(entry) }
        SettleOptions.say(recorded.settled, global)
        // Recorded all the same: money already spent is a fact, the floor a plan.
        if let (balance, floor) = (try? store.belowFloor(recorded.from, on: entry.day)) ?? nil {
            Console.current.writeError(
                "capital: warning: \(recorded.from.name) is at \(global.shown(balance)) \(balance.currency.code) on \(entry.day), below its floor of \(global.shown(floor))\n"
            )
        }
        return (recorded.transaction, recorded.from, recorded.to)
    }
}

/// `--paid AMOUNT` or `--rate RATE`: between accounts of two currencies, what the other side came to.
struct ConversionOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Between two currencies: what the other currency came to (an exchange; see capital exchange).", valueName: "amount"))
    var paid: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Or: the rate, units of the other currency per unit.", valueName: "rate"))
    var rate: String?
}

/// `--settles REF` and `--match-days N`: which expected flow a recorded transaction stands for.
struct SettleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The expected flow this stands for, NAME@DATE (see capital expected list).", valueName: "ref")) var settles: String?
    @Option(
        name: .customLong("match-days"), parsing: .unconditional,
        help: ArgumentHelp(
            "Without --settles, settle the nearest open flow of this amount and these accounts within N days (default 3).", valueName: "n"))
    var matchDays: String?

    func settling() throws -> Settling {
        var days = 3
        if let matchDays {
            guard let value = Int(matchDays), value >= 0, value <= 366 else {
                throw CLIError.invalid("--match-days", matchDays, "expected a whole number of days from 0 to 366")
            }
            days = value
        }
        if let settles {
            try checkFlowReference(settles, field: "{settles}")
            if matchDays != nil { throw CLIError.invalid("--match-days", matchDays!, "give either --settles or --match-days, not both") }
            return .named(settles)
        }
        return .match(days: days)
    }

    /// Says on standard error what was settled: the flow, and the difference when the amount is not the one expected.
    static func say(_ settled: Settlement?, _ global: GlobalOptions) {
        guard let settled else { return }
        let currency = settled.flow.postings[0].amount.currency
        var line = "capital: note: settles \(settled.flow.payee) of \(settled.flow.day) (\(settled.reference))"
        if settled.recorded != settled.expected {
            let difference = Money(minor: abs(settled.recorded - settled.expected), currency: currency)
            line +=
                "; expected \(global.shown(Money(minor: settled.expected, currency: currency))), recorded \(global.shown(Money(minor: settled.recorded, currency: currency)))"
            line += " (\(global.shown(difference)) \(settled.recorded < settled.expected ? "less" : "more"))"
            if settled.flow.kind == .loan {
                line +=
                    settled.recorded < settled.expected
                    ? ": the rest stays owed, overdue until paid (`capital post`, or a transfer to the loan)"
                    : ": the excess is a prepayment that shortens the term"
            }
        }
        Console.current.writeError(line + "\n")
    }
}

extension Capital {
    struct Spend: ParsableCommand, SpellsFields {
        static let fieldNames = ["category": "CATEGORY"]

        static let configuration = CommandConfiguration(
            "spend", "Record spending on a category, from the default account or --from.",
            example: "capital spend 1500 Groceries --from Cash --note \"market\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An expense category.", completion: .expenseCategoryNames) var category: String
        @Option(help: ArgumentHelp("Pay from this account (default: the default account).", valueName: "account"), completion: .accountNames)
        var from: String?
        @OptionGroup var fields: TransactionFields
        @OptionGroup var settle: SettleOptions
        @OptionGroup var conversion: ConversionOptions

        func run() throws {
            try fields.enter(.spend(category: category, from: from), amount: amount, settle, global, conversion) { t, from, to in
                "Spent \(t.money(from)) on \(to.name) from \(from.name) on \(t.day) (\(Store.shortID(t.id)))."
            }
        }
    }

    struct Earn: ParsableCommand, SpellsFields {
        static let fieldNames = ["category": "CATEGORY"]

        static let configuration = CommandConfiguration(
            "earn", "Record income from a category, into the default account or --to.", example: "capital earn 180000 Salary --to \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Argument(help: "An income category.", completion: .incomeCategoryNames) var category: String
        @Option(help: ArgumentHelp("Put it into this account (default: the default account).", valueName: "account"), completion: .accountNames)
        var to: String?
        @OptionGroup var fields: TransactionFields
        @OptionGroup var settle: SettleOptions
        @OptionGroup var conversion: ConversionOptions

        func run() throws {
            try fields.enter(.earn(category: category, to: to), amount: amount, settle, global, conversion) { t, from, to in
                "Earned \(t.money(to)) from \(from.name) into \(to.name) on \(t.day) (\(Store.shortID(t.id)))."
            }
        }
    }

    struct Transfer: ParsableCommand {
        static let configuration = CommandConfiguration(
            "transfer", "Move money between two accounts.", example: "capital transfer 5000 --from \"VTB Debit\" --to Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much (positive).") var amount: String
        @Option(help: ArgumentHelp("From this account.", valueName: "account"), completion: .accountNames) var from: String
        @Option(help: ArgumentHelp("To this account.", valueName: "account"), completion: .accountNames) var to: String
        @OptionGroup var fields: TransactionFields
        @OptionGroup var settle: SettleOptions
        @OptionGroup var conversion: ConversionOptions

        func run() throws {
            try fields.enter(.transfer(from: from, to: to), amount: amount, settle, global, conversion) { t, from, to in
                // Between currencies, what arrived is another amount than what left.
                let arrived = from.currency == to.currency ? "" : ": \(t.money(to)) arrived"
                return "Moved \(t.money(from)) from \(from.name) to \(to.name) on \(t.day) (\(Store.shortID(t.id)))\(arrived)."
            }
        }
    }
}

extension Transaction {
    /// What moved through `account`, as a sentence says it: `1 500.00 RUB`. Its postings' sum
    /// when it has any (an exchange's sides differ in currency), else the transaction's amount.
    fileprivate func money(_ account: Account) -> String {
        let own = postings.filter { $0.accountID == account.id }
        let minor = own.isEmpty ? amount : abs(own.reduce(Int64(0)) { $0 + $1.amount.minor })
        return "\(Money(minor: minor, currency: account.currency).formatted()) \(account.currency.code)"
    }
}
