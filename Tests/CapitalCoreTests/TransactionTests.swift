import CapitalCore
import Testing

@Suite("Transaction")
struct TransactionTests {
    static let day = try! Day(iso: "2025-03-15")

    func rub(_ text: String) throws -> Money { try Money(parsing: text, currency: .rub) }

    func transaction(_ postings: [Posting]) -> Transaction {
        Transaction(id: "t1", day: Self.day, payee: "Bank", postings: postings)
    }

    @Test("a mortgage payment balances: interest and principal against the debit card")
    func mortgagePaymentBalances() throws {
        let payment = transaction([
            Posting(accountID: "loan-interest", amount: try rub("60 000")),
            Posting(accountID: "mortgage", amount: try rub("10 000")),
            Posting(accountID: "vtb-debit", amount: try rub("-70 000")),
        ])
        #expect(throws: Never.self) { try payment.validate() }
    }

    @Test("an unbalanced transaction names the currency and the difference")
    func unbalancedNamesCurrencyAndDifference() throws {
        let payment = transaction([
            Posting(accountID: "loan-interest", amount: try rub("60 000")),
            Posting(accountID: "mortgage", amount: try rub("10 000")),
            Posting(accountID: "vtb-debit", amount: try rub("-69 999.50")),
        ])
        let error = #expect(throws: LedgerError.self) { try payment.validate() }
        #expect(error == .unbalanced(try rub("0.50")))
        #expect(error?.description == "postings do not balance: they sum to 0.50 RUB instead of 0")
    }

    @Test("an overdrawn side reports a negative difference")
    func negativeDifference() throws {
        let spend = transaction([
            Posting(accountID: "groceries", amount: try rub("500")),
            Posting(accountID: "vtb-debit", amount: try rub("-600")),
        ])
        #expect(throws: LedgerError.unbalanced(try rub("-100"))) { try spend.validate() }
    }

    @Test("a transaction needs at least two postings", arguments: [0, 1])
    func tooFewPostings(count: Int) throws {
        let postings = Array(repeating: Posting(accountID: "vtb-debit", amount: .zero(.rub)), count: count)
        #expect(throws: LedgerError.tooFewPostings(count: count)) { try transaction(postings).validate() }
        #expect(LedgerError.tooFewPostings(count: count).description.contains("got \(count)"))
    }

    @Test("postings in several currencies balance per currency")
    func multiCurrencyBalancesPerCurrency() throws {
        let exchange = transaction([
            Posting(accountID: "usd-cash", amount: Money(minor: 100_00, currency: .usd)),
            Posting(accountID: "capital", amount: Money(minor: -100_00, currency: .usd)),
            Posting(accountID: "capital", amount: try rub("9 000")),
            Posting(accountID: "vtb-debit", amount: try rub("-9 000")),
        ])
        #expect(throws: Never.self) { try exchange.validate() }
    }

    @Test("amounts in different currencies never offset each other")
    func currenciesDoNotOffset() throws {
        // 100 RUB in and 100 "units" of USD out: the minor-unit totals cancel, the currencies do not.
        let wrong = transaction([
            Posting(accountID: "vtb-debit", amount: Money(minor: 10_000, currency: .rub)),
            Posting(accountID: "usd-cash", amount: Money(minor: -10_000, currency: .usd)),
        ])
        #expect(throws: LedgerError.unbalanced(Money(minor: 10_000, currency: .rub))) { try wrong.validate() }
    }

    @Test("the unbalanced currency is the one named, even when another balances")
    func namesTheUnbalancedCurrency() throws {
        let exchange = transaction([
            Posting(accountID: "capital", amount: try rub("9 000")),
            Posting(accountID: "vtb-debit", amount: try rub("-9 000")),
            Posting(accountID: "usd-cash", amount: Money(minor: 100_00, currency: .usd)),
            Posting(accountID: "capital", amount: Money(minor: -99_00, currency: .usd)),
        ])
        let error = #expect(throws: LedgerError.self) { try exchange.validate() }
        #expect(error == .unbalanced(Money(minor: 1_00, currency: .usd)))
        #expect(error?.description.contains("1.00 USD") == true)
    }

    @Test("postings whose sum does not fit in Int64 are an overflow, not a trap")
    func overflow() {
        let huge = transaction([
            Posting(accountID: "a", amount: .rub(.max)),
            Posting(accountID: "b", amount: .rub(.max)),
        ])
        #expect(throws: LedgerError.overflow) { try huge.validate() }
    }

    @Test(
        "kind follows the categories a transaction touches",
        arguments: [
            (["groceries", "vtb-debit"], TransactionKind.expense),
            (["salary", "vtb-debit"], .income),
            (["vtb-debit", "cash"], .transfer),
            (["salary", "groceries"], .mixed),
            (["loan-interest", "mortgage", "vtb-debit"], .expense),
        ]
    )
    func kind(accounts: [String], expected: TransactionKind) {
        let kinds: [String: AccountKind] = [
            "groceries": .expense, "loan-interest": .expense, "salary": .income,
            "vtb-debit": .debit, "cash": .cash, "mortgage": .loan,
        ]
        let t = transaction(accounts.map { Posting(accountID: $0, amount: .zero(.rub)) })
        #expect(t.kind { kinds[$0] } == expected)
    }
}
