import Foundation
import Testing

/// `schedule`, `rule expand`, `calendar` and `post` through the real binary. Every command is
/// given `--today`, so nothing here depends on the clock.
@Suite("CLI: schedules, rules, calendars and posting")
struct ScheduleCommandTests {
    // MARK: Helpers

    /// An initialized RUB ledger with `VTB Debit` as the default account.
    static func ledger() throws -> CLI { try CLITemplate.initialized.copy() }

    /// `schedule add NAME --rule RULE --start START` plus `extra`, with `--today`.
    static func add(
        _ cli: CLI, _ name: String, _ rule: String, start: String, today: String, _ extra: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        cli.ok(["schedule", "add", name, "--rule", rule, "--start", start, "--today", today] + extra, sourceLocation: sourceLocation)
    }

    /// `--amount AMOUNT --from VTB Debit --to TO`.
    static func moving(_ amount: String, to: String, from: String = "VTB Debit") -> [String] {
        ["--amount", amount, "--from", from, "--to", to]
    }

    /// `schedule show NAME --next N` as JSON.
    static func show(_ cli: CLI, _ name: String, next: Int = 10, today: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String:
        Any]
    {
        try #require(
            try cli.json(["schedule", "show", name, "--next", String(next), "--today", today], sourceLocation: sourceLocation) as? [String: Any],
            sourceLocation: sourceLocation)
    }

    static func occurrences(_ shown: [String: Any]) -> [[String: Any]] { shown["occurrences"] as? [[String: Any]] ?? [] }
    static func dates(_ shown: [String: Any]) -> [String] { occurrences(shown).compactMap { $0.string("date") } }
    static func amounts(_ shown: [String: Any]) -> [String] { occurrences(shown).compactMap { $0.string("amount") } }

    /// `capital post ARGS` as JSON: what was posted and what awaits approval.
    static func post(_ cli: CLI, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        posted: [[String: Any]], pending: [[String: Any]]
    ) {
        let object = try #require(try cli.json(["post"] + args, sourceLocation: sourceLocation) as? [String: Any], sourceLocation: sourceLocation)
        return (object["posted"] as? [[String: Any]] ?? [], object["pending"] as? [[String: Any]] ?? [])
    }

    /// `schedule:date:amount` of each item, as posted or pending.
    static func summary(_ items: [[String: Any]]) -> [String] {
        items.map { "\($0.string("name") ?? "?") \($0.string("date") ?? "?") \($0.string("amount") ?? "?")" }
    }

    /// `payee date amount` of every transaction, in the order `tx list` gives.
    static func transactions(_ cli: CLI, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try cli.rows(["tx", "list"], sourceLocation: sourceLocation).map {
            "\($0.string("payee") ?? "?") \($0.string("date") ?? "?") \($0.string("amount") ?? "?")"
        }.sorted()
    }

    static func list(_ cli: CLI, today: String) throws -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: try cli.rows(["schedule", "list", "--today", today]).map { ($0.string("name") ?? "?", $0) })
    }

    // MARK: schedule add

    @Test func addWithAnAmountFromAndToShowsItsTemplateAndNextOccurrences() throws {
        let cli = try Self.ledger()
        let out = cli.ok(
            ["schedule", "add", "Rent", "--rule", "monthly on 5", "--start", "2025-03-05", "--today", "2025-03-01"]
                + Self.moving("50000", to: "Housing"))
        #expect(out.hasPrefix("Added schedule 'Rent' ("))
        #expect(out.hasSuffix("): monthly on 5, from 2025-03-05.\n"))
        let shown = try Self.show(cli, "Rent", next: 3, today: "2025-03-01")
        #expect(shown.string("rule") == "monthly on 5")
        #expect(shown.string("rrule") == "FREQ=MONTHLY;BYMONTHDAY=5")
        #expect(shown.string("calendar") == "none")
        #expect(shown.string("adjust") == "none")
        #expect(shown.string("start") == "2025-03-05")
        #expect(shown.string("amount") == "50000.00")
        #expect(shown.string("approval") == "auto")
        #expect(Self.postings(shown) == ["Housing 50000.00", "VTB Debit -50000.00"])
        #expect(Self.dates(shown) == ["2025-03-05", "2025-04-05", "2025-05-05"])
        #expect(Self.amounts(shown) == ["50000.00", "50000.00", "50000.00"])
    }

    /// `schedule show`'s postings (objects) as `ACCOUNT AMOUNT`.
    static func postings(_ shown: [String: Any]) -> [String]? {
        (shown["postings"] as? [[String: Any]])?.map { "\($0.string("account") ?? "?") \($0.string("amount") ?? "?")" }
    }

    @Test func aRangeUsesItsExpectedValueOrElseItsMidpoint() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Lunch", "every working day", start: "2025-10-30", today: "2025-10-30",
            ["--calendar", "RU", "--expected", "400"] + Self.moving("250..500", to: "Eating out"))
        Self.add(cli, "Fuel", "monthly on 9", start: "2025-11-09", today: "2025-10-30", Self.moving("3000..5000", to: "Transport"))
        let lunch = try Self.show(cli, "Lunch", next: 4, today: "2025-10-30")
        #expect(lunch.string("amount") == "250.00..500.00")
        #expect(lunch.string("expected") == "400.00")
        // The working Saturday 1 November is a working day on RU; 3–4 November are days off.
        #expect(Self.dates(lunch) == ["2025-10-30", "2025-10-31", "2025-11-01", "2025-11-05"])
        #expect(Self.amounts(lunch) == ["400.00", "400.00", "400.00", "400.00"])
        #expect(Self.occurrences(lunch).map { "\($0.string("low") ?? "") \($0.string("high") ?? "")" } == Array(repeating: "250.00 500.00", count: 4))
        let fuel = try Self.show(cli, "Fuel", next: 1, today: "2025-10-30")
        #expect(fuel.string("expected") == "4000.00")
        #expect(Self.amounts(fuel) == ["4000.00"])
    }

    @Test func aSplitTemplatePostsItsPostingsAndShowsItsWholeSize() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Mortgage", "monthly on 5", start: "2025-03-05", today: "2025-03-01",
            ["--posting", "Loan interest=60000", "--posting", "Housing=10000", "--posting", "VTB Debit"])
        let shown = try Self.show(cli, "Mortgage", next: 2, today: "2025-03-01")
        #expect(Self.postings(shown) == ["Loan interest 60000.00", "Housing 10000.00", "VTB Debit -70000.00"])
        #expect(shown.string("amount") == "70000.00")
        #expect(Self.amounts(shown) == ["70000.00", "70000.00"])
        #expect(Self.occurrences(shown).map { "\($0.string("low") ?? "") \($0.string("high") ?? "")" } == ["70000.00 70000.00", "70000.00 70000.00"])
        _ = try Self.post(cli, ["--today", "2025-03-05"])
        let rows = try cli.rows(["tx", "list"])
        #expect(rows.count == 1)
        #expect(rows.first?.string("amount") == "70000.00")
        #expect(rows.first?["to"] as? [String] == ["Loan interest", "Housing"])
    }

    @Test(arguments: [(["--count", "3"], "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=5"), (["--end", "2025-05-05"], "monthly on 5")])
    func countOrEndDayBoundsTheSchedule(extra: [String], rule: String) throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", extra + Self.moving("500", to: "Housing"))
        let shown = try Self.show(cli, "Rent", next: 10, today: "2025-03-01")
        #expect(Self.dates(shown) == ["2025-03-05", "2025-04-05", "2025-05-05"])
        #expect(shown.string("rule") == rule)
    }

    @Test func calendarAndAdjustmentMoveASalaryOffTheHolidays() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Salary", "monthly on 10", start: "2025-04-10", today: "2025-04-01",
            ["--calendar", "RU", "--adjust", "preceding"] + Self.moving("180000", to: "VTB Debit", from: "Salary"))
        let shown = try Self.show(cli, "Salary", next: 3, today: "2025-04-01")
        #expect(shown.string("calendar") == "RU")
        #expect(shown.string("adjust") == "preceding")
        #expect(Self.dates(shown) == ["2025-04-10", "2025-05-07", "2025-06-10"])
        #expect(Self.occurrences(shown).map { $0.string("ruleDay") ?? "" } == ["2025-04-10", "2025-05-10", "2025-06-10"])
        #expect(Self.occurrences(shown).map { $0.string("note") ?? "" } == ["", "adjusted", ""])
    }

    @Test func aScheduleWithoutACalendarTakesTheLedgersDefault() throws {
        let cli = try Self.ledger()
        cli.ok(["calendar", "use", "RU"])
        Self.add(cli, "Lunch", "every working day", start: "2025-12-29", today: "2025-12-29", Self.moving("300", to: "Eating out"))
        let shown = try Self.show(cli, "Lunch", next: 3, today: "2025-12-29")
        #expect(shown.string("calendar") == "RU")
        #expect(Self.dates(shown) == ["2025-12-29", "2025-12-30", "2026-01-12"])
    }

    /// Issue 17, case 4: a schedule added before `calendar use RU` stored "none" and kept landing on
    /// holidays; now it follows the ledger's calendar, whichever it is when it is expanded.
    @Test func aScheduleWithoutACalendarFollowsALaterCalendarUse() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Rent", "monthly on 10", start: "2025-04-10", today: "2025-04-01", Self.moving("50000", to: "Housing") + ["--adjust", "preceding"])
        Self.add(
            cli, "Gym", "monthly on 10", start: "2025-04-10", today: "2025-04-01",
            Self.moving("3000", to: "Housing") + ["--adjust", "preceding", "--calendar", "none"])
        // No calendar yet (none: weekends only): Saturday 10 May moves to Friday the 9th.
        #expect(Self.dates(try Self.show(cli, "Rent", next: 2, today: "2025-04-01")) == ["2025-04-10", "2025-05-09"])
        cli.ok(["calendar", "use", "RU"])
        // Russia took 8–11 May 2025 off: preceding moves it to Wednesday the 7th.
        let rent = try Self.show(cli, "Rent", next: 2, today: "2025-04-01")
        #expect(Self.dates(rent) == ["2025-04-10", "2025-05-07"])
        #expect(rent.string("calendar") == "RU" && rent["calendarFromLedger"] as? Bool == true)
        #expect(cli.ok(["schedule", "show", "Rent", "--today", "2025-04-01"]).contains("RU (the ledger's)"))
        // An explicit none stays none.
        let gym = try Self.show(cli, "Gym", next: 2, today: "2025-04-01")
        #expect(Self.dates(gym) == ["2025-04-10", "2025-05-09"])
        #expect(gym.string("calendar") == "none" && gym["calendarFromLedger"] as? Bool == false)
        // `--calendar ledger` goes back to the ledger's; a named one leaves it.
        cli.ok(["schedule", "edit", "Gym", "--calendar", "ledger", "--today", "2025-04-01"])
        #expect(Self.dates(try Self.show(cli, "Gym", next: 2, today: "2025-04-01")) == ["2025-04-10", "2025-05-07"])
        cli.ok(["schedule", "edit", "Rent", "--calendar", "none", "--today", "2025-04-01"])
        #expect(try Self.show(cli, "Rent", next: 2, today: "2025-04-01")["calendarFromLedger"] as? Bool == false)
        cli.fails(["schedule", "edit", "Rent", "--calendar", "Mars", "--today", "2025-04-01"], mentioning: ["--calendar 'Mars'", "unknown"])
    }

    /// In a ledger file a schedule without `calendar:` follows the file's; an export writes
    /// `calendar:` only for a schedule's own, `none` included, and reads back the same.
    @Test func ledgerFilesKeepTheLedgersCalendarAndAScheduleOwnApart() throws {
        let cli = try CLI()
        let file = cli.path("cal.yaml")
        try """
        capital: 1
        currency: RUB
        calendar: RU
        accounts:
          - {name: VTB Debit, kind: debit}
          - {name: Housing, kind: expense}
        schedules:
          - {name: Rent, rule: monthly on 10, adjust: preceding, start: 2025-04-10, amount: 50000, from: VTB Debit, to: Housing}
          - {name: Gym, rule: monthly on 10, adjust: preceding, calendar: none, start: 2025-04-10, amount: 3000, from: VTB Debit, to: Housing}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let read = ["-f", file, "--today", "2025-04-01", "schedule", "show"]
        #expect(Self.dates(try #require(try cli.json(read + ["Rent", "--next", "2"]) as? [String: Any])) == ["2025-04-10", "2025-05-07"])
        #expect(Self.dates(try #require(try cli.json(read + ["Gym", "--next", "2"]) as? [String: Any])) == ["2025-04-10", "2025-05-09"])
        cli.ok(["import", file])
        let exported = cli.ok(["export"])
        #expect(exported.components(separatedBy: "calendar: none").count == 2, "only Gym names its calendar: \(exported)")
        let again = cli.path("again.yaml")
        try exported.write(toFile: again, atomically: true, encoding: .utf8)
        let copy = try CLI()
        copy.ok(["import", again])
        #expect(copy.ok(["export"]) == exported)
    }

    // MARK: schedule list

    @Test func listShowsTheNextDateAndTheMonthlyEquivalent() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-01-05", today: "2025-03-06", Self.moving("50000", to: "Housing"))
        Self.add(cli, "Insurance", "yearly on 04-15", start: "2025-04-15", today: "2025-03-06", Self.moving("40000", to: "Insurance"))
        Self.add(cli, "Gift", "yearly on 12-01", start: "2025-12-01", today: "2025-03-06", Self.moving("1000", to: "Gifts"))
        Self.add(cli, "Gym", "every 2 weeks on fri", start: "2025-03-07", today: "2025-03-06", Self.moving("1000..3000", to: "Health"))
        let rows = try Self.list(cli, today: "2025-03-06")
        #expect(rows["Rent"]?.string("next") == "2025-04-05")
        #expect(rows["Rent"]?.string("monthly") == "50000.00")
        #expect(rows["Rent"]?.string("amount") == "50000.00")
        #expect(rows["Rent"]?["from"] as? [String] == ["VTB Debit"])
        #expect(rows["Rent"]?["to"] as? [String] == ["Housing"])
        #expect(rows["Insurance"]?.string("next") == "2025-04-15")
        #expect(rows["Insurance"]?.string("monthly") == "3333.33")  // 40 000 / 12, rounded down
        #expect(rows["Gift"]?.string("monthly") == "83.33")
        #expect(rows["Gym"]?.string("amount") == "1000.00..3000.00")
        #expect(rows["Gym"]?.string("monthly") == "4333.33")  // 26 fortnights at the 2 000 midpoint, over 12
    }

    @Test func aFixedMonthlyScheduleIsWorthItsAmountEveryMonthWhateverTheDay() throws {
        let cli = try Self.ledger()
        for day in ["1", "15", "31"] {
            Self.add(cli, "On \(day)", "monthly on \(day)", start: "2023-01-01", today: "2023-01-01", Self.moving("1200", to: "Housing"))
        }
        // Leap years included: the coming year is twelve months, not 365 days.
        for today in ["2024-01-02", "2024-02-29", "2025-01-31", "2025-12-31"] {
            let rows = try Self.list(cli, today: today)
            for day in ["1", "15", "31"] { #expect(rows["On \(day)"]?.string("monthly") == "1200.00", "monthly on \(day), today \(today)") }
        }
    }

    // MARK: schedule edit, skip, rm

    @Test func editOneOccurrenceChangesItsAmountOrMovesIt() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        cli.ok(["schedule", "edit", "Rent", "--scope", "one", "--at", "2025-04-05", "--amount", "55000", "--today", "2025-03-01"])
        cli.ok(["schedule", "edit", "Rent", "--scope", "one", "--at", "2025-05-05", "--move-to", "2025-05-07", "--today", "2025-03-01"])
        let shown = try Self.show(cli, "Rent", next: 4, today: "2025-03-01")
        #expect(Self.dates(shown) == ["2025-03-05", "2025-04-05", "2025-05-07", "2025-06-05"])
        #expect(Self.amounts(shown) == ["50000.00", "55000.00", "50000.00", "50000.00"])
        #expect(Self.occurrences(shown).map { $0.string("note") ?? "" } == ["", "amount changed", "moved", ""])
        #expect(shown.string("amount") == "50000.00")
        // A moved occurrence is found again by its new day.
        cli.ok(["schedule", "edit", "Rent", "--scope", "one", "--at", "2025-05-07", "--amount", "51000", "--today", "2025-03-01"])
        #expect(Self.amounts(try Self.show(cli, "Rent", next: 3, today: "2025-03-01")).last == "51000.00")
    }

    @Test func editOneOccurrenceOfASplitChangesItsFirstPostingAndTheLastBalances() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Mortgage", "monthly on 5", start: "2025-03-05", today: "2025-03-01",
            ["--posting", "Loan interest=60000", "--posting", "Housing=10000", "--posting", "VTB Debit"])
        cli.ok(["schedule", "edit", "Mortgage", "--scope", "one", "--at", "2025-03-05", "--amount", "65000", "--today", "2025-03-01"])
        #expect(Self.amounts(try Self.show(cli, "Mortgage", next: 2, today: "2025-03-01")) == ["75000.00", "70000.00"])
        _ = try Self.post(cli, ["--today", "2025-03-05"])
        #expect(try Self.transactions(cli) == ["Mortgage 2025-03-05 75000.00"])
    }

    @Test func editFutureSplitsTheScheduleAndHistoryStaysWithTheFirst() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-01-05", today: "2025-01-01", Self.moving("50000", to: "Housing"))
        #expect(
            Self.summary(try Self.post(cli, ["--today", "2025-03-10"]).posted) == [
                "Rent 2025-01-05 50000.00", "Rent 2025-02-05 50000.00", "Rent 2025-03-05 50000.00",
            ])
        let out = cli.ok(["schedule", "edit", "Rent", "--scope", "future", "--at", "2025-04-05", "--amount", "55000", "--today", "2025-03-10"])
        #expect(out.contains("'Rent (2)'"))
        let rows = try Self.list(cli, today: "2025-03-10")
        #expect(rows.keys.sorted() == ["Rent", "Rent (2)"])
        let first = try Self.show(cli, "Rent", today: "2025-03-10")
        #expect(first.string("end") == "2025-04-04")
        #expect(first.string("amount") == "50000.00")
        #expect(Self.dates(first) == [])
        let second = try Self.show(cli, "Rent (2)", next: 2, today: "2025-03-10")
        #expect(second.string("start") == "2025-04-05")
        #expect(Self.dates(second) == ["2025-04-05", "2025-05-05"])
        #expect(Self.amounts(second) == ["55000.00", "55000.00"])
        // The posted history is untouched and is not posted again; the second half posts from the split.
        #expect(try Self.post(cli, ["--today", "2025-03-31"]).posted.isEmpty)
        #expect(
            Self.summary(try Self.post(cli, ["--today", "2025-05-05"]).posted) == ["Rent (2) 2025-04-05 55000.00", "Rent (2) 2025-05-05 55000.00"])
        #expect(
            try Self.transactions(cli) == [
                "Rent (2) 2025-04-05 55000.00", "Rent (2) 2025-05-05 55000.00", "Rent 2025-01-05 50000.00", "Rent 2025-02-05 50000.00",
                "Rent 2025-03-05 50000.00",
            ])
        let export = cli.ok(["export"])
        let firstPart = try #require(export.range(of: "name: Rent\n")).upperBound
        let secondPart = try #require(export.range(of: "name: Rent (2)\n")).lowerBound
        #expect(export[firstPart..<secondPart].contains("date: 2025-03-05"), "the posted occurrences stay with the first schedule")
    }

    @Test func editFutureAtAnAlreadyPostedOccurrencePostsNothingTwice() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Lunch", "every working day", start: "2025-03-03", today: "2025-03-01", Self.moving("400", to: "Eating out"))
        #expect(try Self.post(cli, ["--today", "2025-03-07"]).posted.count == 5)
        cli.ok(["schedule", "edit", "Lunch", "--scope", "future", "--at", "2025-03-05", "--amount", "450", "--today", "2025-03-07"])
        #expect(try Self.post(cli, ["--today", "2025-03-07", "--dry-run"]).posted.isEmpty)
        #expect(Self.summary(try Self.post(cli, ["--today", "2025-03-10"]).posted) == ["Lunch (2) 2025-03-10 450.00"])
        #expect(try Self.transactions(cli).count == 6)
    }

    @Test func editAllChangesEveryOccurrence() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        cli.ok(["schedule", "edit", "Rent", "--scope", "all", "--amount", "60000", "--rule", "monthly on 6", "--today", "2025-03-01"])
        cli.ok(["schedule", "edit", "Rent", "--name", "Flat", "--today", "2025-03-01"])  // no --scope: all
        let shown = try Self.show(cli, "Flat", next: 3, today: "2025-03-01")
        #expect(shown.string("rule") == "monthly on 6")
        #expect(Self.dates(shown) == ["2025-03-06", "2025-04-06", "2025-05-06"])
        #expect(Self.amounts(shown) == ["60000.00", "60000.00", "60000.00"])
        #expect(try Self.list(cli, today: "2025-03-01").keys.sorted() == ["Flat"])
    }

    @Test func skipLeavesOneOccurrenceOut() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        #expect(cli.ok(["schedule", "skip", "Rent", "--at", "2025-04-05", "--today", "2025-03-01"]) == "Skipped the occurrence of 2025-04-05.\n")
        #expect(Self.dates(try Self.show(cli, "Rent", next: 3, today: "2025-03-01")) == ["2025-03-05", "2025-05-05", "2025-06-05"])
        #expect(Self.summary(try Self.post(cli, ["--today", "2025-05-05"]).posted) == ["Rent 2025-03-05 50000.00", "Rent 2025-05-05 50000.00"])
    }

    @Test func rmWithEachScope() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        Self.add(cli, "Gym", "monthly on 1", start: "2025-04-01", today: "2025-03-01", Self.moving("3000", to: "Health"))
        cli.ok(["schedule", "rm", "Rent", "--scope", "one", "--at", "2025-04-05", "--today", "2025-03-01"])
        #expect(Self.dates(try Self.show(cli, "Rent", next: 2, today: "2025-03-01")) == ["2025-03-05", "2025-05-05"])
        cli.ok(["schedule", "rm", "Rent", "--scope", "future", "--at", "2025-06-05", "--today", "2025-03-01"])
        let shown = try Self.show(cli, "Rent", next: 10, today: "2025-03-01")
        #expect(shown.string("end") == "2025-06-04")
        #expect(Self.dates(shown) == ["2025-03-05", "2025-05-05"])
        #expect(cli.ok(["schedule", "rm", "Rent", "--scope", "all", "--today", "2025-03-01"]) == "Removed schedule 'Rent'.\n")
        cli.ok(["schedule", "rm", "Gym", "--today", "2025-03-01"])
        #expect(try cli.rows(["schedule", "list", "--today", "2025-03-01"]).isEmpty)
        #expect(try Self.post(cli, ["--today", "2025-06-30"]).posted.isEmpty)
    }

    // MARK: rule expand

    @Test func ruleExpandPrintsTheDatesInEachFormatWithoutADatabase() throws {
        let cli = try CLI()
        let nowhere = cli.path("nowhere/capital.sqlite")
        let args = ["rule", "expand", "monthly on 10", "--start", "2025-04-01", "--until", "2025-06", "--calendar", "RU", "--adjust", "preceding"]
        let env = ["CAPITAL_DB": nowhere]
        let table = cli.ok(args, env: env)
        #expect(
            table == """
                monthly on 10  (FREQ=MONTHLY;BYMONTHDAY=10, preceding on RU)
                Date        Weekday
                ──────────  ───────
                2025-04-10  Thu
                2025-05-07  Wed
                2025-06-10  Tue

                """)
        #expect(cli.ok(args + ["--format", "csv"], env: env) == "date,weekday\n2025-04-10,Thu\n2025-05-07,Wed\n2025-06-10,Tue\n")
        let json = cli.ok(args + ["--format", "json"], env: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["dates", "rule"])
        #expect(object["rule"] as? String == "monthly on 10")
        #expect(object["dates"] as? [String] == ["2025-04-10", "2025-05-07", "2025-06-10"])
        #expect(json.hasPrefix("{\n  \"rule\": \"monthly on 10\",\n  \"dates\": ["), "rule comes first: \(json)")
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test(
        arguments: [
            ("FREQ=MONTHLY;BYDAY=-1FR", "2025-01-01", "2025-03-31", "monthly on last fri", ["2025-01-31", "2025-02-28", "2025-03-28"]),
            ("monthly on 31", "2024-01-01", "2024-04-30", "monthly on 31", ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"]),
            ("FREQ=MONTHLY;BYMONTHDAY=31", "2024-01-01", "2024-04-30", "FREQ=MONTHLY;BYMONTHDAY=31", ["2024-01-31", "2024-03-31"]),
            ("every 3 months on 1", "2025-01-01", "2025-12-31", "quarterly on 1", ["2025-01-01", "2025-04-01", "2025-07-01", "2025-10-01"]),
            ("FREQ=DAILY;COUNT=2", "2025-01-01", "2025-12-31", "FREQ=DAILY;COUNT=2", ["2025-01-01", "2025-01-02"]),
            ("FREQ=WEEKLY;UNTIL=20250115", "2025-01-01", "2025-12-31", "FREQ=WEEKLY;UNTIL=20250115", ["2025-01-01", "2025-01-08", "2025-01-15"]),
        ])
    func ruleExpandReadsRRULEAndReadableRules(rule: String, start: String, until: String, printed: String, dates: [String]) throws {
        let cli = try CLI()
        let object = try #require(
            try cli.json(["rule", "expand", rule, "--start", start, "--until", until]) as? [String: Any])
        #expect(object["rule"] as? String == printed)
        #expect(object["dates"] as? [String] == dates)
    }

    @Test func ruleExpandOnTheRUCalendarUsesItsWorkingDays() throws {
        let cli = try CLI()
        let object = try #require(
            try cli.json(["rule", "expand", "every working day", "--start", "2025-10-30", "--until", "2025-11-05", "--calendar", "ru"])
                as? [String: Any])
        #expect(object["dates"] as? [String] == ["2025-10-30", "2025-10-31", "2025-11-01", "2025-11-05"])
        let december = try #require(
            try cli.json(["rule", "expand", "monthly on last working day", "--start", "2025-12-01", "--until", "2025-12-31", "--calendar", "RU"])
                as? [String: Any])
        #expect(december["dates"] as? [String] == ["2025-12-30"])
    }

    // MARK: calendar

    @Test func calendarDaysAddedToTheLedgerMoveItsSchedules() throws {
        let cli = try Self.ledger()
        #expect(cli.ok(["calendar", "use", "RU"]) == "Schedules now use the RU calendar unless they name another.\n")
        Self.add(
            cli, "Salary", "monthly on 10", start: "2025-05-10", today: "2025-05-01",
            ["--adjust", "preceding"] + Self.moving("180000", to: "VTB Debit", from: "Salary"))
        #expect(Self.dates(try Self.show(cli, "Salary", next: 2, today: "2025-05-01")) == ["2025-05-07", "2025-06-10"])
        cli.ok(["calendar", "add-holiday", "RU", "2025-06-10", "--name", "Company day off"])
        cli.ok(["calendar", "add-workday", "ru", "2025-05-09", "--name", "Worked Victory Day"])
        #expect(Self.dates(try Self.show(cli, "Salary", next: 2, today: "2025-05-01")) == ["2025-05-09", "2025-06-09"])
        let listed = try #require(try cli.json(["calendar", "list"]) as? [String: Any])
        let calendars = listed["calendars"] as? [[String: Any]] ?? []
        #expect(calendars.map { "\($0.string("name") ?? "") \($0["default"] as? Bool ?? false)" } == ["RU true", "US false", "none false"])
        let days = listed["days"] as? [[String: Any]] ?? []
        #expect(
            days.map { "\($0.string("calendar") ?? "") \($0.string("date") ?? "") \($0.string("kind") ?? "") \($0.string("name") ?? "")" } == [
                "RU 2025-05-09 workday Worked Victory Day", "RU 2025-06-10 holiday Company day off",
            ])
        // A schedule on another calendar is not moved by RU's days.
        Self.add(
            cli, "Rent", "monthly on 10", start: "2025-06-10", today: "2025-05-01",
            ["--calendar", "none", "--adjust", "preceding"] + Self.moving("500", to: "Housing"))
        #expect(Self.dates(try Self.show(cli, "Rent", next: 1, today: "2025-05-01")) == ["2025-06-10"])
    }

    // MARK: post

    @Test func postTurnsDueOccurrencesIntoTransactionsOnceOnly() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        Self.add(cli, "Lunch", "every working day", start: "2025-03-06", today: "2025-03-01", Self.moving("250..500", to: "Eating out"))
        let first = try Self.post(cli, ["--today", "2025-03-07"])
        #expect(Self.summary(first.posted) == ["Rent 2025-03-05 50000.00", "Lunch 2025-03-06 375.00", "Lunch 2025-03-07 375.00"])
        #expect(first.posted.allSatisfy { $0.string("transaction") != nil })
        #expect(first.pending.isEmpty)
        #expect(try Self.transactions(cli) == ["Lunch 2025-03-06 375.00", "Lunch 2025-03-07 375.00", "Rent 2025-03-05 50000.00"])
        let row = try #require(try cli.rows(["tx", "list"]).first { $0.string("payee") == "Rent" })
        #expect(row["from"] as? [String] == ["VTB Debit"])
        #expect(row["to"] as? [String] == ["Housing"])
        // A second run posts nothing twice.
        #expect(try Self.post(cli, ["--today", "2025-03-07"]).posted.isEmpty)
        #expect(try Self.transactions(cli).count == 3)
        // A later run posts what became due since.
        #expect(Self.summary(try Self.post(cli, ["--today", "2025-03-10"]).posted) == ["Lunch 2025-03-10 375.00"])
    }

    @Test func postDryRunListsButChangesNothing() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        let before = cli.state()
        let dry = try Self.post(cli, ["--today", "2025-04-05", "--dry-run"])
        #expect(Self.summary(dry.posted) == ["Rent 2025-03-05 50000.00", "Rent 2025-04-05 50000.00"])
        #expect(dry.posted.allSatisfy { $0["transaction"] is NSNull })
        #expect(cli.state() == before)
        #expect(try cli.rows(["tx", "list"]).isEmpty)
    }

    @Test func postUntilStopsAtThatDay() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        #expect(
            Self.summary(try Self.post(cli, ["--today", "2025-06-30", "--until", "2025-04-30"]).posted) == [
                "Rent 2025-03-05 50000.00", "Rent 2025-04-05 50000.00",
            ])
        #expect(Self.summary(try Self.post(cli, ["--today", "2025-06-30"]).posted) == ["Rent 2025-05-05 50000.00", "Rent 2025-06-05 50000.00"])
    }

    @Test func confirmOccurrencesWaitForApprovalWithTheAmountGiven() throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Utilities", "monthly on 12", start: "2025-03-12", today: "2025-03-01",
            ["--approval", "confirm"] + Self.moving("11000..15000", to: "Utilities"))
        let waiting = try Self.post(cli, ["--today", "2025-04-12"])
        #expect(waiting.posted.isEmpty)
        #expect(Self.summary(waiting.pending) == ["Utilities 2025-03-12 13000.00", "Utilities 2025-04-12 13000.00"])
        #expect(try cli.rows(["tx", "list"]).isEmpty)
        // Still pending on the next run, until approved.
        #expect(try Self.post(cli, ["--today", "2025-04-12"]).pending.count == 2)
        let approved = try Self.post(cli, ["--today", "2025-04-12", "--approve", "Utilities@2025-03-12=12345.67"])
        #expect(Self.summary(approved.posted) == ["Utilities 2025-03-12 12345.67"])
        #expect(Self.summary(approved.pending) == ["Utilities 2025-04-12 13000.00"])
        let byExpected = try Self.post(cli, ["--today", "2025-04-12", "--approve", "utilities@2025-04-12"])
        #expect(Self.summary(byExpected.posted) == ["Utilities 2025-04-12 13000.00"])
        #expect(byExpected.pending.isEmpty)
        #expect(try Self.transactions(cli) == ["Utilities 2025-03-12 12345.67", "Utilities 2025-04-12 13000.00"])
    }

    @Test func aPostWithOneBadApprovalPostsNothingAtAll() throws {
        let cli = try Self.ledger()
        Self.add(cli, "Rent", "monthly on 5", start: "2025-03-05", today: "2025-03-01", Self.moving("50000", to: "Housing"))
        Self.add(
            cli, "Utilities", "monthly on 12", start: "2025-03-12", today: "2025-03-01",
            ["--approval", "confirm"] + Self.moving("11000..15000", to: "Utilities"))
        cli.fails(
            ["post", "--today", "2025-03-20", "--approve", "Utilities@2025-03-12=12000", "--approve", "Utilities@2025-03-13"],
            mentioning: ["--approve", "'Utilities@2025-03-13'", "no occurrence", "2025-03-13"])
        #expect(try cli.rows(["tx", "list"]).isEmpty)
        #expect(try Self.post(cli, ["--today", "2025-03-20", "--dry-run"]).posted.count == 1)
    }

    @Test(arguments: [false, true])
    func aScheduleStartingInThePastPostsThePastOnlyWithBackfill(backfill: Bool) throws {
        let cli = try Self.ledger()
        Self.add(
            cli, "Rent", "monthly on 5", start: "2025-01-05", today: "2025-03-10",
            Self.moving("50000", to: "Housing") + (backfill ? ["--backfill"] : []))
        let posted = Self.summary(try Self.post(cli, ["--today", "2025-04-05"]).posted)
        #expect(
            posted == (backfill ? ["Rent 2025-01-05 50000.00", "Rent 2025-02-05 50000.00", "Rent 2025-03-05 50000.00"] : []) + [
                "Rent 2025-04-05 50000.00"
            ])
    }

    @Test func theHouseholdSamplePostsItsAprilFirst() throws {
        let cli = try CLI.household()
        let result = try Self.post(cli, ["--today", "2025-04-01"])
        // Handled through 31 March: 1 April brings the parking space and a working day's lunch.
        #expect(Self.summary(result.posted).sorted() == ["Business lunch 2025-04-01 375.00", "Parking space 2025-04-01 10000.00"])
        #expect(try Self.post(cli, ["--today", "2025-04-01"]).posted.isEmpty)
    }

    // MARK: ledger files

    @Test func exportImportExportOfSchedulesIsByteIdentical() throws {
        let cli = try Self.ledger()
        cli.ok(["calendar", "use", "RU"])
        cli.ok(["calendar", "add-holiday", "RU", "2025-06-10", "--name", "Company day off"])
        cli.ok(["calendar", "add-workday", "RU", "2025-06-14"])
        cli.ok(["calendar", "add-holiday", "US", "2025-06-11", "--name", "Office closed"])
        Self.add(
            cli, "Salary", "monthly on 10", start: "2025-01-10", today: "2025-01-01",
            ["--adjust", "preceding"] + Self.moving("180000", to: "VTB Debit", from: "Salary"))
        Self.add(
            cli, "Lunch", "every working day", start: "2025-03-03", today: "2025-03-01",
            ["--expected", "400", "--note", "with colleagues"] + Self.moving("250..500", to: "Eating out"))
        Self.add(
            cli, "Mortgage", "monthly on 5", start: "2025-01-05", today: "2025-01-01",
            ["--calendar", "none", "--count", "12", "--posting", "Loan interest=60000", "--posting", "Housing=10000", "--posting", "VTB Debit"])
        Self.add(
            cli, "Utilities", "monthly on last working day", start: "2025-01-31", today: "2025-01-01",
            ["--approval", "confirm", "--end", "2025-12-31"] + Self.moving("11000..15000", to: "Utilities"))
        Self.add(
            cli, "Insurance", "yearly on 02-29", start: "2024-02-29", today: "2025-03-01",
            ["--adjust", "modified-following"] + Self.moving("40000", to: "Insurance"))
        cli.ok(["schedule", "skip", "Salary", "--at", "2025-08-08", "--today", "2025-03-01"])
        cli.ok(["schedule", "edit", "Salary", "--scope", "one", "--at", "2025-09-10", "--move-to", "2025-09-12", "--today", "2025-03-01"])
        cli.ok(["schedule", "edit", "Lunch", "--scope", "one", "--at", "2025-03-05", "--amount", "900", "--today", "2025-03-01"])
        cli.ok(["schedule", "edit", "Mortgage", "--scope", "one", "--at", "2025-02-05", "--amount", "59000", "--today", "2025-03-01"])
        _ = try Self.post(cli, ["--today", "2025-03-05", "--approve", "Utilities@2025-01-31=12000"])
        cli.ok(["schedule", "edit", "Salary", "--scope", "future", "--at", "2025-06-10", "--amount", "200000", "--today", "2025-03-05"])

        var imported: [CLI] = []
        for format in ["yaml", "json"] {
            let first = cli.ok(["export", "--format", format])
            #expect(first.contains("Salary (2)"))
            #expect(first.contains("2025-09-12"))
            let file = cli.path("ledger.\(format)")
            try Data(first.utf8).write(to: URL(fileURLWithPath: file))
            let other = try CLI()
            other.ok(["import", file])
            #expect(other.ok(["export", "--format", format]) == first, "\(format)")
            imported.append(other)
        }
        let other = imported[0]
        // And the imported ledger behaves the same: nothing posted twice, the same pending.
        let here = try Self.post(cli, ["--today", "2025-03-05", "--dry-run"])
        let there = try Self.post(other, ["--today", "2025-03-05", "--dry-run"])
        #expect(Self.summary(there.posted) == Self.summary(here.posted))
        #expect(Self.summary(there.pending) == Self.summary(here.pending))
        #expect(
            try cli.rows(["schedule", "list", "--today", "2025-03-05"]).map { $0.string("next") }
                == other.rows(["schedule", "list", "--today", "2025-03-05"]).map { $0.string("next") })
    }
}
