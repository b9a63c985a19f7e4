/// A snapshot of everything in a ledger: the value the engine works on.
public struct Ledger: Hashable, Sendable {
    /// The household's main currency: new accounts default to it.
    public var currency: Currency
    public var accounts: [Account]
    public var groups: [AccountGroup]
    /// In day order; a store gives transactions on one day in id order (the same on every
    /// device of a shared ledger), a ledger file in the file's order. With an
    /// `opening`, those before its day that it sums up are not here.
    public var transactions: [Transaction]
    /// Posted history summed up instead of listed (a store's windowed snapshot); nil when
    /// `transactions` holds every posted transaction.
    public var opening: OpeningBalances?
    /// Recurring transactions, in the order they were added.
    public var schedules: [Schedule]
    /// What `post` has done with each schedule, by schedule id.
    public var scheduleStates: [String: ScheduleState] = [:]
    /// The loan payments and deposit credits after their instrument's `handledThrough` that are
    /// posted, settled or skipped, and the budget periods skipped, by loan, deposit or budget id,
    /// keyed by their key day (a payment's day before adjustment, a capitalisation day, a period's
    /// first day).
    public var flowMarks: [String: Set<Day>] = [:]
    /// Card paybacks overdue before today are left out instead of paid today (`--overdue ignore`).
    public var ignoresOverduePaybacks = false
    /// Loans, cards and deposits, by their account's name and then id as the store lists them.
    public var loans: [LedgerLoan] = []
    public var cards: [LedgerCard] = []
    public var deposits: [LedgerDeposit] = []
    /// Bills and fines, in the order registered.
    public var dues: [Due] = []
    /// One budget per expense category at most.
    public var budgets: [Budget] = []
    /// What other currencies are worth in `currency`, by currency then day (one a currency and day).
    public var rates: [ExchangeRate] = []
    /// The account spending comes from when nothing else is said (`spend`, dues, budgets).
    public var defaultAccountID: String?
    /// What generated transactions (by id) amount to in the pessimistic and optimistic cases when
    /// that differs from their postings (the expected case): a card's payback follows the case of
    /// the spending it pays back.
    public var caseAmounts: [String: CaseAmounts] = [:]
    /// What made each transaction the forecast generated, by transaction id (`forecastLedger`):
    /// a loan, a value change, a deposit, a card, a due payment or a budget.
    public var origins: [String: FlowOrigin] = [:]

    /// A ledger of these records in `currency`; instruments, dues and budgets are set after.
    public init(
        currency: Currency, accounts: [Account] = [], groups: [AccountGroup] = [], transactions: [Transaction] = [],
        schedules: [Schedule] = []
    ) {
        self.currency = currency
        self.accounts = accounts
        self.groups = groups
        self.transactions = transactions
        self.schedules = schedules
    }

    /// End-of-day balances on `day` (postings dated on or before it), per account id and currency.
    /// Accounts without postings are absent. With an `opening`, `day` must not be before the
    /// day before the opening's (`OpeningBalances.covers`).
    /// - Throws: `LedgerError.overflow` if a sum does not fit in Int64.
    /// - Complexity: O(postings listed).
    public func balances(on day: Day) throws(LedgerError) -> [BalanceKey: Int64] {
        precondition(opening?.covers(day) ?? true, "a balance before the ledger's opening")
        var result = opening?.balances ?? [:]
        for transaction in transactions where transaction.day <= day {
            for posting in transaction.postings {
                let key = BalanceKey(accountID: posting.accountID, currency: posting.amount.currency)
                let (sum, overflow) = result[key, default: 0].addingReportingOverflow(posting.amount.minor)
                if overflow { throw .overflow }
                result[key] = sum
            }
        }
        return result
    }
}

/// What a ledger read from a long history sums up instead of listing: every posted transaction
/// dated before `day` that is not among the ledger's transactions, as balances per account and
/// currency at the end of the day before `day`, and how many postings each account had in them.
///
/// A balance on any day from `day − 1` on is the opening plus the listed transactions through
/// that day, whatever the length of the history (see `Ledger.balances(on:)`).
public struct OpeningBalances: Hashable, Sendable {
    /// The first day whose transactions are all listed.
    public var day: Day
    /// End-of-day balances on the day before `day` of what is summed up, per account and currency.
    public var balances: [BalanceKey: Int64]
    /// The number of postings summed up, by account id.
    public var postings: [String: Int]
    /// The day of the first posted transaction of the whole history; nil when there is none.
    public var firstDay: Day?

    /// Balances at the end of the day before `day`, made of `postings` postings per account, of
    /// a history that starts on `firstDay`.
    public init(day: Day, balances: [BalanceKey: Int64], postings: [String: Int] = [:], firstDay: Day? = nil) {
        self.day = day
        self.balances = balances
        self.postings = postings
        self.firstDay = firstDay
    }

    /// Whether balances at the end of `day` can be told: it is not before the day before the opening's.
    public func covers(_ day: Day) -> Bool { day >= self.day.advanced(by: -1) }

    /// The opening balance of an account, its currencies added (saturating).
    public func sum(of accountID: String) -> Int64 {
        balances.reduce(0) { $1.key.accountID == accountID ? saturatingSum($0, $1.value) : $0 }
    }
}

/// A transaction's posting amounts, position by position, in the pessimistic and optimistic cases.
public struct CaseAmounts: Hashable, Sendable {
    public var pessimistic: [Int64]
    public var optimistic: [Int64]

    /// Amounts of a generated transaction's postings in the pessimistic and the optimistic case.
    public init(pessimistic: [Int64], optimistic: [Int64]) {
        self.pessimistic = pessimistic
        self.optimistic = optimistic
    }
}

/// An account's balance is kept per currency (only the equity account mixes currencies).
public struct BalanceKey: Hashable, Sendable {
    public var accountID: String
    public var currency: Currency

    /// The key of the balance of `accountID` in `currency`.
    public init(accountID: String, currency: Currency) {
        self.accountID = accountID
        self.currency = currency
    }
}

/// A schedule's or a loan's bookkeeping of its expected flows: those up to `handledThrough` (by
/// their key day: a rule day, a payment's day before adjustment) count as recorded, and `posted`
/// holds the later key days that a transaction stands for (posted or settled) or that were skipped.
public struct ScheduleState: Hashable, Sendable {
    public var handledThrough: Day
    public var posted: Set<Day>

    /// A schedule handled through `handledThrough`, with the occurrences already posted.
    public init(handledThrough: Day, posted: Set<Day> = []) {
        self.handledThrough = handledThrough
        self.posted = posted
    }

    /// Whether an occurrence with this rule day still has to happen (or be posted).
    public func isOpen(_ original: Day) -> Bool {
        original > handledThrough && !posted.contains(original)
    }
}

/// What made a transaction the forecast generated: which instrument or tracked item, by id.
public enum FlowOrigin: Hashable, Sendable {
    /// A loan's payout, payment or correction to its schedule's balance.
    case loan(id: String)
    /// A change in an asset account's value.
    case valueChange(accountID: String)
    /// A deposit's interest or payout.
    case deposit(id: String)
    /// A card's interest, payback or overdue payback.
    case card(id: String)
    /// The unpaid rest of a bill or fine.
    case due(id: String)
    /// What a budget expects still to be spent.
    case budget(id: String)
}

extension Ledger {
    /// What made `transaction`, when the forecast generated it; nil for a recorded one.
    public func origin(of transaction: Transaction) -> FlowOrigin? { origins[transaction.id] }
}
