import Foundation
import Testing

@testable import capital

/// Issue 51, item 18: completion offers what each argument takes, read from the ledger — the
/// names of loans, cards and deposits, the bills still to pay, the open expected flows, the
/// calendars, expense or income categories only, and only the formats a command writes.
@Suite("CLI: completion from the ledger, per argument")
struct LedgerCompletionTests {
    /// What the completion script gets for `argument` of `command` with `words` typed, as bash asks
    /// it: a process of its own with `SAP_SHELL=bash` (see `CompletionTests`).
    static func complete(_ cli: CLI, _ command: [String], _ argument: String, _ words: [String]) -> [String] {
        let result = cli.runProcess(
            ["---completion"] + command + ["--", argument, String(words.count - 1), String(words.last!.count)] + words,
            env: ["SAP_SHELL": "bash"])
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func showAndRemoveOfferTheNamesOfThatKindOnly() throws {
        let cli = try CLI.household()
        #expect(Self.complete(cli, ["loan", "show"], "positional@0", ["capital", "loan", "show", ""]) == ["Car Loan", "Mortgage", "VTB Loan"])
        #expect(Self.complete(cli, ["loan", "show"], "positional@0", ["capital", "loan", "show", "m"]) == ["Mortgage"])
        #expect(Self.complete(cli, ["card", "show"], "positional@0", ["capital", "card", "show", ""]) == ["Tinkoff Card"])
        #expect(Self.complete(cli, ["deposit", "show"], "positional@0", ["capital", "deposit", "show", ""]) == ["Sber Deposit"])
        #expect(Self.complete(cli, ["loan", "rm"], "positional@0", ["capital", "loan", "rm", "V"]) == ["VTB Loan"])
        // A removed loan is no longer offered; its account stays an account.
        cli.ok(["loan", "rm", "VTB Loan"])
        #expect(Self.complete(cli, ["loan", "show"], "positional@0", ["capital", "loan", "show", ""]) == ["Car Loan", "Mortgage"])
        // From a ledger file on the line.
        #expect(
            Self.complete(cli, ["card", "show"], "positional@0", ["capital", "-f", "samples/household.yaml", "card", "show", "t"])
                == ["Tinkoff Card"])
    }

    @Test func duePayOffersTheBillsAndFinesNotPaidInFull() throws {
        let cli = try CLI.household()
        let listed = try cli.rows(["due", "list", "--format", "json"]).compactMap { ($0["id"] as? Int).map(String.init) }
        let offered = Self.complete(cli, ["due", "pay"], "positional@0", ["capital", "due", "pay", ""])
        // The sample's internet bill (number 3) is paid: it is not offered.
        #expect(Set(offered) == ["1", "2", "4", "5"], "\(offered)")
        #expect(offered == listed, "in due list's order")
        cli.ok(["due", "pay", "2", "8200", "--today", "2025-04-01"])
        #expect(Set(Self.complete(cli, ["due", "pay"], "positional@0", ["capital", "due", "pay", ""])) == ["1", "4", "5"])
    }

    @Test func expectedSkipOffersTheOpenFlowsItCanSkip() throws {
        let cli = try CLI.household()
        let day = ["--today", "2025-04-01"]
        func offered(_ prefix: String = "") -> [String] {
            Self.complete(cli, ["expected", "skip"], "positional@0", ["capital"] + day + ["expected", "skip", prefix])
        }
        let all = offered()
        #expect(all.contains("Salary Ivan@2025-04-25") && all.contains("Mortgage@2025-04-05"), "\(all)")
        // Bills and fines are paid, not skipped; what is not open is not offered.
        let open = try cli.rows(["expected", "list", "--open", "--format", "json"] + day)
        let dues = Set(open.filter { $0["kind"] as? String == "due" }.compactMap { $0["ref"] as? String })
        #expect(!dues.isEmpty && dues.isDisjoint(with: all), "\(dues)")
        #expect(offered("salary ivan@") == all.filter { $0.hasPrefix("Salary Ivan@") } && offered("salary ivan@").count >= 1)
        cli.ok(["expected", "skip", "Salary Ivan@2025-04-25"] + day)
        #expect(!offered("Salary").contains("Salary Ivan@2025-04-25"))
        // Every one offered is one skip takes.
        for reference in offered("Mortgage") { cli.ok(["expected", "skip", reference] + day) }
    }

    /// A fixed list: the script holds it and offers it without asking capital.
    @Test func calendarUseOffersTheCalendars() throws {
        let bash = try CLI().ok(["--generate-completion-script", "bash"])
        for command in ["use", "add-holiday", "add-workday"] {
            let start = try #require(bash.range(of: "\n_capital_calendar_\(command)() {\n"), "\(command)")
            let end = try #require(bash[start.upperBound...].range(of: "\n}\n"))
            #expect(bash[start.upperBound..<end.lowerBound].contains("-W 'RU'$'\\n''US'$'\\n''none'"), "calendar \(command)")
        }
    }

    @Test func spendOffersExpenseCategoriesAndEarnIncomeOnes() throws {
        let cli = try CLI.household()
        let spend = Self.complete(cli, ["spend"], "positional@1", ["capital", "spend", "100", ""])
        #expect(spend.contains("Groceries") && spend.contains("Fines") && !spend.contains("Salary") && !spend.contains("Interest"), "\(spend)")
        #expect(!spend.contains("VTB Debit"), "accounts are not categories")
        #expect(Self.complete(cli, ["spend"], "positional@1", ["capital", "spend", "100", "in"]) == ["Insurance"])
        #expect(Self.complete(cli, ["earn"], "positional@1", ["capital", "earn", "100", ""]) == ["Interest", "Other income", "Salary"])
        #expect(Self.complete(cli, ["budget", "set"], "positional@0", ["capital", "budget", "set", "s"]) == ["Sport"])
    }

    @Test(arguments: [
        (["balance"], ["table", "json", "csv"]),
        (["loan", "show"], ["table", "json", "csv"]),
        (["export"], ["yaml", "json", "csv", "journal"]),
        (["sample", "generate"], ["yaml", "json"]),
        (["report"], []),
    ])
    func formatOffersWhatTheCommandWrites(command: [String], formats: [String]) throws {
        let cli = try CLI()
        #expect(Self.complete(cli, command, "--format", ["capital"] + command + ["--format", ""]) == formats)
        // With a global option before the command too.
        #expect(
            Self.complete(cli, command, "--format", ["capital", "--today", "2025-04-01"] + command + ["--format", "j"])
                == formats.filter { $0.hasPrefix("j") })
    }

    /// What the completion reads of the words: the command they name.
    @Test func theWordsNameTheCommand() {
        func named(_ words: [String]) -> ObjectIdentifier { ObjectIdentifier(Capital.command(named: words)) }
        #expect(named(["capital", "-f", "x.yaml", "loan", "show", "Mortgage"]) == ObjectIdentifier(Capital.LoanCommand.Show.self))
        #expect(named(["capital", "--format", ""]) == ObjectIdentifier(Capital.self))
        #expect(named(["capital", "export", "--format", "show"]) == ObjectIdentifier(Capital.Export.self))
    }
}
