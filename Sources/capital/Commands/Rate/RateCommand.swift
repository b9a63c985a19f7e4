import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct RateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rate", "Exchange rates: what other currencies are worth in the ledger's currency, day by day.",
            about: """
                A rate holds from its day until the next one of its currency. Rates are exact decimals of at most \
                10 significant digits, for one unit of the currency or for --per units (as the Bank of Russia quotes \
                some currencies per 10 or 100).
                """,
            subcommands: [Set.self, List.self, Remove.self, ImportFile.self])
    }
}

extension Capital.RateCommand {
    /// A rate's columns, in listings and records.
    static let columns = [
        Column("id", "ID", tableHidden: true), Column("currency", "Currency"), Column("on", "From"), Column("rate", "Rate", numeric: true),
        Column("per", "Per", numeric: true),
    ]

    static func cells(_ rate: ExchangeRate) -> [Cell] {
        [.id(rate.id), .text(rate.currency.code), .day(rate.day), .text(rate.value.description), .int(Int(rate.per))]
    }

    /// `92.5012 RUB per USD`, `32.1 RUB per 10 THB`.
    static func words(_ rate: ExchangeRate, ledger: Currency) -> String {
        "\(rate.value) \(ledger.code) per \(rate.per == 1 ? "" : "\(rate.per) ")\(rate.currency.code)"
    }

    /// A currency given on the command line.
    static func currency(_ code: String, field: String) throws -> Currency {
        do { return try Currency(code) } catch { throw CLIError.invalid(field, code, "not an ISO 4217 currency code") }
    }

    struct Set: ParsableCommand, SpellsFields {
        static let fieldNames = ["currency": "CURRENCY", "rate": "RATE"]

        static let configuration = CommandConfiguration(
            "set", "Set a currency's rate on a day (replacing the one it had that day).",
            about: "RATE is in units of the ledger's currency for one unit of CURRENCY, or for --per units.",
            example: "capital rate set USD 92.5012 --on 2025-03-14", "capital rate set THB 25.04 --per 10")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The foreign currency (ISO 4217).") var currency: String
        @Argument(help: "Units of the ledger's currency per unit (or per --per units).") var rate: String
        @Option(help: ArgumentHelp("The day the rate holds from (default: today).", valueName: "date")) var on: String?
        @Option(help: ArgumentHelp("How many units of the currency RATE is for.", valueName: "units")) var per: String = "1"

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let day = try on.map { try parseDay($0, field: "--on") } ?? global.todayDay()
            let (rate, replaced) = try store.setRate(RateInput(currency: currency, day: day, rate: rate, per: per))
            let ledger = try store.currency()
            let line =
                replaced.map { "Replaced the rate of \(rate.currency) on \(day) (\(words($0, ledger: ledger))): \(words(rate, ledger: ledger))." }
                ?? "Set the rate of \(rate.currency) from \(day): \(words(rate, ledger: ledger))."
            try output.said(line) {
                Report.record(
                    "rate",
                    Array(zip(columns, cells(rate))) + [(Column("replaced", "Replaced"), replaced.map { .text($0.value.description) } ?? .none)])
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List the rates, by currency then day.",
            example: "capital rate list --currency USD --from 2025-03-01", "capital rate list --format csv")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Only this currency's rates.", valueName: "code")) var currency: String?
        @Option(help: ArgumentHelp("The first day.", valueName: "date")) var from: String?
        @Option(help: ArgumentHelp("The last day.", valueName: "date")) var to: String?

        func run() throws {
            let code = try currency.map { try Capital.RateCommand.currency($0, field: "--currency") }
            let first = try from.map { try parseDay($0, field: "--from") }
            let last = try to.map { try parseDay($0, field: "--to") }
            if let first, let last, last < first { throw CLIError.invalid("--to", last.iso, "is before --from \(first)") }
            let store = try global.ledgerStore(writing: false)
            var section = Section(name: "rates", columns: columns)
            section.rows = try store.rates(currency: code, from: first, to: last).map(cells)
            try global.print(Report([section]))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rm", "Remove a currency's rate on a day, or its rates over a range of days.",
            example: "capital rate rm USD --on 2025-03-14", "capital rate rm USD --from 2025-01-01 --to 2025-01-31")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The currency (ISO 4217).") var currency: String
        @Option(help: ArgumentHelp("The rate's day.", valueName: "date")) var on: String?
        @Option(help: ArgumentHelp("The first day of a range.", valueName: "date")) var from: String?
        @Option(help: ArgumentHelp("The last day of a range.", valueName: "date")) var to: String?

