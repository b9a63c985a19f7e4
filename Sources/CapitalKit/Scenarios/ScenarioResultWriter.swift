import CapitalCore
import Dispatch

/// A batch's results as CSV or JSON bytes: the wire format of `scenario eval` that every front end
/// streams (the CLI to a file, the server to a response), written straight into a `TextBytes`
/// buffer, a few hundred nanoseconds a row.
///
/// CSV: five `#` comment lines saying what the columns mean, a header, then one row a scenario:
/// ```
/// line,name,feasible,worstBalance,worstDay,shortfall,maxPrice,loanInterest,recurringCosts,totalCost,onCards,error
/// 2,Kia Rio,true,15630.00,2025-06-24,0.00,181630.00,0.00,0.00,900000.00,62500.00,
/// ```
/// JSON: one array of objects with the same keys (every object has every key; a row that failed
/// has null results and its error), one compact object a line, as `jq -c` writes them:
/// ```
/// [
/// {"line":2,"name":"Kia Rio","feasible":true,"worstBalance":"15630.00",…,"error":null},
/// {"line":3,…}
/// ]
/// ```
/// A JSON reader takes the whole array; a line reader (grep, a stream) takes a row a line. It is
/// about a quarter smaller than an object with a key a line, which a batch of a million rows
/// writes to disk. Each row is written on its own, so rows can be formatted on several threads
/// and joined in order (`rows(_:first:into:)`).
public struct ScenarioResultWriter: Sendable {
    /// The text format.
    public enum Format: Sendable {
        case csv, json
    }

    public let format: Format
    /// Whether results have an `earliestDay` (asked with `--earliest`).
    public let earliest: Bool
    /// The decimals of the ledger's currency.
    public let exponent: Int
    /// The pool's floor, which a result's lowest headroom is written above.
    public let floor: Int64
    /// JSON's keys of a row that failed, each null, up to `"error": `.
    private let nulls: String

    /// A writer for results evaluated against `basis`.
    public init(_ format: Format, earliest: Bool, basis: ScenarioBasis) {
        self.init(format, earliest: earliest, exponent: basis.projection.currency.exponent, floor: basis.floor)
    }

    /// A writer for results in a currency of `exponent` decimals over a pool with `floor`.
    public init(_ format: Format, earliest: Bool, exponent: Int, floor: Int64) {
        self.format = format
        self.earliest = earliest
        self.exponent = exponent
        self.floor = floor
        nulls = Self.keys(earliest: earliest).map { ",\"\($0)\":null" }.joined() + ",\"error\":"
    }

    /// The result keys, in column order (without `line`, `name` and `error`).
    public static func keys(earliest: Bool) -> [String] {
        ["feasible", "worstBalance", "worstDay", "shortfall", "maxPrice"] + (earliest ? ["earliestDay"] : [])
            + ["loanInterest", "recurringCosts", "totalCost", "onCards"]
    }

    /// What comes before the first row: CSV's comments and header, JSON's `[`.
    public func header(into out: inout TextBytes) {
        switch format {
        case .csv:
            out.append(
                """
                # capital scenario eval: one row per scenario, in input order (or --sort's)
                # line: its line in the file; name; feasible: every balance to the horizon stays at or above the floor
                # worstBalance, worstDay: the lowest balance after the scenario and its first day; shortfall: how far below the floor
                # maxPrice: the largest price with the same financing; \(earliest ? "earliestDay: the first feasible day; " : "")\
                loanInterest, recurringCosts to the horizon; totalCost = price + both; onCards: what of the price or down payment goes                 on cards; error: why a row could not be evaluated

                """)
            out.append((["line", "name"] + Self.keys(earliest: earliest) + ["error"]).joined(separator: ","))
            out.append(byte: 10)
        case .json:
            out.append(byte: UInt8(ascii: "["))
        }
    }

    /// What goes between two rows, at the start of every row but the first: `,` in JSON.
    public var separator: [UInt8] { format == .json ? [UInt8(ascii: ",")] : [] }

    /// What comes after the last row: JSON's `]` (`[]` for no rows); nothing in CSV.
    public func footer(rows: Int, into out: inout TextBytes) {
        guard format == .json else { return }
        out.append(rows == 0 ? "]\n" : "\n]\n")
    }

    /// `outcomes` one after another; `first` says whether the first of them is the batch's first row.
    public func rows(_ outcomes: some Collection<ScenarioOutcome>, first: Bool, into out: inout TextBytes) {
        var first = first
        for outcome in outcomes {
            row(outcome, first: first, into: &out)
            first = false
        }
    }

