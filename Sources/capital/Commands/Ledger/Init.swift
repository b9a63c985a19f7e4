import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            "init", "Create a ledger: the Capital equity account and the default categories.", example: "capital init --currency RUB")

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("The household's main currency (ISO 4217).", valueName: "code"))
        var currency = "RUB"

        func run() throws {
            let code: Currency
            do { code = try Currency(currency) } catch { throw CLIError.invalid("--currency", currency, "not an ISO 4217 currency code") }
            let output = try global.writeOutput()
            let store = try global.store(writing: true, creating: true)
            try store.initialize(currency: code)
            try output.said(
                "Created a \(code.code) ledger at \(store.location) with \(Account.defaultCategories.count.counted("category", plural: "categories")).\n"
                    + "Next: capital account add \"VTB Debit\" --kind debit --default"
            ) {
                Report.record(
                    "ledger",
                    [
                        (Column("database", "Database"), .text(store.location)), (Column("currency", "Currency"), .text(code.code)),
                        (Column("categories", "Categories"), .int(Account.defaultCategories.count)),
                    ])
            }
        }
    }
}
