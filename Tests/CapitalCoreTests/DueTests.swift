import Testing

@testable import CapitalCore

@Suite("Dues: bills and fines, their status, payments, totals and urgency")
struct DueTests {
    static let rub = try! Currency("RUB")
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    static func due(
        _ number: Int, total: Int64, paid: Int64 = 0, on day: String = "2025-03-10", type: DueType = .bill, reason: String = "Electricity"
    ) throws(DueError) -> Due {
        try Due(id: "d\(number)", number: number, type: type, total: total, paid: paid, reason: reason, dueDay: Self.day(day), currency: rub)
    }

    // MARK: - The rules every due payment keeps

    @Test func paidDefaultsToZeroAndTheStatusIsUnpaid() throws {
        let fine = try Due(
            id: "f", number: 1, type: .fine, total: 450_000, reason: "Speeding ticket", dueDay: Self.day("2025-03-10"), currency: Self.rub)
        #expect(fine.paid == 0)
        #expect(fine.status == .unpaid)
        #expect(fine.left == 450_000)
        #expect(fine.iban == "" && fine.address == "" && fine.institution == "" && fine.payFromID == nil)
    }

    @Test(arguments: [
        (Int64(0), DueStatus.unpaid), (1, .partiallyPaid), (4_999, .partiallyPaid), (5_000, .fullyPaid),
    ])
    func theStatusFollowsWhatIsPaid(paid: Int64, status: DueStatus) throws {
        let bill = try Self.due(1, total: 5_000, paid: paid)
        #expect(bill.status == status)
        #expect(bill.left == 5_000 - paid)
    }

