import Foundation
import Testing

/// Credit cards, deposits and revalued assets end to end: `card`, `deposit`, `account --value-change`,
/// their flows in the forecast against figures worked by hand, ledger files, and their bad inputs.
@Suite("CLI: cards, deposits, assets")
struct CardDepositTests {
    static let today = ["--today", "2025-04-01"]

    static func object(_ cli: CLI, _ args: [String]) throws -> [String: Any] {
        try #require(try cli.json(args) as? [String: Any])
    }

    /// A day of an account's daily forecast: (inflow, outflow, closing) in kopecks.
    static func day(_ cli: CLI, _ account: String, _ day: String, today: [String] = today) throws -> (inflow: Int64, outflow: Int64, closing: Int64) {
        let object = try Self.object(cli, ["forecast", "--account", account, "--by", "day", "--until", "2026-03-31"] + today)
        let period = try #require((object["periods"] as? [[String: Any]])?.first { $0.string("start") == day })
        return (minorUnits(period.string("inflow")!)!, minorUnits(period.string("outflow")!)!, minorUnits(period.string("closing")!)!)
    }

    static func withMoney() throws -> CLI {
        let cli = try CLI.initialized()
        cli.ok(["earn", "3000000", "Salary", "--to", "VTB Debit", "--on", "2025-01-05"])
        return cli
    }

