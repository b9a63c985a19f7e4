import CapitalCore
import Foundation
import GRDB
import Testing

/// A damaged database file — truncated, its header broken, not SQLite at all, another program's,
/// bytes flipped inside a table — gets one line on stderr naming the file, never a crash, and
/// nothing written: the file's bytes stay as they were and no `-wal`/`-shm` file is left behind.
@Suite("Damaged databases: one line naming the file, nothing written")
struct DamagedDatabaseTests {
    /// Damage SQLite notices as soon as it reads the file: every command is refused at open.
    enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case truncatedToHalf
        case truncatedInsideTheHeader
        case headerMagicChanged
        case textFile
        case randomBytes
        case otherProgramsDatabase

        var testDescription: String { rawValue }

        /// What the error says about the file.
        var mention: String {
            self == .otherProgramsDatabase ? "not a capital database" : "not a SQLite database or is damaged"
        }

        /// Damages the sample household database at `path`.
        func apply(to path: String) throws {
            let url = URL(fileURLWithPath: path)
            var bytes = try Data(contentsOf: url)
            switch self {
            case .truncatedToHalf:
                bytes = bytes.prefix(bytes.count / 2)
            case .truncatedInsideTheHeader:
                bytes = bytes.prefix(50)
            case .headerMagicChanged:
                // "SQLite format 3\0" is the first 16 bytes; the rest of the file is intact.
                bytes.replaceSubrange(0..<6, with: Data("SQLyte".utf8))
            case .textFile:
                bytes = Data(String(repeating: "milk, bread, eggs; rent due on the 5th\n", count: 200).utf8)
            case .randomBytes:
                var generator = SplitMix64(seed: 4)
                bytes = Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) })
            case .otherProgramsDatabase:
                try FileManager.default.removeItem(at: url)
                try RawDatabase.write(path) { db in
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    try db.execute(sql: "CREATE TABLE photo(id INTEGER PRIMARY KEY, name TEXT NOT NULL, taken TEXT)")
                    try db.execute(sql: "INSERT INTO photo(name, taken) VALUES ('beach.jpg', '2024-08-01'), ('cat.jpg', '2025-01-12')")
                }
                return
            }
            try bytes.write(to: url)
        }
    }

    /// Commands that read, write, create, copy and check, each on the damaged file.
    static let commands: [[String]] = [
        ["balance"], ["account", "list"], ["tx", "list"], ["export"], ["forecast", "--until", "2025-06"],
        ["tx", "add", "--on", "2025-04-01", "-p", "Groceries=10", "-p", "VTB Debit"], ["spend", "10", "Groceries"],
        ["init"], ["import", CLI.samplePath], ["check"], ["backup", "copy.sqlite"],
    ]

    @Test(arguments: Damage.allCases)
    func everyCommandIsRefusedAndTheFileIsLeftAsItWas(damage: Damage) throws {
        let cli = try CLI.household()
        try damage.apply(to: cli.db)
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        #expect(RawDatabase.sideFiles(cli.db) == [])
        for command in DamagedDatabaseTests.commands {
            let args = command.map { $0 == "copy.sqlite" ? cli.path("copy.sqlite") : $0 }
            cli.fails(["--today", "2025-04-01"] + args, mentioning: [cli.db, damage.mention], unchanged: false)
            #expect(FileManager.default.contents(atPath: cli.db) == before, "\(args) changed the file")
            #expect(RawDatabase.sideFiles(cli.db) == [], "\(args) left side files")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path("copy.sqlite")))
    }

    /// Flipping the page-type byte of the `posting` table's root page: the file opens (its first
    /// page and schema are intact), but any command that reads postings finds the damage.
    @Test func damagedPostingPageIsReportedByEveryCommandThatReadsIt() throws {
        let cli = try CLI.household()
        let tree = try RawDatabase.tree(of: "posting", in: cli.db)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        #expect(bytes[tree.offset(tree.root)] == 0x05, "the posting table should span several pages in the sample")
        bytes[tree.offset(tree.root)] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: cli.db))

        for command in [
            ["balance"], ["tx", "list"], ["export"], ["forecast", "--until", "2025-06"], ["can-spend"],
            ["tx", "add", "--on", "2025-04-01", "-p", "Groceries=10", "-p", "VTB Debit"], ["spend", "10", "Groceries"],
            ["earn", "100", "Salary"], ["import", CLI.samplePath],
        ] {
            cli.fails(
                ["--today", "2025-04-01"] + command, mentioning: ["--db \(cli.db)", "the database is damaged", "capital check"], unchanged: false)
            #expect(FileManager.default.contents(atPath: cli.db) == bytes, "\(command) changed the file")
            #expect(RawDatabase.sideFiles(cli.db) == [], "\(command) left side files")
        }

        let result = cli.run(["check"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("integrity: Page \(tree.root): btreeInitPage() returns error code 11"), "\(result.stdout)")
        #expect(lines.last?.hasPrefix("\(cli.db): \(lines.count - 1) problems found") == true, "\(result.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["check", "--format", "json"]).stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        #expect((report["problems"] as? [[String: Any]])?.contains { $0["kind"] as? String == "integrity" } == true)
        #expect(FileManager.default.contents(atPath: cli.db) == bytes)
        #expect(RawDatabase.sideFiles(cli.db) == [])
    }

    /// Seeded random bytes flipped inside rows of the `posting` table. Every byte of a posting row
    /// is checkable — its ids are in indexes, its amount and currency must balance, its position
    /// must be 0, 1, 2 … — so `check` finds every one of these; commands either fail with one line
    /// naming the file or answer from what SQLite can still read, but never crash or write.
    @Test(arguments: 1...12)
    func bytesFlippedInsidePostingRowsAreFoundByCheck(seed: Int) throws {
        let cli = try CLI.household()
        let tree = try RawDatabase.tree(of: "posting", in: cli.db)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        var generator = SplitMix64(seed: UInt64(seed))
        let page = try #require(tree.leaves.randomElement(using: &generator))
        let rows = RawDatabase.cellContent(ofLeaf: page, tree, in: bytes)
        var flipped: [Int] = []
        for _ in 0..<3 {
            let offset = Int.random(in: rows, using: &generator)
            bytes[offset] ^= UInt8.random(in: 1...255, using: &generator)
            flipped.append(offset)
        }
        try bytes.write(to: URL(fileURLWithPath: cli.db))
        let damage = "seed \(seed): page \(page), bytes \(flipped)"

        let check = cli.run(["check"])
        #expect(check.status == 2, "\(damage): check found nothing: \(check)")
        #expect(check.stderr == "", "\(damage): \(check)")
        #expect(
            check.stdout.split(separator: "\n").last?.hasPrefix("\(cli.db): ") == true && check.stdout.contains(" found ("), "\(damage): \(check)")
        for command in [["balance"], ["export"], ["tx", "list"]] {
            let result = cli.run(["--today", "2025-04-01"] + command)
            #expect(result.status == 0 || result.status == 1, "\(damage): capital \(command) ended with \(result.status): \(result)")
            if result.status != 0 {
                #expect(result.stderrLines.count == 1 && result.stderr.contains(cli.db), "\(damage): \(command): \(result.stderr)")
            }
        }
        #expect(FileManager.default.contents(atPath: cli.db) == bytes, "\(damage): the file changed")
        #expect(RawDatabase.sideFiles(cli.db) == [], "\(damage): side files left")
    }

    /// A value the program cannot take in, written behind its back: the error names the file and
    /// points at `check`, which names the record.
    @Test func unknownAccountKindNamesTheFileAndCheckNamesTheAccount() throws {
        let cli = try CLI.household()
        let id = try #require(try RawDatabase.read(cli.db) { db in try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = 'Cash'") })
        try RawDatabase.write(cli.db) { db in try db.execute(sql: "UPDATE account SET kind = 'c@sh' WHERE id = ?", arguments: [id]) }
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        cli.fails(["balance"], mentioning: ["--db \(cli.db)", "account.kind 'c@sh'", "capital check"], unchanged: false)
        cli.fails(["spend", "10", "Groceries"], mentioning: ["--db \(cli.db)", "account.kind 'c@sh'"], unchanged: false)
        let check = cli.run(["check"])
        #expect(check.status == 2)
        #expect(check.stdout.contains("reference: account \(id): 'Cash': kind 'c@sh' is not an account kind"), "\(check)")
        #expect(FileManager.default.contents(atPath: cli.db) == before)
        #expect(RawDatabase.sideFiles(cli.db) == [])
    }
}
