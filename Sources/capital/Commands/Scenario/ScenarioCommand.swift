import ArgumentParser
import CapitalCore
import CapitalKit
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

/// The basis scenarios are evaluated against (CapitalKit's `ScenarioBasis`), with what the
/// command line shows of it.
struct ScenarioBase {
    let basis: ScenarioBasis
    var forecast: Projection { basis.projection }
    var evaluator: ScenarioEvaluator { basis.evaluator }
    var exponent: Int { forecast.currency.exponent }
    var floor: Int64 { basis.floor }
    /// "level 4" or "account 'VTB Debit'".
    var pool: String {
        if case .account(_, let name) = basis.paidFrom.kind { return "account '\(name)'" }
        return "level \(basis.paidFrom.level ?? Ladder.defaultLevel)"
    }

    init(_ global: GlobalOptions, _ horizon: HorizonOptions, level: Int?, from account: String?) throws {
        let projection = try global.projection(horizon)
        basis = try kit { try projection.scenarioBasis(level: level, from: account, horizon.forecastCase) }
    }

    func money(_ minor: Int64) -> Money { forecast.money(minor) }

    /// A result's fields: the columns of every output format.
    func cells(_ result: ScenarioResult, earliest: Bool) -> [(Column, Cell)] {
        var cells: [(Column, Cell)] = [
            (Column("feasible", "Feasible"), .bool(result.feasible)),
            (Column("worstBalance", "Lowest balance", numeric: true), .money(money(basis.worstBalance(result)))),
            (Column("worstDay", "Lowest on"), .day(result.worstDay)),
            (Column("shortfall", "Shortfall", numeric: true), .money(money(result.shortfall))),
            (Column("maxPrice", "Max price", numeric: true), .money(money(result.maxPrice))),
        ]
        if earliest { cells.append((Column("earliestDay", "Earliest"), result.earliestDay.map { .day($0) } ?? .text("none"))) }
        cells += [
            (Column("loanInterest", "Interest", numeric: true), .money(money(result.loanInterest))),
            (Column("recurringCosts", "Recurring", numeric: true), .money(money(result.recurringCosts))),
            (Column("totalCost", "Total cost", numeric: true), .money(money(result.totalCost))),
        ]
        return cells
    }
}

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
            commandName: "try", abstract: "Can we buy it? One purchase, with its financing and new costs, against the forecast.",
            discussion: """
                The purchase of --price on --on is paid from the level's accounts (default level 4), in cash, with \
                --down and a loan (--loan-rate, --loan-term), or in --instalments monthly payments; --monthly-cost and \
                --yearly-cost add new costs from --cost-start (default --on), --income-change more or less income a month, \
                --sale an asset sold. It answers whether every balance to the horizon stays above the floor, the lowest \
                one, the largest price affordable with the same financing, and what the plan costs to the horizon. \
                With no financing it is feasible exactly when PRICE ≤ can-spend on that day.
                Example: capital scenario try --price 1500000 --on 2025-06-01 --down 300000 --loan-rate 14 --loan-term 60 --monthly-cost 7000 --why
                Example: capital -f samples/household.yaml --today 2025-04-01 scenario try --price 900000 --on 2025-09-01 --instalments 12 --earliest
                """)

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
        @Option(help: ArgumentHelp("A forecast level, 4 to 6 (default 4).", valueName: "n")) var level: Int?
        @Option(help: ArgumentHelp("Pay from this account alone (its balance less its floor) instead of a level.", valueName: "account"))
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
                throw CLIError.invalid(tryOptions[ScenarioColumn(rawValue: error.column) ?? .price] ?? error.column, error.value, error.reason)
            }
            let result: ScenarioResult
            do { result = try base.evaluator.evaluate(scenario, earliest: earliest) } catch {
                throw scenarioError(
                    error, ["price": "--price", "down payment": "--down", "loan term": "--loan-term", "loan rate": "--loan-rate", "day": "--on"])
            }
            var cells = base.cells(result, earliest: earliest)
            var whyText: String?
            var drivers: [FlowEvent] = []
            if why {
                (whyText, drivers) = explain(base, scenario, result)
                cells.append((Column("why", "Why"), .text(whyText!)))
            }
            var report = Report.record("scenario", cells)
            if why {
                var object = cells.map { ($0.0.key, Report.jsonValue($0.1)) }
                object.append(("drivers", .array(drivers.map { Report.json($0, base.money) })))
                report.json = .object(object)
            }
            let shown = { (minor: Int64) in global.shown(base.money(minor)) }
            report.headline = [
                result.feasible
                    ? "Yes: \(shown(scenario.price)) on \(scenario.day) keeps \(base.pool) at or above its floor to \(base.evaluator.horizon)."
                    : "No: \(shown(scenario.price)) on \(scenario.day) takes \(base.pool) \(shown(result.shortfall)) below its floor on \(result.worstDay)."
            ]
            try global.print(report)
        }

        /// The lowest day, the largest outflows from the purchase to it (the plan's own and the
        /// forecast's), and the next inflow after it.
        private func explain(_ base: ScenarioBase, _ scenario: Scenario, _ result: ScenarioResult) -> (String, [FlowEvent]) {
            let money = { (minor: Int64) in global.shown(base.money(minor)) }
            let why = base.basis.why(scenario, result)
            var text = "lowest on \(result.worstDay) (balance \(money(base.basis.worstBalance(result)))"
            if base.floor != 0 { text += ", floor \(money(base.floor))" }
            text += ")"
            text += ": " + why.drivers.map { "\($0.label) \(money(-$0.amount)) on \(Report.monthDay($0.day))" }.joined(separator: ", ")
            if result.loanInterest > 0 || scenario.financing != .cash { text += ", and the plan's payments to then" }
            if let relief = why.relief {
                text += "; \(relief.label) \(money(relief.amount)) on \(Report.monthDay(relief.day)) lifts it"
            }
            return (text, why.drivers)
        }
    }
}

