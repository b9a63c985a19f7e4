import Foundation
import Testing

/// Every bad input of issue 3: a one-line error naming the field, the value and the reason, a
/// non-zero exit, and nothing written. Rules are tried on `rule expand` (no database at all) and
/// on `schedule add` (the ledger unchanged).
@Suite("CLI: schedule bad input")
struct ScheduleBadInputTests {
    struct BadRule: Sendable, CustomTestStringConvertible {
        var rule: String
        /// What the error must say besides naming the rule.
        var mentions: [String]
        var testDescription: String { rule }
    }

    static let badRules: [BadRule] = [
        BadRule(rule: "FREQ=HOURLY", mentions: ["FREQ=HOURLY is not supported", "rules recur by day"]),
        BadRule(rule: "FREQ=DAILY;BYHOUR=9", mentions: ["BYHOUR=9 is not supported"]),
        BadRule(rule: "FREQ=MONTHLY;BYMONTHDAY=32", mentions: ["BYMONTHDAY '32'", "1 to 31"]),
        BadRule(rule: "FREQ=DAILY;INTERVAL=0", mentions: ["INTERVAL '0'", "1 or more"]),
        BadRule(rule: "FREQ=DAILY;COUNT=3;UNTIL=20250301", mentions: ["COUNT=3", "UNTIL=20250301", "not both"]),
        BadRule(rule: "monthly on 2nd tuesday of", mentions: ["not a rule capital reads", "did you mean 'monthly on 2nd tue'?"]),
        BadRule(rule: "monthly on 32", mentions: ["day of month '32'", "1 to 31"]),
        BadRule(rule: "yearly on 02-30", mentions: ["day '02-30'", "01 to 29"]),
        BadRule(rule: "yearly on 13-01", mentions: ["month '13'", "01 to 12"]),
    ]

    /// A CLI whose database path leads nowhere: `rule expand` must not need it, nor create it.
    static func withoutDatabase() throws -> (CLI, [String: String], String) {
        let cli = try CLI()
        let nowhere = cli.path("nowhere/capital.sqlite")
        return (cli, ["CAPITAL_DB": nowhere], nowhere)
    }

    @Test(arguments: badRules)
    func ruleExpandRefusesABadRuleWithoutADatabase(_ bad: BadRule) throws {
        let (cli, env, nowhere) = try Self.withoutDatabase()
        cli.fails(
            ["rule", "expand", bad.rule, "--start", "2025-01-01", "--until", "2025-03-31"], mentioning: ["RULE '\(bad.rule)'"] + bad.mentions,
            env: env,
            db: nowhere)
        #expect(!FileManager.default.fileExists(atPath: nowhere))
    }

    @Test(arguments: badRules)
    func scheduleAddRefusesABadRuleAndWritesNothing(_ bad: BadRule) throws {
        let cli = try CLITemplate.initialized.copy()
        cli.fails(
            [
                "schedule", "add", "Rent", "--rule", bad.rule, "--start", "2025-01-01", "--amount", "500", "--from", "VTB Debit", "--to", "Housing",
                "--today", "2025-01-01",
            ],
            mentioning: ["--rule '\(bad.rule)'"] + bad.mentions)
    }

    /// Issue 17, case 13: a rule that never occurs is python-dateutil's empty expansion for
    /// `rule expand`, and a mistake for a schedule, which must happen.
    @Test(arguments: [
        ("FREQ=DAILY;UNTIL=20241231", "UNTIL 2024-12-31 is before the start 2025-01-01: the rule has no occurrences"),
        ("FREQ=MONTHLY;COUNT=0", "COUNT=0: the rule has no occurrences"),
    ])
    func aRuleThatNeverOccursExpandsToNothingAndIsNoSchedule(rule: String, reason: String) throws {
        let (bare, env, _) = try Self.withoutDatabase()
        let expanded = bare.run(["rule", "expand", rule, "--start", "2025-01-01", "--until", "2025-03-31", "--format", "json"], env: env)
        #expect(expanded.status == 0 && expanded.stderr == "", "\(expanded)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(expanded.stdout.utf8)) as? [String: Any])
        #expect((object["dates"] as? [Any])?.isEmpty == true, "\(expanded)")
        let cli = try CLITemplate.initialized.copy()
        cli.fails(
            [
                "schedule", "add", "Rent", "--rule", rule, "--start", "2025-01-01", "--amount", "500", "--from", "VTB Debit", "--to", "Housing",
                "--today", "2025-01-01",
            ],
            mentioning: ["--rule '\(rule)'", reason])
    }

