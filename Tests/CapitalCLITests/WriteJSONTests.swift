import Foundation
import Testing

/// Issue 17, friction: write commands honour `--format json` and return the record they wrote —
/// the same object their `show` command gives, id included — and a bad `--format` writes nothing.
@Suite("CLI: write commands in JSON")
struct WriteJSONTests {
    static let day = ["--today", "2025-04-15"]

    /// `args` with `--format json`: one JSON object, nothing on stderr.
    static func object(_ cli: CLI, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let result = cli.run(Self.day + args + ["--format", "json"])
        #expect(result.status == 0 && result.stderr == "", "\(args): \(result)", sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(args): \(result.stdout)",
            sourceLocation: sourceLocation)
    }

    @Test func everyWriteReturnsWhatItWrote() throws {
        let cli = try CLI.household()
        let spent = try Self.object(cli, ["spend", "1200", "Groceries", "--from", "Cash", "--payee", "Shop"])
        #expect(spent.string("payee") == "Shop" && (spent.string("id")?.count ?? 0) == 36)
        #expect((spent["postings"] as? [[String: Any]])?.count == 2)
        #expect(try Self.object(cli, ["tx", "show", spent.string("id")!]).string("id") == spent.string("id"))
        #expect(try Self.object(cli, ["earn", "100", "Salary"]).string("date") == "2025-04-15")
        #expect(try Self.object(cli, ["transfer", "100", "--from", "VTB Debit", "--to", "Cash"])["postings"] != nil)
        #expect(try Self.object(cli, ["tx", "add", "-p", "Groceries=5", "-p", "Cash"])["postings"] != nil)
        let account = try Self.object(cli, ["account", "add", "Piggy bank", "--kind", "cash", "--floor", "100"])
        #expect(account.string("name") == "Piggy bank" && account.string("floor") == "100.00" && account.string("id") != nil)
        #expect(try Self.object(cli, ["account", "edit", "Piggy bank", "--floor", "200"]).string("floor") == "200.00")
        #expect(try Self.object(cli, ["category", "add", "Books"]).string("kind") == "expense")
        let group = try Self.object(cli, ["group", "add", "Savings", "--type", "cash-flow", "--account", "Piggy bank"])
        #expect(group["accounts"] != nil && group.string("name") == "Savings" && group.string("type") == "cash-flow")
        #expect(try cli.rows(["group", "list"]).first { $0.string("name") == "Savings" }?.string("id") == group.string("id"), "\(group)")
        let schedule = try Self.object(
            cli,
            [
                "schedule", "add", "Pocket money", "--rule", "weekly on sat", "--start", "2025-04-19", "--amount", "500", "--from", "Cash", "--to",
                "Piggy bank",
            ])
        #expect(schedule.string("name") == "Pocket money" && (schedule["occurrences"] as? [Any])?.count == 10)
        // The budget counts from the month containing the day it was set, as `budget list` says.
        let budget = try Self.object(cli, ["budget", "set", "Books", "3000"])
        let listed = try #require(try cli.rows(["budget", "list"]).first { $0.string("category") == "Books" })
        #expect(budget.string("from") == "2025-04-01" && listed.string("from") == "2025-04-01" && budget.string("id") == listed.string("id"))
        #expect(budget["payFrom"] is NSNull && listed["payFrom"] is NSNull, "the default account: no name")
        let due = try Self.object(cli, ["due", "add", "bill", "--total", "1500", "--due", "2025-05-01", "--reason", "Water"])
        #expect(due.string("reason") == "Water" && due["payFrom"] is NSNull)
        #expect(try Self.object(cli, ["due", "pay", String(try #require(due["id"] as? Int)), "500"]).string("paid") == "500.00")
        #expect(
            try Self.object(cli, ["card", "add", "Halva", "--limit", "50000", "--statement-day", "20", "--due-day", "10", "--pay-from", "VTB Debit"])
                .string("id")?.count == 36)
        let deposit = try Self.object(cli, ["deposit", "add", "Tinkoff deposit", "--rate", "15", "--opened", "2025-04-15"])
        #expect(deposit.string("rate") == "15" && deposit.string("id")?.count == 36)
        #expect(
            try Self.object(
                cli,
                ["loan", "add", "Sofa", "--principal", "60000", "--rate", "0", "--term", "6", "--start", "2025-04-15", "--pay-from", "VTB Debit"]
            ).string("id")?.count == 36)
        #expect(try Self.object(cli, ["calendar", "add-holiday", "RU", "2025-06-13"]).string("kind") == "holiday")
        let removed = try Self.object(cli, ["tx", "rm", spent.string("id")!])
        #expect(removed.string("id") == spent.string("id"))
    }

    @Test func aBadFormatWritesNothing() throws {
        let cli = try CLI.household()
        cli.fails(Self.day + ["spend", "1200", "Groceries", "--format", "xml"], mentioning: ["--format 'xml'"])
        cli.fails(Self.day + ["account", "add", "Piggy bank", "--kind", "cash", "--format", "yaml"], mentioning: ["--format 'yaml'"])
    }
}

/// Removals in JSON: what was removed, by id.
@Suite("CLI: removals in JSON")
struct RemoveJSONTests {
    @Test func aRemovalSaysWhatItRemoved() throws {
        let cli = try CLI.household()
        let day = WriteJSONTests.day
        let added = try WriteJSONTests.object(cli, ["account", "add", "Old box", "--kind", "cash"])
        let removed = try WriteJSONTests.object(cli, ["account", "rm", "Old box"])
        #expect(removed.string("id") == added.string("id") && removed.string("name") == "Old box" && removed.string("postings") == "none")
        cli.ok(["account", "add", "Old tin", "--kind", "cash"])
        cli.ok(["transfer", "10", "--from", "Cash", "--to", "Old tin"] + day)
        let moved = try WriteJSONTests.object(cli, ["account", "rm", "Old tin", "--move-to", "VTB Debit"])
        #expect(moved.string("postings") == "moved" && moved.string("movedTo") == "VTB Debit", "\(moved)")
        let hidden = try WriteJSONTests.object(cli, ["account", "rm", "Cash", "--hide"])
        #expect(hidden["hidden"] as? Bool == true, "a hidden account is still there: its record")
        #expect(try WriteJSONTests.object(cli, ["category", "add", "Books"]).string("name") == "Books")
        #expect(try WriteJSONTests.object(cli, ["category", "rm", "Books"]).string("name") == "Books")
        #expect(try WriteJSONTests.object(cli, ["budget", "rm", "Groceries"]).string("category") == "Groceries")
        let skipped = try WriteJSONTests.object(cli, ["schedule", "skip", "Salary Anna", "--at", "2025-05-10"])
        #expect(skipped.string("name") == "Salary Anna")
        #expect(try WriteJSONTests.object(cli, ["schedule", "rm", "Salary Anna"]).string("name") == "Salary Anna")
        #expect(cli.run(day + ["schedule", "show", "Salary Anna"]).status != 0)
    }
}
