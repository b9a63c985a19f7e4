import ArgumentParser
import CapitalCore
import CapitalKit
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
            let projection = try global.projection(horizon)
            let day = try on.map { try parseDay($0, field: "--on") } ?? projection.today
            let levels = allLevels ? Array(Ladder.levels) : [chosen]
            let answers = try kit { try projection.canSpend(on: day, levels: levels, why: why, horizon.forecastCase) }
            try render(answers, on: day, projection)
        }

        private func render(_ answers: [CanSpendAnswer], on day: Day, _ projection: Projection) throws {
            let money = projection.money
            let columns = [
                Column("level", "Level", numeric: true), Column("name", "Name"), Column("on", "On"), Column("amount", "Can spend", numeric: true),
                Column("bindingDay", "Binding day"), Column("bindingBalance", "Balance there", numeric: true),
                Column("floor", "Floor", numeric: true),
            ]
            var rows: [[Cell]] = []
            var objects: [JSON] = []
            var explanations: [String] = []
            for item in answers {
                let (level, answer) = (item.level, item.answer)
                let row: [Cell] = [
                    .int(level), .text(Ladder.name(level)), .day(day), .money(money(answer.amount)), .day(answer.bindingDay),
                    .money(money(answer.bindingBalance)), .money(money(item.floor)),
                ]
                rows.append(row)
                var fields = zip(columns, row).map { ($0.key, Report.jsonValue($1)) }
                fields.append(("shortfall", .string(money(answer.shortfall).plain)))
                if let why = item.why {
                    let text = sentence(item, why, money)
                    explanations.append("level \(level) (\(Ladder.name(level))): \(text)")
                    fields.append(("drivers", .array(why.drivers.map { Report.json($0, money) })))
                    fields.append(("relief", why.relief.map { Report.json($0, money) } ?? .null))
                    fields.append(("why", .string(text)))
                }
                objects.append(.object(fields))
            }
            var report = Report([Section(name: "levels", columns: columns, rows: rows)])
            report.json = allLevels ? .array(objects) : objects.first ?? .null
            if !allLevels, let item = answers.first {
                let amounts = horizon.forecastCase == .expected ? "expected" : "pessimistic"
                let shown = global.shown(money(item.answer.amount))
                report.headline =
                    [
                        "You can spend \(shown) on \(day) (level \(item.level), \(Ladder.name(item.level)), \(amounts) amounts, to \(projection.horizon))."
                    ]
                    + explanations.map { $0.replacingOccurrences(of: "level \(item.level) (\(Ladder.name(item.level))): ", with: "Why: ") }
                report.headlineOnly = true
            } else {
                report.footer = explanations
            }
            try global.print(report)
        }

        /// The why in words: the binding day, its drivers, and what lifts it.
        private func sentence(_ item: CanSpendAnswer, _ why: CanSpendAnswer.Why, _ money: @escaping (Int64) -> Money) -> String {
            let shown = { (minor: Int64) in global.shown(money(minor)) }
            let answer = item.answer
            var text = "binding on \(answer.bindingDay) (balance \(shown(answer.bindingBalance))"
            if item.floor != 0 { text += ", floor \(shown(item.floor))" }
            text += ")"
            if answer.shortfall > 0 { text += "; it is \(shown(answer.shortfall)) below the floor, so nothing can be spent" }
            if why.countsThatDayOnly { return text + "; level \(item.level) counts that day's balance only" }
            if !why.drivers.isEmpty {
                text += ": " + why.drivers.map { "\($0.label) \(shown(-$0.amount)) on \(md($0.day))" }.joined(separator: ", ")
            }
            if let relief = why.relief {
                text += "; \(relief.label) \(shown(relief.amount)) on \(md(relief.day)) lifts it"
            } else if why.bindsAtHorizon {
                text += "; the horizon ends there: look further with --until"
            }
            return text
        }

        private func md(_ day: Day) -> String { String(day.iso.dropFirst(5)) }
    }
}

extension Cell {
    /// The grouped text of a money cell, for sentences.
    var moneyText: String {
        if case .money(let m) = self { return m.formatted() }
        return ""
    }
}
