import CapitalCore
import GRDB

/// Whether a transaction being recorded stands for an expected flow.
public enum Settling: Sendable, Equatable {
    /// It stands for none.
    case none
    /// It settles the flow `reference` names (`Mortgage@2025-04-05`), whatever its amount.
    case named(String)
    /// It settles the open flow nearest its day, within `days` before or after, that moves the
    /// same accounts by the same amount (or within a ranged schedule's range).
    case match(days: Int)
}

/// An expected flow a recorded transaction settled.
public struct Settlement: Sendable, Equatable {
    public var flow: ExpectedFlow
    /// The schedule's name, or the loan's (its account's).
    public var name: String
    /// What the flow expected and what the transaction moves (minor units).
    public var expected: Int64
    public var recorded: Int64
    /// Named by `--settles`, not matched.
    public var named: Bool

    /// `Mortgage@2025-04-05`: the flow's name and key day, as `--settles` and `expected skip` take it.
    public var reference: String { Store.flowReference(name: name, key: flow.key) }
}

/// A transaction as edited, and what became of the expected flows it stood for.
public struct TransactionEdit: Sendable, Equatable {
    public var transaction: Transaction
    /// Flows it stood for and no longer fits (it moves other accounts, or the other way): open again.
    public var reopened: [ExpectedEntry]
    /// The open flow it now settles, matched as a new transaction would be (when it stood for none).
    public var settled: Settlement?
}

/// An expected flow with its names, state and what stands for it.
public struct ExpectedEntry: Sendable, Equatable {
    public var flow: ExpectedFlow
    /// The schedule's name, or the loan's (its account's).
    public var name: String
    public var state: ExpectedState
    /// The transaction that posted or settled it.
    public var transactionID: String?

    public var reference: String { Store.flowReference(name: name, key: flow.key) }
}

extension Store {
    /// `NAME@YYYY-MM-DD`.
    public static func flowReference(name: String, key: Day) -> String { "\(name)@\(key.iso)" }

    /// The name and the day of a `NAME@YYYY-MM-DD` reference, checked for its form only.
    /// - Throws: `StoreError.invalid(field:)` when there is no `@` or what follows is not a date.
    public static func parseFlowReference(_ reference: String, field: String) throws(StoreError) -> (name: String, day: Day) {
        guard let at = reference.lastIndex(of: "@") else {
            throw StoreError.malformed(
                field: field, value: reference, reason: "expected NAME@YYYY-MM-DD (a schedule's, a loan's or a deposit's name and the day)")
        }
        do { return (String(reference[..<at]), try Day(input: String(reference[reference.index(after: at)...]))) } catch {
            throw StoreError.malformed(field: field, value: reference, reason: "the day after '@' is not a date YYYY-MM-DD")
        }
    }

    /// What a budget's flows go by: `Groceries budget` (its category's name would be a schedule's too).
    public static func budgetFlowName(_ category: String) -> String { "\(category) budget" }

    /// Records a balanced transaction that may settle an expected flow: named, or matched.
    /// All or nothing: a `named` flow that does not fit refuses the transaction too.
    /// - Throws: `StoreError.invalid(field: "{settles}")` for a reference that names no flow, a
    ///   flow already posted, settled or skipped, or one moving other accounts.
    public func addTransaction(_ input: TransactionInput, settling: Settling) throws(StoreError) -> (Transaction, Settlement?) {
        try write("adding a transaction") { db in
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            var transaction = try Store.build(accounts, id: Store.newID(), input)
            try Store.insertTransaction(db, transaction, accounts)
            let settlement = try Store.settle(db, &transaction, settling, location: location)
            try Store.checkBalancesFit(db, accountIDs: Set(transaction.postings.map(\.accountID)))
            return (transaction, settlement)
        }
    }

    /// Marks `reference`'s flow skipped: the forecast no longer counts it and `post` never writes it.
    /// - Throws: `StoreError.invalid(field: "{reference}")` for no such flow, or one a transaction stands for.
    public func skipExpected(_ reference: String) throws(StoreError) -> ExpectedEntry {
        try write("skipping '\(reference)'") { db in
            let (ledger, calendars, marks) = try Store.expectedContext(db, location: location)
            var entry = try Store.resolveFlow(reference, ledger: ledger, calendars: calendars, marks: marks, field: "{reference}")
            try Store.refuseOwnRecords(entry, reference, field: "{reference}")
            if entry.state != .open { throw StoreError.invalid(field: "{reference}", value: reference, reason: Store.notOpen(entry)) }
            try Store.mark(db, FlowKey(entry.flow), FlowMark(state: .skipped, transactionID: nil))
            entry.state = .skipped
            return entry
        }
    }

