import CapitalCore
import Dispatch

/// A scenario of a file and what became of it: its result, or why it has none (the row could
/// not be read, or the engine refused it), in the file's words.
public struct ScenarioOutcome: Sendable {
    public let row: ScenarioRow
    public let result: Result<ScenarioResult, ScenarioRow.Failure>

    /// The outcome of `row`: its result, or why it has none.
    public init(row: ScenarioRow, result: Result<ScenarioResult, ScenarioRow.Failure>) {
        self.row = row
        self.result = result
    }
}

/// How a batch went: how many scenarios, how many failed, and the first failure.
public struct ScenarioBatchSummary: Sendable {
    public var total = 0
    public var failed = 0
    public var firstFailure: String?

    /// Counts one more outcome.
    mutating func count(_ result: Result<ScenarioResult, ScenarioRow.Failure>) {
        total += 1
        if case .failure(let failure) = result {
            failed += 1
            if firstFailure == nil { firstFailure = failure.description }
        }
    }

    /// Adds the counts of the rows after these.
    mutating func add(_ later: ScenarioBatchSummary) {
        total += later.total
        failed += later.failed
        if firstFailure == nil { firstFailure = later.firstFailure }
    }
}

/// How far a batch has come: scenarios evaluated, and bytes of the file read of how many (0 when
/// the size cannot be told), for a progress line's rate and time left.
public struct ScenarioBatchProgress: Sendable {
    public var evaluated = 0
    public var bytesRead = 0
    public var bytes = 0
}

extension ScenarioBasis {
    /// The file's column of each part a scenario error names.
    static let columns = [
        "price": "price", "down payment": "down", "loan term": "loan_term", "loan rate": "loan_rate", "day": "date", "instalments": "instalments",
    ]

    /// Evaluates every scenario of `source` in input order, a batch at a time (read, evaluated
    /// on `threads` threads, then handed to `body` with the progress so far), so that memory stays
    /// flat in the number of rows. A row that cannot be read or evaluated is an outcome with its
    /// reason (`line 7: loan_term '0': …`); the others are still evaluated.
    /// - Throws: `KitError` when the file cannot be read; what `body` throws.
    public func evaluate(
        _ source: ScenarioSource, earliest: Bool, batchSize: Int = 1 << 16, threads: Int = 2,
        _ body: (_ outcomes: [ScenarioOutcome], _ progress: ScenarioBatchProgress) throws -> Void
    ) throws -> ScenarioBatchSummary {
        if card != nil {
            throw KitError.invalid(
                .from, value: paidFrom.name, reason: "it is a card: each purchase day has its own payback; try them one by one, or pay from the level"
            )
        }
        var summary = ScenarioBatchSummary()
        var progress = ScenarioBatchProgress(bytes: source.size)
        try source.forEachBatch(size: batchSize) { rows, bytesRead in
            let valid = rows.compactMap { try? $0.scenario.get() }
            var results = evaluator.evaluate(valid, earliest: earliest, threads: threads)[...]
            var outcomes: [ScenarioOutcome] = []
            outcomes.reserveCapacity(rows.count)
            for row in rows {
                let result: Result<ScenarioResult, ScenarioRow.Failure>
                switch row.scenario {
                case .failure(let failure): result = .failure(failure)
                case .success:
                    result = results.removeFirst().mapError { Self.refusal($0, line: row.line) }
                }
                let outcome = ScenarioOutcome(row: row, result: result)
                summary.count(outcome.result)
                outcomes.append(outcome)
            }
            progress.evaluated = summary.total
            progress.bytesRead = bytesRead
            try body(outcomes, progress)
        }
        return summary
    }

