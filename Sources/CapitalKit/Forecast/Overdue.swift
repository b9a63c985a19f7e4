import CapitalCore
import CapitalStore

/// Expected flows dated before today that nothing has recorded yet: schedule occurrences, loan
/// payments and deposits' credits neither posted, settled nor skipped, card paybacks not paid by their due day,
/// bills and fines past their due day with money left. The forecast counts them as due
/// today — money that should have moved and did not, or moved and was not recorded — so every
/// answer that includes them says so (issue 17: a database imported a year after its last post
/// counted 803 such occurrences as today's money, silently).
public struct Overdue: Sendable, Equatable {
    /// How many.
    public var count: Int
    /// What they move into the ledger's balance-sheet accounts in its currency, at expected
    /// amounts (positive: more money than recorded).
    public var net: Money
    /// The day they are before: today.
    public var before: Day
}

extension Projection {
    /// The open expected flows dated before today.
    /// - Complexity: O(open occurrences + Σ loan rows + dues).
    public var overdue: Overdue {
        let today = window.today
        let balanceSheet = Set(stored.accounts.filter(\.kind.isBalanceSheet).map(\.id))
        var count = 0
        var net: Int64 = 0
        let yesterday = today.advanced(by: -1)
        for schedule in stored.schedules {
            let state = stored.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            let calendar = window.calendars[schedule.rule.calendar] ?? .none
            for occurrence in schedule.openOccurrences(dueBy: yesterday, state: state, calendar: calendar) where occurrence.day < today {
                count += 1
                for posting in occurrence.postings where balanceSheet.contains(posting.accountID) && posting.amount.currency == currency {
                    net = saturatingSum(net, posting.amount.minor)
                }
            }
        }
        let payments =
            (try? stored.expectedFlows(in: DayRange(Day(Int.min / 4), today), today: today, calendars: window.calendars, kinds: [.loan, .deposit]))
            ?? []
        for payment in payments where payment.isOpen {
            count += 1
            for posting in payment.postings where balanceSheet.contains(posting.accountID) && posting.amount.currency == currency {
                net = saturatingSum(net, posting.amount.minor)
            }
        }
        // A card payback overdue moves money between two accounts of the balance sheet: no net.
        for card in stored.cards where stored.cardCycles(card, today: today, horizon: today, calendars: window.calendars).overdueAmount > 0 {
            count += 1
        }
        for due in stored.dues where due.status != .fullyPaid && due.dueDay < today {
            count += 1
            if due.currency == currency { net = saturatingSum(net, -due.left) }
        }
        return Overdue(count: count, net: money(net), before: today)
    }
}
