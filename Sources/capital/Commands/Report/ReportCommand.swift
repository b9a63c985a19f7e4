import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import CapitalWeb

extension Capital {
    struct ReportCommand: ParsableCommand, SpellsFields, OutputFormats {
        /// None: the report is HTML, and `--format` is refused.
        static let formats: [String] = []
        static let configuration = CommandConfiguration(
            "report", "One self-contained HTML page: the answer, the balance chart, the ladder, what is due, budgets, debts.",
            about: """
                Writes HTML with inline CSS and SVG charts and nothing fetched from elsewhere, to standard output or --out. \
                It shows what can-spend --why, when, forecast, the ladder, expected list, due list, budget status, stats, \
                loan, card and deposit list answer, and with --scenarios the purchases of a scenario file ranked safest first. \
                --theme auto follows the reader's light or dark setting; --hide-amounts hides every amount, axes included.
                """,
            example: "capital -f samples/household.yaml --today 2025-04-01 report --out household.html",
            "capital report --until +2y --expected --theme dark --out report.html",
            "capital report --scenarios samples/cars.csv --hide-amounts --out shared.html")

        static let fieldNames = ["scenarioFile": "--scenarios"]

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(parsing: .unconditional, help: ArgumentHelp("The ladder level of the answer and the chart, 1 to 6 (default 4).", valueName: "n"))
        var level: Int?
        @Option(help: ArgumentHelp("A CSV or JSON file of purchase scenarios to rank (as scenario eval reads).", valueName: "file"))
        var scenarios: String?
        @Option(
            help: ArgumentHelp("auto (the reader's setting), light or dark.", valueName: "theme"),
            completion: .list(ReportTheme.allCases.map(\.rawValue)))
        var theme = "auto"
        @OptionGroup var output: OutOptions

        func run() throws {
            guard let theme = ReportTheme(rawValue: theme) else { throw CLIError.invalid("--theme", theme, "expected auto, light or dark") }
            if let format = global.format {
                throw CLIError.invalid("--format", format, "the report is HTML; for JSON or CSV ask can-spend, forecast and the lists")
            }
            _ = try checkedLevel(level)
            let out = try output.file(global, reading: scenarios.map { [$0] } ?? [])
            let projection = try global.projection(horizon)
            let source = scenarios.map { ScenarioSource(path: $0, exponent: projection.currency.exponent) }
            let overview = try kit { try projection.overview(OverviewRequest(level: level, scenarios: source)) }
            let page = ReportPage(
                overview, today: projection.today, horizon: projection.horizon, currency: projection.currency,
                ledger: global.file ?? global.databasePath, theme: theme, hideAmounts: global.hideAmounts,
                generator: "capital \(Capital.configuration.version)")
            try global.write(page.html(), to: out)
            global.noteCounted(projection)
        }
    }
}