    @Test func anUnknownCalendarIsRefusedListingTheKnownOnes() throws {
        let (bare, env, nowhere) = try Self.withoutDatabase()
        bare.fails(
            ["rule", "expand", "daily", "--start", "2025-01-01", "--until", "2025-01-31", "--calendar", "XX"],
            mentioning: ["--calendar 'XX'", "unknown", "RU, US, none"],
            env: env, db: nowhere)
        let cli = try CLITemplate.initialized.copy()
        cli.fails(
            [
                "schedule", "add", "Rent", "--rule", "daily", "--start", "2025-01-01", "--calendar", "XX", "--amount", "500", "--from", "VTB Debit",
                "--to", "Housing",
            ],
            mentioning: ["--calendar 'XX'", "unknown", "RU, US, none"])
        cli.fails(["calendar", "use", "XX"], mentioning: ["'XX'", "unknown"])
        cli.fails(["calendar", "add-holiday", "XX", "2025-06-10"], mentioning: ["'XX'", "unknown"])
    }

    @Test func anAdjustmentAgainstTheRulesOwnIsRefused() throws {
        let (bare, env, nowhere) = try Self.withoutDatabase()
        bare.fails(
            ["rule", "expand", "monthly on last working day", "--start", "2025-01-01", "--until", "2025-01-31", "--adjust", "following"],
            mentioning: ["--adjust 'following'", "already means preceding"], env: env, db: nowhere)
        let cli = try CLITemplate.initialized.copy()
        cli.fails(
            [
                "schedule", "add", "Rent", "--rule", "every working day", "--adjust", "following", "--start", "2025-01-01", "--amount", "5", "--from",
                "VTB Debit", "--to", "Housing",
            ],
            mentioning: ["'following'", "already means skip"])
    }

    @Test func ruleExpandRefusesAWindowThatEndsBeforeItStarts() throws {
        let (bare, env, nowhere) = try Self.withoutDatabase()
        bare.fails(
            ["rule", "expand", "daily", "--start", "2025-02-01", "--until", "2025-01-31"], mentioning: ["--until '2025-01-31'", "before --start"],
            env: env, db: nowhere)
    }

