import Foundation
import Testing

/// The good paths of every command of issue 2, run through the real binary.
@Suite("CLI: commands")
struct CommandTests {
    // MARK: init and where the database lives

    @Test func initCreatesAPrivateDatabaseWithCapitalAndTheDefaultCategories() throws {
        let cli = try CLI()
        let output = cli.ok(["init"])
        #expect(output.contains("Created a RUB ledger at \(cli.db) with 15 categories."))
        let mode = try FileManager.default.attributesOfItem(atPath: cli.db)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let accounts = try cli.rows(["account", "list"])
        #expect(accounts.count == 16)
        #expect(accounts.first?.string("name") == "Capital")
        #expect(accounts.first?.string("kind") == "equity")
        #expect(accounts.filter { $0.string("kind") == "expense" }.count == 13)
        #expect(accounts.filter { $0.string("kind") == "income" }.count == 2)
        #expect(try cli.rows(["account", "list", "--categories"]).count == 15)
    }

    @Test func initTakesACurrency() throws {
        let cli = try CLI()
        cli.ok(["init", "--currency", "eur"])
        cli.ok(["account", "add", "Wallet", "--kind", "cash"])
        let wallet = try #require(try cli.rows(["account", "list", "--kind", "cash"]).first)
        #expect(wallet.string("currency") == "EUR")
    }

    @Test func dbOptionWinsOverTheEnvironment() throws {
        let cli = try CLI()
        let other = cli.path("nested/folder/other.sqlite")
        cli.ok(["init", "--db", other])
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test func withoutCAPITAL_DBTheDatabaseGoesUnderXDG_DATA_HOME() throws {
        let cli = try CLI()
        let xdg = cli.path("xdg-data")
        cli.ok(["init"], env: ["CAPITAL_DB": "", "XDG_DATA_HOME": xdg])
        #expect(FileManager.default.fileExists(atPath: xdg + "/capital/capital.sqlite"))
    }

    @Test func withoutCAPITAL_DBOrXDG_DATA_HOMETheDatabaseGoesUnderHome() throws {
        let cli = try CLI()
        cli.ok(["init"], env: ["CAPITAL_DB": "", "XDG_DATA_HOME": ""])
        #expect(FileManager.default.fileExists(atPath: cli.path(".local/share/capital/capital.sqlite")))
    }

    @Test func globalOptionsGoBeforeOrAfterTheCommand() throws {
        let cli = try CLI.household()
        let before = cli.ok(["--format", "json", "--hide-amounts", "balance", "--on", "2025-02-28"])
        let after = cli.ok(["balance", "--on", "2025-02-28", "--format", "json", "--hide-amounts"])
        #expect(before == after)
        #expect(before.contains("\"balance\""))
    }

    // MARK: accounts

    @Test func accountAddListShowAndEdit() throws {
        let cli = try CLI.initialized(withDebit: false)
        #expect(
            cli.ok(["account", "add", "VTB Debit", "--kind", "debit", "--floor", "10 000", "--level", "2", "--note", "salary card", "--default"])
                .hasPrefix("Added debit account 'VTB Debit' ("))
        cli.ok(["group", "add", "Everyday money", "--type", "cash-flow"])
        cli.ok(["account", "add", "Cash", "--kind", "cash", "--group", "Everyday money"])
        cli.ok(["account", "add", "Dollars", "--kind", "cash", "--currency", "USD"])

        let debit = try #require(try cli.rows(["account", "list", "--kind", "debit"]).first)
        #expect(debit.string("floor") == "10000.00")
        #expect(debit["level"] as? Int == 2)
        #expect(debit["default"] as? Bool == true)
        let id = try #require(debit.string("id"))
        #expect(UUID(uuidString: id) != nil)

        // By name (any case) and by id prefix, the same account.
        let byName = try #require(try cli.json(["account", "show", "vtb debit"]) as? [String: Any])
        let byPrefix = try #require(try cli.json(["account", "show", String(id.prefix(6))]) as? [String: Any])
        #expect(byName.string("id") == id && byPrefix.string("id") == id)
        #expect(byName.string("note") == "salary card")
        #expect(byName.string("balance") == "0.00")

        let cash = try #require(try cli.json(["account", "show", "Cash"]) as? [String: Any])
        #expect(cash["groups"] as? [String] == ["Everyday money"])
        #expect(try cli.rows(["account", "list", "--kind", "cash"]).compactMap { $0.string("currency") } == ["RUB", "USD"])

        cli.ok(["account", "edit", String(id.prefix(8)), "--name", "VTB Main", "--floor", "", "--level", "", "--note", "main"])
        let edited = try #require(try cli.json(["account", "show", "VTB Main"]) as? [String: Any])
        #expect(edited.string("id") == id)
        #expect(edited["floor"] is NSNull && edited["level"] is NSNull)
        #expect(edited.string("note") == "main")

        cli.ok(["account", "edit", "Cash", "--hide"])
        #expect(!(try cli.rows(["account", "list"]).contains { $0.string("name") == "Cash" }))
        #expect(try cli.rows(["account", "list", "--all"]).contains { $0.string("name") == "Cash" && $0["hidden"] as? Bool == true })
        cli.ok(["account", "edit", "Cash", "--unhide", "--default"])
        #expect(try cli.rows(["account", "list"]).first { $0.string("name") == "Cash" }?["default"] as? Bool == true)
    }

