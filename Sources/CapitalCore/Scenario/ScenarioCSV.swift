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
                    column: "header", value: name, reason: "not a scenario column; expected \(ScenarioColumn.allCases.map(\.rawValue).joined(separator: ", "))")
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
    public func scenario(_ line: ArraySlice<UInt8>, exponent: Int, line number: Int) throws(ScenarioFieldError) -> (name: String, scenario: Scenario) {
        let result: Result<(String, Scenario), ScenarioFieldError> = line.withUnsafeBufferPointer { bytes in
            ScenarioCSV.withFields(bytes, capacity: columns.count + 1) { fields, count in
                guard count >= 0 else {
                    return .failure(ScenarioFieldError(column: "line", value: String(decoding: line, as: UTF8.self), reason: "a quote is not closed"))
                }
                guard count == columns.count else {
                    return .failure(
                        ScenarioFieldError(
                            column: "line", value: String(decoding: line, as: UTF8.self),
                            reason: "has \(count > columns.count ? "more than \(columns.count)" : String(count)) fields, the header \(columns.count)"))
                }
                // The columns' positions through a pointer: the closure below then captures
                // nothing that needs reference counting.
                return position.withUnsafeBufferPointer { position in
                    let name = position[0] >= 0 ? String(decoding: fields[position[0]], as: UTF8.self) : ""
                    do throws(ScenarioFieldError) {
                        let scenario = try Scenario.from(exponent: exponent) { column in
                            let at = position[column.ordinal]
                            return at >= 0 ? fields[at] : nil
                        }
                        return .success((name.isEmpty ? "line \(number)" : name, scenario))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        return try result.get()
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
    private static func split(
        _ line: UnsafeBufferPointer<UInt8>, into fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, scratch: UnsafeMutableBufferPointer<UInt8>
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
