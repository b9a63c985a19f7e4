/// A bank statement as read from its file (CSV with rules, OFX, QIF), before any of it becomes a
/// transaction: what the bank says happened, in the bank's words.
///
/// Amounts are minor units signed from the statement account's point of view: money out is
/// negative. `currency` is the statement's own currency code when the file names one.
public struct Statement: Sendable, Equatable {
    /// Bank or card: OFX's `BANKMSGSRSV1`/`CREDITCARDMSGSRSV1`, QIF's `!Type:Bank`/`!Type:CCard`.
    public enum Kind: String, Sendable, Equatable { case bank, card }

    /// The account's number at the bank (OFX `ACCTID`), when the file gives it.
    public var accountNumber: String?
    public var kind: Kind
    /// ISO 4217 code (OFX `CURDEF`, a rules file's `currency`), when the file gives one.
    public var currency: String?
    public var lines: [StatementLine]
    /// The closing balance the bank states (OFX `LEDGERBAL`), when it gives one.
    public var closingBalance: StatementBalance?
    /// Why a closing balance the file holds cannot be used (`LEDGERBAL has an empty BALAMT`), by
    /// line; nil when there is none or it reads. The lines are read all the same.
    public var unusableBalance: StatementError?

    /// A statement with every field given; all are optional but the kind.
    public init(
        accountNumber: String? = nil, kind: Kind = .bank, currency: String? = nil, lines: [StatementLine] = [],
        closingBalance: StatementBalance? = nil
    ) {
        self.accountNumber = accountNumber
        self.kind = kind
        self.currency = currency
        self.lines = lines
        self.closingBalance = closingBalance
    }
}

extension Statement {
    /// Gives each line that has only a balance (`amountFromBalance`) its amount, as hledger
    /// settles a balance assignment: the line's balance less the account's balance before it.
    /// That is the balance the last line before it gave, plus the amounts of the lines since;
    /// before any line gave one, `opening` (the account's balance before the statement).
    /// ```swift
    /// // balances 100, 200, 300 (no amounts), opening 0: amounts 100, 100, 100
    /// ```
    /// - Throws: `StatementError` naming the line when the difference is past the range of amounts.
    /// - Complexity: O(lines).
    public mutating func settleAmountsFromBalances(opening: Int64) throws(StatementError) {
        guard lines.contains(where: \.amountFromBalance) else { return }
        var running = opening
        for index in lines.indices {
            let line = lines[index]
            if line.amountFromBalance, let balance = line.balanceMinor {
                let (difference, overflow) = balance.subtractingReportingOverflow(running)
                guard !overflow, difference != .min else {
                    throw StatementError(line: line.line, "its balance less the balance before it is past the range of amounts")
                }
                lines[index].amountMinor = difference
                lines[index].amountFromBalance = false
                running = balance
            } else {
                running = line.balanceMinor ?? saturatingSum(running, line.amountMinor)
            }
        }
    }
}

/// One line of a statement: a movement of money on one day.
public struct StatementLine: Sendable, Equatable {
    /// The 1-based line of the file where the line's record starts (for errors and `rules test`).
    public var line: Int
    public var day: Day
    /// Minor units, money out negative.
    public var amountMinor: Int64
    /// ISO 4217 code, when the line names its own currency.
    public var currency: String?
    public var payee: String
    public var note: String
    /// Where the money came from or went, in the file's words (QIF `L`, a rules file's `account2`).
    public var counterpart: String?
    /// The bank's own id of the line (OFX `FITID`), the strongest de-duplication key.
    public var externalID: String?
    /// The account's balance after this line, when the file gives one (a CSV balance column).
    public var balanceMinor: Int64?
    /// The parts of a split line (QIF `S`/`$`/`E`); empty when the line is not split.
    public var splits: [StatementSplit]
    /// The line gives its balance and no amount (an hledger balance assignment): its amount is
    /// the change from the balance before it, set by `Statement.settleAmountsFromBalances`.
    public var amountFromBalance = false

    /// A line of `amountMinor` on `day`, read from the file's `line`.
    public init(
        line: Int, day: Day, amountMinor: Int64, currency: String? = nil, payee: String = "", note: String = "",
        counterpart: String? = nil, externalID: String? = nil, balanceMinor: Int64? = nil, splits: [StatementSplit] = []
    ) {
        self.line = line
        self.day = day
        self.amountMinor = amountMinor
        self.currency = currency
        self.payee = payee
        self.note = note
        self.counterpart = counterpart
        self.externalID = externalID
        self.balanceMinor = balanceMinor
        self.splits = splits
    }
}

/// One part of a split statement line: a counterpart, its share of the amount, a memo.
public struct StatementSplit: Sendable, Equatable {
    public var counterpart: String
    /// Minor units, signed like the line's amount.
    public var amountMinor: Int64
    public var note: String

    /// `amountMinor` of a split line to `counterpart`.
    public init(counterpart: String, amountMinor: Int64, note: String = "") {
        self.counterpart = counterpart
        self.amountMinor = amountMinor
        self.note = note
    }
}

/// A balance the bank states on a day.
public struct StatementBalance: Sendable, Equatable {
    public var day: Day
    public var amountMinor: Int64

    /// `amountMinor` at the end of `day`.
    public init(day: Day, amountMinor: Int64) {
        self.day = day
        self.amountMinor = amountMinor
    }
}

/// Why a statement file was refused: the 1-based line (0 when the whole file is at fault) and
/// the reason, quoting the offending text. The front end prefixes the file's name.
public struct StatementError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    /// A QIF file whose dates read both month first and day first, none telling which: the
    /// front end names the options that decide it.
    public var needsDateOrder = false

    /// `reason` at the file's `line` (0: the whole file).
    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 12: date '31/02/2025' is not a day in date-format %d/%m/%Y`.
    public var description: String { line > 0 ? "line \(line): \(reason.singleLine)" : reason.singleLine }
}
