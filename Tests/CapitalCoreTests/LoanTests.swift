import Testing

@testable import CapitalCore

@Suite("Loans: published and hand-worked schedules, prepayments, bad terms")
struct LoanTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// The HP 10bII owner's manual example: $180 000 at 7.75 % for 30 years, payment $1 289.54.
    /// The payment rounds the exact 1 289.542042… down, so 360 payments of 1 289.54 would leave
    /// a little owing: the last payment is 1 292.54 (Python `decimal` at 50 digits agrees, see
    /// Scripts/loan-fixtures.py), and the interest over the life is 284 237.40.
    @Test func theHP10bIIMortgage() throws {
        let loan = try Loan(principal: 18_000_000, rate: Rate(parsing: "7.75"), term: 360, start: Self.day("2025-01-01"))
        let schedule = try loan.amortize()
        #expect(schedule.payment == 128_954)
        #expect(schedule.rows.count == 360)
        #expect(schedule.rows.dropLast().allSatisfy { $0.payment == 128_954 })
        #expect(schedule.rows.last?.payment == 129_254)
        #expect(schedule.totalInterest == 28_423_740)
        // The first month: 180 000 × 7.75 % / 12 = 1 162.50 interest, 127.04 principal.
        #expect(schedule.rows[0].interest == 116_250)
        #expect(schedule.rows[0].principal == 12_704)
        #expect(schedule.rows[0].balance == 17_987_296)
        #expect(schedule.rows.last?.balance == 0)
    }

    /// 100 000.00 at 12 % over 3 months, actual/365, lent on 15 January 2025, paid on the 15th:
    ///
    /// - payment: 10 000 000 × 0.01 / (1 − 1.01^−3) = 3 400 221.15… → 3 400 221
    /// - 15 Feb, 31 days: 10 000 000 × 0.12 × 31/365 = 101 917.8… → 101 918 interest,
    ///   3 298 303 principal, 6 701 697 left
    /// - 15 Mar, 28 days: 6 701 697 × 0.12 × 28/365 = 61 691.6… → 61 692; 3 338 529; 3 363 168 left
    /// - 15 Apr, 31 days: 3 363 168 × 0.12 × 31/365 = 34 276.7… → 34 277; the last payment takes
    ///   the 3 363 168 left: 3 397 445.
    @Test func anActual365ScheduleWorkedByHand() throws {
        let loan = try Loan(
            principal: 10_000_000, rate: Rate(parsing: "12"), term: 3, start: Self.day("2025-01-15"), dayCount: .actual365)
        let rows = try loan.amortize().rows
        #expect(rows.map(\.day) == ["2025-02-15", "2025-03-15", "2025-04-15"].map(Self.day))
        #expect(rows.map(\.payment) == [3_400_221, 3_400_221, 3_397_445])
        #expect(rows.map(\.interest) == [101_918, 61_692, 34_277])
        #expect(rows.map(\.principal) == [3_298_303, 3_338_529, 3_363_168])
        #expect(rows.map(\.balance) == [6_701_697, 3_363_168, 0])
    }

    /// actual/actual splits a period at the new year: 20 Dec 2024 → 20 Jan 2025 is 12 days of a
    /// leap year and 19 of a common one: 1 000 000.00 × 20 % × (12/366 + 19/365) =
    /// 6 557.377… + 10 410.958… = 16 968.335… → 16 968.34.
    @Test func actualActualSplitsAPeriodAtTheNewYear() throws {
        #expect(DayCount.actualActual.numerator(from: Self.day("2024-12-20"), to: Self.day("2025-01-20")) == 12 * 365 + 19 * 366)
        let loan = try Loan(
            principal: 100_000_000, rate: Rate(parsing: "20"), term: 2, start: Self.day("2024-12-20"), dayCount: .actualActual)
        #expect(try loan.amortize().rows[0].interest == 1_696_834)
        let actual365 = try Loan(principal: 100_000_000, rate: Rate(parsing: "20"), term: 2, start: Self.day("2024-12-20"), dayCount: .actual365)
        #expect(try actual365.amortize().rows[0].interest == 1_698_630)  // 31/365 of 20 %: 16 986.30
    }

    @Test func thirty360CountsEveryMonthAsThirtyDays() {
        let count = DayCount.thirty360
        #expect(count.numerator(from: Self.day("2025-01-15"), to: Self.day("2025-02-15")) == 30)
        #expect(count.numerator(from: Self.day("2025-02-15"), to: Self.day("2025-03-15")) == 30)
        #expect(count.numerator(from: Self.day("2025-01-31"), to: Self.day("2025-03-31")) == 60)
        #expect(count.numerator(from: Self.day("2025-01-15"), to: Self.day("2026-01-15")) == 360)
        #expect(count.numerator(from: Self.day("2025-03-15"), to: Self.day("2025-03-15")) == 0)
    }

    /// A linear loan: 100 000.00 over 3 months at 12 % (30/360): principal parts of
    /// 33 333.33 (100 000 / 3 rounded) and a last one of 33 333.34; interest 1 % a month of what
    /// is left: 1 000.00, 666.67, 333.33.
    @Test func linearLoansRepayEqualPrincipalPartsAndTheLastAbsorbsTheRounding() throws {
        let loan = try Loan(principal: 10_000_000, rate: Rate(parsing: "12"), term: 3, start: Self.day("2025-01-15"), method: .linear)
        let rows = try loan.amortize().rows
        #expect(rows.map(\.principal) == [3_333_333, 3_333_333, 3_333_334])
        #expect(rows.map(\.interest) == [100_000, 66_667, 33_333])
        #expect(rows.map(\.payment) == [3_433_333, 3_400_000, 3_366_667])
        #expect(rows.last?.balance == 0)
    }

    @Test(arguments: [1, 7, 12, 59, 360])
    func linearPartsAreEqualButTheLast(term: Int) throws {
        let loan = try Loan(principal: 123_456_789, rate: Rate(parsing: "9.9"), term: term, start: Self.day("2025-01-31"), method: .linear)
        let rows = try loan.amortize().rows
        #expect(rows.count == term)
        let part = (123_456_789 + Int64(term) / 2) / Int64(term)
        #expect(rows.dropLast().allSatisfy { $0.principal == part })
        #expect(rows.reduce(0) { $0 + $1.principal } == 123_456_789)
    }

    /// Halves: 1.00 at 6 % owes exactly half a kopeck the first month; half-up charges it,
    /// half-even does not. A linear 0.05 over 2 months splits 2.5 + 2.5 kopecks.
    @Test func halfEvenRoundsHalvesToEven() throws {
        let start = Self.day("2025-01-15")
        let up = try Loan(principal: 100, rate: Rate(parsing: "6"), term: 2, start: start, method: .linear)
        let even = try Loan(principal: 100, rate: Rate(parsing: "6"), term: 2, start: start, method: .linear, rounding: .halfEven)
        #expect(try up.amortize().rows[0].interest == 1)
        #expect(try even.amortize().rows[0].interest == 0)
        #expect(try Loan.share(5, count: 2, .halfUp) == 3)
        #expect(try Loan.share(5, count: 2, .halfEven) == 2)
        #expect(try Loan.share(7, count: 2, .halfEven) == 4)
    }

    @Test func paymentsFallOnTheSameDayClampedAndMoveOffDaysOff() throws {
        let loan = try Loan(principal: 1_000_000, rate: Rate(parsing: "10"), term: 4, start: Self.day("2024-12-31"), adjustment: .following)
        let days = try loan.amortize().rows.map(\.day)
        // 31 Jan 2025 (Fri), 28 Feb (Fri), 31 Mar (Mon), 30 Apr (Wed): weekends only on `.none`.
        #expect(days == ["2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30"].map(Self.day))
        let saturday = try Loan(principal: 1_000_000, rate: Rate(parsing: "10"), term: 2, start: Self.day("2025-04-05"), adjustment: .following)
        #expect(try saturday.amortize().rows.map(\.day) == ["2025-05-05", "2025-06-05"].map(Self.day))  // 5 May is a Monday already
        let sunday = try Loan(principal: 1_000_000, rate: Rate(parsing: "10"), term: 1, start: Self.day("2025-04-06"), adjustment: .preceding)
        #expect(try sunday.amortize().rows.map(\.day) == [Self.day("2025-05-06")])
        let weekend = try Loan(principal: 1_000_000, rate: Rate(parsing: "10"), term: 1, start: Self.day("2025-04-10"), adjustment: .preceding)
        #expect(try weekend.amortize().rows.map(\.day) == [Self.day("2025-05-09")])  // Sat 10 May → Fri 9 May
    }

    // MARK: Prepayments

    static func mortgage(_ prepayments: [LoanPrepayment] = []) throws -> Loan {
        try Loan(principal: 500_000_000, rate: Rate(parsing: "12"), term: 240, start: Self.day("2025-02-15"), prepayments: prepayments)
    }

    /// Paying 1 000 000.00 extra on the 12th payment's day, keeping the payment: the loan ends
    /// sooner, and what is owed after each payment is what an independent loop gives.
    @Test func aPrepaymentThatReducesTheTermKeepsThePayment() throws {
        let base = try Self.mortgage().amortize()
        let day = base.rows[11].day
        let schedule = try Self.mortgage([LoanPrepayment(day: day, amount: 100_000_000, effect: .term)]).amortize()
        let payments = schedule.payments
        #expect(payments.dropLast().allSatisfy { $0.payment == base.payment })
        #expect(payments.count < 240)
        #expect(schedule.totalInterest < base.totalInterest)
        // Independent loop: 1 % a month on the balance, rounded half-up.
        var balance: Int64 = 500_000_000
        for (k, row) in payments.enumerated() {
            if k == 12 { balance -= 100_000_000 }
            let interest = (balance + 50) / 100
            #expect(row.interest == interest, "payment \(k + 1)")
            balance -= row.principal
        }
        #expect(balance == 0)
        #expect(schedule.rows[12].kind == .prepayment && schedule.rows[12].balance == base.rows[11].balance - 100_000_000)
    }

    @Test func aPrepaymentThatReducesThePaymentKeepsTheTerm() throws {
        let base = try Self.mortgage().amortize()
        let day = base.rows[11].day
        let schedule = try Self.mortgage([LoanPrepayment(day: day, amount: 100_000_000, effect: .payment)]).amortize()
        let payments = schedule.payments
        #expect(payments.count == 240)
        let left = base.rows[11].balance - 100_000_000
        let newPayment = try Loan.annuityPayment(principal: left, rate: Rate(parsing: "12"), count: 228)
        #expect(newPayment < base.payment)
        #expect(payments[12..<239].allSatisfy { $0.payment == newPayment })
        #expect(schedule.totalInterest < base.totalInterest)
        #expect(schedule.rows.last?.balance == 0)
    }

    /// Between payments the period accrues on the old balance to the prepayment's day and on the
    /// new one after: 30/360, 15 Jan → 25 Jan is 10 days at 5 000 000.00, 25 Jan → 15 Feb 20 days
    /// at 4 000 000.00: (5 000 000 × 10 + 4 000 000 × 20) × 12 % / 360 = 43 333.33.
    @Test func aPrepaymentBetweenPaymentsSplitsThePeriodsInterest() throws {
        let loan = try Self.mortgage()
        var shifted = loan
        shifted.principal = 500_000_000
        shifted.start = Self.day("2025-01-15")
        shifted.firstPayment = Self.day("2025-02-15")
        shifted.prepayments = [LoanPrepayment(day: Self.day("2025-01-25"), amount: 100_000_000)]
        let rows = try shifted.amortize().rows
        #expect(rows[0].kind == .prepayment && rows[0].day == Self.day("2025-01-25"))
        #expect(rows[1].interest == 4_333_333)
    }

    /// Between payments, keeping the term: the payment recomputed is the level one that closes the
    /// loan on its last day — found here by brute force (30/360: the first period's interest as
    /// the engine splits it, then 1 % a month on the balance rounded half-up; the level payment
    /// whose last payment is nearest it) — so the last payment differs by rounding only. (It
    /// used to be the annuity on the new balance alone, which left the old balance's interest of
    /// those days to the last payment: thousands, not kopecks.)
    @Test(arguments: [("2025-03-20", 100_000_000), ("2025-03-16", 250_000_000), ("2025-04-14", 10_000_000), ("2026-07-01", 300_000_000)])
    func aPrepaymentBetweenPaymentsThatReducesThePaymentLeavesLevelPayments(day: String, amount: Int64) throws {
        let schedule = try Self.mortgage([LoanPrepayment(day: Self.day(day), amount: amount, effect: .payment)]).amortize()
        let prepayment = try #require(schedule.rows.firstIndex { $0.kind == .prepayment })
        let after = Array(schedule.rows[(prepayment + 1)...])
        #expect(after.count == 240 - schedule.rows[..<prepayment].count)
        let payment = after[0].payment
        #expect(after.dropLast().allSatisfy { $0.payment == payment })
        // Brute force: each payment P from the first after the prepayment, its interest as the
        // engine split it, then 1 % a month; the P whose last payment comes nearest P.
        let start = schedule.rows[prepayment].balance
        func last(_ level: Int64) -> Int64 {
            var balance = start + after[0].interest - level
            for _ in 1..<(after.count - 1) { balance = balance + (balance + 50) / 100 - level }
            return balance + (balance + 50) / 100
        }
        let guess = payment
        let best = ((guess - 500)...(guess + 500)).min { abs(last($0) - $0) < abs(last($1) - $1) }!
        #expect(abs(best - payment) <= 1, "the engine's payment \(payment), the level one \(best)")
        // The last payment takes what the payment's rounding (half a kopeck a month at most)
        // grew to over the months left, at 1 % a month: nothing more.
        var growth = 1.0
        for _ in 0..<after.count { growth *= 1.01 }
        let rounding = Int64(((growth - 1) / 0.01 / 2).rounded(.up)) + 1
        #expect(abs(after.last!.payment - payment) <= rounding, "last \(after.last!.payment) against \(payment)")
    }

    @Test func aFullPayoffPaysTheBalanceAndTheInterestAccruedSoFar() throws {
        let base = try Self.mortgage().amortize()
        let after = base.rows[23]
        let day = after.day.advanced(by: 10)  // the 25th of the month: 10 days into the 25th period
        let schedule = try Self.mortgage([LoanPrepayment(day: day, amount: 0, full: true)]).amortize()
        let last = try #require(schedule.rows.last)
        #expect(last.kind == .prepayment && last.balance == 0 && last.principal == after.balance)
        // 30/360 from the 15th to the 25th: 10/360 of 12 % on the balance, rounded half-up.
        #expect(last.interest == (after.balance * 10 * 12 + 18_000) / 36_000)
        #expect(schedule.payments.count == 24)
    }

    @Test func prepaymentsOutOfRangeAreRefused() throws {
        let base = try Self.mortgage().amortize()
        #expect(throws: LoanError.prepaymentTooLarge(day: base.rows[0].day, amount: base.rows[0].balance, remaining: base.rows[0].balance)) {
            try Self.mortgage([LoanPrepayment(day: base.rows[0].day, amount: base.rows[0].balance)]).amortize()
        }
        #expect(throws: LoanError.prepaymentBeforeStart(day: Self.day("2025-02-01"), start: Self.day("2025-02-15"))) {
            try Self.mortgage([LoanPrepayment(day: Self.day("2025-02-01"), amount: 1_000)]).amortize()
        }
        #expect(throws: LoanError.prepaymentAfterPayoff(day: Self.day("2046-01-01"), payoff: base.payoff)) {
            try Self.mortgage([LoanPrepayment(day: Self.day("2046-01-01"), amount: 1_000)]).amortize()
        }
    }

    // MARK: Bad terms

    @Test(arguments: ["-1", "1000.0001", "1001", "abc", "7.12345", "", "7.", "%", "1e3"])
    func badRatesAreRefused(text: String) {
        #expect(throws: LoanError.self) { try Rate(parsing: text) }
    }

    @Test func ratesReadAsPercentages() throws {
        #expect(try Rate(parsing: "7.75").perMillion == 77_500)
        #expect(try Rate(parsing: "7.75%").perMillion == 77_500)
        #expect(try Rate(parsing: "0.0001").perMillion == 1)
        #expect(try Rate(parsing: "1000").perMillion == 10_000_000)
        #expect(try Rate(parsing: "0").perMillion == 0)
        #expect(try Rate(parsing: "14.90").description == "14.9%")
    }

    @Test func badTermsAreRefused() throws {
        let start = Self.day("2025-01-15")
        let rate = try Rate(parsing: "10")
        #expect(throws: LoanError.invalid(field: "principal", value: "0", reason: "must be more than 0")) {
            try Loan(principal: 0, rate: rate, term: 12, start: start)
        }
        #expect(throws: LoanError.invalid(field: "term", value: "0", reason: "must be at least 1 month")) {
            try Loan(principal: 100, rate: rate, term: 0, start: start)
        }
        #expect(throws: LoanError.self) { try Loan(principal: 100, rate: rate, term: 12, start: start, firstPayment: start) }
        #expect(throws: LoanError.self) { try Loan(principal: 100, rate: rate, term: 12, start: start, adjustment: .skip) }
        #expect(throws: LoanError.self) { try Loan(principal: Loan.maximumPrincipal + 1, rate: rate, term: 12, start: start) }
    }
}
