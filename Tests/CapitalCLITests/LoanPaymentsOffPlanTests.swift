import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

/// Issue 50, item 5.2: a loan payment recorded with another amount than its schedule's. Paid
/// short, the rest stays owed (overdue, reminded, posted, counted); paid more, the excess is a
/// prepayment that shortens the term, exactly as `loan prepay … --reduce term` on that day.
@Suite("CLI: loan payments of another amount")
struct LoanPaymentsOffPlanTests {
    /// The sample's mortgage pays 69 979.36 on 2025-04-05 (59 648.53 of it interest).
    static let payment: Int64 = 69_979_36
    static let today = "2025-04-06"

    /// The household with the mortgage's 2025-04-05 payment recorded as `amount` from VTB Debit.
    static func paid(_ amount: Int64, settles: Bool = true) throws -> (CLI, CLI.Result) {
        let cli = try CLI.household()
        let result = ExpectedFlowTests.pay(
            cli, today: today, on: try Day(iso: "2025-04-05"), amount, from: "VTB Debit", to: "Mortgage",
            settles: settles ? "Mortgage@2025-04-05" : nil)
        return (cli, result)
    }

    static func loan(_ cli: CLI, on today: String = today) throws -> [String: Any] {
        try #require(try cli.json(["--today", today, "loan", "show", "Mortgage"]) as? [String: Any])
    }

    @Test func aShortPaymentLeavesTheRestOwedUntilPaid() throws {
        let short: Int64 = 65_000_00
        let (cli, result) = try Self.paid(short)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("4 979.36 less): the rest stays owed"), "\(result.stderr)")
        let (whole, paidWhole) = try Self.paid(Self.payment)
        #expect(paidWhole.status == 0)

        // The rest is open and overdue, named after the payment made short.
        let overdue = try cli.rows(["--today", Self.today, "expected", "list", "--overdue", "--kind", "loan"])
        let rest = try #require(overdue.first { $0.string("payee")?.contains("rest owed") == true }, "\(overdue)")
        #expect(rest.string("state") == "open" && rest.string("amount") == "4979.36" && rest.string("ref") == "Mortgage@2025-04-05")
        #expect(rest.string("date") == "2025-04-05")
        #expect(try whole.rows(["--today", Self.today, "expected", "list", "--overdue", "--kind", "loan"]).isEmpty)
        let remind = cli.run(["--today", Self.today, "remind"])
        #expect(remind.stdout.contains("rest owed since 2025-04-05"), "\(remind.stdout)")

        // Counted: the money left in the bank is owed today, so the answer is the whole payment's.
        #expect(try ExpectedFlowTests.canSpend(cli, today: Self.today) == (try ExpectedFlowTests.canSpend(whole, today: Self.today)))
        // (Before: the 4 979.36 kept in the bank was spendable, and the loan ended owing it.)

