import CapitalCore
import Testing

@Suite("Ledger")
struct LedgerTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    static func spend(_ id: String, on day: String, _ minor: Int64, from account: String = "vtb-debit") -> Transaction {
        Transaction(
            id: id, day: Self.day(day),
            postings: [
                Posting(accountID: "groceries", amount: .rub(minor)),
                Posting(accountID: account, amount: .rub(-minor)),
            ])
    }

    static let ledger = Ledger(
        currency: .rub,
        transactions: [
            Transaction(
                id: "open", day: day("2025-01-01"),
                postings: [
                    Posting(accountID: "vtb-debit", amount: .rub(100_000_00)),
                    Posting(accountID: "capital", amount: .rub(-100_000_00)),
                    Posting(accountID: "usd-cash", amount: Money(minor: 500_00, currency: .usd)),
                    Posting(accountID: "capital", amount: Money(minor: -500_00, currency: .usd)),
                ]),
            spend("t1", on: "2025-01-10", 1_500_00),
            spend("t2", on: "2025-01-10", 250_00, from: "cash"),
            spend("t3", on: "2025-01-11", 3_000_00),
        ])

    func key(_ account: String, _ currency: Currency = .rub) -> BalanceKey {
        BalanceKey(accountID: account, currency: currency)
    }

    @Test("balances include every posting on or before the day and none after")
    func balancesExcludeLaterDays() throws {
        let balances = try Self.ledger.balances(on: Self.day("2025-01-10"))
        #expect(balances[key("vtb-debit")] == 98_500_00)
        #expect(balances[key("cash")] == -250_00)
        #expect(balances[key("groceries")] == 1_750_00)
        #expect(balances[key("capital")] == -100_000_00)

        let nextDay = try Self.ledger.balances(on: Self.day("2025-01-11"))
        #expect(nextDay[key("vtb-debit")] == 95_500_00)
        #expect(nextDay[key("groceries")] == 4_750_00)
    }

    @Test("before the first transaction there are no balances")
    func nothingBeforeTheFirstDay() throws {
        #expect(try Self.ledger.balances(on: Self.day("2024-12-31")).isEmpty)
    }

    @Test("an account's balance is kept per currency")
    func balancesPerCurrency() throws {
        let balances = try Self.ledger.balances(on: Self.day("2025-12-31"))
        #expect(balances[key("capital", .rub)] == -100_000_00)
        #expect(balances[key("capital", .usd)] == -500_00)
        #expect(balances[key("usd-cash", .usd)] == 500_00)
        #expect(balances[key("usd-cash", .rub)] == nil)
    }

    @Test("the balances of a balanced ledger sum to zero in each currency")
    func balancesSumToZero() throws {
        let balances = try Self.ledger.balances(on: Self.day("2025-12-31"))
        for currency in [Currency.rub, .usd] {
            let total = balances.filter { $0.key.currency == currency }.values.reduce(0, +)
            #expect(total == 0, "\(currency)")
        }
    }

    @Test("a balance that does not fit in Int64 is an overflow")
    func overflow() {
        let ledger = Ledger(
            currency: .rub,
            transactions: [
                Self.spend("a", on: "2025-01-01", .max),
                Self.spend("b", on: "2025-01-02", 1),
            ])
        #expect(throws: Never.self) { try ledger.balances(on: Self.day("2025-01-01")) }
        #expect(throws: LedgerError.overflow) { try ledger.balances(on: Self.day("2025-01-02")) }
    }
}
