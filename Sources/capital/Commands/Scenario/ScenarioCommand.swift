import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension Capital {
    struct ScenarioCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scenario", abstract: "What-if purchases against the forecast: one with try, thousands from a file with eval.",
            subcommands: [Try.self, Eval.self])
    }
}

/// The option of `scenario try` that fills each scenario column.
private let tryOptions: [ScenarioColumn: String] = [
    .name: "--name", .price: "--price", .date: "--on", .down: "--down", .loanRate: "--loan-rate", .loanTerm: "--loan-term",
    .loanMethod: "--loan-method", .instalments: "--instalments", .monthlyCost: "--monthly-cost", .yearlyCost: "--yearly-cost",
    .costStart: "--cost-start", .incomeChange: "--income-change", .incomeStart: "--income-start", .sale: "--sale", .saleDate: "--sale-date",
]

/// A core scenario error as a one-line CLI error naming the option (or column).
func scenarioError(_ error: ScenarioError, _ names: [String: String] = [:]) -> CLIError {
    switch error {
    case .invalid(let field, let value, let reason):
        return CLIError.invalid(names[field] ?? field, value, reason)
    case .overflow:
        return CLIError("scenario: \(spelled(error))", exitCode: 64)
    }
}

extension Capital.ScenarioCommand {
    struct Try: ParsableCommand {
        static let configuration = CommandConfiguration(
            "try", "Can we buy it? One purchase, with its financing and new costs, against the forecast.",
            about: """
                The purchase of --price on --on is paid from the level's accounts (default level 4), in cash, with \
                --down and a loan (--loan-rate, --loan-term), or in --instalments monthly payments; --monthly-cost and \
                --yearly-cost add new costs from --cost-start (default --on), --income-change more or less income a month, \
                --sale an asset sold. It answers whether every balance to the horizon stays above the floor, the lowest \
                one, the largest price affordable with the same financing, and what the plan costs to the horizon. \
                With no financing it is feasible exactly when PRICE ≤ can-spend on that day.
                """,
            example: "capital scenario try --price 1500000 --on 2025-06-01 --down 300000 --loan-rate 14 --loan-term 60 --monthly-cost 7000 --why",
            "capital -f samples/household.yaml --today 2025-04-01 scenario try --price 900000 --on 2025-09-01 --instalments 12 --earliest")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Option(parsing: .unconditional, help: ArgumentHelp("The purchase price.", valueName: "amount")) var price: String
        @Option(help: ArgumentHelp("The purchase day, YYYY-MM-DD.", valueName: "date")) var on: String
        @Option(parsing: .unconditional, help: ArgumentHelp("The down payment, with a loan for the rest.", valueName: "amount")) var down: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("The loan's annual rate in percent.", valueName: "percent")) var loanRate: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("The loan's term in months.", valueName: "months")) var loanTerm: String?
        @Option(help: ArgumentHelp("annuity (default) or linear.", valueName: "method")) var loanMethod: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Or: this many interest-free monthly payments from the purchase day.", valueName: "n"))
        var instalments: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new monthly cost (fuel, parking).", valueName: "amount")) var monthlyCost: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new yearly cost (insurance).", valueName: "amount")) var yearlyCost: String?
        @Option(help: ArgumentHelp("When the new costs start (default --on).", valueName: "date")) var costStart: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("More (or, negative, less) income a month.", valueName: "amount")) var incomeChange:
            String?
        @Option(help: ArgumentHelp("When the income change starts (default --on).", valueName: "date")) var incomeStart: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("An asset sold (the old car): the amount.", valueName: "amount")) var sale: String?
        @Option(help: ArgumentHelp("The day of the sale (default --on).", valueName: "date")) var saleDate: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A forecast level, 4 to 6 (default 4).", valueName: "n")) var level: Int?
        @Option(
            help: ArgumentHelp(
                "Pay from this account of level 4 alone (its balance less its floor), or on its card (paid back from the level).",
                valueName: "account"),
            completion: .accountNames)
        var from: String?
        @Flag(help: "Also find the first day from which the whole plan, moved, is feasible.") var earliest = false
        @Flag(help: "Explain: the lowest day, the flows that drive the balance down to it, and what lifts it.") var why = false

        func run() throws {
            let values: [ScenarioColumn: String?] = [
                .price: price, .date: on, .down: down, .loanRate: loanRate, .loanTerm: loanTerm, .loanMethod: loanMethod, .instalments: instalments,
                .monthlyCost: monthlyCost, .yearlyCost: yearlyCost, .costStart: costStart, .incomeChange: incomeChange, .incomeStart: incomeStart,
                .sale: sale, .saleDate: saleDate,
            ]
            let base = try ScenarioBase(global, horizon, level: level, from: from)
            let scenario: Scenario
            do {
                scenario = try Scenario.from(exponent: base.exponent) { column in values[column]??.utf8.map { $0 }[...] }
            } catch {
                let option = { (column: ScenarioColumn) in tryOptions[column] ?? column.rawValue }
                throw CLIError.invalid(ScenarioColumn(rawValue: error.column).map(option) ?? error.column, error.value, error.reason(option))
            }
            // The engine moves what falls before today to today; a purchase tried in the past would
            // be answered for another day than the one asked.
            if scenario.day < base.evaluator.today {
                throw CLIError.invalid("--on", on, "is before today \(base.evaluator.today): a purchase is tried from today on (--today sets today)")
            }
            let result: ScenarioResult
            do { result = try kit { try base.basis.evaluate(scenario, earliest: earliest) } } catch let error as ScenarioError {
                throw scenarioError(
                    error, ["price": "--price", "down payment": "--down", "loan term": "--loan-term", "loan rate": "--loan-rate", "day": "--on"])
            }
            try global.print(base.report(scenario, result, earliest: earliest, why: why, global), from: base.forecast)
        }
    }
}

