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
    /// - Complexity: O(line); the fields live on the stack, so a line costs no allocation but its
    ///   name and the scenario's own arrays.
    public func scenario(_ line: ArraySlice<UInt8>, exponent: Int, line number: Int) throws(ScenarioFieldError) -> (name: String, scenario: Scenario) {
        let result: Result<(String, Scenario), ScenarioFieldError> = withUnsafeTemporaryAllocation(of: ArraySlice<UInt8>.self, capacity: columns.count + 1) { buffer in
            let count = ScenarioCSV.fields(line, into: buffer)
            guard count >= 0 else {
                return .failure(ScenarioFieldError(column: "line", value: String(decoding: line, as: UTF8.self), reason: "a quote is not closed"))
            }
            defer { buffer.baseAddress!.deinitialize(count: count) }
            guard count == columns.count else {
                return .failure(
                    ScenarioFieldError(
                        column: "line", value: String(decoding: line, as: UTF8.self),
                        reason: "has \(count > columns.count ? "more than \(columns.count)" : String(count)) fields, the header \(columns.count)"))
            }
            let name = position[0] >= 0 ? String(decoding: buffer[position[0]], as: UTF8.self) : ""
            do throws(ScenarioFieldError) {
                let scenario = try Scenario.from(exponent: exponent) { column in
                    let at = position[column.ordinal]
                    return at >= 0 ? buffer[at] : nil
                }
                return .success((name.isEmpty ? "line \(number)" : name, scenario))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Splits a line into `buffer` (initialising its first elements): the number of fields, −1
    /// when a quote is not closed, or `buffer.count` when there are more fields than room.
    static func fields(_ line: ArraySlice<UInt8>, into buffer: UnsafeMutableBufferPointer<ArraySlice<UInt8>>) -> Int {
        var count = 0
        var index = line.startIndex
        let end = line.endIndex
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        func add(_ field: ArraySlice<UInt8>) -> Bool {
            guard count < buffer.count else { return false }
            (buffer.baseAddress! + count).initialize(to: field)
            count += 1
            return true
        }
        while true {
            while index < end && line[index] == space { index += 1 }
            if index < end && line[index] == quote {
                // Quoted: up to the closing quote; "" is one quote (then the value is copied).
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
                guard close >= 0, index == end || line[index] == comma else {
                    buffer.baseAddress!.deinitialize(count: count)
                    return -1
                }
                var value = line[start..<close]
                if escaped {
                    var copy: [UInt8] = []
                    var i = start
                    while i < close {
                        copy.append(line[i])
                        i += line[i] == quote ? 2 : 1
                    }
                    value = copy[...]
                }
                if !add(value) { return count }
            } else {
                let start = index
                while index < end && line[index] != comma { index += 1 }
                var last = index
                while last > start && line[last - 1] == space { last -= 1 }
                if !add(line[start..<last]) { return count }
            }
            if index == end { return count }
            index += 1
        }
    }

    /// A line's fields, unquoted and trimmed; nil when a quote is not closed.
    public static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        // A line of n bytes has at most n + 1 fields.
        withUnsafeTemporaryAllocation(of: ArraySlice<UInt8>.self, capacity: line.count + 1) { buffer in
            let count = fields(line, into: buffer)
            guard count >= 0 else { return nil }
            defer { buffer.baseAddress!.deinitialize(count: count) }
            return Array(buffer[..<count])
        }
    }
}
