/// A value refused for a field: the field's key in braces (`{dueDay}`), the value as given, and
/// why. What cards, deposits, asset value changes and account styles throw.
public enum FieldError: KeyedError, Equatable, Sendable {
    case invalid(field: String, value: String, reason: String)

    /// The message, its field keys in braces.
    public var template: String {
        switch self {
        case .invalid(let field, let value, let reason): "\(field) '\(FieldKeys.literal(value))': \(reason)"
        }
    }
}