extension Capital.ScenarioCommand {
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            "eval", "Evaluate every scenario of a CSV or JSON file: one result row each, in input order.",
            about: """
                FILE is CSV with a header naming the columns (name, price, date, down, loan_rate, loan_term, loan_method, \
                instalments, monthly_cost, yearly_cost, cost_start, monthly_income_change, income_start, sale, sale_date; \
                see docs/scenarios.md) or a JSON array of objects with the same keys. A row that cannot be read or \
                evaluated gets its error in the error column; the others are still evaluated, and the exit code is then 65. \
                CSV and JSON (one array) are streamed, memory flat in the number of rows, unless --sort or the table format \
                needs every row (--top N keeps only N); both cores read, evaluate and format. A progress line shows on a \
                terminal once a batch takes more than a second.
                """,
            example: "capital -f samples/household.yaml --today 2025-04-01 scenario eval samples/cars.csv --sort total-cost",
            "capital scenario eval plans.csv --sort max-price --top 10 --format csv",
            "capital scenario eval cars.csv --earliest --format csv --out results.csv")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Argument(help: "A CSV or JSON file of scenarios.") var file: String
        @Option(parsing: .unconditional, help: ArgumentHelp("A forecast level, 4 to 6 (default 4).", valueName: "n")) var level: Int?
        @Option(
            help: ArgumentHelp("Pay from this account of level 4 alone (its balance less its floor) instead of a level.", valueName: "account"),
            completion: .accountNames)
        var from: String?
        @Flag(help: "Also find each plan's earliest feasible day.") var earliest = false
        @Option(
            help: ArgumentHelp("max-price (largest first), worst-balance (safest first) or total-cost (cheapest first).", valueName: "key"),
            completion: .list(["max-price", "worst-balance", "total-cost"]))
        var sort: String?
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("With --sort: keep only the first N rows (memory for N rows, not the file's).", valueName: "n")) var top: Int?
        @OptionGroup var output: OutOptions

        func run() throws {
            let key = try sort.map { sort in
                guard let key = ScenarioSortKey(rawValue: sort) else {
                    throw CLIError.invalid("--sort", sort, "expected max-price, worst-balance or total-cost")
                }
                return key
            }
            if let top {
                guard key != nil else { throw CLIError.invalid("--top", String(top), "needs --sort: the first N by which key?") }
                guard top > 0 else { throw CLIError.invalid("--top", String(top), "expected a number of rows, 1 or more") }
            }
            let format = try global.outputFormat()
            let out = try output.file(global, reading: [file])
            let base = try ScenarioBase(global, horizon, level: level, from: from)
            let source = ScenarioSource(path: file, exponent: base.exponent)
            var sink = try ResultSink(format: format, earliest: earliest, base: base, global: global, sort: key, top: top, out: out)
            let progress = Progress()
            defer { progress.finish() }
            let summary: ScenarioBatchSummary
            do {
                summary = try kit {
                    if let writer = sink.writer, !sink.buffered {
                        return try base.basis.write(source, earliest: earliest, as: writer, { try sink.write($0) }, progress: progress.update)
                    }
                    return try base.basis.evaluate(source, earliest: earliest) { outcomes, done in
                        sink.keep(outcomes)
                        progress.update(done)
                    }
                }
                try sink.finish()
            } catch {
                sink.abandon()
                throw error
            }
            global.noteCounted(base.forecast)
            if let first = summary.firstFailure {
                throw CLIError("\(summary.failed) of \(summary.total.counted("scenario")) could not be evaluated (first: \(first))", exitCode: 65)
            }
        }
    }
}
