import CapitalOutput
import Foundation
import Testing

@testable import capital

/// `capital export --format csv`: tables for spreadsheets, read back with a parser of the test's own.
@Suite("CLI: export --format csv")
struct ExportCSVTests {
    /// RFC 4180 read by the letter, independently of capital's writer: records end in CRLF, a
    /// quoted field may hold commas, CR, LF and doubled quotes; a bare LF or a stray quote outside
    /// quotes is an error.
    struct Strict4180 {
        struct Malformed: Error, CustomStringConvertible {
            var description: String
        }

        static func parse(_ text: String) throws -> [[String]] {
            let scalars = Array(text.unicodeScalars)
            var records: [[String]] = []
            var record: [String] = []
            var field = String.UnicodeScalarView()
            var i = 0
            var quoted = false
            var fieldStart = true
            while i < scalars.count {
                let c = scalars[i]
                if quoted {
                    if c == "\"" {
                        if i + 1 < scalars.count && scalars[i + 1] == "\"" {
                            field.append("\"")
                            i += 2
                            continue
                        }
                        quoted = false
                        i += 1
                        guard i == scalars.count || scalars[i] == "," || scalars[i] == "\r" else {
                            throw Malformed(description: "text after a closing quote at \(i)")
                        }
                        continue
                    }
                    field.append(c)
                    i += 1
                    continue
                }
                switch c {
                case "\"" where fieldStart:
                    quoted = true
                    fieldStart = false
                    i += 1
                case "\"":
                    throw Malformed(description: "a quote inside an unquoted field at \(i)")
                case ",":
                    record.append(String(field))
                    field = String.UnicodeScalarView()
                    fieldStart = true
                    i += 1
                case "\r":
                    guard i + 1 < scalars.count, scalars[i + 1] == "\n" else { throw Malformed(description: "CR without LF at \(i)") }
                    record.append(String(field))
                    records.append(record)
                    record = []
                    field = String.UnicodeScalarView()
                    fieldStart = true
                    i += 2
                case "\n":
                    throw Malformed(description: "a bare LF ends a record at \(i)")
                default:
                    field.append(c)
                    fieldStart = false
                    i += 1
                }
            }
            guard !quoted else { throw Malformed(description: "an unclosed quote") }
            guard record.isEmpty && field.isEmpty else { throw Malformed(description: "the last record does not end in CRLF") }
            return records
        }
    }

