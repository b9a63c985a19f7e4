import Testing

@testable import CapitalCore

/// What bills, fines and budgets add to a forecast, summed by hand.
@Suite("Tracking flows")
struct TrackingFlowTests {
    static let rub = try! Currency("RUB")
    static func day(_ iso: String) -> Day { try! Day(iso: iso) }

    static func ledger() -> Ledger {
        var ledger = Ledger(
            currency: rub,
            accounts: [
                Account(id: "debit", name: "Debit", kind: .debit, currency: rub), Account(id: "food", name: "Food", kind: .expense, currency: rub),
                Account(id: "bills", name: "Bills", kind: .expense, currency: rub),
            ])
        ledger.defaultAccountID = "debit"
        return ledger
    }

    /// The sum of the generated postings into `category` on days in `range`.
    static func total(_ flows: [Transaction], _ category: String, _ range: DayRange) -> Int64 {
        flows.filter { range.contains($0.day) }.flatMap(\.postings).filter { $0.accountID == category }.map(\.amount.minor).reduce(0, +)
    }

    @Test func aBillInABudgetedCategoryCountsFirst() throws {
        var ledger = Self.ledger()
        ledger.budgets = [Budget(id: "b", categoryID: "food", amount: 300_000, period: .monthly, start: Self.day("2025-01-01"))]
        ledger.dues = [
            try Due(
                id: "d", number: 1, type: .bill, total: 100_000, reason: "Farm box", dueDay: Self.day("2025-04-20"), currency: Self.rub,
                categoryID: "food")
        ]
        let flows = ledger.trackingTransactions(today: Self.day("2025-04-01"), horizon: Self.day("2025-05-31"), calendars: [:])
        // April: the bill's 1 000 and 2 000 more from the budget; May: the budget's 3 000.
        #expect(Self.total(flows, "food", DayRange(Self.day("2025-04-01"), Self.day("2025-05-01"))) == 300_000)
        #expect(Self.total(flows, "food", DayRange(Self.day("2025-05-01"), Self.day("2025-06-01"))) == 300_000)
        // A bill larger than the budget: the bill alone.
        ledger.dues[0].total = 500_000
        let large = ledger.trackingTransactions(today: Self.day("2025-04-01"), horizon: Self.day("2025-04-30"), calendars: [:])
        #expect(Self.total(large, "food", DayRange(Self.day("2025-04-01"), Self.day("2025-05-01"))) == 500_000)
    }

    @Test func anOverdueRestIsPaidTodayFromTheDefaultAccountAndAPaidOneNotAtAll() throws {
        var ledger = Self.ledger()
        ledger.dues = [
            try Due(
                id: "a", number: 1, type: .fine, total: 50_000, paid: 20_000, reason: "Speeding", dueDay: Self.day("2025-03-20"), currency: Self.rub,
                categoryID: "bills"),
            try Due(
                id: "b", number: 2, type: .bill, total: 9_000, paid: 9_000, reason: "Paid", dueDay: Self.day("2025-04-05"), currency: Self.rub,
                categoryID: "bills"),
            try Due(
                id: "c", number: 3, type: .bill, total: 7_000, reason: "Later", dueDay: Self.day("2025-06-05"), currency: Self.rub,
                categoryID: "bills"),
        ]
        let flows = ledger.trackingTransactions(today: Self.day("2025-04-01"), horizon: Self.day("2025-05-31"), calendars: [:])
        #expect(flows.count == 1)  // the paid one adds nothing; the June one is past the horizon
        #expect(flows.first?.day == Self.day("2025-04-01"))
        #expect(flows.first?.postings.map(\.accountID) == ["debit", "bills"])
        #expect(flows.first?.postings.map(\.amount.minor) == [-30_000, 30_000])
        // Without a default account nor a paying account, nothing can be placed.
        ledger.defaultAccountID = nil
        #expect(ledger.trackingTransactions(today: Self.day("2025-04-01"), horizon: Self.day("2025-05-31"), calendars: [:]).isEmpty)
    }
}
