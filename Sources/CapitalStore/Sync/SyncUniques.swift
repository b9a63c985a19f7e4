import CapitalCore
import GRDB

/// Records two devices made for a slot only one may hold: a second budget of one category, loan
/// terms on one account twice, two rates of one currency and day, a statement line imported on
/// two phones, two dues numbered alike. Decided alike on every device by the stamps of the group
/// holding the slot (then by id): the earlier keeps it; the later is removed (`remove`) or takes
/// the next free number (`renumber`). The decision is a local change and travels like any other,
/// and every device makes the same one.
struct SyncUnique: Sendable {
    enum Resolution: Sendable {
        /// The later record is removed (and, for a slot held by removed rows too, gives it up).
        case remove
        /// The later record takes one more than the largest number.
        case renumber
    }

    /// The group whose columns hold the slot.
    let group: String
    let columns: [String]
    /// True when removed rows hold the slot too (the index is not limited to live rows).
    let includesRemoved: Bool
    let resolution: Resolution
}

enum SyncUniques {
    /// Settles `record`'s slots before it is written live with `values` (by group); returns the
    /// values to write and whether the record lost a slot and is to be removed.
    static func settle(
        _ db: Database, _ entity: SyncEntity, _ record: String, _ values: [String], state: [String: SyncWinner]
    ) throws -> (values: [String], removed: Bool) {
        var values = values
        var removed = false
        for slot in entity.uniques {
            guard let index = entity.groups.firstIndex(where: { $0.name == slot.group }) else { continue }
            let conditions = slot.columns.map { "\(SyncRecords.quoted($0)) = json_extract(?1, '$.\($0)')" }.joined(separator: " AND ")
            let live = slot.includesRemoved ? "" : " AND deleted = 0"
            guard
                let holder = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM \(entity.table) WHERE \(conditions)\(live) AND id != ?2"),
                    arguments: [values[index], record])
            else { continue }
            let mine = state[slot.group]?.stamp
            let theirs = try SyncState.winner(db, entity: entity.table, record: holder, group: slot.group)?.stamp
            let iAmLater = (mine ?? SyncStamp(hlc: .zero, device: ""), record) > (theirs ?? SyncStamp(hlc: .zero, device: ""), holder)
            switch slot.resolution {
            case .remove:
                if iAmLater {
                    removed = true
                    if slot.includesRemoved { values[index] = try cleared(db, values[index], slot.columns) }
                } else {
                    let clear = slot.includesRemoved ? slot.columns.map { ", \(SyncRecords.quoted($0)) = NULL" }.joined() : ""
                    try db.cachedStatement(sql: "UPDATE \(entity.table) SET deleted = 1\(clear), version = version + 1 WHERE id = ?")
                        .execute(arguments: [holder])
                }
            case .renumber:
                let column = slot.columns[0]
                let next = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(\(SyncRecords.quoted(column))) FROM \(entity.table)")) ?? 0) + 1
                if iAmLater {
                    values[index] = try String.fetchOne(
                        db.cachedStatement(sql: "SELECT json_set(?, '$.\(column)', ?)"), arguments: [values[index], next])!
                } else {
                    try db.cachedStatement(sql: "UPDATE \(entity.table) SET \(SyncRecords.quoted(column)) = ? WHERE id = ?").execute(arguments: [
                        next, holder,
                    ])
                }
            }
        }
        return (values, removed)
    }

    /// The group's value with `columns` set to null.
    private static func cleared(_ db: Database, _ value: String, _ columns: [String]) throws -> String {
        var value = value
        for column in columns {
            value = try String.fetchOne(db.cachedStatement(sql: "SELECT json_set(?, '$.\(column)', NULL)"), arguments: [value])!
        }
        return value
    }
}
