/// Why a scenario cannot be evaluated.
public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `field` names the scenario's part (`price`, `down payment`, `loan term`, `instalments`,
    /// `day`, ...), `value` the input as given.
    case invalid(field: String, value: String, reason: String)
    /// The scenario's amounts added up past the largest amount capital can hold.
    case overflow

    public var description: String {
        switch self {
        case .invalid(let field, let value, let reason):
            return "\(field) '\(value)': \(reason)"
        case .overflow:
            return "the scenario's amounts overflow the largest amount capital can hold"
        }
    }
}
