import CapitalCore
import Foundation
import GRDB

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

extension Store {
    /// Rebuilds the database's derived data from the user's records — today, the balance
    /// checkpoints from the postings — in one write transaction, and says how many rows changed.
    /// User data is never written.
    /// ```swift
    /// let fixed = try Store.repair(path: "capital.sqlite")   // 1: one damaged month rebuilt
    /// ```
    /// An empty file (no ledger yet) is left as it is: there is nothing to derive.
    /// - Throws: what `Store.open` throws for the file.
    /// - Complexity: O(postings).
    public static func repair(path: String) throws(StoreError) -> Int {
        let empty = try inspect(path: path) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 }
        if empty { return 0 }
        let store = try Store.open(path: path)
        return try store.write("rebuilding balance checkpoints") { db in
            let wrong = try Checkpoints.differences(db).count
            try db.execute(sql: Checkpoints.rebuild)
            return wrong
        }
    }
}

/// The checks of `Store.check`, one method each, collecting problems as they go. Every value is
/// read through `Row.rawText` and `Row.rawInteger`, never a typed subscript, so a damaged row is a
/// problem to report rather than a trap.
struct Checker {
    let db: Database
    var tables: Set<String> = []
    var schema: [String] = []
    var counts: [(name: String, count: Int)] = []
    var problems: [CheckProblem] = []

    init(db: Database) { self.db = db }

    mutating func run() throws {
        tables = Set(try rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.rawText(0) })
        if tables.contains("grdb_migrations") {
            schema = try rows("SELECT identifier FROM grdb_migrations ORDER BY rowid").compactMap { $0.rawText(0) }
        }
        guarded("running SQLite's integrity check") { try $0.integrity() }
        guarded("running SQLite's foreign key check") { try $0.foreignKeys() }
        guarded("reading accounts") { try $0.accounts() }
        guarded("reading transactions") { try $0.transactions() }
        guarded("reading schedules") { try $0.rules() }
        guarded("reading instruments") { try $0.references() }
        guarded("reading due payments") { try $0.dues() }
        guarded("reading balance checkpoints") { try $0.checkpoints() }
        guarded("reading the shared state") { try $0.shared() }
        guarded("counting records") { try $0.count() }
    }

    func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
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
            guard let line = row.rawText(0), line != "ok" else { continue }
            for part in line.split(whereSeparator: \.isNewline) where !part.hasPrefix("*** in database") {
                problems.append(CheckProblem(.integrity, String(part)))
            }
        }
    }

    mutating func foreignKeys() throws {
        var columns: [String: [Int64: [String]]] = [:]  // table → foreign key id → its columns
        for row in try rows("PRAGMA foreign_key_check") {
            let table = row.rawText(0) ?? "?"
            let rowid = row.rawInteger(1)
            let parent = row.rawText(2) ?? "?"
            let key = row.rawInteger(3) ?? -1
            if columns[table] == nil {
                var keys: [Int64: [String]] = [:]
                for fk in try rows("PRAGMA foreign_key_list(\(table.quotedDatabaseIdentifier))") {
                    keys[fk.rawInteger(0) ?? -1, default: []].append(fk.rawText(3) ?? "?")
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
                    if let uuid = found.rawText(0) { id = uuid }
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
                let id = row.rawText(0) ?? "?"
                let name = row.rawText(1) ?? ""
                if AccountKind(rawValue: row.rawText(2) ?? "") == nil {
                    problems.append(CheckProblem(.reference, table: "account", id: id, "'\(name)': kind \(row.shown(2)) is not an account kind"))
                }
                if (try? Currency(row.rawText(3) ?? "")) == nil {
                    problems.append(CheckProblem(.reference, table: "account", id: id, "'\(name)': currency \(row.shown(3)) is not an ISO 4217 code"))
                }
            }
        }
        if tables.contains("accountGroup") {
            for row in try rows("SELECT id, name, type FROM accountGroup WHERE deleted = 0 ORDER BY position")
            where GroupType(rawValue: row.rawText(2) ?? "") == nil {
                problems.append(
                    CheckProblem(
                        .reference, table: "accountGroup", id: row.rawText(0) ?? "?",
                        "'\(row.rawText(1) ?? "")': type \(row.shown(2)) is not a group type")
                )
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
            let id = row.rawText(0) ?? "?"
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
            guard let txn = row.rawText(1) else { continue }
            let posting = row.rawText(0) ?? "?"
            positions[txn, default: []].append(row.rawInteger(4) ?? -1)
            let currency = row.rawText(2) ?? ""
            guard (try? Currency(currency)) != nil else {
                problems.append(
                    CheckProblem(.unbalanced, table: "posting", id: posting, "currency \(row.shown(2)) is not an ISO 4217 code (transaction \(txn))"))
                continue
            }
            guard let minor = row.rawInteger(3) else {
                problems.append(
                    CheckProblem(.unbalanced, table: "posting", id: posting, "amountMinor \(row.shown(3)) is not an integer (transaction \(txn))"))
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
                problems.append(
                    CheckProblem(
                        .unbalanced, table: "txn", id: id,
                        "it has \(found.count) posting\(found.count == 1 ? "" : "s"); a transaction needs two or more"))
            } else if found != Array(0..<Int64(found.count)) {
                let list = found.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ")
                problems.append(
                    CheckProblem(.unbalanced, table: "txn", id: id, "its postings are at positions \(list); expected 0 to \(found.count - 1)"))
            }
            for sum in sums[id] ?? [] where sum.minor != 0 || sum.overflow {
                let amount = (try? Currency(sum.currency)).map { Money(minor: sum.minor, currency: $0).plain } ?? "\(sum.minor) minor units"
                let text = sum.overflow ? "its \(sum.currency) postings add up past Int64" : "its \(sum.currency) postings sum to \(amount), not 0"
                problems.append(CheckProblem(.unbalanced, table: "txn", id: id, text))
            }
        }
    }
}

/// Reading values a damaged file may hold anything in: GRDB's typed subscripts trap on a value of
/// the wrong type (text where an integer belongs), so the checker reads the raw value and converts.
extension Row {
    /// The value as text, whatever its storage; nil for NULL.
    func rawText(_ index: Int) -> String? {
        switch (self[index] as DatabaseValue).storage {
        case .null: return nil
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The value if it is stored as an integer.
    func rawInteger(_ index: Int) -> Int64? {
        if case .int64(let value) = (self[index] as DatabaseValue).storage { return value }
        return nil
    }

    /// The value as shown in a problem: quoted text, a number, or NULL.
    func shown(_ index: Int) -> String {
        switch (self[index] as DatabaseValue).storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "'\(value)'"
        case .blob(let data): return "a blob of \(data.count) bytes"
        }
    }
}
