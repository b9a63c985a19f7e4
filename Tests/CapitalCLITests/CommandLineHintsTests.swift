import CapitalCore
import Foundation
import Testing

@testable import capital

/// Issue 17, friction on the walk: a mistyped command gets the nearest name, and a negative amount
/// the command that records money the other way — one line, exit 64, nothing changed.
@Suite("CLI: mistyped command lines")
struct CommandLineHintsTests {
    @Test(arguments: [
        (["balanse"], ["unknown command 'balanse'", "did you mean 'balance'?", "`capital help` lists them"]),
        (["help", "balanse"], ["unknown command 'balanse'", "did you mean 'balance'?"]),
        (["--today", "2025-04-01", "forcast", "--until", "2025-06"], ["unknown command 'forcast'", "did you mean 'forecast'?"]),
        (["account", "lsit"], ["unknown command 'account lsit'", "did you mean 'account list'?", "`capital help account` lists them"]),
        (["help", "tx", "shwo"], ["unknown command 'tx shwo'", "did you mean 'tx show'?"]),
        (["xyzzy"], ["unknown command 'xyzzy'", "`capital help` lists them"]),
        (["spend", "-100", "Groceries"], ["AMOUNT '-100'", "amounts are positive", "`capital earn 100 CATEGORY`"]),
        (["spend", "--from", "Cash", "-100", "Groceries"], ["AMOUNT '-100'", "amounts are positive"]),
        (["earn", "-5", "Salary"], ["AMOUNT '-5'", "`capital spend 5 CATEGORY`"]),
        (["transfer", "-5", "--from", "Cash", "--to", "VTB Debit"], ["AMOUNT '-5'", "swap --from and --to"]),
        (["budget", "set", "Groceries", "-1"], ["AMOUNT '-1'", "a budget's limit is positive", "`capital budget rm CATEGORY`"]),
        (["due", "pay", "1", "-100"], ["AMOUNT '-100'", "a payment is positive"]),
    ])
    func refusedInOneLineWithTheNearestCommand(args: [String], mentions: [String]) throws {
        let cli = try CLI.initialized()
        let result = cli.fails(args, mentioning: mentions)
        #expect(result.status == 64)
    }

    @Test func aNegativeValueOfAnOptionIsNotTheAmount() throws {
        let cli = try CLI.initialized()
        #expect(cli.ok(["spend", "100", "Groceries", "--note", "-5", "--today", "2025-04-01"]).hasPrefix("Spent 100.00 RUB"))
        #expect(cli.ok(["help", "balance"]).contains("End-of-day balances"))
    }

    @Test func theNearestNameIsWithinAThirdOfTheLettersOrBegunByTheWord() {
        let names = ["balance", "forecast", "can-spend", "when", "schedule", "scenario"]
        #expect(CommandLineHints.nearest("balanse", among: names) == "balance")
        #expect(CommandLineHints.nearest("sched", among: names) == "schedule")
        #expect(CommandLineHints.nearest("canspend", among: names) == "can-spend")
        #expect(CommandLineHints.nearest("wen", among: names) == "when")
        #expect(CommandLineHints.nearest("xyzzy", among: names) == nil)
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("", "abc") == 3 && editDistance("abc", "") == 3)
    }
}

/// Issue 17, friction: JSON and CSV carry data, not display text.
@Suite("CLI: data, not display text")
struct DataNotDisplayTests {
    static let sample = ["-f", "samples/household.yaml", "--today", "2025-04-01"]

    @Test func ratesAreDecimalsInJSONAndCSVAndPercentagesInTables() throws {
        let cli = try CLI()
        let loan = try #require(try cli.json(Self.sample + ["loan", "show", "Mortgage", "--format", "json"]) as? [String: Any])
        #expect(loan["rate"] as? String == "15")
        #expect(cli.ok(Self.sample + ["loan", "show", "Mortgage"]).contains("15%"))
        let deposits = try cli.rows(Self.sample + ["deposit", "list", "--format", "json"])
        #expect(deposits.allSatisfy { ($0["rate"] as? String).map { !$0.contains("%") && Double($0) != nil } == true }, "\(deposits)")
        #expect(cli.ok(Self.sample + ["card", "list", "--format", "csv"]).contains("%") == false)
    }

    @Test func aForecastInCSVSaysItsCurrencyOnEveryRow() throws {
        let cli = try CLI()
        let csv = cli.ok(Self.sample + ["forecast", "--until", "2025-06", "--format", "csv"])
        let lines = csv.split(whereSeparator: \.isNewline)
        // The sample's level 4 holds its euro card: what rates added is a column of its own; a
        // forecast level adds each period's exact answer.
        #expect(lines.first == "start,end,opening,inflow,outflow,revaluation,closing,min,minDay,canSpend,currency")
        #expect(lines.count == 4 && lines.dropFirst().allSatisfy { $0.hasSuffix(",RUB") }, "\(csv)")
        // JSON says it once, the table in its heading.
        let json = try #require(try cli.json(Self.sample + ["forecast", "--until", "2025-06", "--format", "json"]) as? [String: Any])
        #expect(json["currency"] as? String == "RUB")
        #expect(((json["periods"] as? [[String: Any]])?.first?["currency"]) == nil)
    }
}

