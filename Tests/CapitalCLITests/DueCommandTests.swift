import Foundation
import Testing

extension CLITemplate {
    /// 100 000.00 earned into `VTB Debit` (the default account) on 5 January 2025, 5 000.00 of it
    /// moved to `Cash` the next day: 95 000.00 and 5 000.00.
    static let tracking = CLITemplate(
        "tracking",
        [
            ["init"], ["account", "add", "VTB Debit", "--kind", "debit", "--default"], ["account", "add", "Cash", "--kind", "cash"],
            ["earn", "100000", "Salary", "--to", "VTB Debit", "--on", "2025-01-05"],
            ["transfer", "5000", "--from", "VTB Debit", "--to", "Cash", "--on", "2025-01-06"],
        ])
}

extension CLI {
    /// `fails`: one line, nothing written. (`fails` compares every row of the database, dues,
    /// budgets and their versions included.)
    @discardableResult
    func refuses(_ args: [String], mentioning mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Result {
        fails(args, mentioning: mentions, sourceLocation: sourceLocation)
    }

    /// An object printed by a command with `--format json`.
    func object(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try json(args, sourceLocation: sourceLocation) as? [String: Any], sourceLocation: sourceLocation)
    }

    /// An account's balance today, in minor units.
    func balance(_ account: String, today: [String]) throws -> Int64 {
        let accounts = try #require(try object(["balance"] + today)["accounts"] as? [[String: Any]])
        let text = try #require(accounts.first { $0.string("account") == account }?.string("balance"))
        return try #require(minorUnits(text))
    }

    /// The forecast of one account (or, with nil, level 4) by day or month: each period's start
    /// with its (inflow, outflow, closing) in minor units.
    func periods(_ account: String?, by: String = "day", until: String, today: [String]) throws -> [String: (
        inflow: Int64, outflow: Int64, closing: Int64
    )] {
        let object = try object(["forecast", "--by", by, "--until", until] + (account.map { ["--account", $0] } ?? []) + today)
        var result: [String: (inflow: Int64, outflow: Int64, closing: Int64)] = [:]
        for period in try #require(object["periods"] as? [[String: Any]]) {
            result[period.string("start")!] = (
                minorUnits(period.string("inflow")!)!, minorUnits(period.string("outflow")!)!, minorUnits(period.string("closing")!)!
            )
        }
        return result
    }

    /// What `can-spend` (level 4) says today, in minor units.
    func canSpend(until: String, today: [String]) throws -> Int64 {
        let text = try #require(try object(["can-spend", "--until", until] + today).string("amount"))
        return try #require(minorUnits(text))
    }
}

/// Bills and fines end to end: `due add|list|show|pay|edit|rm`, the unpaid rest in the forecast
/// and in `can-spend`, and their bad inputs. Today is 1 April 2025 unless said otherwise.
@Suite("CLI: dues (bills and fines)")
struct DueCommandTests {
    static let today = ["--today", "2025-04-01"]

    /// A due payment as `due list --all --format json` shows it, by number.
    static func due(_ cli: CLI, _ number: Int) throws -> [String: Any] {
        try #require(try cli.rows(["due", "list", "--all"] + today).first { $0["id"] as? Int == number })
    }

