import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// Databases written by capital as it was when each schema version was the newest
/// (`Tests/Fixtures/schema/`, made by `Scripts/make-schema-fixtures.sh`), migrated by today's
/// `Store.open`: every figure they held is still there, and a newer schema is refused untouched.
@Suite("Migrations: fixtures of every schema version")
struct MigrationFixtureTests {
    /// A fixture and what it holds, recorded from the file as committed with raw SQL
    /// (`SELECT COUNT(*) FROM txn WHERE deleted = 0`, sums of `posting.amountMinor` …).
    struct Fixture: CustomTestStringConvertible, Sendable {
        var version: String
        var applied: [String]
        var transactions: Int
        var accounts: Int
        var schedules: Int
        var loans: Int
        /// Balances in minor units by "account currency".
        var balances: [String: Int64]

        var testDescription: String { version }
        var path: String { MigrationFixtureTests.folder.appendingPathComponent("\(version).sqlite").path }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schema")

    static let all = [
        "v1", "v2-schedules", "v3-instruments", "v4-tracking", "v5-calendar-inherit", "v6-expected-flows", "v7-deposit-flows",
        "v8-balance-checkpoints",
        "v9-statement-lines", "v10-rates", "v11-sync", "v12-sync-login", "v13-sync-peers",
    ]

    static let fixtures: [Fixture] = [
        Fixture(
            version: "v1", applied: ["v1"], transactions: 137, accounts: 30, schedules: 0, loans: 0,
            balances: ["VTB Debit RUB": 32_194_452, "Cash RUB": 2_973_000, "Cash USD USD": 25_075, "Mortgage RUB": -475_765_433]),
        Fixture(
            version: "v2", applied: ["v1", "v2-schedules"], transactions: 140, accounts: 30, schedules: 3, loans: 0,
            balances: ["VTB Debit RUB": 18_694_452, "Housing RUB": 13_500_000, "Cash USD USD": 25_075]),
        Fixture(
            version: "v3", applied: ["v1", "v2-schedules", "v3-instruments"], transactions: 143, accounts: 32, schedules: 29, loans: 1,
            balances: ["VTB Debit RUB": 17_694_452, "Cash RUB": 2_935_500, "Family car RUB": 200_000_000]),
        Fixture(
            version: "v4", applied: Array(all.prefix(4)), transactions: 148, accounts: 39, schedules: 25, loans: 3,
            balances: ["VTB Debit RUB": 14_859_513, "Halva card RUB": -320_000, "Tinkoff deposit RUB": 5_000_000, "Cash USD USD": 25_075]),
    ]

