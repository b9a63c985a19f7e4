import ArgumentParser
import CapitalCore
import CapitalStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            let last = today.advanced(by: days)
            let ledger = try store.snapshot()
            let calendars = try workingDayCalendars(ledger, store)
            let names = Dictionary(ledger.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            var items: [(day: Day, kind: String, what: String, amount: Money, overdue: Bool)] = []
            for due in ledger.dues where due.status != .fullyPaid && due.dueDay <= last {
                items.append((due.dueDay, due.type.rawValue, "#\(due.number) \(due.reason)", Money(minor: due.left, currency: due.currency), due.dueDay < today))
            }
            let kinds = Dictionary(ledger.accounts.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
            // Outflows only: a schedule that spends on an expense category or takes money out of the
            // balance sheet (an income waiting for confirmation is not something to pay).
            func isOutflow(_ schedule: Schedule) -> Bool {
                let sheet = schedule.postings.filter { kinds[$0.accountID].map { $0.isBalanceSheet && $0 != .equity } ?? false }.map(\.amount.minor)
                return schedule.postings.contains { kinds[$0.accountID] == .expense && $0.amount.minor > 0 } || sheet.reduce(0, +) < 0
            }
            for schedule in ledger.schedules where schedule.approval == .confirm && isOutflow(schedule) {
                let calendar = calendars[schedule.rule.calendar] ?? .none
                let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
                var seen: Swift.Set<Day> = []
                let open = schedule.openOccurrences(dueBy: today, state: state, calendar: calendar)
                let ahead = schedule.occurrences(in: DayRange(today.advanced(by: 1), last.advanced(by: 1)), calendar: calendar).filter { state.isOpen($0.original) }
                for occurrence in open + ahead where seen.insert(occurrence.original).inserted {
                    let amount = occurrence.postings.first.map { Money(minor: abs($0.amount.minor), currency: $0.amount.currency) } ?? .zero(ledger.currency)
                    items.append((occurrence.day, "confirm", schedule.name, amount, occurrence.day < today))
                }
            }
            for card in ledger.cards {
                let (cycles, late, overdue) = ledger.cardCycles(card, today: today, horizon: last.advanced(by: 62), calendars: calendars)
                let currency = ledger.accounts.first { $0.id == card.accountID }?.currency ?? ledger.currency
                if let late, overdue > 0 {
                    items.append((late.due, "card", "\(names[card.accountID] ?? "card") statement of \(late.statement)", Money(minor: overdue, currency: currency), true))
                }
                // Statements still to close count too: their payback as the forecast expects it.
                for cycle in cycles where cycle.due >= today && cycle.due <= last && cycle.payback > 0 {
                    items.append((cycle.due, "card", "\(names[card.accountID] ?? "card") statement of \(cycle.statement)", Money(minor: cycle.payback, currency: currency), false))
                }
            }
            for loan in ledger.loans {
                guard let schedule = try? loan.schedule(calendar: calendars[loan.calendar] ?? .none) else { continue }
                let currency = ledger.accounts.first { $0.id == loan.accountID }?.currency ?? ledger.currency
                for row in schedule.rows where row.day >= today && row.day <= last && row.payment > 0 {
                    items.append((row.day, "loan", names[loan.accountID] ?? "loan", Money(minor: row.payment, currency: currency), false))
                }
            }
            items.sort { ($0.overdue ? 0 : 1, $0.day) < ($1.overdue ? 0 : 1, $1.day) }
            var section = Section(
                name: "reminders",
                columns: [
                    Column("day", "Due"), Column("when", "When"), Column("kind", "Kind"), Column("what", "What"), Column("amount", "Amount", numeric: true),
                    Column("overdue", "Overdue"),
                ])
            section.rows = items.map { item in
                let days = item.day.number - today.number
                let when = days == 0 ? "today" : days > 0 ? "in \(days) day\(days == 1 ? "" : "s")" : "\(-days) day\(days == -1 ? "" : "s") overdue"
                return [.day(item.day), .text(when), .text(item.kind), .text(item.what), .money(item.amount), .bool(item.overdue)]
            }
            if try items.isEmpty && global.outputFormat() == .table {
                Console.current.line(days == 0 ? "Nothing due today." : "Nothing due in the next \(days) day\(days == 1 ? "" : "s").")
            } else {
                try global.print(Report([section]))
            }
            if items.contains(where: \.overdue) { throw ExitCode(1) }
        }
    }
}