extension Capital.ScenarioCommand {
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eval", abstract: "Evaluate every scenario of a CSV or JSON file: one result row each, in input order.",
            discussion: """
                FILE is CSV with a header naming the columns (name, price, date, down, loan_rate, loan_term, loan_method, \
                instalments, monthly_cost, yearly_cost, cost_start, monthly_income_change, income_start, sale, sale_date; \
                see docs/scenarios.md) or a JSON array of objects with the same keys. A row that cannot be read or \
                evaluated gets its error in the error column; the others are still evaluated, and the exit code is then 65. \
                CSV is streamed (memory stays flat) unless --sort or the table format needs every row; both cores are used.
                Example: capital -f samples/household.yaml --today 2025-04-01 scenario eval samples/cars.csv --sort total-cost
                Example: capital scenario eval cars.csv --earliest --format csv --out results.csv
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var horizon: HorizonOptions
        @Argument(help: "A CSV or JSON file of scenarios.") var file: String
        @Option(help: ArgumentHelp("A forecast level, 4 to 6 (default 4).", valueName: "n")) var level: Int?
        @Option(help: ArgumentHelp("Pay from this account alone (its balance less its floor) instead of a level.", valueName: "account"))
        var from: String?
        @Flag(help: "Also find each plan's earliest feasible day.") var earliest = false
        @Option(help: ArgumentHelp("max-price (largest first), worst-balance (safest first) or total-cost (cheapest first).", valueName: "key"))
        var sort: String?
        @Option(help: ArgumentHelp("Write the results to this file instead of standard output.", valueName: "path")) var out: String?

        func run() throws {
            if let sort, !["max-price", "worst-balance", "total-cost"].contains(sort) {
                throw CLIError.invalid("--sort", sort, "expected max-price, worst-balance or total-cost")
            }
            let format = try global.outputFormat()
            let base = try ScenarioBase(global, horizon, level: level, from: from)
            let source = ScenarioSource(path: file, exponent: base.exponent)
            var sink = try ResultSink(
                format: format, earliest: earliest, base: base, global: global, out: out, buffered: sort != nil || format == .table)
            let progress = Progress()
            let summary = try kit {
                try base.basis.evaluate(source, earliest: earliest) { outcomes, total in
                    for outcome in outcomes { sink.add(outcome) }
                    try sink.flush()
                    progress.update(total)
                }
            }
            progress.finish()
            try sink.finish(sortedBy: sort)
            if let first = summary.firstFailure {
                throw CLIError("\(summary.failed) of \(summary.total) scenarios could not be evaluated (first: \(first))", exitCode: 65)
            }
        }
    }
}

/// "N scenarios evaluated" on a terminal's stderr, once a batch has taken more than a second
/// (`CAPITAL_PROGRESS_AFTER`, in seconds, sets another delay: 0 shows it from the first chunk).
final class Progress {
    private let start = Date()
    private let console = Console.current
    private let delay = Console.current.environment["CAPITAL_PROGRESS_AFTER"].flatMap { TimeInterval($0) }.map { max(0, $0) } ?? 1
    private var enabled: Bool { console.errorIsTerminal }
    private var shown = false

    func update(_ count: Int) {
        guard enabled, Date().timeIntervalSince(start) >= delay else { return }
        shown = true
        console.writeError("\rcapital: \(count) scenarios evaluated…")
    }

    func finish() {
        if shown { console.writeError("\r\u{1B}[K") }
    }
}

extension ScenarioOutcome {
    var value: ScenarioResult? { try? result.get() }
    var error: String? { if case .failure(let failure) = result { failure.description } else { nil } }
}

/// Where results go: streamed for CSV and JSON, kept for tables and sorting.
struct ResultSink {
    let format: OutputFormat
    let earliest: Bool
    let base: ScenarioBase
    let global: GlobalOptions
    /// The `--out` file, or nil for the console.
    let handle: FileHandle?
    let console = Console.current
    let buffered: Bool
    private var kept: [ScenarioOutcome] = []
    private var text = ""
    private var count = 0

    init(format: OutputFormat, earliest: Bool, base: ScenarioBase, global: GlobalOptions, out: String?, buffered: Bool) throws {
        self.format = format
        self.earliest = earliest
        self.base = base
        self.global = global
        self.buffered = buffered
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: nil), let handle = FileHandle(forWritingAtPath: out) else {
                throw CLIError.invalid("--out", out, "cannot be written")
            }
            self.handle = handle
        } else {
            handle = nil
        }
        if format == .csv {
            text += "# capital scenario eval: one row per scenario, in input order (or --sort's)\n"
            text += "# line: its line in the file; name; feasible: every balance to the horizon stays at or above the floor\n"
            text += "# worstBalance, worstDay: the lowest balance after the scenario and its first day; shortfall: how far below the floor\n"
            text += "# maxPrice: the largest price with the same financing; \(earliest ? "earliestDay: the first feasible day; " : "")"
            text += "loanInterest, recurringCosts to the horizon; totalCost = price + both; error: why a row could not be evaluated\n"
            text += (["line", "name"] + columns.map(\.key) + ["error"]).joined(separator: ",") + "\n"
        } else if format == .json, !buffered {
            text += "["
        }
    }

    private var columns: [Column] {
        base.cells(
            ScenarioResult(
                feasible: true, worstHeadroom: 0, worstDay: base.evaluator.today, shortfall: 0, maxPrice: 0, earliestDay: nil,
                loanInterest: 0, recurringCosts: 0, totalCost: 0), earliest: earliest
        ).map(\.0)
    }

    mutating func add(_ outcome: ScenarioOutcome) {
        if buffered { kept.append(outcome) } else { write(outcome) }
    }

    private mutating func write(_ outcome: ScenarioOutcome) {
        let row = outcome.row
        let cells = outcome.value.map { base.cells($0, earliest: earliest) }
        switch format {
        case .csv:
            var fields = [String(row.line), csvField(row.name)]
            fields += cells.map { $0.map { csvText($0.1) } } ?? Array(repeating: "", count: columns.count)
            fields.append(csvField(outcome.error ?? ""))
            text += fields.joined(separator: ",") + "\n"
        case .json:
            var object: [(String, JSON)] = [("line", .number(String(row.line))), ("name", .string(row.name))]
            if let cells { object += cells.map { ($0.0.key, Report.jsonValue($0.1)) } }
            if let error = outcome.error { object.append(("error", .string(error))) }
            text += (count == 0 ? "\n  " : ",\n  ") + JSON.object(object).text(indent: 2)
        case .table:
            break
        }
        count += 1
    }

    private func csvText(_ cell: Cell) -> String {
        switch cell {
        case .money(let m): return m.plain
        case .bool(let b): return b ? "true" : "false"
        case .day(let d): return d.iso
        case .text(let t): return csvField(t)
        default: return ""
        }
    }

    /// Typed text (a name, an error quoting it) as a CSV field: quoted, formulas made inert.
    private func csvField(_ text: String) -> String { CSVWriter.written(.text(text)) }

    mutating func flush() throws {
        guard !text.isEmpty else { return }
        if let handle { handle.write(Data(text.utf8)) } else { console.write(text) }
        text = ""
    }

    mutating func finish(sortedBy key: String?) throws {
        if buffered {
            if let key {
                func value(_ outcome: ScenarioOutcome) -> Int64? {
                    guard let r = outcome.value else { return nil }
                    switch key {
                    case "max-price": return -r.maxPrice
                    case "worst-balance": return -r.worstHeadroom
                    default: return r.totalCost
                    }
                }
                // Stable: equal keys keep their input order; rows that failed go last.
                kept = kept.enumerated().sorted { a, b in
                    let (x, y) = (value(a.element), value(b.element))
                    if let x, let y, x != y { return x < y }
                    if (x == nil) != (y == nil) { return x != nil }
                    return a.offset < b.offset
                }.map(\.element)
            }
            if format == .table {
                var section = Section(
                    name: "scenarios",
                    columns: [Column("line", "Line", numeric: true), Column("name", "Name")] + columns + [Column("error", "Error")])
                for outcome in kept {
                    var cells: [Cell] = [.int(outcome.row.line), .text(outcome.row.name)]
                    switch outcome.result {
                    case .success(let result): cells += base.cells(result, earliest: earliest).map(\.1) + [.none]
                    case .failure(let failure): cells += Array(repeating: Cell.none, count: columns.count) + [.text(failure.description)]
                    }
                    section.rows.append(cells)
                }
                let color = handle == nil && console.color
                text = Report([section]).render(.table, RenderOptions(hideAmounts: global.hideAmounts, color: color))
            } else {
                if format == .json { text += "[" }
                for outcome in kept { write(outcome) }
            }
        }
        if format == .json { text += count == 0 ? "]\n" : "\n]\n" }
        try flush()
    }
}
