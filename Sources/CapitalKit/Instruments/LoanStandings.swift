import CapitalCore
import CapitalStore

/// A stored loan seen from a day: its account, its amortisation schedule and where it stands.
public struct LoanStanding: Sendable {
    public let loan: LedgerLoan
    public let account: Account
    public let schedule: LoanSchedule
    /// What is owed on the day as the loan's account holds it (its history's schedule, then what
    /// was posted and settled), the first payment still open (overdue ones first) and the payoff
    /// day; the interest and the payments left count from that payment.
    public let status: LoanStatus
    /// The day it is seen from (today, or the day asked about).
    public let today: Day
}

extension Store {
    /// Every stored loan seen from `today` (or from the end of `on`), from one reading of the balances.
    public func loanStandings(today: Day, on: Day? = nil) throws -> [LoanStanding] {
        let sheet = try balanceSheet(on: on ?? today, today: today)
        return try loans().map { try loanStanding($0, today: today, on: on, sheet: sheet) }
    }

    /// `loan` amortised on its calendar and seen from `today`: owed what its account holds, its
    /// next payment the first still open (issue 17: one meaning of balance). Seen from the end of
    /// an earlier day `on`, it owes what its account held then, and the payments after that day
    /// were still to come.
    /// - Parameter sheet: the balances on the day it is seen from, when the caller has them (else read here).
    /// - Throws: `KitError.engine` naming the loan when its schedule cannot be laid out.
    public func loanStanding(_ loan: LedgerLoan, today: Day, on: Day? = nil, sheet: BalanceSheet? = nil) throws -> LoanStanding {
        let seen = on ?? today
        let account = try account(loan.accountID)
        let schedule: LoanSchedule
        do { schedule = try loan.schedule(calendar: try calendar(loan.calendar)) } catch let error as LoanError {
            throw KitError.engine(context: "loan '\(FieldKeys.literal(account.name))'", reason: error.template)
        }
        var status = LoanStatus(schedule, principal: loan.terms.principal, start: loan.terms.start, on: seen)
        var made: Set<Day> = []
        for (key, _) in try expectedMarks() where key.kind == .loan && key.instrumentID == loan.id { made.insert(key.day) }
        var ledger = Ledger(currency: account.currency)
        ledger.flowMarks[loan.id] = made
        let state = loan.state(in: ledger, today: today, rows: schedule.rows)
        // A payment made short leaves its rest owed until paid: the ledger's transactions say what was paid since.
        if schedule.rows.contains(where: { row in row.kind == .payment && (loan.payments[row.original]?.amount ?? row.payment) < row.payment }) {
            ledger.transactions = try snapshot(asOf: [today]).transactions
            if let rest = ledger.loanRest(loan, rows: schedule.rows, state: state) { (status.owed, status.owedSince) = (rest.amount, rest.since) }
        }
        // Seen from a later day, the payments open until then are made as the forecast makes
        // them (an overdue one today): what is left is what falls after that day.
        let ahead = schedule.rows.filter { state.isOpen($0.original) || ($0.day > seen && $0.day <= today) }
        let open = seen > today ? ahead.filter { $0.day > seen } : ahead
        status.next = open.first
        status.interestLeft = open.reduce(0) { $0 + $1.interest }
        status.paymentsLeft = open.filter { $0.kind == .payment }.count
        let balances = try sheet ?? balanceSheet(on: seen, today: today)
        status.balance = -(balances.balances[BalanceKey(accountID: loan.accountID, currency: account.currency)] ?? 0)
        if seen > today {
            // What the account holds today less the principal those payments repay.
            status.balance -= ahead.filter { $0.day <= seen }.reduce(0) { $0 + $1.principal }
        }
        return LoanStanding(loan: loan, account: account, schedule: schedule, status: status, today: seen)
    }
}

/// A stored loan as its screen shows it: where it stands, who pays it, and what secures it.
public struct LoanDetail: Sendable {
    public let standing: LoanStanding
    /// The account payments come from, and the category interest goes to.
    public let payFrom: Account
    public let interestCategory: Account
    /// The asset the loan is secured on, and its value today in the loan's currency.
    public let collateral: (account: Account, value: Int64)?

    /// The collateral's value less the balance owed.
    public var equity: Int64? { collateral.map { $0.value - standing.status.balance } }
}

/// What an early repayment does to a stored loan: its standing before and after, the payment
/// that follows it and the interest it saves.
public struct PrepaymentOutcome: Sendable {
    public let before: LoanStanding
    public let after: LoanStanding
    /// The first regular payment after the repayment's day; 0 when none is left.
    public let paymentAfter: Int64
    /// The schedule from the repayment's day on, its payment the one that follows the repayment.
    public let scheduleAfter: LoanSchedule

    /// The interest saved over the rest of the loan.
    public var interestSaved: Int64 { before.schedule.totalInterest - after.schedule.totalInterest }
}

/// A loan laid out with its prepayments, and what they save against the same loan without them.
public struct LoanPlan: Sendable {
    public let schedule: LoanSchedule
    /// Nil without prepayments.
    public let interestSaved: Int64?

    /// Amortises `loan` on `calendar`, and again without its prepayments when it has some.
    /// - Throws: `LoanError` when either schedule cannot be laid out.
    public init(_ loan: Loan, calendar: WorkingDayCalendar) throws(LoanError) {
        schedule = try loan.amortize(calendar: calendar)
        guard !loan.prepayments.isEmpty else {
            interestSaved = nil
            return
        }
        var plain = loan
        plain.prepayments = []
        interestSaved = try plain.amortize(calendar: calendar).totalInterest - schedule.totalInterest
    }
}

extension Store {
    /// The loan `reference` names (its account's name or an id prefix), as its screen shows it on
    /// `today`, or seen from the end of `on`.
    /// - Throws: `StoreError` when there is no such loan; `KitError` when it cannot be laid out.
    public func loanDetail(_ reference: String, today: Day, on: Day? = nil) throws -> LoanDetail {
        let standing = try loanStanding(try loan(reference), today: today, on: on)
        let loan = standing.loan
        var collateral: (Account, Int64)?
        if let id = loan.collateralID {
            let sheet = try balanceSheet(on: on ?? today, today: today)
            collateral = (try account(id), sheet.balances[BalanceKey(accountID: id, currency: standing.account.currency)] ?? 0)
        }
        return LoanDetail(
            standing: standing, payFrom: try account(loan.payFromID), interestCategory: try account(loan.interestCategoryID), collateral: collateral)
    }

    /// Repays the loan `reference` names early, as `input` says; with `dryRun`, only works out
    /// what it would do.
    /// - Throws: `StoreError` when the repayment is refused; `KitError` when a schedule cannot be laid out.
    public func prepay(_ reference: String, _ input: PrepaymentInput, dryRun: Bool, today: Day) throws -> PrepaymentOutcome {
        let (before, after) = try prepayLoan(reference, input, dryRun: dryRun)
        let old = try loanStanding(before, today: today)
        let new = try loanStanding(after, today: today)
        let paymentAfter = new.schedule.rows.first { $0.kind == .payment && $0.day > input.day }?.payment ?? 0
        var rows = new.schedule
        rows.payment = paymentAfter
        rows.rows = rows.rows.filter { $0.day >= input.day }
        return PrepaymentOutcome(before: old, after: new, paymentAfter: paymentAfter, scheduleAfter: rows)
    }
}