    /// The CSV's records as dictionaries by header, checking that every record is as long as the header.
    func table(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (header: [String], rows: [[String: String]]) {
        let records = try Strict4180.parse(text)
        let header = try #require(records.first, sourceLocation: sourceLocation)
        for record in records { #expect(record.count == header.count, "\(record)", sourceLocation: sourceLocation) }
        return (header, records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }

    static let transactionHeader = [
        "date", "payee", "account", "category", "amount", "currency", "value", "kind", "note", "postingNote", "spender", "tags", "counterparts",
        "transaction",
    ]

    /// A small ledger whose sums are known from what was typed.
    static func ledger() throws -> CLI {
        let cli = try CLI.initialized()
        cli.ok(["earn", "100000", "Salary", "--on", "2025-01-10"])
        cli.ok(["spend", "500", "Groceries", "--on", "2025-01-15", "--payee", "Smith, J.", "--tag", "food", "--tag", "weekly"])
        cli.ok(["spend", "250.50", "Groceries", "--on", "2025-02-01"])
        cli.ok([
            "tx", "add", "--on", "2025-02-05", "--payee", "Bank", "--posting", "Loan interest=600", "--posting", "Other=400", "--posting",
            "VTB Debit",
        ])
        cli.ok(["spend", "99.99", "Transport", "--on", "2025-03-01"])
        return cli
    }

    @Test func transactionsAreOneRowPerPostingWithAHeaderAndCRLF() throws {
        let cli = try Self.ledger()
        let text = cli.ok(["export", "--format", "csv", "--what", "transactions"])
        #expect(!text.hasPrefix("\u{FEFF}"))
        #expect(text.hasPrefix(Self.transactionHeader.joined(separator: ",") + "\r\n"))
        let (header, rows) = try table(text)
        #expect(header == Self.transactionHeader)
        #expect(rows.count == 2 + 2 + 2 + 3 + 2)
        #expect(
            rows.map { $0["date"]! } == ["2025-01-10", "2025-01-10", "2025-01-15", "2025-01-15", "2025-02-01", "2025-02-01"]
                + Array(repeating: "2025-02-05", count: 3) + ["2025-03-01", "2025-03-01"])
        // Categories in `category`, balance-sheet accounts in `account`: never both.
        for row in rows { #expect((row["account"]!.isEmpty) != (row["category"]!.isEmpty), "\(row)") }
        let smith = rows.filter { $0["payee"] == "Smith, J." }
        #expect(smith.map { $0["category"]! } == ["Groceries", ""] && smith.map { $0["account"]! } == ["", "VTB Debit"])
        #expect(smith.map { $0["amount"]! } == ["500.00", "-500.00"])
        #expect(smith.allSatisfy { $0["tags"] == "food;weekly" && $0["currency"] == "RUB" })
        #expect(smith.map { $0["counterparts"]! } == ["VTB Debit", "Groceries"])
        let bank = rows.filter { $0["payee"] == "Bank" }
        #expect(bank.map { $0["kind"]! } == ["expense", "expense", "debit"])
        #expect(bank.last?["counterparts"] == "Loan interest;Other")
    }

    @Test func amountsSumAsTheTransactionsDo() throws {
        let cli = try Self.ledger()
        let (_, rows) = try table(cli.ok(["export", "--format", "csv"]))
        func sum(_ pick: ([String: String]) -> Bool) -> Int64 { rows.filter(pick).reduce(0) { $0 + minorUnits($1["amount"]!)! } }
        // What was typed: 500 + 250.50 on groceries; 100 000 in, everything out of the one debit account.
        #expect(sum { $0["category"] == "Groceries" } == 750_50)
        #expect(sum { $0["category"] == "Salary" } == -100_000_00)
        #expect(sum { $0["account"] == "VTB Debit" } == 100_000_00 - 500_00 - 250_50 - 1_000_00 - 99_99)
        #expect(sum { $0["kind"] == "expense" } == 500_00 + 250_50 + 600_00 + 400_00 + 99_99)
        // Double entry: every transaction's rows sum to zero, and so does the whole file.
        for id in Set(rows.map { $0["transaction"]! }) { #expect(sum { $0["transaction"] == id } == 0, "\(id)") }
        #expect(sum { _ in true } == 0)
    }

    @Test func fromAndToAreInclusiveAndTakeMonths() throws {
        let cli = try Self.ledger()
        let (_, february) = try table(cli.ok(["export", "--format", "csv", "--from", "2025-02", "--to", "2025-02"]))
        #expect(Set(february.map { $0["date"]! }) == ["2025-02-01", "2025-02-05"])
        let (_, oneDay) = try table(cli.ok(["export", "--what", "transactions", "--from", "2025-01-15", "--to", "2025-01-15"]))
        #expect(oneDay.count == 2 && oneDay.allSatisfy { $0["date"] == "2025-01-15" })
        let (header, none) = try table(cli.ok(["export", "--format", "csv", "--from", "2030-01-01"]))
        #expect(header == Self.transactionHeader && none.isEmpty)
    }

    /// Payees that break naive CSV, and ones a spreadsheet would run as a formula. Texts with line
    /// breaks go in the note only: a payee refuses control characters (issue 51, item 17).
    static let awkward: [(typed: String, guarded: String)] = [
        ("Smith, J.", "Smith, J."), ("The \"Best\" Café", "The \"Best\" Café"), ("two\nlines", "two\nlines"), ("crlf\r\ninside", "crlf\r\ninside"),
        ("=1+1", "'=1+1"), ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"), ("+7 999 123", "'+7 999 123"),
        ("-5% promo", "'-5% promo"), ("@SUM(A1)", "'@SUM(A1)"), ("a=b", "a=b"), ("Ёлка 🎄", "Ёлка 🎄"), ("", ""),
    ]

    /// The payee a case is typed with, and how it comes out: the text itself, or `Shop` for a text
    /// with a line break (which only a note may hold).
    static func payee(_ typed: String, _ guarded: String) -> (typed: String, guarded: String) {
        typed.contains(where: \.isNewline) ? ("Shop", "Shop") : (typed, guarded)
    }

    /// A text starting with a TAB cannot be typed any more; the writer still guards it (a ledger
    /// from before may hold one).
    @Test func aLeadingTabIsGuarded() {
        let text = CSVWriter(lineEnd: "\n").write(header: ["payee"], rows: [[.text("\tTab")]])
        #expect(text == "payee\n'\tTab\n")
    }

    @Test(arguments: awkward)
    func awkwardPayeesAreQuotedAndFormulasMadeInert(typed: String, guarded: String) throws {
        let cli = try CLI.initialized()
        let payee = Self.payee(typed, guarded)
        cli.ok(["spend", "12.34", "Groceries", "--on", "2025-01-15", "--payee", payee.typed, "--note", typed, "--tag", "t"])
        let (_, rows) = try table(cli.ok(["export", "--format", "csv"]))
        #expect(rows.count == 2)
        for row in rows {
            #expect(row["payee"] == payee.guarded && row["note"] == guarded)
            #expect(row["amount"] == "12.34" || row["amount"] == "-12.34", "amounts are numbers, never guarded")
        }
        let (_, raw) = try table(cli.ok(["export", "--format", "csv", "--raw"]))
        #expect(raw.allSatisfy { $0["payee"] == payee.typed && $0["note"] == typed })
    }

    /// Listings (`--format csv` of any command) go through the same writer: quoted as RFC 4180
    /// says, formulas made inert, amounts never guarded; lines end in LF.
    @Test(arguments: awkward)
    func listingsQuoteAndGuardTheSameWay(typed: String, guarded: String) throws {
        let cli = try CLITemplate.initialized.copy()
        let payee = Self.payee(typed, guarded)
        cli.ok(["spend", "12.34", "Groceries", "--on", "2025-01-15", "--payee", payee.typed, "--note", typed])
        let text = cli.ok(["tx", "list", "--format", "csv"])
        #expect(text.hasPrefix("id,date,payee,amount,currency,from,to,spender,note\n"))
        let field = CSVWriter.quoted(guarded)
        #expect(text.hasSuffix(",2025-01-15,\(CSVWriter.quoted(payee.guarded)),12.34,RUB,VTB Debit,Groceries,,\(field)\n"), "\(text)")
    }

    @Test func aNameStartingWithMinusIsGuardedButNegativeAmountsAreNot() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "--kind", "debit", "--", "-Old card"])
        cli.ok(["tx", "add", "--on", "2025-01-02", "--posting", "Groceries=10", "--posting", "-Old card"])
        let text = cli.ok(["export", "--format", "csv"])
        #expect(text.contains(",'-Old card,,-10.00,RUB,-10.00,debit,"))
        #expect(text.contains(",,Groceries,10.00,RUB,10.00,expense,") && text.contains(",'-Old card,"))
    }

    @Test func bomIsOnlyThereWhenAsked() throws {
        let cli = try Self.ledger()
        let file = cli.path("out.csv")
        cli.ok(["export", "--format", "csv", "--bom", "--out", file])
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let text = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        #expect(try table(text).header == Self.transactionHeader)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let plain = Data(cli.ok(["export", "--format", "csv"]).utf8)
        #expect(plain.first == UInt8(ascii: "d"))
        #expect(plain == bytes.dropFirst(3), "the same table, less the BOM")
    }

    @Test func anExponentZeroCurrencyHasNoDecimals() throws {
        let cli = try CLI()
        cli.ok(["init", "--currency", "JPY"])
        cli.ok(["account", "add", "Wallet", "--kind", "cash", "--default"])
        cli.ok(["spend", "1200", "Groceries", "--on", "2025-01-02"])
        let (_, rows) = try table(cli.ok(["export", "--format", "csv"]))
        #expect(rows.map { $0["amount"]! } == ["1200", "-1200"] && rows.allSatisfy { $0["currency"] == "JPY" })
    }

    @Test func ledgerFileExportsAreAsBefore() throws {
        let cli = try Self.ledger()
        #expect(cli.ok(["export"]).hasPrefix("# capital ledger file"))
        #expect(cli.ok(["export", "--format", "json"]).hasPrefix("{\n  \"capital\": 1,"))
    }

    // MARK: forecast

    /// 10 000 on the debit account, 3 000 rent on the 5th of every month: balances known by hand.
    static func rent() throws -> CLI {
        let cli = try CLI.initialized()
        cli.ok(["earn", "10000", "Salary", "--on", "2025-03-31"])
        cli.ok([
            "schedule", "add", "Rent", "--rule", "monthly on 5", "--start", "2025-04-05", "--amount", "3000", "--from", "VTB Debit", "--to",
            "Housing",
        ])
        return cli
    }

    @Test func forecastRowsArePeriodsWithOpeningFlowsClosingAndTheLowestDay() throws {
        let cli = try Self.rent()
        let text = cli.ok([
            "--today", "2025-04-01", "export", "--format", "csv", "--what", "forecast", "--account", "VTB Debit", "--to", "2025-06-10",
        ])
        let (header, rows) = try table(text)
        #expect(header == ["start", "end", "opening", "inflow", "outflow", "closing", "min", "minDay", "currency"])
        let expected: [[String]] = [
            ["2025-04-01", "2025-04-30", "10000.00", "0.00", "-3000.00", "7000.00", "7000.00", "2025-04-05", "RUB"],
            ["2025-05-01", "2025-05-31", "7000.00", "0.00", "-3000.00", "4000.00", "4000.00", "2025-05-05", "RUB"],
            ["2025-06-01", "2025-06-10", "4000.00", "0.00", "-3000.00", "1000.00", "1000.00", "2025-06-05", "RUB"],
        ]
        #expect(rows.map { row in header.map { row[$0]! } } == expected)
    }

    @Test func forecastByDayFromALaterDayOpensWithTheDayBefore() throws {
        let cli = try Self.rent()
        let args = ["--today", "2025-04-01", "export", "--what", "forecast", "--by", "day", "--from", "2025-05-04", "--to", "2025-05-06"]
        let (header, rows) = try table(cli.ok(args))
        #expect(
            rows.map { row in header.map { row[$0]! } } == [
                ["2025-05-04", "2025-05-04", "7000.00", "0.00", "0.00", "7000.00", "7000.00", "2025-05-04", "RUB"],
                ["2025-05-05", "2025-05-05", "7000.00", "0.00", "-3000.00", "4000.00", "4000.00", "2025-05-05", "RUB"],
                ["2025-05-06", "2025-05-06", "4000.00", "0.00", "0.00", "4000.00", "4000.00", "2025-05-06", "RUB"],
            ])
    }

