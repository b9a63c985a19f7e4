import CapitalCore
import CapitalKit
import CapitalStore
import Foundation
import Testing

/// `Projection.overdue`: the expected flows dated before today that nothing recorded (issue 17,
/// item 4 — the use case; the CLI's note on it comes with the expected-flows work).
@Suite("CapitalKit: overdue expected flows")
struct OverdueTests {
    static func projection(today: String) throws -> Projection {
        let store = try Store.load(try LedgerFile.read(path: ProjectionTests.root.appendingPathComponent("samples/household.yaml").path))
        return try Projection(store: store, today: try Day(iso: today), horizon: { $0.advanced(by: 30) })
    }

    @Test func theSampleOnItsOwnDayOwesOnlyTheUnpaidFine() throws {
        let overdue = try Self.projection(today: "2025-04-01").overdue
        // The speeding ticket, 500.00 due on 2025-03-20 and unpaid; every schedule is handled to then.
        let rub = try Currency("RUB")
        let day = try Day(iso: "2025-04-01")
        #expect(overdue.count == 1 && overdue.net == Money(minor: -500_00, currency: rub))
        #expect(overdue.before == day)
    }

    /// Opened long after its last post, the sample has every occurrence since open: counted here
    /// occurrence by occurrence from each schedule's start, without the open-occurrence walk.
    @Test func everyUnpostedOccurrenceAndUnpaidBillBeforeTodayCounts() throws {
        let projection = try Self.projection(today: "2026-11-24")
        let today = projection.today
        let stored = projection.stored
        let sheet = Set(stored.accounts.filter(\.kind.isBalanceSheet).map(\.id))
        var count = 0
        var net: Int64 = 0
        for schedule in stored.schedules {
            let state = stored.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            let calendar = projection.window.calendars[schedule.rule.calendar] ?? .none
            for occurrence in schedule.occurrences(in: DayRange(schedule.start.advanced(by: -10), today), calendar: calendar)
            where occurrence.day < today && state.isOpen(occurrence.original) && occurrence.original > state.handledThrough {
                count += 1
                net += occurrence.postings.filter { sheet.contains($0.accountID) }.map(\.amount.minor).reduce(0, +)
            }
        }
        // Loan payments after the history the loan came with: what moves out of the paying
        // account less the principal the loan account gains is the interest.
        for loan in stored.loans {
            let handled = try #require(loan.handledThrough, "the sample's loans say how far their history goes")
            for row in try loan.schedule(calendar: projection.window.calendars[loan.calendar] ?? .none).rows
            where row.original > handled && row.day < today {
                count += 1
                net -= row.interest
            }
        }
        // The deposit's credits after its history: each capitalisation's interest adds to the
        // balance sheet; the payout at maturity moves the balance to VTB Debit with the last
        // interest (one flow), so its net is that interest too.
        for deposit in stored.deposits {
            let handled = try #require(deposit.handledThrough, "the sample's deposit says how far its history goes")
            var flows: [DepositFlow] = []
            for transaction in stored.transactions {
                for posting in transaction.postings where posting.accountID == deposit.accountID {
                    flows.append(DepositFlow(day: transaction.day, amount: posting.amount.minor))
                }
            }
            let events = deposit.terms.events(flows: flows, through: today.advanced(by: -1))
            #expect(events.contains { $0.kind == .payout }, "the sample's deposit matured before \(today)")
            for event in events where event.day > handled {
                if event.kind == .interest {
                    net += event.amount
                    count += 1
                } else if !events.contains(where: { $0.kind == .interest && $0.day == event.day }) {
                    count += 1
                }
            }
        }
        for due in stored.dues where due.status != .fullyPaid && due.dueDay < today {
            count += 1
            net -= due.left
        }
        // The card's payback of its last statement due before today, unpaid: between two of the
        // balance sheet's accounts, no net.
        let card = try #require(stored.cards.first)
        let cycles = stored.cardCycles(card, today: today, horizon: today, calendars: projection.window.calendars)
        if cycles.overdueAmount > 0 { count += 1 }
        #expect(cycles.overdue != nil, "a year and a half of card spending and no payback recorded")
        #expect(count > 500)
        #expect(projection.overdue.count == count)
        #expect(projection.overdue.net.minor == net)
    }
}
