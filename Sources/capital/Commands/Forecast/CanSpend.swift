import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct CanSpend: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "can-spend", abstract: "The most you can spend on a day without going below the floor later.",
            discussion: HelpExamples.laidOut(
                """
                Level 4 (default) looks at cash, debit and cards to the horizon; levels 1-3 at that day's balance; \
                5-6 add deposits, debts and assets. A card's credit pays only for what is bought on it, paid back \
                from the level on its statement's due day, so the answer says how to pay it: from which account, \
                how much on each card. --why names the binding day, the flows that drive the balance down to it, \
                the inflow that lifts it, and what limits each card's part.
                Examples:
                  capital can-spend --why
                  capital can-spend --on 2025-06-01 --all-levels
                  capital -f samples/household.yaml --today 2025-04-01 can-spend --why --format json
                """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(help: ArgumentHelp("The day to spend on (default today).", valueName: "date")) var on: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        @Flag(name: .customLong("all-levels"), help: "One row per level.") var allLevels = false
        @Flag(help: "Explain the answer: the binding day, its drivers, and what lifts it.") var why = false

        func run() throws {
            if allLevels && level != nil { throw CLIError.invalid("--level", String(level!), "give --level or --all-levels, not both") }
            let chosen = try checkedLevel(level)
            let projection = try global.projection(horizon)
            let day = try on.map { try parseDay($0, field: "--on") } ?? projection.today
            let levels = allLevels ? Array(Ladder.levels) : [chosen]
            let answers = try kit { try projection.canSpend(on: day, levels: levels, why: why, horizon.forecastCase) }
            try global.print(
                Report.canSpend(answers, on: day, projection, allLevels: allLevels, horizon.forecastCase, global.renderOptions), from: projection)
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
