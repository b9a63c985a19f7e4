import CapitalCore
import GRDB

/// Why a store operation failed. Messages name the field, the value and the reason, on one line.
public enum StoreError: Error, CustomStringConvertible {
    case cannotCreateFolder(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case newerSchema(path: String, unknown: [String])
    case notCapitalDatabase(path: String)
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
    case diskFull(context: String)
    case file(LedgerFileError)

    /// One line: a line break in a quoted value (a rule written as a YAML block scalar) is escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return "--db \(path): cannot create its folder: \(reason)"
        case .cannotOpen(let path, let reason):
            return "--db \(path): cannot open the database: \(reason)"
        case .newerSchema(let path, let unknown):
            return "--db \(path): the database was written by a newer capital (unknown schema versions: \(unknown.joined(separator: ", "))); upgrade capital — the file was left untouched"
        case .notCapitalDatabase(let path):
            return "--db \(path): this is not a capital database (it has tables but no capital schema); the file was left untouched"
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
            return "account '\(name)': it has \(count) posting\(count == 1 ? "" : "s"); choose --move-to ACCOUNT, --to-capital, --hide, or --cascade (deletes its transactions)"
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
        case .diskFull(let context):
            return "disk full while \(context); nothing was changed"
        case .file(let error):
            return error.description
        }
    }
}
