import ArgumentParser
import CapitalCore
import CapitalStore

extension Capital {
    struct CanSpend: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "can-spend", abstract: "The most you can spend on a day without going below the floor later.",
            discussion: """
                Level 4 (default) looks at cash, debit and cards to the horizon; levels 1-3 at that day's balance; \
                5-6 add deposits, debts and assets. --why names the binding day, the flows that drive the balance \
                down to it, and the inflow that lifts it.
                Examples:
                  capital can-spend --why
                  capital can-spend --on 2025-06-01 --all-levels
                  capital -f samples/household.yaml --today 2025-04-01 can-spend --why --format json
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(help: ArgumentHelp("The day to spend on (default today).", valueName: "date")) var on: String?
        @Option(help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        @Flag(name: .customLong("all-levels"), help: "One row per level.") var allLevels = false
        @Flag(help: "Explain the answer: the binding day, its drivers, and what lifts it.") var why = false

        func run() throws {
            if allLevels && level != nil { throw CLIError.invalid("--level", String(level!), "give --level or --all-levels, not both") }
            let chosen = try checkedLevel(level)
            let forecast = try Forecast(global, horizon)
            let day = try on.map { try parseDay($0, field: "--on") } ?? forecast.today
            guard day >= forecast.today else { throw CLIError.invalid("--on", on!, "is before today \(forecast.today)") }
            guard day <= forecast.timeline.horizon else {
                throw CLIError.invalid("--on", on!, "is after the horizon \(forecast.timeline.horizon); give a later --until")
            }
            let levels = allLevels ? Array(Ladder.levels) : [chosen]
            var rows: [[Cell]] = []
            var objects: [JSON] = []
            var explanations: [String] = []
            let columns = [
                Column("level", "Level", numeric: true), Column("name", "Name"), Column("on", "On"), Column("amount", "Can spend", numeric: true),
                Column("bindingDay", "Binding day"), Column("bindingBalance", "Balance there", numeric: true), Column("floor", "Floor", numeric: true),
            ]
            for level in levels {
                let availability = try forecast.availability(level: level, horizon.forecastCase)
                guard let answer = availability.canSpend(on: day) else { continue }
                let row: [Cell] = [
                    .int(level), .text(Ladder.name(level)), .day(day), .money(forecast.money(answer.amount)), .day(answer.bindingDay),
                    .money(forecast.money(answer.bindingBalance)), .money(forecast.money(availability.floor)),
                ]
                rows.append(row)
                var fields = zip(columns, row).map { ($0.key, Report.jsonValue($1)) }
                fields.append(("shortfall", .string(forecast.money(answer.shortfall).plain)))
                if why {
                    let (text, drivers, relief) = explain(forecast, availability, answer)
                    explanations.append("level \(level) (\(Ladder.name(level))): \(text)")
                    fields.append(("drivers", .array(drivers.map { event(forecast, $0) })))
                    fields.append(("relief", relief.map { event(forecast, $0) } ?? .null))
                    fields.append(("why", .string(text)))
                }
                objects.append(.object(fields))
            }
            var report = Report([Section(name: "levels", columns: columns, rows: rows)])
            report.json = allLevels ? .array(objects) : objects.first ?? .null
            if try global.outputFormat() == .table, !allLevels, let answer = rows.first {
                Console.current.line("You can spend \(global.hideAmounts ? "***" : answer[3].moneyText) on \(day) (level \(chosen), \(Ladder.name(chosen)), \(horizon.forecastCase == .expected ? "expected" : "pessimistic") amounts, to \(forecast.timeline.horizon)).")
                for line in explanations { Console.current.line(line.replacingOccurrences(of: "level \(chosen) (\(Ladder.name(chosen))): ", with: "Why: ")) }
                return
            }
            try global.print(report)
            if try global.outputFormat() == .table { for line in explanations { Console.current.line(line) } }
        }

        private func event(_ forecast: Forecast, _ event: FlowEvent) -> JSON {
            .object([("day", .string(event.day.iso)), ("label", .string(event.label)), ("amount", .string(forecast.money(event.amount).plain))])
        }

        /// The binding day, the largest outflows from the asked day to it, and the next inflow after it.
        private func explain(_ forecast: Forecast, _ availability: Availability, _ answer: Availability.Answer)
            -> (String, [FlowEvent], FlowEvent?)
        {
            let money = { (minor: Int64) in global.hideAmounts ? "***" : forecast.money(minor).formatted() }
            var text = "binding on \(answer.bindingDay) (balance \(money(answer.bindingBalance))"
            if availability.floor != 0 { text += ", floor \(money(availability.floor))" }
            text += ")"
            if answer.shortfall > 0 { text += "; it is \(money(answer.shortfall)) below the floor, so nothing can be spent" }
            guard Ladder.isForecast(availability.level) else {
                return (text + "; level \(availability.level) counts that day's balance only", [], nil)
            }
            let events = forecast.flows(accounts: availability.accounts, from: answer.day, through: forecast.timeline.horizon, availability.forecastCase)
            let drivers = events.filter { $0.day <= answer.bindingDay && $0.amount < 0 }.sorted { $0.amount < $1.amount }.prefix(3)
            let relief = events.first { $0.day > answer.bindingDay && $0.amount > 0 }
            if !drivers.isEmpty {
                text += ": " + drivers.map { "\($0.label) \(money(-$0.amount)) on \(md($0.day))" }.joined(separator: ", ")
            }
            if let relief {
                text += "; \(relief.label) \(money(relief.amount)) on \(md(relief.day)) lifts it"
            } else if answer.bindingDay == forecast.timeline.horizon {
                text += "; the horizon ends there: look further with --until"
            }
            return (text, Array(drivers), relief)
        }

        private func md(_ day: Day) -> String { String(day.iso.dropFirst(5)) }
    }

    struct When: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "when", 
            abstract: "The first day from which an amount can be spent and stays affordable to the horizon.",
            discussion: "Example: capital when 300000 --level 4")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        // Taken raw so that a negative amount reaches the check below instead of reading as an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The amount.", valueName: "amount")) var amount: [String] = []

        func run() throws {
            guard amount.count == 1 else {
                throw CLIError.invalid("AMOUNT", amount.joined(separator: " "), amount.isEmpty ? "give the amount to spend" : "give one amount")
            }
            let text = amount[0]
            let chosen = try checkedLevel(level)
            let forecast = try Forecast(global, horizon)
            let money = try parseMoney(text, field: "AMOUNT", currency: forecast.ledger.currency)
            guard money.minor > 0 else { throw CLIError.invalid("AMOUNT", text, "must be more than zero") }
            let availability = try forecast.availability(level: chosen, horizon.forecastCase)
            let day = availability.firstDay(toSpend: money.minor)
            let shortfall = day == nil ? availability.shortfallAtHorizon(for: money.minor) : 0
            var report = Report([
                Section(
                    name: "when", columns: [Column("amount", "Amount", numeric: true), Column("level", "Level", numeric: true), Column("day", "Day")],
                    rows: [[.money(money), .int(chosen), day.map { .day($0) } ?? .none]])
            ])
            report.json = .object([
                ("amount", .string(money.plain)), ("level", .number(String(chosen))), ("day", day.map { .string($0.iso) } ?? .null),
                ("shortfall", .string(forecast.money(shortfall).plain)), ("horizon", .string(forecast.timeline.horizon.iso)),
            ])
            if try global.outputFormat() == .table {
                let shown = global.hideAmounts ? "***" : money.formatted()
                if let day {
                    Console.current.line("\(shown) \(money.currency.code) can be spent from \(day) on (level \(chosen), \(Ladder.name(chosen))) and stays affordable to \(forecast.timeline.horizon).")
                } else {
                    Console.current.line("Not before the horizon \(forecast.timeline.horizon): at level \(chosen) (\(Ladder.name(chosen))) \(shown) stays \(global.hideAmounts ? "***" : forecast.money(shortfall).formatted()) short. Look further with --until.")
                }
                return
            }
            try global.print(report)
        }
    }
}

extension Cell {
    /// The grouped text of a money cell, for sentences.
    var moneyText: String {
        if case .money(let m) = self { return m.formatted() }
        return ""
    }
}
