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
