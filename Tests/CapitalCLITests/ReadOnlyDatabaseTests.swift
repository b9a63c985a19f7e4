import Foundation
import Testing

/// Issue 51, item 14: a database in a folder one cannot write, or a file one cannot write: queries
/// answer from it as it is, a change is refused in one line (exit 1) and the database is unchanged.
///
/// The tests run as root, whom neither the mode bits nor `access(2)` stop, so they run the real
/// `capital` as `nobody` (`runuser`) on a database root owns: that is what a user who may read
/// but not write the file or its folder sees. They are skipped where that cannot be done.
@Suite("CLI: a database one cannot write")
struct ReadOnlyDatabaseTests {
    static let runuser = "/usr/sbin/runuser"
    static let canRunAsNobody = getuid() == 0 && FileManager.default.isExecutableFile(atPath: runuser)

    /// Runs `capital args…` as `nobody` on `cli`'s database, with its environment.
    static func asNobody(_ cli: CLI, _ args: [String]) throws -> CLI.Result {
        let out = cli.path("nobody-out-\(UUID().uuidString)")
        let err = cli.path("nobody-err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runuser)
        process.arguments =
            ["-u", "nobody", "--", "/usr/bin/env", "-i", "CAPITAL_DB=\(cli.db)", "HOME=/nonexistent", "NO_COLOR=1", "LANG=C.UTF-8", CLI.executable]
            + args
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }

    /// A ledger `nobody` may read (the file 0644, root's) in a folder only root may write (0755).
    static func readableLedger() throws -> CLI {
        let cli = try CLI.initialized()
        cli.ok(["spend", "350", "Groceries", "--payee", "Bakery", "--on", "2025-03-02"])
        #expect(chmod(cli.db, 0o644) == 0 && chmod(cli.folder.path, 0o755) == 0)
        #expect(!FileManager.default.fileExists(atPath: cli.db + "-wal"))
        return cli
    }

    /// The one line a refused change says.
    static func refusal(_ cli: CLI, _ what: String) -> String {
        "capital: error: --db \(cli.db): the database is read-only (\(what)); nothing was changed\n"
    }

    @Test(.enabled(if: canRunAsNobody, "needs root and runuser"))
    func aDatabaseInAFolderOneCannotWriteAnswersAndRefusesChanges() throws {
        let cli = try Self.readableLedger()
        // nobody's own file, in root's folder: SQLite could write the file but not make its -wal
        // and -shm beside it (what "attempt to write a readonly database" was about).
        #expect(chown(cli.db, 65534, 65534) == 0 && chmod(cli.db, 0o600) == 0)
        let before = cli.state()
        for query in [["balance"], ["account", "list"], ["tx", "list"], ["export"], ["forecast", "--until", "2025-06-30"]] {
            let result = try Self.asNobody(cli, ["--today", "2025-04-01"] + query)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(query): \(result)")
        }
        #expect(try Self.asNobody(cli, ["balance", "--today", "2025-04-01"]).stdout.contains("VTB Debit"))
        #expect(!FileManager.default.fileExists(atPath: cli.db + "-wal") && !FileManager.default.fileExists(atPath: cli.db + "-shm"))
        let spend = try Self.asNobody(cli, ["spend", "100", "Groceries", "--today", "2025-04-01"])
        #expect(
            spend.status == 1 && spend.stdout.isEmpty && spend.stderr == Self.refusal(cli, "its folder \(cli.folder.path) is not writable"),
            "\(spend)")
        // Bad input: a value checked before the database is opened is malformed (64) as ever; the
        // amount is read once it is open (it needs the account's currency), so `lots` on a
        // database one cannot write is told that first. Nothing changes either way.
        let format = try Self.asNobody(cli, ["spend", "100", "Groceries", "--format", "xml"])
        #expect(format.status == 64 && format.stderr.split(separator: "\n").count == 1, "\(format)")
        let lots = try Self.asNobody(cli, ["spend", "lots", "Groceries"])
        #expect(lots.status == 1 && lots.stderr == Self.refusal(cli, "its folder \(cli.folder.path) is not writable"), "\(lots)")
        #expect(try Self.asNobody(cli, ["init"]).stderr.contains("the database is read-only"))
        #expect(cli.state() == before)
    }

    @Test(.enabled(if: canRunAsNobody, "needs root and runuser"))
    func aReadOnlyFileInAFolderOneMayWriteAnswersAndRefusesChanges() throws {
        let cli = try Self.readableLedger()
        #expect(chmod(cli.folder.path, 0o777) == 0)
        let before = cli.state()
        let balance = try Self.asNobody(cli, ["balance", "--today", "2025-04-01"])
        #expect(balance.status == 0 && balance.stdout.contains("VTB Debit") && balance.stderr.isEmpty, "\(balance)")
        let edit = try Self.asNobody(cli, ["account", "add", "Card", "--kind", "cash"])
        #expect(edit.status == 1 && edit.stdout.isEmpty && edit.stderr == Self.refusal(cli, "the file is not writable"), "\(edit)")
        #expect(cli.state() == before)
    }
}
