import Foundation
import Testing

/// Stored loans: `loan add|list|show|prepay|rm`, their payments in the forecast, ledger files, and
/// every bad input of the loans issue.
@Suite("CLI: stored loans")
struct StoredLoanTests {
    static let today = ["--today", "2025-04-01"]
    static let terms = ["--principal", "1200000", "--rate", "12", "--term", "24", "--start", "2025-01-15"]

    /// A ledger with a debit account holding 500 000 and the 1 200 000 loan "Car loan" paid from it.
    static func withLoan(_ extra: [String] = []) throws -> CLI {
        let cli = try CLI.initialized()
        cli.ok(["earn", "500000", "Salary", "--to", "VTB Debit", "--on", "2025-03-01"])
        cli.ok(["loan", "add", "Car loan"] + terms + ["--pay-from", "VTB Debit"] + extra + today)
        return cli
    }

    static func object(_ cli: CLI, _ args: [String]) throws -> [String: Any] {
        try #require(try cli.json(args) as? [String: Any])
    }

    /// The schedule `loan schedule` computes without a database for the same terms: the reference
    /// the stored loan must follow.
    static func reference(_ cli: CLI, _ extra: [String] = []) throws -> [[String: Any]] {
        try #require(try object(cli, ["loan", "schedule"] + terms + extra)["rows"] as? [[String: Any]])
    }

    /// One day of a forecast of one account: (inflow, outflow, closing) in minor units.
    static func day(_ cli: CLI, account: String, _ day: String) throws -> (inflow: Int64, outflow: Int64, closing: Int64) {
        let object = try Self.object(cli, ["forecast", "--account", account, "--by", "day", "--until", "2025-12-31"] + today)
        let periods = try #require(object["periods"] as? [[String: Any]])
        let period = try #require(periods.first { $0.string("start") == day })
        return (minorUnits(period.string("inflow")!)!, minorUnits(period.string("outflow")!)!, minorUnits(period.string("closing")!)!)
    }

    @Test func showGivesTheBalanceTodayTheNextPaymentAndItsSplit() throws {
        let cli = try Self.withLoan()
        let rows = try Self.reference(cli)
        let show = try Self.object(cli, ["loan", "show", "Car loan"] + Self.today)
        // Three payments (15 Feb, 15 Mar; 15 Jan is the start) are behind 1 April: two rows.
        let march = try #require(rows.first { $0.string("day") == "2025-03-15" })
        let april = try #require(rows.first { $0.string("day") == "2025-04-15" })
        #expect(show.string("balance") == march.string("balance"))
        #expect(show.string("nextDay") == "2025-04-15")
        #expect(show.string("nextPayment") == april.string("payment"))
        #expect(show.string("nextInterest") == april.string("interest") && show.string("nextPrincipal") == april.string("principal"))
        #expect(show["paymentsLeft"] as? Int == 22)
        let interestLeft = rows.filter { $0.string("day")! >= "2025-04-01" }.compactMap { minorUnits($0.string("interest")!) }.reduce(0, +)
        #expect(minorUnits(show.string("interestLeft")!) == interestLeft)
        #expect(show.string("payoff") == rows.last?.string("day"))
        let list = try cli.rows(["loan", "list"] + Self.today)
        #expect(list.count == 1 && list[0].string("name") == "Car loan" && list[0].string("balance") == march.string("balance"))
    }

    @Test func eachPaymentLeavesThePayingAccountAndRepaysThePrincipal() throws {
        let cli = try Self.withLoan()
        let april = try #require(try Self.reference(cli).first { $0.string("day") == "2025-04-15" })
        let debit = try Self.day(cli, account: "VTB Debit", "2025-04-15")
        #expect(debit.outflow == -minorUnits(april.string("payment")!)!)
        let loan = try Self.day(cli, account: "Car loan", "2025-04-15")
        #expect(loan.inflow == minorUnits(april.string("principal")!)!)
        #expect(loan.closing == -minorUnits(april.string("balance")!)!)
        // Balances today: the loan at its scheduled balance, the debit untouched before the 15th.
        let balances = try Self.object(cli, ["balance"] + Self.today)
        let accounts = try #require(balances["accounts"] as? [[String: Any]])
        let march = try #require(try Self.reference(cli).first { $0.string("day") == "2025-03-15" })
        #expect(accounts.first { $0.string("account") == "Car loan" }?.string("balance") == "-" + march.string("balance")!)
        #expect(accounts.first { $0.string("account") == "VTB Debit" }?.string("balance") == "500000.00")
    }

    /// `balance --on` a later day is posted transactions to that day with the loan as it stands
    /// today: a balance, not a forecast (no payments ahead are counted).
    @Test func aBalanceOnALaterDayIsNoForecast() throws {
        let cli = try Self.withLoan()
        let march = try #require(try Self.reference(cli).first { $0.string("day") == "2025-03-15" })
        let balances = try Self.object(cli, ["balance", "--on", "2025-12-31"] + Self.today)
        let accounts = try #require(balances["accounts"] as? [[String: Any]])
        #expect(accounts.first { $0.string("account") == "Car loan" }?.string("balance") == "-" + march.string("balance")!)
        #expect(accounts.first { $0.string("account") == "VTB Debit" }?.string("balance") == "500000.00")
    }

