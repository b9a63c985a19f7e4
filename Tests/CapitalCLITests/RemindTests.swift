import Foundation
import Testing

/// `remind`: bills and fines, occurrences awaiting confirmation, card paybacks and loan payments
/// due in the next days, with amounts; exit 1 when something is overdue, else 0.
@Suite("CLI: remind")
struct RemindTests {
    static let today = ["--today", "2025-05-10"]

    /// Today 10 May. Due by the 17th: the rest of a bill (12th), an Internet payment awaiting
    /// confirmation (13th), the card's payback of the 25 April statement (15th), a loan payment
    /// (16th) and a fine (17th). Not: a paid bill, an auto schedule, a bill due on the 18th.
    static func household() throws -> CLI {
        let cli = try CLITemplate.tracking.copy()
        let added = ["--today", "2025-04-01"]
        cli.ok(["due", "add", "bill", "--total", "5400", "--paid", "2000", "--due", "2025-05-12", "--reason", "Electricity"] + added)
        cli.ok(["due", "add", "fine", "--total", "500", "--due", "2025-05-17", "--reason", "Parking"] + added)
        cli.ok(["due", "add", "bill", "--total", "800", "--due", "2025-05-18", "--reason", "Water"] + added)
        cli.ok(["due", "add", "bill", "--total", "300", "--paid", "300", "--due", "2025-05-11", "--reason", "Gas"] + added)
        cli.ok(
            [
                "schedule", "add", "Internet", "--rule", "monthly on 13", "--start", "2025-05-13", "--amount", "700", "--from", "VTB Debit", "--to",
                "Utilities",
                "--approval", "confirm",
            ] + added)
        cli.ok(
            [
                "schedule", "add", "Rent", "--rule", "monthly on 14", "--start", "2025-05-14", "--amount", "20000", "--from", "VTB Debit", "--to",
                "Housing",
            ] + added)
        cli.ok(["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + added)
        cli.ok(["spend", "3000", "Groceries", "--from", "Tinkoff", "--on", "2025-04-20"])
        // 12 000.00 at 0 % over 12 months: 1 000.00 on the 16th of each month from February.
        cli.ok(
            ["loan", "add", "Zero loan", "--principal", "12000", "--rate", "0", "--term", "12", "--start", "2025-01-16", "--pay-from", "VTB Debit"]
                + added)
        // April's payment, recorded by hand, settles it: only May's is still to pay.
        let paid = cli.run(["transfer", "1000", "--from", "VTB Debit", "--to", "Zero loan", "--on", "2025-04-16", "--today", "2025-04-16"])
        #expect(paid.status == 0 && paid.stderr == "capital: note: settles Zero loan payment of 2025-04-16 (Zero loan@2025-04-16)\n", "\(paid)")
        return cli
    }

    static func parse(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func listsWhatIsDueInTheNextDaysWithAmounts() throws {
        let cli = try Self.household()
        let rows = try cli.rows(["remind"] + Self.today)
        #expect(rows.map { $0.string("day") } == ["2025-05-12", "2025-05-13", "2025-05-15", "2025-05-16", "2025-05-17"])
        #expect(rows.map { $0.string("kind") } == ["bill", "confirm", "card", "loan", "fine"])
        #expect(rows.map { $0.string("amount") } == ["3400.00", "700.00", "3000.00", "1000.00", "500.00"])
        #expect(rows.map { $0["daysLeft"] as? Int } == [2, 3, 5, 6, 7] && rows.allSatisfy { $0["when"] == nil }, "data, not words")
        #expect(cli.run(["remind"] + Self.today).stdout.contains("in 2 days"), "tables say it in words")
        #expect(rows.allSatisfy { $0["overdue"] as? Bool == false })
        #expect(rows[0].string("what")?.contains("Electricity") == true && rows[1].string("what") == "Internet")
        #expect(rows[2].string("what")?.contains("Tinkoff") == true && rows[3].string("what") == "Zero loan")

        // One more day reaches the water bill; none leaves out what is due today only.
        let eight = try cli.rows(["remind", "--days", "8"] + Self.today)
        #expect(eight.count == 6 && eight.last?.string("day") == "2025-05-18" && eight.last?.string("amount") == "800.00")
        let none = cli.run(["remind", "--days", "0", "--format", "json"] + Self.today)
        #expect(none.status == 0)
        #expect(try Self.parse(none.stdout).isEmpty)
        let two = try cli.rows(["remind", "--days", "2"] + Self.today)
        #expect(two.map { $0.string("day") } == ["2025-05-12"])

        let table = cli.run(["remind"] + Self.today)
        #expect(table.status == 0 && table.stderr.isEmpty)
        #expect(
            table.stdout.contains("3 400.00") && table.stdout.contains("in 2 days") && !table.stdout.contains("Water")
                && !table.stdout.contains("Rent"))
    }

    @Test func exitsWithOneWhileSomethingIsOverdue() throws {
        let cli = try Self.household()
        let late = ["--today", "2025-05-20"]
        let result = cli.run(["remind", "--format", "json"] + late)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.isEmpty)
        let rows = try Self.parse(result.stdout)
        // Overdue first, the oldest first: the bill of the 12th (8 days), the confirmation of the
        // 13th, the card payback of the 15th, the loan payment of the 16th (`post` below pays
        // it); then the bills of the 17th and 18th.
        let overdue = rows.filter { $0["overdue"] as? Bool == true }
        #expect(overdue.map { $0.string("day") } == ["2025-05-12", "2025-05-13", "2025-05-15", "2025-05-16", "2025-05-17", "2025-05-18"])
        #expect(overdue.first?["daysLeft"] as? Int == -8)
        #expect(rows.prefix(overdue.count).allSatisfy { $0["overdue"] as? Bool == true })

        // Settle each in turn: the exit code stays 2 until the last one is. The card's payback is
        // paid by hand; `post` then posts the approved confirmation and the loan payment.
        let settle: [[String]] = [
            ["due", "pay", "1", "3400"], ["due", "pay", "2", "500"], ["due", "edit", "3", "--paid", "800"],
            ["transfer", "3000", "--from", "VTB Debit", "--to", "Tinkoff", "--on", "2025-05-15"],
        ]
        for command in settle {
            #expect(cli.run(["remind"] + late).status == 2, "before \(command.joined(separator: " "))")
            cli.ok(command + late)
        }
        #expect(cli.run(["remind"] + late).status == 2)
        let posted = try #require(try cli.json(["post", "--approve", "Internet@2025-05-13"] + late) as? [String: Any])
        let kinds = (posted["posted"] as? [[String: Any]])?.compactMap { $0.string("kind") } ?? []
        #expect(kinds.contains("loan") && kinds.contains("schedule") && !kinds.contains("card"), "the card was paid by hand: \(posted)")
        let settled = cli.run(["remind", "--format", "json"] + late)
        #expect(settled.status == 0, "\(settled)")
        #expect(try Self.parse(settled.stdout).allSatisfy { $0["overdue"] as? Bool == false })
    }

    @Test func aBillDueTodayIsNotOverdue() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "100", "--due", "2025-05-10", "--reason", "Phone"] + Self.today)
        let result = cli.run(["remind"] + Self.today)
        #expect(result.status == 0 && result.stdout.contains("today"))
        #expect(cli.run(["remind", "--today", "2025-05-11"]).status == 2)
    }

    @Test func nothingDueSaysSoAndExitsWithZero() throws {
        let cli = try CLITemplate.tracking.copy()
        #expect(cli.ok(["remind"] + Self.today) == "Nothing due in the next 7 days.\n")
        #expect(try cli.rows(["remind", "--days", "30"] + Self.today).isEmpty)
    }

    /// A salary waiting for confirmation is not something to pay; a payback whose statement has
    /// not closed yet is (at what the forecast expects); `--days 0` speaks of today.
    @Test func onlyOutflowsAndStatementsStillOpenCount() throws {
        let cli = try Self.household()
        cli.ok(
            [
                "schedule", "add", "Bonus", "--rule", "monthly on 12", "--start", "2025-05-12", "--amount", "9000", "--from", "Salary", "--to",
                "VTB Debit",
                "--approval", "confirm", "--today", "2025-04-01",
            ])
        let rows = try cli.rows(["remind"] + Self.today)
        #expect(!rows.contains { $0.string("what") == "Bonus" })
        // On 10 May with 40 days ahead: the 25 May statement (2 000.00 spent by card on 2 May) is due on 14 June.
        cli.ok(["spend", "2000", "Groceries", "--from", "Tinkoff", "--on", "2025-05-02"])
        let ahead = try cli.rows(["remind", "--days", "40"] + Self.today).filter { $0.string("kind") == "card" }
        #expect(ahead.map { $0.string("day") } == ["2025-05-15", "2025-06-14"])
        #expect(ahead.map { $0.string("amount") } == ["3000.00", "2000.00"])
        #expect(cli.ok(["remind", "--days", "0", "--today", "2025-05-10"]) == "Nothing due today.\n")
    }

    @Test func badDaysAreRefused() throws {
        let cli = try Self.household()
        cli.refuses(["remind", "--days", "-1"] + Self.today, mentioning: ["--days '-1'", "0 or more"])
        cli.refuses(["remind", "--days=-1"] + Self.today, mentioning: ["--days '-1'", "0 or more"])
        cli.refuses(["remind", "--days", "3661"] + Self.today, mentioning: ["--days '3661'", "3660"])
        cli.refuses(["remind", "--days", "week"] + Self.today, mentioning: ["--days", "week"])
    }
}

/// Exit statuses tell a finding from an error: 2 when `remind` finds something overdue or `check`
/// finds a problem, 1 when either cannot read the database.
@Suite("CLI: exit statuses")
struct ExitStatusTests {
    @Test func aFindingIsTwoAnErrorOne() throws {
        let cli = try CLI.initialized()
        cli.ok(["due", "add", "bill", "--total", "5", "--due", "2025-05-01", "--reason", "Water", "--today", "2025-04-01"])
        #expect(cli.run(["remind", "--today", "2025-05-02"]).status == 2)
        #expect(cli.run(["remind", "--today", "2025-04-01"]).status == 0)
        let missing = cli.run(["--db", cli.path("missing.sqlite"), "remind"])
        #expect(missing.status == 1 && missing.stderr.contains("no database there"), "\(missing)")
        #expect(cli.run(["check"]).status == 0)
        #expect(cli.run(["--db", cli.path("missing.sqlite"), "check"]).status == 1)
        #expect(cli.run(["remind", "--days", "-1"]).status == 64)
    }
}
