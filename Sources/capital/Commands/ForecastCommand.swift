import ArgumentParser
import CapitalCore
import CapitalStore
import Foundation

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
            guard ["day", "week", "month"].contains(by) else { throw CLIError.invalid("--by", by, "expected day, week or month") }
            if [account != nil, group != nil, level != nil].filter({ $0 }).count > 1 {
                throw CLIError.invalid("--level", level.map(String.init) ?? account ?? group ?? "", "give one of --account, --group and --level")
            }
            let forecastLevel = try checkedLevel(level)
            let forecast = try Forecast(global, horizon)
            let timeline = forecast.timeline
            let forecastCase = horizon.forecastCase
            let subject = try forecast.subject(account: account, group: group, level: forecastLevel)
            let title = subject.title
            let series = try forecast.series(subject, forecastCase)
            var section = Section(
                name: "periods",
                columns: [
                    Column("start", "Start"), Column("end", "End"), Column("opening", "Opening", numeric: true), Column("inflow", "In", numeric: true),
                    Column("outflow", "Out", numeric: true), Column("closing", "Closing", numeric: true), Column("min", "Min", numeric: true),
                    Column("minDay", "Min day"),
                ])
            var json: [JSON] = []
            for period in forecast.periods(subject, series: series, by: by, from: timeline.today, forecastCase) {
                let row: [Cell] = [
                    .day(period.start), .day(period.end), .money(forecast.money(period.opening)), .money(forecast.money(period.inflow)),
                    .money(forecast.money(period.outflow)), .money(forecast.money(period.closing)), .money(forecast.money(period.minimum)),
                    .day(period.minimumDay),
                ]
                section.rows.append(row)
                json.append(.object(zip(section.columns, row).map { ($0.key, Report.jsonValue($1)) }))
            }
            var report = Report([section])
            report.json = .object([
                ("currency", .string(timeline.currency.code)), ("level", account == nil && group == nil ? .number(String(forecastLevel)) : .null),
                ("account", account.map { _ in .string(subject.name) } ?? .null), ("group", group.map { _ in .string(subject.name) } ?? .null),
                ("case", .string(forecastCase == .expected ? "expected" : "pessimistic")),
                ("from", .string(timeline.today.iso)), ("until", .string(timeline.horizon.iso)), ("periods", .array(json)),
            ])
            if try global.outputFormat() == .table {
                Console.current.line("Forecast of \(title), \(timeline.today) to \(timeline.horizon), \(forecastCase == .expected ? "expected amounts" : "pessimistic amounts (--expected for expected)"), \(timeline.currency.code)")
                if chart {
                    let minimumIndex = series.indices.min { series[$0] < series[$1] || (series[$0] == series[$1] && $0 < $1) } ?? 0
                    let color = Console.current.color
                    Console.current.line(
                        renderChart(
                            values: series, firstDay: timeline.today, todayIndex: 0, minimumIndex: minimumIndex, width: max(40, Console.current.width - 2),
                            height: 12, format: { global.hideAmounts ? "***" : forecast.money($0).formatted() }, color: color))
                }
            }
            try global.print(report)
        }
    }
}
