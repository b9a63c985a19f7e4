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
    private let position: [ScenarioColumn: Int]

    /// - Throws: `ScenarioFieldError` for an unknown or repeated column, or a header without
    ///   `price` and `date`.
    public init(header: ArraySlice<UInt8>) throws(ScenarioFieldError) {
        guard let fields = ScenarioCSV.fields(header) else {
            throw ScenarioFieldError(column: "header", value: String(decoding: header, as: UTF8.self), reason: "a quote is not closed")
        }
        var columns: [ScenarioColumn] = []
        var position: [ScenarioColumn: Int] = [:]
        for field in fields {
            let name = String(decoding: field, as: UTF8.self)
            guard let column = ScenarioColumn(rawValue: name.lowercased()) else {
                throw ScenarioFieldError(
                    column: "header", value: name, reason: "not a scenario column; expected \(ScenarioColumn.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard position[column] == nil else { throw ScenarioFieldError(column: "header", value: name, reason: "the column appears twice") }
            position[column] = columns.count
            columns.append(column)
        }
        for required in [ScenarioColumn.price, .date] where position[required] == nil {
            throw ScenarioFieldError(column: "header", value: String(decoding: header, as: UTF8.self), reason: "has no \(required.rawValue) column")
        }
        self.columns = columns
        self.position = position
    }

    /// The scenario on one line, with its name (the `name` column, else `line N`).
    /// - Throws: `ScenarioFieldError` naming the column, the value and why.
    public func scenario(_ line: ArraySlice<UInt8>, exponent: Int, line number: Int) throws(ScenarioFieldError) -> (name: String, scenario: Scenario) {
        guard let fields = ScenarioCSV.fields(line) else {
            throw ScenarioFieldError(column: "line", value: String(decoding: line, as: UTF8.self), reason: "a quote is not closed")
        }
        guard fields.count == columns.count else {
            throw ScenarioFieldError(
                column: "line", value: String(decoding: line, as: UTF8.self), reason: "has \(fields.count) fields, the header \(columns.count)")
        }
        let name = position[.name].map { String(decoding: fields[$0], as: UTF8.self) } ?? "line \(number)"
        let scenario = try Scenario.from(exponent: exponent) { column in position[column].map { fields[$0] } }
        return (name.isEmpty ? "line \(number)" : name, scenario)
    }

    /// A line's fields, unquoted and trimmed; nil when a quote is not closed.
    public static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(16)
        var index = line.startIndex
        let end = line.endIndex
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        while true {
            while index < end && line[index] == space { index += 1 }
            if index < end && line[index] == quote {
                // Quoted: up to the closing quote; "" is one quote.
                var value: [UInt8] = []
                var closed = false
                index += 1
                while index < end {
                    if line[index] == quote {
                        if index + 1 < end && line[index + 1] == quote {
                            value.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    value.append(line[index])
                    index += 1
                }
                guard closed else { return nil }
                while index < end && line[index] == space { index += 1 }
                guard index == end || line[index] == comma else { return nil }
                fields.append(value[...])
            } else {
                let start = index
                while index < end && line[index] != comma { index += 1 }
                var last = index
                while last > start && line[last - 1] == space { last -= 1 }
                fields.append(line[start..<last])
            }
            if index == end { return fields }
            index += 1  // the comma
        }
    }
}
