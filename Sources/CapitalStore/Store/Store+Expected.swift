import CapitalCore
import GRDB

/// What became of an expected flow that is no longer open, as the store keeps it.
public struct FlowMark: Hashable, Sendable {
    public var state: ExpectedState
    /// The transaction that stands for it (posted or settled); nil when skipped.
    public var transactionID: String?

    public init(state: ExpectedState, transactionID: String?) {
        self.state = state
        self.transactionID = transactionID
    }
}

/// Names an expected flow: its kind, its schedule's, loan's, card's, deposit's or due's id, its key day.
public struct FlowKey: Hashable, Sendable {
    public var kind: ExpectedKind
    public var instrumentID: String
    public var day: Day

    public init(kind: ExpectedKind, instrumentID: String, day: Day) {
        self.kind = kind
        self.instrumentID = instrumentID
        self.day = day
    }

    /// The key of `flow`.
    public init(_ flow: ExpectedFlow) { self.init(kind: flow.kind, instrumentID: flow.instrumentID, day: flow.key) }
}

extension Store {
    /// The marks of every expected flow that is posted, settled or skipped. A mark whose
    /// transaction was removed no longer counts: the flow is open again.
    public func expectedMarks() throws(StoreError) -> [FlowKey: FlowMark] {
        if let file = resolvedFile { return file.marks }
        return try read("reading expected flows") { db in try Store.fetchMarks(db) }
    }

    static func fetchMarks(_ db: Database) throws -> [FlowKey: FlowMark] {
        var marks: [FlowKey: FlowMark] = [:]
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.kind, m.instrumentId, m.day, m.state, m.txnId FROM expectedMark m
                    LEFT JOIN txn ON txn.id = m.txnId WHERE m.txnId IS NULL OR txn.deleted = 0
                    """))
        for row in rows {
            guard let kind = ExpectedKind(rawValue: row["kind"]), let state = ExpectedState(rawValue: row["state"]) else {
                throw StoreError.damaged(
                    path: "", context: "reading expected flows",
                    reason: "expectedMark holds kind '\(row["kind"] as String)' state '\(row["state"] as String)'")
            }
            marks[FlowKey(kind: kind, instrumentID: row["instrumentId"], day: Day(row["day"]))] = FlowMark(state: state, transactionID: row["txnId"])
        }
        return marks
    }

    /// Records what became of a flow (replacing a mark left by a removed transaction).
    static func mark(_ db: Database, _ key: FlowKey, _ mark: FlowMark) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO expectedMark(kind, instrumentId, day, state, txnId) VALUES (?, ?, ?, ?, ?)").execute(
            arguments: [key.kind.rawValue, key.instrumentID, key.day.number, mark.state.rawValue, mark.transactionID])
    }

    /// The schedules' states from their handled days and marks; the loans', deposits', budgets' and cards' marks.
    static func fetchStates(_ db: Database, into ledger: inout Ledger) throws {
        var made: [ExpectedKind: [String: Set<Day>]] = [:]
        for (key, _) in try fetchMarks(db) { made[key.kind, default: [:]][key.instrumentID, default: []].insert(key.day) }
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, handledThrough FROM schedule WHERE deleted = 0")) {
            let id: String = row["id"]
            ledger.scheduleStates[id] = ScheduleState(handledThrough: Day(row["handledThrough"]), posted: made[.schedule]?[id] ?? [])
        }
        for kind in [ExpectedKind.loan, .deposit, .budget, .card] { ledger.flowMarks.merge(made[kind] ?? [:]) { a, b in a.union(b) } }
    }

    /// The ledger as `snapshot` reads it, inside a transaction already open: every posted
    /// transaction, or with `days` only those answers as of any of these days need (`History`);
    /// every rate, or with `rates` only those valuing its accounts' currencies (and the others
    /// named) from a day on.
    static func fetchLedger(
        _ db: Database, location: String, asOf days: [Day]? = nil, rates: (from: Day, currencies: Set<Currency>)? = nil
    ) throws -> Ledger {
        var ledger = try fetchLedgerRecords(db, location: location, rates: rates)
        if let days, let first = History.firstListedDay(of: ledger, asOf: days) {
            try History.read(db, from: first, into: &ledger)
        } else {
            ledger.transactions = try Store.fetchTransactions(db)
        }
        return ledger
    }

    /// The ledger's records without its posted transactions, inside a transaction already open.
    static func fetchLedgerRecords(_ db: Database, location: String, rates window: (from: Day, currencies: Set<Currency>)? = nil) throws
        -> Ledger
    {
        var ledger = Ledger(
            currency: try Store.ledgerCurrency(db, location: location), accounts: try Store.fetchAccounts(db),
            groups: try Store.fetchGroups(db), schedules: try Store.fetchSchedules(db))
        try fetchStates(db, into: &ledger)
        ledger.loans = try Store.fetchLoans(db)
        ledger.cards = try Store.fetchCards(db)
        ledger.deposits = try Store.fetchDeposits(db)
        ledger.dues = try Store.fetchDues(db)
        ledger.budgets = try Store.fetchBudgets(db)
        if let window {
            let held = Set(ledger.accounts.map(\.currency)).union(window.currencies).subtracting([ledger.currency])
            ledger.rates = try Store.fetchRates(db, of: held, from: window.from)
        } else {
            ledger.rates = try Store.fetchRates(db)
        }
        ledger.defaultAccountID = try Store.setting(db, "defaultAccount")
        return ledger
    }

    /// The calendars `ledger`'s schedules and loans name, inside a transaction already open.
    static func fetchCalendars(_ db: Database, for ledger: Ledger) throws -> [String: WorkingDayCalendar] {
        var calendars: [String: WorkingDayCalendar] = [:]
        for name in Set(ledger.schedules.map(\.rule.calendar) + ledger.loans.map(\.calendar)) {
            calendars[name] = try workingDayCalendar(db, name)
        }
        return calendars
    }
}
