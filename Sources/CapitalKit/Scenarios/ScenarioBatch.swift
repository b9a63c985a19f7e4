import CapitalCore

/// A scenario of a file and what became of it: its result, or why it has none (the row could
/// not be read, or the engine refused it), in the file's words.
public struct ScenarioOutcome: Sendable {
    public let row: ScenarioRow
    public let result: Result<ScenarioResult, ScenarioRow.Failure>

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
                    result = results.removeFirst().mapError { error in
                        ScenarioRow.Failure(description: "line \(row.line): \(Self.fileWords(error))")
                    }
                }
                if case .failure(let failure) = result {
                    summary.failed += 1
                    if summary.firstFailure == nil { summary.firstFailure = failure.description }
                }
                outcomes.append(ScenarioOutcome(row: row, result: result))
            }
            summary.total += rows.count
            progress.evaluated = summary.total
            progress.bytesRead = bytesRead
            try body(outcomes, progress)
        }
        return summary
    }

    /// An engine's refusal of a scenario, its part named by the file's column.
    static func fileWords(_ error: ScenarioError) -> String {
        switch error {
        case .invalid(let field, let value, let reason): "\(columns[field] ?? field) '\(value)': \(reason)"
        case .overflow: "scenario: \(error)"
        }
    }
}
