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
            .category: "--category", .min: "--min", .max: "--max", .kind: "--kind", .limit: "--limit", .after: "--after", .before: "--before",
            .statement: "STATEMENT", .rules: "--rules", .formatIn: "--format-in", .encoding: "--encoding", .ofxAccount: "--ofx-account",
            .rateFile: "FILE", .rate: "--rate", .ratesAhead: "--rates-ahead", .fxWindow: "--fx-window", .currency: "--currency", .paid: "--paid",
        ]
        #expect(Set(expected.keys) == Set(KitError.Field.allCases))
        for (field, flag) in expected { #expect(field.flag == flag, "\(field)") }
    }

    /// The commands that give a field as an argument (or by another flag) name it so in errors;
    /// the inputs below them know only keys.
    @Test(
        "a command's own names for fields",
        arguments: [
            (["card", "add", "", "--pay-from", "VTB Debit", "--limit", "100", "--statement-day", "5", "--due-day", "25"], "NAME ''"),
            (["deposit", "add", "", "--rate", "5", "--opened", "2025-01-01"], "NAME ''"),
            (["budget", "set", "VTB Debit", "100", "--from", "2025-01-01"], "CATEGORY 'VTB Debit'"),
            (["budget", "set", "Groceries", "0", "--from", "2025-01-01"], "AMOUNT '0'"),
            (["due", "add", "bill", "--total", "100", "--due", "2025-04-01", "--reason", "x", "--from", "Groceries"], "--from 'Groceries'"),
        ])
    func commandsNameTheirArguments(args: [String], mention: String) throws {
        let cli = try CLI.initialized()
        cli.fails(args, mentioning: [mention])
        // The same keys spelled by any other command are flags again.
        #expect(Flags.flag("account") == "--account" && Flags.flag("payFrom") == "--pay-from")
    }

    @Test("a part of a record is named by its own field's flag")
    func partsAreTheirFieldsFlags() {
        #expect(Flags.spell("{prepayments.1.amount} '0': must be more than 0") == "--amount '0': must be more than 0")
        #expect(Flags.$names.withValue(["amount": "AMOUNT"]) { Flags.spell("{prepayments.0.amount} '0'") } == "AMOUNT '0'")
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
            mentioning: ["--limit '0'", "must be more than 0"])
        // Names quoted inside a reason stay as typed too.
        cli.ok(["group", "add", "{hide}", "--type", "cash-flow", "--account", "VTB Debit"])
        cli.fails(["group", "add-account", "{hide}", "VTB Debit"], mentioning: ["already in group '{hide}'"])
        cli.ok([
            "schedule", "add", "{toCapital}", "--rule", "monthly on 10", "--amount", "100", "--from", "VTB Debit", "--to", "Groceries", "--start",
            "2025-01-10",
        ])
        cli.fails(["account", "rm", "Groceries"], mentioning: ["schedules use it ({toCapital})", "--move-to"])
    }
}