    /// Opens `reference`'s flow again: skipped, or settled (with `force`: the transaction stays,
    /// no longer standing for it, so what it moves counts besides the open flow).
    /// - Returns: the flow, open, and the id of the transaction that settled it and stays recorded
    ///   (nil for a skipped flow).
    /// - Throws: `StoreError.invalid(field: "{reference}")` for no such flow, one already open, or
    ///   a posted one (its transaction is capital's own: removing it opens the flow);
    ///   `StoreError.refused(field: "{reference}")` for a settled one without `force`, naming its
    ///   transaction (removing that transaction opens the flow and counts it once).
    public func reopenExpected(_ reference: String, force: Bool = false) throws(StoreError) -> (entry: ExpectedEntry, staying: String?) {
        try write("reopening '\(reference)'") { db in
            let (ledger, calendars, marks) = try Store.expectedContext(db, location: location)
            var entry = try Store.resolveFlow(reference, ledger: ledger, calendars: calendars, marks: marks, field: "{reference}")
            try Store.refuseOwnRecords(entry, reference, field: "{reference}")
            switch entry.state {
            case .open: throw StoreError.invalid(field: "{reference}", value: reference, reason: "it is open already")
            case .posted, .handled: throw StoreError.invalid(field: "{reference}", value: reference, reason: Store.notOpen(entry))
            case .settled where !force:
                let id = Store.shortID(entry.transactionID ?? "")
                throw StoreError.refused(
                    field: "{reference}", value: reference,
                    reason: "it is settled by transaction \(id), which stays recorded: reopened, \(entry.name) would count twice",
                    remedy: .reopenSettled(transaction: id))
            case .settled, .skipped: break
            }
            let staying = entry.state == .settled ? entry.transactionID : nil
            let key = FlowKey(entry.flow)
            try db.cachedStatement(sql: "DELETE FROM expectedMark WHERE kind = ? AND instrumentId = ? AND day = ?").execute(arguments: [
                key.kind.rawValue, key.instrumentID, key.day.number,
            ])
            entry.state = .open
            entry.transactionID = nil
            return (entry, staying)
        }
    }

    /// The expected flows whose day falls in `range`, each with its state; `today` decides which
    /// payments of a loan that never said how far its history goes are made.
    public func expectedEntries(in range: DayRange, today: Day) throws(StoreError) -> [ExpectedEntry] {
        let ledger = try snapshot()
        var calendars: [String: WorkingDayCalendar] = [:]
        for name in Set(ledger.schedules.map(\.rule.calendar) + ledger.loans.map(\.calendar)) { calendars[name] = try calendar(name) }
        let marks = try expectedMarks()
        return try Store.entries(in: range, today: today, ledger: ledger, calendars: calendars, marks: marks)
    }

    // MARK: Helpers

    /// Whether a live schedule, loan or deposit moves any of `accountIDs`: only then can a transaction on
    /// them match an expected flow.
    static func expectsFlows(_ db: Database, into accountIDs: Set<String>) throws -> Bool {
        let ids = Array(accountIDs)
        let marks = databaseQuestionMarks(count: ids.count)
        let sql = """
            SELECT EXISTS (SELECT 1 FROM schedulePosting p JOIN schedule s ON s.id = p.scheduleId
                WHERE s.deleted = 0 AND p.accountId IN (\(marks)))
            OR EXISTS (SELECT 1 FROM loan WHERE deleted = 0 AND (accountId IN (\(marks)) OR payFromId IN (\(marks))))
            OR EXISTS (SELECT 1 FROM deposit WHERE deleted = 0 AND (accountId IN (\(marks)) OR payoutId IN (\(marks))))
            """
        return try Bool.fetchOne(db, sql: sql, arguments: StatementArguments(ids + ids + ids + ids + ids)) ?? true
    }

