import GRDB

/// The schema, one migration per shipped version. Shipped migrations are never edited.
///
/// Every migration runs with foreign keys checked as it writes (GRDB's `.immediate`), not with
/// them switched off and the whole database checked before the commit (`.deferred`, GRDB's
/// default): none of them recreates a table, which is what needs the switch, and that final
/// `PRAGMA foreign_key_check` reads every posting and transaction — about 8 s a migration on a
/// database of a million transactions, for a migration that may only add a table.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let migrations: [(String, @Sendable (Database) throws -> Void)] = [
            ("v1", v1), ("v2-schedules", v2), ("v3-instruments", v3), ("v4-tracking", v4), ("v5-calendar-inherit", v5),
            ("v6-expected-flows", v6), ("v7-deposit-flows", v7), ("v8-balance-checkpoints", v8), ("v9-statement-lines", v9),
            ("v10-rates", v10), ("v11-sync", v11), ("v12-sync-login", v12), ("v13-sync-peers", v13),
        ]
        for (identifier, migrate) in migrations {
            migrator.registerMigration(identifier, foreignKeyChecks: .immediate, migrate: migrate)
        }
        return migrator
    }

    /// Every record carries id (UUID text), createdAt, updatedAt, version and deleted (soft delete).
    private static func addRecordColumns(_ t: TableDefinition) {
        t.primaryKey("id", .text)
        t.column("createdAt", .datetime).notNull()
        t.column("updatedAt", .datetime).notNull()
        t.column("version", .integer).notNull().defaults(to: 1)
        t.column("deleted", .boolean).notNull().defaults(to: false)
    }

    private static func v1(_ db: Database) throws {
        try db.create(table: "setting") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "account") { t in
            addRecordColumns(t)
            t.column("name", .text).notNull()
            // The name folded for comparison (Unicode case and normalisation): unique among live accounts.
            t.column("nameKey", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("floorMinor", .integer)
            t.column("level", .integer)
            t.column("hidden", .boolean).notNull().defaults(to: false)
            t.column("note", .text).notNull().defaults(to: "")
            t.column("position", .integer).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX account_nameKey ON account(nameKey) WHERE deleted = 0")
        try db.create(table: "accountGroup") { t in
            addRecordColumns(t)
            t.column("name", .text).notNull()
            t.column("nameKey", .text).notNull()
            t.column("type", .text).notNull()
            t.column("position", .integer).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX accountGroup_nameKey ON accountGroup(nameKey) WHERE deleted = 0")
        try db.create(table: "groupMember") { t in
            t.column("groupId", .text).notNull().references("accountGroup", onDelete: .cascade)
            t.column("accountId", .text).notNull().references("account", onDelete: .cascade)
            t.column("position", .integer).notNull()
            t.primaryKey(["groupId", "accountId"])
        }
        try db.create(table: "txn") { t in
            addRecordColumns(t)
            t.column("day", .integer).notNull()
            t.column("seq", .integer).notNull()
            t.column("payee", .text).notNull().defaults(to: "")
            t.column("note", .text).notNull().defaults(to: "")
            t.column("spender", .text).notNull().defaults(to: "")
            t.column("tags", .text).notNull().defaults(to: "")
        }
        try db.create(index: "txn_day_seq", on: "txn", columns: ["day", "seq"])
        try db.create(index: "txn_seq", on: "txn", columns: ["seq"])
        // Postings are parts of their transaction: they change with it (its version) and go with it.
        try db.create(table: "posting") { t in
            t.primaryKey("id", .text)
            t.column("txnId", .text).notNull().references("txn", onDelete: .cascade)
            t.column("accountId", .text).notNull().references("account")
            t.column("position", .integer).notNull()
            t.column("amountMinor", .integer).notNull()
            t.column("currency", .text).notNull()
            t.column("note", .text).notNull().defaults(to: "")
        }
        try db.create(index: "posting_txn", on: "posting", columns: ["txnId"])
        try db.create(index: "posting_account", on: "posting", columns: ["accountId"])
    }

    /// Schedules, their template postings and exceptions, what `post` has posted, and the user's
    /// own holidays and working days.
    private static func v2(_ db: Database) throws {
        try db.create(table: "schedule") { t in
            addRecordColumns(t)
            t.column("name", .text).notNull()
            t.column("nameKey", .text).notNull()
            t.column("note", .text).notNull().defaults(to: "")
            t.column("rule", .text).notNull()  // RRULE text
            t.column("adjustment", .text).notNull()
            t.column("calendar", .text).notNull()
            t.column("start", .integer).notNull()
            t.column("end", .integer)
            t.column("approval", .text).notNull()
            // The amount model, when the schedule has one (two postings: to, from).
            t.column("amountLow", .integer)
            t.column("amountHigh", .integer)
            t.column("amountExpected", .integer)
            // Occurrences whose rule day is on or before this were handled before the schedule
            // existed (or by an earlier `post`): `post` never creates them.
            t.column("handledThrough", .integer).notNull()
            t.column("position", .integer).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX schedule_nameKey ON schedule(nameKey) WHERE deleted = 0")
        try db.create(table: "schedulePosting") { t in
            t.column("scheduleId", .text).notNull().references("schedule", onDelete: .cascade)
            t.column("position", .integer).notNull()
            t.column("accountId", .text).notNull().references("account")
            t.column("amountMinor", .integer).notNull()
            t.column("currency", .text).notNull()
            t.column("note", .text).notNull().defaults(to: "")
            t.primaryKey(["scheduleId", "position"])
        }
        try db.create(table: "scheduleException") { t in
            t.column("scheduleId", .text).notNull().references("schedule", onDelete: .cascade)
            t.column("original", .integer).notNull()
            t.column("skip", .boolean).notNull().defaults(to: false)
            t.column("movedTo", .integer)
            t.column("amountMinor", .integer)
            t.primaryKey(["scheduleId", "original"])
        }
        // One row per posted occurrence: the primary key makes posting twice impossible.
        try db.create(table: "postedOccurrence") { t in
            t.column("scheduleId", .text).notNull().references("schedule", onDelete: .cascade)
            t.column("original", .integer).notNull()
            t.column("txnId", .text).notNull().references("txn")
            t.primaryKey(["scheduleId", "original"])
        }
        try db.create(table: "calendarDay") { t in
            t.column("calendar", .text).notNull()
            t.column("day", .integer).notNull()
            t.column("kind", .text).notNull()  // holiday or workday
            t.column("name", .text).notNull().defaults(to: "")
            t.primaryKey(["calendar", "day"])
        }
    }

    /// Instruments: loans with their prepayments, credit cards, deposits, and assets whose value
    /// changes at a yearly rate. Each instrument belongs to one account and goes by its name.
    private static func v3(_ db: Database) throws {
        try db.create(table: "loan") { t in
            addRecordColumns(t)
            t.column("accountId", .text).notNull().references("account")
            t.column("payFromId", .text).notNull().references("account")
            t.column("categoryId", .text).notNull().references("account")
            t.column("disburseToId", .text).references("account")
            t.column("collateralId", .text).references("account")
            t.column("principal", .integer).notNull()
            t.column("ratePerMillion", .integer).notNull()
            t.column("term", .integer).notNull()
            t.column("start", .integer).notNull()
            t.column("firstPayment", .integer).notNull()
            t.column("method", .text).notNull()
            t.column("dayCount", .text).notNull()
            t.column("rounding", .text).notNull()
            t.column("adjustment", .text).notNull()
            t.column("calendar", .text).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX loan_account ON loan(accountId) WHERE deleted = 0")
        // One-off prepayments (rule NULL) and recurring extra payments (a rule from `day` to `end`).
        try db.create(table: "loanPrepayment") { t in
            t.column("loanId", .text).notNull().references("loan", onDelete: .cascade)
            t.column("position", .integer).notNull()
            t.column("day", .integer).notNull()
            t.column("amount", .integer).notNull()
            t.column("effect", .text).notNull()
            t.column("full", .boolean).notNull().defaults(to: false)
            t.column("rule", .text)
            t.column("end", .integer)
            t.primaryKey(["loanId", "position"])
        }
        try db.create(table: "card") { t in
            addRecordColumns(t)
            t.column("accountId", .text).notNull().references("account")
            t.column("payFromId", .text).notNull().references("account")
            t.column("categoryId", .text).notNull().references("account")
            t.column("creditLimit", .integer).notNull()
            t.column("statementDay", .integer).notNull()
            // Exactly one of dueDay (a day of the month) and dueAfter (days after the statement).
            t.column("dueDay", .integer)
            t.column("dueAfter", .integer)
            t.column("payback", .text).notNull()  // full, minimum or fixed
            t.column("minimumPerMillion", .integer)
            t.column("minimumFloor", .integer)
            t.column("fixedAmount", .integer)
            t.column("ratePerMillion", .integer).notNull()
            t.column("grace", .text).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX card_account ON card(accountId) WHERE deleted = 0")
        try db.create(table: "deposit") { t in
            addRecordColumns(t)
            t.column("accountId", .text).notNull().references("account")
            t.column("payoutId", .text).references("account")
            t.column("categoryId", .text).notNull().references("account")
            t.column("ratePerMillion", .integer).notNull()
            t.column("capitalisation", .text).notNull()
            t.column("opened", .integer).notNull()
            t.column("maturity", .integer)
        }
        try db.execute(sql: "CREATE UNIQUE INDEX deposit_account ON deposit(accountId) WHERE deleted = 0")
        try db.alter(table: "account") { t in
            // A yearly change of value in millionths (-150000: loses 15 % a year), counted from valueSince.
            t.add(column: "valueChange", .integer)
            t.add(column: "valueSince", .integer)
        }
    }

    /// Tracking: due payments (bills and fines), budgets, and a colour and icon for categories.
    private static func v4(_ db: Database) throws {
        try db.create(table: "due") { t in
            addRecordColumns(t)
            t.column("type", .text).notNull()  // bill or fine
            t.column("total", .integer).notNull()
            t.column("paid", .integer).notNull().defaults(to: 0)
            t.column("currency", .text).notNull()
            t.column("reason", .text).notNull()
            t.column("dueDay", .integer).notNull()
            t.column("iban", .text).notNull().defaults(to: "")
            t.column("address", .text).notNull().defaults(to: "")
            t.column("institution", .text).notNull().defaults(to: "")
            t.column("payFromId", .text).references("account")
            t.column("categoryId", .text).references("account")
            t.column("number", .integer).notNull()  // the short id users type: 1, 2, 3 …
        }
        try db.execute(sql: "CREATE UNIQUE INDEX due_number ON due(number)")
        // A due payment's payments: the real transactions `due pay` recorded.
        try db.create(table: "duePayment") { t in
            t.column("dueId", .text).notNull().references("due", onDelete: .cascade)
            t.column("txnId", .text).notNull().references("txn", onDelete: .cascade)
            t.primaryKey(["dueId", "txnId"])
        }
        try db.create(table: "budget") { t in
            addRecordColumns(t)
            t.column("categoryId", .text).notNull().references("account")
            t.column("payFromId", .text).references("account")  // nil: the default account
            t.column("amount", .integer).notNull()
            t.column("period", .text).notNull()  // weekly, monthly or yearly
            t.column("start", .integer).notNull()  // the first day of the first period
        }
        try db.execute(sql: "CREATE UNIQUE INDEX budget_category ON budget(categoryId) WHERE deleted = 0")
        try db.alter(table: "account") { t in
            t.add(column: "color", .text)
            t.add(column: "icon", .text)
        }
    }

    /// Schedules added without a calendar stored `none` (or, after `calendar use`, a copy of the
    /// ledger's); the docs promised the ledger's. `none` becomes `''` (`Rule.ledgerCalendar`):
    /// the ledger's calendar, whichever it is now and later. From here on `--calendar none` is
    /// stored as an explicit `none`.
    private static func v5(_ db: Database) throws {
        try db.execute(sql: "UPDATE schedule SET calendar = '' WHERE calendar = 'none'")
    }

    /// Expected flows get a state (issue 17). One table keeps, for schedules and loans alike, the
    /// flows a transaction stands for — `posted` (written by `post`) or `settled` (recorded by the
    /// user) — and those `skipped`; the schedules' posted occurrences move into it. Loans get the
    /// day their history was handled through: payments up to it follow the schedule, later ones
    /// are open until posted or settled. Loans stored so far followed their schedule up to any
    /// today; from now on they do up to the day before they were added.
    private static func v6(_ db: Database) throws {
        try db.create(table: "expectedMark") { t in
            t.column("kind", .text).notNull()  // schedule or loan
            t.column("instrumentId", .text).notNull()
            t.column("day", .integer).notNull()  // the flow's key day: a rule day, a payment's day before adjustment
            t.column("state", .text).notNull()  // posted, settled or skipped
            t.column("txnId", .text).references("txn")
            t.primaryKey(["kind", "instrumentId", "day"])
        }
        try db.execute(
            sql:
                "INSERT INTO expectedMark(kind, instrumentId, day, state, txnId) SELECT 'schedule', scheduleId, original, 'posted', txnId FROM postedOccurrence"
        )
        try db.drop(table: "postedOccurrence")
        try db.execute(sql: "CREATE INDEX expectedMark_txn ON expectedMark(txnId)")
        try db.alter(table: "loan") { t in t.add(column: "handledThrough", .integer) }
        try db.execute(sql: "UPDATE loan SET handledThrough = CAST(julianday(date(createdAt)) - 2440587.5 AS INTEGER) - 1")
    }

    /// Deposits' interest and payouts become expected flows, open after the day their history was
    /// handled through; deposits stored so far credited every one on its day up to any today, from
    /// now on up to the day before they were added.
    private static func v7(_ db: Database) throws {
        try db.alter(table: "deposit") { t in t.add(column: "handledThrough", .integer) }
        try db.execute(sql: "UPDATE deposit SET handledThrough = CAST(julianday(date(createdAt)) - 2440587.5 AS INTEGER) - 1")
    }

    /// Balances at checkpoints (issue 20): each account's postings summed per currency and month,
    /// kept by triggers in the same write as every change to a posting or a transaction, so that a
    /// balance on any day is the months before it plus the postings of its own month, whatever the
    /// length of the history. Built here for the postings already stored.
    private static func v8(_ db: Database) throws {
        try db.execute(sql: Checkpoints.schema)
        try db.execute(sql: Checkpoints.rebuild)
    }

    /// Bank statement import (issue 18): the statement line a transaction was imported from or
    /// linked to, `ACCOUNTID:KEY` (the bank's FITID, or a digest of the line), so that importing
    /// the same line again adds nothing. At most one transaction holds a key.
    private static func v9(_ db: Database) throws {
        try db.alter(table: "txn") { t in t.add(column: "importKey", .text) }
        try db.execute(sql: "CREATE UNIQUE INDEX txn_importKey ON txn(importKey)")
    }

    /// Exchange rates (issue 19): what `currency` is worth in the ledger's currency from `day` on,
    /// `coefficient × 10^-scale` units for `per` units, exact. One live rate a currency and day.
    private static func v10(_ db: Database) throws {
        try db.create(table: "rate") { t in
            addRecordColumns(t)
            t.column("currency", .text).notNull()
            t.column("day", .integer).notNull()
            t.column("coefficient", .integer).notNull()
            t.column("scale", .integer).notNull()
            t.column("per", .integer).notNull().defaults(to: 1)
        }
        try db.execute(sql: "CREATE UNIQUE INDEX rate_currency_day ON rate(currency, day) WHERE deleted = 0")
    }

    /// Sync's bookkeeping (docs/sync.md): this device, the winning value of every shared field
    /// group, the records a write touched, names shown in place of clashing ones, the device's own
    /// change sets, and lost values.
    private static func v11(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE syncDevice (
                    id TEXT PRIMARY KEY NOT NULL, hlc INTEGER NOT NULL, lastSeq INTEGER NOT NULL, cursor INTEGER NOT NULL,
                    triggers INTEGER NOT NULL, server TEXT, ledger TEXT, user TEXT, syncedAt TEXT);
                CREATE TABLE syncState (
                    entity TEXT NOT NULL, record TEXT NOT NULL, grp TEXT NOT NULL, value TEXT NOT NULL,
                    hlc INTEGER NOT NULL, device TEXT NOT NULL, baseHlc INTEGER, baseDevice TEXT,
                    PRIMARY KEY (entity, record, grp)) WITHOUT ROWID;
                CREATE TABLE syncDirty (entity TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (entity, record)) WITHOUT ROWID;
                CREATE TABLE syncName (entity TEXT NOT NULL, record TEXT NOT NULL, shown TEXT NOT NULL, PRIMARY KEY (entity, record)) WITHOUT ROWID;
                CREATE TABLE changeSet (
                    id TEXT PRIMARY KEY NOT NULL, device TEXT NOT NULL, deviceSeq INTEGER NOT NULL, body TEXT NOT NULL, serverSeq INTEGER,
                    UNIQUE (device, deviceSeq));
                CREATE INDEX changeSet_pending ON changeSet(deviceSeq) WHERE serverSeq IS NULL;
                CREATE TABLE syncConflict (
                    id TEXT PRIMARY KEY NOT NULL, at TEXT NOT NULL, entity TEXT NOT NULL, record TEXT NOT NULL, grp TEXT NOT NULL,
                    lostValue TEXT NOT NULL, lostHlc INTEGER NOT NULL, lostDevice TEXT NOT NULL,
                    keptValue TEXT NOT NULL, keptHlc INTEGER NOT NULL, keptDevice TEXT NOT NULL, resolved INTEGER NOT NULL DEFAULT 0);
                """)
    }

    /// The device's sign-in to a sync server: one row, device-local, never synced.
    private static func v12(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE syncLogin (
                    id INTEGER PRIMARY KEY CHECK (id = 1), server TEXT NOT NULL, user TEXT NOT NULL,
                    access TEXT NOT NULL, accessExpiresAt INTEGER NOT NULL, refresh TEXT NOT NULL, refreshExpiresAt INTEGER NOT NULL);
                ALTER TABLE syncDevice ADD COLUMN verifiedCursor INTEGER;
                ALTER TABLE syncDevice ADD COLUMN verifiedDigest TEXT;
                """)
    }

    /// The user each device of the shared ledger writes for, as the server says (conflicts name people).
    private static func v13(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE syncPeer (device TEXT PRIMARY KEY, user TEXT NOT NULL)")
    }
}
