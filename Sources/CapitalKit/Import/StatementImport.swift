import CapitalCore
import CapitalStore

/// A bank statement imported into one account: what each of its lines becomes.
public struct StatementImport: Sendable {
    public var source: StatementSource
    /// The account the statement is of; amounts are signed from its point of view.
    public var account: String
    /// Create the categories the rules name and the ledger lacks (else they are an error).
    public var createMissing = false
    /// Categorise a line the rules leave alone by the category its payee was given most often.
    public var learn = false
    /// Add a line even when a transaction entered by hand already stands for it.
    public var keepBoth = false
    /// A closing balance that differs from the ledger's is an error, not a warning.
    public var strict = false
    /// Days before or after its day a line may settle an expected flow.
    public var matchDays = 3
    /// Today, for loans' flows.
    public var today: Day

    /// Days before or after a hand-entered transaction's day a line may stand for it.
    public static let handEnteredDays = 2
    /// The expense category lines nothing categorises go to.
    public static let uncategorised = "Uncategorised"

    /// An import of `source` into `account`, seen from `today`, with every option off.
    public init(source: StatementSource, account: String, today: Day) {
        self.source = source
        self.account = account
        self.today = today
    }
}

/// What became, or would become, of one statement line.
public struct StatementRow: Sendable, Equatable {
    /// What became of the line.
    public enum Status: Sendable, Equatable {
        /// Added as a new transaction.
        case new
        /// Added into `Uncategorised`: nothing said where the money went.
        case uncategorised
        /// Already imported (this file or an earlier one).
        case duplicate
        /// A transaction entered by hand (its id) stands for it: linked, not added.
        case matches(String)
        /// Added, settling the expected flow named (`Salary@2025-04-05`).
        case settles(String)
        /// An amount of zero (a card check): nothing to add.
        case zero
    }

    /// The statement's line.
    public var line: Int
    public var day: Day
    public var amount: Money
    public var payee: String
    public var note: String
    /// The statement's account.
    public var account: String
    /// The category or account on the other side (several joined by `, ` for a split line).
    public var counterpart: String
    /// The line's id: the bank's (OFX `FITID`) or a digest of the line.
    public var id: String
    public var status: Status
}

/// The closing balance a statement states, beside the ledger's.
public struct StatementBalanceCheck: Sendable, Equatable {
    public var day: Day
    public var stated: Money
    /// The account's recorded balance at the end of `day`, the import's lines included.
    public var recorded: Money
    public var difference: Int64 { stated.minor &- recorded.minor }
}

/// An import's rows and sums.
public struct StatementImportResult: Sendable {
    public var rows: [StatementRow]
    public var format: StatementFormat
    public var encoding: TextEncoding
    /// Categories created (or that would be) for names the rules gave.
    public var createdCategories: [String]
    public var balance: StatementBalanceCheck?
    /// Why the closing balance the statement holds cannot be used (`LEDGERBAL has an empty
    /// BALAMT`), by line: its lines are imported without the balance check.
    public var unusableBalance: StatementError?
    /// Whether anything was written (false for a dry run, or when every line was there already).
    public var written: Bool
}

extension Store {
    /// Reads `request`'s statement and decides each line: a duplicate of an earlier import, the
    /// line of a hand-entered transaction, the payment of an expected flow, or new (categorised by
    /// the rules, by what its payee was given before with `learn`, else `Uncategorised`). Writes
    /// all of it in one transaction unless `dryRun`.
    /// - Throws: `KitError` for an unknown account, a statement currency other than the account's,
    ///   counterpart names the ledger lacks (all listed) without `createMissing`, a closing balance
    ///   that differs with `strict`, and the reader's errors by file and line; `StoreError` when
    ///   the write fails (nothing is written).
    public func importStatement(_ request: StatementImport, dryRun: Bool) throws -> StatementImportResult {
        let account: Account
        do { account = try self.account(request.account) } catch {
            throw KitError.invalid(.account, value: request.account, reason: "no account of that name or id")
        }
        guard account.kind.isBalanceSheet else {
            throw KitError.invalid(
                .account, value: request.account, reason: "it is \(account.kind.withArticle) category; a statement is of an account")
        }
        let currency = account.currency
        // The statement's lines are let go once decided: the write holds only the plan.
        let (plan, balance, reading) = try decide(request, account: account)
        if let balance, balance.difference != 0, request.strict {
            throw KitError.refused(
                reason: "the statement's closing balance on \(balance.day.iso) is \(balance.stated.plain), the ledger's would be "
                    + "\(balance.recorded.plain) (a difference of \(Money(minor: balance.difference, currency: currency).plain)); nothing imported")
        }
        var written = false
        if !dryRun && !plan.writes.isEmpty {
            _ = try recordStatement(categories: plan.newCategories, writes: plan.writes)
            written = true
        }
        return StatementImportResult(
            rows: plan.rows, format: reading.format, encoding: reading.encoding, createdCategories: plan.newCategories.map(\.name),
            balance: balance, unusableBalance: reading.unusableBalance, written: written)
    }