    static func numbers(_ cli: CLI, _ args: [String]) throws -> [Int] {
        try cli.rows(["due", "list"] + args + today).map { try #require($0["id"] as? Int) }
    }

    /// (paid, left, status) of a due payment.
    static func state(_ cli: CLI, _ number: Int) throws -> (paid: Int64?, left: Int64?, status: String?) {
        let due = try Self.due(cli, number)
        return (due.string("paid").flatMap(minorUnits), due.string("left").flatMap(minorUnits), due.string("status"))
    }

    // MARK: - Adding

    @Test func aBillTakesItsMandatoryAndOptionalFields() throws {
        let cli = try CLITemplate.tracking.copy()
        let added = cli.ok(
            [
                "due", "add", "bill", "--total", "5400", "--paid", "2000", "--due", "2025-04-25", "--reason", "Electricity, March", "--iban",
                "DE89 3704 0044 0532 0130 00",
                "--address", "1 Power Rd", "--institution", "Mosenergo", "--from", "Cash",
            ] + Self.today)
        #expect(added.contains("bill #1") && added.contains("3 400.00 left") && added.contains("in 24 days"))
        let bill = try cli.object(["due", "show", "1"] + Self.today)
        #expect(bill["id"] as? Int == 1 && bill.string("type") == "bill" && bill.string("reason") == "Electricity, March")
        #expect(bill.string("dueDay") == "2025-04-25" && bill["daysLeft"] as? Int == 24)
        #expect(bill.string("total") == "5400.00" && bill.string("paid") == "2000.00" && bill.string("left") == "3400.00")
        #expect(bill.string("status") == "partially-paid")
        #expect(bill.string("address") == "1 Power Rd" && bill.string("institution") == "Mosenergo")
        #expect(bill.string("payFrom") == "Cash" && bill.string("category") == "Bills")

        // Only the mandatory fields: paid is 0, the rest empty, the default account pays.
        cli.ok(["due", "add", "fine", "--total", "450", "--due", "2025-03-10", "--reason", "Speeding ticket"] + Self.today)
        let fine = try cli.object(["due", "show", "2"] + Self.today)
        #expect(
            fine.string("type") == "fine" && fine.string("paid") == "0.00" && fine.string("left") == "450.00" && fine.string("status") == "unpaid")
        #expect(fine["iban"] is NSNull && fine["address"] is NSNull && fine["institution"] is NSNull)
        // JSON carries data: no account is null; the table says what that means.
        #expect(fine["payFrom"] is NSNull && fine.string("category") == "Fines")
        #expect(cli.ok(["due", "show", "2"] + Self.today).contains("(the default account)"))
        #expect(fine["daysLeft"] as? Int == -22 && fine["when"] == nil, "JSON: the number, not the words")
        #expect(cli.ok(["due", "show", "2"] + Self.today).contains("22 days overdue"))

        // Fully paid from the start.
        cli.ok(["due", "add", "bill", "--total", "100", "--paid", "100", "--due", "2025-04-05", "--reason", "Water"] + Self.today)
        #expect(try Self.state(cli, 3).status == "fully-paid")
    }

    // MARK: - Status after each change

