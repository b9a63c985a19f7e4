import CapitalCore
import GRDB

extension Checker {
    /// Live schedules' rules (and loans' recurring prepayments) parse with the core's RRULE parser.
    mutating func rules() throws {
        if tables.contains("schedule") {
            for row in try rows("SELECT id, name, rule, start, adjustment, approval FROM schedule WHERE deleted = 0 ORDER BY position") {
                let id = row.rawText(0) ?? "?"
                let name = row.rawText(1) ?? ""
                let text = row.rawText(2) ?? ""
                do {
                    let rule = try Rule(parsing: text)
                    if let start = row.rawInteger(3), let day = Int(exactly: start) { try rule.validate(start: Day(day)) }
                } catch {
                    problems.append(CheckProblem(.rule, table: "schedule", id: id, "'\(name)': rule \(row.shown(2)) does not parse: \(error)"))
                }
                if BusinessDayAdjustment(rawValue: row.rawText(4) ?? "") == nil {
                    problems.append(CheckProblem(.rule, table: "schedule", id: id, "'\(name)': adjustment \(row.shown(4)) is not one capital knows"))
                }
                if Schedule.Approval(rawValue: row.rawText(5) ?? "") == nil {
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
                do { _ = try Recurrence(rrule: row.rawText(2) ?? "") } catch {
                    problems.append(
                        CheckProblem(
                            .rule, table: "loan", id: row.rawText(0) ?? "?",
                            "prepayment \(row.shown(1)): rule \(row.shown(2)) does not parse: \(error)")
                    )
                }
            }
        }
    }

    /// The account columns of each record table, for `references()`.
    static let accountColumns: [(table: String, columns: [String])] = [
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
            if let id = row.rawText(0) { removed[id] = row.rawInteger(1) != 0 }
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
                let id = row.rawText(0) ?? "?"
                for (index, column) in columns.enumerated() {
                    guard let value = row.rawText(index + 1) else { continue }
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
                if let message = problem("posting \(row.shown(1)) accountId", row.rawText(2) ?? "NULL") {
                    problems.append(CheckProblem(.reference, table: "schedule", id: row.rawText(0) ?? "?", message))
                }
            }
        }
    }

    /// Live due payments have 0 ≤ paid ≤ total.
    mutating func dues() throws {
        guard tables.contains("due") else { return }
        for row in try rows("SELECT id, number, total, paid, currency FROM due WHERE deleted = 0 ORDER BY number") {
            let id = row.rawText(0) ?? "?"
            guard let total = row.rawInteger(2), let paid = row.rawInteger(3) else {
                problems.append(
                    CheckProblem(
                        .due, table: "due", id: id, "number \(row.shown(1)): total \(row.shown(2)) or paid \(row.shown(3)) is not an integer"))
                continue
            }
            if paid < 0 || paid > total {
                let currency = try? Currency(row.rawText(4) ?? "")
                let show = { (minor: Int64) in currency.map { Money(minor: minor, currency: $0).plain } ?? "\(minor)" }
                problems.append(
                    CheckProblem(
                        .due, table: "due", id: id, "number \(row.shown(1)): paid \(show(paid)) is not between 0 and the total \(show(total))"))
            }
        }
    }

    /// The balance checkpoints equal the postings' sums per account, currency and month.
    mutating func checkpoints() throws {
        guard tables.contains("balanceMonth") else { return }
        for difference in try Checkpoints.differences(db) {
            problems.append(
                CheckProblem(
                    .checkpoint, table: "balanceMonth", id: difference.key,
                    "holds \(difference.stored ?? "no row"), the postings say \(difference.expected ?? "no row") (derived data: a repair rebuilds it from the postings)"
                ))
        }
    }

    /// For a shared ledger: every record's groups as its tables hold them against the shared
    /// state (`syncState`), and no write noted but not captured. A name shown in place of a
    /// clashing one (`syncName`) is derived, not a difference.
    /// - Complexity: O(records × groups).
    mutating func shared() throws {
        guard tables.contains("syncDevice"), try rows("SELECT 1 FROM syncDevice").first != nil else { return }
        let noted = try rows("SELECT entity, record FROM syncDirty")
        for row in noted {
            problems.append(
                CheckProblem(
                    .sync, table: row.rawText(0), id: row.rawText(1), "was written but no change set records it (a write outside capital?)"))
        }
        for entity in SyncSchema.entities {
            let states = try rows("SELECT record, grp, value FROM syncState WHERE entity = ? ORDER BY record", [entity.table])
            var byRecord: [String: [String: String]] = [:]
            for row in states { byRecord[row.rawText(0) ?? "", default: [:]][row.rawText(1) ?? ""] = row.rawText(2) }
            for (record, groups) in byRecord.sorted(by: { $0.key < $1.key }) {
                let values = try SyncRecords.read(db, entity, record)
                let shown = entity.uniqueName ? try SyncNames.shown(db, entity.table, record) : nil
                guard let values else {
                    if groups["deleted"] == "false", groups.count == entity.groups.count + 1 {
                        problems.append(CheckProblem(.sync, table: entity.table, id: record, "is shared as live but has no row"))
                    }
                    continue
                }
                for (group, value) in SyncRecords.groupValues(entity, values) {
                    guard let shared = groups[group], shared != value else { continue }
                    if group == "name", let shown, try SyncRecords.isShown(db, value, shown) { continue }
                    // A removed record's row may keep older values; only its removal counts.
                    if groups["deleted"] == "true", values.last == "true", group != "deleted" { continue }
                    problems.append(
                        CheckProblem(
                            .sync, table: entity.table, id: record,
                            "\(group) holds \(value), the shared state says \(shared) (a write outside capital? it will not be sent)"))
                }
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
            counts.append((name, Int(try rows("SELECT COUNT(*) FROM \(table)\(live)").first?.rawInteger(0) ?? 0)))
        }
    }
}
