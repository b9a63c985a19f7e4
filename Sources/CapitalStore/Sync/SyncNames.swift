import CapitalCore
import GRDB

/// Names that two devices gave two live records of a kind whose names must differ (two accounts
/// "Wallet" made offline on two phones). Each record keeps the name its people gave it (its name
/// group, shared); what the tables show is derived from those names alike on every device: in
/// each set of records whose names fold to one key, ordered by their name group's stamp (then
/// id), the first shows its name and the others the first free " (2)", " (3)" … — so the later
/// one gets " (2)". The shown name is never sent as a change: it follows from what was sent, so
/// every device shows the same names without renames travelling back and forth.
enum SyncNames {
    /// A name key no person types, for a row whose shown name is not derived yet.
    static func placeholderKey(_ record: String) -> String { "\u{1}\(record)" }

    /// Derives the shown names of `entity`'s live records and writes those that differ; notes in
    /// `syncName` each record whose shown name is not its own, so the capture does not send it.
    static func derive(_ db: Database, _ entity: SyncEntity) throws {
        let table = entity.table
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT t.id, t.name, t.nameKey, json_extract(s.value, '$.name'), s.hlc, s.device FROM \(table) t
                    LEFT JOIN syncState s ON s.entity = '\(table)' AND s.record = t.id AND s.grp = 'name'
                    WHERE t.deleted = 0
                    """))
        struct Named {
            let id: String
            let shown: String
            let shownKey: String
            let own: String
            let stamp: SyncStamp?
        }
        var records: [Named] = []
        for row in rows {
            let id: String = row[0]
            let own: String = row[3] ?? row[1]
            let stamp = (row[4] as Int64?).map { SyncStamp(hlc: HybridTimestamp(stored: $0), device: row[5]) }
            records.append(Named(id: id, shown: row[1], shownKey: row[2], own: own, stamp: stamp))
        }
        let ownKeys = Set(records.map { Store.nameKey($0.own) })
        var taken = Set<String>()
        var shown: [String: String] = [:]
        let byKey = Dictionary(grouping: records) { Store.nameKey($0.own) }
        for key in byKey.keys.sorted() {
            let group = byKey[key]!.sorted {
                switch ($0.stamp, $1.stamp) {
                case let (a?, b?) where a != b: return a < b
                case (nil, _?): return true
                case (_?, nil): return false
                default: return $0.id < $1.id
                }
            }
            shown[group[0].id] = group[0].own
            taken.insert(key)
            for record in group.dropFirst() {
                var k = 2
                while ownKeys.contains(Store.nameKey("\(record.own) (\(k))")) || taken.contains(Store.nameKey("\(record.own) (\(k))")) {
                    k += 1
                }
                let name = "\(record.own) (\(k))"
                taken.insert(Store.nameKey(name))
                shown[record.id] = name
            }
        }
        let changed = records.filter { shown[$0.id] != $0.shown || Store.nameKey(shown[$0.id]!) != $0.shownKey }
        // Out of the way first, so that no two live rows hold one key in between.
        for record in changed {
            try db.cachedStatement(sql: "UPDATE \(table) SET nameKey = ? WHERE id = ?").execute(arguments: [placeholderKey(record.id), record.id])
        }
        for record in changed {
            let name = shown[record.id]!
            try db.cachedStatement(sql: "UPDATE \(table) SET name = ?, nameKey = ? WHERE id = ?").execute(arguments: [
                name, Store.nameKey(name), record.id,
            ])
        }
        try db.cachedStatement(sql: "DELETE FROM syncName WHERE entity = ?").execute(arguments: [table])
        for record in records where shown[record.id] != record.own {
            try db.cachedStatement(sql: "INSERT INTO syncName(entity, record, shown) VALUES (?, ?, ?)").execute(arguments: [
                table, record.id, shown[record.id]!,
            ])
        }
    }

    /// The name a record shows when it is not its own (derived by `derive`), nil otherwise.
    static func shown(_ db: Database, _ entity: String, _ record: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT shown FROM syncName WHERE entity = ? AND record = ?"), arguments: [entity, record])
    }

    /// Whether `nameKey` is held by a live record of `entity` other than `record`.
    static func isTaken(_ db: Database, _ entity: SyncEntity, _ nameKey: String, by record: String) throws -> Bool {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM \(entity.table) WHERE nameKey = ? AND deleted = 0 AND id != ?"),
            arguments: [nameKey, record]) != nil
    }
}
