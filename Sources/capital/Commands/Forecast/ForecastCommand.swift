import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension Capital {
    struct ForecastCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forecast", abstract: "Balances ahead: per period opening, inflows, outflows, closing, and the lowest day.",
            discussion: """
                Sums a ladder level (default 4: cash, debit and cards), one account or one group. Ranged amounts \
                count at their pessimistic ends unless --expected.
                Examples:
                  capital forecast --until 2026-12 --chart
                  capital -f samples/household.yaml --today 2025-04-01 forecast --until 2026-03 --by month
                  capital forecast --account "VTB Debit" --days 60 --by week --format json
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(help: ArgumentHelp("Period: day, week or month.", valueName: "period"), completion: .list(["day", "week", "month"])) var by = "month"
        @Option(help: ArgumentHelp("One account.", valueName: "account"), completion: .accountNames) var account: String?
        @Option(help: ArgumentHelp("One group.", valueName: "group"), completion: .groupNames) var group: String?
        @Option(help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        @Flag(help: "Draw the balance in the terminal.") var chart = false

        func run() throws {
            guard let period = ForecastPeriodLength(rawValue: by) else { throw CLIError.invalid("--by", by, "expected day, week or month") }
            let projection = try global.projection(horizon)
            let forecast = try kit {
                try projection.forecast(try projection.pool(account: account, group: group, level: level), by: period, horizon.forecastCase)
            }
            var report = Report.forecast(forecast, projection, account: account != nil, group: group != nil)
            if chart, try global.outputFormat() == .table { report.headline.append(Report.chart(forecast, projection, global)) }
            try global.print(report, from: projection)
        }

    }
}
