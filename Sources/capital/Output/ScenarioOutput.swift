import CapitalCore
import CapitalKit
import Foundation

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
        console.writeError("\rcapital: \(count.counted("scenario")) evaluated…")
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
    /// The `--out` file and its temporary file's handle, or nil for the console.
    let file: OutputFile?
    let handle: FileHandle?
    let console = Console.current
    let buffered: Bool
    private var kept: [ScenarioOutcome] = []
    private var text = ""
    private var count = 0

    init(format: OutputFormat, earliest: Bool, base: ScenarioBase, global: GlobalOptions, out: OutputFile?, buffered: Bool) throws {
        self.format = format
        self.earliest = earliest
        self.base = base
        self.global = global
        self.buffered = buffered
        file = out
        handle = try out?.open()
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
            // Every row has every key: a row that failed has null results and its error.
            object += cells.map { $0.map { ($0.0.key, Report.jsonValue($0.1)) } } ?? columns.map { ($0.key, .null) }
            object.append(("error", outcome.error.map { .string($0) } ?? .null))
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
        if let handle {
            do { try handle.write(contentsOf: Data(text.utf8)) } catch {
                if let file { file.abandon(handle) }
                throw CLIError.invalid("--out", file?.path ?? "", "cannot be written: \((error as NSError).localizedDescription)")
            }
        } else {
            console.write(text)
        }
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
        if let file, let handle { try file.commit(handle) }
    }
}

extension ScenarioBase {
    /// `scenario try`: yes or no in words, then the result's fields (and with `why`, what drives
    /// the balance down to its lowest day).
    func report(_ scenario: Scenario, _ result: ScenarioResult, earliest: Bool, why: Bool, _ global: GlobalOptions) -> Report {
        var cells = self.cells(result, earliest: earliest)
        var whyText: String?
        var drivers: [FlowEvent] = []
        if why {
            (whyText, drivers) = explain(scenario, result, global)
            cells.append((Column("why", "Why"), .text(whyText!)))
        }
        var report = Report.record("scenario", cells)
        if why {
            var object = cells.map { ($0.0.key, Report.jsonValue($0.1)) }
            object.append(("drivers", .array(drivers.map { Report.json($0, self.money) })))
            report.json = .object(object)
        }
        let shown = { (minor: Int64) in global.shown(self.money(minor)) }
        report.headline = [
            result.feasible
                ? "Yes: \(shown(scenario.price)) on \(scenario.day) keeps \(pool) at or above its floor to \(evaluator.horizon)."
                : "No: \(shown(scenario.price)) on \(scenario.day) takes \(pool) \(shown(result.shortfall)) below its floor on \(result.worstDay)."
        ]
        return report
    }

    /// The lowest day, the largest outflows from the purchase to it (the plan's own and the
    /// forecast's), and the next inflow after it.
    private func explain(_ scenario: Scenario, _ result: ScenarioResult, _ global: GlobalOptions) -> (String, [FlowEvent]) {
        let money = { (minor: Int64) in global.shown(self.money(minor)) }
        let why = basis.why(scenario, result)
        let monthDay = Report.dayNames(from: scenario.day, why.drivers.map(\.day) + [why.relief?.day].compactMap { $0 })
        var text = "lowest on \(result.worstDay) (balance \(money(basis.worstBalance(result)))"
        if floor != 0 { text += ", floor \(money(floor))" }
        text += ")"
        text += ": " + why.drivers.map { "\($0.label) \(money(-$0.amount)) on \(monthDay($0.day))" }.joined(separator: ", ")
        if result.loanInterest > 0 || scenario.financing != .cash { text += ", and the plan's payments to then" }
        if let relief = why.relief {
            text += "; \(relief.label) \(money(relief.amount)) on \(monthDay(relief.day)) lifts it"
        }
        return (text, why.drivers)
    }
}
