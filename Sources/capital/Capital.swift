import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `capital`: how much can I spend, when, and why.
@main
struct Capital: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capital",
        abstract: "How much can I spend, when, and why: a household ledger and forecast.",
        discussion: """
            Global options (--db, -f, --today, --format, --hide-amounts) go before or after the command.
            Try: capital -f samples/household.yaml balance
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, AccountCommand.self, GroupCommand.self, CategoryCommand.self, TxCommand.self, Spend.self, Earn.self, Transfer.self,
            Balance.self, ForecastCommand.self, CanSpend.self, When.self, Stats.self, RuleCommand.self, ScheduleCommand.self, LoanCommand.self,
            CardCommand.self,
            DepositCommand.self, ScenarioCommand.self, DueCommand.self, BudgetCommand.self, Remind.self, SampleCommand.self, Post.self,
            ExpectedCommand.self,
            CalendarCommand.self,
            RateCommand.self, ExchangeCommand.self, Check.self, Backup.self, Import.self, RulesCommand.self, Export.self, ReportCommand.self,
            SyncCommand.self, Serve.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command line and exits with its status.
    static func main() {
        // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG, which the store
        // reports as a full disk and rolls back, rather than SIGXFSZ ending the process.
        signal(SIGXFSZ, SIG_IGN)
        UntilExit.isOn = true
        Foundation.exit(execute(Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses `arguments`, runs the command on `Console.current`, and turns every error into one
    /// line on its standard error; returns the exit status. What `main` does, and what a test
    /// calls to run a command inside its own process.
    static func execute(_ arguments: [String]) -> Int32 { execute(arguments, parsing: { try parseAsRoot($0) }) }

    /// `execute(_:)` with the parser given: argument-parser's `parseAsRoot`, or in tests a memo of it
    /// (a command line always parses to the same command, and a debug build's parse is slow).
    static func execute(_ arguments: [String], parsing parse: ([String]) throws -> any ParsableCommand) -> Int32 {
        if let hint = CommandLineHints.check(arguments) { return report(hint) }
        let command: any ParsableCommand
        do { command = try parse(arguments) } catch { return report(error) }
        return Flags.$names.withValue((type(of: command) as? any SpellsFields.Type)?.fieldNames ?? [:]) {
            do {
                var command = command
                try command.run()
                return 0
            } catch {
                return report(error)
            }
        }
    }

    /// An error as one line on stderr (help and the version on stdout), and the exit status.
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as CLIError:
            return fail(error.description, code: error.exitCode)
        case let error as KitError:
            let spelled = CLIError(error)
            return fail(spelled.description, code: spelled.exitCode)
        case let error as StoreError:
            // An error in a file names its line; a value quoted from it never runs on for pages.
            if case .file = error { return fail(clipped(spelled(error), to: 200 - "capital: error: ".count), code: 1) }
            // An amount on the command line that is not one is malformed, as cli.md's table says: 64.
            if case .money = error { return fail(spelled(error), code: 64) }
            // So is any value that can never be valid (a count of 0, a negative rate, a level 7).
            if case .malformed = error { return fail(spelled(error), code: 64) }
            return fail(spelled(error), code: 1)
        case let error as any KeyedError:
            // As argument-parser would exit for any other error: a usage error, 64.
            return fail(spelled(error), code: 64)
        case let error as LedgerFileError:
            // A file's error names its line; a value quoted from it never runs on for pages.
            return fail(Capital.clipped(error.description, to: 200 - "capital: error: ".count), code: 1)
        default:
            let code = exitCode(for: error)
            if code == .success || error is CleanExit || error is ExitCode {
                // Help and the version go to standard output; a bare exit code says nothing.
                let message = fullMessage(for: error)
                if !message.isEmpty {
                    if code == .success { Console.current.line(message) } else { Console.current.writeError(message + "\n") }
                }
                return code.rawValue
            }
            return fail(oneLine(self.message(for: error)), code: code.rawValue == 1 ? 64 : code.rawValue)
        }
    }

    /// argument-parser's message on one line: its first line, plus any `- choice` lines as a list
    /// ("The value 'bank' is invalid for '--kind <kind>'. Please provide one of the following: cash, debit, …").
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard var first = lines.first else { return message }
        if first.hasPrefix("Error: ") { first = String(first.dropFirst(7)) }
        let choices = lines.dropFirst().filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        return choices.isEmpty ? first : first + " " + choices.joined(separator: ", ")
    }

    /// `text` cut to 200 characters (the last one `…`).
    static func clipped(_ text: String, to limit: Int = 200) -> String {
        text.count > limit ? text.prefix(limit - 1) + "…" : text
    }

    /// Writes the error as one line (a line break in a quoted value is escaped, never written)
    /// and returns the exit status.
    static func fail(_ message: String, code: Int32) -> Int32 {
        Console.current.writeError("capital: error: \(message.singleLine)\n")
        return code
    }
}

/// An error a command reports: one line, naming the field, the value and why.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32 = 1

    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }

    static func invalid(_ field: String, _ value: String, _ reason: String) -> CLIError {
        CLIError("\(field) '\(value)': \(reason)", exitCode: 64)
    }

    /// A well-formed value the command cannot act on (a file that exists, a folder): exit 1, as a
    /// name not found.
    static func refused(_ field: String, _ value: String, _ reason: String) -> CLIError {
        CLIError("\(field) '\(value)': \(reason)", exitCode: 1)
    }
}

/// What the process keeps until it exits instead of freeing it when a command is done with it:
/// the ledgers of a projection of a million transactions took a fifth of a second to free, value
/// by value, just before the process exited and the system took all of its memory back at once.
/// Values only: a store kept would never close (and a database would keep its -wal and -shm
/// files). Only a process that exits after its one command keeps anything (`Capital.main`); a
/// test running commands in its own process frees what each command used, as any library caller
/// would.
enum UntilExit {
    /// Whether `keep` keeps: set by `Capital.main` before the command runs.
    nonisolated(unsafe) static var isOn = false
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Keeps `value` (and so every buffer it holds) until the process exits, when `isOn`.
    static func keep(_ value: Any) { if isOn { kept.append(value) } }
}
