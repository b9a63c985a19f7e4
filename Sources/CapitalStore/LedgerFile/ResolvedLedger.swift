import CapitalCore

/// A ledger file turned into ledger values, with every check an import makes: accounts,
/// groups, transactions, schedules, instruments, dues and budgets, ready to be answered from
/// (`-f`) or inserted (`import`).
///
/// Made by `LedgerDocument.resolve()` (onto nothing) or by an import (onto a database's ledger,
/// where it holds what the file adds).
public struct ResolvedLedger: Sendable {
    /// The file it was read from.
    public let file: String
    /// What the file adds to the ledger it was resolved onto.
    public internal(set) var summary = ImportSummary()

    var settings: [String: String] = [:]
    /// Keys of the settings the file sets, in the order it set them.
    var changedSettings: [String] = []
    /// Every live account, the ledger's and the file's, in position order.
    var accounts: [Account] = []
    var addedAccounts: Set<String> = []
    /// Accounts of the ledger the file gives the colour or icon they lacked.
    var restyled: [String] = []
    var groups: [AccountGroup] = []
    var addedGroups: Set<String> = []
    var addedMembers: [(group: String, account: String)] = []
    /// Days the ledger and the file add to shipped calendars.
    var calendarDays: [CalendarDay] = []
    var addedCalendarDays: [CalendarDay] = []
    var transactions: [Transaction] = []
    /// Per added transaction id: the key of the statement line it stands for (account id, then the line's key).
    var statementKeys: [String: String] = [:]
    var schedules: [ResolvedSchedule] = []
    var loans: [LedgerLoan] = []
    var cards: [LedgerCard] = []
    var deposits: [LedgerDeposit] = []
    var dues: [Due] = []
    var budgets: [Budget] = []
    var rates: [ExchangeRate] = []

    struct CalendarDay: Sendable {
        var calendar: String
        var day: Day
        var holiday: Bool
        var name: String
    }

    struct ResolvedSchedule: Sendable {
        var schedule: Schedule
        var handledThrough: Day
        var position: Int
        var posted: [(day: Day, mark: FlowMark)]
    }

    /// Per loan, deposit, card or budget id: its payments, credits, paybacks or periods no longer open.
    var flowMarks: [String: [(day: Day, mark: FlowMark)]] = [:]

    /// The marks of the file's schedules, loans, deposits and budgets.
    var marks: [FlowKey: FlowMark] {
        var marks: [FlowKey: FlowMark] = [:]
        for resolved in schedules {
            for (day, mark) in resolved.posted { marks[FlowKey(kind: .schedule, instrumentID: resolved.schedule.id, day: day)] = mark }
        }
        var kinds: [String: ExpectedKind] = [:]
        for deposit in deposits { kinds[deposit.id] = .deposit }
        for budget in budgets { kinds[budget.id] = .budget }
        for card in cards { kinds[card.id] = .card }
        for (id, entries) in flowMarks {
            for (day, mark) in entries { marks[FlowKey(kind: kinds[id] ?? .loan, instrumentID: id, day: day)] = mark }
        }
        return marks
    }

    init(file: String) { self.file = file }

