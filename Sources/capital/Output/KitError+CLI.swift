import CapitalCore
import CapitalKit

/// A use case's field keys as the command line names them: the flag of the key (`Flags`), but
/// for the few a command names its own way.
extension KitError.Field {
    /// The flag (or argument) a field is given by on the command line.
    var flag: String {
        if let name = Flags.names[rawValue] { return name }
        return switch self {
        case .amount: "AMOUNT"
        case .period: "--by"
        case .reminderDays: "--days"
        case .scenarioFile: "FILE"
        default: Flags.flag(rawValue)
        }
    }
}

extension CLIError {
    /// A use case's error in the command line's words: flags for fields, sentences for remedies.
    /// Bad input exits 64; an answer the engine could not build, 1.
    /// A command that names a field its own way says so as `SpellsFields` (`export` takes its
    /// horizon as `--to`).
    init(_ error: KitError) {
        func flag(_ field: KitError.Field) -> String { field.flag }
        switch error {
        case .invalid(let field, let value, let reason, let remedy):
            var help: String?
            switch remedy {
            case .oneOf(let fields)?:
                help =
                    fields.count == 2
                    ? "give \(flag(fields[0])) or \(flag(fields[1])), not both"
                    : "give one of " + fields.dropLast().map(flag).joined(separator: ", ") + " and " + (fields.last.map(flag) ?? "")
            case .laterHorizon?:
                help = "give a later \(flag(.until))"
            case nil:
                help = nil
            }
            // A reason may name another field by key (`is after {to} 2025-03-31`).
            let reason = FieldKeys.spell(reason) { key in KitError.Field(rawValue: key).map(flag) ?? Flags.flag(key) }
            self = .invalid(flag(field), value, [reason.isEmpty ? nil : reason, help].compactMap { $0 }.joined(separator: "; "))
        case .unreadable(let field, let reason):
            self.init("\(flag(field)): \(reason)", exitCode: 64)
        case .fileLine(let path, let line, let reason):
            self.init(Flags.spell("\(FieldKeys.literal(path)):\(line): \(reason)"), exitCode: 64)
        case .engine(let context, let reason):
            self.init(Flags.spell("\(context): \(reason)"))
        }
    }
}

/// Runs a use case, turning its `KitError` into the command line's.
func kit<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as KitError { throw CLIError(error) }
}
