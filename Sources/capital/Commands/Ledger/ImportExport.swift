import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension Capital {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            "import",
            "Import a ledger file (YAML or JSON), or a bank statement (CSV with rules, OFX, QIF) into an account; all or nothing.",
            about: """
                A ledger file merges into the database by name (creating it if needed); see docs/ledger-format.md. \
                With --account, FILE is a bank statement: each line becomes a transaction on ACCOUNT (money out negative), \
                unless it was imported before (duplicate), a transaction entered by hand stands for it (matches), or it \
                pays an expected flow (settles). A CSV is read by hledger-style rules (--rules, default FILE.rules). \
                --dry-run shows what would happen, line by line. See docs/import.md.
                """,
            example: "capital import samples/household.yaml",
            "capital import statement.csv --account \"VTB Debit\" --rules vtb.rules --dry-run",
            "capital import card.ofx --account \"Alfa Card\" --learn")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The ledger file (.yaml, .yml or .json), or with --account a bank statement (.csv, .ofx, .qif).") var file: String
        @OptionGroup(title: "Bank statements") var statement: StatementOptions

        func run() throws {
            if let account = statement.account { return try statement.run(file: file, account: account, global: global) }
            if let (option, _) = statement.given.first {
                throw CLIError("\(option) goes with --account: name the account the statement is of", exitCode: 64)
            }
            if let format = StatementOptions.statementFormat(file) {
                throw CLIError("--account: \(file) looks like a bank statement (\(format.rawValue)); name the account it is of", exitCode: 64)
            }
            let output = try global.writeOutput()
            let path = global.databasePath
            let existed = global.file != nil || FileManager.default.fileExists(atPath: path)
            do {
                let store = try global.store(writing: true, creating: true)
                let summary = try store.importFile(path: file)
                try output.said("Imported \(file) into \(store.location): \(summary.description).") {
                    let kinds: [(String, Cell)] = ImportSummary.instrumentKinds.flatMap { kind in
                        [
                            ("\(kind)sAdded", Cell.int(summary.instrumentsAddedByKind[kind] ?? 0)),
                            ("\(kind)sAlreadyPresent", Cell.int(summary.instrumentsPresentByKind[kind] ?? 0)),
                        ]
                    }
                    var fields: [(String, Cell)] = [
                        ("file", .text(file)), ("database", .text(store.location)), ("accountsAdded", .int(summary.accountsAdded)),
                        ("accountsMerged", .int(summary.accountsMerged)), ("groupsAdded", .int(summary.groupsAdded)),
                        ("groupsMerged", .int(summary.groupsMerged)), ("transactionsAdded", .int(summary.transactionsAdded)),
                        ("transactionsAlreadyPresent", .int(summary.transactionsAlreadyPresent)), ("schedulesAdded", .int(summary.schedulesAdded)),
                        ("schedulesAlreadyPresent", .int(summary.schedulesAlreadyPresent)), ("instrumentsAdded", .int(summary.instrumentsAdded)),
                        ("instrumentsAlreadyPresent", .int(summary.instrumentsAlreadyPresent)),
                    ]
                    fields += kinds
                    fields += [
                        ("ratesAdded", .int(summary.ratesAdded)), ("ratesAlreadyPresent", .int(summary.ratesAlreadyPresent)),
                        ("nothingNew", .bool(summary.addedNothing)),
                    ]
                    return Report.record("import", fields.map { (Column($0.0, $0.0), $0.1) })
                }
            } catch {
                // A failed import into a new database leaves no database behind.
                if !existed {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
                throw error
            }
        }
    }

    struct Export: ParsableCommand, SpellsFields, OutputFormats {
        static let formats = LedgerFileFormat.allCases.map(\.rawValue) + ["csv", "journal"]
        static let fieldNames = ["until": "--to"]

        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the whole ledger as a YAML (default) or JSON ledger file, one table as CSV, or an hledger journal.",
            discussion: HelpExamples.laidOut(
                """
                --format csv (or --what alone) writes one table: --what transactions (one row per posting, the default), \
                dues, or forecast (balances per period, as `capital forecast` computes them). --format journal writes an \
                hledger journal whose forecast (from --today to --to, default 12 months) matches capital's. See docs/cli.md.
                Examples:
                  capital export --format json --out backup.json
                  capital export --format csv --what transactions --from 2025-01 --to 2025-03 --bom --out q1.csv
                  capital export --format csv --what forecast --to 2025-12 --by day --out forecast.csv
                  capital --today 2025-04-01 export --format journal --to +1y --out household.journal
                """))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutOptions
        @OptionGroup(title: "CSV") var csv: CSVExportOptions

        func run() throws {
            let file = try output.file(global)
            let formatText = global.format ?? (csv.what != nil ? "csv" : "yaml")
            let text: String
            if formatText == "csv" {
                text = try csv.export(global)
            } else if formatText == "journal" {
                text = try journal()
            } else {
                guard let format = LedgerFileFormat(rawValue: formatText) else {
                    throw CLIError.invalid("--format", formatText, "export writes yaml, json, csv or journal")
                }
                if let (option, value) = csv.given.first {
                    throw CSVExportOptions.misplaced(option, value, "goes with --format csv; a \(format.rawValue) ledger file is the whole ledger")
                }
                // Streamed: the transactions are read and written a megabyte at a time. A ledger is
                // private: the file is the owner's only, like the database.
                let store = try global.ledgerStore(writing: false)
                if let file {
                    try file.stream(ownerOnly: true) { write in try store.export(format: format, to: write) }
                } else {
                    try store.export(format: format) { Console.current.write($0) }
                }
                return
            }
            // A ledger is private: the file is the owner's only, like the database.
            if let file { try file.write(text, ownerOnly: true) } else { Console.current.write(text) }
        }

        /// An hledger journal from today (`--today`) to `--to` (default 12 months ahead; `+30y` works).
        func journal() throws -> String {
            if let (option, value) = csv.given.first(where: { $0.option != "--to" }) {
                throw CSVExportOptions.misplaced(option, value, "goes with --format csv; a journal takes --to (its horizon) alone")
            }
            let store = try global.ledgerStore(writing: false)
            let today = try global.todayDay()
            return try kit {
                try store.journal(today: today, horizon: HorizonRequest(until: csv.to)) { last in
                    [
                        "capital ledger as an hledger journal (capital export --format journal), seen from \(today) to \(last).",
                        "Daily balances: hledger -f FILE register --forecast=\(today.iso)..\(last.advanced(by: 1).iso) -D --historical ACCOUNTS",
                    ]
                }
            }
        }
    }
}
