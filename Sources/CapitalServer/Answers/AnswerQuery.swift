import CapitalCore
import CapitalKit
import Foundation
import Hummingbird

/// An answer's query parameters, read as the CLI reads its options: each one known to the route
/// (an unknown one is refused, not ignored), given at most once (but `rate`), and checked, so that
/// a malformed one is a 400 problem naming it in RFC 9457's `invalid-params`.
struct AnswerQuery: Sendable {
    private var values: [String: [String]] = [:]
    /// The parameters as one text, the same for the same parameters in any order.
    var canonical: String {
        values.keys.sorted().map { name in values[name]!.map { "\(name)=\($0)" }.joined(separator: "&") }.joined(separator: "&")
    }

    /// The parameter given `value` (the account or group a store could not find), if one was.
    func parameter(given value: String) -> String? { values.keys.sorted().first { values[$0]?.contains(value) == true } }

    /// Parameters given by the server itself (the web page's).
    init(_ values: [String: String]) { self.values = values.mapValues { [$0] } }

    /// The parameters of `request`, which may be only those in `allowed`.
    init(_ request: Request, allowed: Set<String>) throws {
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = AnswerQuery.decoded(parts[0])
            let value = parts.count > 1 ? AnswerQuery.decoded(parts[1]) : ""
            guard allowed.contains(name) else {
                throw Problem.parameter(name, value, "not a parameter of this answer; it takes " + allowed.sorted().joined(separator: ", "))
            }
            values[name, default: []].append(value)
        }
        for (name, given) in values where given.count > 1 && !AnswerQuery.repeatable.contains(name) {
            throw Problem.parameter(name, given.joined(separator: ","), "given \(given.count) times; give it once")
        }
    }

    /// A form-encoded name or value: `+` is a space, `%XX` a byte (left as typed when not UTF-8).
    static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The parameters that may be given more than once.
    static let repeatable: Set<String> = ["rate"]

    func text(_ name: String) -> String? { values[name]?.first }

    func texts(_ name: String) -> [String] { values[name] ?? [] }

    /// A flag: `true` or `false` (also `1`/`0`, `yes`/`no`, or bare as `?why`); absent is false.
    func flag(_ name: String) throws -> Bool {
        guard let text = text(name) else { return false }
        switch text.lowercased() {
        case "", "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw Problem.parameter(name, text, "expected true or false")
        }
    }

    /// A whole number.
    func int(_ name: String) throws -> Int? {
        guard let text = text(name) else { return nil }
        guard let value = Int(text) else { throw Problem.parameter(name, text, "expected a whole number") }
        return value
    }

    /// A day, `YYYY-MM-DD`, or also `YYYY-MM` when `form` says which day of the month it is.
    func day(_ name: String, monthAs form: Day.MonthForm? = nil) throws -> Day? {
        guard let text = text(name) else { return nil }
        do {
            if let form { return try Day(input: text, monthAs: form) }
            return try Day(input: text)
        } catch { throw Problem.parameter(name, text, "\(error)") }
    }

    /// One of `type`'s values, `-` standing for a space (`partially-paid`).
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = text(name) else { return nil }
        guard let value = T(rawValue: text.replacingOccurrences(of: "-", with: " ")) ?? T(rawValue: text) else {
            let names = T.allCases.map { $0.rawValue.replacingOccurrences(of: " ", with: "-") }
            throw Problem.parameter(name, text, "expected one of " + names.joined(separator: ", "))
        }
        return value
    }
}

extension KitError.Field {
    /// The query parameter this field is given by.
    var parameter: String {
        switch self {
        case .allLevels: "all-levels"
        case .period: "by"
        case .fxWindow: "fx-window"
        case .ratesAhead: "rates-ahead"
        case .reminderDays: "days"
        default: rawValue
        }
    }
}

extension Problem {
    /// A use case's refusal as problem JSON: a field's error names its query parameter (or, with
    /// `field`, the body's field) in `invalid-params` (400); a refusal of the ledger's own data is 422.
    init(_ error: KitError, field: Bool = false) {
        let detail = error.description
        let code = field ? "invalid_field" : "invalid_parameter"
        switch error {
        case .invalid(let key, _, _, _), .missing(let key, _, _), .unreadable(let key, _):
            self.init(400, code, detail, invalidParams: [.init(name: key.parameter, reason: Problem.reason(detail))])
        case .refused, .fileLine, .engine:
            self.init(422, "unanswerable", detail)
        }
    }

    /// A description's reason: what follows `field 'value': `.
    static func reason(_ detail: String) -> String {
        guard let range = detail.range(of: ": ") else { return detail }
        return String(detail[range.upperBound...])
    }
}
