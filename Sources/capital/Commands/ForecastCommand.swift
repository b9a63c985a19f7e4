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
            var indices: [Int]
            var title: String
            if let account {
                let found = try forecast.store.account(account)
                guard let index = timeline.accounts.firstIndex(where: { $0.id == found.id }) else {
                    throw CLIError.invalid("--account", account, "it is \(found.kind.withArticle) account; forecasts follow balance-sheet accounts")
                }
                guard found.currency == timeline.currency else {
                    throw CLIError.invalid("--account", account, "it holds \(found.currency.code); forecasts are in \(timeline.currency.code)")
                }
                indices = [index]
                title = "account \(found.name)"
            } else if let group {
                let found = try forecast.store.group(group)
                indices = found.accountIDs.compactMap { id in timeline.accounts.firstIndex { $0.id == id && $0.currency == timeline.currency } }
                guard !indices.isEmpty else {
                    throw CLIError.invalid(
                        "--group", group,
                        found.type == .profitAndLoss
                            ? "it is a profit-and-loss group; forecasts follow balance-sheet accounts"
                            : "it has no \(timeline.currency.code) balance-sheet accounts to forecast")
                }
                title = "group \(found.name)"
            } else {
                indices = timeline.levelAccounts(forecastLevel).indices
                title = "level \(forecastLevel) (\(Ladder.name(forecastLevel)))"
            }
            let series: [Int64]
            do { series = try timeline.sum(accountsAt: indices, forecastCase) } catch { throw CLIError("forecast: \(error)") }
            let opening = timeline.opening(ofAccountsAt: indices)
            let events = forecast.flows(accounts: indices, from: timeline.today, through: timeline.horizon, forecastCase)
            var periods: [(start: Day, end: Day)] = []
            var start = timeline.today
            while start <= timeline.horizon {
                var end: Day
                switch by {
                case "day": end = start
                case "week": end = start.advanced(by: 7 - start.weekday.rawValue)
                default: end = start.endOfMonth
                }
                end = min(end, timeline.horizon)
                periods.append((start, end))
                start = end.advanced(by: 1)
            }
            var section = Section(
                name: "periods",
                columns: [
                    Column("start", "Start"), Column("end", "End"), Column("opening", "Opening", numeric: true), Column("inflow", "In", numeric: true),
                    Column("outflow", "Out", numeric: true), Column("closing", "Closing", numeric: true), Column("min", "Min", numeric: true),
                    Column("minDay", "Min day"),
                ])
            var json: [JSON] = []
            var eventIndex = 0
            var previousClosing = opening
            for period in periods {
                var inflow: Int64 = 0
                var outflow: Int64 = 0
                while eventIndex < events.count && events[eventIndex].day <= period.end {
                    let amount = events[eventIndex].amount
                    if amount > 0 { inflow = inflow.addingReportingOverflow(amount).partialValue } else { outflow = outflow.addingReportingOverflow(amount).partialValue }
                    eventIndex += 1
                }
                let first = period.start.number - timeline.today.number
                let last = period.end.number - timeline.today.number
                var minimum = series[first]
                var minimumIndex = first
                for i in first...last where series[i] < minimum {
                    minimum = series[i]
                    minimumIndex = i
                }
                let closing = series[last]
                let row: [Cell] = [
                    .day(period.start), .day(period.end), .money(forecast.money(previousClosing)), .money(forecast.money(inflow)),
                    .money(forecast.money(outflow)), .money(forecast.money(closing)), .money(forecast.money(minimum)), .day(timeline.day(minimumIndex)),
                ]
                section.rows.append(row)
                json.append(.object(zip(section.columns, row).map { ($0.key, Report.jsonValue($1)) }))
                previousClosing = closing
            }
            var report = Report([section])
            report.json = .object([
                ("currency", .string(timeline.currency.code)), ("level", account == nil && group == nil ? .number(String(forecastLevel)) : .null),
                ("account", account.map { _ in .string(title.replacingOccurrences(of: "account ", with: "")) } ?? .null),
                ("group", group.map { _ in .string(title.replacingOccurrences(of: "group ", with: "")) } ?? .null),
                ("case", .string(forecastCase == .expected ? "expected" : "pessimistic")),
                ("from", .string(timeline.today.iso)), ("until", .string(timeline.horizon.iso)), ("periods", .array(json)),
            ])
            if try global.outputFormat() == .table {
                print("Forecast of \(title), \(timeline.today) to \(timeline.horizon), \(forecastCase == .expected ? "expected amounts" : "pessimistic amounts (--expected for expected)"), \(timeline.currency.code)")
                if chart {
                    let minimumIndex = series.indices.min { series[$0] < series[$1] || (series[$0] == series[$1] && $0 < $1) } ?? 0
                    let environment = ProcessInfo.processInfo.environment
                    let color = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
                    print(
                        renderChart(
                            values: series, firstDay: timeline.today, todayIndex: 0, minimumIndex: minimumIndex, width: max(40, terminalWidth() - 2),
                            height: 12, format: { global.hideAmounts ? "***" : forecast.money($0).formatted() }, color: color))
                }
            }
            try global.print(report)
        }
    }
}