        func run() throws {
            let output = try global.writeOutput()
            let code = try Capital.RateCommand.currency(currency, field: "CURRENCY")
            let range: (Day, Day)
            switch (on, from, to) {
            case (let on?, nil, nil):
                let day = try parseDay(on, field: "--on")
                range = (day, day)
            case (nil, let from?, let to?):
                range = (try parseDay(from, field: "--from"), try parseDay(to, field: "--to"))
                if range.1 < range.0 { throw CLIError.invalid("--to", range.1.iso, "is before --from \(range.0)") }
            case (nil, nil, nil):
                throw CLIError("--on: which day's rate? Give --on DATE, or --from and --to for a range", exitCode: 64)
            case (_?, _, _):
                throw CLIError("--on: give --on, or --from and --to, not both", exitCode: 64)
            default:
                throw CLIError("\(from == nil ? "--from" : "--to"): a range needs both --from and --to", exitCode: 64)
            }
            let store = try global.ledgerStore(writing: true)
            let removed = try store.removeRates(currency: code, from: range.0, to: range.1)
            let line =
                removed.count == 1
                ? "Removed the rate of \(code) on \(removed[0].day)." : "Removed \(removed.count) rates of \(code) (\(range.0) to \(range.1))."
            try output.said(line) {
                var section = Section(name: "removed", columns: columns)
                section.rows = removed.map(cells)
                return Report([section])
            }
        }
    }

    struct ImportFile: ParsableCommand {
        static let configuration = CommandConfiguration(
            "import", "Import rates from a file: plain CSV, the European Central Bank's CSV, or the Bank of Russia's XML.",
            about: """
                The format is told from the content. Plain CSV: date,currency,rate[,per] a line, in the ledger's \
                currency (a header line and # comments are skipped; with ; as separator a rate may have a decimal \
                comma). The ECB's reference rates (eurofxref.csv, eurofxref-hist.csv) are per euro and the Bank of \
                Russia's daily XML (XML_daily.asp) in roubles: the ledger's currency must be the base or one of the \
                file's currencies, and rates through it are rounded to 10 significant digits. A rate the ledger has \
                for the same currency and day is replaced; all is written in one go, or nothing.
                """,
            example: "capital rate import rates.csv", "capital rate import eurofxref-hist.csv --currency USD --currency GBP")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The rate file.", completion: .file()) var file: String
        @Option(help: ArgumentHelp("Only this currency's rates (repeatable).", valueName: "code")) var currency: [String] = []
        @Flag(help: "Show what would be imported; write nothing.") var dryRun = false

        func run() throws {
            let output = try global.writeOutput()
            let only = try currency.isEmpty ? nil : Swift.Set(currency.map { try Capital.RateCommand.currency($0, field: "--currency") })
            let store = try global.ledgerStore(writing: !dryRun)
            let ledger = try store.currency()
            let read = try RateFile.read(file, ledger: ledger, currencies: only)
            if !read.skipped.isEmpty {
                output.note("left out \(read.skipped.joined(separator: ", ")): not active ISO 4217 currencies")
            }
            if dryRun {
                var section = Section(name: "rates", columns: columns)
                section.rows = read.rates.map(cells)
                return try global.print(Report([section]))
            }
            let summary = try store.importRates(read.rates)
            let currencies = Swift.Set(read.rates.map { $0.currency.code }).sorted()
            let line =
                "Imported \(read.rates.count.counted("rate")) (\(read.format.rawValue)) for \(currencies.isEmpty ? "no currency" : currencies.joined(separator: ", ")): "
                + "\(summary.added) added, \(summary.replaced) replaced, \(summary.unchanged) already there."
            try output.said(line) {
                Report.record(
                    "imported",
                    [
                        (Column("format", "Format"), .text(read.format.rawValue)), (Column("currencies", "Currencies"), .list(currencies)),
                        (Column("added", "Added"), .int(summary.added)), (Column("replaced", "Replaced"), .int(summary.replaced)),
                        (Column("unchanged", "Already there"), .int(summary.unchanged)), (Column("skipped", "Left out"), .list(read.skipped)),
                    ])
            }
        }
    }
}
