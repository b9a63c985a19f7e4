import CapitalCore
import GRDB

/// Why a store operation failed. Messages name the field, the value and the reason, on one line.
///
/// Fields are named by key in braces (`{moveTo}`, `{database}`) and what would help is a
/// `Remedy`: the front end spells both (`message(remedy:)`); `description` writes keys as
/// themselves and remedies in plain words, without commands.
public enum StoreError: KeyedError {
    case cannotCreateFolder(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case newerSchema(path: String, unknown: [String])
    case notCapitalDatabase(path: String)
    /// SQLite found the file damaged (a malformed page, a truncated file) while `context`.
    case damaged(path: String, context: String, reason: String)
    /// `reason` is a template: what it quotes goes through `FieldKeys.literal`.
    case cannotWriteBackup(path: String, reason: String)
    /// A stored value the program cannot take in (an account kind that is not one): the file was
    /// changed behind capital's back, or damaged. Thrown with `path` nil; the store fills it in.
    case unreadable(path: String?, field: String, value: String, reason: String)
    case notInitialized(path: String)
    case alreadyInitialized(path: String, currency: String)
    case notFound(what: String, reference: String, hint: Remedy?)
    case ambiguous(what: String, reference: String, candidates: [String])
    case duplicateName(what: String, name: String)
    /// `field` was given `value`, which the ledger cannot act on as it stands (an account of the
    /// wrong kind, a flow already settled, a member already in the group): exit 1 on the command line.
    case invalid(field: String, value: String, reason: String)
    /// `field` was given `value`, which is never valid whatever the ledger holds (a count of 0, a
    /// negative rate, a level 7, an icon of two letters, a budget of 0): a malformed value, exit 64
    /// on the command line as argument-parser's own. In a ledger file it is the file's error
    /// (`Store.building` makes it `.invalid`, named by line).
    case malformed(field: String, value: String, reason: String)
    /// `field` was given `value`, which cannot be used: `reason`; `remedy` says what would help.
    case refused(field: String, value: String, reason: String, remedy: Remedy)
    case capitalIsProtected(action: String)
    case accountHasPostings(name: String, count: Int)
    case currencyMismatch(account: String, accountCurrency: String, amountCurrency: String)
    /// A message template (keys in braces; what it quotes through `FieldKeys.literal`).
    case conflict(String)
    /// A value read back from the database (a currency code, a rule) that the program cannot
    /// take in while `context`: the file was changed behind capital's back, or damaged.
    case unexpected(path: String, context: String, reason: String, readOnly: Bool)
    case ledger(LedgerError)
    case money(field: String, MoneyError)
    case database(context: String, DatabaseError)
    case readOnly(path: String)
    /// The database cannot be written: `reason` says what is read-only (the file, its folder,
    /// the file system); nothing was changed.
    case databaseReadOnly(path: String, reason: String)
    /// A write failed for want of space (a full disk, a quota, or a file-size limit); SQLite rolled it back.
    case diskFull(path: String, context: String, reason: String)
    /// A write failed with an I/O error other than a full disk; SQLite rolled it back.
    case ioError(path: String, context: String, reason: String)
    case file(LedgerFileError)

    /// The error with every field key in its field replaced by `spelling(key)` and in its reason
    /// by `inReason(key)` (pieces of template): a part's keys nested under the part, a file's keys
    /// as their places (the whole place for the field, the path alone inside the reason).
    public func rekeyed(_ spelling: (String) -> String, inReason: (String) -> String) -> StoreError {
        func field(_ template: String) -> String { FieldKeys.rekey(template, spelling) }
        func reason(_ template: String) -> String { FieldKeys.rekey(template, inReason) }
        switch self {
        case .invalid(let key, let value, let why): return .invalid(field: field(key), value: value, reason: reason(why))
        case .malformed(let key, let value, let why): return .malformed(field: field(key), value: value, reason: reason(why))
        case .refused(let key, let value, let why, let remedy): return .refused(field: field(key), value: value, reason: reason(why), remedy: remedy)
        case .money(let key, let error): return .money(field: field(key), error)
        default: return self
        }
    }

    /// A malformed value as one the ledger cannot act on (`.invalid`), any other error as it is:
    /// what a value read from a file is, since the file's error is the file's (exit 1, named by line).
    public var asInvalid: StoreError {
        if case .malformed(let field, let value, let reason) = self { return .invalid(field: field, value: value, reason: reason) }
        return self
    }

    /// The error with every field key replaced by `spelling(key)`, in its field and its reason.
    public func rekeyed(_ spelling: (String) -> String) -> StoreError { rekeyed(spelling, inReason: spelling) }

    /// An account not found, or ambiguous, named as the `what` it was asked for (`category`):
    /// `category 'Nope': not found; see `capital category list``. Other errors as they are.
    public func named(_ what: String) -> StoreError {
        switch self {
        case .notFound("account", let reference, let hint):
            .notFound(what: what, reference: reference, hint: hint == .list("account") ? .list(what) : hint)
        case .ambiguous("account", let reference, let candidates): .ambiguous(what: what, reference: reference, candidates: candidates)
        default: self
        }
    }

    /// The error with the database's path filled in where it names none yet.

    func at(_ location: String) -> StoreError {
        if case .unreadable(nil, let field, let value, let reason) = self {
            return .unreadable(path: location, field: field, value: value, reason: reason)
        }
        return self
    }

    /// What would help, for the front end to put in its own words (commands, links, buttons).
    public enum Remedy: Sendable, Equatable {
        /// The listing of these records shows them (`tx`, `schedule`, `account`, `group`, `loan`, `card`, `deposit`).
        case list(String)
        /// Names that look like the one given.
        case didYouMean([String])
        /// There are no groups yet: add one.
        case noGroupsYet
        /// The account exists but has no terms of this kind (`loan`, `card`, `deposit`).
        case noTerms(account: String, kind: String)
        /// Every due payment, paid ones included, is listed with its number.
        case listAllDues
        /// The budgets are listed by category.
        case listBudgets
        /// Transaction ids are listed with the transactions.
        case listTransactions
        /// The accounts, categories among them, are listed.
        case seeAccounts
        /// A category with transactions: move them to another category, or hide it.
        case moveOrHideCategory(String)
        /// A category that schedules or budgets use: change or remove those, or hide it.
        case changeOrHideCategory(String)
        /// What is awaiting approval is shown by a dry run of posting.
        case dryRunPost
        /// A due payment without an account to pay from: name one, set one on the due or a default account.
        case setPayFrom(due: Int)
        /// A check of the database says what else is wrong.
        case check
        /// A check of the database says what is damaged.
        case checkDamage
        /// A ledger must be created (or imported) first.
        case initialize
        /// A ledger file is read-only: import it into a database to change it.
        case importFile(String)
        /// A bill's or fine's payments are recorded on it (its number).
        case payDue(Int)
        /// A settled flow stays settled by its transaction (its short id): removing it opens the
        /// flow; reopening it anyway (forced) counts both.
        case reopenSettled(transaction: String)

        /// The remedy in plain words, naming no command.
        public var plain: String {
            switch self {
            case .list(let what): "the \(what) listing shows them"
            case .didYouMean(let names): "did you mean \(names.map { "'\($0)'" }.joined(separator: ", "))?"
            case .noGroupsYet: "there are no groups yet"
            case .noTerms(let account, let kind): "account '\(account)' has no \(kind) terms"
            case .listAllDues: "the listing of all due payments shows them"
            case .listBudgets: "the budget listing shows the budgets"
            case .listTransactions: "of an id from the transaction listing"
            case .seeAccounts: "the account listing shows the categories"
            case .moveOrHideCategory: "move them to another category, or hide it"
            case .changeOrHideCategory: "change or remove those first, or hide it"
            case .dryRunPost: "a dry run of posting shows what awaits approval"
            case .setPayFrom: "name an account to pay from, or set one on the due payment or a default account"
            case .check: "check the database to see what else is wrong"
            case .checkDamage: "check the database to see what is damaged"
            case .initialize: "create or import a ledger first"
            case .importFile: "import it into a database to change it"
            case .payDue(let number): "record a payment on due #\(number)"
            case .reopenSettled(let id): "remove transaction \(id) to open the flow and count it once, or reopen it by force to count both"
            }
        }
    }

    /// The message with its field keys in braces and remedies in plain words.
    public var template: String { message(remedy: \.plain) }

    /// One line, keys as themselves: a line break in a quoted value (a rule written as a YAML
    /// block scalar) is escaped.
    public var description: String { FieldKeys.spell(template) { $0 }.singleLine }

    /// A value as an error quotes it: as a template literal, cut to 60 characters (a name of
    /// pages read from a file is not repeated whole).
    static func quoted(_ value: String) -> String { FieldKeys.literal(value.count > 60 ? value.prefix(59) + "…" : value) }

    /// The message with its field keys in braces and each remedy in `remedy`'s words.
    public func message(remedy: (Remedy) -> String) -> String {
        func literalRemedy(_ help: Remedy) -> String { FieldKeys.literal(remedy(help)) }
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return "{database} \(FieldKeys.literal(path)): cannot create its folder: \(FieldKeys.literal(reason))"
        case .cannotOpen(let path, let reason):
            return "{database} \(FieldKeys.literal(path)): cannot open the database: \(FieldKeys.literal(reason))"
        case .newerSchema(let path, let unknown):
            return
                "{database} \(FieldKeys.literal(path)): the database was written by a newer capital (unknown schema versions: \(FieldKeys.literal(unknown.joined(separator: ", ")))); upgrade capital — the file was left untouched"
        case .notCapitalDatabase(let path):
            return
                "{database} \(FieldKeys.literal(path)): this is not a capital database (it has tables but no capital schema); the file was left untouched"
        case .damaged(let path, let context, let reason):
            return
                "{database} \(FieldKeys.literal(path)): the database is damaged (SQLite: \(FieldKeys.literal(reason)), while \(FieldKeys.literal(context))); nothing was changed — \(literalRemedy(.checkDamage)), and restore a backup if you have one"
        case .cannotWriteBackup(let path, let reason):
            return "backup \(FieldKeys.literal(path)): cannot write the backup: \(reason)"
        case .unreadable(let path, let field, let value, let reason):
            return (path.map { "{database} \(FieldKeys.literal($0)): " } ?? "")
                + "\(field) '\(StoreError.quoted(value))' in the database: \(FieldKeys.literal(reason)); \(literalRemedy(.check))"
        case .notInitialized(let path):
            return "{database} \(FieldKeys.literal(path)): no ledger here yet; \(literalRemedy(.initialize))"
        case .alreadyInitialized(let path, let currency):
            return "{database} \(FieldKeys.literal(path)): already initialized (currency \(FieldKeys.literal(currency))); nothing was changed"
        case .notFound(let what, let reference, let hint):
            return "\(what) '\(StoreError.quoted(reference))': not found\(hint.map { "; " + literalRemedy($0) } ?? "")"
        case .ambiguous(let what, let reference, let candidates):
            return "\(what) '\(StoreError.quoted(reference))': ambiguous, it matches \(FieldKeys.literal(candidates.joined(separator: ", ")))"
        case .duplicateName(let what, let name):
            return "\(what) '\(FieldKeys.literal(name))': the name is already taken"
        case .invalid(let field, let value, let reason), .malformed(let field, let value, let reason):
            return "\(field) '\(StoreError.quoted(value))': \(reason)"
        case .refused(let field, let value, let reason, let help):
            return
                "\(field) '\(StoreError.quoted(value))': \(reason.isEmpty ? "" : reason + (help == .listTransactions ? " " : "; "))\(literalRemedy(help))"
        case .capitalIsProtected(let action):
            return "account '\(Account.capitalName)': the equity account always exists and cannot be \(FieldKeys.literal(action))"
        case .accountHasPostings(let name, let count):
            return
                "account '\(FieldKeys.literal(name))': it has \(count) posting\(count == 1 ? "" : "s"); choose {moveTo} ACCOUNT, {toCapital}, {hide}, or {cascade} (deletes its transactions)"
        case .currencyMismatch(let account, let accountCurrency, let amountCurrency):
            return
                "account '\(FieldKeys.literal(account))': it holds \(FieldKeys.literal(accountCurrency)), the amount is in \(FieldKeys.literal(amountCurrency))"
        case .conflict(let message):
            return message
        case .unexpected(let path, let context, let reason, let readOnly):
            return readOnly
                ? "\(FieldKeys.literal(path)): \(FieldKeys.literal(context)): \(FieldKeys.literal(reason))"
                : "{database} \(FieldKeys.literal(path)): \(FieldKeys.literal(context)): \(FieldKeys.literal(reason)); \(literalRemedy(.check))"
        case .ledger(let error):
            return "transaction: \(FieldKeys.literal("\(error)"))"
        case .money(let field, let error):
            return "\(field): \(FieldKeys.literal("\(error)"))"
        case .database(let context, let error):
            return
                "\(FieldKeys.literal(context)): SQLite error \(error.resultCode.rawValue): \(FieldKeys.literal(error.message ?? "\(error.resultCode)"))"
        case .readOnly(let path):
            return "\(FieldKeys.literal(path)) is a ledger file opened with {file}: it is read-only; \(literalRemedy(.importFile(path)))"
        case .databaseReadOnly(let path, let reason):
            return "{database} \(FieldKeys.literal(path)): the database is read-only (\(FieldKeys.literal(reason))); nothing was changed"
        case .diskFull(let path, let context, let reason):
            return
                "disk full while \(FieldKeys.literal(context)): cannot write \(FieldKeys.literal(path)) (\(FieldKeys.literal(reason))); nothing was changed"
        case .ioError(let path, let context, let reason):
            return
                "could not write \(FieldKeys.literal(path)) while \(FieldKeys.literal(context)): I/O error (\(FieldKeys.literal(reason))); the change was rolled back — check the disk"
        case .file(let error):
            return FieldKeys.literal(error.description)
        }
    }
}
