import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            "remind", "What is due in the next days: bills and fines, confirmations, card paybacks, loan payments.",
            about: """
                Lists, overdue first and then by day: bills and fines not fully paid due by the last day; occurrences of \
                schedules that wait for confirmation (`capital post`), open ones past due and those ahead; card \
                paybacks due (and overdue statements); loan payments. The exit code is 2 when something is overdue \
                (1 is an error) and 0 otherwise, so cron or a shell prompt can use it.
                """,
            example: "capital remind", "capital remind --days 30 --format json")

        @OptionGroup var global: GlobalOptions
        // Unconditional, so that `--days -1` reaches the check below instead of reading as an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("How many days ahead, from today (default 7).", valueName: "n")) var days = 7

        func run() throws {
            guard days >= 0 else { throw CLIError.invalid("--days", String(days), "must be 0 or more") }
            guard days <= 3660 else { throw CLIError.invalid("--days", String(days), "at most 3660 (ten years)") }
            let today = try global.todayDay()
            let items = try global.answer { store, _ in try store.reminders(today: today, days: days) }
            try global.print(Report.reminders(items, today: today, days: days))
            if items.contains(where: \.overdue) { throw ExitCode(2) }
        }
    }
}
