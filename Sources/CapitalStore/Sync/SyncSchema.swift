/// What of the database a device shares, and how: every synced record kind (an *entity*, one
/// table), its key, and its field *groups* — the sets of fields that change together and merge as
/// one value (docs/sync.md lists them). A group's value is the JSON object SQLite's `json_object`
/// makes of its columns (and of its child rows, as an array under `rows`), so every device writes
/// the same text for the same value.
///
/// Every entity also has the group `deleted` (`true` or `false`): a soft delete for tables with a
/// `deleted` column, the row's absence for the others.
///
/// Columns of no group are device-local (`local`): record bookkeeping (`createdAt`, `updatedAt`,
/// `version`) and the order a device inserted transactions in (`txn.seq`). A test fails when a
/// table or column is in neither list, so a new column cannot be forgotten.
struct SyncEntity: Sendable {
    /// The entity's name in change sets: its table.
    let table: String
    /// The key columns: one (`id`) or several (a record named by them, as a JSON array).
    let key: [String]
    /// The field groups but `deleted`.
    let groups: [SyncGroup]
    /// Columns of the table that are not shared.
    let local: [String]
    /// Values SQLite computes for local columns when a record arrives from another device.
    let localDefaults: [(column: String, sql: String)]
    /// The same values when a join inserts every record of the kind in one statement, in the
    /// order `SyncSnapshot` inserts them (`g0.record` is the record, `d.value` its `deleted`).
    let bulkDefaults: [String: String]
    /// A condition on a row for rows that are shared, `%` standing for the row (`NEW`, `OLD`).
    let filter: String?
    /// True when live records' names (`name`, `nameKey`) must differ (`SyncNames`).
    let uniqueName: Bool
    /// Other slots only one record may hold (`SyncUniques`).
    let uniques: [SyncUnique]

    init(
        _ table: String, key: [String] = ["id"], groups: [SyncGroup], local: [String] = ["createdAt", "updatedAt", "version"],
        localDefaults: [(column: String, sql: String)] = [], bulkDefaults: [String: String] = [:], filter: String? = nil,
        uniqueName: Bool = false, uniques: [SyncUnique] = []
    ) {
        self.table = table
        self.key = key
        self.groups = groups
        self.local = local
        self.localDefaults = localDefaults
        self.bulkDefaults = bulkDefaults
        self.filter = filter
        self.uniqueName = uniqueName
        self.uniques = uniques
    }

    /// True when the table soft-deletes: tables of records (with `createdAt` … `deleted`) do.
    var softDelete: Bool { local.contains("createdAt") }

    /// The record's name of a row: the key column, or the JSON array of the key columns.
    func recordSQL(_ row: String) -> String {
        key.count == 1 ? "\(row).\(key[0])" : "json_array(\(key.map { "\(row).\($0)" }.joined(separator: ", ")))"
    }

    /// The key and bookkeeping columns of a row being inserted and their SQL values: the record
    /// is the expression `record`, the time `?2`, the removal flag the expression `deleted`.
    func insertedRow(record: String, deleted: String) -> (columns: [String], expressions: [String]) {
        var columns = key
        var expressions = key.indices.map { key.count == 1 ? record : "json_extract(\(record), '$[\($0)]')" }
        if softDelete {
            columns += ["createdAt", "updatedAt", "deleted"]
            expressions += ["?2", "?2", deleted]
        }
        return (columns, expressions)
    }

    /// ` WHERE …` keeping the table's shared rows (`filter` on the table's own rows), or nothing.
    var whereShared: String { filter.map { " WHERE " + $0.replacingOccurrences(of: "%", with: table) } ?? "" }

    /// The condition selecting the record named by the bound parameter.
    var whereRecord: String {
        if key.count == 1 { return "\(key[0]) = ?1" }
        return key.enumerated().map { "\($1) = json_extract(?1, '$[\($0)]')" }.joined(separator: " AND ")
    }
}

/// A set of fields that change together: columns of the entity's table, child rows, or both.
struct SyncGroup: Sendable {
    let name: String
    let columns: [String]
    let child: SyncChild?

    init(_ name: String, _ columns: [String], child: SyncChild? = nil) {
        self.name = name
        self.columns = columns
        self.child = child
    }
}

/// Rows of another table that belong to a record (a transaction's postings), as one value.
struct SyncChild: Sendable {
    let table: String
    /// The child's column holding the owner's id.
    let parent: String
    /// The child's shared columns, in the order of their rows' JSON objects.
    let columns: [String]
    /// The order of the rows in the value.
    let order: String
}

