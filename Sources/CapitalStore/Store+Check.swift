import CapitalCore
import Foundation
import GRDB

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

extension Store {
    /// Verifies the database at `path` without writing to it: SQLite's integrity and foreign-key
    /// checks, then the ledger's own rules — every live transaction balances per currency with two
    /// or more postings, schedule and prepayment rules parse, loans, cards, deposits, due payments,
    /// budgets and schedules name accounts that exist, and due payments have 0 ≤ paid ≤ total.
    ///
    /// The file is opened as `Store.open` looks at an existing file (a connection that never
    /// writes), and is not migrated: an older schema is checked as it is, tables it lacks skipped.
    /// ```swift
    /// let report = try Store.check(path: "capital.sqlite")
    /// for problem in report.problems { print(problem) }   // "unbalanced: txn 1b2c…: RUB postings sum to 10.00, not 0"
    /// ```
    /// - Throws: `StoreError.cannotOpen` when the file is not a SQLite database or its schema cannot
    ///   be read, `.notCapitalDatabase`, `.newerSchema`. Damage found while reading a table is a
    ///   problem in the report, not an error.
    /// - Complexity: O(size of the database).
    public static func check(path: String) throws(StoreError) -> CheckReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(path: path, reason: "there is no file there")
        }
        return try inspect(path: path) { db in
            var checker = Checker(db: db)
            try checker.run()
            return CheckReport(path: path, schema: checker.schema, counts: checker.counts, problems: checker.problems)
        }
    }
}

/// The checks of `Store.check`, one method each, collecting problems as they go. Every value is
/// read through `Row.text` and `Row.integer`, never a typed subscript, so a damaged row is a
/// problem to report rather than a trap.
private struct Checker {
    let db: Database
    var tables: Set<String> = []
    var schema: [String] = []
    var counts: [(name: String, count: Int)] = []
    var problems: [CheckProblem] = []

    init(db: Database) { self.db = db }

