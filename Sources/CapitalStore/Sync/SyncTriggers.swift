import GRDB

/// The triggers that note, in `syncDirty`, every shared record a statement inserts, updates or
/// deletes — its own row or one of its child rows. Installed when a ledger is first shared (a
/// ledger never shared pays nothing for them); their columns are not listed, so a column added
/// by a later migration is covered, and `version` says when a new table needs them installed.
enum SyncTriggers {
    /// Raised when a table joins or leaves `SyncSchema.entities`.
    static let version = 1

    /// Creates the triggers that do not exist yet.
    static func install(_ db: Database) throws {
        for entity in SyncSchema.entities {
            var tables: [(table: String, record: (String) -> String, filter: String?)] = [
                (entity.table, entity.recordSQL, entity.filter)
            ]
            for group in entity.groups {
                if let child = group.child { tables.append((child.table, { "\($0).\(SyncRecords.quoted(child.parent))" }, nil)) }
            }
            for (table, record, filter) in tables {
                for (operation, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                    let when = filter.map { " WHEN " + $0.replacingOccurrences(of: "%", with: row) } ?? ""
                    try db.execute(
                        sql: """
                            CREATE TRIGGER IF NOT EXISTS sync_\(table)_\(operation.lowercased()) AFTER \(operation) ON \(table)\(when) BEGIN
                                INSERT OR IGNORE INTO syncDirty(entity, record) VALUES ('\(entity.table)', \(record(row)));
                            END
                            """)
                }
            }
        }
    }
}
