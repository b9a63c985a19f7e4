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

    /// Whether an event with this amount could be kept, for a selection whose order starts with
    /// the amount, smallest first (`false` only when it cannot).
    func mayKeep(amountAtMost amount: Int64) -> Bool { kept.count < limit || amount <= kept[kept.count - 1].amount }

    /// The same, for an order that starts with the magnitude of the amount, largest first.
    func mayKeep(magnitudeAtLeast amount: Int64) -> Bool { kept.count < limit || amount.magnitude >= kept[kept.count - 1].amount.magnitude }

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

/// What drives a pool down to its binding day and what lifts it after, picked from its flows one
/// at a time: the three largest outflows up to the binding day (largest first, then by day) and
/// the first inflow after it.
struct DriverSelection {
    let binding: Day
    var drivers = FlowSelection(limit: 3) { ($0.amount, $0.day) < ($1.amount, $1.day) }
    var relief = FlowSelection(limit: 1, by: FlowSelection.dayAndAmount)

    init(binding: Day) { self.binding = binding }

    /// Whether a flow of this day and amount could change the selection.
    func wants(_ day: Day, _ amount: Int64) -> Bool {
        if day <= binding { return amount < 0 && drivers.mayKeep(amountAtMost: amount) }
        return amount > 0 && (relief.kept.isEmpty || day <= relief.kept[0].day)
    }

    mutating func offer(_ event: FlowEvent) {
        if event.day <= binding {
            if event.amount < 0 { drivers.offer(event) }
        } else if event.amount > 0 {
            relief.offer(event)
        }
    }
}

/// The flows worth a mark on a chart of a pool: each month's largest inflow (paydays) and the
/// twelve largest outflows, picked one at a time.
struct LandmarkSelection {
    /// The month of each day of the window, by offset from its first day.
    private let months: [Int32]
    private let first: Day
    private var paydays: [FlowEvent?]
    private var outflows = FlowSelection(limit: 12, by: LandmarkSelection.largestFirst)

    /// Larger amounts first, then earlier days, then smaller amounts (an order of their own for ties).
    static func largestFirst(_ a: FlowEvent, _ b: FlowEvent) -> Bool {
        (a.amount.magnitude, b.day, b.amount) > (b.amount.magnitude, a.day, a.amount)
    }

    init(days: DayRange) {
        first = days.start
        var months: [Int32] = []
        months.reserveCapacity(max(0, days.count))
        let start = days.start.civil
        var day = days.start
        while day < days.end {
            let civil = day.civil
            months.append(Int32((civil.year - start.year) * 12 + civil.month - start.month))
            day = day.advanced(by: 1)
        }
        self.months = months
        paydays = Array(repeating: nil, count: Int(months.last ?? 0) + 1)
    }

    /// Whether a flow of this day and amount could change the selection.
    func wants(_ day: Day, _ amount: Int64) -> Bool {
        let offset = day.number - first.number
        guard offset >= 0, offset < months.count else { return false }
        if amount > 0 {
            guard let kept = paydays[Int(months[offset])] else { return true }
            return amount >= kept.amount
        }
        return outflows.mayKeep(magnitudeAtLeast: amount)
    }

    mutating func offer(_ event: FlowEvent) {
        let offset = event.day.number - first.number
        guard offset >= 0, offset < months.count else { return }
        if event.amount > 0 {
            let month = Int(months[offset])
            if let kept = paydays[month], !LandmarkSelection.largestFirst(event, kept) { return }
            paydays[month] = event
        } else {
            outflows.offer(event)
        }
    }

    /// The marks in day order: the paydays (their twelve largest when there are more than 24
    /// months of them) and the outflows.
    var landmarks: [FlowEvent] {
        var inflows = paydays.compactMap { $0 }
        if inflows.count > 24 {
            var largest = FlowSelection(limit: 12, by: LandmarkSelection.largestFirst)
            for event in inflows { largest.offer(event) }
            inflows = largest.kept
        }
        return (inflows + outflows.kept).sorted(by: FlowSelection.dayAndAmount)
    }
}
