import Foundation
import Testing

/// Issue 17, item 8: rule sets — RRULE plus RDATE, EXDATE and EXRULE, as calendar programs export
/// them — in `rule expand` and in schedules (their dates against dateutil: RecurrenceFixtureTests).
@Suite("CLI: rule sets")
struct RuleSetTests {
    static let rent = "RRULE:FREQ=MONTHLY;BYMONTHDAY=5 EXDATE:20250505 RDATE:20250520"

    @Test func ruleExpandListsASetsDays() throws {
        let cli = try CLI()
        let object = try #require(
            try cli.json(["rule", "expand", Self.rent, "--start", "2025-01-05", "--until", "2025-06-30"]) as? [String: Any])
        #expect(object["dates"] as? [String] == ["2025-01-05", "2025-02-05", "2025-03-05", "2025-04-05", "2025-05-20", "2025-06-05"])
        // Written back in capital's order, one line.
        #expect(object["rule"] as? String == "RRULE:FREQ=MONTHLY;BYMONTHDAY=5 RDATE:20250520 EXDATE:20250505")
        // Adjusted as a single rule is: Saturday 5 April moves to Monday the 7th.
        let adjusted = try #require(
            try cli.json(["rule", "expand", Self.rent, "--start", "2025-01-05", "--until", "2025-04-30", "--adjust", "following"]) as? [String: Any])
        #expect(adjusted["dates"] as? [String] == ["2025-01-06", "2025-02-05", "2025-03-05", "2025-04-07"])
    }

    @Test func aScheduleRecursByASetAndPostsItsDays() throws {
        let cli = try CLITemplate.initialized.copy()
        cli.ok([
            "schedule", "add", "Rent", "--rule", Self.rent, "--start", "2025-01-05", "--amount", "500", "--from", "VTB Debit", "--to", "Housing",
            "--today", "2025-01-01",
        ])
        let shown = try #require(try cli.json(["schedule", "show", "Rent", "--today", "2025-04-01"]) as? [String: Any])
        #expect(shown["rrule"] as? String == "RRULE:FREQ=MONTHLY;BYMONTHDAY=5 RDATE:20250520 EXDATE:20250505")
        let posted = try #require(try cli.json(["post", "--today", "2025-06-01"]) as? [String: Any])
        let days = try #require(posted["posted"] as? [[String: Any]]).map { $0.string("date") }
        #expect(days == ["2025-01-05", "2025-02-05", "2025-03-05", "2025-04-05", "2025-05-20"])
        // Through a ledger file and back, the same set.
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        let copy = try CLI()
        copy.ok(["import", file])
        #expect(
            (try copy.json(["schedule", "show", "Rent", "--today", "2025-04-01"]) as? [String: Any])?["rrule"] as? String == shown["rrule"] as? String
        )
    }

    @Test(arguments: [
        ("RRULE:FREQ=MONTHLY EXDATE:2025031", "EXDATE '2025031': expected a date as YYYYMMDD"),
        ("RRULE:FREQ=MONTHLY FOO:1", "FOO '1': not a part of a rule set"),
        ("RRULE:FREQ=MONTHLY EXDATE", "'EXDATE' is not NAME:VALUE"),
        ("EXDATE:20250301 EXRULE:FREQ=WEEKLY", "a rule set needs an RRULE or an RDATE"),
        ("DTSTART:20250102 RRULE:FREQ=MONTHLY", "DTSTART 2025-01-02 is not the start 2025-01-01"),
        ("RRULE:FREQ=MONTHLY RDATE:20250230", "RDATE '20250230': not a calendar date"),
    ])
    func aBadSetIsRefusedNamingItsPart(rule: String, message: String) throws {
        let cli = try CLITemplate.initialized.copy()
        cli.fails(["rule", "expand", rule, "--start", "2025-01-01", "--until", "2025-03-31"], mentioning: ["RULE '\(rule)'", message])
        cli.fails(
            [
                "schedule", "add", "Rent", "--rule", rule, "--start", "2025-01-01", "--amount", "500", "--from", "VTB Debit", "--to", "Housing",
                "--today", "2025-01-01",
            ],
            mentioning: ["--rule '\(rule)'", message])
    }
}
