import CapitalCore

/// Where something stands in a ledger file, for error messages: `household.yaml:12: transactions[3].postings[0].amount`.
public struct FileLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var path: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? "")\(path.isEmpty ? "" : ": \(path)")"
    }

    /// A field of the entry here: `household.yaml:40: cards[0].limit`.
    public func field(_ key: String) -> FileLocation { FileLocation(file: file, line: line, path: "\(path).\(key)") }
}

/// A ledger file as written: names, not ids, and amounts as text until the account's currency is known.
public struct LedgerDocument: Sendable {
    public struct AccountEntry: Sendable {
        public var name: String
        public var kind: AccountKind
        public var currency: Currency?
        public var floor: String?
        public var level: Int?
        public var hidden: Bool
        public var note: String
        /// A yearly change of value (`-15`) counted from `valueSince`.
        public var valueChange: String?
        public var valueSince: Day?
        /// A colour name or `#RRGGBB`, checked on import.
        public var color: String?
        /// One emoji, checked on import.
        public var icon: String?
        public var location: FileLocation
    }

    public struct GroupEntry: Sendable {
        public var name: String
        public var type: GroupType
        public var accounts: [(name: String, location: FileLocation)]
        public var location: FileLocation
    }

    public struct PostingEntry: Sendable {
        public var account: String
        public var amount: String?
        /// Only for the equity account, which holds several currencies.
        public var currency: String?
        public var note: String
        /// Where the posting is in the file: its places below are spelled from it when asked for
        /// (an error names them), not for every posting read.
        var place: Place
        /// Where the account is named.
        public var location: FileLocation { place.account }
        /// Where the amount is written (the posting itself when it has none).
        public var amountLocation: FileLocation { place.amount }

        struct Place: Sendable {
            var file: String
            /// The transaction's path, `transactions[3]`.
            var transaction: String
            /// The posting's index in the transaction's `postings`; nil in the short form
            /// (`amount`, `from`, `to`), where `side` is `to` or `from`.
            var index: Int?
            var side = ""
            var accountLine: Int?
            /// The amount's line, or the posting's when it has none.
            var amountLine: Int?
            var hasAmount = true

            var account: FileLocation {
                FileLocation(file: file, line: accountLine, path: index.map { "\(transaction).postings[\($0)].account" } ?? "\(transaction).\(side)")
            }

            var amount: FileLocation {
                guard let index else { return FileLocation(file: file, line: amountLine, path: "\(transaction).amount") }
                return FileLocation(file: file, line: amountLine, path: "\(transaction).postings[\(index)]" + (hasAmount ? ".amount" : ""))
            }
        }
    }

    public struct TransactionEntry: Sendable {
        public var id: String?
        public var day: Day
        public var payee: String
        public var note: String
        public var spender: String
        public var tags: [String]
        /// The bank-statement line the transaction stands for, as `export` writes it: the
        /// statement's account (by name) and the line's key, by which a later import of the same
        /// statement knows the line.
        public var statementLine: (account: String, key: String)? = nil
        public var postings: [PostingEntry]
        public var location: FileLocation
    }

    public struct ScheduleEntry: Sendable {
        public struct ExceptionEntry: Sendable {
            public var date: Day
            public var skip: Bool
            public var moveTo: Day?
            public var amount: String?
            public var location: FileLocation
        }

        public var id: String?
        public var input: ScheduleInput
        public var handledThrough: Day?
        public var exceptions: [ExceptionEntry]
        /// Occurrences no longer open: posted, settled or skipped.
        public var posted: [MarkEntry]
        public var location: FileLocation
    }

    /// An expected flow that is no longer open, as written under `posted:` of a schedule or a
    /// loan: its key day, the transaction that stands for it, and how (`posted` when not said).
    public struct MarkEntry: Sendable {
        public var date: Day
        public var mark: FlowMark
        public var location: FileLocation
    }

    public struct CalendarEntry: Sendable {
        public var name: String
        public var holidays: [(day: Day, name: String)]
        public var workingDays: [(day: Day, name: String)]
        public var location: FileLocation
    }

    public var file: String
    public var currency: Currency
    /// The calendar schedules use unless they name one.
    public var calendar: String?
    public var calendars: [CalendarEntry] = []
    public var schedules: [ScheduleEntry] = []
    public var defaultAccount: (name: String, location: FileLocation)?
    public var accounts: [AccountEntry] = []
    public var groups: [GroupEntry] = []
    public var transactions: [TransactionEntry] = []
    public var loans: [LoanEntry] = []
    public var cards: [CardEntry] = []
    public var deposits: [DepositEntry] = []
    public var dues: [DueEntry] = []
    public var budgets: [BudgetEntry] = []
    public var rates: [RateEntry] = []
}

/// A mistake in a ledger file: where it is and why, on one line.
public struct LedgerFileError: Error, CustomStringConvertible, Sendable {
    public var location: FileLocation
    public var message: String

    public init(_ location: FileLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// One line: a line break in a quoted value or a file name is escaped.
    public var description: String { "\(location): \(message)".singleLine }
}
