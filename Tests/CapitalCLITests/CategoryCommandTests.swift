import Foundation
import Testing

/// `capital category`: categories with a colour and an icon, and how tables show them.
@Suite("CLI: category")
struct CategoryCommandTests {
    @Test func addIsAnExpenseUnlessIncomeAndListShowsKindIconAndColour() throws {
        let cli = try CLI.initialized()
        #expect(cli.ok(["category", "add", "Pets", "--icon", "🐈", "--color", "Bright-Magenta"]).hasPrefix("Added expense category 'Pets' ("))
        #expect(cli.ok(["category", "add", "Bonus", "--income", "--color", "#00AA00"]).hasPrefix("Added income category 'Bonus' ("))
        cli.ok(["category", "add", "Toys", "--expense"])
        let rows = try cli.rows(["category", "list"])
        // init's 15 categories and the three new ones; no balance-sheet account.
        #expect(rows.count == 18)
        #expect(rows.allSatisfy { ["income", "expense"].contains($0.string("kind")) })
        let pets = try #require(rows.first { $0.string("name") == "Pets" })
        #expect(pets.string("kind") == "expense" && pets.string("icon") == "🐈" && pets.string("color") == "bright-magenta")
        let bonus = try #require(rows.first { $0.string("name") == "Bonus" })
        #expect(bonus.string("kind") == "income" && bonus["icon"] is NSNull && bonus.string("color") == "#00aa00")
        #expect(try cli.rows(["category", "list", "--kind", "income"]).map { $0.string("name") } == ["Salary", "Other income", "Bonus"])
        #expect(try cli.rows(["category", "list", "--kind", "expense"]).count == 15)
    }

    @Test func thisMonthRunsFromTheFirstToTodayAndCountsEarningsPositive() throws {
        let cli = try CLI.initialized()
        cli.ok(["spend", "1000", "Groceries", "--on", "2025-03-31"])  // last month
        cli.ok(["spend", "250.50", "Groceries", "--on", "2025-04-01"])
        cli.ok(["spend", "99.50", "Groceries", "--on", "2025-04-10"])
        cli.ok(["spend", "70", "Groceries", "--on", "2025-04-11"])  // after today
        cli.ok(["earn", "150000", "Salary", "--on", "2025-04-05"])
        cli.ok(["tx", "add", "--on", "2025-04-06", "--payee", "refund", "--posting", "Groceries=-20", "--posting", "VTB Debit"])
        let rows = try cli.rows(["--today", "2025-04-10", "category", "list"])
        let total = { (name: String) in rows.first { $0.string("name") == name }?.string("thisMonth") }
        #expect(total("Groceries") == "330.00")  // 250.50 + 99.50 − 20
        #expect(total("Salary") == "150000.00")
        #expect(total("Kids") == "0.00")
    }

    @Test func theTableShowsTheIconBeforeTheNameAndKeepsColumnsAligned() throws {
        let cli = try CLI.initialized()
        cli.ok(["category", "add", "Bonus", "--income", "--icon", "🎁", "--color", "green"])
        cli.ok(["earn", "5000", "Bonus", "--on", "2025-04-02"])
        // An emoji takes two terminal columns: "🎁 Bonus" is 8 wide, padded to "Other income"'s 12.
        let expected = """
            Name          Kind    Colour  This month  Cur
            ────────────  ──────  ──────  ──────────  ───
            Salary        income                0.00  RUB
            Other income  income                0.00  RUB
            🎁 Bonus      income  green     5 000.00  RUB

            """
        #expect(cli.ok(["--today", "2025-04-30", "category", "list", "--kind", "income"]) == expected)
    }

    @Test func editRenamesRecoloursAndClearsWithAnEmptyValue() throws {
        let cli = try CLI.initialized()
        cli.ok(["category", "edit", "Groceries", "--icon", "🛒", "--color", "green"])
        #expect(cli.ok(["category", "edit", "groceries", "--name", "Food"]).hasPrefix("Updated expense category 'Food' ("))
        var food = try #require(try cli.rows(["category", "list"]).first { $0.string("name") == "Food" })
        #expect(food.string("icon") == "🛒" && food.string("color") == "green")
        cli.ok(["category", "edit", "Food", "--icon", ""])
        food = try #require(try cli.rows(["category", "list"]).first { $0.string("name") == "Food" })
        #expect(food["icon"] is NSNull && food.string("color") == "green")
        cli.ok(["category", "edit", "Food", "--color", ""])
        food = try #require(try cli.rows(["category", "list"]).first { $0.string("name") == "Food" })
        #expect(food["color"] is NSNull)
    }

