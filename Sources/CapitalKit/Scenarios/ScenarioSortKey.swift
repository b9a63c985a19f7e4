import CapitalCore

/// What scenario results are ranked by: the smaller key first; rows that failed have none and go last.
public enum ScenarioSortKey: String, Sendable, CaseIterable {
    case maxPrice = "max-price", worstBalance = "worst-balance", totalCost = "total-cost"

    /// The key of `outcome` (largest price, safest balance or cheapest plan first); nil for a row that failed.
    public func key(_ outcome: ScenarioOutcome) -> Int64? {
        guard let result = outcome.value else { return nil }
        switch self {
        case .maxPrice: return -result.maxPrice
        case .worstBalance: return -result.worstHeadroom
        case .totalCost: return result.totalCost
        }
    }

    /// Whether a row with key `a` at place `first` goes before one with key `b` at place `second`:
    /// by key, rows that failed last, equal keys in input order (a stable sort).
    public static func precedes(_ a: Int64?, _ first: Int, _ b: Int64?, _ second: Int) -> Bool {
        if let x = a, let y = b, x != y { return x < y }
        if (a == nil) != (b == nil) { return a != nil }
        return first < second
    }

    /// `outcomes` ranked by this key, stably.
    public func sorted(_ outcomes: [ScenarioOutcome]) -> [ScenarioOutcome] {
        let keyed = outcomes.enumerated().map { (key: key($0.element), offset: $0.offset, outcome: $0.element) }
        return keyed.sorted { Self.precedes($0.key, $0.offset, $1.key, $1.offset) }.map(\.outcome)
    }
}

extension ScenarioOutcome {
    /// The result, or nil for a row that failed.
    public var value: ScenarioResult? { try? result.get() }
}
