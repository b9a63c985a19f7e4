import Testing

@testable import CapitalCore

/// Stored loans in the engine: recurring extra payments and the transactions a loan adds to a
/// forecast.
@Suite("Ledger loans")
struct LedgerLoanTests {
    static func day(_ iso: String) -> Day { try! Day(iso: iso) }
    static let rub = try! Currency("RUB")
    static let accounts = [
        Account(id: "capital", name: "Capital", kind: .equity, currency: rub),
        Account(id: "debit", name: "Debit", kind: .debit, currency: rub),
        Account(id: "savings", name: "Savings", kind: .debit, currency: rub),
        Account(id: "loan", name: "Car loan", kind: .loan, currency: rub),
        Account(id: "interest", name: "Loan interest", kind: .expense, currency: rub),
    ]

    static func loan(extras: [LoanExtra] = [], start: String = "2025-01-15") throws -> LedgerLoan {
        let terms = try Loan(principal: 120_000_000, rate: Rate(parsing: "12"), term: 24, start: Self.day(start))
        return LedgerLoan(id: "L", accountID: "loan", payFromID: "debit", interestCategoryID: "interest", terms: terms, extras: extras)
    }

    /// A recurring extra payment is the same as the one-off prepayments on each of its days: the
    /// reference lists those days by hand.
    @Test func aRecurringExtraPaymentEqualsItsOneOffPrepayments() throws {
        let rule = try Rule(parsing: "monthly on 20")
        let recurring = try Self.loan(extras: [LoanExtra(amount: 1_000_000, rule: rule, start: Self.day("2025-03-20"), end: Self.day("2025-07-31"))])
        var manual = try Self.loan()
        manual.terms.prepayments = ["2025-03-20", "2025-04-20", "2025-05-20", "2025-06-20", "2025-07-20"].map {
            LoanPrepayment(day: Self.day($0), amount: 1_000_000)
        }
        #expect(try recurring.schedule() == manual.terms.amortize())
    }

    /// When a recurring payment is not less than what is left, it pays the loan off (balance and
    /// the interest accrued) and the later ones are dropped.
    @Test func aRecurringExtraPaymentLargerThanTheBalancePaysItOff() throws {
        let rule = try Rule(parsing: "monthly on 20")
        let loan = try Self.loan(extras: [LoanExtra(amount: 30_000_000, rule: rule, start: Self.day("2025-02-20"))])
        let schedule = try loan.schedule()
        let last = try #require(schedule.rows.last)
        #expect(last.kind == .prepayment && last.balance == 0 && last.interest > 0)
        #expect(schedule.rows.filter { $0.kind == .prepayment }.count == 4)
        let principal = schedule.rows.reduce(Int64(0)) { $0 + $1.principal }
        #expect(principal == 120_000_000)
    }

    @Test func theForecastLedgerHasTheScheduleAsBalancedTransactions() throws {
        let loan = try Self.loan()
        var ledger = Ledger(currency: Self.rub, accounts: Self.accounts)
        // Something posted to the loan account by hand: the schedule still decides its balance.
        ledger.transactions = [
            Transaction(
                id: "t", day: Self.day("2025-02-01"),
                postings: [
                    Posting(accountID: "loan", amount: Money(minor: 5_000, currency: Self.rub)),
                    Posting(accountID: "capital", amount: Money(minor: -5_000, currency: Self.rub)),
                ])
        ]
        ledger.loans = [loan]
        let today = Self.day("2025-04-01")
        let forecast = try ledger.forecastLedger(today: today, horizon: Self.day("2025-12-31"), calendars: [:])
        let schedule = try loan.schedule()
        for transaction in forecast.transactions { try transaction.validate() }
        let march = try #require(schedule.rows.first { $0.day == Self.day("2025-03-15") })
        let balances = try forecast.balances(on: today.advanced(by: -1))
        #expect(balances[BalanceKey(accountID: "loan", currency: Self.rub)] == -march.balance)
        let payments = forecast.transactions.filter { $0.payee == "Car loan payment" }
        #expect(payments.map(\.day) == schedule.rows.filter { $0.day >= today && $0.day <= Self.day("2025-12-31") }.map(\.day))
        let april = try #require(payments.first)
        let row = try #require(schedule.rows.first { $0.day == april.day })
        #expect(april.postings.map(\.amount.minor) == [-row.payment, row.interest, row.principal])
        #expect(april.postings.map(\.accountID) == ["debit", "interest", "loan"])
        // On every day before today the account follows the schedule: the principal from the
        // start, each payment's balance from its day, whatever was posted by hand.
        var expected = loan.terms.principal
        var rows = schedule.rows.filter { $0.day < today }[...]
        for day in DayRange(loan.terms.start, today) {
            while let row = rows.first, row.day <= day {
                expected = row.balance
                rows = rows.dropFirst()
            }
            #expect(try forecast.balances(on: day)[BalanceKey(accountID: "loan", currency: Self.rub)] == -expected, "on \(day)")
        }
        // Day order is kept: generated transactions come after the day's own.
        #expect(forecast.transactions.map(\.day) == forecast.transactions.map(\.day).sorted())
    }

    @Test func aLoanStartingAfterTodayIsPaidOutThatDay() throws {
        var loan = try Self.loan(start: "2025-06-01")
        loan.disburseToID = "savings"
        var ledger = Ledger(currency: Self.rub, accounts: Self.accounts)
        ledger.loans = [loan]
        let forecast = try ledger.forecastLedger(today: Self.day("2025-04-01"), horizon: Self.day("2025-07-31"), calendars: [:])
        let payout = try #require(forecast.transactions.first)
        #expect(payout.day == Self.day("2025-06-01"))
        #expect(payout.postings.map(\.accountID) == ["savings", "loan"] && payout.postings.map(\.amount.minor) == [120_000_000, -120_000_000])
        #expect(!forecast.transactions.contains { $0.payee.contains("balance by its schedule") })
    }
}
