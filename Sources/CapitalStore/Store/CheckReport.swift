import CapitalCore

/// One thing `Store.check(path:)` found wrong, named by the record it is about.
public struct CheckProblem: Sendable, Equatable, CustomStringConvertible {
    /// Which check found it.
    public enum Kind: String, Sendable {
        /// SQLite's own `PRAGMA integrity_check`, or a table that cannot be read.
        case integrity
        /// `PRAGMA foreign_key_check`: a row naming a row that does not exist.
        case foreignKey = "foreign-key"
        /// A live transaction whose postings do not sum to zero per currency, or that has fewer than two.
        case unbalanced
        /// A schedule or loan prepayment whose rule does not parse.
        case rule
        /// A loan, card, deposit, due payment, budget or schedule naming an account that is missing or removed.
        case reference
        /// A due payment whose paid amount is below 0 or above its total.
        case due
        /// A balance checkpoint (derived data) that differs from the postings; `check --repair`
        /// rebuilds them.
        case checkpoint
        /// A shared ledger's record whose tables differ from the shared state it last sent or
        /// received (a write that bypassed capital), or a write noted but never turned into a
        /// change set; `capital sync` would not send such a difference.
        case sync
    }

    public var kind: Kind
    /// The table of the record, when the problem is about one.
    public var table: String?
    /// The record's id (a UUID), or `rowid N` for a row without one.
    public var id: String?
    public var message: String

    public init(_ kind: Kind, table: String? = nil, id: String? = nil, _ message: String) {
        self.kind = kind
        self.table = table
        self.id = id
        self.message = message
    }

    /// One line: `unbalanced: txn 1b2c3d4e-…: RUB postings sum to 10.00, not 0`.
    public var description: String {
        let record = [table, id].compactMap { $0 }.joined(separator: " ")
        return "\(kind.rawValue): " + (record.isEmpty ? "" : "\(record): ") + message
    }
}

/// What `Store.check(path:)` looked at and what it found.
public struct CheckReport: Sendable {
    /// The database file.
    public var path: String
    /// The schema versions applied to it, oldest first.
    public var schema: [String]
    /// How many live records of each kind were checked, in a fixed order (`transactions`, …).
    public var counts: [(name: String, count: Int)]
    /// Everything found wrong; empty when the database is sound.
    public var problems: [CheckProblem]

    public var isClean: Bool { problems.isEmpty }
}
