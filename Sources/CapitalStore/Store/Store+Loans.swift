import CapitalCore
import GRDB

/// A loan as a user writes it (`loan add`, a ledger file's `loans:`): account names, amounts as text.
public struct LoanInput: Sendable {
    /// The liability account; created (kind `loan`) when there is none of that name.
    public var account: String
    public var payFrom: String
    /// The expense category of the interest; `Loan interest` when nil.
    public var category: String?
    /// Where the money arrives if the loan starts after today; the paying account when nil.
    public var disburseTo: String?
    public var collateral: String?
    public var principal: String
    public var rate: String
    public var term: Int
    public var start: Day
    public var firstPayment: Day?
    public var method: LoanMethod = .annuity
    public var dayCount: DayCount = .thirty360
    public var rounding: Rounding = .halfUp
    public var calendar = "none"
    public var adjustment: BusinessDayAdjustment = .none
    public var prepayments: [PrepaymentInput] = []
    /// Payments up to this day (before adjustment) were made before capital knew the loan; nil:
    /// every payment before today counts as made (`LedgerLoan.handledThrough`).
    public var handledThrough: Day?

    public init(account: String, payFrom: String, principal: String, rate: String, term: Int, start: Day) {
        self.account = account
        self.payFrom = payFrom
        self.principal = principal
        self.rate = rate
        self.term = term
        self.start = start
    }
}

/// An early repayment as written: one-off on `day`, or recurring by `every` from `day` to `until`.
public struct PrepaymentInput: Sendable {
    public var day: Day
    /// nil with `full`.
    public var amount: String?
    public var full = false
    public var effect: PrepaymentEffect = .term
    /// A rule (readable or RRULE) for a recurring extra payment.
    public var every: String?
    public var until: Day?

    public init(day: Day, amount: String?) {
        self.day = day
        self.amount = amount
    }
}

/// `firstPayment` → `{firstPayment}`: a field named by key, for the front end to spell (`FieldKeys`).
@Sendable public func fieldKey(_ key: String) -> String { "{\(key)}" }

/// The terms an account can hold that `Store.removeTerms` removes; the raw value is their table.
public enum Terms: String, Sendable, CaseIterable {
    case loan, card, deposit
}

extension Store {
    // MARK: Reading

    /// Every live loan, by its account's name and then id (`inListingOrder`).
    public func loans() throws(StoreError) -> [LedgerLoan] {
        try read("listing loans") { db in try Store.fetchLoans(db) }
    }

    /// A loan by its account's name (case-insensitive) or id prefix.
    public func loan(_ reference: String) throws(StoreError) -> LedgerLoan {
        try read("finding a loan") { db in try Store.resolveLoan(db, reference) }
    }

    // MARK: Writing

    /// Adds a loan, creating its liability account when there is none of that name.
    @discardableResult
    public func addLoan(_ input: LoanInput) throws(StoreError) -> LedgerLoan {
        try write("adding loan '\(input.account)'") { db in
            let loan = try Store.buildLoan(db, id: Store.newID(), input, accounts: AccountIndex(try Store.fetchAccounts(db)))
            try Store.insertLoan(db, loan)
            return loan
        }
    }

