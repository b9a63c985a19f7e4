import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import Foundation

/// The basis scenarios are evaluated against (CapitalKit's `ScenarioBasis`), with what the
/// command line shows of it.
struct ScenarioBase {
    let basis: ScenarioBasis
    var forecast: Projection { basis.projection }
    var evaluator: ScenarioEvaluator { basis.evaluator }
    var exponent: Int { forecast.currency.exponent }
    var floor: Int64 { basis.floor }

    init(_ global: GlobalOptions, _ horizon: HorizonOptions, level: Int?, from account: String?) throws {
        let projection = try global.projection(horizon)
        basis = try kit { try projection.scenarioBasis(level: level, from: account, horizon.forecastCase) }
    }

    func money(_ minor: Int64) -> Money { forecast.money(minor) }

    /// A result's fields: the columns of every output format.
    func cells(_ result: ScenarioResult, earliest: Bool) -> [(Column, Cell)] { basis.cells(result, earliest: earliest) }
}

/// "N scenarios evaluated, R a second, about S left" on a terminal's stderr, once a batch has
/// taken more than a second (`CAPITAL_PROGRESS_AFTER`, in seconds, sets another delay: 0 shows it
/// from the first chunk). Silent when stderr is not a terminal.
final class Progress {
    private let start = Date()
    private let console = Console.current
    private let delay = Console.current.environment["CAPITAL_PROGRESS_AFTER"].flatMap { TimeInterval($0) }.map { max(0, $0) } ?? 1
    private var enabled: Bool { console.errorIsTerminal }
    private var shown = false

    func update(_ progress: ScenarioBatchProgress) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(start)
        guard elapsed >= delay else { return }
        shown = true
        var line = "\rcapital: \(progress.evaluated.counted("scenario")) evaluated"
        if elapsed > 0 { line += ", \(Int(Double(progress.evaluated) / elapsed)) a second" }
        if progress.bytesRead > 0, progress.bytes > progress.bytesRead {
            let left = elapsed * Double(progress.bytes - progress.bytesRead) / Double(progress.bytesRead)
            line += ", about \(Int(left.rounded(.up))) s left"
        }
        console.writeError(line + "…\u{1B}[K")
    }

    func finish() {
        if shown { console.writeError("\r\u{1B}[K") }
    }
}

extension ScenarioSortKey: ExpressibleByArgument {}

/// Where results go: CSV and JSON streamed as CapitalKit writes them (`ScenarioBasis.write`), or
/// kept for a table and for `--sort` (only the best `--top` when given) and written at the end.
struct ResultSink {
    let format: OutputFormat
    let earliest: Bool
    let base: ScenarioBase
    let global: GlobalOptions
    let sort: ScenarioSortKey?
    let top: Int?
    /// The `--out` file and its open temporary file (or the file itself, for a device), or nil for the console.
    let file: OutputFile?
    let handle: FileHandle?
    let console = Console.current
    /// CSV's or JSON's writer; nil for a table.
    let writer: ScenarioResultWriter?
    /// The rows kept, each with its sort key (nil for a row that failed, or with no sort) and its place in the file.
    private var kept: [(key: Int64?, offset: Int, outcome: ScenarioOutcome)] = []
    private var seen = 0

    init(format: OutputFormat, earliest: Bool, base: ScenarioBase, global: GlobalOptions, sort: ScenarioSortKey?, top: Int?, out: OutputFile?)
        throws
    {
        self.format = format
        self.earliest = earliest
        self.base = base
        self.global = global
        self.sort = sort
        self.top = top
        file = out
        writer = format == .table ? nil : ScenarioResultWriter(format == .csv ? .csv : .json, earliest: earliest, basis: base.basis)
        handle = try out?.open()
    }

    /// Whether every row is kept until the end (a table, or a sort).
    var buffered: Bool { format == .table || sort != nil }

    /// Keeps outcomes for the end; with `--top N`, only the best N so far (trimmed whenever 2N pile up).
    mutating func keep(_ outcomes: [ScenarioOutcome]) {
        for outcome in outcomes {
            kept.append((sort?.key(outcome), seen, outcome))
            seen += 1
        }
        if let top, kept.count >= max(2 * top, 4_096) { rank(limit: top) }
    }

    /// Sorts the kept rows by the key (stable: equal keys keep their input order), keeping `limit`.
    private mutating func rank(limit: Int?) {
        guard sort != nil else { return }
        kept.sort { ScenarioSortKey.precedes($0.key, $0.offset, $1.key, $1.offset) }
        if let limit, kept.count > limit { kept.removeSubrange(limit...) }
    }

    /// Writes text to the `--out` file or standard output.
    func write(_ bytes: ArraySlice<UInt8>) throws {
        guard let handle else { return console.write(bytes: bytes) }
        do { try OutputFile.write(bytes, to: handle) } catch {
            if let file { file.abandon(handle) }
            throw CLIError.invalid("--out", file?.path ?? "", "cannot be written: \(error)")
        }
    }

    /// Drops the `--out` file's temporary file after a failure (the file that was there stays).
    func abandon() {
        if let file, let handle { file.abandon(handle) }
    }

    /// Writes the kept rows (sorted, as a table or through the writer) and puts the file in place.
    mutating func finish() throws {
        if buffered {
            rank(limit: top)
            if let writer {
                var text = TextBytes()
                writer.header(into: &text)
                writer.rows(kept.lazy.map(\.outcome), first: true, into: &text)
                writer.footer(rows: kept.count, into: &text)
                try write(text.bytes)
            } else {
                try write(Array(table().utf8)[...])
            }
        }
        if let file, let handle { try file.commit(handle) }
    }

    /// The kept rows as a table.
    private func table() -> String {
        let columns = base.cells(
            ScenarioResult(
                feasible: true, worstHeadroom: 0, worstDay: base.evaluator.today, shortfall: 0, maxPrice: 0, earliestDay: nil, loanInterest: 0,
                recurringCosts: 0, totalCost: 0), earliest: earliest
        ).map(\.0)
        var section = Section(
            name: "scenarios", columns: [Column("line", "Line", numeric: true), Column("name", "Name")] + columns + [Column("error", "Error")])
        for (_, _, outcome) in kept {
            var cells: [Cell] = [.int(outcome.row.line), .text(outcome.row.name)]
            switch outcome.result {
            case .success(let result): cells += base.cells(result, earliest: earliest).map(\.1) + [.none]
            case .failure(let failure): cells += Array(repeating: Cell.none, count: columns.count) + [.text(failure.description)]
            }
            section.rows.append(cells)
        }
        return Report([section]).render(.table, RenderOptions(hideAmounts: global.hideAmounts, color: handle == nil && console.color))
    }
}

extension ScenarioBase {
    /// `scenario try`'s report (`ScenarioBasis.report`), amounts shown as the options say.
    func report(_ scenario: Scenario, _ result: ScenarioResult, earliest: Bool, why: Bool, _ global: GlobalOptions) -> Report {
        basis.report(scenario, result, earliest: earliest, why: why, global.renderOptions)
    }
}
