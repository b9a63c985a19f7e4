import CapitalCore
import CapitalStore

/// One thing to pay or confirm: a bill or fine, a schedule occurrence waiting for confirmation,
/// a card payback, a loan payment.
public struct Reminder: Sendable, Equatable {
    /// What is to be paid or confirmed.
    public enum Kind: Sendable, Equatable {
        /// A bill or fine (its type: `bill`, `fine`…).
        case due(String)
        case confirm
        case card
        case loan

        /// The kind's key: the due's type, `confirm`, `card` or `loan`.
        public var key: String {
            switch self {
            case .due(let type): type
            case .confirm: "confirm"
            case .card: "card"
            case .loan: "loan"
            }
        }
    }

    public var day: Day
    public var kind: Kind
    /// What it is: `#3 Speeding ticket`, a schedule's name, `Tinkoff statement of 2025-03-25`, a loan's name.
    public var what: String
    public var amount: Money
    public var overdue: Bool
}

extension Ledger {
    /// What is due from the past (still open) through `last`, overdue first and then by day:
    /// bills and fines not fully paid; occurrences of outflow schedules that wait for
    /// confirmation, open ones past due and those ahead; card paybacks due (and overdue
    /// statements); loan payments.
    /// - Complexity: O(dues + occurrences + card cycles + loan rows) in the window.
    public func reminders(today: Day, through last: Day, calendars: [String: WorkingDayCalendar]) -> [Reminder] {
        let names = Dictionary(accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let kinds = Dictionary(accounts.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
        var items: [Reminder] = []
        for due in dues where due.status != .fullyPaid && due.dueDay <= last {
            items.append(
                Reminder(
                    day: due.dueDay, kind: .due(due.type.rawValue), what: "#\(due.number) \(due.reason)",
                    amount: Money(minor: due.left, currency: due.currency),
                    overdue: due.dueDay < today))
        }
        // Outflows only: a schedule that spends on an expense category or takes money out of the
        // balance sheet (an income waiting for confirmation is not something to pay).
        func isOutflow(_ schedule: Schedule) -> Bool {
            let sheet = schedule.postings.filter { kinds[$0.accountID].map { $0.isBalanceSheet && $0 != .equity } ?? false }.map(\.amount.minor)
            return schedule.postings.contains { kinds[$0.accountID] == .expense && $0.amount.minor > 0 } || sheet.reduce(0, +) < 0
        }
        for schedule in schedules where schedule.approval == .confirm && isOutflow(schedule) {
            let calendar = calendars[schedule.rule.calendar] ?? .none
            let state = scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            var seen: Set<Day> = []
            let open = schedule.openOccurrences(dueBy: today, state: state, calendar: calendar)
            let ahead = schedule.occurrences(in: DayRange(today.advanced(by: 1), last.advanced(by: 1)), calendar: calendar).filter {
                state.isOpen($0.original)
            }
            for occurrence in open + ahead where seen.insert(occurrence.original).inserted {
                let amount = occurrence.postings.first.map { Money(minor: abs($0.amount.minor), currency: $0.amount.currency) } ?? .zero(currency)
                items.append(Reminder(day: occurrence.day, kind: .confirm, what: schedule.name, amount: amount, overdue: occurrence.day < today))
            }
        }
        // Cards pay back what the forecast pays: the spending budgets and bills expect on them too.
        let spending = withExpectedSpending(today: today, horizon: last.advanced(by: 62), calendars: calendars)
        for card in cards {
            let (cycles, late, overdue) = spending.cardCycles(card, today: today, horizon: last.advanced(by: 62), calendars: calendars)
            let cardCurrency = accounts.first { $0.id == card.accountID }?.currency ?? currency
            let name = names[card.accountID] ?? "card"
            if let late, overdue > 0 {
                items.append(
                    Reminder(
                        day: late.due, kind: .card, what: "\(name) statement of \(late.statement)",
                        amount: Money(minor: overdue, currency: cardCurrency), overdue: true))
            }
            // Statements still to close count too: their payback as the forecast expects it.
            for cycle in cycles where cycle.due >= today && cycle.due <= last && cycle.payback > 0 {
                items.append(
                    Reminder(
                        day: cycle.due, kind: .card, what: "\(name) statement of \(cycle.statement)",
                        amount: Money(minor: cycle.payback, currency: cardCurrency),
                        overdue: false))
            }
        }
        // Loan payments still open: those from before today (overdue) and those in the window;
        // one posted or settled is done.
        let payments =
            (try? expectedFlows(in: DayRange(Day(Int.min / 4), last.advanced(by: 1)), today: today, calendars: calendars, kinds: [.loan])) ?? []
        for payment in payments where payment.isOpen && payment.amount > 0 {
            let loanCurrency = payment.postings[0].amount.currency
            let name = loans.first { $0.id == payment.instrumentID }.flatMap { names[$0.accountID] } ?? "loan"
            items.append(
                Reminder(
                    day: payment.day, kind: .loan, what: payment.isRest ? "\(name): rest owed since \(payment.day)" : name,
                    amount: Money(minor: payment.amount, currency: loanCurrency),
                    overdue: payment.day < today))
        }
        items.sort { ($0.overdue ? 0 : 1, $0.day) < ($1.overdue ? 0 : 1, $1.day) }
        return items
    }
}

extension Store {
    /// What is due from the past (still open) through `days` days after `today`.
    /// - Throws: `StoreError` when the ledger or a calendar cannot be read.
    public func reminders(today: Day, days: Int) throws -> [Reminder] {
        let ledger = try snapshot(asOf: [today])
        return ledger.reminders(today: today, through: today.advanced(by: days), calendars: try calendars(for: ledger))
    }
}