    /// A copy of the fixture in a folder of its own: the committed file is never opened.
    static func copy(_ fixture: Fixture, into folder: TemporaryFolder) throws -> String {
        let path = folder.path("\(fixture.version).sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    @Test(arguments: fixtures)
    func fixtureHoldsTheRecordedFigures(fixture: Fixture) throws {
        let folder = try TemporaryFolder()
        let figures = try Figures(path: try MigrationFixtureTests.copy(fixture, into: folder))
        #expect(figures.applied == fixture.applied)
        #expect(figures.transactions == fixture.transactions)
        #expect(figures.accounts.count == fixture.accounts)
        #expect(figures.schedules.count == fixture.schedules)
        #expect(figures.loans.count == fixture.loans)
        for (key, minor) in fixture.balances {
            #expect(figures.balances[key] == minor, "\(key)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as? NSNumber)?.intValue ?? .max < 1_000_000)
    }

    @Test(arguments: fixtures)
    func migrationKeepsEveryFigure(fixture: Fixture) throws {
        let folder = try TemporaryFolder()
        let path = try MigrationFixtureTests.copy(fixture, into: folder)
        let before = try Figures(path: path)
        #expect(try Store.check(path: path).problems == [], "the fixture is sound before migrating")

        let calendarsBefore = try Self.scheduleCalendars(path)
        let store = try Store.open(path: path)
        #expect(
            try store.read("test") { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
                == MigrationFixtureTests.all)
        let after = try Figures(path: path)
        #expect(after.sameData(as: before))
        // Deposits stored so far had their credits made up to any today: from now on up to the day
        // before they were added.
        let unhandled = try store.read("test") { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM deposit WHERE handledThrough IS NOT CAST(julianday(date(createdAt)) - 2440587.5 AS INTEGER) - 1")
        }
        #expect(unhandled == 0)

        // Today's store reads the same ledger the old program wrote.
        let ledger = try store.snapshot()
        #expect(ledger.transactions.count == before.transactions)
        #expect(ledger.transactions.reduce(0) { $0 + $1.postings.count } == before.postings)
        let accounts = try store.accounts(includeHidden: true)
        #expect(
            accounts.map { "\($0.name)|\($0.kind.rawValue)|\($0.currency.code)|\($0.hidden)|\($0.floor.map(String.init) ?? "-")" } == before.accounts)
        let balances = try ledger.balances(on: try Day(iso: "2099-12-31"))
        var byName: [String: Int64] = [:]
        for (key, minor) in balances where minor != 0 {
            let name = try #require(accounts.first { $0.id == key.accountID }?.name)
            byName["\(name) \(key.currency.code)"] = minor
        }
        #expect(byName == before.balances)
        #expect(
            try store.groups().map { group in
                "\(group.name)|\(group.type.rawValue)|"
                    + group.accountIDs.map { id in accounts.first { $0.id == id }?.name ?? id }.joined(separator: ",")
            } == before.groups)
        #expect(
            try store.schedules().map { "\($0.name)|\($0.rule.recurrence.rrule)|\($0.start.iso)|\($0.end?.iso ?? "-")|\($0.exceptions.count)" }
                == before.schedules)
        let loans = try store.loans().map { loan in
            let name = accounts.first { $0.id == loan.accountID }?.name ?? "?"
            return "\(name)|\(loan.terms.principal)|\(loan.terms.term)|\(loan.terms.prepayments.count + loan.extras.count)"
        }
        // The same loans; listed by their account's name now (issue 51, item 13), where the old
        // program listed them in the order they were created.
        #expect(loans == before.loans.sorted { $0.lowercased() < $1.lowercased() })
        #expect(try Store.check(path: path).problems == [], "the migrated database is sound")
        // v5: a stored `none` became the ledger's calendar (''), any other name stayed.
        let calendarsAfter = try Self.scheduleCalendars(path)
        #expect(calendarsAfter == calendarsBefore.map { $0.hasSuffix("|none") ? String($0.dropLast(4)) : $0 }, "\(calendarsBefore)")

        // Opening it again changes nothing: WAL is set, every migration applied.
        let migrated = try #require(bytes(path))
        _ = try Store.open(path: path).snapshot()
        #expect(bytes(path) == migrated)
    }

    /// Each live schedule's name and stored calendar, `name|calendar`, read with plain SQL.
    static func scheduleCalendars(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try db.tableExists("schedule") else { return [] }
            return try String.fetchAll(db, sql: "SELECT name || '|' || calendar FROM schedule WHERE deleted = 0 ORDER BY position")
        }
    }

    /// The existing refusal, against each fixture: an unknown migration row is a newer capital's
    /// database, refused by open, check and backup before anything is written or left behind.
    /// Migrations check foreign keys as they write (`.immediate`), not the whole database before
    /// their commit: a dangling row the old program left (a posting of an account that is gone)
    /// does not stop an upgrade, and `check` names it afterwards. With GRDB's default (`.deferred`)
    /// the upgrade failed on it, after reading every row of the database once per migration.
    @Test func aDanglingRowDoesNotStopAnUpgradeAndCheckNamesIt() throws {
        let folder = try TemporaryFolder()
        let path = try MigrationFixtureTests.copy(MigrationFixtureTests.fixtures[3], into: folder)
        let raw = try DatabaseQueue(path: path)
        try raw.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE posting SET accountId = 'gone' WHERE rowid = (SELECT MIN(rowid) FROM posting)")
        }
        try raw.close()
        let store = try Store.open(path: path)
        #expect(try store.read("test") { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }.count == Self.all.count)
        let problems = try Store.check(path: path).problems
        #expect(problems.contains { $0.kind == .foreignKey })
    }

    @Test(arguments: fixtures)
    func newerSchemaIsRefusedWithoutAWrite(fixture: Fixture) throws {
        let folder = try TemporaryFolder()
        let path = try MigrationFixtureTests.copy(fixture, into: folder)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        let before = try #require(bytes(path))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path())

        func isNewer(_ error: any Error) -> Bool {
            guard case StoreError.newerSchema(let location, let unknown) = error else { return false }
            return location == path && unknown == ["v99-from-the-future"]
        }
        #expect { _ = try Store.open(path: path) } throws: { isNewer($0) }
        #expect { _ = try Store.check(path: path) } throws: { isNewer($0) }
        #expect { try Store.backup(path, to: folder.path("copy.sqlite")) } throws: { isNewer($0) }
        #expect(bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path()) == files, "no -wal, -shm or copy left behind")
    }
}