    /// Reads `request`'s statement and decides its lines (see `importStatement`), with the balance
    /// check; the statement itself is not kept.
    private func decide(
        _ request: StatementImport, account: Account
    ) throws -> (StatementPlan, StatementBalanceCheck?, (format: StatementFormat, encoding: TextEncoding, unusableBalance: StatementError?)) {
        var reading = try request.source.read(exponent: account.currency.exponent)
        // A credit card's statement moves a card: into another kind of account its signs and its balance mean nothing.
        if reading.statement.kind == .card, account.kind != .creditCard {
            let what = reading.format == .ofx ? "a credit-card statement (CREDITCARDMSGSRSV1)" : "a credit-card register (!Type:CCard)"
            throw KitError.invalid(
                .account, value: request.account,
                reason: "it is \(account.kind.withArticle) account and the statement is \(what): import it into a credit-card account")
        }
        if let first = reading.statement.lines.first, reading.statement.lines.contains(where: \.amountFromBalance) {
            // hledger's balance assignments: the first line's amount is its balance less the account's before the statement.
            let opening = try recordedBalance(account, on: first.day.advanced(by: -1))
            reading = try reading.settlingAmountsFromBalances(opening: opening, path: request.source.path)
        }
        let statement = reading.statement
        for line in statement.lines where !Day.inputYears.contains(line.day.civil.year) {
            throw KitError.fileLine(path: request.source.path, line: line.line, reason: "\(DayError.yearOutOfRange(line.day.iso))")
        }
        for line in statement.lines {
            for (what, text, limit) in [("payee", line.payee, TextLimits.name), ("note", line.note, TextLimits.text)] {
                if let problem = TextLimits.problem(in: text, limit: limit, lineBreaks: what == "note") {
                    throw KitError.fileLine(path: request.source.path, line: line.line, reason: "the \(what) has \(problem)")
                }
            }
        }
        let inAccount = "account '\(FieldKeys.literal(account.name))' in \(account.currency.code)"
        if let code = statement.currency, !StatementCurrency.matches(code, account.currency.code) {
            throw KitError.invalid(.statement, value: request.source.path, reason: "the statement is in \(FieldKeys.literal(code)), \(inAccount)")
        }
        // A line's own currency (its rules' `currency`, an OFX line's, a sign printed with its amount).
        if let line = statement.lines.first(where: { $0.currency.map { !StatementCurrency.matches($0, account.currency.code) } ?? false }) {
            throw KitError.fileLine(
                path: request.source.path, line: line.line, reason: "the amount is in \(FieldKeys.literal(line.currency ?? "")), \(inAccount)")
        }
        var plan = try StatementPlan(request: request, account: account, statement: statement, store: self)
        try plan.decide(statement.lines)
        return (plan, try plan.balanceCheck(statement), (reading.format, reading.encoding, statement.unusableBalance))
    }

    /// The account's recorded balance at the end of `day`.
    private func recordedBalance(_ account: Account, on day: Day) throws -> Int64 {
        let ledger = try snapshot(asOf: [day])
        do { return try ledger.balances(on: day)[BalanceKey(accountID: account.id, currency: account.currency)] ?? 0 } catch {
            throw KitError.engine(context: "balance", reason: KitError.template(error))
        }
    }
}