    @Test func aLoanStartingLaterIsPaidOutOnItsStartDay() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "Savings", "--kind", "debit"])
        cli.ok(
            [
                "loan", "add", "Car loan", "--principal", "900000", "--rate", "14", "--term", "60", "--start", "2025-06-01", "--pay-from",
                "VTB Debit", "--to", "Savings",
            ]
                + Self.today)
        #expect(try Self.day(cli, account: "Savings", "2025-06-01").inflow == 90_000_000)
        #expect(try Self.day(cli, account: "Car loan", "2025-06-01").closing == -90_000_000)
        #expect(try Self.day(cli, account: "Car loan", "2025-05-31").closing == 0)
        #expect(try Self.day(cli, account: "VTB Debit", "2025-07-01").outflow < 0)
    }

    @Test func aDryRunPrintsTheNewScheduleAndSavesNothing() throws {
        let cli = try Self.withLoan()
        let before = cli.state()
        let dry = try Self.object(
            cli, ["loan", "prepay", "Car loan", "300000", "--on", "2025-06-15", "--reduce", "payment", "--dry-run"] + Self.today)
        #expect(cli.state() == before)
        let plain = try Self.object(cli, ["loan", "schedule"] + Self.terms)
        let prepaid = try Self.object(cli, ["loan", "schedule"] + Self.terms + ["--prepay", "300000@2025-06-15", "--reduce", "payment"])
        let saved = minorUnits(plain.string("totalInterest")!)! - minorUnits(prepaid.string("totalInterest")!)!
        #expect(minorUnits(dry.string("interestSaved")!) == saved && saved > 0)
        #expect(dry["saved"] as? Bool == false)
        let rows = try #require(dry["rows"] as? [[String: Any]])
        #expect(rows.first?.string("day") == "2025-06-15")
        // Saved for real: show and the forecast follow the new schedule.
        let out = cli.ok(["loan", "prepay", "Car loan", "300000", "--on", "2025-06-15", "--reduce", "payment"] + Self.today)
        #expect(out.contains("Prepaid 'Car loan'"))
        let july = try #require((prepaid["rows"] as? [[String: Any]])?.first { $0.string("day") == "2025-07-15" })
        #expect(try Self.day(cli, account: "VTB Debit", "2025-07-15").outflow == -minorUnits(july.string("payment")!)!)
        #expect(try Self.day(cli, account: "VTB Debit", "2025-06-15").outflow < -30_000_000)
    }

    @Test func aRecurringExtraPaymentShortensTheLoanAndEndsInAFullPayoff() throws {
        let cli = try Self.withLoan()
        cli.ok(["loan", "prepay", "Car loan", "100000", "--on", "2025-05-20", "--every", "monthly on 20"] + Self.today)
        let show = try Self.object(cli, ["loan", "show", "Car loan", "--schedule"] + Self.today)
        let rows = try #require(show["rows"] as? [[String: Any]])
        let extras = rows.filter { $0.string("kind") == "prepayment" }
        #expect(extras.count >= 5)
        #expect(extras.dropLast().allSatisfy { $0.string("principal") == "100000.00" })
        // The last one clears what is left: the balance closes at 0 and nothing follows it.
        #expect(rows.last?.string("balance") == "0.00")
        #expect(show.string("payoff")! < "2026-12-01")
        let exported = cli.ok(["export"])
        #expect(exported.contains("every: monthly on 20"))
    }

    @Test func aLoanInALedgerFileIsForecastWithFAndSurvivesARoundTrip() throws {
        let cli = try Self.withLoan(["--collateral", "VTB Debit"])
        cli.ok(["loan", "prepay", "Car loan", "50000", "--on", "2025-08-01"] + Self.today)
        let file = cli.path("ledger.yaml")
        try cli.ok(["export"]).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            try Self.object(cli, ["-f", file, "loan", "show", "Car loan"] + Self.today).string("balance")
                == (try Self.object(cli, ["loan", "show", "Car loan"] + Self.today)).string("balance"))
        let copy = cli.path("copy.sqlite")
        #expect(cli.ok(["--db", copy, "import", file]).contains("; 1 loan added, none already present"))
        #expect(cli.ok(["--db", copy, "import", file]).contains("nothing new"))
        #expect(cli.ok(["--db", copy, "export"]) == cli.ok(["export"]))
    }

    @Test func removingALoanKeepsItsAccount() throws {
        let cli = try Self.withLoan()
        #expect(cli.ok(["loan", "rm", "Car loan"]).contains("its account stays"))
        #expect(try cli.rows(["loan", "list"]).isEmpty)
        #expect(try cli.rows(["account", "list"]).contains { $0.string("name") == "Car loan" })
        cli.fails(["loan", "show", "Car loan"], mentioning: ["loan 'Car loan'", "no loan terms"])
    }

    @Test func everyBadInputIsRefusedWithTheDatabaseUnchanged() throws {
        let cli = try Self.withLoan()
        let add = ["loan", "add", "Second loan"]
        func terms(_ key: String, _ value: String) -> [String] {
            var t = Self.terms
            t[t.firstIndex(of: key)! + 1] = value
            return t
        }
        cli.fails(add + terms("--rate", "-1") + ["--pay-from", "VTB Debit"], mentioning: ["--rate '-1'", "negative"])
        cli.fails(add + terms("--rate", "1000.5") + ["--pay-from", "VTB Debit"], mentioning: ["--rate '1000.5'", "1000 %"])
        cli.fails(add + terms("--term", "0") + ["--pay-from", "VTB Debit"], mentioning: ["--term '0'"])
        cli.fails(add + terms("--principal", "0") + ["--pay-from", "VTB Debit"], mentioning: ["--principal '0'"])
        cli.fails(add + Self.terms + ["--pay-from", "Nowhere"], mentioning: ["account 'Nowhere'", "not found"])
        cli.fails(add + Self.terms + ["--pay-from", "Salary"], mentioning: ["--pay-from 'Salary'", "an income account"])
        cli.fails(add + Self.terms + ["--pay-from", "VTB Debit", "--category", "Salary"], mentioning: ["--category 'Salary'", "expense"])
        cli.fails(
            ["loan", "add", "VTB Debit"] + Self.terms + ["--pay-from", "VTB Debit"], mentioning: ["NAME 'VTB Debit'", "a debit account"])
        // Issue 17, case 11: the loan's name is NAME, not an --account option.
        let again = cli.fails(
            ["loan", "add", "Car loan"] + Self.terms + ["--pay-from", "VTB Debit"], mentioning: ["NAME 'Car loan'", "already has loan terms"])
        #expect(!again.stderr.contains("--account"), "\(again.stderr)")
        cli.fails(add + Self.terms + ["--pay-from", "VTB Debit", "--first-payment", "2025-01-10"], mentioning: ["--first-payment '2025-01-10'"])
        let prepay = ["loan", "prepay", "Car loan"]
        cli.fails(prepay + ["2000000", "--on", "2025-06-15"] + Self.today, mentioning: ["AMOUNT", "not less than", "--full"])
        cli.fails(prepay + ["1000", "--on", "2024-12-01"] + Self.today, mentioning: ["--on '2024-12-01'", "starts on 2025-01-15"])
        cli.fails(prepay + ["1000", "--on", "2027-06-01"] + Self.today, mentioning: ["--on '2027-06-01'", "paid off on 2027-01-15"])
        cli.fails(prepay + ["0", "--on", "2025-06-15"] + Self.today, mentioning: ["AMOUNT '0'", "more than 0"])
        cli.fails(prepay + ["--on", "2025-06-15"] + Self.today, mentioning: ["AMOUNT", "full to pay the loan off"])
        cli.fails(prepay + ["100", "--full", "--on", "2025-06-15"] + Self.today, mentioning: ["AMOUNT '100'", "not both"])
        cli.fails(prepay + ["100", "--on", "2025-06-15", "--until", "2025-09-01"] + Self.today, mentioning: ["--until", "every"])
        cli.fails(prepay + ["100", "--on", "2025-06-15", "--every", "fortnightly-ish"] + Self.today, mentioning: ["--every 'fortnightly-ish'"])
        cli.fails(["loan", "prepay", "VTB Debit", "100", "--on", "2025-06-15"], mentioning: ["loan 'VTB Debit'", "no loan terms"])
        cli.fails(["loan", "show", "Nope"], mentioning: ["loan 'Nope'", "not found"])
        cli.fails(["loan", "rm", "Nope"], mentioning: ["loan 'Nope'", "not found"])
        // A full payoff is the way out of "too large".
        #expect(cli.ok(prepay + ["--full", "--on", "2025-06-20"] + Self.today).contains("paid off 2025-06-20"))
    }

    @Test func aBadLoanInALedgerFileNamesTheFieldAndItsLine() throws {
        let cli = try CLI()
        let file = cli.path("bad.yaml")
        let text = """
            capital: 1
            currency: RUB
            accounts:
              - name: Debit
                kind: debit
            loans:
              - account: Car loan
                payFrom: Debit
                principal: 100000
                rate: 12
                term: 0
                start: 2025-01-15

            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        cli.fails(["-f", file, "loan", "list"], mentioning: ["bad.yaml:7: loans[0].term '0'"])
        try text.replacingOccurrences(of: "term: 0", with: "term: 12\n    prepayments:\n      - date: 2026-05-01\n        amount: 10")
            .write(toFile: file, atomically: true, encoding: .utf8)
        cli.fails(["-f", file, "loan", "list"], mentioning: ["loans[0].prepayments[0].date '2026-05-01'", "paid off on 2026-01-15"])
    }
}
