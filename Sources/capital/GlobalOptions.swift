import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

/// Options every command takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database (default: $CAPITAL_DB, else $XDG_DATA_HOME/capital/capital.sqlite, else ~/.local/share/capital/capital.sqlite).",
            valueName: "path"))
    var db: String?

    @Option(
        name: [.customShort("f"), .customLong("file")],
        help: ArgumentHelp("Answer read-only queries from a YAML or JSON ledger file instead of the database.", valueName: "ledger"))
    var file: String?

    @Option(name: .long, help: ArgumentHelp("Take this day as today (YYYY-MM-DD).", valueName: "date"))
    var today: String?

    @Option(
        name: .long, help: ArgumentHelp("Output format: table, json or csv (export: yaml, json, or csv for one table).", valueName: "format"),
        completion: .formats)
    var format: String?

    @Flag(name: .long, help: "Show *** instead of amounts in tables.")
    var hideAmounts = false

    /// The database path these options and the environment point at.
    var databasePath: String {
        if let db { return db }
        let environment = Console.current.environment
        if let path = environment["CAPITAL_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/capital/capital.sqlite" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/capital/capital.sqlite"
    }

    /// Opens the store: the ledger file of `-f` (read-only), or the database.
    /// - Parameters:
    ///   - writing: a command that changes the ledger; refused with `-f`.
    ///   - creating: a command that may create the database (`init`, `import`); others need it to exist.
    func store(writing: Bool, creating: Bool = false) throws -> Store {
        if let file {
            if db != nil { throw CLIError.invalid("-f", file, "give either -f or --db, not both") }
            if writing {
                throw CLIError("-f \(file): ledger files are read-only; this command writes — use --db, or `capital import \(file)` first")
            }
            return try Store.load(path: file)
        }
        let path = creating ? databasePath : try existingDatabasePath()
        if let reason = Store.unwritable(path: path) {
            // A database one cannot write: a query reads it as it is, a change is refused before
            // anything is opened for writing.
            if writing { throw StoreError.databaseReadOnly(path: path, reason: reason) }
            return try Store.openReadOnly(path: path, reason: reason)
        }
        return try Store.open(path: path)
    }

    /// The database path, which must name an existing file; for commands that never create one.
    func existingDatabasePath() throws -> String {
        let path = databasePath
        if !FileManager.default.fileExists(atPath: path) {
            throw CLIError("--db \(path): no database there; run `capital init` (or `capital import FILE`), or point --db or $CAPITAL_DB at yours")
        }
        return path
    }

    /// A store that must already hold a ledger.
    func ledgerStore(writing: Bool) throws -> Store {
        let store = try store(writing: writing)
        guard try store.isInitialized() else { throw StoreError.notInitialized(path: store.location) }
        return store
    }

    /// `--today`, or the clock read once.
    func todayDay() throws -> Day {
        if let today { return try parseDay(today, field: "--today") }
        return Today.clock()
    }

    /// The output format for listings and queries.
    func outputFormat() throws -> OutputFormat {
        guard let format else { return .table }
        guard let value = OutputFormat(rawValue: format) else {
            throw CLIError.invalid("--format", format, "expected table, json or csv")
        }
        return value
    }

    /// Opens the ledger for reading and answers with `useCase`, given the store and today.
    func answer<T>(_ useCase: (Store, Day) throws -> T) throws -> T {
        let store = try ledgerStore(writing: false)
        let today = try todayDay()
        return try kit { try useCase(store, today) }
    }

    /// Prints a report in the chosen format.
    func print(_ report: Report) throws {
        let console = Console.current
        console.write(report.render(try outputFormat(), RenderOptions(hideAmounts: hideAmounts, color: console.color)))
    }
}

/// A day from the command line: `YYYY-MM-DD` (or `YYYY-MM` where a month makes sense).
func parseDay(_ text: String, field: String, monthAs form: Day.MonthForm? = nil) throws -> Day {
    do {
        if let form { return try Day(input: text, monthAs: form) }
        return try Day(input: text)
    } catch {
        throw CLIError("\(field): \(spelled(error))", exitCode: 64)
    }
}

/// An amount from the command line in `currency`.
func parseMoney(_ text: String, field: String, currency: Currency) throws -> Money {
    do {
        return try Money(parsing: text, currency: currency)
    } catch {
        throw CLIError("\(field): \(spelled(error))", exitCode: 64)
    }
}

/// How a write command reports what it wrote: its sentence in a table, the record it wrote (the
/// same record its `show` command gives, id included) in JSON or CSV. Chosen before the command
/// writes, so that a bad `--format` changes nothing.
struct WriteOutput {
    let format: OutputFormat
    let global: GlobalOptions

    /// A side remark: a line of its own in a table, on stderr beside JSON or CSV (which stay data).
    func note(_ text: String) {
        if format == .table { Console.current.line(text) } else { Console.current.writeError("capital: note: \(text)\n") }
    }

    /// Says `line`, or prints the record `record` makes.
    func said(_ line: String, _ record: () throws -> Report) throws {
        if format == .table { Console.current.line(line) } else { try global.print(try record()) }
    }
}

extension GlobalOptions {
    /// The output of a write command, its format checked now.
    func writeOutput() throws -> WriteOutput { WriteOutput(format: try outputFormat(), global: self) }
}

extension Report {
    /// What a removal removed, as a record: its id and what names it.
    static func removed(_ id: String, _ fields: [(String, String)]) -> Report {
        record("removed", [(Column("id", "ID"), .text(id))] + fields.map { (Column($0.0, $0.0), .text($0.1)) })
    }
}

extension GlobalOptions {
    /// A transaction as `tx show --format json` writes it.
    func transactionRecord(_ transaction: Transaction) throws -> Report {
        Report.transaction(transaction, try ledgerStore(writing: false).accounts(includeHidden: true), table: false)
    }
}

extension GlobalOptions {
    /// An account or category as `account show --format json` writes it.
    func accountRecord(_ id: String) throws -> Report {
        Report.account(try answer { try $0.accountDetail(id, today: $1) })
    }
}

extension GlobalOptions {
    /// A group as `group show --format json` writes it.
    func groupRecord(_ reference: String) throws -> Report {
        Report.group(try answer { try $0.groupDetail(reference, today: $1) })
    }
}

extension GlobalOptions {
    /// A schedule as `schedule show --format json` writes it (its next ten occurrences).
    func scheduleRecord(_ reference: String) throws -> Report {
        Report.schedule(try answer { try $0.scheduleDetail(reference, today: $1, next: 10) })
    }
}
