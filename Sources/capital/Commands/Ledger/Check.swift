import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            "check", "Verify the database without writing to it; exit 2 when it finds problems (1 when it cannot read it).",
            about: """
                Runs SQLite's integrity and foreign key checks, then the ledger's rules: every transaction \
                balances per currency, schedule rules parse, loans, cards, deposits, due payments, budgets \
                and schedules name accounts that exist, due payments have 0 <= paid <= total, and the \
                balance checkpoints equal the postings. Prints one problem per line with the record's id. \
                --repair first rebuilds derived data (the checkpoints) from the postings, never user data. \
                See docs/cli.md.
                """,
            example: "capital check --format json", "capital check --repair")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "First rebuild derived data (balance checkpoints) from the postings; user data is never written.") var repair = false

        func run() throws {
            if let file = global.file {
                throw CLIError.invalid("-f", file, "check verifies a database; give --db (a ledger file is checked as it is read)")
            }
            let format = try global.outputFormat()
            let path = try global.existingDatabasePath()
            if repair {
                let rebuilt = try Store.repair(path: path)
                Console.current.writeError(
                    "capital: note: rebuilt the balance checkpoints (\(rebuilt) account-month\(rebuilt == 1 ? "" : "s") differed from the postings)\n"
                )
            }
            let report = try Store.check(path: path)
            switch format {
            case .table:
                for problem in report.problems { Console.current.line(String(describing: problem)) }
                let counted = report.counts.map { "\($0.count) \($0.count == 1 ? String($0.name.dropLast()) : $0.name)" }.joined(separator: ", ")
                let checked = report.counts.isEmpty ? "an empty database, no ledger yet" : counted
                if report.isClean {
                    Console.current.line("\(report.path): ok (\(checked))")
                } else {
                    let count = report.problems.count
                    Console.current.line("\(report.path): \(count) problem\(count == 1 ? "" : "s") found (\(checked))")
                }
            case .json, .csv:
                try global.print(Check.report(report))
            }
            // Only derived data is wrong: a repair fixes it. Damaged records need a backup instead.
            if !report.isClean && report.problems.allSatisfy({ $0.kind == .checkpoint }) {
                Console.current.writeError(
                    "capital: note: `capital check --repair` rebuilds the balance checkpoints from the postings (derived data; nothing you entered is written)\n"
                )
            }
            if !report.isClean { throw ExitCode(2) }
        }

        /// The problems as a table (CSV), and the whole report as one JSON object.
        static func report(_ report: CheckReport) -> Report {
            var section = Section(
                name: "problems", columns: [Column("kind", "Kind"), Column("table", "Table"), Column("id", "Id"), Column("message", "Problem")])
            section.rows = report.problems.map {
                [.text($0.kind.rawValue), $0.table.map(Cell.text) ?? .none, $0.id.map(Cell.text) ?? .none, .text($0.message)]
            }
            var result = Report([section])
            result.envelope = Envelope(fields: [
                ("database", .string(report.path)),
                ("ok", .bool(report.isClean)),
                ("schema", .array(report.schema.map(JSON.string))),
                ("checked", .object(report.counts.map { ($0.name, .number(String($0.count))) })),
            ])
            return result
        }
    }
}
