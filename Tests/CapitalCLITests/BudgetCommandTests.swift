import Foundation
import Testing

/// Budgets end to end: `budget set|list|status|rm`, what they add to the forecast (the current
/// period's rest spread to its end, later periods in full, schedules counted first) and their
/// bad inputs. Amounts are worked in kopecks by integer arithmetic in the tests.
@Suite("CLI: budgets")
struct BudgetCommandTests {
    /// A Monday: 10 of March's 31 days gone, today included.
    static let today = ["--today", "2025-03-10"]

    static func byCategory(_ rows: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(rows.map { ($0.string("category") ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// What a period ends at when spending goes on at the pace so far: rounded half up.
    static func projected(spent: Int64, days: Int64, gone: Int64) -> Int64 { (spent * days + gone / 2) / gone }

    // MARK: - set, list, rm

    @Test func setListReplaceAndRemove() throws {
        let cli = try CLITemplate.tracking.copy()
        #expect(
            cli.ok(["budget", "set", "Groceries", "3000", "--from", "2025-03"] + Self.today)
                == "Set a budget for Groceries: 3 000.00 a month from 2025-03-01.\n")
        // 1 April 2025 is a Tuesday: its week starts on Monday 31 March.
        #expect(
            cli.ok(["budget", "set", "Entertainment", "700", "--weekly", "--from", "2025-04"] + Self.today).contains("700.00 a week from 2025-03-31"))
        #expect(
            cli.ok(["budget", "set", "Gifts", "12000", "--yearly", "--from", "2025-06"] + Self.today).contains("12 000.00 a year from 2025-01-01"))
        // Without --from: the current period.
        #expect(cli.ok(["budget", "set", "Eating out", "5000", "--pay-from", "Cash"] + Self.today).contains("5 000.00 a month from 2025-03-01"))

        var budgets = Self.byCategory(try cli.rows(["budget", "list"]))
        #expect(budgets.count == 4)
        #expect(budgets["Groceries"]?.string("amount") == "3000.00" && budgets["Groceries"]?.string("period") == "monthly")
        #expect(budgets["Groceries"]?.string("from") == "2025-03-01" && budgets["Groceries"]?["payFrom"] is NSNull)
        #expect(budgets["Entertainment"]?.string("period") == "weekly" && budgets["Entertainment"]?.string("from") == "2025-03-31")
        #expect(budgets["Gifts"]?.string("period") == "yearly" && budgets["Gifts"]?.string("from") == "2025-01-01")
        #expect(budgets["Eating out"]?.string("payFrom") == "Cash")

        #expect(
            cli.ok(["budget", "set", "Groceries", "4000", "--weekly"] + Self.today).hasPrefix("Replaced the budget for Groceries: 4 000.00 a week"))
        budgets = Self.byCategory(try cli.rows(["budget", "list"]))
        #expect(budgets.count == 4 && budgets["Groceries"]?.string("amount") == "4000.00" && budgets["Groceries"]?.string("period") == "weekly")
        #expect(budgets["Groceries"]?.string("from") == "2025-03-10")

        #expect(cli.ok(["budget", "rm", "Gifts"]).contains("Removed the budget for Gifts"))
        #expect(Set(try cli.rows(["budget", "list"]).compactMap { $0.string("category") }) == ["Groceries", "Entertainment", "Eating out"])
        cli.refuses(["budget", "rm", "Gifts"], mentioning: ["budget of 'Gifts'", "not found"])
    }

    // MARK: - status

