import Dispatch

/// A scenario file in CSV: a header naming the columns (`ScenarioColumn`), then one scenario per
/// line. Fields may be quoted (`"Skoda Octavia, 1.4"`, `""` for a quote inside); spaces around a
/// field are dropped; a record is one line (a line break inside quotes is an error); empty lines
/// and lines starting with `#` are skipped.
///
/// ```swift
/// let csv = try ScenarioCSV(header: Array("name,price,date,down,loan_rate,loan_term".utf8)[...])
/// let (name, car) = try csv.scenario(Array("Octavia,2400000,2025-09-01,500000,14,60".utf8)[...], exponent: 2, line: 2)
/// ```
public struct ScenarioCSV: Sendable {
    /// The column of each position.
    public let columns: [ScenarioColumn]
    /// The position of each column by its ordinal, −1 when absent.
    private let position: [Int]

    /// - Throws: `ScenarioFieldError` for an unknown or repeated column, or a header without
    ///   `price` and `date`.
    public init(header: ArraySlice<UInt8>) throws(ScenarioFieldError) {
        guard let fields = ScenarioCSV.fields(header) else {
            throw ScenarioFieldError(column: "header", value: String(decoding: header, as: UTF8.self), reason: "a quote is not closed")
        }
        var columns: [ScenarioColumn] = []
        var position = [Int](repeating: -1, count: ScenarioColumn.allCases.count)
        for field in fields {
            let name = String(decoding: field, as: UTF8.self)
            guard let column = ScenarioColumn(rawValue: name.lowercased()) else {
                throw ScenarioFieldError(
                    column: "header", value: name,
                    reason: "not a scenario column; expected \(ScenarioColumn.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard position[column.ordinal] < 0 else { throw ScenarioFieldError(column: "header", value: name, reason: "the column appears twice") }
            position[column.ordinal] = columns.count
            columns.append(column)
        }
        for required in [ScenarioColumn.price, .date] where position[required.ordinal] < 0 {
            throw ScenarioFieldError(column: "header", value: String(decoding: header, as: UTF8.self), reason: "has no \(required.rawValue) column")
        }
        self.columns = columns
        self.position = position
    }

    /// The scenario on one line, with its name (the `name` column, else `line N`).
    /// - Throws: `ScenarioFieldError` naming the column, the value and why.
    /// - Complexity: O(line); fields are read in place through pointers (a quoted field with `""`
    ///   is unescaped into scratch space on the stack), so a line costs no allocation but its name
    ///   and the scenario's own arrays.
    public func scenario(_ line: ArraySlice<UInt8>, exponent: Int, line number: Int) throws(ScenarioFieldError) -> (name: String, scenario: Scenario)
    {
        let row = line.withUnsafeBufferPointer { read($0, number: number, exponent: exponent) }
        return (row.name.isEmpty ? "line \(number)" : row.name, try row.scenario.get())
    }

    /// One line of a file's body, read: its number, its name (the `name` column, else `line N`,
    /// also when the line has an error) and the scenario or why not.
    public struct Row: Sendable {
        public var line: Int
        public var name: String
        public var scenario: Result<Scenario, ScenarioFieldError>
    }

    /// Reads every line of `text` after the header: lines end at `\n` (a `\r` before it is
    /// dropped; the last line may lack its break); blank lines and lines starting with `#` are
    /// skipped. `firstLine` is the number of `text`'s first line. The text is cut at line breaks
    /// into `threads` parts read at once, so a large chunk of a file is read on every core.
    /// - Returns: the rows in file order, and the number of lines in `text` (to number the next chunk).
    /// - Complexity: O(text) divided over the threads.
    public func rows(_ text: ArraySlice<UInt8>, firstLine: Int, exponent: Int, threads: Int = 2) -> (rows: [Row], lines: Int) {
        text.withUnsafeBufferPointer { bytes in
            let parts = ScenarioCSV.parts(bytes, firstLine: firstLine, threads: threads)
            var results = [(rows: [Row], lines: Int)](repeating: ([], 0), count: parts.count)
            nonisolated(unsafe) let bytes = bytes
            results.withUnsafeMutableBufferPointer { output in
                nonisolated(unsafe) let output = output
                let work: @Sendable (Int) -> Void = { index in
                    var rows: [Row] = []
                    rows.reserveCapacity(parts[index].range.count / 48)
                    let lines = forEachRow(
                        UnsafeBufferPointer(rebasing: bytes[parts[index].range]), firstLine: parts[index].firstLine, exponent: exponent
                    ) {
                        rows.append($0)
                    }
                    output[index] = (rows, lines)
                }
                if output.count == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: output.count, execute: work) }
            }
            var rows = results[0].rows
            rows.reserveCapacity(results.reduce(0) { $0 + $1.rows.count })
            for later in results.dropFirst() { rows.append(contentsOf: later.rows) }
            return (rows, results.reduce(0) { $0 + $1.lines })
        }
    }