    /// `outcomes` formatted on as many threads as there are `buffers`: contiguous slices, the
    /// first into `buffers[0]`, so that writing the buffers in order writes the rows in order.
    public func rows(_ outcomes: [ScenarioOutcome], first: Bool, into buffers: inout [TextBytes]) {
        let parts = outcomes.count < 4_096 ? 1 : buffers.count
        guard parts > 1 else { return rows(outcomes, first: first, into: &buffers[0]) }
        let size = (outcomes.count + parts - 1) / parts
        buffers.withUnsafeMutableBufferPointer { buffers in
            nonisolated(unsafe) let buffers = buffers
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let slice = min(part * size, outcomes.count)..<min((part + 1) * size, outcomes.count)
                rows(outcomes[slice], first: first && part == 0, into: &buffers[part])
            }
        }
    }

    /// One row.
    public func row(_ outcome: ScenarioOutcome, first: Bool, into out: inout TextBytes) {
        row(line: outcome.row.line, name: outcome.row.name, outcome.result, first: first, into: &out)
    }

    /// One row: the scenario on `line` named `name`, and its result or why it has none.
    public func row(line: Int, name: String, _ result: Result<ScenarioResult, ScenarioRow.Failure>, first: Bool, into out: inout TextBytes) {
        switch format {
        case .csv: csv(line: line, name: name, result, into: &out)
        case .json: json(line: line, name: name, result, first: first, into: &out)
        }
    }

    /// Room for a row but its name: the line, nine amounts or days (at most 24 and 66 bytes) with
    /// their separators and JSON keys, about 600 bytes at the very most.
    private static let figuresRoom = 1_024

    private func csv(line: Int, name: String, _ result: Result<ScenarioResult, ScenarioRow.Failure>, into out: inout TextBytes) {
        let (comma, exponent) = (UInt8(ascii: ","), exponent)
        var name = name
        name.withUTF8 { name in
            out.write(room: 2 * name.count + Self.figuresRoom) { out in
                out.put(integer: line)
                out.put(comma)
                out.put(csvField: name, guardingFormulas: true)
                guard case .success(let result) = result else { return }
                out.put(result.feasible ? ",true," : ",false,")
                out.put(amount: result.worstBalance(above: floor), exponent: exponent)
                out.put(comma)
                out.put(civil: result.worstDay.civil)
                out.put(comma)
                out.put(amount: result.shortfall, exponent: exponent)
                out.put(comma)
                out.put(amount: result.maxPrice, exponent: exponent)
                out.put(comma)
                if earliest {
                    if let day = result.earliestDay { out.put(civil: day.civil) } else { out.put("none") }
                    out.put(comma)
                }
                out.put(amount: result.loanInterest, exponent: exponent)
                out.put(comma)
                out.put(amount: result.recurringCosts, exponent: exponent)
                out.put(comma)
                out.put(amount: result.totalCost, exponent: exponent)
                out.put(comma)
                out.put(amount: result.onCardsTotal, exponent: exponent)
                out.put(",\n")
            }
        }
        if case .failure(let failure) = result {
            out.append(earliest ? ",,,,,,,,,,," : ",,,,,,,,,,")
            out.append(csvField: failure.description)
            out.append(byte: 10)
        }
    }

    private func json(line: Int, name: String, _ result: Result<ScenarioResult, ScenarioRow.Failure>, first: Bool, into out: inout TextBytes) {
        let exponent = exponent
        var name = name
        name.withUTF8 { name in
            out.write(room: 6 * name.count + Self.figuresRoom) { out in
                out.put(first ? "\n{\"line\":" : ",\n{\"line\":")
                out.put(integer: line)
                out.put(",\"name\":")
                out.put(jsonString: name)
                guard case .success(let result) = result else { return }
                out.put(
                    result.feasible ? ",\"feasible\":true,\"worstBalance\":\"" : ",\"feasible\":false,\"worstBalance\":\""
                )
                out.put(amount: result.worstBalance(above: floor), exponent: exponent)
                out.put("\",\"worstDay\":\"")
                out.put(civil: result.worstDay.civil)
                out.put("\",\"shortfall\":\"")
                out.put(amount: result.shortfall, exponent: exponent)
                out.put("\",\"maxPrice\":\"")
                out.put(amount: result.maxPrice, exponent: exponent)
                if earliest {
                    out.put("\",\"earliestDay\":\"")
                    if let day = result.earliestDay { out.put(civil: day.civil) } else { out.put("none") }
                }
                out.put("\",\"loanInterest\":\"")
                out.put(amount: result.loanInterest, exponent: exponent)
                out.put("\",\"recurringCosts\":\"")
                out.put(amount: result.recurringCosts, exponent: exponent)
                out.put("\",\"totalCost\":\"")
                out.put(amount: result.totalCost, exponent: exponent)
                out.put("\",\"onCards\":\"")
                out.put(amount: result.onCardsTotal, exponent: exponent)
                out.put("\",\"error\":null}")
            }
        }
        if case .failure(let failure) = result {
            out.append(nulls)
            out.append(jsonString: failure.description)
            out.append(byte: UInt8(ascii: "}"))
        }
    }
}
