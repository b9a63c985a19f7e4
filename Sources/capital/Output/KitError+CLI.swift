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
        case .statement: "STATEMENT"
        case .rateFile: "FILE"
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
            self = .invalid(flag(field), value, Self.sentence(reason, remedy))
        case .missing(let field, let reason, let remedy):
            self.init("\(flag(field)): \(Self.sentence(reason, remedy))")
        case .refused(let reason, let remedy):
            self.init(Self.sentence(reason, remedy))
        case .unreadable(let field, let reason):
            self.init("\(flag(field)): \(reason)", exitCode: 64)
        case .fileLine(let path, let line, let reason):
            self.init(Flags.spell("\(KitError.place(path, line)): \(reason)"), exitCode: 64)
        case .engine(let context, let reason):
            self.init(Flags.spell("\(context): \(reason)"))
        }
    }

    /// A reason (whose keys are spelled as flags: `is after {to} 2025-03-31`) and its remedy in
    /// the command line's words.
    private static func sentence(_ reason: String, _ remedy: KitError.Remedy?) -> String {
        func flag(_ field: KitError.Field) -> String { field.flag }
        let help: String? =
            switch remedy {
            case .oneOf(let fields)?:
                fields.count == 2
                    ? "give \(flag(fields[0])) or \(flag(fields[1])), not both"
                    : "give one of " + fields.dropLast().map(flag).joined(separator: ", ") + " and " + (fields.last.map(flag) ?? "")
            case .laterHorizon?: "give a later \(flag(.until))"
            case .transferBetweenAccounts?: "use `capital transfer` between accounts"
            case .earnFromIncome?: "money from an income category is earned: use `capital earn`"
            case .spendOnExpense?: "money to an expense category is spent: use `capital spend`"
            case .nameOrSetDefault(let field)?: "pass \(flag(field)) ACCOUNT or run `capital account edit ACCOUNT --default`"
            case nil: nil
            }
        let spelled = FieldKeys.spell(reason) { key in KitError.Field(rawValue: key).map(flag) ?? Flags.flag(key) }
        return [spelled.isEmpty ? nil : spelled, help].compactMap { $0 }.joined(separator: "; ")
    }
}

/// Runs a use case, turning its `KitError` into the command line's.
func kit<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as KitError { throw CLIError(error) }
}