    @Test func accountListTableShowsShortIdsAndGroupedAmounts() throws {
        let cli = try CLI.household()
        let table = cli.ok(["account", "list", "--kind", "debit", "--today", "2025-03-31"])
        let lines = table.split(separator: "\n")
        #expect(lines.count == 4)  // the header, its rule, VTB Debit and the euro card
        #expect(lines[0].hasPrefix("ID "))
        #expect(lines[2].contains("VTB Debit") && lines[2].contains("354 919.31") && lines[2].contains("20 000.00"))
        #expect(lines[3].contains("Euro Card") && lines[3].contains("EUR") && lines[3].contains("107.90"))
        let shortID = try #require(lines[2].split(separator: " ").first)
        #expect(shortID.count == 8 && shortID.allSatisfy(\.isHexDigit))
    }

    struct Removal: Sendable, CustomTestStringConvertible {
        var args: [String]
        var testDescription: String { args.isEmpty ? "(plain)" : args.joined(separator: " ") }
        /// Balances afterwards with --all; nil: not listed.
        var balances: [String: String?]
        var transactions: Int
    }

    /// Debit pays 500 for groceries and moves 1 000 to Cash.
    static func twoPostings() throws -> CLI {
        let cli = try CLI.initialized(withDebit: false)
        cli.ok(["account", "add", "Debit", "--kind", "debit", "--default"])
        cli.ok(["account", "add", "Cash", "--kind", "cash"])
        cli.ok(["spend", "500", "Groceries", "--on", "2025-01-05"])
        cli.ok(["transfer", "1000", "--from", "Debit", "--to", "Cash", "--on", "2025-01-06"])
        return cli
    }

    @Test(arguments: [
        Removal(
            args: ["--move-to", "Cash"], balances: ["Debit": nil, "Cash": "-500.00", "Groceries": "500.00", "Capital": "0.00"], transactions: 2),
        Removal(args: ["--to-capital"], balances: ["Debit": nil, "Cash": "1000.00", "Groceries": "500.00", "Capital": "-1500.00"], transactions: 2),
        Removal(args: ["--hide"], balances: ["Debit": "-1500.00", "Cash": "1000.00", "Groceries": "500.00", "Capital": "0.00"], transactions: 2),
        Removal(args: ["--cascade", "--yes"], balances: ["Debit": nil, "Cash": "0.00", "Groceries": "0.00", "Capital": "0.00"], transactions: 0),
    ])
    func accountRemovalWithAChoice(_ removal: Removal) throws {
        let cli = try Self.twoPostings()
        #expect(cli.ok(["account", "rm", "Debit"] + removal.args).contains("account 'Debit'"))
        let object = try #require(try cli.json(["balance", "--all", "--on", "2025-12-31"]) as? [String: Any])
        let rows = try #require(object["accounts"] as? [[String: Any]])
        for (name, expected) in removal.balances {
            #expect(rows.first { $0.string("account") == name }?.string("balance") == expected, "\(name)")
        }
        #expect(try cli.rows(["tx", "list"]).count == removal.transactions)
        let listed = try cli.rows(["account", "list"]).contains { $0.string("name") == "Debit" }
        #expect(!listed)
    }

