import CapitalCore

/// Why a use case could not answer, as data: the field it concerns (a key, never a flag name),
/// the value given, the reason in the domain's words, and what would help.
///
/// Front ends spell it: the CLI maps each `Field` to its flag in one table and each `Remedy` to
/// a sentence naming flags; a server would map them to a JSON problem. Nothing here names a flag
/// or a command.
public enum KitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `field` was given `value`, which cannot be used: `reason` (may be empty when the remedy
    /// says it all); `remedy` says what would help.
    case invalid(Field, value: String, reason: String, remedy: Remedy? = nil)
    /// `field`'s text could not be read; `reason` quotes it.
    case unreadable(Field, reason: String)
    /// `field` was left out and nothing stands in for it: `reason`; `remedy` says what would help.
    case missing(Field, reason: String, remedy: Remedy? = nil)
    /// The request cannot be carried out as asked, whatever field is changed: `reason`.
    case refused(reason: String, remedy: Remedy? = nil)
    /// Line `line` of the file at `path` cannot be read: `reason` (a template).
    case fileLine(path: String, line: Int, reason: String)
    /// The engine could not build the answer (a balance past the range of Int64 over the horizon,
    /// an instrument that cannot be laid out); `context` is what was being built. Both are
    /// message templates (`FieldKeys`): an engine error's keys stay in braces.
    case engine(context: String, reason: String)

    /// What a request is made of, by key.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The last day to look at, and its alternative, a number of days.
        case until, days
        /// A ladder level, or every level.
        case level, allLevels
        /// The day an answer is for.
        case on
        /// An account or a group to follow.
        case account, group
        /// The account a purchase is paid from; the first day of a range.
        case from
        /// The last day of a range.
        case to
        /// An amount to spend.
        case amount
        /// The length of a forecast's periods.
        case period
        /// A category to list transactions of; bounds on their amounts; their kind (income, expense, transfer).
        case category, min, max, kind
        /// How many days ahead reminders look.
        case reminderDays
        /// A month, `YYYY-MM`.
        case month
        /// A file of purchase scenarios.
        case scenarioFile
        /// How many transactions a page lists; the transaction it starts after or ends before.
        case limit, after, before
        /// A bank statement file; its rules file; its format and text encoding; which of an OFX
        /// file's statements (by the bank's account number).
        case statement, rules, formatIn, encoding, ofxAccount
        /// A file of exchange rates.
        case rateFile
        /// A what-if rate (`USD=95`), a file of assumed rates ahead, the pessimistic look-back in days.
        case rate, ratesAhead, fxWindow
        /// An exchange's currency, and the amount on its other side.
        case currency, paid
    }

    /// What would help, for the front end to put in its own words.
    public enum Remedy: Sendable, Equatable {
        /// Give only one of these fields.
        case oneOf([Field])
        /// Look further: a later last day.
        case laterHorizon
        /// Money between two accounts is a transfer, not spending.
        case transferBetweenAccounts
        /// Money from an income category is earned, not spent.
        case earnFromIncome
        /// Money to an expense category is spent, not transferred.
        case spendOnExpense
        /// Name the account, or set a default one for quick entries.
        case nameOrSetDefault(Field)
    }

    /// The error in keys, for logs and front ends without words of their own: `until '2020-01-01': is before today 2025-04-01`.
    public var description: String {
        switch self {
        case .invalid(let field, let value, let reason, let remedy):
            return "\(field.rawValue) '\(value)': "
                + [reason.isEmpty ? nil : FieldKeys.spell(reason) { $0 }, remedy?.plain].compactMap { $0 }.joined(separator: "; ")
        case .missing(let field, let reason, let remedy):
            return "\(field.rawValue): " + [FieldKeys.spell(reason) { $0 }, remedy?.plain].compactMap { $0 }.joined(separator: "; ")
        case .refused(let reason, let remedy):
            return [FieldKeys.spell(reason) { $0 }, remedy?.plain].compactMap { $0 }.joined(separator: "; ")
        case .unreadable(let field, let reason):
            return "\(field.rawValue): \(reason)"
        case .fileLine(let path, let line, let reason):
            return FieldKeys.spell("\(Self.place(path, line)): \(reason)") { $0 }
        case .engine(let context, let reason):
            return FieldKeys.spell("\(context): \(reason)") { $0 }
        }
    }
}

extension KitError.Remedy {
    /// The remedy in keys, for front ends without words of their own.
    public var plain: String {
        switch self {
        case .oneOf(let fields): "give one of " + fields.map(\.rawValue).joined(separator: ", ")
        case .laterHorizon: "give a later until"
        case .transferBetweenAccounts: "record money between accounts as a transfer"
        case .earnFromIncome: "record money from an income category as earned"
        case .spendOnExpense: "record money to an expense category as spent"
        case .nameOrSetDefault(let field): "name the \(field.rawValue) account, or set a default account"
        }
    }
}

extension KitError {
    /// An error below as a message template: an engine or store error's own template, anything
    /// else as text that stands for itself.
    static func template(_ error: any Error) -> String {
        (error as? any KeyedError)?.template ?? FieldKeys.literal("\(error)")
    }
}

extension KitError {
    /// `household.csv:12`, or the file alone for what concerns the whole file (line 0: an OFX
    /// file without a statement).
    public static func place(_ path: String, _ line: Int) -> String {
        line > 0 ? "\(FieldKeys.literal(path)):\(line)" : FieldKeys.literal(path)
    }
}