/// Issue 17, friction: a 100 000-line CSV given to `import` printed 3.2 MB of error. An error about
/// a file is one line of at most 200 characters that still names the file and the line.
@Suite("CLI: long input, short errors")
struct LongInputTests {
    @Test func aCSVFileGivenToImportGetsOneShortLine() throws {
        let cli = try CLI()
        let file = cli.path("statement.csv")
        try ("date,amount,payee\n" + (0..<100_000).map { "2025-01-\(String(format: "%02d", $0 % 28 + 1)),\($0),shop \($0)" }.joined(separator: "\n"))
            .write(toFile: file, atomically: true, encoding: .utf8)
        for (args, mentions) in [
            (["import", file], ["statement.csv", "looks like a bank statement", "--account"]),
            (["-f", file, "balance"], ["statement.csv:1:", "expected a mapping"]),
        ] {
            let result = cli.fails(args, mentioning: mentions, unchanged: false)
            #expect(result.stderr.count <= 201 + file.count, "\(result.stderr.count) characters")
        }
        // Read as a ledger file anyway (its extension says statement, its first line is not YAML).
        let renamed = cli.path("statement.yaml")
        try FileManager.default.moveItem(atPath: file, toPath: renamed)
        let result = cli.fails(["import", renamed], mentioning: ["statement.yaml:1:", "expected a mapping"], unchanged: false)
        #expect(result.stderr.count <= 201, "\(result.stderr.count) characters")
    }

    @Test func aValueOfPagesIsNotRepeatedWhole() throws {
        let cli = try CLI()
        let file = cli.path("long.yaml")
        let long = String(repeating: "x", count: 100_000)
        try """
        capital: 1
        currency: RUB
        accounts:
          - {name: \(long), kind: cash}
        transactions:
          - {date: 2025-01-01, amount: 5, from: \(String(repeating: "z", count: 5_000)), to: \(long)}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        for args in [["import", file], ["-f", file, "balance"]] {
            // The 100 000-character name is refused first (over the 200-character limit), quoted short.
            let result = cli.fails(args, mentioning: ["long.yaml:4:", "accounts[0]", "more than"], unchanged: false)
            #expect(result.stderr.count <= 201, "\(result.stderr.count) characters")
        }
        // A store error quotes at most 60 characters of a value.
        let db = try CLI.initialized()
        let name = String(repeating: "q", count: 1_000)
        let result = db.fails(["spend", "5", name], mentioning: ["'" + String(repeating: "q", count: 59) + "…'"])
        #expect(result.stderr.count < 300, "\(result.stderr)")
    }
}

/// Issue 17, friction: a spend or a transfer that takes a cash or debit account below its floor is
/// recorded (it happened) and warned about on stderr.
@Suite("CLI: below the floor")
struct BelowFloorTests {
    @Test func aSpendBelowTheFloorIsRecordedWithAWarning() throws {
        let cli = try CLI.initialized()
        let day = ["--today", "2025-04-01"]
        cli.ok(["account", "edit", "VTB Debit", "--floor", "1000"] + day)
        cli.ok(["earn", "1500", "Salary"] + day)
        let above = cli.run(["spend", "400", "Groceries"] + day)
        #expect(above.status == 0 && above.stderr == "", "\(above)")
        let below = cli.run(["spend", "200", "Groceries"] + day)
        #expect(below.status == 0 && below.stdout.hasPrefix("Spent 200.00 RUB"), "\(below)")
        #expect(below.stderr == "capital: warning: VTB Debit is at 900.00 RUB on 2025-04-01, below its floor of 1 000.00\n", "\(below.stderr)")
        cli.ok(["account", "add", "Cash", "--kind", "cash"] + day)
        let transfer = cli.run(["transfer", "100", "--from", "VTB Debit", "--to", "Cash"] + day)
        #expect(transfer.status == 0 && transfer.stderr.contains("VTB Debit is at 800.00 RUB"), "\(transfer)")
        #expect(try cli.rows(["tx", "list", "--format", "json"]).count == 4)
        // Income into the account is no cause for a warning.
        #expect(cli.run(["earn", "10", "Salary"] + day).stderr == "")
    }
}

/// Issue 17, friction: a why whose days cross into another year gives each day its year.
@Suite("CLI: whys across a new year")
struct WhyYearTests {
    @Test func daysInAnotherYearAreWrittenWhole() throws {
        let cli = try CLI()
        let sample = ["-f", "samples/household.yaml"]
        // Seven months on, with everything due posted (else April's payments are overdue today).
        let household = try CLI.household()
        _ = household.ok(["--today", "2025-11-01", "post"])
        let november = household.ok(["--today", "2025-11-01", "can-spend", "--why"])
        #expect(november.contains("Tinkoff Card payback 430 000.00 on 2025-11-14, Tinkoff Card payback 77 500.00 on 2026-02-14"), "\(november)")
        let april = cli.ok(sample + ["--today", "2025-04-01", "can-spend", "--why"])
        let aprilWhy = try #require(april.split(separator: "\n").last { $0.hasPrefix("Why:") })
        #expect(aprilWhy.contains("on 05-15, ") && aprilWhy.contains("on 07-10 lifts it") && !aprilWhy.contains("74 500.00 on 2025-"), "\(april)")
        let object = try #require(
            try cli.json(
                sample + ["--today", "2025-11-01", "scenario", "try", "--price", "100000", "--on", "2025-12-20", "--why", "--format", "json"])
                as? [String: Any])
        let why = try #require(object["why"] as? String)
        #expect(why.contains(" on 2025-12-20") || why.contains(" on 2026-"), "\(why)")
    }
}

/// Issue 17, friction: counts take the singular for one.
@Suite("CLI: plurals")
struct PluralTests {
    @Test func oneOfAKindIsSingular() throws {
        let cli = try CLI()
        let file = cli.path("one.yaml")
        try """
        capital: 1
        currency: RUB
        accounts:
          - {name: Cash, kind: cash}
        transactions:
          - {date: 2025-01-01, amount: 5, from: Capital, to: Cash}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let summary = cli.ok(["import", file])
        #expect(summary.contains("1 account added") && summary.contains("1 transaction added") && summary.contains("0 groups added"), "\(summary)")
        #expect(cli.ok(["group", "add", "Pocket", "--type", "cash-flow", "--account", "Cash"]).contains("with 1 account."))
        let hidden = cli.ok(["account", "rm", "Cash", "--hide"])
        #expect(hidden.contains("(its 1 posting stays in the ledger)"), "\(hidden)")
    }