    @Test func statusShowsLimitSpentLeftAndTheProjectionAtThePaceSoFar() throws {
        let cli = try CLITemplate.tracking.copy()
        for (category, amount, flags) in [
            ("Groceries", "3000", ["--from", "2025-01"]), ("Eating out", "5000", []), ("Clothing", "1000", []),
            ("Entertainment", "700", ["--weekly"]),
            ("Gifts", "12000", ["--yearly", "--from", "2025-01"]), ("Health", "2000", []),
        ] {
            cli.ok(["budget", "set", category, amount] + flags + Self.today)
        }
        for (amount, category, day) in [
            ("1000", "Groceries", "2025-03-02"), ("500", "Groceries", "2025-03-09"), ("200", "Groceries", "2025-03-11"),
            ("300", "Groceries", "2025-02-28"),
            ("1000", "Eating out", "2025-03-05"), ("1200", "Clothing", "2025-03-01"), ("100", "Entertainment", "2025-03-10"),
            ("50", "Entertainment", "2025-03-09"), ("2000", "Gifts", "2025-02-14"),
        ] {
            cli.ok(["spend", amount, category, "--on", day])
        }
        let status = Self.byCategory(try cli.rows(["budget", "status"] + Self.today))
        // (limit, spent, period days, days gone, from, to): only spending in the period up to today counts.
        let expected: [String: (Int64, Int64, Int64, Int64, String, String)] = [
            "Groceries": (300_000, 150_000, 31, 10, "2025-03-01", "2025-03-31"),
            "Eating out": (500_000, 100_000, 31, 10, "2025-03-01", "2025-03-31"),
            "Clothing": (100_000, 120_000, 31, 10, "2025-03-01", "2025-03-31"),
            "Entertainment": (70_000, 10_000, 7, 1, "2025-03-10", "2025-03-16"),
            "Gifts": (1_200_000, 200_000, 365, 31 + 28 + 10, "2025-01-01", "2025-12-31"),
            "Health": (200_000, 0, 31, 10, "2025-03-01", "2025-03-31"),
        ]
        #expect(status.count == expected.count)
        for (category, (limit, spent, days, gone, from, to)) in expected {
            let row = try #require(status[category], "\(category)")
            let projected = Self.projected(spent: spent, days: days, gone: gone)
            #expect(row.string("from") == from && row.string("to") == to, "\(category)")
            #expect(row.string("limit").flatMap(minorUnits) == limit, "\(category)")
            #expect(row.string("spent").flatMap(minorUnits) == spent, "\(category)")
            #expect(row.string("left").flatMap(minorUnits) == limit - spent, "\(category)")
            #expect(row.string("projected").flatMap(minorUnits) == projected, "\(category)")
            let state = spent > limit ? "over" : projected > limit ? "over at this pace" : "under"
            #expect(row.string("state") == state, "\(category)")
        }
        // Worked by hand for two: 1 500.00 × 31 / 10 = 4 650.00, over at this pace; 100.00 × 7 / 1 = 700.00, just under.
        #expect(status["Groceries"]?.string("projected") == "4650.00" && status["Groceries"]?.string("state") == "over at this pace")
        #expect(status["Entertainment"]?.string("projected") == "700.00" && status["Entertainment"]?.string("state") == "under")
        #expect(status["Clothing"]?.string("state") == "over")

        // A past month: the whole of it, so the projection is what was spent; budgets that start later show nothing.
        let february = Self.byCategory(try cli.rows(["budget", "status", "--month", "2025-02"] + Self.today))
        #expect(february["Eating out"] == nil && february["Clothing"] == nil)
        let groceries = try #require(february["Groceries"])
        #expect(groceries.string("from") == "2025-02-01" && groceries.string("to") == "2025-02-28")
        #expect(groceries.string("spent") == "300.00" && groceries.string("left") == "2700.00" && groceries.string("projected") == "300.00")
        // A month ahead: nothing spent yet.
        let april = try #require(Self.byCategory(try cli.rows(["budget", "status", "--month", "2025-04"] + Self.today))["Groceries"])
        #expect(
            april.string("from") == "2025-04-01" && april.string("spent") == "0.00" && april.string("left") == "3000.00"
                && april.string("state") == "under")
        // The current month named explicitly is today's view.
        let march = Self.byCategory(try cli.rows(["budget", "status", "--month", "2025-03"] + Self.today))
        #expect(march["Groceries"]?.string("spent") == "1500.00" && march["Groceries"]?.string("projected") == "4650.00")

