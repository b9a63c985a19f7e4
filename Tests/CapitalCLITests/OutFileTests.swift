import Foundation
import Testing

/// `--out` never clobbers: an existing file needs `--force`, the database (with its -wal and
/// -shm) and the ledger file being read are refused even with it, and a file is written whole
/// through a temporary file renamed into place.
@Suite("CLI: --out")
struct OutFileTests {
    /// Every command that takes `--out`, writing to `file`.
    static func writers(_ cli: CLI, _ file: String) -> [[String]] {
        [
            ["export", "--out", file],
            ["export", "--format", "csv", "--what", "transactions", "--out", file],
            ["--today", "2025-04-01", "export", "--format", "journal", "--out", file],
            ["sample", "generate", "--rules", "3", "--years", "1", "--out", file],
            [
                "--today", "2025-04-01", "scenario", "eval", CLI.root.appendingPathComponent("samples/cars.csv").path, "--format", "csv", "--out",
                file,
            ],
            ["--today", "2025-04-01", "report", "--out", file],
            ["--today", "2025-04-01", "forecast", "--chart", "svg", "--out", file],
        ]
    }

    @Test func anExistingFileIsRefusedUnlessForcedAndLeftAsItWas() throws {
        let cli = try CLI.household()
        let file = cli.path("kept.txt")
        for args in Self.writers(cli, file) {
            try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)
            cli.fails(args, mentioning: ["--out", file, "exists", "--force"])
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n", "\(args)")
            cli.ok(args + ["--force"])
            let written = try String(contentsOfFile: file, encoding: .utf8)
            #expect(written != "mine\n" && !written.isEmpty, "\(args)")
            #expect(Self.leftovers(cli) == [], "\(args)")
        }
    }

    @Test func aNewFileIsWrittenWholeWithNothingLeftBeside() throws {
        let cli = try CLI.household()
        for (index, args) in Self.writers(cli, cli.path("new.out")).enumerated() {
            let file = cli.path("new-\(index).out")
            let written = args.map { $0 == cli.path("new.out") ? file : $0 }
            #expect(cli.ok(written) == "", "\(written)")
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(Self.leftovers(cli) == [], "\(written)")
        }
        // The same bytes as standard output.
        cli.ok(["export", "--out", cli.path("ledger.yaml")])
        #expect(try String(contentsOfFile: cli.path("ledger.yaml"), encoding: .utf8) == cli.ok(["export"]))
    }

    @Test func theDatabaseAndItsSideFilesAreRefusedEvenWithForce() throws {
        let cli = try CLI.household()
        let before = try #require(FileManager.default.contents(atPath: cli.db))
        for target in [cli.db, cli.db + "-wal", cli.db + "-shm"] {
            for args in Self.writers(cli, target) {
                cli.fails(args + ["--force"], mentioning: ["--out", "the ledger this command reads"])
            }
        }
        // Spelled another way: through `..` and a symbolic link to its folder.
        let folder = URL(fileURLWithPath: cli.db).deletingLastPathComponent()
        let name = URL(fileURLWithPath: cli.db).lastPathComponent
        try FileManager.default.createDirectory(atPath: cli.path("x"), withIntermediateDirectories: true)
        cli.fails(["export", "--out", folder.appendingPathComponent("x/../\(name)").path, "--force"], mentioning: ["the ledger this command reads"])
        let link = cli.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path)
        cli.fails(["export", "--out", link + "/" + name, "--force"], mentioning: ["the ledger this command reads"])
        #expect(FileManager.default.contents(atPath: cli.db) == before)
    }

    /// `backup FILE --force` never writes over the database's own side files.
    @Test func aBackupIsNotWrittenOverTheDatabasesSideFiles() throws {
        let cli = try CLI.household()
        for side in ["-wal", "-shm", "-journal"] {
            let before = FileManager.default.contents(atPath: cli.db + side)
            cli.fails(["backup", cli.db + side, "--force"], mentioning: ["FILE", "the database's own files"])
            #expect(FileManager.default.contents(atPath: cli.db + side) == before, "\(side)")
        }
        cli.fails(["backup", cli.db, "--force"], mentioning: ["the database itself"])
    }

    @Test func theLedgerFileBeingReadIsRefused() throws {
        let cli = try CLI()
        let file = cli.path("ledger.yaml")
        try FileManager.default.copyItem(atPath: CLI.samplePath, toPath: file)
        let before = try #require(FileManager.default.contents(atPath: file))
        cli.fails(["-f", file, "export", "--format", "json", "--out", file, "--force"], mentioning: ["--out", "the ledger this command reads"])
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    /// `scenario eval FILE --out FILE --force` would replace the scenarios with their results.
    @Test func theScenarioFileBeingReadIsRefused() throws {
        let cli = try CLI()
        let file = cli.path("cars.csv")
        try "name,price\nLada,900000\n".write(toFile: file, atomically: true, encoding: .utf8)
        let before = try #require(FileManager.default.contents(atPath: file))
        for out in [file, cli.path("./cars.csv")] {
            cli.fails(
                ["-f", CLI.samplePath, "--today", "2025-04-01", "scenario", "eval", file, "--out", out, "--force"],
                mentioning: ["--out", "the file this command reads"])
        }
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    @Test func aFolderOrAMissingFolderIsRefused() throws {
        let cli = try CLI.household()
        let folder = cli.path("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        cli.fails(["export", "--out", folder, "--force"], mentioning: ["--out", folder, "is a folder"])
        cli.fails(["export", "--out", cli.path("missing/x.yaml")], mentioning: ["--out", "does not exist"])
        cli.fails(["export", "--out", ""], mentioning: ["--out", "give a file name"])
        #expect(Self.leftovers(cli) == [])
    }

    /// A refused `--out` is refused before anything is computed: a bad option after it is not reached.
    @Test func theFileIsCheckedFirst() throws {
        let cli = try CLI.household()
        let file = cli.path("kept.txt")
        try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)
        cli.fails(["sample", "generate", "--rules", "3", "--years", "1", "--format", "xml", "--out", file], mentioning: ["--out", "exists"])
    }

    /// Temporary files a write left in the test's folder.
    static func leftovers(_ cli: CLI) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cli.folder.path)) ?? []).filter { $0.hasSuffix(".tmp") }
    }
}