    @Test func forecastExportAgreesWithTheForecastCommand() throws {
        let cli = try CLI.household()
        let (_, rows) = try table(
            cli.ok(["--today", "2025-04-01", "export", "--what", "forecast", "--by", "week", "--to", "2025-09-30", "--expected"]))
        let object = try #require(
            try cli.json(["--today", "2025-04-01", "forecast", "--by", "week", "--until", "2025-09-30", "--expected"]) as? [String: Any])
        let periods = try #require(object["periods"] as? [[String: Any]])
        #expect(rows.count == periods.count && rows.count > 20)
        for (row, period) in zip(rows, periods) {
            for key in ["start", "end", "opening", "inflow", "outflow", "closing", "min", "minDay"] {
                #expect(row[key] == period.string(key), "\(key)")
            }
        }
    }

    // MARK: bad input

    static let badCommands: [(args: [String], mentions: [String])] = [
        (["export", "--format", "csv", "--what", "nonsense"], ["--what 'nonsense'", "transactions, forecast or dues"]),
        (["export", "--what", "bills"], ["--what 'bills'", "transactions, forecast or dues"]),
        (["export", "--format", "csv", "--from", "2025-03-01", "--to", "2025-02-01"], ["--to '2025-02-01'", "before --from 2025-03-01"]),
        (["export", "--format", "csv", "--from", "2025-13-01"], ["--from", "'2025-13-01'"]),
        (["export", "--format", "csv", "--to", "yesterday"], ["--to", "'yesterday'"]),
        (["export", "--format", "table"], ["--format 'table'", "yaml, json, csv or journal"]),
        (["export", "--format", "yaml", "--bom"], ["--bom: goes with --format csv"]),
        (["export", "--what", "transactions", "--expected"], ["--expected: goes with --what forecast"]),
        (["export", "--format", "json", "--from", "2025-01-01"], ["--from '2025-01-01'", "goes with --format csv"]),
        (["export", "--format", "csv", "--by", "week"], ["--by 'week'", "goes with --what forecast"]),
        (["export", "--what", "transactions", "--account", "VTB Debit"], ["--account 'VTB Debit'", "goes with --what forecast"]),
        (["--today", "2025-04-01", "export", "--what", "forecast", "--by", "fortnight"], ["--by 'fortnight'", "day, week or month"]),
        (
            ["--today", "2025-04-01", "export", "--what", "forecast", "--from", "2025-03-31"],
            ["--from '2025-03-31'", "a forecast starts today (2025-04-01)"]
        ),
        (["--today", "2025-04-01", "export", "--what", "forecast", "--to", "2025-03"], ["--to '2025-03'", "before today 2025-04-01"]),
        (
            ["--today", "2025-04-01", "export", "--what", "forecast", "--from", "2026-06-01"],
            ["--from '2026-06-01'", "after the forecast's last day 2026-04-01"]
        ),
        (["--today", "2025-04-01", "export", "--what", "forecast", "--level", "9"], ["--level '9'"]),
        (["--today", "2025-04-01", "export", "--what", "forecast", "--account", "Groceries"], ["--account 'Groceries'", "balance-sheet"]),
    ]

    @Test(arguments: badCommands)
    func badInputIsOneLineWritesNoFileAndChangesNothing(args: [String], mentions: [String]) throws {
        let cli = try CLI.initialized()
        let file = cli.path("out.csv")
        cli.fails(args + ["--out", file], mentioning: mentions)
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