        // A matching transfer of the rest pays it without standing for another payment.
        let transfer = cli.run(["--today", Self.today, "transfer", "4979.36", "--from", "VTB Debit", "--to", "Mortgage"])
        #expect(transfer.status == 0 && !transfer.stderr.contains("settles"), "\(transfer)")
        #expect(try cli.rows(["--today", Self.today, "expected", "list", "--overdue", "--kind", "loan"]).isEmpty)
        #expect(try ExpectedFlowTests.balances(cli, today: Self.today) == (try ExpectedFlowTests.balances(whole, today: Self.today)))
        #expect(try Self.loan(cli).string("payoff") == (try Self.loan(whole).string("payoff")))
    }

    @Test func postPaysTheRestAndNothingTwice() throws {
        let (cli, _) = try Self.paid(50_000_00)
        let (whole, _) = try Self.paid(Self.payment)
        let posted = cli.run(["--today", Self.today, "post", "--until", Self.today])
        #expect(posted.status == 0 && posted.stdout.contains("19 979.36"), "\(posted)")
        whole.ok(["--today", Self.today, "post", "--until", Self.today])
        #expect(try ExpectedFlowTests.balances(cli, today: Self.today) == (try ExpectedFlowTests.balances(whole, today: Self.today)))
        let again = cli.run(["--today", Self.today, "post", "--until", Self.today, "--dry-run"])
        #expect(!again.stdout.contains("19 979.36"), "\(again)")
        #expect(try ExpectedFlowTests.canSpend(cli, today: Self.today) == (try ExpectedFlowTests.canSpend(whole, today: Self.today)))
    }

    /// Less than the interest: the interest left unpaid is owed too, and paid to the interest
    /// category when the rest is paid, by `post` or by a transfer to the loan in two parts.
    @Test func aPaymentBelowItsInterestLeavesTheInterestOwed() throws {
        let (posted, result) = try Self.paid(10_000_00)
        #expect(result.status == 0, "\(result)")
        let (whole, _) = try Self.paid(Self.payment)
        #expect(try ExpectedFlowTests.canSpend(posted, today: Self.today) == (try ExpectedFlowTests.canSpend(whole, today: Self.today)))
        posted.ok(["--today", Self.today, "post", "--until", Self.today])
        whole.ok(["--today", Self.today, "post", "--until", Self.today])
        let want = try ExpectedFlowTests.balances(whole, today: Self.today)
        #expect(try ExpectedFlowTests.balances(posted, today: Self.today) == want)
        let (moved, _) = try Self.paid(10_000_00)
        moved.ok(["--today", Self.today, "transfer", "40000", "--from", "VTB Debit", "--to", "Mortgage"])
        moved.ok(["--today", Self.today, "transfer", "19979.36", "--from", "VTB Debit", "--to", "Mortgage"])
        moved.ok(["--today", Self.today, "post", "--until", Self.today])
        #expect(try ExpectedFlowTests.balances(moved, today: Self.today) == want)
    }

    /// The reference: the planned payment and `loan prepay EXCESS --on 2025-04-05 --reduce term`.
    @Test func anExcessIsAPrepaymentThatShortensTheTerm() throws {
        let excess: Int64 = 30_020_64
        let (cli, result) = try Self.paid(Self.payment + excess)
        #expect(result.status == 0 && result.stderr.contains("the excess is a prepayment that shortens the term"), "\(result)")
        let (reference, _) = try Self.paid(Self.payment)
        reference.ok(["--today", Self.today, "loan", "prepay", "Mortgage", "30020.64", "--on", "2025-04-05", "--reduce", "term"])
        // The prepayment's money, moved the same day (the planned prepayment shares the payment's
        // day, so the payment's mark already counts it made).
        reference.ok(["--today", Self.today, "transfer", "30020.64", "--from", "VTB Debit", "--to", "Mortgage", "--on", "2025-04-05"])
        let mine = try Self.loan(cli)
        let theirs = try Self.loan(reference)
        for key in ["balance", "payoff", "paymentsLeft", "interestLeft", "totalInterest", "nextDay", "nextPayment"] {
            #expect("\(mine[key] ?? "nil")" == "\(theirs[key] ?? "nil")", "\(key)")
        }
        #expect(mine.string("payoff") != (try Self.loan(try Self.paid(Self.payment).0)).string("payoff"), "the term is shorter")
        // Nothing open for the excess, and no credit: the prepayment is made by the payment itself.
        #expect(try cli.rows(["--today", Self.today, "expected", "list", "--overdue", "--kind", "loan"]).isEmpty)
        #expect(try ExpectedFlowTests.canSpend(cli, today: Self.today) == (try ExpectedFlowTests.canSpend(reference, today: Self.today)))
        let months = ["--today", Self.today, "forecast", "--until", "2045-12", "--by", "month"]
        #expect(try cli.json(months) as? NSDictionary == (try reference.json(months) as? NSDictionary))
    }

    /// The same in a ledger file: what `export` writes reads back with the same answers.
    @Test func aLedgerFileKeepsWhatWasPaid() throws {
        for amount in [50_000_00, Self.payment + 30_020_64] {
            let (cli, _) = try Self.paid(amount)
            let file = cli.path("ledger-\(amount).yaml")
            cli.ok(["--today", Self.today, "export", "--out", file])
            let fromFile = try #require(try cli.json(["-f", file, "--today", Self.today, "can-spend"]) as? [String: Any])
            let fromStore = try #require(try cli.json(["--today", Self.today, "can-spend"]) as? [String: Any])
            #expect(fromFile.string("amount") == fromStore.string("amount"), "\(amount)")
            let show = ["-f", file, "--today", Self.today, "loan", "show", "Mortgage"]
            #expect((try cli.json(show) as? [String: Any])?.string("payoff") == (try Self.loan(cli)).string("payoff"), "\(amount)")
        }
    }
}