    @Test func theStatusFollowsEveryPaymentAndEdit() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "5000", "--due", "2025-04-20", "--reason", "Internet"] + Self.today)
        // (command, paid, total) after it, worked by hand.
        let steps: [([String], Int64, Int64)] = [
            (["due", "pay", "1", "1000"], 100_000, 500_000),
            (["due", "edit", "1", "--paid", "0"], 0, 500_000),
            (["due", "edit", "1", "--paid", "5000"], 500_000, 500_000),
            (["due", "edit", "1", "--total", "6000"], 500_000, 600_000),
            (["due", "pay", "1", "999.99"], 599_999, 600_000),
            (["due", "pay", "1", "0.01"], 600_000, 600_000),
            (["due", "edit", "1", "--total", "7000", "--paid", "0"], 0, 700_000),
            (["due", "edit", "1", "--paid", "6999.99"], 699_999, 700_000),
            (["due", "edit", "1", "--total", "6999.99"], 699_999, 699_999),
        ]
        #expect(try Self.state(cli, 1).status == "unpaid")
        for (command, paid, total) in steps {
            cli.ok(command + Self.today)
            let expected = paid == 0 ? "unpaid" : paid == total ? "fully-paid" : "partially-paid"
            let state = try Self.state(cli, 1)
            #expect(state.paid == paid && state.left == total - paid && state.status == expected, "after \(command.joined(separator: " "))")
        }
    }

    // MARK: - Listing

    /// Today 1 April. Worked by hand: #5 (12 days overdue), #2 (7 days overdue), #7 (today),
    /// then the four of 10 April: #4 (the largest rest, 500.00), then #1, #3 and #8 with a rest of
    /// 100.00 each, in the order registered. #6 is fully paid.
    @Test func theListPutsTheMostUrgentFirstAndBreaksTiesByRestThenRegistration() throws {
        let cli = try CLITemplate.tracking.copy()
        let dues: [[String]] = [
            ["bill", "--total", "100", "--due", "2025-04-10"],
            ["fine", "--total", "50", "--due", "2025-03-25"],
            ["bill", "--total", "300", "--paid", "200", "--due", "2025-04-10"],
            ["bill", "--total", "500", "--due", "2025-04-10"],
            ["bill", "--total", "80", "--due", "2025-03-20"],
            ["bill", "--total", "70", "--paid", "70", "--due", "2025-03-01"],
            ["bill", "--total", "20", "--due", "2025-04-01"],
            ["fine", "--total", "100", "--due", "2025-04-10"],
        ]
        for (index, due) in dues.enumerated() { cli.ok(["due", "add"] + due + ["--reason", "Due \(index + 1)"] + Self.today) }

        let urgent = try cli.rows(["due", "list"] + Self.today)
        #expect(urgent.map { $0["id"] as? Int } == [5, 2, 7, 4, 1, 3, 8])
        #expect(urgent.map { $0["daysLeft"] as? Int } == [-12, -7, 0, 9, 9, 9, 9])
        // Tables (and CSV) say it in words.
        let whens = cli.ok(["due", "list", "--format", "csv"] + Self.today).split(separator: "\n").dropFirst().map {
            String($0.split(separator: ",", omittingEmptySubsequences: false)[5])
        }
        #expect(whens == ["12 days overdue", "7 days overdue", "due today", "in 9 days", "in 9 days", "in 9 days", "in 9 days"], "\(whens)")
        #expect(urgent.map { $0.string("left") } == ["80.00", "50.00", "20.00", "500.00", "100.00", "100.00", "100.00"])

        #expect(try Self.numbers(cli, ["--all"]) == [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(try Self.numbers(cli, ["--type", "fine"]) == [2, 8])
        #expect(try Self.numbers(cli, ["--all", "--type", "fine"]) == [8, 2])
        #expect(try Self.numbers(cli, ["--status", "partially-paid"]) == [3])
        #expect(try Self.numbers(cli, ["--status", "fully-paid"]) == [6])
        #expect(try Self.numbers(cli, ["--status", "unpaid", "--type", "bill"]) == [5, 7, 4, 1])

        let csv = cli.ok(["due", "list", "--format", "csv"] + Self.today).split(separator: "\n")
        #expect(csv.first == "id,type,reason,dueDay,daysLeft,when,total,paid,left,status,institution")
        #expect(csv.dropFirst().map { $0.split(separator: ",").first.map(String.init) } == ["5", "2", "7", "4", "1", "3", "8"])
        #expect(csv.dropFirst().first == "5,bill,Due 5,2025-03-20,-12,12 days overdue,80.00,0.00,80.00,unpaid,")

        let table = cli.ok(["due", "list"] + Self.today)
        #expect(table.contains("12 days overdue") && table.contains("partially paid"))
        #expect(!table.contains("Due 6"))
    }

    // MARK: - Paying

    @Test func payingRecordsATransactionMovesTheBalanceAndRaisesPaid() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(
            ["due", "add", "bill", "--total", "5400", "--due", "2025-04-25", "--reason", "Electricity", "--institution", "Mosenergo"] + Self.today)
        let vtb = try cli.balance("VTB Debit", today: Self.today)
        let cash = try cli.balance("Cash", today: Self.today)

        let paid = cli.ok(["due", "pay", "1", "2000", "--from", "Cash", "--on", "2025-03-30"] + Self.today)
        #expect(paid.contains("2 000.00") && paid.contains("3 400.00 left"))
        let transactions = try cli.rows(["tx", "list"])
        let payment = try #require(transactions.first { $0.string("date") == "2025-03-30" })
        #expect(payment.string("amount") == "2000.00" && payment.string("payee") == "Mosenergo")
        #expect(payment["from"] as? [String] == ["Cash"] && payment["to"] as? [String] == ["Bills"])
        #expect(try cli.balance("Cash", today: Self.today) == cash - 200_000)
        #expect(try cli.balance("VTB Debit", today: Self.today) == vtb)
        #expect(try Self.state(cli, 1) == (200_000, 340_000, "partially-paid"))

        // Without --from, from the default account, today.
        cli.ok(["due", "pay", "1", "3400"] + Self.today)
        let today = try #require(try cli.rows(["tx", "list"]).first { $0.string("date") == "2025-04-01" })
        #expect(today.string("amount") == "3400.00" && today["from"] as? [String] == ["VTB Debit"])
        #expect(try cli.balance("VTB Debit", today: Self.today) == vtb - 340_000)
        #expect(try Self.state(cli, 1) == (540_000, 0, "fully-paid"))

        let show = try cli.object(["due", "show", "1"] + Self.today)
        let payments = try #require(show["payments"] as? [[String: Any]])
        #expect(payments.map { $0.string("day") } == ["2025-03-30", "2025-04-01"])
        #expect(payments.map { $0.string("amount") } == ["2000.00", "3400.00"])
        #expect(payments.map { $0.string("from") } == ["Cash", "VTB Debit"])
    }

    @Test func aDuesOwnAccountPaysWhenNoFromIsGiven() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "fine", "--total", "500", "--due", "2025-04-25", "--reason", "Parking", "--from", "Cash"] + Self.today)
        let cash = try cli.balance("Cash", today: Self.today)
        cli.ok(["due", "pay", "1", "500"] + Self.today)
        #expect(try cli.balance("Cash", today: Self.today) == cash - 50_000)
    }

    @Test func payingMoreThanWhatIsLeftOrAFullyPaidOneIsRefused() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "5400", "--paid", "2000", "--due", "2025-04-25", "--reason", "Electricity"] + Self.today)
        cli.refuses(["due", "pay", "1", "3400.01"] + Self.today, mentioning: ["AMOUNT '3400.01'", "more than what is left", "3400.00"])
        cli.refuses(["due", "pay", "1", "0"] + Self.today, mentioning: ["AMOUNT '0'", "more than 0"])
        cli.refuses(["due", "pay", "1", "1", "--from", "Groceries"] + Self.today, mentioning: ["--from", "Groceries"])
        cli.refuses(["due", "pay", "1", "1", "--on", "2025-04-31"] + Self.today, mentioning: ["--on", "2025-04-31"])
        cli.refuses(["due", "pay", "9", "1"] + Self.today, mentioning: ["due payment '9'", "not found"])
        cli.ok(["due", "pay", "1", "3400"] + Self.today)
        cli.refuses(["due", "pay", "1", "1"] + Self.today, mentioning: ["AMOUNT '1.00'", "already fully paid"])
    }

    // MARK: - Editing

    @Test func editKeepsPaidWithinTheTotalAndSaysWhenItLowersIt() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "1000", "--paid", "600", "--due", "2025-05-01", "--reason", "Water"] + Self.today)
        cli.refuses(["due", "edit", "1", "--paid", "1000.01"] + Self.today, mentioning: ["--paid '1000.01'", "more than the total 1000.00"])
        cli.refuses(["due", "edit", "1", "--paid=-1"] + Self.today, mentioning: ["--paid '-1.00'", "cannot be negative"])
        cli.refuses(
            ["due", "edit", "1", "--total", "800", "--paid", "900"] + Self.today, mentioning: ["--paid '900.00'", "more than the total 800.00"])
        cli.refuses(["due", "edit", "1", "--total", "0"] + Self.today, mentioning: ["--total '0.00'", "more than 0"])

        let lowered = cli.ok(["due", "edit", "1", "--total", "500"] + Self.today)
        #expect(lowered.contains("below what was paid") && lowered.contains("paid is now 500.00") && lowered.contains("fully paid"))
        #expect(try Self.state(cli, 1) == (50_000, 0, "fully-paid"))
        let total = try Self.due(cli, 1).string("total")
        #expect(total == "500.00")

        // Raising it again leaves paid alone.
        let raised = cli.ok(["due", "edit", "1", "--total", "700"] + Self.today)
        #expect(!raised.contains("below what was paid"))
        #expect(try Self.state(cli, 1) == (50_000, 20_000, "partially-paid"))
    }

    @Test func mandatoryFieldsCannotBeEmptiedOptionalOnesCan() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(
            [
                "due", "add", "bill", "--total", "1000", "--due", "2025-05-01", "--reason", "Water", "--iban", "DE89 3704 0044 0532 0130 00",
                "--address",
                "2 Water St", "--institution", "Vodokanal", "--from", "Cash",
            ] + Self.today)
        cli.refuses(["due", "edit", "1", "--reason", ""] + Self.today, mentioning: ["--reason", "cannot be empty"])
        cli.refuses(["due", "edit", "1", "--reason", "   "] + Self.today, mentioning: ["--reason", "cannot be empty"])
        cli.refuses(["due", "edit", "1", "--total", ""] + Self.today, mentioning: ["--total"])
        cli.refuses(["due", "edit", "1", "--due", ""] + Self.today, mentioning: ["--due"])
        cli.refuses(["due", "edit", "1", "--type", ""] + Self.today, mentioning: ["--type"])
        cli.refuses(["due", "edit", "1"] + Self.today, mentioning: ["nothing to change"])

        cli.ok(["due", "edit", "1", "--iban", "", "--address", ""] + Self.today)
        var bill = try cli.object(["due", "show", "1"] + Self.today)
        #expect(bill["iban"] is NSNull && bill["address"] is NSNull)
        #expect(bill.string("institution") == "Vodokanal" && bill.string("reason") == "Water" && bill.string("payFrom") == "Cash")
        cli.ok(
            ["due", "edit", "1", "--institution", "", "--from", "", "--reason", "Cold water", "--due", "2025-05-10", "--type", "fine"] + Self.today)
        bill = try cli.object(["due", "show", "1"] + Self.today)
        #expect(bill["institution"] is NSNull && bill["payFrom"] is NSNull)
        #expect(bill.string("reason") == "Cold water" && bill.string("dueDay") == "2025-05-10" && bill.string("type") == "fine")
        // The default category follows the type.
        #expect(bill.string("category") == "Fines")
    }

    // MARK: - Removing

    @Test func removingTakesItOutOfTheListAndTheForecastButKeepsItsPayments() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "1000", "--due", "2025-04-10", "--reason", "Water"] + Self.today)
        cli.ok(["due", "add", "bill", "--total", "3000", "--due", "2025-04-20", "--reason", "Rent"] + Self.today)
        cli.ok(["due", "pay", "1", "400"] + Self.today)
        #expect(try cli.periods("VTB Debit", until: "2025-04-30", today: Self.today)["2025-04-10"]?.outflow == -60_000)

        #expect(cli.ok(["due", "rm", "1"]).contains("Removed bill #1 (Water)"))
        #expect(try Self.numbers(cli, ["--all"]) == [2])
        #expect(try cli.periods("VTB Debit", until: "2025-04-30", today: Self.today)["2025-04-10"]?.outflow == 0)
        #expect(try cli.rows(["tx", "list"]).contains { $0.string("amount") == "400.00" && $0.string("date") == "2025-04-01" })
        cli.refuses(["due", "rm", "1"], mentioning: ["due payment '1'", "not found"])
        cli.refuses(["due", "rm", "abc"], mentioning: ["ID 'abc'"])
        // Numbers are never reused.
        #expect(cli.ok(["due", "add", "fine", "--total", "10", "--due", "2025-04-12", "--reason", "Late"] + Self.today).contains("fine #3"))
    }

    // MARK: - In the forecast

    /// 95 000.00 on the debit card and 5 000.00 cash (level 4 counts both): 100 000.00 to spend.
    /// A rent bill of 60 000.00 due 20 April leaves 40 000.00; paying 25 000.00 of it today moves
    /// that much now and leaves 35 000.00 on the due day, the same 40 000.00; a fine overdue since
    /// 20 March, paid from cash, counts today.
    @Test func theUnpaidRestIsAnOutflowOnItsDueDayAndCanSpendNamesIt() throws {
        let cli = try CLITemplate.tracking.copy()
        let until = "2025-06-30"
        let before = try cli.periods("VTB Debit", until: until, today: Self.today)
        let spendable = try cli.canSpend(until: until, today: Self.today)
        #expect(spendable == 10_000_000)

        cli.ok(["due", "add", "bill", "--total", "60000", "--due", "2025-04-20", "--reason", "Rent"] + Self.today)
        var after = try cli.periods("VTB Debit", until: until, today: Self.today)
        #expect(after["2025-04-20"]?.outflow == -6_000_000)
        #expect(after["2025-04-19"]?.outflow == 0 && after["2025-04-21"]?.outflow == 0)
        #expect(after["2025-06-30"]!.closing == before["2025-06-30"]!.closing - 6_000_000)
        #expect(try cli.canSpend(until: until, today: Self.today) == spendable - 6_000_000)
        let why = try cli.object(["can-spend", "--why", "--until", until] + Self.today)
        #expect(why.string("bindingDay") == "2025-04-20")
        let drivers = try #require(why["drivers"] as? [[String: Any]])
        #expect(drivers.first?.string("label") == "Bill #1: Rent" && drivers.first?.string("amount") == "-60000.00")
        #expect(why.string("why")?.contains("Bill #1: Rent 60 000.00 on 04-20") == true)

        cli.ok(["due", "pay", "1", "25000"] + Self.today)
        after = try cli.periods("VTB Debit", until: until, today: Self.today)
        #expect(after["2025-04-01"]?.outflow == -2_500_000)
        #expect(after["2025-04-20"]?.outflow == -3_500_000)
        #expect(after["2025-06-30"]!.closing == before["2025-06-30"]!.closing - 6_000_000)
        #expect(try cli.canSpend(until: until, today: Self.today) == spendable - 6_000_000)

        cli.ok(["due", "add", "fine", "--total", "1000", "--due", "2025-03-20", "--reason", "Parking", "--from", "Cash"] + Self.today)
        let cash = try cli.periods("Cash", until: until, today: Self.today)
        #expect(cash["2025-04-01"]?.outflow == -100_000 && cash["2025-04-01"]?.closing == 400_000)
        #expect(try cli.periods("VTB Debit", until: until, today: Self.today)["2025-04-01"]?.outflow == -2_500_000)
        #expect(try cli.canSpend(until: until, today: Self.today) == spendable - 6_000_000 - 100_000)

        // Fully paid, nothing is left to forecast; a later "today" counts the rest on that day.
        cli.ok(["due", "pay", "2", "1000", "--from", "Cash"] + Self.today)
        #expect(try cli.periods("Cash", until: until, today: Self.today)["2025-04-01"]?.outflow == -100_000)
        #expect(try cli.periods("Cash", until: until, today: Self.today)["2025-04-02"]?.outflow == 0)
        let late = ["--today", "2025-04-25"]
        #expect(try cli.periods("VTB Debit", until: until, today: late)["2025-04-25"]?.outflow == -3_500_000)
        // By month: April holds the whole rest.
        let months = try cli.periods("VTB Debit", by: "month", until: until, today: Self.today)
        #expect(months["2025-04-01"]?.outflow == -2_500_000 - 3_500_000 && months["2025-05-01"]?.outflow == 0)
    }

    @Test func aDueBeyondTheHorizonIsLeftOut() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "60000", "--due", "2025-08-01", "--reason", "Tax"] + Self.today)
        #expect(try cli.canSpend(until: "2025-07-31", today: Self.today) == 10_000_000)
        #expect(try cli.canSpend(until: "2025-08-01", today: Self.today) == 4_000_000)
    }

    // MARK: - Bad inputs

    @Test func everyBadInputIsRefusedWithTheLedgerUnchanged() throws {
        let cli = try CLITemplate.tracking.copy()
        cli.ok(["due", "add", "bill", "--total", "100", "--paid", "100", "--due", "2025-04-05", "--reason", "Paid already"] + Self.today)
        let add = ["due", "add", "bill", "--due", "2025-04-30"]
        cli.refuses(add + ["--total", "100"], mentioning: ["--reason"])
        cli.refuses(add + ["--total", "100", "--reason", ""], mentioning: ["--reason", "cannot be empty"])
        cli.refuses(add + ["--total", "100", "--reason", " "], mentioning: ["--reason", "cannot be empty"])
        cli.refuses(add + ["--total", "0", "--reason", "Gas"], mentioning: ["--total '0.00'", "more than 0"])
        cli.refuses(add + ["--total", "-5", "--reason", "Gas"], mentioning: ["--total '-5.00'", "more than 0"])
        cli.refuses(add + ["--total", "100", "--paid", "100.01", "--reason", "Gas"], mentioning: ["--paid '100.01'", "more than the total 100.00"])
        cli.refuses(add + ["--total", "100", "--paid", "-1", "--reason", "Gas"], mentioning: ["--paid '-1.00'", "cannot be negative"])
        cli.refuses(add + ["--total", "abc", "--reason", "Gas"], mentioning: ["--total", "abc"])
        cli.refuses(["due", "add", "bill", "--total", "100", "--reason", "Gas"], mentioning: ["--due"])
        cli.refuses(["due", "add", "bill", "--due", "2025-04-30", "--reason", "Gas"], mentioning: ["--total"])
        cli.refuses(["due", "add", "--total", "100", "--due", "2025-04-30", "--reason", "Gas"], mentioning: ["<type>"])
        cli.refuses(["due", "add", "invoice", "--total", "100", "--due", "2025-04-30", "--reason", "Gas"], mentioning: ["invoice"])
        cli.refuses(
            ["due", "add", "bill", "--total", "100", "--due", "2025-02-30", "--reason", "Gas"], mentioning: ["--due", "2025-02-30", "not a date"])
        cli.refuses(["due", "add", "bill", "--total", "100", "--due", "2025-13-01", "--reason", "Gas"], mentioning: ["--due", "2025-13-01"])
        cli.refuses(add + ["--total", "100", "--reason", "Gas", "--from", "Nowhere"], mentioning: ["Nowhere"])
        cli.refuses(["due", "edit", "1", "--due", "2025-02-30"], mentioning: ["--due", "2025-02-30"])
        cli.refuses(["due", "pay", "1", "10"] + Self.today, mentioning: ["already fully paid"])
        cli.refuses(["due", "list", "--status", "overdue"], mentioning: ["--status", "overdue"])
        #expect(try Self.numbers(cli, ["--all"]) == [1])
    }
}
