import CapitalCore

/// A CSV rules file in hledger's syntax (hledger 1.25's "CSV rules"): how the columns of a bank's
/// CSV export become statement lines.
///
/// ```
/// skip 1
/// separator ;
/// fields date, payee, note, amount, balance
/// date-format %d.%m.%Y
/// decimal-mark ,
/// description %payee
/// comment %note
/// if REWE|EDEKA
///   account2 expenses:food
/// ```
/// What capital reads: `skip`, `fields`, `separator`, `date-format`, `decimal-mark`,
/// `newest-first`, `include`, the field assignments `date`, `description`, `comment`, `account1`,
/// `account2`, `amount`, `amount-in`, `amount-out`, `currency` and `balance`, `if` blocks (with
/// `skip` and `end` inside) and `if` tables. Anything else is refused by name and line, never
/// skipped: a rule left out would import the statement wrongly without a word.
public struct StatementRules: Sendable {
    /// Records to skip at the top (header lines).
    public var skip = 0
    /// The column names `fields` gives, in order; nil when the file has no `fields`.
    public var fieldNames: [String]?
    /// The separator byte (`,` unless `separator` or the file's extension says otherwise).
    public var separator: UInt8?
    public var dateFormat: DateFormat?
    /// `,` or `.` when `decimal-mark` declares it.
    public var decimalMark: UInt8?
    /// `newest-first`: the file lists the latest lines first.
    public var newestFirst = false
    /// Top-level field assignments, in file order (later ones win).
    var assignments: [Assignment] = []
    /// `if` blocks and the rows of `if` tables, in file order (later matches win).
    var blocks: [Block] = []

    /// The hledger fields capital reads, in the order of the slots a record's values are kept in.
    static let fieldOrder = ["date", "description", "comment", "account1", "account2", "amount", "amount-in", "amount-out", "currency", "balance"]
    /// The same, as a set.
    static let fields = Set(fieldOrder)
    /// hledger fields and directives capital knows and does not read: refused by name.
    static let unsupported: Set<String> = [
        "date2", "status", "code", "timezone", "balance-type", "intra-day-reversed", "payee", "note",
    ]

    /// `field` set to `template` (`description %payee - %note`).
    struct Assignment: Sendable {
        var field: String
        var template: Template
        var line: Int
    }

    /// An `if` block, or one row of an `if` table.
    struct Block: Sendable {
        /// Groups of matchers joined by `&&`; the block applies when any group matches whole.
        var groups: [[Matcher]]
        var assignments: [Assignment]
        /// `skip` inside the block: the record is left out.
        var skipsRecord = false
        /// `end` inside the block: this record and all after it are left out.
        var ends = false
        var line: Int
        /// Where it is written: `bank.rules:12`.
        var origin: String
    }

    /// A regular expression on the whole record or on one field (`%payee REWE`), maybe negated (`!`).
    struct Matcher: Sendable {
        var column: Reference?
        var pattern: RulePattern
        var negated: Bool
    }

    /// A column named by `%name` or `%N`, resolved once `fields` is known.
    enum Reference: Sendable, Hashable {
        case name(String)
        case number(Int)
    }

    /// Text with `%field` references, rendered per record.
    struct Template: Sendable {
        enum Part: Sendable {
            case text(String)
            case column(Reference)
        }
        var parts: [Part]
    }
}