    @Test(arguments: [Int64(0), -1, -500_000])
    func aTotalOfZeroOrLessIsRefused(total: Int64) {
        #expect(throws: DueError.invalid(field: "total", value: Money(minor: total, currency: Self.rub).plain, reason: "must be more than 0")) {
            try Self.due(1, total: total)
        }
    }

    @Test func paidOutsideZeroThroughTheTotalIsRefused() {
        #expect(throws: DueError.invalid(field: "paid", value: "-0.01", reason: "cannot be negative")) { try Self.due(1, total: 10_000, paid: -1) }
        #expect(throws: DueError.invalid(field: "paid", value: "100.01", reason: "is more than the total 100.00")) {
            try Self.due(1, total: 10_000, paid: 10_001)
        }
        #expect(throws: Never.self) { try Self.due(1, total: 10_000, paid: 10_000) }
    }

    @Test(arguments: ["", " ", "\t\n"])
    func anEmptyReasonIsRefused(reason: String) {
        #expect(throws: DueError.missing(field: "reason")) { try Self.due(1, total: 10_000, reason: reason) }
    }

    @Test func errorsSayTheFieldAndTheValue() {
        #expect("\(DueError.invalid(field: "total", value: "0.00", reason: "must be more than 0"))" == "total '0.00': must be more than 0")
        #expect("\(DueError.missing(field: "reason"))" == "reason: is required and cannot be empty")
    }

    @Test func daysLeftIsNegativeWhenOverdue() throws {
        let bill = try Self.due(1, total: 100, on: "2025-03-10")
        #expect(bill.daysLeft(today: Self.day("2025-03-01")) == 9)
        #expect(bill.daysLeft(today: Self.day("2025-03-10")) == 0)
        #expect(bill.daysLeft(today: Self.day("2025-03-15")) == -5)
        // Across a year end and a leap day.
        #expect(try Self.due(2, total: 100, on: "2024-03-01").daysLeft(today: Self.day("2023-12-31")) == 31 + 29 + 1)
    }

    // MARK: - Paying

    @Test func paymentsRaisePaidAndTheStatusFollows() throws {
        var bill = try Self.due(1, total: 540_000)
        bill = try bill.paying(200_000)
        #expect(bill.paid == 200_000 && bill.left == 340_000 && bill.status == .partiallyPaid)
        bill = try bill.paying(339_999)
        #expect(bill.paid == 539_999 && bill.left == 1 && bill.status == .partiallyPaid)
        bill = try bill.paying(1)
        #expect(bill.paid == 540_000 && bill.left == 0 && bill.status == .fullyPaid)
    }

    @Test func payingMoreThanWhatIsLeftIsRefusedNamingWhatIsLeft() throws {
        let bill = try Self.due(1, total: 540_000, paid: 200_000)
        #expect(throws: DueError.invalid(field: "amount", value: "3400.01", reason: "is more than what is left to pay, 3400.00")) {
            try bill.paying(340_001)
        }
        #expect(throws: DueError.invalid(field: "amount", value: "0.00", reason: "must be more than 0")) { try bill.paying(0) }
        #expect(throws: DueError.invalid(field: "amount", value: "-1.00", reason: "must be more than 0")) { try bill.paying(-100) }
    }

    @Test func payingAFullyPaidOneIsRefused() throws {
        let fine = try Self.due(1, total: 50_000, paid: 50_000, type: .fine)
        #expect(throws: DueError.invalid(field: "amount", value: "0.01", reason: "the fine is already fully paid")) { try fine.paying(1) }
    }

    // MARK: - Changing the total

    @Test func aTotalBelowWhatIsPaidSetsPaidToTheTotal() throws {
        let bill = try Self.due(1, total: 10_000, paid: 6_000)
        let (lowered, clamped) = try bill.withTotal(4_000)
        #expect(clamped)
        #expect(lowered.total == 4_000 && lowered.paid == 4_000 && lowered.status == .fullyPaid)

        let (raised, notClamped) = try bill.withTotal(20_000)
        #expect(!notClamped)
        #expect(raised.total == 20_000 && raised.paid == 6_000 && raised.status == .partiallyPaid)

        // Exactly what is paid: fully paid, nothing to clamp.
        let (exact, exactClamped) = try bill.withTotal(6_000)
        #expect(!exactClamped && exact.paid == 6_000 && exact.status == .fullyPaid)
    }

    @Test func aTotalOfZeroIsRefusedEvenWhenSomethingIsPaid() throws {
        let bill = try Self.due(1, total: 10_000, paid: 6_000)
        #expect(throws: DueError.invalid(field: "total", value: "0.00", reason: "must be more than 0")) { try bill.withTotal(0) }
    }

    // MARK: - Order

    /// Today is 10 March. The expected order, worked by hand: overdue ones first, most overdue
    /// first; then by due day; on one day the larger rest first, and on equal rests the one
    /// registered first. Fully paid ones are left out.
    @Test func urgencyPutsTheMostOverdueFirstAndBreaksTiesByRestThenRegistration() throws {
        let dues = [
            try Self.due(1, total: 10_000, on: "2025-03-20"),
            try Self.due(2, total: 5_000, on: "2025-03-01"),  // 9 days overdue
            try Self.due(3, total: 30_000, paid: 20_000, on: "2025-03-20"),  // rest 10 000, as #1
            try Self.due(4, total: 70_000, on: "2025-03-20"),  // the largest rest that day
            try Self.due(5, total: 1_000, on: "2025-02-20"),  // 18 days overdue
            try Self.due(6, total: 9_000, paid: 9_000, on: "2025-02-01"),  // fully paid
            try Self.due(7, total: 8_000, on: "2025-03-10"),  // due today
            try Self.due(8, total: 10_000, on: "2025-03-20"),  // rest 10 000, as #1 and #3
            try Self.due(9, total: 6_000, on: "2025-03-01"),  // 9 days overdue, a larger rest than #2
        ]
        let numbers = Due.byUrgency(dues.shuffled()).map(\.number)
        #expect(numbers == [5, 9, 2, 7, 4, 1, 3, 8])
        #expect(Due.byUrgency(dues, includingPaid: true).map(\.number) == [6, 5, 9, 2, 7, 4, 1, 3, 8])
    }

    @Test func registrationOrderIsMostRecentFirstAndKeepsPaidOnes() throws {
        let dues = [
            try Self.due(3, total: 100), try Self.due(1, total: 100, paid: 100), try Self.due(10, total: 100), try Self.due(2, total: 100),
        ]
        #expect(Due.byRegistration(dues).map(\.number) == [10, 3, 2, 1])
    }
}
