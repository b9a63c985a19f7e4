import Foundation
import Testing

/// Issue 17, case 7 / item 7: importing a database's own export into it changes nothing and says
/// "nothing new" — for every kind of record, on the sample with one more of each added by hand
/// (a budget set mid-month among them: its start used to be exported as the month's first day, and
/// the re-import refused it), and on a generated ledger.
@Suite("CLI: export, then import into the same database")
struct RoundTripTests {
    @Test func theSampleWithOneMoreOfEveryKindComesBackAsNothingNew() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-15"]
        for args in [
            ["account", "add", "Piggy bank", "--kind", "cash", "--floor", "100", "--color", "green", "--icon", "🐷"],
            ["category", "add", "Books", "--expense"],
            ["group", "add", "Savings", "--type", "cash-flow", "--account", "Piggy bank"],
            ["spend", "1200", "Books", "--from", "Cash", "--payee", "Shop", "--spender", "Anna", "--tag", "gift"],
            [
                "schedule", "add", "Pocket money", "--rule", "weekly on sat", "--start", "2025-04-19", "--amount", "500", "--from", "Cash", "--to",
                "Piggy bank", "--calendar", "none",
            ],
            ["budget", "set", "Books", "3000"],
            ["due", "add", "bill", "--total", "1500", "--due", "2025-05-01", "--reason", "Water"],
            ["card", "add", "Halva", "--limit", "50000", "--statement-day", "20", "--due-day", "10", "--pay-from", "VTB Debit"],
            ["deposit", "add", "Tinkoff deposit", "--rate", "15", "--opened", "2025-04-15", "--capitalisation", "monthly"],
            ["loan", "add", "Sofa loan", "--principal", "60000", "--rate", "0", "--term", "6", "--start", "2025-04-15", "--pay-from", "VTB Debit"],
            ["calendar", "add-holiday", "RU", "2025-06-13", "--name", "Company day off"],
        ] {
            cli.ok(today + args)
        }
        try Self.exportThenImportChangesNothing(cli)
    }

    @Test func aGeneratedLedgerComesBackAsNothingNew() throws {
        let cli = try CLI()
        let file = cli.path("generated.yaml")
        cli.ok(["sample", "generate", "--rules", "40", "--years", "2", "--out", file])
        cli.ok(["import", file])
        try Self.exportThenImportChangesNothing(cli)
    }

    /// Exports the database, imports the export into it: "nothing new", every row as it was, and
    /// the same export again.
    static func exportThenImportChangesNothing(_ cli: CLI, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for format in ["yaml", "json"] {
            let file = cli.path("export.\(format)")
            cli.ok(["export", "--format", format, "--out", file, "--force"], sourceLocation: sourceLocation)
            let before = cli.state()
            let summary = cli.ok(["import", file], sourceLocation: sourceLocation)
            #expect(summary.contains(": nothing new ("), "\(format): \(summary)", sourceLocation: sourceLocation)
            #expect(cli.state() == before, "\(format): the import changed the database", sourceLocation: sourceLocation)
            #expect(
                cli.ok(["export", "--format", format], sourceLocation: sourceLocation)
                    == (try String(contentsOfFile: file, encoding: .utf8)), sourceLocation: sourceLocation)
        }
    }
}
