import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension Capital {
    struct ExchangeCommand: ParsableCommand, SpellsFields {
        static let fieldNames = ["amount": "AMOUNT", "currency": "CURRENCY"]

        static let configuration = CommandConfiguration(
            "exchange", "Record money changing currency between two accounts, and the rate it implies.",
            about: """
                AMOUNT CURRENCY is what one account gives or gets in its currency; --paid is what the other side \
                came to in its own (or --rate: its units per unit of CURRENCY). One transaction, balanced per \
                currency through Capital. When one side is in the ledger's currency, the implied rate becomes that \
                day's rate of the other (replacing one set that day) unless --no-rate.
                """,
            example: "capital exchange 1000 USD --from \"VTB Debit\" --to \"Cash USD\" --paid 92500",
            "capital exchange 500 USD --from \"Cash USD\" --to \"VTB Debit\" --rate 91.8 --on 2025-04-02")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "How much, in CURRENCY (positive).") var amount: String
        @Argument(help: "The currency of AMOUNT: one of the two accounts holds it.") var currency: String
        @Option(help: ArgumentHelp("The account the money leaves.", valueName: "account"), completion: .accountNames) var from: String
        @Option(help: ArgumentHelp("The account the money reaches.", valueName: "account"), completion: .accountNames) var to: String
        @OptionGroup var conversion: ConversionOptions
        @Option(help: ArgumentHelp("The day (YYYY-MM-DD); default today.", valueName: "date")) var on: String?
        @Option(help: ArgumentHelp("Who exchanged it (a bank, a bureau).", valueName: "payee")) var payee: String?
        @Option(help: ArgumentHelp("A free-text note.", valueName: "note")) var note: String?
        @Flag(help: "Do not make the implied rate the day's rate.") var noRate = false

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var entry = ExchangeEntry(
                amount: amount, currency: currency, from: from, to: to, day: try on.map { try parseDay($0, field: "--on") } ?? global.todayDay())
            (entry.paid, entry.rate, entry.payee, entry.note, entry.recordsRate) = (
                conversion.paid, conversion.rate, payee ?? "", note ?? "", !noRate
            )
            let record = try kit { try store.record(entry) }
            let ledger = try store.currency()
            var line =
                "Exchanged \(global.shown(record.sent)) \(record.sent.currency.code) from \(record.from.name) for \(global.shown(record.received)) "
                + "\(record.received.currency.code) into \(record.to.name) on \(entry.day) (\(Store.shortID(record.transaction.id)))."
            if let rate = record.rate {
                line +=
                    " \(rate.currency.code) \(record.replaced == nil ? "set" : "replaced (was \(record.replaced!.value))") at \(rate.value) \(ledger.code) that day."
            }
            try output.said(line) { try global.transactionRecord(record.transaction) }
        }
    }
}
