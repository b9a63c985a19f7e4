import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension ExpectedKind: ExpressibleByArgument {}

extension Capital {
    struct ExpectedCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "expected",
            "Expected flows: schedule occurrences, loan payments, deposits' interest, bills, card paybacks and budgets, and what became of each.",
            about: """
                Each expected flow is named NAME@DATE (its schedule's, loan's or deposit's name, or "CATEGORY budget", \
                and its day) and is open, posted (capital post wrote it), settled (a transaction you recorded stands \
                for it: --settles, or matched by amount and accounts within --match-days), skipped, or handled \
                (before the day its schedule, loan or deposit was taken over). Open flows count in the forecast; \
                those whose day has passed count today.
                Examples:
                  capital expected list --overdue
                  capital expected skip "Car Loan@2025-05-20"
                """,
            subcommands: [List.self, Skip.self, Reopen.self])
    }
}

extension Capital.ExpectedCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List expected flows with their state and what settled them.",
            about: """
                The window is --from to --until (default 30 days either side of today). --open shows only open \
                flows; --overdue open flows before today, however old.
                """,
            example: "capital expected list --open --kind loan --until 2025-06-30")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Only open flows.") var open = false
        @Flag(help: "Only open flows dated before today.") var overdue = false
        @Option(help: ArgumentHelp("First day (default 30 days before today).", valueName: "date")) var from: String?
        @Option(help: ArgumentHelp("Last day (default 30 days after today).", valueName: "date")) var until: String?
        @Option(help: ArgumentHelp("schedule, loan, deposit, due (bills and fines), card (paybacks) or budget.", valueName: "kind"))
        var kind: ExpectedKind?

        func run() throws {
            var query = ExpectedQuery()
            if open && overdue { throw CLIError("--open and --overdue: give one of them, not both", exitCode: 64) }
            query.show = overdue ? .overdue : open ? .open : .all
            query.from = try from.map { try parseDay($0, field: "--from", monthAs: .startOfMonth) }
            query.until = try until.map { try parseDay($0, field: "--until", monthAs: .endOfMonth) }
            query.kind = kind
            let entries = try global.answer { try $0.expectedList(query, today: $1) }
            try global.print(Report.expected(entries))
        }
    }

    struct Skip: ParsableCommand, SpellsFields {
        static let fieldNames = ["reference": "REF"]

        static let configuration = CommandConfiguration(
            "skip", "Say an open expected flow will not happen: the forecast and post leave it out.",
            example: "capital expected skip \"Salary Ivan@2025-04-25\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "NAME@DATE: the schedule's or loan's name and the flow's day.", completion: .openFlowReferences) var reference: String

        func run() throws { try global.change(reference, "Skipped") { try $0.skipExpected($1) } }
    }

    struct Reopen: ParsableCommand, SpellsFields {
        static let fieldNames = ["reference": "REF"]

        static let configuration = CommandConfiguration(
            "reopen", "Open a skipped or settled expected flow again.",
            about: """
                A settled flow's transaction stays recorded, so reopening it counts the flow twice: it is refused \
                unless --force is given (the transaction then no longer stands for it, and a note names it). \
                To count it once, remove the transaction instead (capital tx rm ID): that opens the flow. A posted \
                flow opens again when its transaction is removed.
                """,
            example: "capital expected reopen \"Salary Ivan@2025-04-25\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "NAME@DATE: the schedule's or loan's name and the flow's day.") var reference: String
        @Flag(help: "Reopen a settled flow although its transaction stays recorded (both then count).") var force = false

        func run() throws {
            try checkFlowReference(reference, field: "{reference}")
            let output = try global.writeOutput()
            let (entry, staying) = try global.ledgerStore(writing: true).reopenExpected(reference, force: force)
            try output.said("Reopened \(entry.flow.payee) of \(entry.flow.day) (\(entry.reference)).") { Report.expected([entry]) }
            if let staying {
                let id = Store.shortID(staying)
                Console.current.writeError(
                    "capital: note: its transaction \(id) stays recorded: \(entry.name) now counts twice; "
                        + "`capital tx rm \(id)` or `capital expected skip '\(entry.reference)'` counts it once\n")
            }
        }
    }
}

extension GlobalOptions {
    /// Changes the state of the flow `reference` names and says so (`Skipped Mortgage payment of …`).
    fileprivate func change(_ reference: String, _ verb: String, _ change: (Store, String) throws -> ExpectedEntry) throws {
        try checkFlowReference(reference, field: "{reference}")
        let output = try writeOutput()
        let entry = try change(try ledgerStore(writing: true), reference)
        try output.said("\(verb) \(entry.flow.payee) of \(entry.flow.day) (\(entry.reference)).") { Report.expected([entry]) }
    }
}

/// A `NAME@DATE` reference checked for its form before anything is read: a malformed one exits
/// 64, as any malformed value on the command line; one naming no flow exits 1.
func checkFlowReference(_ reference: String, field: String) throws {
    do { _ = try Store.parseFlowReference(reference, field: field) } catch { throw CLIError(spelled(error), exitCode: 64) }
}