    /// A month of card purchases, one statement, a full payback on the due day from the debit account.
    @Test func aFullPaybackPaysTheStatementOnItsDueDay() throws {
        let cli = try Self.withMoney()
        cli.ok(["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + Self.today)
        cli.ok(["spend", "3000", "Groceries", "--from", "Tinkoff", "--on", "2025-03-26"])
        cli.ok(["spend", "4500", "Groceries", "--from", "Tinkoff", "--on", "2025-04-10"])
        cli.ok(["spend", "1000", "Groceries", "--from", "Tinkoff", "--on", "2025-04-28"])  // the next statement's
        // Statement 25 April: 3 000 + 4 500 = 7 500 owed, due 20 days later, on 15 May.
        #expect(try Self.day(cli, "VTB Debit", "2025-05-15").outflow == -750_000)
        #expect(try Self.day(cli, "Tinkoff", "2025-05-15").closing == -100_000)
        // Statement 25 May: the 1 000, due 14 June.
        #expect(try Self.day(cli, "VTB Debit", "2025-06-14").outflow == -100_000)
        let show = try Self.object(cli, ["card", "show", "Tinkoff"] + Self.today)
        #expect(show.string("debt") == "3000.00" && show.string("available") == "97000.00")
        #expect(show.string("nextStatement") == "2025-04-25" && show.string("nextDueDay") == "2025-05-15")
        // Level 3 counts the credit left: 3 000 000 on the debit account + 97 000 on the card.
        #expect(cli.ok(["can-spend", "--level", "3"] + Self.today).contains("3 097 000.00"))
        let list = try cli.rows(["card", "list"] + Self.today)
        #expect(list.count == 1 && list[0].string("debt") == "3000.00")
    }

    /// Ranged spending on the card: each case pays back its own statements, so the card's debt
    /// does not drift in any case, and the pessimistic payback is the high end.
    @Test func paybacksFollowTheCaseOfTheSpending() throws {
        let cli = try Self.withMoney()
        cli.ok(["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + Self.today)
        cli.ok([
            "schedule", "add", "Groceries", "--rule", "monthly on 10", "--start", "2025-04-10", "--amount", "3000..5000", "--from", "Tinkoff", "--to",
            "Groceries",
        ])
        // Statements on the 25th hold one shopping each; due 20 days later (15 May, 14 June, ...).
        #expect(try Self.day(cli, "VTB Debit", "2025-05-15").outflow == -500_000)
        #expect(try Self.day(cli, "VTB Debit", "2025-06-14").outflow == -500_000)
        // After each due day only the shopping of the 10th (next statement's) is owed: no drift.
        for day in ["2025-05-15", "2025-06-14", "2025-09-14", "2026-01-14"] {
            #expect(try Self.day(cli, "Tinkoff", day).closing == -500_000, "on \(day)")
        }
        let expected = try Self.object(
            cli, ["forecast", "--account", "VTB Debit", "--by", "day", "--until", "2025-06-30", "--expected"] + Self.today)
        let may15 = try #require((expected["periods"] as? [[String: Any]])?.first { $0.string("start") == "2025-05-15" })
        #expect(may15.string("outflow") == "-4000.00")
    }

    /// A statement whose payback was not recorded by its due day is overdue: `card show` says so
    /// and the forecast pays it today, as it does overdue bills.
    @Test func anUnpaidStatementIsOverdueAndPaidToday() throws {
        let cli = try Self.withMoney()
        cli.ok(["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + Self.today)
        cli.ok(["spend", "3000", "Groceries", "--from", "Tinkoff", "--on", "2025-03-26"])
        cli.ok(["spend", "500", "Groceries", "--from", "Tinkoff", "--on", "2025-05-01"])
        let late = ["--today", "2025-05-20"]
        let show = try Self.object(cli, ["card", "show", "Tinkoff"] + late)
        #expect(show.string("overdue") == "3000.00" && show.string("overdueSince") == "2025-05-15")
        #expect(try Self.day(cli, "VTB Debit", "2025-05-20", today: late).outflow == -300_000)
        // The next statement (25 May) holds only the 500 spent since: nothing is paid twice.
        #expect(try Self.day(cli, "VTB Debit", "2025-06-14", today: late).outflow == -50_000)
        // Recorded, it is no longer overdue.
        cli.ok(["transfer", "3000", "--from", "VTB Debit", "--to", "Tinkoff", "--on", "2025-05-15"])
        #expect(try Self.object(cli, ["card", "show", "Tinkoff"] + late).string("overdue") == "0.00")
    }

    /// A minimum payback of 10 % (at least 1 000) at 36.5 % a year: 0.1 % a day on what is carried.
    @Test func aMinimumPaybackCarriesTheRestWithInterest() throws {
        let cli = try Self.withMoney()
        cli.ok(
            [
                "card", "add", "Alfa", "--limit", "100000", "--statement-day", "25", "--due-day", "15", "--payback", "minimum", "--minimum", "10",
                "--minimum-floor", "1000", "--rate", "36.5", "--pay-from", "VTB Debit",
            ] + Self.today)
        cli.ok(["spend", "20000", "Clothing", "--from", "Alfa", "--on", "2025-03-28"])
        // 25 Apr: 20 000.00 owed; 15 May: 10 % = 2 000.00 paid, 18 000.00 carried.
        #expect(try Self.day(cli, "VTB Debit", "2025-05-15").outflow == -200_000)
        // 25 May: 18 000.00 × 0.365 × 10 days / 365 = 180.00 interest; the statement is 18 180.00.
        #expect(try Self.day(cli, "Alfa", "2025-05-25").outflow == -18_000)
        #expect(try Self.day(cli, "Alfa", "2025-05-25").closing == -1_818_000)
        // 15 Jun: 10 % of 18 180.00 = 1 818.00; 16 362.00 carried; 25 Jun: 16 362 × 0.001 × 10 = 163.62.
        #expect(try Self.day(cli, "VTB Debit", "2025-06-15").outflow == -181_800)
        #expect(try Self.day(cli, "Alfa", "2025-06-25").outflow == -16_362)
        // Between the statement and its due day, show says what is due.
        let show = try Self.object(cli, ["card", "show", "Alfa", "--today", "2025-04-26"])
        #expect(show.string("statementDebt") == "20000.00" && show.string("amountDue") == "2000.00" && show.string("dueDay") == "2025-05-15")
        #expect(show.string("nextStatement") == "2025-05-25" && show.string("nextInterest") == "180.00")
        // Days pass without the payback recorded: the past is what was posted, so on 26 May the
        // 25 May statement is the whole 20 000.00 (no interest was charged in the ledger).
        // The 25 April statement's minimum, missed on 15 May, stays overdue; the 25 May statement
        // still asks its own minimum.
        let later = try Self.object(cli, ["card", "show", "Alfa", "--today", "2025-05-26"])
        #expect(later.string("statementDebt") == "20000.00" && later.string("amountDue") == "2000.00")
        #expect(later.string("overdue") == "2000.00", "\(later)")
    }

    /// 100 000.00 at 12 % capitalised monthly from 10 January, maturing 10 April (actual/actual):
    /// 10 Feb: 10 000 000 × 0.12 × 31 / 365 = 101 917.8 → 1 019.18
    /// 10 Mar: 10 101 918 × 0.12 × 28 / 365 = 92 992.8 → 929.93
    /// 10 Apr: 10 194 911 × 0.12 × 31 / 365 = 103 904.1 → 1 039.04, then 102 988.15 paid out.
    @Test func aDepositCapitalisesMonthlyAndPaysOutAtMaturity() throws {
        let cli = try Self.withMoney()
        cli.ok(["deposit", "add", "Sber deposit", "--rate", "12", "--opened", "2025-01-10", "--maturity", "2025-04-10", "--payout", "VTB Debit"])
        cli.ok(["transfer", "100000", "--from", "VTB Debit", "--to", "Sber deposit", "--on", "2025-01-10"])
        let show = try Self.object(cli, ["deposit", "show", "Sber deposit"] + Self.today)
        #expect(show.string("balance") == "101949.11")
        #expect(show.string("nextInterestDay") == "2025-04-10" && show.string("nextInterest") == "1039.04")
        #expect(show.string("payout") == "102988.15" && show["level"] as? Int == 5)
        #expect(try Self.day(cli, "VTB Debit", "2025-04-10").inflow == 10_298_815)
        #expect(try Self.day(cli, "Sber deposit", "2025-04-10").closing == 0)
        // Level 5 counts the deposit, level 4 does not.
        #expect(cli.ok(["can-spend", "--level", "4"] + Self.today).contains("2 900 000.00"))
        #expect(try cli.rows(["deposit", "list"] + Self.today).first?.string("balance") == "101949.11")
    }

    /// `card rm` and `deposit rm` remove the terms, as `loan rm` does: the forecast no longer pays
    /// the card back or pays the deposit out, the account and its postings stay, and new terms
    /// can then be added (which `card add` on an account with terms asks for).
    @Test func cardAndDepositTermsAreRemovedAndTheAccountsStay() throws {
        let cli = try Self.withMoney()
        let card = ["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"]
        cli.ok(card + Self.today)
        cli.ok(["spend", "3000", "Groceries", "--from", "Tinkoff", "--on", "2025-03-26"])
        cli.ok(["deposit", "add", "Sber deposit", "--rate", "12", "--opened", "2025-01-10", "--maturity", "2025-04-10", "--payout", "VTB Debit"])
        cli.ok(["transfer", "100000", "--from", "VTB Debit", "--to", "Sber deposit", "--on", "2025-01-10"])
        #expect(try Self.day(cli, "VTB Debit", "2025-05-15").outflow == -300_000)
        cli.fails(card + Self.today, mentioning: ["'Tinkoff'", "it already has card terms; remove them first"])
        #expect(cli.ok(["card", "rm", "Tinkoff"]) == "Removed card 'Tinkoff'; its account stays.\n")
        let removed = try Self.object(cli, ["deposit", "rm", "Sber deposit", "--format", "json"])
        #expect(removed.string("name") == "Sber deposit" && removed.string("id") != nil)
        #expect(try cli.rows(["card", "list"] + Self.today).isEmpty && cli.rows(["deposit", "list"] + Self.today).isEmpty)
        // No payback and no payout in the forecast; the accounts and their postings stay.
        #expect(try Self.day(cli, "VTB Debit", "2025-05-15").outflow == 0)
        #expect(try Self.day(cli, "VTB Debit", "2025-04-10").inflow == 0)
        let accounts = try cli.rows(["account", "list"]).compactMap { $0.string("name") }
        #expect(accounts.contains("Tinkoff") && accounts.contains("Sber deposit"))
        #expect(cli.ok(["check"]).contains(": ok"))
        // Terms again on the same account; an unknown or already removed one is refused, nothing changed.
        cli.ok(card + Self.today)
        cli.fails(["deposit", "rm", "Sber deposit"], mentioning: ["deposit 'Sber deposit'", "not found"])
        cli.fails(["card", "rm", "Nowhere"], mentioning: ["card 'Nowhere'", "not found"])
    }

    /// A car bought for 2 000 000 losing 15 % a year: 25 000.00 a month, 1 700 000.00 a year on.
    @Test func aDepreciatingCarLosesItsRateEachYear() throws {
        let cli = try Self.withMoney()
        cli.ok(["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "-15", "--value-since", "2025-01-31"])
        cli.ok(["transfer", "2000000", "--from", "VTB Debit", "--to", "Car", "--on", "2025-01-31"])
        #expect(try Self.day(cli, "Car", "2025-04-30").outflow == -2_500_000)
        #expect(try Self.day(cli, "Car", "2026-01-31").closing == 170_000_000)
        // Today's value already has February and March off.
        let balances = try Self.object(cli, ["balance"] + Self.today)
        #expect((balances["accounts"] as? [[String: Any]])?.first { $0.string("account") == "Car" }?.string("balance") == "1950000.00")
        cli.ok(["account", "edit", "Car", "--value-change", ""])
        #expect(try Self.day(cli, "Car", "2025-04-30").outflow == 0)
    }

    /// Issue 51, item 11: a car bought on 20 June 2026 for 1 500 000.00 losing 15 % a year, entered
    /// on 1 October, loses value from 20 June: 103 days' worth (63 493.15) on the day it is entered,
    /// the rest of its first year in parts on the 20th; a year after it was bought it is worth
    /// 1 275 000.00 (it stayed at 1 500 000.00 until July 2027 before).
    @Test func aCarEnteredAfterItsValuationDayLosesValueFromThatDay() throws {
        let cli = try CLI.initialized()
        let today = ["--today", "2026-10-01"]
        cli.ok(["earn", "3000000", "Salary", "--to", "VTB Debit", "--on", "2026-09-01"] + today)
        // Bad input first: a valuation day that is not a date is malformed, and nothing is written.
        let refused = cli.fails(
            ["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "-15", "--value-since", "2026-06-31"] + today,
            mentioning: ["--value-since", "2026-06-31"])
        #expect(refused.status == 64)
        cli.ok(["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "-15", "--value-since", "2026-06-20"] + today)
        cli.ok(["transfer", "1500000", "--from", "VTB Debit", "--to", "Car"] + today)
        let forecast = try Self.object(cli, ["forecast", "--account", "Car", "--by", "day", "--until", "2027-07-31"] + today)
        let periods = try #require(forecast["periods"] as? [[String: Any]])
        func closing(_ day: String) -> Int64? { periods.first { $0.string("start") == day }?.string("closing").flatMap(minorUnits) }
        #expect(closing("2026-10-01") == 143_650_685)
        #expect(closing("2026-10-20") == 141_856_165)  // less the first part, 1 794 520
        #expect(closing("2027-06-01") == 129_294_525)
        #expect(closing("2027-06-20") == 127_500_000)
    }

    /// The car and its loan in one group: the forecast shows the collateral's value against the
    /// debt, month by month; `loan show` gives today's figures.
    @Test func collateralAgainstDebtShowsInAGroupAndInLoanShow() throws {
        let cli = try Self.withMoney()
        cli.ok(["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "-15", "--value-since", "2025-01-31"])
        cli.ok(["transfer", "2000000", "--from", "VTB Debit", "--to", "Car", "--on", "2025-01-31"])
        let terms = ["--principal", "1500000", "--rate", "12", "--term", "36", "--start", "2025-01-15"]
        cli.ok(["loan", "add", "Car loan"] + terms + ["--pay-from", "VTB Debit", "--collateral", "Car"] + Self.today)
        cli.ok(["group", "add", "Car and loan", "--type", "cash-flow", "--account", "Car", "--account", "Car loan"])
        let rows = try #require(try Self.object(cli, ["loan", "schedule"] + terms)["rows"] as? [[String: Any]])
        let april = try #require(rows.first { $0.string("day") == "2025-04-15" })
        let forecast = try Self.object(cli, ["forecast", "--group", "Car and loan", "--until", "2025-06-30"] + Self.today)
        let period = try #require((forecast["periods"] as? [[String: Any]])?.first)
        // 30 April: the car is worth 2 000 000 − 3 × 25 000; the loan owes April's balance.
        #expect(minorUnits(period.string("closing")!) == 192_500_000 - minorUnits(april.string("balance")!)!)
        let march = try #require(rows.first { $0.string("day") == "2025-03-15" })
        let show = try Self.object(cli, ["loan", "show", "Car loan"] + Self.today)
        #expect(show.string("collateral") == "Car" && show.string("collateralValue") == "1950000.00")
        #expect(minorUnits(show.string("equity")!) == 195_000_000 - minorUnits(march.string("balance")!)!)
    }

    @Test func cardsDepositsAndAssetsSurviveALedgerFileRoundTrip() throws {
        let cli = try Self.withMoney()
        cli.ok(
            [
                "card", "add", "Alfa", "--limit", "100000", "--statement-day", "31", "--due-day", "15", "--payback", "fixed", "--fixed", "5000",
                "--rate", "29.9",
                "--grace", "lose", "--pay-from", "VTB Debit",
            ])
        cli.ok(["deposit", "add", "Savings", "--rate", "8", "--capitalisation", "quarterly", "--opened", "2025-01-10"])
        cli.ok(["account", "add", "Flat", "--kind", "fixed-asset", "--value-change", "3.5", "--value-since", "2025-01-01"])
        let file = cli.path("ledger.yaml")
        let exported = cli.ok(["export"])
        try exported.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(exported.contains("grace: lose") && exported.contains("capitalisation: quarterly") && exported.contains("valueChange: 3.5"))
        let copy = cli.path("copy.sqlite")
        #expect(cli.ok(["--db", copy, "import", file]).contains("1 card and 1 deposit added"))
        #expect(cli.ok(["--db", copy, "export"]) == exported)
        let alfa = try Self.object(cli, ["-f", file, "card", "show", "Alfa"] + Self.today)
        // JSON carries the policy as data; the table says it in words.
        #expect(alfa.string("payback") == "fixed" && alfa.string("paybackAmount") == "5000.00" && alfa["paybackPercent"] is NSNull)
        #expect(cli.ok(["-f", file, "card", "show", "Alfa"] + Self.today).contains("fixed 5 000.00"))
    }

    @Test func everyBadInputIsRefusedWithTheDatabaseUnchanged() throws {
        let cli = try Self.withMoney()
        let card = ["card", "add", "New card", "--limit", "100000", "--pay-from", "VTB Debit"]
        cli.fails(card + ["--statement-day", "0", "--due-after", "20"], mentioning: ["--statement-day '0'", "1 to 31"])
        cli.fails(card + ["--statement-day", "32", "--due-after", "20"], mentioning: ["--statement-day '32'"])
        cli.fails(card + ["--statement-day", "5", "--due-day", "5"], mentioning: ["--due-day '5'", "differ from the statement day"])
        cli.fails(card + ["--statement-day", "5", "--due-after", "28"], mentioning: ["--due-after '28'"])
        cli.fails(card + ["--statement-day", "5"], mentioning: ["--due-day", "--due-after"])
        cli.fails(
            card + ["--statement-day", "5", "--due-after", "20", "--payback", "minimum", "--minimum", "101"],
            mentioning: ["--minimum '101'", "100 %"])
        cli.fails(card + ["--statement-day", "5", "--due-after", "20", "--payback", "minimum"], mentioning: ["--minimum", "percentage"])
        cli.fails(card + ["--statement-day", "5", "--due-after", "20", "--payback", "fixed", "--fixed", "0"], mentioning: ["--fixed"])
        cli.fails(card + ["--statement-day", "5", "--due-after", "20", "--payback", "sometimes"], mentioning: ["--payback 'sometimes'"])
        // Another payback's terms were passed over; refused.
        cli.fails(
            card + ["--statement-day", "5", "--due-after", "20", "--fixed", "100"],
            mentioning: ["--fixed '100'", "goes with a fixed payback (--payback fixed), not 'full'"])
        cli.fails(
            card + ["--statement-day", "5", "--due-after", "20", "--payback", "fixed", "--fixed", "100", "--minimum", "5"],
            mentioning: ["--minimum '5'", "goes with a minimum payback (--payback minimum), not 'fixed'"])
        cli.fails(card + ["--statement-day", "5", "--due-after", "20", "--minimum-floor", "1000"], mentioning: ["--minimum-floor '1000'"])
        cli.fails(
            ["card", "add", "X", "--limit", "0", "--statement-day", "5", "--due-after", "20", "--pay-from", "VTB Debit"], mentioning: ["--limit"])
        cli.fails(
            ["card", "add", "X", "--limit", "1000", "--statement-day", "5", "--due-after", "20"], mentioning: ["--pay-from", "paybacks come from"])
        cli.fails(
            ["card", "add", "VTB Debit", "--limit", "1000", "--statement-day", "5", "--due-after", "20", "--pay-from", "VTB Debit"],
            mentioning: ["NAME 'VTB Debit'", "credit-card"])
        cli.fails(["card", "show", "VTB Debit"], mentioning: ["card 'VTB Debit'", "no card terms"])
        let deposit = ["deposit", "add", "D", "--rate", "10", "--opened", "2025-01-10"]
        cli.fails(deposit + ["--maturity", "2025-01-10"], mentioning: ["--maturity '2025-01-10'", "after the opening day"])
        cli.fails(deposit + ["--maturity", "2024-12-01"], mentioning: ["--maturity '2024-12-01'"])
        cli.fails(deposit + ["--capitalisation", "at-maturity"], mentioning: ["--capitalisation 'at-maturity'", "maturity"])
        cli.fails(["deposit", "add", "D", "--rate", "1000.1", "--opened", "2025-01-10"], mentioning: ["--rate '1000.1'"])
        cli.fails(deposit + ["--payout", "Salary"], mentioning: ["--payout 'Salary'", "an income account"])
        cli.fails(["deposit", "show", "VTB Debit"], mentioning: ["deposit 'VTB Debit'", "no deposit terms"])
        cli.fails(["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "-101"], mentioning: ["--value-change '-101'", "-100 %"])
        cli.fails(["account", "add", "Car", "--kind", "fixed-asset", "--value-change", "abc"], mentioning: ["--value-change 'abc'"])
        cli.fails(["account", "add", "Car", "--kind", "debit", "--value-change", "-15"], mentioning: ["--value-change", "fixed-asset"])
        cli.fails(["account", "edit", "VTB Debit", "--value-since", "2025-01-01"], mentioning: ["--value-since", "--value-change"])
    }
}
