import CapitalCore

/// The few flows an answer names, picked from a long horizon's flows one at a time (no list of
/// every flow kept, none sorted): the first `limit` by an order, ties in the order the flows came.
///
/// What `flows(…).sorted(by:).prefix(limit)` gives on flows already in day-and-amount order,
/// when `areInOrder` orders by the key and then by day and amount.
struct FlowSelection {
    let limit: Int
    /// Strictly before, by the selection's key.
    let areInOrder: (FlowEvent, FlowEvent) -> Bool
    private(set) var kept: [FlowEvent] = []

    init(limit: Int, by areInOrder: @escaping (FlowEvent, FlowEvent) -> Bool) {
        self.limit = limit
        self.areInOrder = areInOrder
    }

    /// Keeps `event` if it is among the first `limit` so far; an event equal to a kept one goes after it.
    mutating func offer(_ event: FlowEvent) {
        guard limit > 0 else { return }
        if kept.count == limit, let last = kept.last, !areInOrder(event, last) { return }
        var index = kept.count
        while index > 0 && areInOrder(event, kept[index - 1]) { index -= 1 }
        kept.insert(event, at: index)
        if kept.count > limit { kept.removeLast() }
    }
}

extension FlowSelection {
    /// Day, then amount: `flows`' order.
    static func dayAndAmount(_ a: FlowEvent, _ b: FlowEvent) -> Bool { (a.day, a.amount) < (b.day, b.amount) }
}
