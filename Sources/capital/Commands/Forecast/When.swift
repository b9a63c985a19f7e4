import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct When: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "when", abstract: "The first day from which an amount can be spent and stays affordable to the horizon.",
            // One amount: it is taken raw (below), which the generated usage would show as a list.
            usage: "capital when <amount> [<options>]", discussion: CommandConfiguration.discussion("", ["capital when 300000 --level 4"]))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(parsing: .unconditional, help: ArgumentHelp("A ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
        // Taken raw so that a negative amount reaches the check below instead of reading as an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The amount.", valueName: "amount")) var amount: [String] = []

        func run() throws {
            guard amount.count == 1 else {
                throw CLIError.invalid("AMOUNT", amount.joined(separator: " "), amount.isEmpty ? "give the amount to spend" : "give one amount")
            }
            let text = amount[0]
            let chosen = try checkedLevel(level)
            let projection = try global.projection(horizon)
            let answer = try kit { try projection.when(text, level: chosen, horizon.forecastCase) }
            try global.print(Report.when(answer, level: chosen, projection, global.renderOptions), from: projection)
        }
    }
}
