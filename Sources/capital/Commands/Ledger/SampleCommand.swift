import ArgumentParser
import CapitalCore
import CapitalStore
import Foundation

extension Capital {
    struct SampleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sample", abstract: "Synthetic ledgers for benchmarks and comparisons.", subcommands: [Generate.self])
    }
}

extension Capital.SampleCommand {
    struct Generate: ParsableCommand, OutputFormats {
        static let formats = LedgerFileFormat.allCases.map(\.rawValue)
        static let configuration = CommandConfiguration(
            "generate", "Write a deterministic synthetic ledger file: N rules over Y years.",
            about: """
                The same options and seed always give the same file. The ledger starts on --start (default \
                2025-01-01; use it as --today): a year of posted history before it, N schedules from it on \
                (daily, working-day, Russian-calendar with adjustments, weekly, biweekly, monthly, quarterly, \
                yearly; some ranged, some ending), and with 5 accounts or more a mortgage and a credit card. \
                --history N adds N posted transactions before that year (groceries, cafés, fuel, bills, card \
                purchases and paybacks, salaries, transfers; several spenders, some tagged), about ten thousand \
                a year, over 1 to 30 years. Limits: --rules 1–100000, --years 1–100, --accounts 2–1000, \
                --history 0–10000000. See docs/performance.md.
                """,
            example: "capital sample generate --rules 1000 --years 30 --out big.yaml",
            "capital sample generate --rules 100 --years 1 --history 1000000 --out history.yaml",
            "capital -f big.yaml --today 2025-01-01 forecast --until +30y --by month")

        @OptionGroup var global: GlobalOptions
        @Option(parsing: .unconditional, help: ArgumentHelp("How many schedules.", valueName: "n")) var rules: Int
        @Option(parsing: .unconditional, help: ArgumentHelp("How many years the rules run (the forecast horizon to use).", valueName: "n")) var years:
            Int
        @Option(parsing: .unconditional, help: ArgumentHelp("How many balance-sheet accounts (default 8).", valueName: "n")) var accounts = 8
        @Option(parsing: .unconditional, help: ArgumentHelp("The random seed (default 1).", valueName: "n")) var seed: UInt64 = 1
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Also this many posted transactions over the years before the start (default 0).", valueName: "n"))
        var history = 0
        @Option(help: ArgumentHelp("The first day of the rules (default 2025-01-01).", valueName: "date")) var start: String?
        @Option(help: ArgumentHelp("The currency (default RUB).", valueName: "code")) var currency = "RUB"
        @OptionGroup var output: OutOptions

        func run() throws {
            let file = try output.file(global)
            let formatText = global.format ?? "yaml"
            guard let format = LedgerFileFormat(rawValue: formatText) else {
                throw CLIError.invalid("--format", formatText, "a sample ledger is yaml or json")
            }
            let first = try start.map { try parseDay($0, field: "--start") } ?? SampleLedger.defaultStart
            let code: Currency
            do { code = try Currency(currency) } catch { throw CLIError.invalid("--currency", currency, "\(spelled(error))") }
            let ledger: Ledger
            do {
                ledger = try SampleLedger.generate(
                    rules: rules, years: years, accounts: accounts, seed: seed, start: first, currency: code, history: history)
            } catch {
                throw CLIError(Flags.spell(error.template), exitCode: 64)
            }
            var extras = LedgerExtras()
            for (id, state) in ledger.scheduleStates { extras.handledThrough[id] = state.handledThrough }
            let text = LedgerFile.write(ledger, defaultAccountID: ledger.defaultAccountID, format: format, extras: extras)
            try global.write(text, to: file)
        }
    }
}
