import CapitalCore
import Foundation
import Testing

/// Cards and loans telling the truth when the days asked about are not today (issue 50, item 5).
@Suite("CLI: loans and cards seen from other days")
struct PlanTruthTests {
    static let today = ["--today", "2026-12-01"]

    /// `loan show --on` a later day: the payments due until then are made as the forecast makes
    /// them, so the balance and the next payment are the schedule's after that day (the rows of
    /// `loan schedule` for the same terms, read independently).
    @Test(arguments: ["2026-12-14", "2026-12-15", "2027-03-01", "2027-06-14"])
    func aLoanSeenFromALaterDayShowsThePaymentAfterIt(on day: String) throws {
        let cli = try CLI()
        cli.ok(["init"] + Self.today)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + Self.today)
        cli.ok(["tx", "add", "--on", "2026-01-01", "--posting", "Bank=500000", "--posting", "Capital"] + Self.today)
        let terms = ["--principal", "120000", "--rate", "12", "--term", "12", "--start", "2026-06-15"]
        cli.ok(["loan", "add", "Car"] + terms + ["--pay-from", "Bank"] + Self.today)
        let schedule = try #require(try cli.json(["loan", "schedule"] + terms) as? [String: Any])
        let rows = try #require(schedule["rows"] as? [[String: Any]])
        let after = try #require(rows.first { ($0.string("day") ?? "") > day })
        let before = rows.last { ($0.string("day") ?? "") <= day }
        let show = try #require(try cli.json(["loan", "show", "Car", "--on", day] + Self.today) as? [String: Any])
        #expect(show.string("nextDay") == after.string("day"), "\(show)")
        #expect(show.string("nextPayment") == after.string("payment") && show.string("nextInterest") == after.string("interest"))
        #expect(show.string("balance") == before?.string("balance"), "\(show)")
        #expect(show["paymentsLeft"] as? Int == rows.filter { ($0.string("day") ?? "") > day }.count)
        // Today it is as it was: the payment of 12-15 is next.
        let now = try #require(try cli.json(["loan", "show", "Car"] + Self.today) as? [String: Any])
        #expect(now.string("nextDay") == "2026-12-15" && now.string("balance") == "71735.06")
    }

    /// A budget spent on the card is paid back with the rest: `expected list` and `remind` list
    /// the payback the forecast makes (25 000 of the month's 31 000 by the 12-25 statement), not
    /// only what the card owes today.
    @Test func paybacksOfWhatABudgetSpendsOnTheCardAreListed() throws {
        let cli = try CLI()
        cli.ok(["init"] + Self.today)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + Self.today)
        cli.ok(["tx", "add", "--on", "2026-11-01", "--posting", "Bank=500000", "--posting", "Capital"] + Self.today)
        cli.ok(["card", "add", "Card", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank"] + Self.today)
        cli.ok(["spend", "5000", "Other", "--from", "Card", "--on", "2026-11-20"] + Self.today)
        cli.ok(["budget", "set", "Groceries", "31000", "--pay-from", "Card"] + Self.today)
        // What the forecast pays back, day by day, read from the card's own forecast.
        let forecast = try #require(
            try cli.json(["forecast", "--account", "Card", "--by", "day", "--until", "2027-01-31", "--expected"] + Self.today) as? [String: Any])
        let paid = try #require(forecast["periods"] as? [[String: Any]]).compactMap { period -> (String, String)? in
            guard let inflow = period.string("inflow"), inflow != "0.00" else { return nil }
            return (period.string("start")!, inflow)
        }
        #expect(paid.map(\.0) == ["2026-12-15", "2027-01-14"] && paid.map(\.1) == ["5000.00", "25000.00"])
        let expected = try cli.rows(["expected", "list", "--until", "2027-01-31"] + Self.today).filter { $0.string("kind") == "card" }
        #expect(expected.map { $0.string("date") } == paid.map(\.0), "\(expected)")
        #expect(expected.map { $0.string("amount") } == paid.map(\.1), "\(expected)")
        let reminders = try cli.rows(["remind", "--days", "50"] + Self.today).filter { $0.string("kind") == "card" }
        #expect(reminders.map { $0.string("amount") } == paid.map(\.1), "\(reminders)")
    }

    /// A statement paid in part stays overdue after the next statement falls (until that one's
    /// due day): `card show`, `expected list --overdue`, `remind`, the forecast (which pays it
    /// today) and `post` all keep it; the next statement asks nothing more for it.
    @Test(arguments: ["2026-11-20", "2026-12-01", "2026-12-16"])
    func aStatementPaidInPartStaysOverdue(on day: String) throws {
        let cli = try CLI()
        let first = ["--today", "2026-10-01"]
        cli.ok(["init"] + first)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + first)
        cli.ok(["tx", "add", "--on", "2026-10-01", "--posting", "Bank=500000", "--posting", "Capital"] + first)
        cli.ok(["card", "add", "Card", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank"] + first)
        cli.ok(["spend", "50000", "Other", "--from", "Card", "--on", "2026-10-20"] + first)
        // Of the 10-25 statement's 50 000, due 11-14, 20 000 paid.
        cli.ok(["transfer", "20000", "--from", "Bank", "--to", "Card", "--on", "2026-11-10", "--today", "2026-11-10"])
        let today = ["--today", day]
        let show = try #require(try cli.json(["card", "show", "Card"] + today) as? [String: Any])
        #expect(show.string("overdue") == "30000.00", "\(show)")
        let overdue = try cli.rows(["expected", "list", "--overdue"] + today).filter { $0.string("kind") == "card" }
        #expect(overdue.map { $0.string("amount") } == ["30000.00"], "\(overdue)")
        // remind exits 2 when something is overdue.
        let remind = cli.run(["remind", "--days", "10", "--format", "json"] + today)
        #expect(remind.status == 2, "\(remind)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(remind.stdout.utf8)) as? [[String: Any]])
        let reminders = listed.filter { $0.string("kind") == "card" }
        #expect(reminders.map { $0.string("amount") } == ["30000.00"] && reminders.first?["overdue"] as? Bool == true, "\(reminders)")
        // The forecast pays it today, and only once.
        let forecast = try #require(
            try cli.json(["forecast", "--account", "Bank", "--by", "day", "--until", "2027-01-31"] + today) as? [String: Any])
        let out = try #require(forecast["periods"] as? [[String: Any]]).filter { $0.string("outflow") != "0.00" }
        #expect(out.map { $0.string("start") } == [day] && out.map { $0.string("outflow") } == ["-30000.00"], "\(out)")
        #expect(cli.ok(["post", "--dry-run"] + today).contains("30 000.00"))
    }
}