enum SyncSchema {
    /// The entities, in the order their records are written when they arrive (accounts before
    /// the transactions that post to them).
    static let entities: [SyncEntity] = [
        SyncEntity(
            "setting", key: ["key"], groups: [SyncGroup("value", ["value"])], local: [],
            filter: "%.key IN ('currency', 'calendar')"),
        SyncEntity(
            "account",
            groups: [
                SyncGroup("name", ["name", "nameKey"]), SyncGroup("kind", ["kind", "currency"]),
                SyncGroup("limits", ["floorMinor", "level"]), SyncGroup("style", ["note", "position", "color", "icon"]),
                SyncGroup("hidden", ["hidden"]), SyncGroup("valuation", ["valueChange", "valueSince"]),
            ], uniqueName: true),
        SyncEntity(
            "accountGroup",
            groups: [
                SyncGroup("name", ["name", "nameKey"]), SyncGroup("style", ["type", "position"]),
                SyncGroup(
                    "members", [],
                    child: SyncChild(table: "groupMember", parent: "groupId", columns: ["accountId", "position"], order: "position, accountId")),
            ], uniqueName: true),
        SyncEntity(
            "rate", groups: [SyncGroup("day", ["currency", "day"]), SyncGroup("value", ["coefficient", "scale", "per"])],
            uniques: [SyncUnique(group: "day", columns: ["currency", "day"], includesRemoved: false, resolution: .remove)]),
        SyncEntity(
            "calendarDay", key: ["calendar", "day"], groups: [SyncGroup("day", ["kind", "name"])], local: []),
        SyncEntity(
            "schedule",
            groups: [
                SyncGroup("name", ["name", "nameKey"]), SyncGroup("labels", ["note", "approval", "position"]),
                SyncGroup("rule", ["rule", "adjustment", "calendar", "start", "end"]),
                SyncGroup(
                    "amount", ["amountLow", "amountHigh", "amountExpected"],
                    child: SyncChild(
                        table: "schedulePosting", parent: "scheduleId", columns: ["position", "accountId", "amountMinor", "currency", "note"],
                        order: "position")),
                SyncGroup(
                    "exceptions", [],
                    child: SyncChild(
                        table: "scheduleException", parent: "scheduleId", columns: ["original", "skip", "movedTo", "amountMinor"],
                        order: "original")),
                SyncGroup("handled", ["handledThrough"]),
            ], uniqueName: true),
        SyncEntity(
            "loan",
            groups: [
                SyncGroup(
                    "terms",
                    [
                        "accountId", "payFromId", "categoryId", "disburseToId", "collateralId", "principal", "ratePerMillion", "term",
                        "start", "firstPayment", "method", "dayCount", "rounding", "adjustment", "calendar",
                    ]),
                SyncGroup(
                    "prepayments", [],
                    child: SyncChild(
                        table: "loanPrepayment", parent: "loanId", columns: ["position", "day", "amount", "effect", "full", "rule", "end"],
                        order: "position")),
                SyncGroup("handled", ["handledThrough"]),
            ], uniques: [SyncUnique(group: "terms", columns: ["accountId"], includesRemoved: false, resolution: .remove)]),
        SyncEntity(
            "card",
            groups: [
                SyncGroup(
                    "terms",
                    [
                        "accountId", "payFromId", "categoryId", "creditLimit", "statementDay", "dueDay", "dueAfter", "payback",
                        "minimumPerMillion", "minimumFloor", "fixedAmount", "ratePerMillion", "grace",
                    ])
            ], uniques: [SyncUnique(group: "terms", columns: ["accountId"], includesRemoved: false, resolution: .remove)]),
        SyncEntity(
            "deposit",
            groups: [
                SyncGroup("terms", ["accountId", "payoutId", "categoryId", "ratePerMillion", "capitalisation", "opened", "maturity"]),
                SyncGroup("handled", ["handledThrough"]),
            ], uniques: [SyncUnique(group: "terms", columns: ["accountId"], includesRemoved: false, resolution: .remove)]),
        SyncEntity(
            "budget", groups: [SyncGroup("terms", ["categoryId", "payFromId", "amount", "period", "start"])],
            uniques: [SyncUnique(group: "terms", columns: ["categoryId"], includesRemoved: false, resolution: .remove)]),
        SyncEntity(
            "txn",
            groups: [
                SyncGroup("header", ["day", "payee", "note", "spender", "tags", "importKey"]),
                SyncGroup(
                    "postings", [],
                    child: SyncChild(
                        table: "posting", parent: "txnId", columns: ["id", "accountId", "position", "amountMinor", "currency", "note"],
                        order: "position, id")),
            ], local: ["createdAt", "updatedAt", "version", "seq"],
            localDefaults: [("seq", "(SELECT COALESCE(MAX(seq), 0) + 1 FROM txn)")],
            bulkDefaults: ["seq": "(SELECT COALESCE(MAX(seq), 0) FROM txn) + row_number() OVER (ORDER BY \(SyncSnapshot.insertOrder))"],
            uniques: [SyncUnique(group: "header", columns: ["importKey"], includesRemoved: true, resolution: .remove)]),
        SyncEntity(
            "due",
            groups: [
                SyncGroup(
                    "details",
                    ["type", "total", "currency", "reason", "dueDay", "iban", "address", "institution", "payFromId", "categoryId"]),
                SyncGroup("number", ["number"]), SyncGroup("paid", ["paid"]),
                SyncGroup("payments", [], child: SyncChild(table: "duePayment", parent: "dueId", columns: ["txnId"], order: "txnId")),
            ], uniques: [SyncUnique(group: "number", columns: ["number"], includesRemoved: true, resolution: .renumber)]),
        SyncEntity(
            "expectedMark", key: ["kind", "instrumentId", "day"], groups: [SyncGroup("mark", ["state", "txnId"])], local: []),
    ]

    /// Tables no device shares: derived from shared ones (`balanceMonth`, the checkpoints), the
    /// schema's own, and sync's bookkeeping.
    static let localTables: Set<String> = [
        "grdb_migrations", "balanceMonth", "syncDevice", "syncState", "syncDirty", "syncName", "changeSet", "syncConflict", "syncLogin", "syncPeer",
    ]

    /// The entity named `name`.
    static func entity(_ name: String) -> SyncEntity? { entities.first { $0.table == name } }

    /// The position of `name` in `entities`: the order records are written in.
    static func rank(_ name: String) -> Int { entities.firstIndex { $0.table == name } ?? entities.count }
}
