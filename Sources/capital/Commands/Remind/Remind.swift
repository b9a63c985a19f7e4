import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension Capital {
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remind", abstract: "What is due in the next days: bills and fines, confirmations, card paybacks, loan payments.",
            discussion: """
                Lists, overdue first and then by day: bills and fines not fully paid due by the last day; occurrences of \
                schedules that wait for confirmation (`capital post`), open ones past due and those ahead; card \
                paybacks due (and overdue statements); loan payments. The exit code is 1 when something is overdue \
                and 0 otherwise, so cron or a shell prompt can use it.
                Example: capital remind
                Example: capital remind --days 30 --format json
                """)

        @OptionGroup var global: GlobalOptions
        // Unconditional, so that `--days -1` reaches the check below instead of reading as an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("How many days ahead, from today (default 7).", valueName: "n")) var days = 7

        func run() throws {
            guard days >= 0 else { throw CLIError.invalid("--days", String(days), "must be 0 or more") }
            guard days <= 3660 else { throw CLIError.invalid("--days", String(days), "at most 3660 (ten years)") }
            let store = try global.ledgerStore(writing: false)
            let today = try global.todayDay()
            let ledger = try store.snapshot()
            let items = ledger.reminders(today: today, through: today.advanced(by: days), calendars: try store.calendars(for: ledger))
            var section = Section(
                name: "reminders",
                columns: [
                    Column("day", "Due"), Column("when", "When"), Column("kind", "Kind"), Column("what", "What"),
                    Column("amount", "Amount", numeric: true),
                    Column("overdue", "Overdue"),
                ])
            section.rows = items.map { item in
                let days = item.day.number - today.number
                let when = days == 0 ? "today" : days > 0 ? "in \(days) day\(days == 1 ? "" : "s")" : "\(-days) day\(days == -1 ? "" : "s") overdue"
                return [.day(item.day), .text(when), .text(item.kind.key), .text(item.what), .money(item.amount), .bool(item.overdue)]
            }
            var report = Report([section])
            if items.isEmpty {
                report.headline = [days == 0 ? "Nothing due today." : "Nothing due in the next \(days) day\(days == 1 ? "" : "s")."]
                report.headlineOnly = true
            }
            try global.print(report)
            if items.contains(where: \.overdue) { throw ExitCode(1) }
        }
    }
}