    /// A bill's or fine's payments are its own records, not a mark on it; a card's payback is what
    /// it owes, paid by transfers to it (skipped, not settled); a budget's period is used up by
    /// spending (skipped, not settled).
    static func refuseOwnRecords(_ entry: ExpectedEntry, _ reference: String, field: String) throws {
        if entry.flow.kind == .budget && field == "{settles}" {
            throw StoreError.invalid(
                field: field, value: reference,
                reason: "a budget's period is used up by what is spent on its category, not settled by one transaction")
        }
        if entry.flow.kind == .card && field == "{settles}" {
            throw StoreError.invalid(
                field: field, value: reference, reason: "a card's payback is what it owes: a transfer to the card pays it, and the payback follows")
        }
        guard entry.flow.kind == .due else { return }
        let number = Int(entry.flow.payee.split(separator: "#").last?.prefix { $0.isNumber } ?? "") ?? 0
        throw StoreError.refused(
            field: field, value: reference, reason: "it is bill or fine #\(number): its payments are recorded on it", remedy: .payDue(number))
    }

    /// Why a flow that is not open cannot be settled, skipped or (posted or handled) reopened.
    static func notOpen(_ entry: ExpectedEntry) -> String {
        if entry.flow.kind == .due { return "it is paid in full" }
        switch entry.state {
        case .open: return "it is open"
        case .posted: return "it is already posted by transaction \(shortID(entry.transactionID ?? "")): remove that transaction to open it again"
        case .settled: return "it is already settled by transaction \(shortID(entry.transactionID ?? ""))"
        case .skipped: return "it is already skipped"
        case .handled: return "it is before the day its schedule, loan or deposit was taken over (handled through): counted as recorded"
        }
    }

    static func expectedContext(
        _ db: Database, location: String, asOf days: [Day]? = nil
    ) throws -> (Ledger, [String: WorkingDayCalendar], [FlowKey: FlowMark]) {
        let ledger = try fetchLedger(db, location: location, asOf: days)
        return (ledger, try fetchCalendars(db, for: ledger), try fetchMarks(db))
    }