    /// Adds an early repayment to a loan and checks the schedule still holds; with `dryRun` nothing
    /// is saved. Returns the loan before and after.
    public func prepayLoan(_ reference: String, _ input: PrepaymentInput, dryRun: Bool) throws(StoreError) -> (before: LedgerLoan, after: LedgerLoan)
    {
        let body = { (db: Database) throws -> (LedgerLoan, LedgerLoan) in
            let before = try Store.resolveLoan(db, reference)
            let account = try Store.fetchAccounts(db, id: before.accountID)!
            var after = before
            try Store.addPrepayment(input, to: &after, currency: account.currency)
            _ = try Store.checkedSchedule(db, after, currency: account.currency)
            if !dryRun {
                try Store.savePrepayments(db, after)
                try db.cachedStatement(sql: "UPDATE loan SET updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                    Timestamp.now(), after.id,
                ])
            }
            return (before, after)
        }
        return dryRun ? try read("trying a prepayment", body) : try write("prepaying loan '\(reference)'", body)
    }

    /// Removes the terms of kind `terms` (a loan's, a card's, a deposit's) on the account
    /// `reference` names (or an id prefix): a soft delete, which sync carries. The account and
    /// every posted transaction stay. Returns the terms' id and account.
    public func removeTerms(_ terms: Terms, _ reference: String) throws(StoreError) -> (id: String, accountID: String) {
        try write("removing \(terms.rawValue) '\(reference)'") { db in
            let found: (id: String, accountID: String)
            switch terms {
            case .loan:
                let loan = try Store.resolveLoan(db, reference)
                found = (loan.id, loan.accountID)
            case .card:
                let card = try Store.resolveInstrument(db, reference, what: "card") {
                    try Store.fetchCards(db, filter: "AND accountId = ?", arguments: [$0])
                }
                found = (card.id, card.accountID)
            case .deposit:
                let deposit = try Store.resolveInstrument(db, reference, what: "deposit") {
                    try Store.fetchDeposits(db, filter: "AND accountId = ?", arguments: [$0])
                }
                found = (deposit.id, deposit.accountID)
            }
            try db.cachedStatement(sql: "UPDATE \(terms.rawValue) SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(
                arguments: [Timestamp.now(), found.id])
            return found
        }
    }

    // MARK: Helpers

    /// The terms of `input` in `currency`: what `loan schedule` computes without a database.
    public static func loanTerms(_ input: LoanInput, currency: Currency) throws(StoreError) -> Loan {
        let principal: Money
        do { principal = try Money(parsing: input.principal, currency: currency) } catch { throw .money(field: fieldKey("principal"), error) }
        guard principal.minor > 0 else { throw .malformed(field: fieldKey("principal"), value: input.principal, reason: "must be more than 0") }
        let rate: Rate
        do { rate = try Rate(parsing: input.rate) } catch .invalidRate(_, let reason) {
            throw .malformed(field: fieldKey("rate"), value: input.rate, reason: reason)
        } catch { throw .malformed(field: fieldKey("rate"), value: input.rate, reason: FieldKeys.literal("\(error)")) }
        do {
            return try Loan(
                principal: principal.minor, rate: rate, term: input.term, start: input.start, firstPayment: input.firstPayment, method: input.method,
                dayCount: input.dayCount, rounding: input.rounding, adjustment: input.adjustment)
        } catch .invalid(let field, let value, let reason) {
            let key = ["principal": "principal", "term": "term", "first payment": "firstPayment", "adjust": "adjust"][field] ?? field
            throw .malformed(field: fieldKey(key), value: key == "principal" ? input.principal : value, reason: reason)
        } catch {
            throw .malformed(field: fieldKey("principal"), value: input.principal, reason: FieldKeys.literal("\(error)"))
        }
    }

    /// A prepayment added to `loan`: one-off, or a recurring extra payment.
    static func addPrepayment(_ input: PrepaymentInput, to loan: inout LedgerLoan, currency: Currency) throws {
        var minor: Int64 = 0
        if let text = input.amount {
            guard !input.full else {
                throw StoreError.malformed(field: fieldKey("amount"), value: text, reason: "give an amount or {full}, not both")
            }
            do { minor = try Money(parsing: text, currency: currency).minor } catch { throw StoreError.money(field: fieldKey("amount"), error) }
            guard minor > 0 else { throw StoreError.malformed(field: fieldKey("amount"), value: text, reason: "must be more than 0") }
        } else if !input.full {
            throw StoreError.malformed(field: fieldKey("amount"), value: "", reason: "give the amount to repay, or {full} to pay the loan off")
        }
        if let every = input.every {
            guard !input.full else {
                throw StoreError.malformed(field: fieldKey("every"), value: every, reason: "a full payoff happens once; leave out every")
            }
            let rule = try parseRule(
                every, calendar: loan.calendar, adjustment: loan.terms.adjustment == .none ? nil : loan.terms.adjustment, field: fieldKey("every"))
            if let until = input.until, until < input.day {
                throw StoreError.malformed(field: fieldKey("until"), value: until.iso, reason: "it is before the first extra payment \(input.day)")
            }
            loan.extras.append(LoanExtra(amount: minor, rule: rule, start: input.day, end: input.until, effect: input.effect))
        } else {
            if let until = input.until {
                throw StoreError.malformed(field: fieldKey("until"), value: until.iso, reason: "goes with a recurring payment (every RULE)")
            }
            loan.terms.prepayments.append(LoanPrepayment(day: input.day, amount: minor, effect: input.effect, full: input.full))
        }
    }

    /// The loan's schedule, or a one-line error naming the prepayment that does not fit.
    /// The loan's schedule, or an error naming the field at fault; `part` names the prepayment of a
    /// day when the loan's own input holds it (`prepayments.1`).
    static func checkedSchedule(
        _ db: some LedgerContext, _ loan: LedgerLoan, currency: Currency, part: (Day) -> String? = { _ in nil }
    ) throws -> LoanSchedule {
        let calendar = try workingDayCalendar(db, loan.calendar)
        func money(_ minor: Int64) -> String { Money(minor: minor, currency: currency).formatted() }
        func field(_ key: String, _ day: Day) -> String { part(day).map { "{\($0).\(key)}" } ?? fieldKey(key) }
        do {
            return try loan.schedule(calendar: calendar)
        } catch .prepaymentTooLarge(let day, let amount, let remaining) {
            throw StoreError.invalid(
                field: field("amount", day), value: money(amount),
                reason: "not less than the \(money(remaining)) left on \(day); pay the loan off in full instead (\(field("full", day)))")
        } catch .prepaymentBeforeStart(let day, let start) {
            throw StoreError.invalid(field: field("on", day), value: day.iso, reason: "the loan starts on \(start); a prepayment must come after")
        } catch .prepaymentAfterPayoff(let day, let payoff) {
            throw StoreError.invalid(field: field("on", day), value: day.iso, reason: "the loan is paid off on \(payoff)")
        } catch {
            throw StoreError.invalid(field: fieldKey("principal"), value: money(loan.terms.principal), reason: FieldKeys.literal("\(error)"))
        }
    }

    static func buildLoan(_ db: some LedgerContext, id: String, _ input: LoanInput, accounts: AccountIndex) throws -> LedgerLoan {
        let f = fieldKey
        try validateName(input.account, field: f("account"))
        let payFrom = try balanceAccount(accounts, input.payFrom, field: f("payFrom"))
        var account = try instrumentAccount(db, accounts, input.account, kind: .loan, table: "loan", id: id, field: f("account"))
        if let existing = account {
            guard existing.currency == payFrom.currency else {
                throw StoreError.currencyMismatch(
                    account: payFrom.name, accountCurrency: payFrom.currency.code, amountCurrency: existing.currency.code)
            }
        }
        let currency = account?.currency ?? payFrom.currency
        let terms = try loanTerms(input, currency: currency)
        let disburseTo = try input.disburseTo.map { try balanceAccount(accounts, $0, field: f("disburseTo")) }
        if let disburseTo, disburseTo.currency != currency {
            throw StoreError.currencyMismatch(account: disburseTo.name, accountCurrency: disburseTo.currency.code, amountCurrency: currency.code)
        }
        let collateral = try input.collateral.map { try balanceAccount(accounts, $0, field: f("collateral")) }
        let calendarName: String
        do { calendarName = try workingDayCalendar(db, input.calendar).name } catch StoreError.malformed(_, let value, let reason) {
            throw StoreError.malformed(field: f("calendar"), value: value, reason: reason)
        }
        // Everything checked: now create what is missing.
        let category = try category(db, accounts, input.category, default: "Loan interest", kind: .expense, currency: currency, field: f("category"))
        if account == nil { account = try created(db, Account(id: newID(), name: input.account, kind: .loan, currency: currency)) }
        var loan = LedgerLoan(
            id: id, accountID: account!.id, payFromID: payFrom.id, interestCategoryID: category.id, disburseToID: disburseTo?.id,
            collateralID: collateral?.id, calendar: calendarName, terms: terms, handledThrough: input.handledThrough)
        for (index, prepayment) in input.prepayments.enumerated() {
            // A loan's own prepayments are parts of it: `{prepayments.0.amount}`.
            do { try addPrepayment(prepayment, to: &loan, currency: currency) } catch let error as StoreError {
                throw error.rekeyed { "{prepayments.\(index).\($0)}" }
            }
        }
        // A refused prepayment is named by its day: the one-off one of that day, else (a recurring
        // extra payment's later occurrence) the first prepayment, as loans always named it.
        _ = try checkedSchedule(db, loan, currency: currency) { day in
            guard !input.prepayments.isEmpty else { return nil }
            return "prepayments.\(input.prepayments.firstIndex { $0.day == day && $0.every == nil } ?? 0)"
        }
        return loan
    }

    static func insertLoan(_ db: Database, _ loan: LedgerLoan) throws {
        let now = Timestamp.now()
        let t = loan.terms
        try db.cachedStatement(
            sql: """
                INSERT INTO loan(id, createdAt, updatedAt, accountId, payFromId, categoryId, disburseToId, collateralId, principal, ratePerMillion,
                    term, start, firstPayment, method, dayCount, rounding, adjustment, calendar, handledThrough)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            loan.id, now, now, loan.accountID, loan.payFromID, loan.interestCategoryID, loan.disburseToID, loan.collateralID, t.principal,
            t.rate.perMillion, t.term, t.start.number, t.firstPayment.number, t.method.rawValue, t.dayCount.rawValue, t.rounding.rawValue,
            t.adjustment.rawValue, loan.calendar, loan.handledThrough?.number,
        ])
        try savePrepayments(db, loan)
    }

    static func savePrepayments(_ db: Database, _ loan: LedgerLoan) throws {
        try db.cachedStatement(sql: "DELETE FROM loanPrepayment WHERE loanId = ?").execute(arguments: [loan.id])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO loanPrepayment(loanId, position, day, amount, effect, full, rule, end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        var position = 0
        for p in loan.terms.prepayments {
            position += 1
            try insert.execute(arguments: [loan.id, position, p.day.number, p.amount, p.effect.rawValue, p.full, nil as String?, nil as Int?])
        }
        for extra in loan.extras {
            position += 1
            try insert.execute(arguments: [
                loan.id, position, extra.start.number, extra.amount, extra.effect.rawValue, false, extra.rule.recurrence.rrule, extra.end?.number,
            ])
        }
    }

    static func resolveLoan(_ db: Database, _ reference: String) throws -> LedgerLoan {
        try resolveInstrument(db, reference, what: "loan") { try fetchLoans(db, filter: "AND accountId = ?", arguments: [$0]) }
    }

    static func fetchLoans(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [LedgerLoan] {
        var extras: [String: [Row]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM loanPrepayment ORDER BY loanId, position")) {
            extras[row["loanId"], default: []].append(row)
        }
        // What each posted or settled payment's transaction paid to the loan and its interest category.
        var payments: [String: [Day: RecordedLoanPayment]] = [:]
        let paid = """
            SELECT m.instrumentId, m.day, m.txnId,
                COALESCE(SUM(CASE WHEN p.accountId = l.accountId OR p.accountId = l.categoryId THEN p.amountMinor END), 0) AS paid
            FROM expectedMark m JOIN loan l ON l.id = m.instrumentId JOIN txn t ON t.id = m.txnId AND t.deleted = 0
            JOIN posting p ON p.txnId = m.txnId
            WHERE m.kind = 'loan' AND m.state IN ('posted', 'settled')
            GROUP BY m.instrumentId, m.day, m.txnId
            """
        for row in try Row.fetchAll(db.cachedStatement(sql: paid)) {
            payments[row["instrumentId"], default: [:]][Day(row["day"])] = RecordedLoanPayment(transactionID: row["txnId"], amount: row["paid"])
        }
        let loans = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM loan WHERE deleted = 0 \(filter)"), arguments: arguments
        ).map { row in
            let calendar: String = row["calendar"]
            var terms = try Loan(
                principal: row["principal"], rate: Rate(perMillion: row["ratePerMillion"]), term: row["term"], start: Day(row["start"]),
                firstPayment: Day(row["firstPayment"]), method: value("method", LoanMethod.self, row),
                dayCount: value("dayCount", DayCount.self, row),
                rounding: value("rounding", Rounding.self, row), adjustment: value("adjustment", BusinessDayAdjustment.self, row))
            var loanExtras: [LoanExtra] = []
            for p in extras[row["id"]] ?? [] {
                let effect = try value("effect", PrepaymentEffect.self, p)
                if let rule: String = p["rule"] {
                    let parsed = try Rule(parsing: rule, calendar: calendar, adjustment: terms.adjustment == .none ? nil : terms.adjustment)
                    loanExtras.append(
                        LoanExtra(amount: p["amount"], rule: parsed, start: Day(p["day"]), end: (p["end"] as Int?).map(Day.init), effect: effect))
                } else {
                    terms.prepayments.append(LoanPrepayment(day: Day(p["day"]), amount: p["amount"], effect: effect, full: p["full"]))
                }
            }
            var loan = LedgerLoan(
                id: row["id"], accountID: row["accountId"], payFromID: row["payFromId"], interestCategoryID: row["categoryId"],
                disburseToID: row["disburseToId"], collateralID: row["collateralId"], calendar: calendar, terms: terms, extras: loanExtras,
                handledThrough: (row["handledThrough"] as Int?).map(Day.init))
            loan.payments = payments[loan.id] ?? [:]
            return loan
        }
        return try inListingOrder(loans, account: \.accountID, names: accountNames(db))
    }

    /// A text column of `row` as an enum, or an error naming the column.
    static func value<T: RawRepresentable<String>>(_ column: String, _ type: T.Type, _ row: Row) throws -> T {
        let text: String = row[column]
        guard let value = T(rawValue: text) else {
            throw StoreError.unreadable(path: nil, field: column, value: text, reason: "not a value capital knows")
        }
        return value
    }
}
