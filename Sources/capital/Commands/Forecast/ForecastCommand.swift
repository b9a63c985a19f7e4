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
        @Option(help: ArgumentHelp("Period: day, week or month.", valueName: "period")) var by = "month"
        @Option(help: ArgumentHelp("One account.", valueName: "account")) var account: String?
        @Option(help: ArgumentHelp("One group.", valueName: "group")) var group: String?
        @Option(help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        @Flag(help: "Draw the balance in the terminal.") var chart = false

        func run() throws {
            guard let period = ForecastPeriodLength(rawValue: by) else { throw CLIError.invalid("--by", by, "expected day, week or month") }
            let projection = try global.projection(horizon)
            let forecast = try kit {
                try projection.forecast(try projection.pool(account: account, group: group, level: level), by: period, horizon.forecastCase)
            }
            try render(forecast, projection)
        }

        /// The periods as a table (with the heading and the chart) or as JSON and CSV.
        private func render(_ forecast: ForecastReport, _ projection: Projection) throws {
            let timeline = projection.timeline
            let money = projection.money
            var section = Section(
                name: "periods",
                columns: [
                    Column("start", "Start"), Column("end", "End"), Column("opening", "Opening", numeric: true),
                    Column("inflow", "In", numeric: true),
                    Column("outflow", "Out", numeric: true), Column("closing", "Closing", numeric: true), Column("min", "Min", numeric: true),
                    Column("minDay", "Min day"),
                ])
            for period in forecast.periods {
                let row: [Cell] = [
                    .day(period.start), .day(period.end), .money(money(period.opening)), .money(money(period.inflow)), .money(money(period.outflow)),
                    .money(money(period.closing)), .money(money(period.minimum)), .day(period.minimumDay),
                ]
                section.rows.append(row)
            }
            let pool = forecast.pool
            var report = Report([section])
            report.envelope = Envelope(fields: [
                ("currency", .string(timeline.currency.code)), ("level", pool.level.map { .number(String($0)) } ?? .null),
                ("account", account.map { _ in .string(pool.name) } ?? .null), ("group", group.map { _ in .string(pool.name) } ?? .null),
                ("case", .string(forecast.forecastCase == .expected ? "expected" : "pessimistic")),
                ("from", .string(timeline.today.iso)), ("until", .string(timeline.horizon.iso)),
            ])
            let amounts = forecast.forecastCase == .expected ? "expected amounts" : "pessimistic amounts (--expected for expected)"
            report.headline = ["Forecast of \(pool.title), \(timeline.today) to \(timeline.horizon), \(amounts), \(timeline.currency.code)"]
            if chart, try global.outputFormat() == .table {
                let console = Console.current
                report.headline.append(
                    renderChart(
                        values: forecast.balances, firstDay: timeline.today, todayIndex: 0, minimumIndex: forecast.minimumIndex,
                        width: max(40, console.width - 2), height: 12, format: { global.shown(money($0)) }, color: console.color))
            }
            try global.print(report)
        }
    }
}
