import Foundation
import GRDB
import Testing

@Suite("capital check")
struct CheckCommandTests {
    @Test func sampleIsCleanAndNothingIsWritten() throws {
        let cli = try CLI.household()
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        let (transactions, postings) = try RawDatabase.read(cli.db) { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE deleted = 0") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posting") ?? 0
            )
        }
        let text = cli.ok(["check"])
        #expect(text.split(separator: "\n").count == 1, "\(text)")
        #expect(text.hasPrefix("\(cli.db): ok ("), "\(text)")
        #expect(text.contains("\(transactions) transactions, \(postings) postings"), "\(text)")

        let report = try #require(try cli.json(["check"]) as? [String: Any])
        #expect(report["database"] as? String == cli.db)
        #expect(report["ok"] as? Bool == true)
        #expect((report["problems"] as? [Any])?.isEmpty == true)
        #expect(
            report["schema"] as? [String] == [
                "v1", "v2-schedules", "v3-instruments", "v4-tracking", "v5-calendar-inherit", "v6-expected-flows", "v7-deposit-flows",
                "v8-balance-checkpoints", "v9-statement-lines", "v10-rates", "v11-sync", "v12-sync-login", "v13-sync-peers",
            ])
        let checked = try #require(report["checked"] as? [String: Int])
        #expect(checked["transactions"] == transactions)
        #expect(checked["postings"] == postings)
        #expect(cli.ok(["check", "--format", "csv"]) == "kind,table,id,message\n")

        #expect(FileManager.default.contents(atPath: cli.db) == before)
        #expect(RawDatabase.sideFiles(cli.db) == [])
    }

    /// Breaks one of each of the ledger's rules behind capital's back (raw SQL, foreign keys off)
    /// and expects exactly those problems, each with its record's id, one per line.
    @Test func everyBrokenRuleIsReportedWithItsID() throws {
        let cli = try CLI.household()
        struct Ids {
            var unbalanced = "", onePosting = "", deleted = "", schedule = "", loan = "", card = "", budget = "", category = ""
            var over = "", negative = ""
        }
        var ids = Ids()
        try RawDatabase.write(cli.db) { db in
            struct NoRow: Error { var sql: String }
            func one(_ sql: String) throws -> String {
                guard let value = try String.fetchOne(db, sql: sql) else { throw NoRow(sql: sql) }
                return value
            }
            let live =
                "SELECT txnId FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0 GROUP BY txnId HAVING COUNT(*) = 2 ORDER BY txn.day, txn.seq"
            let twoPostings = try String.fetchAll(db, sql: live)
            ids.unbalanced = twoPostings[0]
            ids.onePosting = twoPostings[1]
            ids.deleted = twoPostings[2]
            // 10.00 too much on one posting; one posting gone; a removed transaction left unbalanced (not a problem).
            try db.execute(
                sql: "UPDATE posting SET amountMinor = amountMinor + 1000 WHERE id = (SELECT id FROM posting WHERE txnId = ? AND position = 0)",
                arguments: [ids.unbalanced])
            try db.execute(sql: "DELETE FROM posting WHERE txnId = ? AND position = 1", arguments: [ids.onePosting])
            try db.execute(sql: "UPDATE txn SET deleted = 1 WHERE id = ?", arguments: [ids.deleted])
            try db.execute(sql: "UPDATE posting SET amountMinor = amountMinor + 7 WHERE txnId = ?", arguments: [ids.deleted])

            ids.schedule = try one("SELECT id FROM schedule WHERE name = 'Gymnastics'")
            try db.execute(sql: "UPDATE schedule SET rule = 'FREQ=FORTNIGHTLY' WHERE id = ?", arguments: [ids.schedule])
            ids.loan = try one("SELECT loan.id FROM loan JOIN account ON account.id = loan.accountId WHERE account.name = 'Car Loan'")
            try db.execute(sql: "UPDATE loan SET payFromId = 'no-such-account' WHERE id = ?", arguments: [ids.loan])
            ids.card = try one("SELECT id FROM card")
            ids.category = try one("SELECT categoryId FROM card")
            try db.execute(sql: "UPDATE account SET deleted = 1 WHERE id = ?", arguments: [ids.category])
            ids.budget = try one("SELECT budget.id FROM budget JOIN account ON account.id = budget.categoryId WHERE account.name = 'Groceries'")
            try db.execute(sql: "UPDATE budget SET categoryId = 'gone' WHERE id = ?", arguments: [ids.budget])
            ids.over = try one("SELECT id FROM due WHERE number = 2")
            try db.execute(sql: "UPDATE due SET paid = total + 100 WHERE id = ?", arguments: [ids.over])
            ids.negative = try one("SELECT id FROM due WHERE number = 4")
            try db.execute(sql: "UPDATE due SET paid = -1 WHERE id = ?", arguments: [ids.negative])
        }
        let before = try #require(FileManager.default.contents(atPath: cli.db))

        let result = cli.run(["check"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "")
        var lines = result.stdout.split(separator: "\n").map(String.init)
        let summary = lines.removeLast()
        let expected = [
            "foreign-key: loan \(ids.loan): payFromId 'no-such-account' names no row of account",
            "foreign-key: budget \(ids.budget): categoryId 'gone' names no row of account",
            "unbalanced: txn \(ids.unbalanced): its RUB postings sum to 10.00, not 0",
            "unbalanced: txn \(ids.onePosting): it has 1 posting; a transaction needs two or more",
            "rule: schedule \(ids.schedule): 'Gymnastics': rule 'FREQ=FORTNIGHTLY' does not parse: FREQ 'FORTNIGHTLY': expected DAILY, WEEKLY, MONTHLY or YEARLY",
            "reference: loan \(ids.loan): payFromId 'no-such-account' names no account",
            "reference: card \(ids.card): categoryId '\(ids.category)' names a removed account",
            "reference: budget \(ids.budget): categoryId 'gone' names no account",
            "due: due \(ids.over): number 2: paid 8201.00 is not between 0 and the total 8200.00",
            "due: due \(ids.negative): number 4: paid -0.01 is not between 0 and the total 500.00",
        ]
        // The one-posting transaction is also unbalanced; every other line is exactly as expected.
        let onePostingSum = lines.filter { $0.hasPrefix("unbalanced: txn \(ids.onePosting): its RUB postings sum to") }
        #expect(onePostingSum.count == 1, "\(lines)")
        #expect(Set(lines).subtracting(onePostingSum) == Set(expected), "\(result.stdout)")
        #expect(lines.count == expected.count + 1)
        #expect(!result.stdout.contains(ids.deleted), "a removed transaction is not checked")
        #expect(summary.hasPrefix("\(cli.db): \(lines.count) problems found ("), "\(summary)")

        let report = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["check", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == lines.count)
        #expect(Set(problems.compactMap { $0["kind"] as? String }) == ["foreign-key", "unbalanced", "rule", "reference", "due"])
        #expect(problems.contains { $0["table"] as? String == "due" && $0["id"] as? String == ids.over })
        let csv = cli.run(["check", "--format", "csv"])
        #expect(csv.status == 2)
        #expect(csv.stdout.split(separator: "\n").count == lines.count + 1)
        #expect(FileManager.default.contents(atPath: cli.db) == before, "check wrote to the file")
        #expect(RawDatabase.sideFiles(cli.db) == [])
    }

    @Test func damagedCheckpointIsFoundAndRepairRebuildsOnlyIt() throws {
        let cli = try CLI.household()
        let balances = cli.ok(["balance", "--format", "csv"])
        try RawDatabase.write(cli.db) { db in
            try db.execute(sql: "UPDATE balanceMonth SET amountMinor = amountMinor + 100 WHERE month = (SELECT MIN(month) FROM balanceMonth)")
        }
        let damaged = cli.run(["check"])
        #expect(damaged.status == 2)
        #expect(damaged.stdout.contains("checkpoint: balanceMonth "), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("(derived data: a repair rebuilds it from the postings)"))
        #expect(damaged.stderr.contains("`capital check --repair` rebuilds the balance checkpoints"), "\(damaged.stderr)")
        let repaired = cli.run(["check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stderr.contains("rebuilt the balance checkpoints ("), "\(repaired.stderr)")
        #expect(repaired.stdout.hasPrefix("\(cli.db): ok ("))
        #expect(cli.ok(["balance", "--format", "csv"]) == balances)
        cli.fails(["-f", "samples/household.yaml", "check", "--repair"], mentioning: ["-f", "check verifies a database"])
    }

    @Test func missingFileIsAnErrorAndCreatesNothing() throws {
        let cli = try CLI()
        cli.fails(["check"], mentioning: ["--db \(cli.db)", "no database there"])
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        let elsewhere = cli.path("nowhere/capital.sqlite")
        cli.fails(["--db", elsewhere, "check"], mentioning: [elsewhere, "no database there"])
        #expect(!FileManager.default.fileExists(atPath: cli.path("nowhere")))
    }

    @Test func olderSchemaIsCheckedAsItIsWithoutMigrating() throws {
        let cli = try CLI()
        try FileManager.default.copyItem(atPath: CLI.root.appendingPathComponent("Tests/Fixtures/schema/v1.sqlite").path, toPath: cli.db)
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        let report = try #require(try cli.json(["check"]) as? [String: Any])
        #expect(report["ok"] as? Bool == true)
        #expect(report["schema"] as? [String] == ["v1"])
        #expect((report["checked"] as? [String: Int])?["schedules"] == nil, "v1 has no schedule table")
        #expect(FileManager.default.contents(atPath: cli.db) == before)
        #expect(RawDatabase.sideFiles(cli.db) == [])
    }

    @Test func emptyFileIsAnEmptyDatabase() throws {
        let cli = try CLI()
        #expect(FileManager.default.createFile(atPath: cli.db, contents: nil))
        #expect(cli.ok(["check"]) == "\(cli.db): ok (an empty database, no ledger yet)\n")
        #expect(FileManager.default.contents(atPath: cli.db) == Data())
        // A repair has nothing to derive there: the file stays empty.
        let repaired = cli.run(["check", "--repair"])
        #expect(repaired.status == 0 && repaired.stdout == "\(cli.db): ok (an empty database, no ledger yet)\n", "\(repaired)")
        #expect(FileManager.default.contents(atPath: cli.db) == Data())
    }

    @Test func ledgerFileIsRefused() throws {
        let cli = try CLI()
        cli.fails(["-f", CLI.samplePath, "check"], mentioning: ["-f", "check verifies a database"])
    }

    @Test func newerSchemaIsRefusedAndLeftAsItWas() throws {
        let cli = try CLI.household()
        try RawDatabase.write(cli.db) { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')") }
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        cli.fails(["check"], mentioning: [cli.db, "newer capital", "v99-from-the-future"], unchanged: false)
        cli.fails(["balance"], mentioning: [cli.db, "newer capital"], unchanged: false)
        #expect(FileManager.default.contents(atPath: cli.db) == before)
        #expect(RawDatabase.sideFiles(cli.db) == [], "a refused database keeps no -wal/-shm")
    }
}

@Suite("capital backup")
struct BackupCommandTests {
    @Test func copyIsPrivateCompleteAndChecksClean() throws {
        let cli = try CLI.household()
        let target = cli.path("backups/capital-2025-04-01.sqlite")
        try FileManager.default.createDirectory(atPath: cli.path("backups"), withIntermediateDirectories: false)
        let transactions = try RawDatabase.read(cli.db) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE deleted = 0") ?? 0 }
        let text = cli.ok(["backup", target])
        #expect(text.hasPrefix("Backed up \(cli.db) to \(target): \(transactions) transactions, "), "\(text)")
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cli.path("backups")) == ["capital-2025-04-01.sqlite"], "no temporary or side files")
        cli.ok(["--db", target, "check"])
        #expect(cli.ok(["--db", target, "export"]) == cli.ok(["export"]))
        #expect(RawDatabase.sideFiles(cli.db) == [])
        // In JSON: what was copied where.
        let json = try #require(try cli.json(["backup", cli.path("backups/again.sqlite")]) as? [String: Any])
        #expect(json["transactions"] as? Int == transactions && json["copy"] as? String == cli.path("backups/again.sqlite"))
    }

    @Test func existingFileIsRefusedUnlessForce() throws {
        let cli = try CLI.household()
        let target = cli.path("backup.sqlite")
        let old = Data("last week's backup, to keep\n".utf8)
        try old.write(to: URL(fileURLWithPath: target))
        cli.fails(["backup", target], mentioning: ["backup \(target)", "exists", "--force"])
        #expect(FileManager.default.contents(atPath: target) == old)
        cli.ok(["backup", target, "--force"])
        cli.ok(["--db", target, "check"])
        #expect(cli.ok(["--db", target, "export"]) == cli.ok(["export"]))
    }

    @Test func missingFolderIsRefusedAndNothingIsCreated() throws {
        let cli = try CLI.household()
        let target = cli.path("no/such/folder/backup.sqlite")
        cli.fails(["backup", target], mentioning: ["backup \(target)", "the folder \(cli.path("no/such/folder")) does not exist"])
        #expect(!FileManager.default.fileExists(atPath: cli.path("no")))
    }

    @Test func folderTheDatabaseItselfAndAMissingDatabaseAreRefused() throws {
        let cli = try CLI.household()
        try FileManager.default.createDirectory(atPath: cli.path("dir"), withIntermediateDirectories: false)
        cli.fails(["backup", cli.path("dir")], mentioning: ["it is a folder"])
        cli.fails(["backup", cli.db, "--force"], mentioning: ["it is the database itself"])
        let empty = try CLI()
        empty.fails(["backup", empty.path("copy.sqlite")], mentioning: ["--db \(empty.db)", "no database there"])
        #expect(!FileManager.default.fileExists(atPath: empty.path("copy.sqlite")))
        cli.fails(["-f", CLI.samplePath, "backup", cli.path("x.sqlite")], mentioning: ["-f", "backup copies a database"])
    }

    @Test func staleJournalNextToTheTargetIsRefused() throws {
        let cli = try CLI.household()
        let target = cli.path("backup.sqlite")
        cli.ok(["backup", target])
        try Data(repeating: 7, count: 64).write(to: URL(fileURLWithPath: target + "-wal"))
        let before = FileManager.default.contents(atPath: target)
        cli.fails(["backup", target, "--force"], mentioning: ["\(target)-wal exists"])
        #expect(FileManager.default.contents(atPath: target) == before)
    }

    /// A writer process records 3-posting transactions in a loop while backups are taken: each
    /// copy opens, passes `check` (so every transaction in it is whole and balanced), and holds
    /// the writes 1…k for some k — a prefix — with k never going down from one copy to the next.
    @Test func backupWhileAnotherProcessWritesHoldsAPrefixOfTheWrites() throws {
        let cli = try CLI.household()
        let writes = 120
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = [
            "-c",
            """
            i=1; while [ $i -le \(writes) ]; do
              "$0" --db "$1" tx add --on 2025-04-01 --payee writer --note "w$i" -p Groceries=1.01 -p Entertainment=2.02 -p "VTB Debit" >/dev/null || exit 1
              i=$((i+1))
            done
            """,
            CLI.executable, cli.db,
        ]
        writer.environment = ["NO_COLOR": "1", "HOME": cli.folder.path, "PATH": "/usr/bin:/bin"]
        try writer.run()
        defer { if writer.isRunning { writer.terminate() } }

        func writerNotes(_ path: String) throws -> [Int] {
            try RawDatabase.read(path) { db in
                try String.fetchAll(db, sql: "SELECT note FROM txn WHERE payee = 'writer' AND deleted = 0").compactMap { Int($0.dropFirst()) }
                    .sorted()
            }
        }
        var seen: [Int] = []
        var duringWrites = 0
        for index in 0..<40 {
            let target = cli.path("backup-\(index).sqlite")
            let running = writer.isRunning
            cli.ok(["backup", target])
            let notes = try writerNotes(target)
            #expect(notes == (0..<notes.count).map { $0 + 1 }, "backup \(index) is not a prefix of the writes: \(notes)")
            #expect(notes.count >= (seen.last ?? 0), "backup \(index) went back in time")
            cli.ok(["--db", target, "check"])
            seen.append(notes.count)
            if running && writer.isRunning && notes.count > 0 && notes.count < writes { duringWrites += 1 }
            if !writer.isRunning && index >= 3 { break }
            usleep(150_000)
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0, "the writer failed")
        #expect(duringWrites >= 1, "no backup was taken while the writer was writing: \(seen)")
        let final = cli.path("backup-final.sqlite")
        cli.ok(["backup", final])
        #expect(try writerNotes(final) == Array(1...writes))
        cli.ok(["--db", final, "check"])
    }
}
