/// Why an amount could not be parsed or computed.
public enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCurrency(String)
    case empty
    case notANumber(String, reason: String)
    case tooManyDecimals(String, currency: String, allowed: Int)
    case overflow(String)
    case currencyMismatch(String, String)

    /// One line, with any line break in the quoted input escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .unknownCurrency(let code):
            return "'\(code)' is not an ISO 4217 currency code"
        case .empty:
            return "an amount is required, got an empty value"
        case .notANumber(let text, let reason):
            return "'\(text)' is not an amount: \(reason)"
        case .tooManyDecimals(let text, let currency, let allowed):
            return "'\(text)' has too many decimals: \(currency) allows \(allowed)"
        case .overflow(let what):
            return "\(what) overflows the largest representable amount"
        case .currencyMismatch(let a, let b):
            return "cannot combine \(a) with \(b)"
        }
    }
}