    /// `text` cut after line breaks into up to `threads` parts of about equal size (one part below
    /// 64 KiB), each with the number of its first line, `text`'s first line being `firstLine`.
    /// - Complexity: O(text) for counting the line breaks before each later part.
    public static func parts(_ text: UnsafeBufferPointer<UInt8>, firstLine: Int, threads: Int) -> [(range: Range<Int>, firstLine: Int)] {
        let newline = UInt8(ascii: "\n")
        let count = text.count < 1 << 16 ? 1 : max(1, threads)
        var cuts = [0]
        for part in 1..<max(count, 1) {
            var at = max(cuts[cuts.count - 1], text.count * part / count)
            while at < text.count && text[at] != newline { at += 1 }
            cuts.append(min(at + 1, text.count))
        }
        cuts.append(text.count)
        var parts: [(range: Range<Int>, firstLine: Int)] = []
        var line = firstLine
        for index in 0..<(cuts.count - 1) {
            parts.append((cuts[index]..<cuts[index + 1], line))
            // Every part but the last ends just after a line break: its lines are its breaks.
            if index < cuts.count - 2 {
                for byte in UnsafeBufferPointer(rebasing: text[cuts[index]..<cuts[index + 1]]) where byte == newline { line += 1 }
            }
        }
        return parts
    }

    /// Calls `body` with each row of `text` in order (lines numbered from `firstLine`; a row
    /// without a name is named `line N`), without collecting them.
    /// - Returns: the number of lines in `text`.
    @discardableResult
    public func forEachRow(_ text: UnsafeBufferPointer<UInt8>, firstLine: Int, exponent: Int, _ body: (Row) -> Void) -> Int {
        var start = 0
        var number = 0
        let newline = UInt8(ascii: "\n")
        // One room for a line's fields and one for unescaped quoted fields, for every line of the
        // text (the scratch room grows with the longest line): a line costs no allocation of its own.
        let fields = UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: columns.count + 1)
        var scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
        defer {
            fields.deallocate()
            scratch.deallocate()
        }
        position.withUnsafeBufferPointer { position in
            while start < text.count {
                var end = start
                while end < text.count && text[end] != newline { end += 1 }
                number += 1
                var last = end
                if last > start && text[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                let line = UnsafeBufferPointer(rebasing: text[start..<last])
                if !ScenarioCSV.isSkipped(line) {
                    if line.count > scratch.count {
                        scratch.deallocate()
                        scratch = .allocate(capacity: line.count)
                    }
                    let count = ScenarioCSV.split(line, into: fields, scratch: scratch)
                    var row = read(line, fields: fields, count: count, position: position, number: firstLine + number - 1, exponent: exponent)
                    if row.name.isEmpty { row.name = "line \(row.line)" }
                    body(row)
                }
                start = end + 1
            }
        }
        return number
    }

    /// Whether a line carries no scenario: blank, or a comment starting with `#`.
    static func isSkipped(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if line.first == UInt8(ascii: "#") { return true }
        for byte in line where byte != 32 && byte != 9 { return false }
        return true
    }

    /// Whether a line carries no scenario: blank, or a comment starting with `#`.
    public static func isSkipped(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { isSkipped($0) }
    }

    /// One line read into a row; an unnamed row's name is left empty.
    private func read(_ line: UnsafeBufferPointer<UInt8>, number: Int, exponent: Int) -> Row {
        position.withUnsafeBufferPointer { position in
            ScenarioCSV.withFields(line, capacity: columns.count + 1) { fields, count in
                read(line, fields: fields, count: count, position: position, number: number, exponent: exponent)
            }
        }
    }

