import CapitalCore
import CapitalStore

/// A ledger opened for answers about the future: the stored ledger plus the flows its loans,
/// cards, deposits, dues and budgets generate, laid out day by day in a timeline over a window.
///
/// What forecast, can-spend, when, the ladder, scenarios and the account screens all start from;
/// built once per request, then queried.
public struct Projection: Sendable {
    /// Where the ledger was read from (its names resolve accounts and groups).
    public let store: Store
    /// The ledger as stored.
    public let stored: Ledger
    /// The stored ledger with the transactions its instruments make.
    public let ledger: Ledger
    public let window: ForecastWindow
    public let timeline: Timeline

    /// Opens `store`'s ledger over a window from `today` to the last day `horizon` gives.
    /// - Parameter ignoringOverdue: leave out what was expected before today and is still open
    ///   (`Ledger.ignoringOverdue`) instead of counting it today.
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` when the horizon is not
    ///   one, or the engine cannot lay the ledger out.
    public init(
        store: Store, today: Day, horizon: (Day) throws -> Day, forecastCase: ForecastCase = .pessimistic, ignoringOverdue: Bool = false,
        rates: RateAssumptions = RateAssumptions()
    ) throws {
        // Rates from the pessimistic look-back's first day: the valuation reads none before it.
        let named = Set(rates.whatIf.keys).union(rates.ahead.map(\.currency))
        var stored = try store.snapshot(asOf: [today], rates: (today.advanced(by: -rates.lookBack), named))
        let last = try horizon(today)
        var window = ForecastWindow(today: today, horizon: last, calendars: try store.calendars(for: stored), forecastCase: forecastCase)
        window.rates = rates
        if ignoringOverdue { stored = stored.ignoringOverdue(today: today, calendars: window.calendars) }
        try self.init(store: store, stored: stored, window: window)
    }

    /// Lays `stored` out over `window`.
    public init(store: Store, stored: Ledger, window: ForecastWindow) throws(KitError) {
        self.store = store
        self.stored = stored
        self.window = window
        var valued = stored
        valued.rates = try window.rates.applied(to: stored.rates, today: window.today)
        do {
            ledger = try valued.forecastLedger(today: window.today, horizon: window.horizon, calendars: window.calendars)
            timeline = try Timeline.build(
                ledger, today: window.today, horizon: window.horizon, calendars: window.calendars, lookBack: window.rates.lookBack)
        } catch {
            throw .engine(context: "forecast", reason: KitError.template(error))
        }
    }

    public var today: Day { window.today }
    public var horizon: Day { window.horizon }
    public var currency: Currency { ledger.currency }

    /// An amount in the ledger's currency.
    public func money(_ minor: Int64) -> Money { Money(minor: minor, currency: ledger.currency) }

    /// The flows into a pool's accounts from `first` through `last` (inclusive), in day order.
    public func flows(into pool: Pool, from first: Day, through last: Day, _ forecastCase: ForecastCase) -> [FlowEvent] {
        guard first <= last else { return [] }
        let ids = Set(pool.indices.map { timeline.accounts[$0].id })
        return ledger.flows(into: ids, in: DayRange(first, last.advanced(by: 1)), today: today, calendars: window.calendars, forecastCase)
    }

    /// The inflows and outflows of a pool on each day from `first` through `last` (by offset from `first`).
    /// Flows into accounts in other currencies than the pool's are valued at their day's rate
    /// (summed per currency and day, then valued once).
    public func flowTotals(into pool: Pool, from first: Day, through last: Day, _ forecastCase: ForecastCase) throws(KitError) -> (
        inflow: [Int64], outflow: [Int64]
    ) {
        guard first <= last else { return ([], []) }
        let range = DayRange(first, last.advanced(by: 1))
        let ids = Set(pool.indices.map { timeline.accounts[$0].id })
        // One walk over the flows, split by currency.
        let byCurrency = ledger.flowTotalsByCurrency(into: ids, in: range, today: today, calendars: window.calendars, forecastCase)
        let zeros = [Int64](repeating: 0, count: range.count)
        var totals = byCurrency.first { $0.currency == pool.currency }?.totals ?? (inflow: zeros, outflow: zeros)
        for (foreign, flows) in byCurrency where foreign != pool.currency {
            guard let valuation = timeline.valuation else { continue }
            for i in 0..<range.count {
                let day = first.advanced(by: i)
                do {
                    totals.inflow[i] = saturatingSum(totals.inflow[i], try valuation.value(flows.inflow[i], in: foreign, on: day))
                    totals.outflow[i] = saturatingSum(totals.outflow[i], try valuation.value(flows.outflow[i], in: foreign, on: day))
                } catch {
                    throw .engine(context: "forecast", reason: KitError.template(error))
                }
            }
        }
        return totals
    }

    /// The largest outflows of a pool from `first` to the binding day (at most three, largest
    /// first) and the first inflow after it: what drives the balance down and what lifts it.
    /// - Complexity: O(flows to the horizon), keeping four of them.
    public func drivers(of pool: Pool, from first: Day, binding: Day, _ forecastCase: ForecastCase) -> (drivers: [FlowEvent], relief: FlowEvent?) {
        var selection = DriverSelection(binding: binding)
        forEachFlow(into: pool, from: first, through: horizon, forecastCase, where: { selection.wants($0, $1) }) { selection.offer($0) }
        return (selection.drivers.kept, selection.relief.kept.first)
    }

    /// Calls `body` with each flow into a pool's accounts from `first` through `last`, in no
    /// particular order (the same on every call), keeping none.
    /// - Parameter wanted: whether a flow of this day and amount is wanted at all (see `Ledger.forEachFlowEvent`).
    func forEachFlow(
        into pool: Pool, from first: Day, through last: Day, _ forecastCase: ForecastCase, where wanted: (Day, Int64) -> Bool = { _, _ in true },
        _ body: (FlowEvent) -> Void
    ) {
        guard first <= last else { return }
        // Flows in the pool's currency: a driver's amount is what it moves, not a valuation.
        let ids = Set(pool.indices.filter { timeline.accounts[$0].currency == pool.currency }.map { timeline.accounts[$0].id })
        ledger.forEachFlowEvent(
            into: ids, in: DayRange(first, last.advanced(by: 1)), today: today, calendars: window.calendars, forecastCase, where: wanted, body)
    }
}

extension Store {
    /// The working-day calendars `ledger`'s schedules and loans name.
    public func calendars(for ledger: Ledger) throws(StoreError) -> [String: WorkingDayCalendar] {
        var calendars: [String: WorkingDayCalendar] = [:]
        for name in Set(ledger.schedules.map(\.rule.calendar) + ledger.loans.map(\.calendar)) { calendars[name] = try calendar(name) }
        return calendars
    }

    /// The stored ledger with what its instruments make up to `day` (at least `today`): loans at
    /// their scheduled balance, their payments, deposit interest, card paybacks, value changes.
    /// What balances as of a day are read from.
    public func instrumentLedger(today: Day, through day: Day) throws -> Ledger {
        let stored = try snapshot(asOf: [today])
        return try instrumentLedger(stored, today: today, through: day, calendars: nil)
    }

    /// `stored` with what its instruments make up to `day` (at least `today`); `calendars` are
    /// read when not given.
    func instrumentLedger(_ stored: Ledger, today: Day, through day: Day, calendars: [String: WorkingDayCalendar]?) throws -> Ledger {
        if stored.loans.isEmpty && stored.cards.isEmpty && stored.deposits.isEmpty && !stored.accounts.contains(where: { $0.valueChange != nil }) {
            return stored
        }
        do {
            return try stored.forecastLedger(
                today: today, horizon: max(day, today), calendars: try calendars ?? self.calendars(for: stored), expected: false)
        } catch let error as InstrumentError { throw KitError.engine(context: "balance", reason: KitError.template(error)) }
    }
}