/// What a database holds, read with plain SQL that works on every schema version, independently
/// of the store's code.
struct Figures: Equatable {
    var applied: [String] = []
    var settings: [String] = []
    /// Live accounts in order: "name|kind|currency|hidden|floor".
    var accounts: [String] = []
    /// Live groups in order: "name|type|member,member".
    var groups: [String] = []
    var transactions = 0
    var removedTransactions = 0
    /// Postings of live transactions.
    var postings = 0
    /// Non-zero balances of live transactions' postings by "account currency".
    var balances: [String: Int64] = [:]
    /// Live schedules in order: "name|RRULE|start|end|exceptions".
    var schedules: [String] = []
    var postedOccurrences = 0
    var calendarDays: [String] = []
    /// Live loans: "account|principal|term|prepayments".
    var loans: [String] = []
    /// Rows of the v4 tables, each row as text.
    var tracking: [String] = []

    init(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            func texts(_ sql: String) throws -> [String] { try String.fetchAll(db, sql: sql) }
            let tables = Set(try texts("SELECT name FROM sqlite_master WHERE type = 'table'"))
            applied = try texts("SELECT identifier FROM grdb_migrations ORDER BY rowid")
            settings = try texts("SELECT key || '=' || value FROM setting WHERE key != 'defaultAccount' ORDER BY key")
            settings += try texts("SELECT 'defaultAccount=' || name FROM account WHERE id = (SELECT value FROM setting WHERE key = 'defaultAccount')")
            accounts = try texts(
                """
                SELECT name || '|' || kind || '|' || currency || '|' || (CASE hidden WHEN 1 THEN 'true' ELSE 'false' END) || '|' || IFNULL(floorMinor, '-')
                FROM account WHERE deleted = 0 ORDER BY position
                """)
            groups = try texts(
                """
                SELECT g.name || '|' || g.type || '|' || IFNULL((SELECT group_concat(name, ',') FROM (SELECT a.name FROM groupMember m JOIN account a ON a.id = m.accountId
                  WHERE m.groupId = g.id ORDER BY m.position)), '')
                FROM accountGroup g WHERE g.deleted = 0 ORDER BY g.position
                """)
            transactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE deleted = 0") ?? 0
            removedTransactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE deleted = 1") ?? 0
            postings = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0") ?? 0
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT account.name || ' ' || posting.currency AS key, SUM(posting.amountMinor) AS minor FROM posting
                    JOIN txn ON txn.id = posting.txnId JOIN account ON account.id = posting.accountId
                    WHERE txn.deleted = 0 GROUP BY account.id, posting.currency HAVING SUM(posting.amountMinor) != 0
                    """)
            {
                balances[row["key"]] = row["minor"]
            }
            if tables.contains("schedule") {
                schedules = try texts(
                    """
                    SELECT s.name || '|' || s.rule || '|' || date(s.start * 86400, 'unixepoch') || '|' || IFNULL(date(s."end" * 86400, 'unixepoch'), '-') || '|'
                      || (SELECT COUNT(*) FROM scheduleException e WHERE e.scheduleId = s.id)
                    FROM schedule s WHERE s.deleted = 0 ORDER BY s.position
                    """)
                let marks = tables.contains("expectedMark") ? "expectedMark WHERE kind = 'schedule'" : "postedOccurrence"
                postedOccurrences = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(marks)") ?? 0
                calendarDays = try texts(
                    "SELECT calendar || ' ' || date(day * 86400, 'unixepoch') || ' ' || kind || ' ' || name FROM calendarDay ORDER BY calendar, day")
            }
            if tables.contains("loan") {
                loans = try texts(
                    """
                    SELECT a.name || '|' || l.principal || '|' || l.term || '|' || (SELECT COUNT(*) FROM loanPrepayment p WHERE p.loanId = l.id)
                    FROM loan l JOIN account a ON a.id = l.accountId WHERE l.deleted = 0 ORDER BY l.createdAt, l.id
                    """)
            }
            for table in ["card", "deposit", "due", "duePayment", "budget"] where tables.contains(table) {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid") {
                    tracking.append(
                        "\(table): "
                            + row.columnNames.filter { $0 != "updatedAt" && $0 != "version" && $0 != "handledThrough" }.map {
                                "\($0)=\(row[$0] ?? "NULL")"
                            }.joined(
                                separator: " "))
                }
            }
        }
    }

    /// The same ledger: everything but the list of applied migrations.
    func sameData(as other: Figures) -> Bool {
        var a = self
        var b = other
        a.applied = []
        b.applied = []
        return a == b
    }
}