    struct BadAdd: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var args: [String]
        var mentions: [String]
    }

    static let badAdds: [BadAdd] = [
        BadAdd(
            testDescription: "range 500..250", args: ["--amount", "500..250", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--amount '500..250'", "starts above its end"]),
        BadAdd(
            testDescription: "expected outside the range",
            args: ["--amount", "250..500", "--expected", "600", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--expected '600'", "outside the range 250.00..500.00"]),
        BadAdd(
            testDescription: "expected with a fixed amount",
            args: ["--amount", "250", "--expected", "200", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--expected '200'", "ranged amount"]),
        BadAdd(
            testDescription: "negative amount", args: ["--amount=-250", "--from", "VTB Debit", "--to", "Housing"], mentions: ["'-250'", "negative"]),
        BadAdd(testDescription: "amount without accounts", args: ["--amount", "250"], mentions: ["--amount '250'", "from and to"]),
        BadAdd(
            testDescription: "count and end together",
            args: ["--count", "3", "--end", "2025-06-01", "--amount", "5", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--end '2025-06-01'", "not both"]),
        BadAdd(
            testDescription: "count 0", args: ["--count", "0", "--amount", "5", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--count '0'", "at least 1"]),
        BadAdd(
            testDescription: "end before the start", args: ["--end", "2024-12-31", "--amount", "5", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["--end '2024-12-31'", "before the start 2025-01-01"]),
        BadAdd(
            testDescription: "unknown account", args: ["--amount", "5", "--from", "Nowhere", "--to", "Housing"], mentions: ["'Nowhere'", "not found"]),
        BadAdd(testDescription: "one posting", args: ["--posting", "Housing=5"], mentions: ["--posting", "at least 2 postings"]),
        BadAdd(
            testDescription: "unbalanced split", args: ["--posting", "Housing=5", "--posting", "VTB Debit=-4"],
            mentions: ["--posting", "do not balance"]),
    ]

    @Test(arguments: badAdds)
    func scheduleAddRefusesABadTemplate(_ bad: BadAdd) throws {
        let cli = try CLITemplate.initialized.copy()
        cli.fails(
            ["schedule", "add", "Rent", "--rule", "monthly on 5", "--start", "2025-01-01", "--today", "2025-01-01"] + bad.args,
            mentioning: bad.mentions)
    }

    // MARK: On a ledger with schedules

    /// Rent (auto, monthly on 5, 500) and Bill (confirm, monthly on 12, 100..200), both from March 2025.
    static func withSchedules() throws -> CLI { try schedules.copy() }

    static let schedules = CLITemplate(
        "rent-and-bill",
        [
            ["init"], ["account", "add", "VTB Debit", "--kind", "debit", "--default"],
            [
                "schedule", "add", "Rent", "--rule", "monthly on 5", "--start", "2025-03-05", "--amount", "500", "--from", "VTB Debit", "--to",
                "Housing", "--today", "2025-03-01",
            ],
            [
                "schedule", "add", "Bill", "--rule", "monthly on 12", "--start", "2025-03-12", "--amount", "100..200", "--from", "VTB Debit", "--to",
                "Utilities",
                "--approval", "confirm", "--today", "2025-03-01",
            ],
        ])

    static let onSchedules: [BadAdd] = [
        BadAdd(
            testDescription: "edit --scope one without --at", args: ["schedule", "edit", "Rent", "--scope", "one", "--amount", "5"],
            mentions: ["--scope 'one'", "needs --at"]),
        BadAdd(
            testDescription: "rm --scope one without --at", args: ["schedule", "rm", "Rent", "--scope", "one"],
            mentions: ["--scope 'one'", "needs --at"]),
        BadAdd(
            testDescription: "rm --scope future without --at", args: ["schedule", "rm", "Rent", "--scope", "future"],
            mentions: ["--scope 'future'", "needs --at"]),
        BadAdd(
            testDescription: "--at without a scope", args: ["schedule", "edit", "Rent", "--at", "2025-04-05", "--amount", "5"],
            mentions: ["--at '2025-04-05'", "--scope one"]),
        BadAdd(
            testDescription: "unknown scope", args: ["schedule", "rm", "Rent", "--scope", "some", "--at", "2025-04-05"],
            mentions: ["--scope 'some'", "one, future or all"]),
        BadAdd(
            testDescription: "skip a day that is not an occurrence", args: ["schedule", "skip", "Rent", "--at", "2025-04-06"],
            mentions: ["--at '2025-04-06'", "'Rent' has no occurrence that day", "the nearest is 2025-04-05"]),
        BadAdd(
            testDescription: "skip a day before the start", args: ["schedule", "skip", "Rent", "--at", "2025-02-05"],
            mentions: ["--at '2025-02-05'", "no occurrence"]),
        BadAdd(
            testDescription: "edit one that is not an occurrence",
            args: ["schedule", "edit", "Rent", "--scope", "one", "--at", "2025-04-06", "--amount", "5"],
            mentions: ["--at '2025-04-06'", "no occurrence"]),
        BadAdd(
            testDescription: "split where there is no occurrence",
            args: ["schedule", "edit", "Rent", "--scope", "future", "--at", "2025-04-06", "--amount", "5"],
            mentions: ["--at '2025-04-06'", "no occurrence"]),
        BadAdd(
            testDescription: "one occurrence with a range",
            args: ["schedule", "edit", "Bill", "--scope", "one", "--at", "2025-04-12", "--amount", "100..300"],
            mentions: ["--amount '100..300'", "single amount"]),
        BadAdd(
            testDescription: "one occurrence with a new rule",
            args: ["schedule", "edit", "Rent", "--scope", "one", "--at", "2025-04-05", "--rule", "daily"],
            mentions: ["--scope 'one'", "only --amount and --move-to"]),
        BadAdd(testDescription: "an edit changing nothing", args: ["schedule", "edit", "Rent"], mentions: ["'Rent'", "nothing to change"]),
        BadAdd(
            testDescription: "an edit to a bad rule", args: ["schedule", "edit", "Rent", "--rule", "FREQ=HOURLY"],
            mentions: ["--rule 'FREQ=HOURLY'", "not supported"]),
        BadAdd(
            testDescription: "a duplicate name",
            args: ["schedule", "add", "rent", "--rule", "daily", "--start", "2025-03-01", "--amount", "5", "--from", "VTB Debit", "--to", "Housing"],
            mentions: ["'rent'"]),
        BadAdd(testDescription: "an unknown schedule", args: ["schedule", "show", "Nope"], mentions: ["schedule 'Nope'", "not found"]),
        BadAdd(
            testDescription: "approve an occurrence that is not due yet", args: ["post", "--approve", "Bill@2025-04-12"],
            mentions: ["--approve 'Bill@2025-04-12'", "no occurrence", "awaiting approval", "2025-04-12"]),
        BadAdd(
            testDescription: "approve a day that is not an occurrence", args: ["post", "--approve", "Bill@2025-03-13"],
            mentions: ["--approve 'Bill@2025-03-13'", "no occurrence"]),
        BadAdd(
            testDescription: "approve an occurrence of an auto schedule", args: ["post", "--approve", "Rent@2025-03-05"],
            mentions: ["--approve 'Rent@2025-03-05'", "posts by itself", "nothing to approve"]),
        BadAdd(
            testDescription: "approve with a range", args: ["post", "--approve", "Bill@2025-03-12=100..150"],
            mentions: ["--approve 'Bill@2025-03-12=100..150'", "one amount"]),
        BadAdd(
            testDescription: "approve with a bad amount", args: ["post", "--approve", "Bill@2025-03-12=abc"],
            mentions: ["--approve 'Bill@2025-03-12=abc'", "'abc' is not an amount"]),
        BadAdd(
            testDescription: "approve without a day", args: ["post", "--approve", "Bill"], mentions: ["--approve 'Bill'", "SCHEDULE@YYYY-MM-DD"]),
        BadAdd(
            testDescription: "approve an unknown schedule", args: ["post", "--approve", "Nope@2025-03-12"],
            mentions: ["schedule 'Nope'", "not found"]),
        BadAdd(
            testDescription: "post until after today", args: ["post", "--until", "2025-03-21"],
            mentions: ["--until '2025-03-21'", "after today 2025-03-20"]),
    ]

    @Test(arguments: onSchedules)
    func aBadScheduleCommandChangesNothing(_ bad: BadAdd) throws {
        let cli = try Self.withSchedules()
        cli.fails(bad.args + ["--today", "2025-03-20"], mentioning: bad.mentions)
    }

    @Test func approvingAnOccurrenceAlreadyPostedIsRefused() throws {
        let cli = try Self.withSchedules()
        cli.ok(["post", "--approve", "Bill@2025-03-12=150", "--today", "2025-03-20"])
        cli.fails(
            ["post", "--approve", "Bill@2025-03-12=150", "--today", "2025-03-20"], mentioning: ["--approve 'Bill@2025-03-12=150'", "no occurrence"])
    }
}