        let csv = cli.ok(["budget", "status", "--format", "csv"] + Self.today).split(separator: "\n")
        #expect(csv.first == "category,from,to,limit,spent,left,projected,state")
        #expect(csv.contains("Groceries,2025-03-01,2025-03-31,3000.00,1500.00,1500.00,4650.00,over at this pace"))
    }

    // MARK: - In the forecast

    /// 10 April, 1 000.00 of 3 000.00 spent: 2 000.00 over the 21 days to 30 April, the first
    /// `200 000 mod 21` of them a kopeck more; May and June 3 000.00 each.
    @Test func theCurrentRestIsSpreadToThePeriodsEndAndLaterPeriodsCountInFull() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-10"]
        cli.ok(["budget", "set", "Groceries", "3000"] + today)
        cli.ok(["spend", "1000", "Groceries", "--on", "2025-04-05"])
        let days = try cli.periods("VTB Debit", until: "2025-06-30", today: today)
        let rest: Int64 = 300_000 - 100_000
        let april = (10...30).map { String(format: "2025-04-%02d", $0) }
        for (index, day) in april.enumerated() {
            let share = rest / Int64(april.count) + (Int64(index) < rest % Int64(april.count) ? 1 : 0)
            #expect(days[day]?.outflow == -share, "\(day)")
        }
        #expect(april.reduce(Int64(0)) { $0 + days[$1]!.outflow } == -rest)
        #expect(days["2025-05-01"]?.outflow == -(300_000 / 31 + 1))  // 300 000 = 31 × 9 677 + 13
        let months = try cli.periods("VTB Debit", by: "month", until: "2025-06-30", today: today)
        #expect(months["2025-04-10"]?.outflow == -rest)
        #expect(months["2025-05-01"]?.outflow == -300_000 && months["2025-06-01"]?.outflow == -300_000)
    }

    @Test func aBudgetStartingLaterCountsFromItsFirstPeriodOnly() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-10"]
        cli.ok(["budget", "set", "Groceries", "3000", "--from", "2025-06"] + today)
        let months = try cli.periods("VTB Debit", by: "month", until: "2025-07-31", today: today)
        #expect(months["2025-04-10"]?.outflow == 0 && months["2025-05-01"]?.outflow == 0)
        #expect(months["2025-06-01"]?.outflow == -300_000 && months["2025-07-01"]?.outflow == -300_000)
        #expect(try cli.rows(["budget", "status"] + today).isEmpty)
    }

    /// A schedule of 1 000.00 a month in a category budgeted 3 000.00 a month: the forecast spends
    /// 3 000.00 a month there, not 4 000.00; a schedule of 5 000.00 makes it 5 000.00.
    @Test(arguments: [(Int64(100_000), Int64(300_000)), (300_000, 300_000), (500_000, 500_000), (0, 300_000)])
    func aScheduleAndABudgetNeverCountTheSameMoneyTwice(scheduled: Int64, spentPerMonth: Int64) throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-10"]
        cli.ok(["budget", "set", "Groceries", "3000"] + today)
        if scheduled > 0 {
            let amount = String(scheduled / 100)
            cli.ok(
                [
                    "schedule", "add", "Market", "--rule", "monthly on 15", "--start", "2025-04-15", "--amount", amount, "--from", "VTB Debit",
                    "--to", "Groceries",
                ] + today)
        }
        let months = try cli.periods("VTB Debit", by: "month", until: "2025-07-31", today: today)
        for month in ["2025-04-10", "2025-05-01", "2025-06-01", "2025-07-01"] {
            #expect(months[month]?.outflow == -spentPerMonth, "\(month)")
        }
    }

    /// Spending already recorded for a later day counts first, like a schedule: 500.00 on 20
    /// April leaves the budget 2 500.00 of April; 4 000.00 on 20 May is over the limit, so May
    /// spends 4 000.00, not 7 000.00.
    @Test func spendingRecordedForLaterDaysCountsFirst() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-10"]
        cli.ok(["budget", "set", "Groceries", "3000"] + today)
        cli.ok(["spend", "500", "Groceries", "--on", "2025-04-20"])
        cli.ok(["spend", "4000", "Groceries", "--on", "2025-05-20"])
        let months = try cli.periods("VTB Debit", by: "month", until: "2025-06-30", today: today)
        #expect(months["2025-04-10"]?.outflow == -300_000)
        #expect(months["2025-05-01"]?.outflow == -400_000)
        #expect(months["2025-06-01"]?.outflow == -300_000)
        // Status counts spending up to today only.
        #expect(try cli.rows(["budget", "status"] + today).first?.string("spent") == "0.00")
    }

    /// Posting today's occurrence of a schedule moves it from the schedule to what was spent:
    /// the forecast stays 3 000.00 for April from today.
    @Test func postingTodaysOccurrenceDoesNotChangeTheForecast() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-15"]
        cli.ok(["budget", "set", "Groceries", "3000", "--from", "2025-04"] + today)
        cli.ok([
            "schedule", "add", "Market", "--rule", "monthly on 15", "--start", "2025-04-15", "--amount", "1000", "--from", "VTB Debit", "--to",
            "Groceries", "--today", "2025-04-01",
        ])
        let before = try cli.periods("VTB Debit", by: "month", until: "2025-05-31", today: today)
        #expect(before["2025-04-15"]?.outflow == -300_000 && before["2025-05-01"]?.outflow == -300_000)
        cli.ok(["post"] + today)
        #expect(try cli.rows(["tx", "list"]).contains { $0.string("date") == "2025-04-15" && $0.string("amount") == "1000.00" })
        let after = try cli.periods("VTB Debit", by: "month", until: "2025-05-31", today: today)
        #expect(after["2025-04-15"]?.outflow == -300_000 && after["2025-05-01"]?.outflow == -300_000)
        #expect(after["2025-05-31"]?.closing == before["2025-05-31"]?.closing)
    }

    /// An occurrence awaiting confirmation since 15 April counts today in the forecast; the budget
    /// tops up to 3 000.00, not 3 000.00 on top of it.
    @Test func anOccurrenceAwaitingConfirmationCountsOnceInTheBudget() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-20"]
        cli.ok(["budget", "set", "Groceries", "3000", "--from", "2025-04"] + today)
        cli.ok(
            [
                "schedule", "add", "Market", "--rule", "monthly on 15", "--start", "2025-04-15", "--amount", "1000", "--from", "VTB Debit", "--to",
                "Groceries",
                "--approval", "confirm", "--today", "2025-04-01",
            ])
        var months = try cli.periods("VTB Debit", by: "month", until: "2025-05-31", today: today)
        #expect(months["2025-04-20"]?.outflow == -300_000 && months["2025-05-01"]?.outflow == -300_000)
        // Approved, it was spent on the 15th: 2 000.00 is left for the rest of April.
        cli.ok(["post", "--approve", "Market@2025-04-15"] + today)
        months = try cli.periods("VTB Debit", by: "month", until: "2025-05-31", today: today)
        #expect(months["2025-04-20"]?.outflow == -200_000 && months["2025-05-01"]?.outflow == -300_000)
    }

    /// A weekly budget renews on Mondays: spending of the week before does not count, today's does.
    @Test func aWeeklyBudgetRenewsOnMondays() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2025-04-16"]  // a Wednesday
        cli.ok(["budget", "set", "Entertainment", "700", "--weekly", "--from", "2025-04"] + today)
        cli.ok(["spend", "300", "Entertainment", "--on", "2025-04-13"])  // the Sunday before
        cli.ok(["spend", "100", "Entertainment", "--on", "2025-04-14"])
        cli.ok(["spend", "50", "Entertainment", "--on", "2025-04-16"])
        let weeks = try cli.periods("VTB Debit", by: "week", until: "2025-05-04", today: today)
        // This week from today: the 50.00 spent today and the rest of 700.00 − 150.00 over Wednesday to Sunday.
        #expect(weeks["2025-04-16"]?.outflow == -(70_000 - 10_000))
        for monday in ["2025-04-21", "2025-04-28"] { #expect(weeks[monday]?.outflow == -70_000, "\(monday)") }
        let days = try cli.periods("VTB Debit", until: "2025-04-30", today: today)
        #expect(days["2025-04-16"]?.outflow == -(5_000 + 55_000 / 5) && days["2025-04-20"]?.outflow == -(55_000 / 5))
        #expect(days["2025-04-21"]?.outflow == -10_000)
        let status = try #require(try cli.rows(["budget", "status"] + today).first)
        #expect(status.string("from") == "2025-04-14" && status.string("to") == "2025-04-20" && status.string("spent") == "150.00")
        #expect(status.string("projected").flatMap(minorUnits) == Self.projected(spent: 15_000, days: 7, gone: 3))
    }

    /// A yearly budget paid from cash: 3 650.00 a year is 10.00 a day, from cash, not the default account.
    @Test func aYearlyBudgetSpendsFromItsOwnAccount() throws {
        let cli = try CLITemplate.tracking.copy()
        let today = ["--today", "2026-01-01"]
        cli.ok(["budget", "set", "Gifts", "3650", "--yearly", "--pay-from", "Cash"] + today)
        let cash = try cli.periods("Cash", by: "month", until: "2026-12-31", today: today)
        #expect(
            cash["2026-01-01"]?.outflow == -31 * 1_000 && cash["2026-02-01"]?.outflow == -28 * 1_000 && cash["2026-12-01"]?.outflow == -31 * 1_000)
        let vtb = try cli.periods("VTB Debit", by: "month", until: "2026-12-31", today: today)
        #expect(vtb.values.allSatisfy { $0.outflow == 0 })
    }

    // MARK: - Bad inputs

    @Test func everyBadInputIsRefusedWithTheLedgerUnchanged() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["budget", "set", "Groceries", "3000"] + Self.today)
        cli.refuses(["budget", "set", "Nope", "100"] + Self.today, mentioning: ["category 'Nope': not found", "capital category list"])
        cli.refuses(["budget", "set", "Salary", "100"] + Self.today, mentioning: ["CATEGORY 'Salary'", "income", "expense category"])
        cli.refuses(["budget", "set", "VTB Debit", "100"] + Self.today, mentioning: ["CATEGORY 'VTB Debit'", "debit", "expense category"])
        cli.refuses(["budget", "set", "Capital", "100"] + Self.today, mentioning: ["CATEGORY 'Capital'", "expense category"])
        cli.refuses(["budget", "set", "Groceries", "0"] + Self.today, mentioning: ["AMOUNT '0'", "more than 0"])
        cli.refuses(["budget", "set", "Groceries", "1.234"] + Self.today, mentioning: ["AMOUNT", "1.234"])
        cli.refuses(["budget", "set", "Groceries", "100", "--from", "2025-13"] + Self.today, mentioning: ["--from", "2025-13"])
        cli.refuses(["budget", "set", "Groceries", "100", "--weekly", "--yearly"] + Self.today, mentioning: ["--weekly", "--yearly"])
        cli.refuses(["budget", "set", "Groceries", "100", "--pay-from", "Groceries"] + Self.today, mentioning: ["Groceries", "expense"])
        cli.refuses(["budget", "status", "--month", "2025-13"] + Self.today, mentioning: ["--month", "2025-13"])
        cli.refuses(["budget", "status", "--month", "2025-00"] + Self.today, mentioning: ["--month", "2025-00"])
        cli.refuses(["budget", "status", "--month", "2025-3"] + Self.today, mentioning: ["--month '2025-3'", "YYYY-MM"])
        cli.refuses(["budget", "status", "--month", "2025-03-01"] + Self.today, mentioning: ["--month '2025-03-01'", "YYYY-MM"])
        cli.refuses(["budget", "rm", "Health"], mentioning: ["budget of 'Health'", "not found"])
        #expect(try cli.rows(["budget", "list"]).map { $0.string("amount") } == ["3000.00"])
    }
}