    @Test func accountRemovalOfAnUnusedAccountNeedsNoChoice() throws {
        let cli = try CLI.initialized()
        #expect(cli.ok(["account", "rm", "Gifts"]) == "Removed account 'Gifts'.\n")
        #expect(!(try cli.rows(["account", "list", "--all"]).contains { $0.string("name") == "Gifts" }))
    }

    @Test func cascadeAsksAndAYesOnAPipeIsNotAConfirmation() throws {
        // Without a terminal there is no one to ask: refused whatever stdin says.
        let cli = try Self.twoPostings()
        cli.fails(["account", "rm", "Debit", "--cascade"], mentioning: ["--cascade", "not confirmed"], stdin: "y\n")
    }

    // MARK: groups

    @Test func groupAddListShowAddAccountRemoveAccountAndRemove() throws {
        let cli = try CLI.household()
        cli.ok(["group", "add", "Plastic", "--type", "cash-flow", "--account", "VTB Debit"])
        cli.ok(["group", "add-account", "plastic", "Tinkoff Card", "Cash"])
        let groups = try cli.rows(["group", "list"])
        #expect(groups.map { $0.string("name") } == ["Everyday money", "Debts", "Children", "Car", "Plastic"])
        #expect(groups.last?["accounts"] as? [String] == ["VTB Debit", "Tinkoff Card", "Cash"])
        #expect(groups.last?.string("type") == "cash-flow")

        let shown = try #require(try cli.json(["group", "show", "Plastic", "--today", "2025-03-31"]) as? [String: Any])
        let members = try #require(shown["accounts"] as? [[String: Any]])
        #expect(members.map { $0.string("name") } == ["VTB Debit", "Tinkoff Card", "Cash"])
        let totals = try #require(shown["totals"] as? [[String: Any]])
        #expect(totals.first?.string("balance") == "311149.31")  // 354 919.31 − 63 500 + 19 730

        cli.ok(["group", "remove-account", "Plastic", "Cash"])
        #expect(try cli.rows(["group", "list"]).last?["accounts"] as? [String] == ["VTB Debit", "Tinkoff Card"])
        cli.ok(["group", "rm", "Plastic"])
        #expect(try cli.rows(["group", "list"]).count == 4)
        // An account may be in several groups; removing a group keeps its accounts.
        cli.ok(["group", "add-account", "Debts", "Cash"])
        #expect(
            try cli.rows(["group", "list"]).first { $0.string("name") == "Debts" }?["accounts"] as? [String]
                == ["Tinkoff Card", "Mortgage", "VTB Loan", "Car Loan", "Cash"])
        #expect(try cli.rows(["account", "list"]).contains { $0.string("name") == "VTB Debit" })
    }

    @Test func groupBalancesAppearInBalance() throws {
        let cli = try CLI.household()
        let table = cli.ok(["balance", "--on", "2025-03-31"])
        #expect(table.contains("Everyday money  cash-flow           374 649.31  RUB"))  // 354 919.31 + 19 730
    }

    // MARK: transactions

    @Test func txAddBalancesTheOpenPostingAndShowsIt() throws {
        let cli = try CLI.household()
        let output = cli.ok([
            "tx", "add", "--on", "2025-04-05", "--payee", "Sberbank", "--note", "April mortgage", "--spender", "Ivan", "--tag", "loan", "--tag",
            "home",
            "--posting", "Loan interest=60000", "--posting", "Mortgage=10 000", "--posting", "VTB Debit",
        ])
        let id = try #require(output.split(separator: " ").dropFirst(2).first.map(String.init))
        #expect(output == "Added transaction \(id) on 2025-04-05.\n")
        let shown = try #require(try cli.json(["tx", "show", id]) as? [String: Any])
        #expect(shown.string("date") == "2025-04-05")
        #expect(shown.string("payee") == "Sberbank" && shown.string("note") == "April mortgage" && shown.string("spender") == "Ivan")
        #expect(shown["tags"] as? [String] == ["loan", "home"])
        let postings = try #require(shown["postings"] as? [[String: Any]])
        #expect(
            postings.map { "\($0.string("account")!)=\($0.string("amount")!)" } == [
                "Loan interest=60000.00", "Mortgage=10000.00", "VTB Debit=-70000.00",
            ])

        let table = cli.ok(["tx", "show", id])
        #expect(table.hasPrefix("2025-04-05  Sberbank  ["))
        #expect(table.contains("VTB Debit") && table.contains("-70 000.00"))

        let balance = try #require(try cli.json(["balance", "--on", "2025-04-05"]) as? [String: Any])
        let debit = (balance["accounts"] as? [[String: Any]])?.first { $0.string("account") == "VTB Debit" }
        #expect(debit?.string("balance") == "284919.31")  // 354 919.31 at the end of March, less 70 000
    }

    @Test func txEditChangesFieldsAndReplacesPostings() throws {
        let cli = try CLI.household()
        let pool = try #require(try cli.rows(["tx", "list", "--search", "swimming", "--from", "2025-03-01"]).first)
        let id = try #require(pool.string("id"))
        cli.ok([
            "tx", "edit", String(id.prefix(8)), "--payee", "Pool", "--on", "2025-03-06", "--clear-tags", "--posting", "Kids=16000", "--posting",
            "Cash",
        ])
        let shown = try #require(try cli.json(["tx", "show", id]) as? [String: Any])
        #expect(shown.string("payee") == "Pool" && shown.string("date") == "2025-03-06")
        #expect(shown["tags"] as? [String] == [])
        #expect(shown.string("spender") == "Anna", "fields not given stay")
        let postings = try #require(shown["postings"] as? [[String: Any]])
        #expect(postings.map { "\($0.string("account")!)=\($0.string("amount")!)" } == ["Kids=16000.00", "Cash=-16000.00"])
    }

    @Test func txRmRemovesItFromListingsAndBalances() throws {
        let cli = try CLI.household()
        let payback = try #require(try cli.rows(["tx", "list", "--search", "card payback", "--from", "2025-03"]).first)
        let id = try #require(payback.string("id"))
        #expect(cli.ok(["tx", "rm", id]).hasPrefix("Removed transaction \(id.prefix(8)) of 2025-03-17"))
        #expect(try cli.rows(["tx", "list", "--search", "card payback"]).count == 2)
        cli.fails(["tx", "show", id], mentioning: ["transaction '\(id)'", "not found"])
        let balance = try #require(try cli.json(["balance", "--on", "2025-03-31"]) as? [String: Any])
        let debit = (balance["accounts"] as? [[String: Any]])?.first { $0.string("account") == "VTB Debit" }
        #expect(debit?.string("balance") == "414919.31")  // 354 919.31 and the 60 000 it no longer paid
    }

    @Test func txListFormats() throws {
        let cli = try CLI.household()
        let args = ["tx", "list", "--from", "2025-01-01", "--to", "2025-01-02"]
        let csv = cli.ok(args + ["--format", "csv"]).split(separator: "\n")
        #expect(csv.first == "id,date,payee,amount,currency,from,to,spender,note")
        #expect(csv.count == 5)
        // A day's transactions by id (issue 51, item 13).
        #expect(csv.contains { $0.contains(",2025-01-01,Opening balances,265000.00,RUB,Tinkoff Card;Capital,VTB Debit;Cash,,") })
        // Across currencies the equity account's other sides are not named; the amount is the first posting's currency.
        #expect(csv.contains { $0.contains(",2025-01-01,Opening balances,3000.00,USD,Capital,Savings USD;Euro Card,,") }, "\(csv)")
        let keys = csv.dropFirst().map { $0.split(separator: ",")[1] + " " + $0.split(separator: ",")[0] }
        #expect(keys == keys.sorted())
        let table = cli.ok(args)
        #expect(table.contains("Parking space") && table.contains("10 000.00"))
        #expect(cli.ok(args + ["--hide-amounts"]).contains("***"))
        #expect(cli.ok(["tx", "list", "--from", "2030-01-01"]) == "(none)\n")
        #expect(cli.ok(["tx", "list", "--from", "2030-01-01", "--format", "json"]) == "[]\n")
    }

    // MARK: quick entry

    @Test func spendEarnAndTransferUseTheDefaultAccountOrTheOneNamed() throws {
        let cli = try CLI.household()
        #expect(
            cli.ok([
                "spend", "1 500,50", "Groceries", "--on", "2025-04-01", "--note", "market", "--spender", "Anna", "--payee", "Bazaar", "--tag", "food",
            ])
                == "Spent 1 500.50 RUB on Groceries from VTB Debit on 2025-04-01 (" + "\(try lastID(cli)))." + "\n")
        cli.ok(["spend", "100", "groceries", "--from", "Cash", "--on", "2025-04-01"])
        cli.ok(["earn", "5000", "Other income", "--on", "2025-04-02"])
        cli.ok(["earn", "10", "Salary", "--to", "Cash", "--on", "2025-04-02"])
        cli.ok(["transfer", "2000", "--from", "VTB Debit", "--to", "Cash", "--on", "2025-04-03"])
        cli.ok(["transfer", "300", "--from", "Cash", "--to", "Tinkoff Card", "--on", "2025-04-03"])

        let (before, after) = (try balances(cli, on: "2025-03-31"), try balances(cli, on: "2025-04-03"))
        #expect(after["VTB Debit"]! - before["VTB Debit"]! == -1_500_50 + 5000_00 - 2000_00)
        #expect(after["Cash"]! - before["Cash"]! == -100_00 + 10_00 + 2000_00 - 300_00)
        #expect(after["Tinkoff Card"]! - before["Tinkoff Card"]! == 300_00)
        #expect(after["Groceries"]! - before["Groceries"]! == 1_600_50)
        #expect(after["Other income"]! - before["Other income"]! == -5000_00)

        let spent = try #require(try cli.rows(["tx", "list", "--search", "bazaar"]).first)
        #expect(spent.string("spender") == "Anna" && spent.string("payee") == "Bazaar" && spent.string("date") == "2025-04-01")
        #expect(spent["from"] as? [String] == ["VTB Debit"] && spent["to"] as? [String] == ["Groceries"])
        #expect(try cli.rows(["tx", "list", "--kind", "income", "--from", "2025-04"]).count == 2)
        #expect(try cli.rows(["tx", "list", "--kind", "transfer", "--from", "2025-04"]).count == 2)
    }

    @Test func quickEntryWithoutADefaultAccountAsksForOne() throws {
        let cli = try CLI.initialized(withDebit: false)
        cli.ok(["account", "add", "Cash", "--kind", "cash"])
        cli.fails(["spend", "5", "Groceries"], mentioning: ["--from", "no default account"])
        cli.fails(["earn", "5", "Salary"], mentioning: ["--to", "no default account"])
        cli.fails(["transfer", "5", "--to", "Cash"], mentioning: ["--from"])
        cli.ok(["spend", "5", "Groceries", "--from", "Cash", "--on", "2025-01-01"])
        cli.ok(["account", "edit", "Cash", "--default"])
        cli.ok(["spend", "5", "Groceries", "--on", "2025-01-01"])
        #expect(try balances(cli, on: "2025-01-01")["Cash"] == -10_00)
    }

    @Test func todayOptionIsTheDayForEntriesAndBalances() throws {
        let cli = try CLI.household()
        cli.ok(["spend", "5", "Groceries", "--today", "2025-04-02"])
        #expect(try cli.rows(["tx", "list", "--from", "2025-04-01"]).map { $0.string("date") } == ["2025-04-02"])
        #expect(cli.ok(["balance", "--today", "2025-01-31"]) == cli.ok(["balance", "--on", "2025-01-31"]))
        #expect(cli.ok(["balance", "--today", "2025-01-31"]).hasPrefix("Balances on 2025-01-31\n"))
        #expect(cli.ok(["balance", "--on", "2025-02"]).hasPrefix("Balances on 2025-02-28\n"), "a month means its last day")
    }

    // MARK: balance output

    @Test(arguments: [
        ("table", ["Balances on 2025-03-31", "VTB Debit     debit           354 919.31  RUB", "Groups"]),
        ("json", ["\"accounts\": [", "\"account\": \"VTB Debit\"", "\"balance\": \"354919.31\"", "\"groups\": ["]),
        (
            "csv",
            [
                "section,account,kind,balance,currency,value,group,type", "accounts,VTB Debit,debit,354919.31,RUB,354919.31,,",
                "groups,,,374649.31,RUB,,Everyday money,cash-flow",
            ]
        ),
    ])
    func balanceInEachFormat(format: String, mentions: [String]) throws {
        let cli = try CLI.household()
        let output = cli.ok(["balance", "--on", "2025-03-31", "--format", format])
        for part in mentions {
            #expect(output.contains(part), "\(output)")
        }
        #expect(!output.contains("\u{1B}["), "NO_COLOR output has no escape codes")
    }

    @Test func hideAmountsShowsStarsInTablesOnly() throws {
        let cli = try CLI.household()
        let table = cli.ok(["balance", "--on", "2025-03-31", "--hide-amounts"])
        #expect(table.contains("***"))
        #expect(!table.contains("354 919.31"))
        #expect(!table.replacingOccurrences(of: "2025-03-31", with: "").contains { $0.isNumber }, "no digit of any amount shows")
        let accounts = cli.ok(["account", "list", "--hide-amounts"])
        #expect(accounts.contains("***") && !accounts.contains("354 919.31"))
    }

    // MARK: import and export

    @Test(arguments: ["yaml", "json"])
    func exportImportExportThroughTheCLIIsByteIdentical(format: String) throws {
        let cli = try CLI.household()
        let file = cli.path("ledger.\(format)")
        #expect(cli.ok(["export", "--format", format, "--out", file]) == "")
        let copy = cli.path("copy.sqlite")
        #expect(
            cli.ok(["--db", copy, "import", file]).contains("141 transactions added")
                && (try? String(contentsOfFile: file, encoding: .utf8))?.contains("rates") == true)
        let again = cli.ok(["--db", copy, "export", "--format", format])
        #expect(again == String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self))
    }

    @Test func reimportingTheSampleAddsNothing() throws {
        let cli = try CLI.household()
        let before = cli.ok(["export"])
        let summary = cli.ok(["import", "samples/household.yaml"])
        #expect(
            summary.contains(
                ": nothing new (36 accounts, 4 groups, 141 transactions, 22 schedules, 3 loans, 1 card, 1 deposit, 3 bills, 2 fines, 2 budgets, 118 rates already there)."
            ),
            "\(summary)")
        #expect(cli.ok(["export"]) == before)
    }

    @Test func ledgerFileAnswersQueriesLikeTheImportedDatabase() throws {
        let cli = try CLI.household()
        for args in [
            ["balance", "--on", "2025-02-28"], ["account", "list", "--format", "csv", "--today", "2025-03-01"],
            ["group", "list", "--format", "json"],
        ] {
            let fromFile = cli.ok(["-f", "samples/household.yaml"] + args)
            var fromDB = cli.ok(args)
            if args.contains("group") || args.contains("account") {
                // Ids are fresh UUIDs per load; compare everything else.
                fromDB = Self.withoutIDs(fromDB)
                #expect(Self.withoutIDs(fromFile) == fromDB)
            } else {
                #expect(fromFile == fromDB)
            }
        }
    }

    static func withoutIDs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).filter { UUID(uuidString: String($0)) == nil }.joined(separator: ",")
        }.filter { !$0.contains("\"id\":") }.joined(separator: "\n")
    }

    // MARK: helpers

    func balances(_ cli: CLI, on day: String) throws -> [String: Int64] {
        let object = try #require(try cli.json(["balance", "--all", "--on", day]) as? [String: Any])
        var result: [String: Int64] = [:]
        for row in try #require(object["accounts"] as? [[String: Any]]) {
            result[row.string("account") ?? "?"] = minorUnits(row.string("balance") ?? "")
        }
        return result
    }

    func lastID(_ cli: CLI) throws -> String {
        let rows = try cli.rows(["tx", "list", "--from", "2025-04-01"])
        return String(try #require(rows.last?.string("id")).prefix(8))
    }
}