    static func entries(
        in range: DayRange, today: Day, ledger: Ledger, calendars: [String: WorkingDayCalendar], marks: [FlowKey: FlowMark],
        kinds: Set<ExpectedKind> = Set(ExpectedKind.allCases)
    ) throws(StoreError) -> [ExpectedEntry] {
        let names = Dictionary(ledger.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var instrumentNames = Dictionary(ledger.schedules.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        for loan in ledger.loans { instrumentNames[loan.id] = names[loan.accountID] ?? loan.id }
        for due in ledger.dues { instrumentNames[due.id] = due.reason }
        for card in ledger.cards { instrumentNames[card.id] = names[card.accountID] ?? card.id }
        for deposit in ledger.deposits { instrumentNames[deposit.id] = names[deposit.accountID] ?? deposit.id }
        for budget in ledger.budgets { instrumentNames[budget.id] = Store.budgetFlowName(names[budget.categoryID] ?? budget.id) }
        let flows: [ExpectedFlow]
        do { flows = try ledger.expectedFlows(in: range, today: today, calendars: calendars, kinds: kinds) } catch {
            throw StoreError.invalid(field: "loan", value: "", reason: error.template)
        }
        return flows.map { flow in
            let mark = marks[FlowKey(flow)]
            // Made by the history the schedule or loan was added with; a due by its payments.
            // The rest of payments made short shares its key with the first of them, not its mark.
            let state = flow.isRest ? .open : mark?.state ?? (flow.isOpen ? .open : flow.kind == .due ? .settled : .handled)
            return ExpectedEntry(
                flow: flow, name: instrumentNames[flow.instrumentID] ?? flow.instrumentID, state: state,
                transactionID: flow.isRest ? nil : mark?.transactionID)
        }
    }

    /// The flow `reference` (`NAME@DATE`: a schedule's, a loan's or a deposit's name, the flow's key day or the
    /// day it falls on) names.
    static func resolveFlow(
        _ reference: String, ledger: Ledger, calendars: [String: WorkingDayCalendar], marks: [FlowKey: FlowMark], field: String
    ) throws -> ExpectedEntry {
        let (name, day) = try parseFlowReference(reference, field: field)
        // A flow moved by a working-day adjustment or an exception lands within a month of its key day.
        let window = DayRange(day.advanced(by: -31), day.advanced(by: 32))
        let named = try entries(in: window, today: day, ledger: ledger, calendars: calendars, marks: marks).filter {
            nameKey($0.name) == nameKey(name)
        }
        if named.isEmpty {
            let accountIDs = Set(ledger.loans.map(\.accountID) + ledger.deposits.map(\.accountID))
            let budgetIDs = Set(ledger.budgets.map(\.categoryID))
            let names =
                ledger.schedules.map(\.name) + ledger.accounts.filter { accountIDs.contains($0.id) }.map(\.name)
                + ledger.accounts.filter { budgetIDs.contains($0.id) }.map { budgetFlowName($0.name) }
            if !names.contains(where: { nameKey($0) == nameKey(name) }) {
                throw StoreError.invalid(
                    field: field, value: reference, reason: "no schedule, loan, deposit or budget is named '\(FieldKeys.literal(name))'")
            }
            throw StoreError.invalid(field: field, value: reference, reason: "'\(FieldKeys.literal(name))' expects nothing within a month of \(day)")
        }
        let payments = named.filter { !$0.flow.isRest }
        guard let entry = payments.first(where: { $0.flow.key == day }) ?? payments.first(where: { $0.flow.day == day }) else {
            let near = named.min { abs($0.flow.day.number - day.number) < abs($1.flow.day.number - day.number) }!
            throw StoreError.invalid(
                field: field, value: reference, reason: "'\(FieldKeys.literal(name))' expects nothing on \(day); the nearest is \(near.reference)")
        }
        return entry
    }

    /// Settles what `settling` says with `transaction` (already inserted), splitting a loan
    /// payment's principal from its interest when the transaction moved it all to the loan.
    static func settle(_ db: Database, _ transaction: inout Transaction, _ settling: Settling, location: String) throws -> Settlement? {
        if settling == .none { return nil }
        // Matching needs the whole ledger; most entries touch no account a schedule or loan moves.
        if case .match = settling, try !expectsFlows(db, into: Set(transaction.postings.map(\.accountID))) { return nil }
        // Matching looks at flows around the transaction's day: the history before is summed up.
        let asOf: [Day]? = if case .match(let days) = settling { [transaction.day.advanced(by: -days)] } else { nil }
        var (ledger, calendars, marks) = try expectedContext(db, location: location, asOf: asOf)
        // The flows as they were expected before this transaction: a deposit's interest follows
        // what was recorded on it.
        ledger.transactions.removeAll { $0.id == transaction.id }
        let fits = Fitting(ledger, transaction)
        let amount = transaction.amount
        var chosen: ExpectedEntry
        var named = false
        switch settling {
        case .none: return nil
        case .named(let reference):
            named = true
            chosen = try resolveFlow(reference, ledger: ledger, calendars: calendars, marks: marks, field: "{settles}")
            try refuseOwnRecords(chosen, reference, field: "{settles}")
            if chosen.state != .open { throw StoreError.invalid(field: "{settles}", value: reference, reason: notOpen(chosen)) }
            guard fits(chosen.flow) else {
                let names = Dictionary(ledger.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                var accounts = fits.moves(chosen.flow.postings, balanceSheet: false).keys.compactMap { names[$0] }.sorted().map {
                    "'\(FieldKeys.literal($0))'"
                }
                let last = accounts.removeLast()
                throw StoreError.invalid(
                    field: "{settles}", value: reference,
                    reason:
                        "it moves \(accounts.isEmpty ? last : accounts.joined(separator: ", ") + " and " + last); this transaction does not move them the same way"
                )
            }
        case .match(let days):
            let window = DayRange(transaction.day.advanced(by: -days), transaction.day.advanced(by: days + 1))
            let amounts = Dictionary(ledger.schedules.map { ($0.id, $0.amount) }, uniquingKeysWith: { a, _ in a })
            let candidates = try entries(
                in: window, today: transaction.day, ledger: ledger, calendars: calendars, marks: marks, kinds: [.schedule, .loan, .deposit]
            )
            .filter { entry in
                // A payment to the loan pays the rest of short payments without standing for it.
                guard entry.state == .open, !entry.flow.isRest, fits(entry.flow) else { return false }
                if entry.flow.kind == .schedule, let model = amounts[entry.flow.instrumentID] ?? nil, !model.isFixed {
                    return amount >= model.low && amount <= model.high
                }
                return amount == entry.flow.amount
            }
            guard
                let nearest = candidates.min(by: {
                    abs($0.flow.day.number - transaction.day.number) < abs($1.flow.day.number - transaction.day.number)
                })
            else {
                try splitLoanRest(db, &transaction, ledger: ledger, calendars: calendars)
                return nil
            }
            chosen = nearest
        }
        if chosen.flow.kind == .loan, let loan = ledger.loans.first(where: { $0.id == chosen.flow.instrumentID }) {
            try splitLoanPayment(db, &transaction, loan: loan, flow: chosen.flow)
        }
        if chosen.flow.kind == .deposit, let deposit = ledger.deposits.first(where: { $0.id == chosen.flow.instrumentID }) {
            try splitDepositPayout(db, &transaction, deposit: deposit, flow: chosen.flow)
        }
        try mark(db, FlowKey(chosen.flow), FlowMark(state: .settled, transactionID: transaction.id))
        return Settlement(flow: chosen.flow, name: chosen.name, expected: chosen.flow.amount, recorded: amount, named: named)
    }

    /// After an edit of `edit.transaction`: the flows it stood for that it no longer fits are open
    /// again, and one it still stands for is split as recording it would split it (a loan payment
    /// moved whole to the loan); one that stands for none then is matched as a new transaction would be.
    static func resettle(_ db: Database, _ edit: inout TransactionEdit, matchDays: Int, location: String) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT kind, instrumentId, day FROM expectedMark WHERE txnId = ?", arguments: [edit.transaction.id])
        if !rows.isEmpty { try reopenUnfitting(db, &edit, rows, location: location) }
        if edit.reopened.count == rows.count {
            edit.settled = try settle(db, &edit.transaction, .match(days: matchDays), location: location)
        }
    }

    /// The marks `rows` names of `edit.transaction`: kept (and split) while it fits their flows, else removed.
    private static func reopenUnfitting(_ db: Database, _ edit: inout TransactionEdit, _ rows: [Row], location: String) throws {
        var (ledger, calendars, marks) = try expectedContext(db, location: location)
        ledger.transactions.removeAll { $0.id == edit.transaction.id }
        let fits = Fitting(ledger, edit.transaction)
        for row in rows {
            guard let kind = ExpectedKind(rawValue: row["kind"]) else { continue }
            let key = FlowKey(kind: kind, instrumentID: row["instrumentId"], day: Day(row["day"]))
            let window = DayRange(key.day.advanced(by: -31), key.day.advanced(by: 32))
            let found = try entries(in: window, today: key.day, ledger: ledger, calendars: calendars, marks: marks, kinds: [kind]).first {
                FlowKey($0.flow) == key
            }
            guard var entry = found else { continue }
            if fits(entry.flow) {
                if let loan = ledger.loans.first(where: { $0.id == key.instrumentID }), kind == .loan {
                    try splitLoanPayment(db, &edit.transaction, loan: loan, flow: entry.flow)
                }
                if let deposit = ledger.deposits.first(where: { $0.id == key.instrumentID }), kind == .deposit {
                    try splitDepositPayout(db, &edit.transaction, deposit: deposit, flow: entry.flow)
                }
                continue
            }
            try db.cachedStatement(sql: "DELETE FROM expectedMark WHERE kind = ? AND instrumentId = ? AND day = ?").execute(arguments: [
                key.kind.rawValue, key.instrumentID, key.day.number,
            ])
            entry.state = .open
            entry.transactionID = nil
            edit.reopened.append(entry)
        }
    }

    /// A payment recorded whole to the loan's account is its principal and its interest: the
    /// posting is split (interest first, up to the payment's), as `post` would have written it.
    static func splitLoanPayment(_ db: Database, _ transaction: inout Transaction, loan: LedgerLoan, flow: ExpectedFlow) throws {
        guard !transaction.postings.contains(where: { $0.accountID == loan.interestCategoryID }),
            let index = transaction.postings.firstIndex(where: { $0.accountID == loan.accountID }),
            transaction.postings[index].amount.minor > 0
        else { return }
        let paid = transaction.postings[index].amount
        let interest = min(flow.postings.first { $0.accountID == loan.interestCategoryID }?.amount.minor ?? 0, paid.minor)
        guard interest > 0 else { return }
        transaction.postings[index].amount.minor = paid.minor - interest
        transaction.postings.insert(
            Posting(accountID: loan.interestCategoryID, amount: Money(minor: interest, currency: paid.currency)), at: index)
        if transaction.postings[index + 1].amount.minor == 0 { transaction.postings.remove(at: index + 1) }
        try db.execute(sql: "DELETE FROM posting WHERE txnId = ?", arguments: [transaction.id])
        try insertPostings(db, transaction)
    }

    /// A payment to a loan's account that stands for none of its payments pays what payments made
    /// short left owed (`Ledger.loanRest`), interest first: recorded whole to the loan, the interest
    /// they left unpaid (up to what it pays) goes to the loan's category, as `post` writes the rest.
    static func splitLoanRest(_ db: Database, _ transaction: inout Transaction, ledger: Ledger, calendars: [String: WorkingDayCalendar]) throws {
        for loan in ledger.loans {
            guard !transaction.postings.contains(where: { $0.accountID == loan.interestCategoryID }),
                let index = transaction.postings.firstIndex(where: { $0.accountID == loan.accountID }),
                transaction.postings[index].amount.minor > 0, !loan.payments.isEmpty,
                let rows = try? loan.schedule(calendar: calendars[loan.calendar] ?? .none).rows
            else { continue }
            let state = loan.state(in: ledger, today: transaction.day, rows: rows)
            guard let rest = ledger.loanRest(loan, rows: rows, state: state), rest.interest > 0 else { continue }
            let paid = transaction.postings[index].amount
            let interest = min(rest.interest, paid.minor)
            transaction.postings[index].amount.minor = paid.minor - interest
            // The loan's posting stays, at 0 when the interest takes it all: what was paid to the loan since counts it.
            transaction.postings.insert(
                Posting(accountID: loan.interestCategoryID, amount: Money(minor: interest, currency: paid.currency)), at: index)
            try db.execute(sql: "DELETE FROM posting WHERE txnId = ?", arguments: [transaction.id])
            try insertPostings(db, transaction)
            return
        }
    }

    /// A payout recorded as a transfer of the whole sum out of the deposit pays out its last
    /// interest too: the interest (up to what was moved) is taken from the interest category, as
    /// `post` would have written it, so the deposit ends at what its other postings leave.
    static func splitDepositPayout(_ db: Database, _ transaction: inout Transaction, deposit: LedgerDeposit, flow: ExpectedFlow) throws {
        guard !transaction.postings.contains(where: { $0.accountID == deposit.interestCategoryID }),
            let index = transaction.postings.firstIndex(where: { $0.accountID == deposit.accountID }),
            transaction.postings[index].amount.minor < 0
        else { return }
        let moved = transaction.postings[index].amount
        let interest = min(-(flow.postings.first { $0.accountID == deposit.interestCategoryID }?.amount.minor ?? 0), -moved.minor)
        guard interest > 0 else { return }
        transaction.postings[index].amount.minor = moved.minor + interest
        transaction.postings.insert(
            Posting(accountID: deposit.interestCategoryID, amount: Money(minor: -interest, currency: moved.currency)), at: index + 1)
        if transaction.postings[index].amount.minor == 0 { transaction.postings.remove(at: index) }
        try db.execute(sql: "DELETE FROM posting WHERE txnId = ?", arguments: [transaction.id])
        try insertPostings(db, transaction)
    }
}

/// Whether a recorded transaction can stand for an expected flow: it moves the flow's
/// balance-sheet accounts the same way, and nothing the flow does not (a loan payment recorded
/// whole to the loan leaves out its interest).
struct Fitting {
    let kinds: [String: AccountKind]
    /// What the transaction moves.
    var recorded: [String: Bool] = [:]

    init(_ ledger: Ledger, _ transaction: Transaction) {
        kinds = Dictionary(ledger.accounts.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
        recorded = moves(transaction.postings, balanceSheet: false)
    }

    /// The accounts a set of postings moves (balance-sheet ones only, or all), with the direction.
    func moves(_ postings: [Posting], balanceSheet: Bool) -> [String: Bool] {
        var sums: [String: Int64] = [:]
        for posting in postings where !balanceSheet || kinds[posting.accountID]?.isBalanceSheet == true {
            sums[posting.accountID, default: 0] = saturatingSum(sums[posting.accountID, default: 0], posting.amount.minor)
        }
        return sums.filter { $0.value != 0 }.mapValues { $0 > 0 }
    }

    func callAsFunction(_ flow: ExpectedFlow) -> Bool {
        let expected = moves(flow.postings, balanceSheet: false)
        return moves(flow.postings, balanceSheet: true).allSatisfy { recorded[$0.key] == $0.value }
            && recorded.allSatisfy { expected[$0.key] == $0.value }
    }
}
