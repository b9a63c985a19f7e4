import CapitalCore
import Foundation

/// One scenario of a file, read: its line (or item number), its name, and the scenario or why not.
public struct ScenarioRow: Sendable {
    /// Why a row has no scenario, in words (`line 3: price '-5': …`).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String

        /// A failure in these words.
        public init(description: String) { self.description = description }

        /// Why the row on `line` could not be read, in the file's words (`line 3: price '-5': …`).
        public init(row line: Int, _ error: ScenarioFieldError) { description = "line \(line): \(error)" }
    }

    public var line: Int
    public var name: String
    public var scenario: Result<Scenario, Failure>

    /// The row on `line` of the file, named `name`: its scenario, or why it has none.
    public init(line: Int, name: String, scenario: Result<Scenario, Failure>) {
        self.line = line
        self.name = name
        self.scenario = scenario
    }

    /// A row of a CSV file, its failure in the file's words (`line 3: price '-5': …`).
    public init(_ row: ScenarioCSV.Row) {
        self.init(line: row.line, name: row.name, scenario: row.scenario.mapError { Failure(row: row.line, $0) })
    }
}

/// Reads scenario files: CSV streamed in chunks (memory stays flat), JSON at once.
public struct ScenarioSource: Sendable {
    public let path: String
    /// The decimals of the ledger's currency, which amounts are read in.
    public let exponent: Int
    /// How much of a CSV file is read at a time (2 MiB): the block a batch evaluates and writes.
    public let blockSize: Int

    /// A source reading `path` with amounts in a currency of `exponent` decimals, `blockSize` bytes at a time.
    public init(path: String, exponent: Int, blockSize: Int = 1 << 21) {
        self.path = path
        self.exponent = exponent
        self.blockSize = max(1, blockSize)
    }

    /// The file's size in bytes (0 when it cannot be told, as for a pipe).
    public var size: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Whether the file is JSON (an array read at once) rather than CSV (streamed).
    public var isJSON: Bool { path.lowercased().hasSuffix(".json") }

    /// Calls `body` with batches of rows in file order: at least `size` rows each (the last may
    /// hold fewer), as the file is read in large blocks, and how many bytes of the file are read.
    /// - Throws: `KitError` naming the file when it is missing, unreadable or empty, or its header is not one.
    public func forEachBatch(size: Int, _ body: (_ rows: [ScenarioRow], _ bytesRead: Int) throws -> Void) throws {
        if isJSON { return try body(try jsonRows(), self.size) }
        var batch: [ScenarioRow] = []
        batch.reserveCapacity(size)
        var bytesRead = 0
        try forEachChunk { csv, text, firstLine, read in
            bytesRead = read
            let (rows, lines) = csv.rows(text, firstLine: firstLine, exponent: exponent)
            for row in rows { batch.append(ScenarioRow(row)) }
            if batch.count >= size {
                try body(batch, bytesRead)
                batch.removeAll(keepingCapacity: true)
            }
            return lines
        }
        if !batch.isEmpty { try body(batch, bytesRead) }
    }

    /// Reads a CSV file in blocks of `blockSize` bytes: its header, then calls `body` with the header's reader,
    /// each block's complete lines, the number of their first line and how many bytes of the file
    /// are read; `body` returns the number of lines it was given (`ScenarioCSV.rows` and
    /// `forEachRow` count them).
    /// - Throws: `KitError` naming the file when it is missing, unreadable or empty, or its header is not one.
    public func forEachChunk(
        _ body: (_ csv: ScenarioCSV, _ text: ArraySlice<UInt8>, _ firstLine: Int, _ bytesRead: Int) throws -> Int
    ) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw KitError.invalid(.scenarioFile, value: path, reason: "no such file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw KitError.invalid(.scenarioFile, value: path, reason: "cannot be read") }
        defer { try? handle.close() }
        var pending: [UInt8] = []
        var header: ScenarioCSV?
        var number = 0  // lines before `pending`
        var bytesRead = 0
        /// Reads the complete lines in `pending[..<end]`: the header first, then hands on the rest.
        func take(upTo end: Int) throws {
            var start = 0
            while header == nil && start < end {
                let lineEnd = pending[start..<end].firstIndex(of: UInt8(ascii: "\n")) ?? end
                var line = pending[start..<lineEnd]
                number += 1
                start = min(lineEnd + 1, end)
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                if ScenarioCSV.isSkipped(line) { continue }
                do { header = try ScenarioCSV(header: line) } catch {
                    throw KitError.fileLine(path: path, line: number, reason: KitError.template(error))
                }
            }
            guard let csv = header, start < end else { return }
            number += try body(csv, pending[start..<end], number + 1, bytesRead)
        }
        while true {
            let data = handle.readData(ofLength: blockSize)
            if data.isEmpty { break }
            bytesRead += data.count
            pending.append(contentsOf: data)
            guard let lastBreak = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            try take(upTo: lastBreak + 1)
            pending.removeSubrange(0...lastBreak)
        }
        if !pending.isEmpty { try take(upTo: pending.count) }
        guard header != nil else {
            throw KitError.invalid(.scenarioFile, value: path, reason: "the file is empty: expected a header line and a scenario per line")
        }
    }

    /// A JSON file: an array of objects with the CSV's column names as keys.
    private func jsonRows() throws -> [ScenarioRow] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard !data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else {
            throw KitError.invalid(.scenarioFile, value: path, reason: "the file is empty: expected an array of scenarios")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw KitError.invalid(
                .scenarioFile, value: path,
                reason: FieldKeys.literal("not JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error.localizedDescription)"))
        }
        guard let items = object as? [Any] else {
            throw KitError.invalid(.scenarioFile, value: path, reason: "expected an array of scenario objects")
        }
        return items.enumerated().map { index, item in
            let number = index + 1
            guard let fields = item as? [String: Any] else {
                return ScenarioRow(
                    line: number, name: "item \(number)", scenario: .failure(ScenarioRow.Failure(description: "item \(number): not an object")))
            }
            let name = (fields["name"] as? String) ?? "item \(number)"
            if let unknown = fields.keys.first(where: { ScenarioColumn(rawValue: $0) == nil }) {
                return ScenarioRow(
                    line: number, name: name,
                    scenario: .failure(ScenarioRow.Failure(description: "item \(number): '\(unknown)' is not a scenario field")))
            }
            do {
                let scenario = try Scenario.from(exponent: exponent) { column in
                    guard let value = fields[column.rawValue], !(value is NSNull) else { return nil }
                    return Array("\(value)".utf8)[...]
                }
                return ScenarioRow(line: number, name: name, scenario: .success(scenario))
            } catch {
                return ScenarioRow(line: number, name: name, scenario: .failure(ScenarioRow.Failure(description: "item \(number): \(error)")))
            }
        }
    }
}