    /// The ledger the file describes, as a database holding only it would give it back.
    public var ledger: Ledger {
        get throws(StoreError) {
            guard let code = settings["currency"] else { throw .notInitialized(path: file) }
            let currency: Currency
            do { currency = try Currency(code) } catch {
                throw .unexpected(path: file, context: "reading the ledger", reason: "\(error)", readOnly: true)
            }
            // Stored order: transactions by day then id, budgets by category name then id,
            // instruments by their account's name then id (`Store.inListingOrder`),
            // exceptions by day. Transactions already in that order (as capital writes files) are
            // taken as they are: sorting a million of them copied each twice.
            let inOrder = transactions.indices.dropFirst().allSatisfy {
                (transactions[$0 - 1].day, transactions[$0 - 1].id) <= (transactions[$0].day, transactions[$0].id)
            }
            var ledger = Ledger(
                currency: currency, accounts: accounts, groups: groups,
                transactions: inOrder ? transactions : transactions.sorted { ($0.day, $0.id) < ($1.day, $1.id) },
                schedules: schedules.sorted { $0.position < $1.position }.map { resolved in
                    var schedule = resolved.schedule
                    schedule.exceptions.sort { $0.original < $1.original }
                    return schedule
                })
            for resolved in schedules {
                ledger.scheduleStates[resolved.schedule.id] = ScheduleState(
                    handledThrough: resolved.handledThrough, posted: Set(resolved.posted.map(\.day)))
            }
            let names = Dictionary(accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            (ledger.loans, ledger.cards, ledger.deposits) = (
                Store.inListingOrder(loans, account: \.accountID, names: names), Store.inListingOrder(cards, account: \.accountID, names: names),
                Store.inListingOrder(deposits, account: \.accountID, names: names)
            )
            if ledger.loans.contains(where: { !(flowMarks[$0.id] ?? []).isEmpty }) {
                let byID = Dictionary(transactions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                for index in ledger.loans.indices {
                    let loan = ledger.loans[index]
                    for (day, mark) in flowMarks[loan.id] ?? [] {
                        guard let id = mark.transactionID, let transaction = byID[id], mark.state == .posted || mark.state == .settled else {
                            continue
                        }
                        let paid = transaction.postings.reduce(Int64(0)) {
                            $1.accountID == loan.accountID || $1.accountID == loan.interestCategoryID ? saturatingSum($0, $1.amount.minor) : $0
                        }
                        ledger.loans[index].payments[day] = RecordedLoanPayment(transactionID: id, amount: paid)
                    }
                }
            }
            ledger.flowMarks = flowMarks.mapValues { Set($0.map(\.day)) }
            ledger.dues = dues.sorted { $0.number < $1.number }
            ledger.budgets = Store.inListingOrder(budgets, categoryNames: names)
            ledger.rates = rates.sorted { ($0.currency.code, $0.day) < ($1.currency.code, $1.day) }
            ledger.defaultAccountID = settings["defaultAccount"]
            return ledger
        }
    }

    /// The shipped calendar `name` with the days the ledger adds to it.
    public func calendar(_ name: String) throws(StoreError) -> WorkingDayCalendar {
        do { return try Store.workingDayCalendar(LedgerDraft(self), name) } catch let error as StoreError { throw error } catch {
            throw .unexpected(path: file, context: "reading calendars", reason: "\(error)", readOnly: true)
        }
    }

    /// The calendar-setting the ledger uses when a schedule names none.
    public var defaultCalendar: String { settings["calendar"] ?? "none" }
}

/// The records of the ledger a file is resolved onto that the resolution looks up one by one:
/// none for `-f`, the database's for an import.
protocol LedgerLookup {
    /// The transaction with `id`: whether it was deleted, and the live one.
    func transaction(_ id: String) throws -> (deleted: Bool, live: Transaction?)?
    /// Whether any transaction (live or deleted) is stored: when none is, an import need not look
    /// each of its transactions up.
    func holdsTransactions() throws -> Bool
    /// Whether a record of `table` with `id` exists only as deleted.
    func isDeleted(_ table: String, _ id: String) throws -> Bool
    func schedule(_ id: String) throws -> Schedule?
    func scheduleNameTaken(_ nameKey: String) throws -> Bool
    func nextSchedulePosition() throws -> Int
    func instrumentExists(in table: String, onAccount accountID: String, except id: String) throws -> Bool
    func loan(_ id: String) throws -> LedgerLoan?
    func card(_ id: String) throws -> LedgerCard?
    func deposit(_ id: String) throws -> LedgerDeposit?
    func due(_ id: String) throws -> Due?
    func lastDueNumber() throws -> Int
    /// The live rate of `currency` on `day`.
    func rate(_ currency: Currency, on day: Day) throws -> ExchangeRate?
    /// The live rate with `id`.
    func rate(_ id: String) throws -> ExchangeRate?
    func budget(_ id: String) throws -> Budget?
    func budget(onCategory categoryID: String) throws -> Budget?
    /// The sums of an account's positive and of its negative postings, by currency; nil when a sum
    /// is already past what Int64 holds.
    func postingSums(_ accountID: String) throws -> [String: (positive: Int64, negative: Int64)]?
}

/// No ledger: what `-f` resolves a file onto.
struct NoLedger: LedgerLookup {
    func transaction(_ id: String) -> (deleted: Bool, live: Transaction?)? { nil }
    func holdsTransactions() -> Bool { false }
    func isDeleted(_ table: String, _ id: String) -> Bool { false }
    func schedule(_ id: String) -> Schedule? { nil }
    func scheduleNameTaken(_ nameKey: String) -> Bool { false }
    func nextSchedulePosition() -> Int { 1 }
    func instrumentExists(in table: String, onAccount accountID: String, except id: String) -> Bool { false }
    func loan(_ id: String) -> LedgerLoan? { nil }
    func card(_ id: String) -> LedgerCard? { nil }
    func deposit(_ id: String) -> LedgerDeposit? { nil }
    func due(_ id: String) -> Due? { nil }
    func lastDueNumber() -> Int { 0 }
    func rate(_ currency: Currency, on day: Day) -> ExchangeRate? { nil }
    func rate(_ id: String) -> ExchangeRate? { nil }
    func budget(_ id: String) -> Budget? { nil }
    func budget(onCategory categoryID: String) -> Budget? { nil }
    func postingSums(_ accountID: String) -> [String: (positive: Int64, negative: Int64)]? { [:] }
}

/// A ledger file being resolved: the values made so far over the ledger it joins. What the
/// record builders check against, as they check against the database.
final class LedgerDraft: LedgerContext {
    var content: ResolvedLedger
    let lookup: any LedgerLookup
    private var index: AccountIndex?

    init(_ content: ResolvedLedger, lookup: any LedgerLookup = NoLedger()) {
        self.content = content
        self.lookup = lookup
    }

    func recordSetting(_ key: String) -> String? { content.settings[key] }

    func setSetting(_ key: String, _ value: String) {
        content.settings[key] = value
        content.changedSettings.append(key)
    }

    func accountIndex() -> AccountIndex {
        if let index { return index }
        let made = AccountIndex(content.accounts)
        index = made
        return made
    }

    func calendarDays(of calendar: String) -> (holidays: [Day], workdays: [Day]) {
        let key = calendar.lowercased()
        var holidays: [Day] = []
        var workdays: [Day] = []
        for entry in content.calendarDays where entry.calendar.lowercased() == key {
            if entry.holiday { holidays.append(entry.day) } else { workdays.append(entry.day) }
        }
        return (holidays, workdays)
    }

    func instrumentExists(in table: String, onAccount accountID: String, except id: String) throws -> Bool {
        let added: [(id: String, account: String)]
        switch table {
        case "loan": added = content.loans.map { ($0.id, $0.accountID) }
        case "card": added = content.cards.map { ($0.id, $0.accountID) }
        default: added = content.deposits.map { ($0.id, $0.accountID) }
        }
        if added.contains(where: { $0.account == accountID && $0.id != id }) { return true }
        return try lookup.instrumentExists(in: table, onAccount: accountID, except: id)
    }

    func addAccount(_ account: Account) throws {
        if accountIndex()[name: account.name] != nil { throw StoreError.duplicateName(what: "account", name: account.name) }
        content.accounts.append(account)
        content.addedAccounts.insert(account.id)
        index?.insert(account)
    }

    /// Changes an account in place (the file's fields for the equity account it created, a
    /// colour or icon for one of the ledger's).
    func updateAccount(_ account: Account) {
        guard let position = content.accounts.firstIndex(where: { $0.id == account.id }) else { return }
        content.accounts[position] = account
        index?.replace(account)
    }
}
