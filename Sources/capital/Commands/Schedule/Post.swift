import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct Post: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post",
            abstract: "Turn due expected flows into real transactions: schedule occurrences, loan payments, overdue card paybacks.",
            discussion: HelpExamples.laidOut(
                """
                Occurrences of auto schedules and loan payments are posted at once; those of confirm \
                schedules are listed until approved with --approve SCHEDULE@DATE (=AMOUNT for a ranged \
                schedule). A flow that a recorded transaction settles, or that was skipped, is not posted \
                (see capital expected). Running it twice posts nothing twice; a run posts all or nothing.
                Examples:
                  capital post --dry-run
                  capital post --approve Lunch@2025-03-07=430 --approve "Salary Anna@2025-03-10"
                """))

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Post what is due up to this day (default today).", valueName: "date")) var until: String?
        @Flag(name: .customLong("dry-run"), help: "Show what would be posted; change nothing.") var dryRun = false
        @Option(
            parsing: .unconditionalSingleValue,
            help: ArgumentHelp("SCHEDULE@DATE[=AMOUNT]: approve a confirm occurrence (repeatable).", valueName: "occurrence"))
        var approve: [String] = []

        func run() throws {
            let last = try until.map { try parseDay($0, field: "--until") }
            let approvals = try approve.map { text -> OccurrenceApproval in
                guard let at = text.lastIndex(of: "@") else { throw CLIError.invalid("--approve", text, "expected SCHEDULE@YYYY-MM-DD[=AMOUNT]") }
                let schedule = String(text[..<at])
                var rest = String(text[text.index(after: at)...])
                var amount: String?
                if let equals = rest.firstIndex(of: "=") {
                    amount = String(rest[rest.index(after: equals)...])
                    rest = String(rest[..<equals])
                }
                guard !schedule.isEmpty else { throw CLIError.invalid("--approve", text, "the schedule is missing before '@'") }
                return OccurrenceApproval(schedule: schedule, day: try parseDay(rest, field: "--approve '\(text)'"), amount: amount, field: text)
            }
            let store = try global.ledgerStore(writing: true)
            let result = try store.postDue(through: last, today: try global.todayDay(), approvals: approvals, dryRun: dryRun)
            let columns = [
                Column("kind", "Kind"), Column("name", "Flow"), Column("date", "Date"), Column("amount", "Amount", numeric: true),
                Column("currency", "Cur"),
                Column("transaction", "Transaction"),
            ]
            func rows(_ items: [PostResult.Item]) -> [[Cell]] {
                items.map {
                    [
                        .text($0.kind.rawValue), .text($0.name), .day($0.day), .money(Money(minor: $0.amount, currency: $0.currency)),
                        .text($0.currency.code), $0.transactionID.map { .id($0) } ?? .none,
                    ]
                }
            }
            let posted = Section(name: "posted", title: dryRun ? "Would post" : "Posted", columns: columns, rows: rows(result.posted))
            let pending = Section(
                name: "pending", title: "Awaiting approval (--approve SCHEDULE@DATE[=AMOUNT])", columns: columns, rows: rows(result.pending))
            try global.print(Report([posted, pending], keyed: true))
        }
    }
}
