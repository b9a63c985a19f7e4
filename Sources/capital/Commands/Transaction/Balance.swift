import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct Balance: ParsableCommand {
        static let configuration = CommandConfiguration(
            "balance", "End-of-day balances per account and per group.",
            about: """
                Amounts are signed as in double entry: what you have is positive, what you owe (loans, \
                card debt) is negative. Categories and hidden accounts are left out unless --all.
                """,
            example: "capital -f samples/household.yaml balance --on 2025-03-31 --format json")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var on: OnOption
        @Flag(help: "Include categories (income and expense totals) and hidden accounts.") var all = false
        @Flag(help: "Show each group's total per currency, next to its value in the ledger's currency.") var byCurrency = false

        func run() throws {
            let day = try on.day(global)
            let sheet = try global.answer { try $0.balanceSheet(on: day, today: $1) }
            try global.print(try Report.balances(sheet, all: all, byCurrency: byCurrency).valued(with: sheet.staleRates))
            global.noteStale(sheet.staleRates)
        }
    }
}

/// `--on DATE`: the day whose end balances are shown (default today).
struct OnOption: ParsableArguments {
    @Option(help: ArgumentHelp("Balances at the end of this day (YYYY-MM-DD, or YYYY-MM for its last day); default today.", valueName: "date"))
    var on: String?

    /// The day `--on` names, else today.
    func day(_ global: GlobalOptions) throws -> Day { try asked() ?? global.todayDay() }

    /// The day `--on` names; nil when it was not given.
    func asked() throws -> Day? { try on.map { try parseDay($0, field: "--on", monthAs: .endOfMonth) } }
}
