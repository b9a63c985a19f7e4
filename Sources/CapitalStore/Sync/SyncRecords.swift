import CapitalCore
import GRDB

/// Reads a record's field groups from its tables, and writes them back when they arrive.
enum SyncRecords {
    /// The record's group values (`deleted` included), or nil when it has no row.
    static func read(_ db: Database, _ entity: SyncEntity, _ record: String) throws -> [String]? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: readSQLs[entity.table] ?? readSQL(entity)), arguments: [record]) else {
            return nil
        }
        return (0..<row.count).map { row[$0] as String }
    }

    /// `read`'s values named by their groups, `deleted` last; a missing row is deleted.
    static func groupValues(_ entity: SyncEntity, _ values: [String]?) -> [(group: String, value: String)] {
        guard let values else { return [("deleted", "true")] }
        return zip(entity.groups.map(\.name) + ["deleted"], values).map { ($0, $1) }
    }

    /// `readSQL` of every entity, written once (a share reads every record).
    private static let readSQLs = Dictionary(uniqueKeysWithValues: SyncSchema.entities.map { ($0.table, readSQL($0)) })

    /// One SELECT of every group's value of a record (bound as ?1).
    static func readSQL(_ entity: SyncEntity) -> String {
        let deleted = entity.softDelete ? "CASE WHEN deleted THEN 'true' ELSE 'false' END" : "'false'"
        return "SELECT \((entity.groups.map(valueSQL) + [deleted]).joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.whereRecord)"
    }

    /// The SQL making a group's value of the row selected (its children by the record ?1).
    private static func valueSQL(_ group: SyncGroup) -> String {
        var parts = group.columns.map { "'\($0)', \(quoted($0))" }
        if let child = group.child {
            let object = "json_object(\(child.columns.map { "'\($0)', \(quoted($0))" }.joined(separator: ", ")))"
            parts.append(
                "'rows', json((SELECT json_group_array(json(j)) FROM (SELECT \(object) AS j FROM \(child.table) "
                    + "WHERE \(quoted(child.parent)) = ?1 ORDER BY \(child.order))))")
        }
        return "json_object(\(parts.joined(separator: ", ")))"
    }

    static func quoted(_ column: String) -> String { "\"\(column)\"" }

    // MARK: Writing what arrived

    /// Makes the record's row agree with its groups' winning values in `syncState`: removes it
    /// when `deleted` won, inserts it when every group has a value and it has no row, updates the
    /// groups that differ otherwise. A record whose groups have not all arrived waits.
    ///
    /// When a live record of a uniquely named kind would take a name another live record holds,
    /// the one whose name was written later takes " (2)" (" (3)" …): on every device the same,
    /// and a local change that travels like any other.
    static func materialize(_ db: Database, _ entity: SyncEntity, _ record: String, now: String) throws {
        let state = try SyncState.winners(db, entity: entity.table, record: record)
        let current = try read(db, entity, record)
        var deleted = state["deleted"]?.value == "true"
        let values = entity.groups.map { state[$0.name]?.value }
        guard !deleted || entity.softDelete, values.allSatisfy({ $0 != nil }) else {
            // A row removed for good, or a record whose groups have not all arrived: only removal.
            if deleted, let current, current.last == "false" { try remove(db, entity, record, now: now) }
            return
        }
        var groupValues = values.map { $0! }
        if entity.uniqueName && !deleted, let name = entity.groups.firstIndex(where: { $0.name == "name" }) {
            // A name another live record holds waits under a placeholder key for `SyncNames.derive`.
            let key = try String.fetchOne(db.cachedStatement(sql: "SELECT json_extract(?, '$.nameKey')"), arguments: [groupValues[name]]) ?? ""
            if try SyncNames.isTaken(db, entity, key, by: record) {
                groupValues[name] = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT json_set(?, '$.nameKey', ?)"), arguments: [groupValues[name], SyncNames.placeholderKey(record)])!
            }
        }
        if !deleted && !entity.uniques.isEmpty {
            (groupValues, deleted) = try SyncUniques.settle(db, entity, record, groupValues, state: state)
        }
        // A removed record's row keeps its groups' last values, so that it comes back whole when
        // a device still using it keeps it (`keepAccountsWithActivity`) or an undo wins.
        guard let current else {
            try insert(db, entity, record, groupValues, deleted: deleted, now: now)
            return
        }
        // Removed before its values change (a removed row holds no name or slot), brought back
        // after (its values settled first).
        if deleted && current.last == "false" { try remove(db, entity, record, now: now) }
        for (index, group) in entity.groups.enumerated() where current[index] != groupValues[index] {
            try update(db, entity, group, record, groupValues[index], now: now)
        }
        if !deleted && current.last == "true" {
            try db.cachedStatement(
                sql: "UPDATE \(entity.table) SET deleted = 0, updatedAt = ?2, version = version + 1 WHERE \(entity.whereRecord)"
            ).execute(arguments: [record, now])
        }
    }

    /// Removes the record: soft for a table of records, the row itself for the others.
    private static func remove(_ db: Database, _ entity: SyncEntity, _ record: String, now: String) throws {
        if entity.softDelete {
            try db.cachedStatement(
                sql: "UPDATE \(entity.table) SET deleted = 1, updatedAt = ?2, version = version + 1 WHERE \(entity.whereRecord)"
            ).execute(arguments: [record, now])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(entity.table) WHERE \(entity.whereRecord)").execute(arguments: [record])
        }
    }

    private static func insert(_ db: Database, _ entity: SyncEntity, _ record: String, _ values: [String], deleted: Bool, now: String) throws {
        var (columns, expressions) = entity.insertedRow(record: "?1", deleted: deleted ? "1" : "0")
        // Parameters: ?1 the record, ?2 now, then the value of each group with columns.
        var arguments: [String] = [record, now]
        for (index, group) in entity.groups.enumerated() where !group.columns.isEmpty {
            arguments.append(values[index])
            for column in group.columns {
                columns.append(column)
                expressions.append("json_extract(?\(arguments.count), '$.\(column)')")
            }
        }
        for (column, sql) in entity.localDefaults {
            columns.append(column)
            expressions.append(sql)
        }
        let sql =
            "INSERT INTO \(entity.table)(\(columns.map(quoted).joined(separator: ", "))) VALUES (\(expressions.joined(separator: ", ")))"
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
        for (index, group) in entity.groups.enumerated() {
            if let child = group.child { try replaceChildren(db, child, record, values[index]) }
        }
    }

    private static func update(_ db: Database, _ entity: SyncEntity, _ group: SyncGroup, _ record: String, _ value: String, now: String) throws {
        if !group.columns.isEmpty {
            let assignments = group.columns.map { "\(quoted($0)) = json_extract(?2, '$.\($0)')" }
            let bookkeeping = entity.softDelete ? ", updatedAt = ?3, version = version + 1" : ""
            let sql = "UPDATE \(entity.table) SET \(assignments.joined(separator: ", "))\(bookkeeping) WHERE \(entity.whereRecord)"
            try db.cachedStatement(sql: sql).execute(arguments: entity.softDelete ? [record, value, now] : [record, value])
        }
        if let child = group.child { try replaceChildren(db, child, record, value) }
    }

    private static func replaceChildren(_ db: Database, _ child: SyncChild, _ record: String, _ value: String) throws {
        try db.cachedStatement(sql: "DELETE FROM \(child.table) WHERE \(quoted(child.parent)) = ?").execute(arguments: [record])
        let columns = [child.parent] + child.columns
        let values = ["?1"] + child.columns.map { "json_extract(value, '$.\($0)')" }
        let sql =
            "INSERT INTO \(child.table)(\(columns.map(quoted).joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) FROM json_each(?2, '$.rows')"
        try db.cachedStatement(sql: sql).execute(arguments: [record, value])
    }

    /// An account one device removed while another still used it — posted to it, or gave it to
    /// a budget, a loan, a card, a deposit, a due or a schedule — stays, closed (hidden) with its
    /// activity, so every posting keeps counting in the balances and nothing names a removed
    /// account. Every device that sees both makes the same change (not removed, hidden).
    static func keepAccountsWithActivity(_ db: Database, now: String) throws {
        var uses = [
            "SELECT 1 FROM posting JOIN txn ON txn.id = posting.txnId AND txn.deleted = 0 WHERE posting.accountId = account.id",
            """
            SELECT 1 FROM schedulePosting JOIN schedule ON schedule.id = schedulePosting.scheduleId AND schedule.deleted = 0
            WHERE schedulePosting.accountId = account.id
            """,
        ]
        for (table, columns) in Checker.accountColumns {
            uses.append("SELECT 1 FROM \(table) WHERE deleted = 0 AND account.id IN (\(columns.map(quoted).joined(separator: ", ")))")
        }
        let closed = try String.fetchAll(
            db.cachedStatement(
                sql: "SELECT id FROM account WHERE deleted = 1 AND (\(uses.map { "EXISTS (\($0))" }.joined(separator: " OR "))) ORDER BY id"))
        for id in closed {
            try db.execute(
                sql: "UPDATE account SET deleted = 0, hidden = 1, nameKey = ?, updatedAt = ?, version = version + 1 WHERE id = ?",
                arguments: [SyncNames.placeholderKey(id), now, id])
        }
        if !closed.isEmpty { try SyncNames.derive(db, SyncSchema.entity("account")!) }
    }

    /// Whether the name group's value `value` is the shown name `shown`.
    static func isShown(_ db: Database, _ value: String, _ shown: String) throws -> Bool {
        try String.fetchOne(db.cachedStatement(sql: "SELECT json_extract(?, '$.name')"), arguments: [value]) == shown
    }
}
