import CapitalCore
import GRDB

/// Names that two devices gave two records of a kind whose live names must differ (two
/// accounts "Cash" made offline on two phones): the record whose name was written later — by
/// its name group's stamp, the same order on every device — takes the first free " (2)",
/// " (3)" …; the rename is then an ordinary local change and travels to the others.
enum SyncNames {
    /// The name group's value for `record`, renamed when it clashes and is the later; when the
    /// other record's name is the later, that record is renamed here and `nameValue` returned.
    static func unclashed(
        _ db: Database, _ entity: SyncEntity, _ record: String, nameValue: String, state: [String: SyncWinner]
    ) throws -> String {
        guard let name = try String.fetchOne(db, sql: "SELECT json_extract(?, '$.name')", arguments: [nameValue]) else { return nameValue }
        guard let other = try holder(db, entity, of: Store.nameKey(name), except: record) else { return nameValue }
        let theirs = try SyncState.winners(db, entity: entity.table, record: other)["name"]?.stamp
        let mine = state["name"]?.stamp
        if let theirs, let mine, mine < theirs {
            let otherName = try String.fetchOne(db, sql: "SELECT name FROM \(entity.table) WHERE id = ?", arguments: [other]) ?? name
            try rename(db, entity, other, to: free(db, entity, after: otherName))
            return nameValue
        }
        return try value(db, free(db, entity, after: name))
    }

    /// The live record other than `record` whose name folds to `key`.
    private static func holder(_ db: Database, _ entity: SyncEntity, of key: String, except record: String) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM \(entity.table) WHERE nameKey = ? AND deleted = 0 AND id != ?"),
            arguments: [key, record])
    }

    /// `name (k)` for the smallest k ≥ 2 no live record holds.
    private static func free(_ db: Database, _ entity: SyncEntity, after name: String) throws -> String {
        var k = 2
        while try holder(db, entity, of: Store.nameKey("\(name) (\(k))"), except: "") != nil { k += 1 }
        return "\(name) (\(k))"
    }

    private static func rename(_ db: Database, _ entity: SyncEntity, _ record: String, to name: String) throws {
        try db.execute(
            sql: "UPDATE \(entity.table) SET name = ?, nameKey = ?, updatedAt = ?, version = version + 1 WHERE id = ?",
            arguments: [name, Store.nameKey(name), Timestamp.now(), record])
    }

    /// The name group's value for `name`, written as the group's reader writes it.
    private static func value(_ db: Database, _ name: String) throws -> String {
        try String.fetchOne(db, sql: "SELECT json_object('name', ?, 'nameKey', ?)", arguments: [name, Store.nameKey(name)])!
    }
}