    /// Evaluates every scenario of `source` and writes the results as `writer` formats them, in
    /// input order, streaming: each block of a CSV file is cut into `threads` parts, and each part
    /// is read, evaluated and formatted on its own thread into its own buffer, with no row or
    /// result kept; the buffers go to `output` in order. The same bytes as `evaluate` then
    /// `ScenarioResultWriter.rows`, with memory flat in the number of rows.
    /// - Parameters:
    ///   - outputText: takes the text in order (the header, rows, the footer), a block at a time.
    ///   - progress: told after each block how far the batch has come.
    /// - Throws: `KitError` when the file cannot be read; what `output` throws.
    public func write(
        _ source: ScenarioSource, earliest: Bool, as writer: ScenarioResultWriter, threads: Int = 2,
        _ outputText: (_ text: ArraySlice<UInt8>) throws -> Void, progress: (ScenarioBatchProgress) -> Void = { _ in }
    ) throws -> ScenarioBatchSummary {
        var buffers = [TextBytes](repeating: TextBytes(), count: max(1, threads))
        // The header goes out with the first rows (or the footer): a file refused at its header
        // or first rows writes nothing, not half a document.
        var header = TextBytes()
        writer.header(into: &header)
        var headerWritten = false
        func output(_ text: ArraySlice<UInt8>) throws {
            if !headerWritten {
                headerWritten = true
                try outputText(header.bytes)
            }
            try outputText(text)
        }
        var summary = ScenarioBatchSummary()
        if source.isJSON {
            summary = try evaluate(source, earliest: earliest, threads: threads) { outcomes, done in
                writer.rows(outcomes, first: done.evaluated == outcomes.count, into: &buffers)
                for index in buffers.indices where buffers[index].count > 0 {
                    try output(buffers[index].bytes)
                    buffers[index].removeAll()
                }
                progress(done)
            }
        } else {
            // Two sets of buffers: while the worker threads read, evaluate and format a block into
            // one, this thread writes the block before from the other.
            var spare = [TextBytes](repeating: TextBytes(), count: buffers.count)
            var written: (tallies: [ScenarioBatchSummary], bytesRead: Int)?
            var done = ScenarioBatchProgress(bytes: source.size)
            /// Writes the block waiting in `buffers`, in order, and says how far the batch has come.
            func writeBlock() throws {
                guard let block = written else { return }
                written = nil
                for (index, tally) in block.tallies.enumerated() {
                    // The first row of all was written with the comma that goes between rows.
                    let skip = summary.total == 0 && tally.total > 0 ? writer.separator.count : 0
                    summary.add(tally)
                    if buffers[index].count > 0 { try output(buffers[index].bytes.dropFirst(skip)) }
                    buffers[index].removeAll()
                }
                done.evaluated = summary.total
                done.bytesRead = block.bytesRead
                progress(done)
            }
            try source.forEachChunk { csv, text, firstLine, bytesRead in
                let block = BlockResult()
                try text.withUnsafeBufferPointer { bytes in
                    try spare.withUnsafeMutableBufferPointer { out in
                        nonisolated(unsafe) let bytes = bytes
                        nonisolated(unsafe) let out = out
                        let group = DispatchGroup()
                        group.enter()
                        DispatchQueue.global().async {
                            (block.tallies, block.lines) = self.formatBlock(
                                csv, bytes, firstLine: firstLine, exponent: source.exponent, earliest: earliest, as: writer, threads: threads,
                                into: out)
                            group.leave()
                        }
                        // The workers write into `spare` and read `text`: both stay until they are done.
                        defer { group.wait() }
                        try writeBlock()
                    }
                }
                swap(&buffers, &spare)
                written = (block.tallies, bytesRead)
                return block.lines
            }
            try writeBlock()
        }
        writer.footer(rows: summary.total, into: &buffers[0])
        try output(buffers[0].bytes)
        return summary
    }

    /// Reads, evaluates and formats one block of CSV rows: cut into `threads` parts at line
    /// breaks, each part on its own thread into its own buffer of `buffers`. Returns each part's
    /// tally and the number of lines the block holds.
    func formatBlock(
        _ csv: ScenarioCSV, _ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, exponent: Int, earliest: Bool, as writer: ScenarioResultWriter,
        threads: Int, into buffers: UnsafeMutableBufferPointer<TextBytes>
    ) -> (tallies: [ScenarioBatchSummary], lines: Int) {
        let parts = ScenarioCSV.parts(bytes, firstLine: firstLine, threads: threads)
        var tallies = [ScenarioBatchSummary](repeating: ScenarioBatchSummary(), count: parts.count)
        var lines = [Int](repeating: 0, count: parts.count)
        nonisolated(unsafe) let bytes = bytes
        nonisolated(unsafe) let buffers = buffers
        tallies.withUnsafeMutableBufferPointer { tallies in
            nonisolated(unsafe) let tallies = tallies
            lines.withUnsafeMutableBufferPointer { lines in
                nonisolated(unsafe) let lines = lines
                let work: @Sendable (Int) -> Void = { index in
                    var workspace = ScenarioWorkspace()
                    let part = UnsafeBufferPointer(rebasing: bytes[parts[index].range])
                    lines[index] = csv.forEachRow(part, firstLine: parts[index].firstLine, exponent: exponent) { row in
                        let result = self.result(row, earliest: earliest, using: &workspace)
                        tallies[index].count(result)
                        writer.row(line: row.line, name: row.name, result, first: false, into: &buffers[index])
                    }
                }
                if parts.count == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts.count, execute: work) }
            }
        }
        return (tallies, lines.reduce(0, +))
    }

    /// What the workers found in a block, handed back to the thread that writes it.
    private final class BlockResult: @unchecked Sendable {
        var tallies: [ScenarioBatchSummary] = []
        var lines = 0
    }

    /// A row's result (when it was read), or its refusal in the file's words.
    func result(_ row: ScenarioCSV.Row, earliest: Bool, using workspace: inout ScenarioWorkspace) -> Result<ScenarioResult, ScenarioRow.Failure> {
        switch row.scenario {
        case .failure(let failure): return .failure(ScenarioRow.Failure(row: row.line, failure))
        case .success(let scenario):
            do throws(ScenarioError) {
                return .success(try evaluator.evaluate(scenario, earliest: earliest, using: &workspace))
            } catch {
                return .failure(Self.refusal(error, line: row.line))
            }
        }
    }

    /// An engine's refusal of the scenario on `line`, in the file's words.
    static func refusal(_ error: ScenarioError, line: Int) -> ScenarioRow.Failure {
        ScenarioRow.Failure(description: "line \(line): \(fileWords(error))")
    }

    /// An engine's refusal of a scenario, its part named by the file's column.
    static func fileWords(_ error: ScenarioError) -> String {
        switch error {
        case .invalid(let field, let value, let reason): "\(columns[field] ?? field) '\(value)': \(reason)"
        case .overflow: "scenario: \(error)"
        }
    }
}