    /// One line read into a row from its `fields` (their `count`, as `split` gives it), the
    /// columns' positions through a pointer (so the closures below capture nothing that needs
    /// reference counting); an unnamed row's name is left empty.
    private func read(
        _ line: UnsafeBufferPointer<UInt8>, fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, count: Int,
        position: UnsafeBufferPointer<Int>, number: Int, exponent: Int
    ) -> Row {
        guard count >= 0 else {
            return Row(
                line: number, name: "",
                scenario: .failure(ScenarioFieldError(column: "line", value: String(decoding: line, as: UTF8.self), reason: "a quote is not closed")))
        }
        let name = position[0] >= 0 && position[0] < count ? String(decoding: fields[position[0]], as: UTF8.self) : ""
        guard count == columns.count else {
            return Row(
                line: number, name: name,
                scenario: .failure(
                    ScenarioFieldError(
                        column: "line", value: String(decoding: line, as: UTF8.self),
                        reason: "has \(count > columns.count ? "more than \(columns.count)" : String(count)) fields, the header \(columns.count)")
                ))
        }
        do throws(ScenarioFieldError) {
            let scenario = try Scenario.from(exponent: exponent) { column in
                let at = position[column.ordinal]
                return at >= 0 ? fields[at] : nil
            }
            return Row(line: number, name: name, scenario: .success(scenario))
        } catch {
            return Row(line: number, name: name, scenario: .failure(error))
        }
    }

    /// Calls `body` with a line's fields (at most `capacity`; pointers into `line` or into stack
    /// scratch space, valid during the call) and their count: −1 when a quote is not closed,
    /// `capacity` when there are at least that many.
    static func withFields<R>(
        _ line: UnsafeBufferPointer<UInt8>, capacity: Int, _ body: (UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, Int) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: max(capacity, 1)) { fields in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(line.count, 1)) { scratch in
                body(fields, split(line, into: fields, scratch: scratch))
            }
        }
    }

    /// Splits `line` into `fields`; unescaped quoted fields are written to `scratch` (never more
    /// bytes than the line). Returns the count, −1 for an unclosed quote, or `fields.count` when full.
    static func split(
        _ line: UnsafeBufferPointer<UInt8>, into fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>,
        scratch: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var count = 0
        var used = 0
        var index = 0
        let end = line.count
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        while true {
            while index < end && line[index] == space { index += 1 }
            var field: UnsafeBufferPointer<UInt8>
            if index < end && line[index] == quote {
                // Quoted: up to the closing quote; "" is one quote (then the value is unescaped).
                index += 1
                let start = index
                var escaped = false
                var close = -1
                while index < end {
                    if line[index] == quote {
                        if index + 1 < end && line[index + 1] == quote {
                            escaped = true
                            index += 2
                            continue
                        }
                        close = index
                        index += 1
                        break
                    }
                    index += 1
                }
                while index < end && line[index] == space { index += 1 }
                guard close >= 0, index == end || line[index] == comma else { return -1 }
                field = UnsafeBufferPointer(rebasing: line[start..<close])
                if escaped {
                    let from = used
                    var i = start
                    while i < close {
                        scratch[used] = line[i]
                        used += 1
                        i += line[i] == quote ? 2 : 1
                    }
                    field = UnsafeBufferPointer(rebasing: scratch[from..<used])
                }
            } else {
                let start = index
                while index < end && line[index] != comma { index += 1 }
                var last = index
                while last > start && line[last - 1] == space { last -= 1 }
                field = UnsafeBufferPointer(rebasing: line[start..<last])
            }
            guard count < fields.count else { return count }
            fields[count] = field
            count += 1
            if index == end { return count }
            index += 1  // the comma
        }
    }

    /// A line's fields, unquoted and trimmed; nil when a quote is not closed.
    public static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        line.withUnsafeBufferPointer { bytes in
            // A line of n bytes has at most n + 1 fields.
            withFields(bytes, capacity: bytes.count + 1) { fields, count in
                count < 0 ? nil : fields[..<count].map { Array($0)[...] }
            }
        }
    }
}
