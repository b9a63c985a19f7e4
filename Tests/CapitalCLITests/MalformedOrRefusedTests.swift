import Foundation
import Testing

/// docs/cli.md "Errors": 64 for a malformed command line or value, 1 for a well-formed one the
/// command cannot act on — the same for every command that takes such a value.
@Suite("CLI: exit statuses, malformed or refused")
struct MalformedOrRefusedTests {
    @Test func aMalformedFlowReferenceIs64AndOneNamingNothingIs1() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-06"]
        let cases: [([String], Int32, String)] = [
            (
                ["transfer", "5", "--from", "Cash", "--to", "VTB Debit", "--settles", "Mortgage"], 64,
                "--settles 'Mortgage': expected NAME@YYYY-MM-DD"
            ),
            (["expected", "skip", "Mortgage"], 64, "REF 'Mortgage': expected NAME@YYYY-MM-DD"),
            (["expected", "reopen", "Mortgage@2025-13-01"], 64, "the day after '@' is not a date"),
            (["expected", "skip", "Nothing@2025-04-01"], 1, "no schedule, loan, deposit or budget is named 'Nothing'"),
            (["transfer", "5", "--from", "Cash", "--to", "VTB Debit", "--settles", "Mortgage@2025-04-06"], 1, "the nearest is Mortgage@2025-04-05"),
        ]
        for (args, status, message) in cases {
            let result = cli.fails(today + args, mentioning: [message])
            #expect(result.status == status, "\(args): \(result)")
        }
    }

    /// An amount that is not one is 64 wherever it is given — a quick entry, a posting, a due
    /// payment, a budget, a loan's principal — as the table says; a well-formed one refused is 1.
    @Test func anAmountThatIsNotOneIs64ForEveryCommand() throws {
        let cli = try CLI.household()
        let cases: [([String], Int32, String)] = [
            (["spend", "abc", "Groceries"], 64, "'abc' is not an amount"),
            (["tx", "add", "--posting", "Cash=abc", "--posting", "Groceries"], 64, "--posting 'Cash=abc': 'abc' is not an amount"),
            (["due", "pay", "1", "abc"], 64, "AMOUNT: 'abc' is not an amount"),
            (["budget", "set", "Groceries", "abc"], 64, "AMOUNT: 'abc' is not an amount"),
            (
                ["loan", "add", "X", "--principal", "abc", "--rate", "5", "--term", "12", "--start", "2025-01-01", "--pay-from", "Cash"], 64,
                "--principal: 'abc' is not an amount"
            ),
            (["budget", "set", "Groceries", "0"], 64, "AMOUNT '0': must be more than 0"),
        ]
        for (args, status, message) in cases {
            let result = cli.fails(args, mentioning: [message])
            #expect(result.status == status, "\(args): \(result)")
        }
        // In a ledger file it is the file's error, named by line: 1, as a bad date there is.
        let file = cli.path("bad.yaml")
        for entry in [
            "transactions:\n  - {date: 2025-01-01, amount: \"12,34.5\", from: Capital, to: Cash}",
            "loans:\n  - {account: Boat loan, principal: \"12,34.5\", rate: 10, term: 12, start: 2025-01-01, payFrom: Cash}",
        ] {
            try "capital: 1\ncurrency: RUB\naccounts:\n  - {name: Cash, kind: cash}\n\(entry)\n".write(
                toFile: file, atomically: true, encoding: .utf8)
            for args in [["-f", file, "balance"], ["import", file]] {
                let result = cli.fails(args, mentioning: ["bad.yaml:6:", "'12,34.5' is not an amount"], unchanged: args[0] == "import")
                #expect(result.status == 1, "\(args): \(result)")
            }
        }
    }

    /// Issue 51, item 16: a value never valid wherever it is given exits 64, quoted as typed; a
    /// name already taken is well-formed and exits 1, for a category as for an account.
    @Test func aMalformedValueIs64AndANameTakenIs1() throws {
        let cli = try CLI.household()
        let cases: [([String], Int32, String)] = [
            (
                [
                    "schedule", "add", "X", "--rule", "monthly on 1", "--amount", "5", "--from", "Cash", "--to", "Groceries", "--start", "2025-01-01",
                    "--count", "0",
                ],
                64, "--count '0': must be at least 1"
            ),
            (
                ["loan", "add", "Boat", "--principal", "1000", "--rate", "-1", "--term", "12", "--start", "2025-01-01", "--pay-from", "Cash"], 64,
                "--rate '-1': a rate cannot be negative"
            ),
            (["account", "add", "Y", "--kind", "cash", "--level", "7"], 64, "--level '7'"),
            (["account", "add", "Y", "--kind", "cash", "--icon", "ab"], 64, "--icon 'ab'"),
            (
                ["card", "add", "Z", "--limit=-5", "--statement-day", "5", "--due-day", "25", "--pay-from", "Cash"], 64,
                "--limit '-5': must be more than 0"
            ),
            (["due", "pay", "1", "0"], 64, "AMOUNT '0': must be more than 0"),
            (["category", "add", "Cash"], 1, "the name is taken by the cash account 'Cash'"),
            (["account", "add", "Groceries", "--kind", "cash"], 1, "the name is already taken"),
        ]
        for (args, status, message) in cases {
            let result = cli.fails(args, mentioning: [message])
            #expect(result.status == status, "\(args): \(result)")
        }
    }

    /// A file in the way stops `export --out`, `sample generate --out` and `backup` alike: exit 1.
    @Test func aFileInTheWayIs1ForEveryCommandThatWritesOne() throws {
        let cli = try CLI.household()
        let file = cli.path("there.yaml")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        for args in [["export", "--out", file], ["sample", "generate", "--rules", "1", "--years", "1", "--out", file], ["backup", file]] {
            let result = cli.fails(args, mentioning: [file, "exists"])
            #expect(result.status == 1, "\(args): \(result)")
        }
        let folder = cli.path("")
        for args in [["export", "--out", folder], ["backup", folder]] {
            #expect(cli.run(args).status == 1, "\(args)")
        }
    }
}
