import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import CapitalWeb

extension Capital {
    struct ForecastCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forecast", abstract: "Balances ahead: per period opening, inflows, outflows, closing, and the lowest day.",
            discussion: HelpExamples.laidOut(
                """
                Sums a ladder level (default 4: cash, debit and cards), one account or one group. Ranged amounts \
                count at their pessimistic ends unless --expected.
                Examples:
                  capital forecast --until 2026-12 --chart
                  capital -f samples/household.yaml --today 2025-04-01 forecast --until 2026-03 --by month
                  capital forecast --account "VTB Debit" --days 60 --by week --format json
                  capital forecast --until +2y --chart svg --out balance.svg
                  capital forecast --level 6 --until 2025-12 --by-currency
                --chart draws the balance in the terminal; --chart svg writes it as an SVG image (to --out or \
                standard output) with the floor, each month's lowest day and the lowest day marked. \
                --by-currency adds, per period, the accounts of each currency summed in it (opening, in, out, \
                closing) and their closing's value in the ledger's currency.
                """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(help: ArgumentHelp("Period: day, week or month.", valueName: "period"), completion: .list(["day", "week", "month"])) var by = "month"
        @Option(help: ArgumentHelp("One account.", valueName: "account"), completion: .accountNames) var account: String?
        @Option(help: ArgumentHelp("One group.", valueName: "group"), completion: .groupNames) var group: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        @Flag(help: "Add each period's part per currency: native amounts next to their value in the ledger's currency.")
        var byCurrency = false
        @Flag(help: "Draw the balance in the terminal; --chart svg writes an SVG image instead.") var chart = false
        @Argument(help: .hidden) var chartFormat: String?
        @OptionGroup var output: OutOptions

        func run() throws {
            guard let period = ForecastPeriodLength(rawValue: by) else { throw CLIError.invalid("--by", by, "expected day, week or month") }
            if let chartFormat {
                guard chart else { throw CLIError.invalid("forecast", chartFormat, "takes no argument; did you mean --chart \(chartFormat)?") }
                guard chartFormat == "svg" else { throw CLIError.invalid("--chart", chartFormat, "expected svg, or nothing to draw in the terminal") }
                if let format = global.format { throw CLIError.invalid("--format", format, "--chart svg writes an SVG image; leave --format out") }
                if byCurrency { throw CLIError("--by-currency: --chart svg draws the valued balance only; leave one of them out", exitCode: 64) }
            }
            if let path = output.out, chartFormat == nil { throw CLIError.invalid("--out", path, "writes the chart's image: add --chart svg") }
            let out = try output.file(global)
            let projection = try global.projection(horizon)
            let forecast = try kit {
                try projection.forecast(
                    try projection.pool(account: account, group: group, level: level), by: period, byCurrency: byCurrency, horizon.forecastCase)
            }
            if chartFormat != nil {
                try global.write(
                    ForecastChart.svg(forecast, today: projection.today, currency: forecast.pool.currency, hideAmounts: global.hideAmounts), to: out)
                return global.noteCounted(projection)
            }
            var report = Report.forecast(forecast, projection, account: account != nil, group: group != nil, global.renderOptions)
            if chart, try global.outputFormat() == .table { report.headline.append(Report.chart(forecast, projection, global)) }
            try global.print(report, from: projection)
        }

    }
}