    @Test func rmRemovesAnUnusedCategory() throws {
        let cli = try CLI.initialized()
        #expect(cli.ok(["category", "rm", "Gifts"]) == "Removed expense category 'Gifts'.\n")
        #expect(!(try cli.rows(["account", "list", "--all"]).contains { $0.string("name") == "Gifts" }))
    }

    @Test func accountCommandsTakeAndShowTheLookToo() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "Wallet", "--kind", "cash", "--icon", "👛", "--color", "yellow"])
        let show = try #require(try cli.json(["account", "show", "Wallet"]) as? [String: Any])
        #expect(show.string("name") == "Wallet" && show.string("icon") == "👛" && show.string("color") == "yellow")
        let table = cli.ok(["account", "show", "Wallet"])
        #expect(table.contains("Name:") && table.contains("👛 Wallet\n") && table.contains("Colour:") && table.contains("yellow\n"))
        cli.ok(["account", "edit", "Wallet", "--color", ""])
        let listed = try #require(try cli.rows(["account", "list"]).first { $0.string("name") == "Wallet" })
        #expect(listed.string("icon") == "👛" && listed["color"] is NSNull)
        #expect(cli.ok(["account", "list", "--kind", "cash"]).contains("👛 Wallet"))
    }

    @Test func listingsThatNameCategoriesShowTheirIcons() throws {
        let cli = try CLI.initialized()
        cli.ok(["category", "edit", "Groceries", "--icon", "🛒"])
        cli.ok(["spend", "500", "Groceries", "--on", "2025-01-05"])
        #expect(cli.ok(["tx", "list"]).contains("🛒 Groceries"))
        #expect(cli.ok(["balance", "--all", "--on", "2025-01-31"]).contains("🛒 Groceries"))
        // JSON and CSV keep the bare name.
        #expect(try cli.rows(["tx", "list"]).first?["to"] as? [String] == ["Groceries"])
        #expect(cli.ok(["tx", "list", "--format", "csv"]).contains(",Groceries,"))
    }

    @Test func importExportKeepsTheLook() throws {
        let cli = try CLI.initialized()
        cli.ok(["category", "edit", "Groceries", "--icon", "🛒", "--color", "#00ff00"])
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("  - name: Groceries\n    kind: expense\n    icon: 🛒\n    color: \"#00ff00\"\n"))
        let fromFile = try #require(try cli.rows(["-f", file, "category", "list"]).first { $0.string("name") == "Groceries" })
        #expect(fromFile.string("icon") == "🛒" && fromFile.string("color") == "#00ff00")
        let other = cli.path("other.sqlite")
        cli.ok(["--db", other, "import", file])
        #expect(cli.ok(["--db", other, "export"]) == text)
    }

    // MARK: colour on a terminal

    /// Runs `capital ARGS` under `script` (a pseudo-terminal) and returns what it printed.
    func onATerminal(_ cli: CLI, _ args: [String], noColor: Bool, noColorValue: String? = nil) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        let typescript = cli.path("typescript-\(UUID().uuidString)")
        let command = ([CLI.executable, "--db", cli.db] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-q", "-c", command, typescript]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = noColorValue ?? (noColor ? "1" : nil)
        environment["TERM"] = "xterm"
        script.environment = environment
        script.standardInput = FileHandle.nullDevice
        script.standardOutput = FileHandle.nullDevice
        script.standardError = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        return String(decoding: FileManager.default.contents(atPath: typescript) ?? Data(), as: UTF8.self)
    }

    @Test func onATerminalTheNameIsInItsColourUnlessNO_COLOR() throws {
        let cli = try CLI.initialized()
        cli.ok(["category", "edit", "Groceries", "--icon", "🛒", "--color", "#ff8000"])
        cli.ok(["category", "edit", "Kids", "--color", "bright-blue"])
        cli.ok(["category", "edit", "Health", "--color", "red"])
        guard let colored = try onATerminal(cli, ["category", "list"], noColor: false) else { return }
        // 24-bit for #rrggbb, 90–97 for bright colours, 30–37 for the base ones; the icon stays outside.
        #expect(colored.contains("🛒 \u{1B}[38;2;255;128;0mGroceries\u{1B}[0m"), "\(colored)")
        #expect(colored.contains("\u{1B}[94mKids\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[31mHealth\u{1B}[0m"))
        let plain = try #require(try onATerminal(cli, ["category", "list"], noColor: true))
        #expect(plain.contains("🛒 Groceries") && !plain.contains("\u{1B}["), "\(plain)")
        // An empty NO_COLOR is no NO_COLOR (no-color.org): the colours stay.
        let empty = try #require(try onATerminal(cli, ["category", "list"], noColor: false, noColorValue: ""))
        #expect(empty.contains("\u{1B}[94mKids\u{1B}[0m"), "\(empty)")
        // Not a terminal: no colour whatever the environment says.
        #expect(!cli.ok(["category", "list"], env: ["NO_COLOR": ""]).contains("\u{1B}["))
    }

    // MARK: bad input

    static let badCommands: [(args: [String], mentions: [String])] = [
        (["category", "add", "Toys", "--color", "purpleish"], ["--color 'purpleish'", "not a colour"]),
        (["category", "add", "Toys", "--color", "#12345"], ["--color '#12345'", "six hex digits"]),
        (["category", "add", "Toys", "--icon", "🧸🧸"], ["--icon '🧸🧸'", "exactly one character"]),
        (["category", "add", "Toys", "--icon", "x"], ["--icon 'x'", "non-ASCII"]),
        (["category", "add", "Toys", "--income", "--expense"], ["--income and --expense"]),
        (["category", "add", "groceries"], ["category 'groceries'", "taken by the expense category 'Groceries'"]),
        (["category", "add", "VTB Debit", "--income"], ["category 'VTB Debit'", "taken by the debit account 'VTB Debit'"]),
        (["category", "edit", "Groceries", "--color", "purpleish"], ["--color 'purpleish'"]),
        (["category", "edit", "Groceries", "--name", "Food", "--icon", "ab"], ["--icon 'ab'"]),
        (["category", "edit", "Groceries"], ["category 'Groceries'", "nothing to change"]),
        (["category", "edit", "VTB Debit", "--icon", "💳"], ["category 'VTB Debit'", "is a debit account, not a category"]),
        (["category", "rm", "VTB Debit"], ["category 'VTB Debit'", "is a debit account, not a category"]),
        (["category", "rm", "Nowhere"], ["'Nowhere'", "not found"]),
        (["category", "list", "--kind", "debit"], ["--kind 'debit'", "income or expense"]),
        (["account", "add", "Toys", "--kind", "expense", "--icon", "x"], ["--icon 'x'"]),
        (["account", "edit", "VTB Debit", "--color", "#GGGGGG"], ["--color '#GGGGGG'"]),
    ]

    @Test(arguments: badCommands)
    func badInputIsOneLineAndChangesNothing(args: [String], mentions: [String]) throws {
        let cli = try CLI.initialized()
        cli.fails(args, mentioning: mentions)
    }

    @Test func rmOfACategoryInUseSaysWhatUsesItAndChangesNothing() throws {
        let cli = try CLI.initialized()
        cli.ok(["spend", "500", "Groceries", "--on", "2025-01-05"])
        cli.ok(["spend", "200", "Groceries", "--on", "2025-01-06"])
        cli.ok([
            "schedule", "add", "Food box", "--rule", "monthly on 5", "--start", "2025-02-05", "--amount", "3000", "--from", "VTB Debit", "--to",
            "Groceries",
        ])
        cli.fails(
            ["category", "rm", "Groceries"], mentioning: ["category 'Groceries'", "in use", "2 postings", "schedule Food box", "--move-to", "--hide"])
    }

    @Test func rmOfALoansCategoryNamesTheLoans() throws {
        let cli = try CLI.household()
        cli.fails(["category", "rm", "Loan interest"], mentioning: ["category 'Loan interest'", "loan Mortgage", "loan VTB Loan", "loan Car Loan"])
        cli.fails(["account", "rm", "Card interest", "--to-capital"], mentioning: ["account 'Card interest'", "card Tinkoff Card", "--hide"])
    }
}
