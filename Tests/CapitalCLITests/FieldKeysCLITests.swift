import CapitalCore
import CapitalKit
import CapitalStore
import Testing

@testable import capital

/// The command line spells the field keys and remedies of the layers below it in one table.
@Suite("CLI: field keys spelled as flags")
struct FieldKeysCLITests {
    @Test(
        "a key is its flag in kebab case, but for the few the table names",
        arguments: [
            ("moveTo", "--move-to"), ("statementDay", "--statement-day"), ("limit", "--limit"), ("database", "--db"), ("file", "-f"),
            ("scheduleName", "--name"), ("toCapital", "--to-capital"),
        ])
    func flags(key: String, flag: String) {
        #expect(Flags.flag(key) == flag)
    }

    @Test("a use case's fields are the flags of their keys, but for the ones a command names its own way")
    func kitFields() {
        let expected: [KitError.Field: String] = [
            .until: "--until", .days: "--days", .level: "--level", .allLevels: "--all-levels", .on: "--on", .account: "--account", .group: "--group",
            .from: "--from", .to: "--to", .amount: "AMOUNT", .period: "--by", .reminderDays: "--days", .month: "--month", .scenarioFile: "FILE",
        ]
        #expect(Set(expected.keys) == Set(KitError.Field.allCases))
        for (field, flag) in expected { #expect(field.flag == flag, "\(field)") }
    }

    @Test("a store error's keys become flags and its remedy a command")
    func storeErrorsInTheCommandLinesWords() {
        #expect(
            Flags.message(.accountHasPostings(name: "Cash", count: 2))
                == "account 'Cash': it has 2 postings; choose --move-to ACCOUNT, --to-capital, --hide, or --cascade (deletes its transactions)")
        #expect(
            Flags.message(.notFound(what: "schedule", reference: "Rent", hint: .list("schedule")))
                == "schedule 'Rent': not found; see `capital schedule list`")
        #expect(
            Flags.message(.notInitialized(path: "/x.sqlite"))
                == "--db /x.sqlite: no ledger here yet; run `capital init` (or `capital import FILE`) first")
        // Below the command line the same error names no flag and no command.
        #expect(StoreError.notInitialized(path: "/x.sqlite").description == "database /x.sqlite: no ledger here yet; create or import a ledger first")
    }

    @Test("what a person typed is never read as a key, in the command line's words or below")
    func typedBracesStayAsTyped() throws {
        let error = StoreError.notFound(what: "account", reference: "{hide}", hint: .list("account"))
        #expect(Flags.message(error) == "account '{hide}': not found; see `capital account list`")
        #expect(error.description == "account '{hide}': not found; the account listing shows them")
        let cli = try CLITemplate.initialized.copy()
        cli.fails(["account", "show", "{moveTo}"], mentioning: ["account '{moveTo}'", "not found"])
        cli.fails(
            ["card", "add", "{limit}", "--limit", "0", "--statement-day", "5", "--due-day", "25", "--pay-from", "VTB Debit"],
            mentioning: ["--limit '0.00'", "must be more than 0"])
    }
}
