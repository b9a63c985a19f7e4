import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

/// `POST …/scenarios/try` and `…/scenarios/eval`: `capital scenario try` and `scenario eval` on
/// the server's copy of a ledger. A scenario's fields are the keys of `scenario eval`'s files
/// (`price`, `date`, `loan_rate`, …); the options are query parameters, as for the other answers.
enum ScenarioAnswer {
    /// What both take besides the horizon's and every answer's parameters.
    static let parameters: Set<String> = LedgerAnswer.common.union(LedgerAnswer.horizon).union(["level", "from", "earliest"])
    static let tryParameters = parameters.union(["why"])
    static let evalParameters = parameters.union(["sort", "top"])

    /// The basis every scenario of a request is evaluated against: the ledger laid out as the
    /// query asks, paid from a level (4 to 6) or one account.
    static func basis(_ store: Store, _ query: AnswerQuery, clock: Day) throws -> ScenarioBasis {
        try LedgerAnswer.answering(store, query, clock: clock) { today in
            let projection = try LedgerAnswer.projection(store, query, today)
            return try projection.scenarioBasis(level: try query.int("level"), from: query.text("from"), try LedgerAnswer.forecastCase(query))
        }
    }

    /// `scenario try`'s report for the scenario in `body` (one JSON object of scenario fields).
    static func tried(_ basis: ScenarioBasis, _ body: Data, _ query: AnswerQuery) throws -> Report {
        guard let object = try? JSONSerialization.jsonObject(with: body), let fields = object as? [String: Any] else {
            throw Problem(400, "malformed", "the request's body is not a JSON object of scenario fields (price, date, down, loan_rate, …)")
        }
        if let unknown = fields.keys.sorted().first(where: { ScenarioColumn(rawValue: $0) == nil }) {
            throw field(
                unknown, "\(fields[unknown] ?? "")",
                "not a scenario field; the fields are " + ScenarioColumn.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let scenario: Scenario
        do {
            scenario = try Scenario.from(exponent: basis.projection.currency.exponent) { column in
                guard let value = fields[column.rawValue], !(value is NSNull) else { return nil }
                return Array("\(value)".utf8)[...]
            }
        } catch {
            throw field(error.column, error.value, error.reason { $0.rawValue })
        }
        // The engine moves what falls before today to today: a purchase tried in the past would
        // be answered for another day than the one asked.
        if scenario.day < basis.evaluator.today {
            throw field("date", scenario.day.iso, "is before today \(basis.evaluator.today): a purchase is tried from today on (today sets today)")
        }
        let earliest = try query.flag("earliest")
        let result: ScenarioResult
        do { result = try basis.evaluate(scenario, earliest: earliest) } catch let error as ScenarioError {
            guard case .invalid(let part, let value, let reason) = error else { throw Problem(422, "unanswerable", error.description) }
            let keys = ["down payment": "down", "loan term": "loan_term", "loan rate": "loan_rate", "day": "date"]
            throw field(keys[part] ?? part, value, reason)
        }
        return basis.report(scenario, result, earliest: earliest, why: try query.flag("why"), RenderOptions()).answered(from: basis.projection)
    }

    /// A scenario field of the body that cannot be used: 400, naming it.
    static func field(_ name: String, _ value: String, _ reason: String) -> Problem {
        Problem(400, "invalid_field", "\(name) \(quoted(value)): \(reason)", invalidParams: [.init(name: name, reason: reason)])
    }

    /// The scenarios of `path` (the body, kept in a file named for its format) checked before an
    /// answer starts: a header that is not one, or JSON that is not an array, is a 400 problem
    /// (once results stream, the status is sent). Rows with errors get them in their error column.
    static func checkSource(_ source: ScenarioSource) throws {
        struct Checked: Error {}
        do {
            if source.isJSON {
                let object = try? JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: source.path)))
                guard object is [Any] else { throw Problem(400, "malformed", "the request's body is not a JSON array of scenario objects") }
            } else {
                try source.forEachChunk { _, _, _, _ in throw Checked() }
                throw Problem(400, "malformed", "the request's body has no scenarios: a CSV header, then a row for each")
            }
        } catch is Checked {
        } catch let error as KitError {
            switch error {
            case .fileLine(_, let line, let reason): throw Problem(400, "malformed", "line \(line): \(FieldKeys.spell(reason) { $0 })")
            default: throw Problem(400, "malformed", "the request's body: \(Problem.reason(error.description))")
            }
        }
    }

    /// `sort` and `top` as `scenario eval` checks them.
    static func ranking(_ query: AnswerQuery) throws -> (ScenarioSortKey?, Int?) {
        let key = try query.text("sort").map { sort in
            guard let key = ScenarioSortKey(rawValue: sort) else {
                throw Problem.parameter("sort", sort, "expected max-price, worst-balance or total-cost")
            }
            return key
        }
        let top = try query.int("top")
        if let top {
            guard key != nil else { throw Problem.parameter("top", String(top), "needs sort: the first N by which key?") }
            guard top > 0 else { throw Problem.parameter("top", String(top), "expected a number of rows, 1 or more") }
        }
        return (key, top)
    }

    /// Writes every result of `source` through `writer` to `output`, in input order, streaming;
    /// ranked by `key` (the first `top`) when given, which needs every row first.
    static func write(
        _ basis: ScenarioBasis, _ source: ScenarioSource, earliest: Bool, as writer: ScenarioResultWriter, key: ScenarioSortKey?, top: Int?,
        _ output: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        guard let key else {
            _ = try basis.write(source, earliest: earliest, as: writer, output)
            return
        }
        var kept: [ScenarioOutcome] = []
        _ = try basis.evaluate(source, earliest: earliest) { outcomes, _ in kept += outcomes }
        var ranked = key.sorted(kept)
        if let top, ranked.count > top { ranked.removeSubrange(top...) }
        var text = TextBytes()
        writer.header(into: &text)
        writer.rows(ranked, first: true, into: &text)
        writer.footer(rows: ranked.count, into: &text)
        try output(text.bytes)
    }
}
