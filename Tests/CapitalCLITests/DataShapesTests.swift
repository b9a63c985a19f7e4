import CapitalCore
import Foundation
import Testing

/// JSON and CSV as docs/cli.md promises them (issue 51, item 15): an absent value is null (an
/// empty CSV field), never `""`; an IBAN is data without spaces (grouped in tables only); a status
/// is spelled as its option value; a schedule's postings are objects; CSV has the JSON's keys;
/// a scenario file refused at its header writes nothing to standard output.
@Suite("CLI: data shapes")
struct DataShapesTests {
    static let today = ["--today", "2025-04-01"]

    @Test func aDueWithoutInstitutionOrAddressHasNullsAndItsIBANIsDataWithoutSpaces() throws {
        let cli = try CLI.initialized()
        cli.ok(
            [
                "due", "add", "bill", "--total", "5400", "--paid", "2000", "--due", "2025-04-25", "--reason", "Electricity",
                "--iban", "GB82 WEST 1234 5698 7654 32",
            ] + Self.today)
        cli.ok(["due", "add", "fine", "--total", "500", "--due", "2025-04-20", "--reason", "Parking", "--institution", "GIBDD"] + Self.today)
        let bill = try #require(try cli.json(["due", "show", "1"] + Self.today) as? [String: Any])
        #expect(bill["iban"] as? String == "GB82WEST12345698765432")
        #expect(bill["institution"] is NSNull && bill["address"] is NSNull)
        #expect(bill["status"] as? String == "partially-paid")
        let fine = try #require(try cli.json(["due", "show", "2"] + Self.today) as? [String: Any])
        #expect(fine["iban"] is NSNull && fine["institution"] as? String == "GIBDD")
        // Tables keep the words and the IBAN's groups; CSV writes the data.
        let table = cli.ok(["due", "show", "1"] + Self.today)
        #expect(table.contains("GB82 WEST 1234 5698 7654 32") && table.contains("partially paid"))
        let csv = cli.ok(["due", "list", "--format", "csv"] + Self.today)
        #expect(csv.contains(",partially-paid,") && !csv.contains("partially paid"), "\(csv)")
        let listed = try #require(try cli.json(["due", "list"] + Self.today) as? [[String: Any]])
        #expect(
            listed.map { $0["status"] as? String } == ["unpaid", "partially-paid"]
                || listed.map { $0["status"] as? String } == ["partially-paid", "unpaid"])
        // The export's dues table spells the status as its option value too.
        let out = cli.path("dues.csv")
        cli.ok(["export", "--format", "csv", "--what", "dues", "--out", out] + Self.today)
        let exported = try String(contentsOfFile: out, encoding: .utf8)
        #expect(exported.contains(",partially-paid,") && exported.contains("GB82WEST12345698765432"), "\(exported)")
    }

    @Test func emptyNotesAreNull() throws {
        let cli = try CLI.initialized()
        let account = try #require(try cli.json(["account", "show", "VTB Debit"]) as? [String: Any])
        #expect(account["note"] is NSNull)
        let added = try #require(
            try cli.json(["spend", "350", "Groceries", "--on", "2025-03-31", "--format", "json"] + Self.today) as? [String: Any])
        let id = try #require(added["id"] as? String)
        let shown = try #require(try cli.json(["tx", "show", id] + Self.today) as? [String: Any])
        #expect(shown["note"] is NSNull)
        let postings = try #require(shown["postings"] as? [[String: Any]])
        #expect(postings.count == 2 && postings.allSatisfy { $0["note"] is NSNull })
        cli.ok(["tx", "edit", id, "--note", "market"] + Self.today)
        #expect((try cli.json(["tx", "show", id] + Self.today) as? [String: Any])?["note"] as? String == "market")
    }

    @Test func aSchedulesPostingsAreObjects() throws {
        let cli = try CLI.household()
        let schedule = try #require(try cli.json(["schedule", "show", "Salary Anna"] + Self.today) as? [String: Any])
        let postings = try #require(schedule["postings"] as? [[String: Any]])
        #expect(postings.map { $0["account"] as? String } == ["VTB Debit", "Salary"])
        #expect(postings.map { $0["amount"] as? String } == ["180000.00", "-180000.00"])
        #expect(postings.allSatisfy { $0["currency"] as? String == "RUB" })
        #expect(schedule["note"] is NSNull)
        #expect((schedule["occurrences"] as? [[String: Any]])?.isEmpty == false)
    }

    /// Every key of the JSON answer is a CSV column (CSV adds `payWith` for can-spend's split).
    @Test(arguments: [["can-spend"], ["when", "300000"], ["can-spend", "--all-levels"]])
    func csvHasTheJSONsKeys(_ args: [String]) throws {
        let cli = try CLI.household()
        let json = try cli.json(args + Self.today)
        let object = try #require((json as? [String: Any]) ?? (json as? [[String: Any]])?.first)
        let scalarKeys = object.filter { !($0.value is [Any]) && !($0.value is [String: Any]) }.map(\.key)
        let header = try #require(cli.ok(args + ["--format", "csv"] + Self.today).split(separator: "\n").first).split(separator: ",").map(String.init)
        for key in scalarKeys where key != "overdue" && key != "topUp" && key != "why" {
            #expect(header.contains(key), "\(args): CSV lacks \(key): \(header)")
        }
    }

    @Test(arguments: ["json", "csv", "table"])
    func aScenarioFileRefusedAtItsHeaderWritesNothing(_ format: String) throws {
        let cli = try CLI.household()
        let file = cli.path("bad.csv")
        try "name,prize,date\na,100,2025-05-01\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = cli.run(["scenario", "eval", file, "--format", format] + Self.today)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("header 'prize'"))
    }

    /// `when` takes one amount, and its usage says so (it is read raw, so that `-5` reaches the check).
    @Test func whenUsageShowsOneAmount() throws {
        let cli = try CLI()
        let help = cli.ok(["when", "--help"])
        #expect(help.contains("USAGE: capital when <amount> [<options>]"), "\(help)")
        #expect(!help.contains("<amount> ..."))
    }

    /// Smaller ones of item 18: a forecast export to a day counted from today; a transfer to or
    /// from a category refused, naming what records it; every `--out` file the owner's only.
    @Test func anExportsForecastTakesADayCountedFromToday() throws {
        let cli = try CLI.household()
        let csv = cli.ok(["export", "--format", "csv", "--what", "forecast", "--to", "+2y"] + Self.today)
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst()
        #expect(rows.count == 25, "\(rows.count) rows")  // April 2025 to April 2027 by month
        #expect(rows.last?.hasPrefix("2027-04-01") == true, "\(rows.last ?? "")")
        cli.fails(
            ["export", "--format", "csv", "--what", "forecast", "--to", "+2q"] + Self.today, mentioning: ["--to", "+2q", "+N with d, w, m or y"])
    }

    @Test func aTransferToOrFromACategoryIsRefused() throws {
        let cli = try CLI.initialized()
        let before = cli.state()
        let spent = cli.run(["transfer", "100", "--from", "VTB Debit", "--to", "Groceries"] + Self.today)
        #expect(spent.status == 64 && spent.stderr.contains("--to 'Groceries': it is an expense category, not an account"), "\(spent.stderr)")
        #expect(spent.stderr.contains("use `capital spend`"))
        let earned = cli.run(["transfer", "100", "--from", "Salary", "--to", "VTB Debit"] + Self.today)
        #expect(earned.status == 64 && earned.stderr.contains("--from 'Salary': it is an income category") && earned.stderr.contains("capital earn"))
        #expect(cli.state() == before)
    }

    @Test func everyOutFileIsTheOwnersOnly() throws {
        let cli = try CLI.household()
        let report = cli.path("report.html")
        cli.ok(["report", "--out", report] + Self.today)
        let results = cli.path("cars.csv")
        cli.ok(["scenario", "eval", CLI.root.appendingPathComponent("samples/cars.csv").path, "--format", "csv", "--out", results] + Self.today)
        for path in [report, results] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(path): \(String(mode, radix: 8))")
        }
    }

    @Test func aPrepaymentWithoutAnAmountNamesTheFullFlag() throws {
        let cli = try CLI.household()
        cli.fails(["loan", "prepay", "Car Loan", "--on", "2025-05-01"] + Self.today, mentioning: ["give the amount to repay, or --full"])
        cli.fails(
            ["loan", "prepay", "Car Loan", "100000", "--full", "--on", "2025-05-01"] + Self.today, mentioning: ["give an amount or --full, not both"])
    }

    /// A server that is no server is said before a password is read (standard input is left unread).
    @Test(arguments: [["sync", "login", "ftp://x", "--user", "anna"], ["sync", "reset-password", "ftp://x", "--user", "anna", "--token", "T"]])
    func aBadServerIsSaidBeforeThePassword(_ args: [String]) throws {
        let cli = try CLI.initialized()
        let result = cli.run(args + ["--password-stdin"], stdin: "")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("ftp://x") && result.stderr.contains("http://HOST:PORT or https://HOST"), "\(result.stderr)")
        #expect(!result.stderr.contains("standard input is empty"))
    }

    /// A record's field with no value is left out of the table (JSON has it as null).
    @Test func blankFieldsAreLeftOutOfATable() throws {
        let cli = try CLI.household()
        let table = cli.ok(["schedule", "show", "Salary Anna"] + Self.today)
        let lines = table.split(whereSeparator: \.isNewline)
        #expect(!lines.contains { $0.hasPrefix("End:") || $0.hasPrefix("Note:") || $0.hasPrefix("Expected:") }, "\(table)")
        #expect(lines.contains { $0.hasPrefix("Start:") })
        let json = try #require(try cli.json(["schedule", "show", "Salary Anna"] + Self.today) as? [String: Any])
        #expect(json["end"] is NSNull && json["note"] is NSNull)
        // Every line of a record has its value.
        let record = lines.prefix { !$0.isEmpty }
        #expect(record.allSatisfy { !$0.hasSuffix(":") }, "\(record)")
    }
}
