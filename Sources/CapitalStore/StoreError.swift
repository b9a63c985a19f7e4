import CapitalCore
import GRDB

/// Why a store operation failed. Messages name the field, the value and the reason, on one line.
public enum StoreError: Error, CustomStringConvertible {
    case cannotCreateFolder(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case newerSchema(path: String, unknown: [String])
    case notCapitalDatabase(path: String)
    /// SQLite found the file damaged (a malformed page, a truncated file) while `context`.
    case damaged(path: String, context: String, reason: String)
    case cannotWriteBackup(path: String, reason: String)
    /// A stored value the program cannot take in (an account kind that is not one): the file was
    /// changed behind capital's back, or damaged. Thrown with `path` nil; the store fills it in.
    case unreadable(path: String?, field: String, value: String, reason: String)
    case notInitialized(path: String)
    case alreadyInitialized(path: String, currency: String)
    case notFound(what: String, reference: String, hint: String)
    case ambiguous(what: String, reference: String, candidates: [String])
    case duplicateName(what: String, name: String)
    case invalid(field: String, value: String, reason: String)
    case capitalIsProtected(action: String)
    case accountHasPostings(name: String, count: Int)
    case currencyMismatch(account: String, accountCurrency: String, amountCurrency: String)
    case conflict(String)
    case ledger(LedgerError)
    case money(field: String, MoneyError)
    case database(context: String, DatabaseError)
    case readOnly(path: String)
    /// A write failed for want of space (a full disk, a quota, or a file-size limit); SQLite rolled it back.
    case diskFull(path: String, context: String, reason: String)
    /// A write failed with an I/O error other than a full disk; SQLite rolled it back.
    case ioError(path: String, context: String, reason: String)
    case file(LedgerFileError)

    /// The error with the database's path filled in where it names none yet.
    func at(_ location: String) -> StoreError {
        if case .unreadable(nil, let field, let value, let reason) = self {
            return .unreadable(path: location, field: field, value: value, reason: reason)
        }
        return self
    }

    /// One line: a line break in a quoted value (a rule written as a YAML block scalar) is escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return "--db \(path): cannot create its folder: \(reason)"
        case .cannotOpen(let path, let reason):
            return "--db \(path): cannot open the database: \(reason)"
        case .newerSchema(let path, let unknown):
            return
                "--db \(path): the database was written by a newer capital (unknown schema versions: \(unknown.joined(separator: ", "))); upgrade capital — the file was left untouched"
        case .notCapitalDatabase(let path):
            return "--db \(path): this is not a capital database (it has tables but no capital schema); the file was left untouched"
        case .damaged(let path, let context, let reason):
            return
                "--db \(path): the database is damaged (SQLite: \(reason), while \(context)); nothing was changed — run `capital check` to see what is damaged, and restore a backup if you have one"
        case .cannotWriteBackup(let path, let reason):
            return "backup \(path): cannot write the backup: \(reason)"
        case .unreadable(let path, let field, let value, let reason):
            return (path.map { "--db \($0): " } ?? "")
                + "\(field) '\(value)' in the database: \(reason); run `capital check` to see what else is wrong"
        case .notInitialized(let path):
            return "--db \(path): no ledger here yet; run `capital init` (or `capital import FILE`) first"
        case .alreadyInitialized(let path, let currency):
            return "--db \(path): already initialized (currency \(currency)); nothing was changed"
        case .notFound(let what, let reference, let hint):
            return "\(what) '\(reference)': not found\(hint.isEmpty ? "" : "; \(hint)")"
        case .ambiguous(let what, let reference, let candidates):
            return "\(what) '\(reference)': ambiguous, it matches \(candidates.joined(separator: ", "))"
        case .duplicateName(let what, let name):
            return "\(what) '\(name)': the name is already taken"
        case .invalid(let field, let value, let reason):
            return "\(field) '\(value)': \(reason)"
        case .capitalIsProtected(let action):
            return "account '\(Account.capitalName)': the equity account always exists and cannot be \(action)"
        case .accountHasPostings(let name, let count):
            return
                "account '\(name)': it has \(count) posting\(count == 1 ? "" : "s"); choose --move-to ACCOUNT, --to-capital, --hide, or --cascade (deletes its transactions)"
        case .currencyMismatch(let account, let accountCurrency, let amountCurrency):
            return "account '\(account)': it holds \(accountCurrency), the amount is in \(amountCurrency)"
        case .conflict(let message):
            return message
        case .ledger(let error):
            return "transaction: \(error)"
        case .money(let field, let error):
            return "\(field): \(error)"
        case .database(let context, let error):
            return "\(context): SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
        case .readOnly(let path):
            return "\(path) is a ledger file opened with -f: it is read-only; import it with `capital import \(path)` to change it"
        case .diskFull(let path, let context, let reason):
            return "disk full while \(context): cannot write \(path) (\(reason)); nothing was changed"
        case .ioError(let path, let context, let reason):
            return "could not write \(path) while \(context): I/O error (\(reason)); the change was rolled back — check the disk"
        case .file(let error):
            return error.description
        }
    }
}