    @Test func aStatementOfOneLineSaysOneLine() throws {
        let cli = try CLI()
        cli.ok(["init", "--currency", "EUR"])
        cli.ok(["account", "add", "Giro", "--kind", "debit"])
        cli.ok(["spend", "5", "Groceries", "--from", "Giro", "--on", "2025-01-02"])
        try "2025-01-02,Shop,-5.00\n".write(toFile: cli.path("one.csv"), atomically: true, encoding: .utf8)
        try "fields date, description, amount\n".write(toFile: cli.path("one.csv.rules"), atomically: true, encoding: .utf8)
        let summary = cli.ok(["import", cli.path("one.csv"), "--account", "Giro", "--dry-run"])
        #expect(summary.contains("(csv, utf-8): 1 line; 0 new") && summary.contains("1 matching transaction entered by hand"), "\(summary)")
        let tested = cli.ok(["rules", "test", cli.path("one.csv.rules"), cli.path("one.csv")])
        #expect(tested.contains("1 line read by"), "\(tested)")
    }
}

/// Issue 17, friction: shell completion completes option values and the ledger's names.
@Suite("CLI: shell completion")
struct CompletionTests {
    @Test func scriptsListTheValuesOfFormatByAndKind() throws {
        let cli = try CLI()
        let bash = cli.ok(["--generate-completion-script", "bash"])
        // --format asks capital: what it offers depends on the command (`LedgerCompletionTests`).
        #expect(bash.contains("---completion balance -- --format"))
        #expect(bash.contains("'day'$'\\n''week'$'\\n''month'"))
        #expect(bash.contains("'income'$'\\n''expense'"))
        #expect(bash.contains("'cash'$'\\n''debit'"), "account kinds, from AccountKind's cases")
        for shell in ["zsh", "fish"] { #expect(!cli.ok(["--generate-completion-script", shell]).isEmpty) }
    }

    @Test func namesComeFromTheLedgerTheWordsPointAt() throws {
        let cli = try CLI.household()
        // As the bash script asks: a process of its own with `SAP_SHELL=bash`. In the test process
        // argument-parser's requesting shell is global state that a generated zsh script leaves
        // behind (zsh answers end with a " " pseudo-completion), so the answer would depend on
        // which test ran before.
        func complete(_ command: [String], _ argument: String, _ words: [String]) -> [String] {
            let result = cli.runProcess(
                ["---completion"] + command + ["--", argument, String(words.count - 1), String(words.last!.count)] + words,
                env: ["SAP_SHELL": "bash"])
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(complete(["account", "show"], "positional@0", ["capital", "account", "show", "VTB"]) == ["VTB Debit", "VTB Loan"])
        #expect(
            complete(["spend"], "--from", ["capital", "spend", "100", "Groceries", "--from", "ca"]) == [
                "Capital", "Car", "Car Loan", "Card interest", "Cash",
            ])
        #expect(complete(["budget", "set"], "positional@0", ["capital", "budget", "set", "gro"]) == ["Groceries"])
        #expect(complete(["group", "show"], "positional@0", ["capital", "group", "show", ""]) == ["Car", "Children", "Debts", "Everyday money"])
        // From a ledger file named on the line; nothing when there is no ledger.
        #expect(
            complete(["schedule", "show"], "positional@0", ["capital", "-f", "samples/household.yaml", "schedule", "show", "Sal"]).first
                == "Salary Anna")
        #expect(complete(["account", "show"], "positional@0", ["capital", "--db", cli.path("none.sqlite"), "account", "show", ""]) == [])
    }
}