    mutating func run() throws {
        tables = Set(try rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.text(0) })
        if tables.contains("grdb_migrations") {
            schema = try rows("SELECT identifier FROM grdb_migrations ORDER BY rowid").compactMap { $0.text(0) }
        }
        guarded("running SQLite's integrity check") { try $0.integrity() }
        guarded("running SQLite's foreign key check") { try $0.foreignKeys() }
        guarded("reading accounts") { try $0.accounts() }
        guarded("reading transactions") { try $0.transactions() }
        guarded("reading schedules") { try $0.rules() }
        guarded("reading instruments") { try $0.references() }
        guarded("reading due payments") { try $0.dues() }
        guarded("counting records") { try $0.count() }
    }

    private func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try Row.fetchAll(db, sql: sql, arguments: arguments)
    }

    /// Runs one check; SQLite failing to read (a damaged page) becomes a problem, not an error.
    private mutating func guarded(_ what: String, _ check: (inout Checker) throws -> Void) {
        do {
            try check(&self)
        } catch let error as DatabaseError {
            problems.append(CheckProblem(.integrity, "\(what): SQLite error \(error.resultCode.rawValue): \(Store.describe(error))"))
        } catch {
            problems.append(CheckProblem(.integrity, "\(what): \(error)"))
        }
    }

    // MARK: SQLite

    /// SQLite's integrity check, line by line: it may list problems and then fail on a page it
    /// cannot read, and the lines before the failure are worth as much as the failure.
    mutating func integrity() throws {
        let lines = try Row.fetchCursor(db, sql: "PRAGMA integrity_check")
        while let row = try lines.next() {
            guard let line = row.text(0), line != "ok" else { continue }
            for part in line.split(whereSeparator: \.isNewline) where !part.hasPrefix("*** in database") {
                problems.append(CheckProblem(.integrity, String(part)))
            }
        }
    }

    mutating func foreignKeys() throws {
        var columns: [String: [Int64: [String]]] = [:]  // table → foreign key id → its columns
        for row in try rows("PRAGMA foreign_key_check") {
            let table = row.text(0) ?? "?"
            let rowid = row.integer(1)
            let parent = row.text(2) ?? "?"
            let key = row.integer(3) ?? -1
            if columns[table] == nil {
                var keys: [Int64: [String]] = [:]
                for fk in try rows("PRAGMA foreign_key_list(\(table.quotedDatabaseIdentifier))") {
                    keys[fk.integer(0) ?? -1, default: []].append(fk.text(3) ?? "?")
                }
                columns[table] = keys
            }
            let names = columns[table]?[key] ?? ["?"]
            var id = rowid.map { "rowid \($0)" }
            var named = names.joined(separator: ", ")
            if let rowid {
                let list = (["rowid"] + names).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                let hasID = try db.columns(in: table).contains { $0.name == "id" }
                let sql = "SELECT \(hasID ? "id" : "NULL"), \(list) FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?"
                if let found = try rows(sql, [rowid]).first {
                    if let uuid = found.text(0) { id = uuid }
                    named = names.indices.map { "\(names[$0]) \(found.shown($0 + 2))" }.joined(separator: ", ")
                }
            }
            problems.append(CheckProblem(.foreignKey, table: table, id: id, "\(named) names no row of \(parent)"))
        }
    }

    // MARK: The ledger's rules

    /// Live accounts have a kind and a currency capital knows, and groups a type.
    mutating func accounts() throws {
        if tables.contains("account") {
            for row in try rows("SELECT id, name, kind, currency FROM account WHERE deleted = 0 ORDER BY position") {
                let id = row.text(0) ?? "?"
                let name = row.text(1) ?? ""
                if AccountKind(rawValue: row.text(2) ?? "") == nil {
                    problems.append(CheckProblem(.reference, table: "account", id: id, "'\(name)': kind \(row.shown(2)) is not an account kind"))
                }
                if (try? Currency(row.text(3) ?? "")) == nil {
                    problems.append(CheckProblem(.reference, table: "account", id: id, "'\(name)': currency \(row.shown(3)) is not an ISO 4217 code"))
                }
            }
        }
        if tables.contains("accountGroup") {
            for row in try rows("SELECT id, name, type FROM accountGroup WHERE deleted = 0 ORDER BY position") where GroupType(rawValue: row.text(2) ?? "") == nil {
                problems.append(CheckProblem(.reference, table: "accountGroup", id: row.text(0) ?? "?", "'\(row.text(1) ?? "")': type \(row.shown(2)) is not a group type"))
            }
        }
    }

    /// Every live transaction has two or more postings, at positions 0, 1, 2 …, that sum to zero
    /// in each currency.
    mutating func transactions() throws {
        guard tables.isSuperset(of: ["txn", "posting"]) else { return }
        struct Sum {
            var currency: String
            var minor: Int64
            var overflow = false
        }
        var order: [String] = []
        var sums: [String: [Sum]] = [:]
        var positions: [String: [Int64]] = [:]
        for row in try rows("SELECT id FROM txn WHERE deleted = 0 ORDER BY day, seq, id") {
            let id = row.text(0) ?? "?"
            order.append(id)
            positions[id] = []
        }
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT posting.id, posting.txnId, posting.currency, posting.amountMinor, posting.position
                FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0
                """)
        while let row = try cursor.next() {
            guard let txn = row.text(1) else { continue }
            let posting = row.text(0) ?? "?"
            positions[txn, default: []].append(row.integer(4) ?? -1)
            let currency = row.text(2) ?? ""
            guard (try? Currency(currency)) != nil else {
                problems.append(CheckProblem(.unbalanced, table: "posting", id: posting, "currency \(row.shown(2)) is not an ISO 4217 code (transaction \(txn))"))
                continue
            }
            guard let minor = row.integer(3) else {
                problems.append(CheckProblem(.unbalanced, table: "posting", id: posting, "amountMinor \(row.shown(3)) is not an integer (transaction \(txn))"))
                continue
            }
            var list = sums[txn, default: []]
            if let index = list.firstIndex(where: { $0.currency == currency }) {
                let (sum, overflow) = list[index].minor.addingReportingOverflow(minor)
                list[index].minor = sum
                list[index].overflow = list[index].overflow || overflow
            } else {
                list.append(Sum(currency: currency, minor: minor))
            }
            sums[txn] = list
        }
        for id in order {
            let found = (positions[id] ?? []).sorted()
            if found.count < 2 {
                problems.append(CheckProblem(.unbalanced, table: "txn", id: id, "it has \(found.count) posting\(found.count == 1 ? "" : "s"); a transaction needs two or more"))
            } else if found != Array(0..<Int64(found.count)) {
                let list = found.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ")
                problems.append(CheckProblem(.unbalanced, table: "txn", id: id, "its postings are at positions \(list); expected 0 to \(found.count - 1)"))
            }
            for sum in sums[id] ?? [] where sum.minor != 0 || sum.overflow {
                let amount = (try? Currency(sum.currency)).map { Money(minor: sum.minor, currency: $0).plain } ?? "\(sum.minor) minor units"
                let text = sum.overflow ? "its \(sum.currency) postings add up past Int64" : "its \(sum.currency) postings sum to \(amount), not 0"
                problems.append(CheckProblem(.unbalanced, table: "txn", id: id, text))
            }
        }
    }

    /// Live schedules' rules (and loans' recurring prepayments) parse with the core's RRULE parser.
    mutating func rules() throws {
        if tables.contains("schedule") {
            for row in try rows("SELECT id, name, rule, start, adjustment, approval FROM schedule WHERE deleted = 0 ORDER BY position") {
                let id = row.text(0) ?? "?"
                let name = row.text(1) ?? ""
                let text = row.text(2) ?? ""
                do {
                    let recurrence = try Recurrence(rrule: text)
                    if let start = row.integer(3), let day = Int(exactly: start) { try recurrence.validate(start: Day(day)) }
                } catch {
                    problems.append(CheckProblem(.rule, table: "schedule", id: id, "'\(name)': rule \(row.shown(2)) does not parse: \(error)"))
                }
                if BusinessDayAdjustment(rawValue: row.text(4) ?? "") == nil {
                    problems.append(CheckProblem(.rule, table: "schedule", id: id, "'\(name)': adjustment \(row.shown(4)) is not one capital knows"))
                }
                if Schedule.Approval(rawValue: row.text(5) ?? "") == nil {
                    problems.append(CheckProblem(.rule, table: "schedule", id: id, "'\(name)': approval \(row.shown(5)) is not one capital knows"))
                }
            }
        }
        if tables.isSuperset(of: ["loan", "loanPrepayment"]) {
            let sql = """
                SELECT loanPrepayment.loanId, loanPrepayment.position, loanPrepayment.rule FROM loanPrepayment
                JOIN loan ON loan.id = loanPrepayment.loanId WHERE loan.deleted = 0 AND loanPrepayment.rule IS NOT NULL
                ORDER BY loanPrepayment.loanId, loanPrepayment.position
                """
            for row in try rows(sql) {
                do { _ = try Recurrence(rrule: row.text(2) ?? "") } catch {
                    problems.append(
                        CheckProblem(.rule, table: "loan", id: row.text(0) ?? "?", "prepayment \(row.shown(1)): rule \(row.shown(2)) does not parse: \(error)"))
                }
            }
        }
    }

    /// The account columns of each record table, for `references()`.
    private static let accountColumns: [(table: String, columns: [String])] = [
        ("loan", ["accountId", "payFromId", "categoryId", "disburseToId", "collateralId"]),
        ("card", ["accountId", "payFromId", "categoryId"]),
        ("deposit", ["accountId", "payoutId", "categoryId"]),
        ("due", ["payFromId", "categoryId"]),
        ("budget", ["categoryId", "payFromId"]),
    ]

    /// Live loans, cards, deposits, due payments, budgets and schedules name live accounts.
    mutating func references() throws {
        guard tables.contains("account") else { return }
        var removed: [String: Bool] = [:]  // account id → deleted
        for row in try rows("SELECT id, deleted FROM account") {
            if let id = row.text(0) { removed[id] = row.integer(1) != 0 }
        }
        func problem(_ column: String, _ value: String) -> String? {
            switch removed[value] {
            case nil: return "\(column) '\(value)' names no account"
            case true?: return "\(column) '\(value)' names a removed account"
            case false?: return nil
            }
        }
        for (table, columns) in Checker.accountColumns where tables.contains(table) {
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            for row in try rows("SELECT id, \(list) FROM \(table) WHERE deleted = 0 ORDER BY rowid") {
                let id = row.text(0) ?? "?"
                for (index, column) in columns.enumerated() {
                    guard let value = row.text(index + 1) else { continue }
                    if let message = problem(column, value) { problems.append(CheckProblem(.reference, table: table, id: id, message)) }
                }
            }
        }
        if tables.isSuperset(of: ["schedule", "schedulePosting"]) {
            let sql = """
                SELECT schedule.id, schedulePosting.position, schedulePosting.accountId FROM schedulePosting
                JOIN schedule ON schedule.id = schedulePosting.scheduleId WHERE schedule.deleted = 0 ORDER BY schedule.position, schedulePosting.position
                """
            for row in try rows(sql) {
                if let message = problem("posting \(row.shown(1)) accountId", row.text(2) ?? "NULL") {
                    problems.append(CheckProblem(.reference, table: "schedule", id: row.text(0) ?? "?", message))
                }
            }
        }
    }

    /// Live due payments have 0 ≤ paid ≤ total.
    mutating func dues() throws {
        guard tables.contains("due") else { return }
        for row in try rows("SELECT id, number, total, paid, currency FROM due WHERE deleted = 0 ORDER BY number") {
            let id = row.text(0) ?? "?"
            guard let total = row.integer(2), let paid = row.integer(3) else {
                problems.append(CheckProblem(.due, table: "due", id: id, "number \(row.shown(1)): total \(row.shown(2)) or paid \(row.shown(3)) is not an integer"))
                continue
            }
            if paid < 0 || paid > total {
                let currency = try? Currency(row.text(4) ?? "")
                let show = { (minor: Int64) in currency.map { Money(minor: minor, currency: $0).plain } ?? "\(minor)" }
                problems.append(CheckProblem(.due, table: "due", id: id, "number \(row.shown(1)): paid \(show(paid)) is not between 0 and the total \(show(total))"))
            }
        }
    }

    /// How many live records were checked, for the report.
    mutating func count() throws {
        for (name, table) in [
            ("accounts", "account"), ("transactions", "txn"), ("postings", "posting"), ("schedules", "schedule"), ("loans", "loan"),
            ("cards", "card"), ("deposits", "deposit"), ("dues", "due"), ("budgets", "budget"),
        ] where tables.contains(table) {
            let live = table == "posting" ? "" : " WHERE deleted = 0"
            counts.append((name, Int(try rows("SELECT COUNT(*) FROM \(table)\(live)").first?.integer(0) ?? 0)))
        }
    }
}

/// Reading values a damaged file may hold anything in: GRDB's typed subscripts trap on a value of
/// the wrong type (text where an integer belongs), so the checker reads the raw value and converts.
extension Row {
    /// The value as text, whatever its storage; nil for NULL.
    fileprivate func text(_ index: Int) -> String? {
        switch (self[index] as DatabaseValue).storage {
        case .null: return nil
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The value if it is stored as an integer.
    fileprivate func integer(_ index: Int) -> Int64? {
        if case .int64(let value) = (self[index] as DatabaseValue).storage { return value }
        return nil
    }

    /// The value as shown in a problem: quoted text, a number, or NULL.
    fileprivate func shown(_ index: Int) -> String {
        switch (self[index] as DatabaseValue).storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "'\(value)'"
        case .blob(let data): return "a blob of \(data.count) bytes"
        }
    }
}
