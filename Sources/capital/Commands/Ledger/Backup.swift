import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            "backup", "Write a consistent copy of the database to FILE, even while others write to it.",
            about: """
                Uses SQLite's online backup API: the copy holds every transaction whole, as one moment saw \
                the database. The copy is private (mode 0600). An existing FILE is refused unless --force.
                """,
            example: "capital backup ~/backups/capital-2025-04-01.sqlite")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("Where to write the copy (its folder must exist).", valueName: "file")) var file: String
        @Flag(help: "Replace FILE if it exists.") var force = false

        func run() throws {
            if let ledger = global.file {
                throw CLIError.invalid("-f", ledger, "backup copies a database; give --db (a ledger file is copied with cp)")
            }
            let output = try global.writeOutput()
            let source = try global.existingDatabasePath()
            if global.protectedPaths.dropFirst().contains(where: { OutputFile.canonical($0) == OutputFile.canonical(file) }) {
                throw CLIError.refused("FILE", file, "is one of the database's own files (-wal, -shm, -journal); write the copy somewhere else")
            }
            let summary = try Store.backup(source, to: file, replacing: force)
            try output.said("Backed up \(source) to \(summary.path): \(summary.transactions.counted("transaction")), \(summary.bytes) bytes.") {
                Report.record(
                    "backup",
                    [
                        (Column("database", "Database"), .text(source)), (Column("copy", "Copy"), .text(summary.path)),
                        (Column("transactions", "Transactions"), .int(summary.transactions)), (Column("bytes", "Bytes"), .int(Int(summary.bytes))),
                    ])
            }
        }
    }
}
