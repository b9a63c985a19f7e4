import CapitalCore
import CapitalStore
import CapitalTestSupport
import Foundation
import Testing

/// Hostile text through the real binary: SQL-looking strings, quotes, semicolons, YAML
/// indicators and odd Unicode in every free-text field stay data, unchanged from the command line
/// to `export` (YAML and JSON) and `--format json`; and mutated ledger files, amounts, dates,
/// rules, IBANs and scenario CSVs give a result or exactly one `capital: error:` line on stderr
/// with a non-zero exit, never a crash.
@Suite("CLI: hostile text")
struct HostileTextTests {
    /// Text that would break SQL built by string interpolation, YAML written without quoting, or
    /// a CSV or JSON writer that forgot to escape. Names may not hold `=`, line breaks or other
    /// control characters (a TAB: issue 51, item 17, refused in `InputBoundaryTests`), nor start
    /// or end with spaces, so none of these do.
    static let texts = [
        "Robert'); DROP TABLE account; --", "'; DROP TABLE txn; --", "\"quoted\" and 'single'", "semi;colon; -- comment /* block */",
        "?1 :name @p $x %_ wild*", "back\\slash \\n \\u0041 \\\"", "#hash: colon, comma [x] {y} & *z !t | >", "yes", "null", "0x1F",
        "2025-01-01", "Ёлка ☃ 😀 👩‍👩‍👧 e\u{301} \u{202E}rtl",
    ]

    @Test func freeTextStaysDataThroughExportAndJSON() throws {
        let cli = try CLI.initialized()
        for (index, text) in Self.texts.enumerated() {
            let day = String(format: "2025-02-%02d", index + 1)
            let tag = text.replacingOccurrences(of: ",", with: " ")  // a tag may not hold a comma
            cli.ok(["account", "add", "A \(text)", "--kind", "debit", "--note", text])
            cli.ok(["category", "add", "C \(text)"])
            cli.ok(["group", "add", "G \(text)", "--type", "cash-flow", "--account", "A \(text)"])
            cli.ok(["spend", "5", "C \(text)", "--from", "A \(text)", "--on", day, "--payee", text, "--note", text, "--spender", text, "--tag", tag])
            cli.ok([
                "schedule", "add", "S \(text)", "--rule", "monthly on 5", "--start", "2025-03-05", "--amount", "10", "--from", "A \(text)", "--to",
                "C \(text)", "--note", text,
            ])
            cli.ok([
                "due", "add", "bill", "--total", "7", "--due", "2025-04-01", "--reason", text, "--address", text, "--institution", text, "--from",
                "A \(text)",
                "--category", "C \(text)",
            ])
            cli.ok(["calendar", "add-holiday", "RU", String(format: "2025-07-%02d", index + 1), "--name", text])
        }
        let names = Self.texts.flatMap { ["A \($0)", "C \($0)", "G \($0)", "S \($0)"] }

        // The ledger file in YAML, read back by capital's own reader.
        let yaml = cli.ok(["export"])
        let document = try LedgerFile.parse(yaml, file: "export.yaml")
        for text in Self.texts {
            #expect(document.accounts.contains { $0.name == "A \(text)" && $0.note == text }, "account 'A \(text)'")
            #expect(document.accounts.contains { $0.name == "C \(text)" }, "category 'C \(text)'")
            #expect(document.groups.contains { $0.name == "G \(text)" && $0.accounts.map(\.name) == ["A \(text)"] }, "group 'G \(text)'")
            let tag = text.replacingOccurrences(of: ",", with: " ")
            #expect(
                document.transactions.contains { $0.payee == text && $0.note == text && $0.spender == text && $0.tags == [tag] },
                "transaction of '\(text)'")
            #expect(document.schedules.contains { $0.input.name == "S \(text)" && $0.input.note == text }, "schedule 'S \(text)'")
            #expect(document.dues.contains { $0.input.reason == text && $0.input.address == text && $0.input.institution == text }, "due '\(text)'")
            #expect(document.calendars.flatMap(\.holidays).contains { $0.name == text }, "holiday '\(text)'")
        }

        // The same in JSON, read by Foundation: every text is a string value, unchanged.
        let json = try Self.strings(in: cli.ok(["export", "--format", "json"]))
        for expected in Self.texts + names { #expect(json.contains(expected), "export --format json lacks \(String(reflecting: expected))") }

        // Listings in JSON.
        let listings: [([String], [String])] = [
            (["account", "list"], Self.texts.map { "A \($0)" }), (["category", "list"], Self.texts.map { "C \($0)" }),
            (["group", "list"], Self.texts.map { "G \($0)" }), (["tx", "list"], Self.texts), (["schedule", "list"], Self.texts.map { "S \($0)" }),
            (["due", "list"], Self.texts),
        ]
        for (command, expected) in listings {
            let values = try Self.strings(in: cli.ok(command + ["--format", "json"]))
            for text in expected {
                #expect(values.contains(text), "\(command.joined(separator: " ")) --format json lacks \(String(reflecting: text))")
            }
        }

        // And the tables still hold every row: no text ended a row or a statement early.
        #expect(try cli.rows(["tx", "list"]).count == Self.texts.count)
        #expect(try cli.rows(["due", "list"]).count == Self.texts.count)

        // Importing the export gives the same export: nothing was lost or re-read as syntax.
        for format in ["yaml", "json"] {
            let file = cli.path("export.\(format)")
            cli.ok(["export", "--format", format, "--out", file])
            let copy = try CLI()
            copy.ok(["import", file])
            #expect(copy.ok(["export", "--format", format]) == cli.ok(["export", "--format", format]), "\(format) export → import → export differs")
        }
    }

    /// Every string value in a JSON document.
    static func strings(in json: String) throws -> Set<String> {
        var found: Set<String> = []
        func walk(_ value: Any) {
            if let text = value as? String { found.insert(text) }
            if let array = value as? [Any] { array.forEach(walk) }
            if let object = value as? [String: Any] { object.values.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]))
        return found
    }

    /// Looking an account up by a name full of SQL wildcards finds that account, not others.
    @Test func wildcardsInANameMatchOnlyThatName() throws {
        let cli = try CLI.initialized()
        cli.ok(["account", "add", "%", "--kind", "cash"])
        cli.ok(["account", "add", "_", "--kind", "cash"])
        cli.ok(["spend", "3", "Groceries", "--from", "%"])
        let balances = Dictionary(
            uniqueKeysWithValues: try cli.rows(["account", "list"]).compactMap { row in row.string("name").map { ($0, row.string("balance") ?? "") } }
        )
        #expect(balances["%"] == "-3.00")
        #expect(balances["_"] == "0.00")
        #expect(balances["VTB Debit"] == "0.00")
        cli.fails(["account", "show", "%%"], mentioning: ["'%%'", "not found"])
    }

    // MARK: Mutated input through the binary

    /// Exit 0, or a non-zero exit with exactly one stderr line starting `capital: error: `.
    static func check(_ result: CLI.Result, _ what: @autoclosure () -> String, failures: inout Int, sourceLocation: SourceLocation = #_sourceLocation)
    {
        guard result.status != 0 else { return }
        let lines = result.stderr.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        let ok = result.status > 0 && result.status < 128 && lines.count == 2 && lines[1].isEmpty && result.stderr.hasPrefix("capital: error: ")
        if !ok && failures < 5 {
            failures += 1
            Issue.record("\(what()): \(result)", sourceLocation: sourceLocation)
        }
    }

    static let smallLedger = """
        capital: 1
        currency: RUB
        defaultAccount: VTB Debit
        accounts:
          - name: VTB Debit
            kind: debit
            floor: 20000
          - name: Groceries
            kind: expense
          - name: Salary
            kind: income
          - name: Card
            kind: credit-card
        transactions:
          - date: 2025-01-01
            amount: 250000
            from: Capital
            to: VTB Debit
          - date: 2025-01-05
            payee: Magnit
            amount: 1 234,50
            from: VTB Debit
            to: Groceries
        schedules:
          - name: Salary
            rule: monthly on 10
            start: 2025-01-10
            amount: 180000
            from: Salary
            to: VTB Debit
          - name: Food
            rule: FREQ=WEEKLY;BYDAY=SA
            start: 2025-01-04
            amount: 2000..3500
            from: VTB Debit
            to: Groceries
        cards:
          - account: Card
            payFrom: VTB Debit
            limit: 150000
            statementDay: 25
            dueAfter: 20
        dues:
          - type: fine
            total: 500
            reason: Speeding
            due: 2025-04-20

        """

    static let smallJSONLedger = """
        {
          "capital": 1,
          "currency": "RUB",
          "defaultAccount": "VTB Debit",
          "accounts": [
            {"name": "VTB Debit", "kind": "debit", "floor": "20000"},
            {"name": "Salary", "kind": "income"},
            {"name": "Groceries \\ud83d\\ude00", "kind": "expense"}
          ],
          "transactions": [
            {"date": "2025-01-01", "amount": "250000", "from": "Capital", "to": "VTB Debit"},
            {"date": "2025-01-05", "payee": "\\"Magnit\\" 😀", "amount": "1234.50", "from": "VTB Debit", "to": "Groceries 😀"}
          ],
          "schedules": [
            {"name": "Salary", "rule": "FREQ=MONTHLY;BYMONTHDAY=10", "start": "2025-01-10", "amount": "180000", "from": "Salary", "to": "VTB Debit"}
          ]
        }

        """

    @Test func mutatedLedgerFilesAnswerOrFailOnOneLine() throws {
        let cli = try CLI()
        let household = try String(contentsOfFile: CLI.samplePath, encoding: .utf8)
        var hostile = Hostile(seed: 0xF11E)
        var failures = 0
        let commands = [["balance"], ["forecast", "--until", "2025-09"], ["can-spend"], ["due", "list"], ["stats", "--by", "month"]]
        // The seeds themselves answer.
        for (name, seed) in [("small.yaml", Self.smallLedger), ("small.json", Self.smallJSONLedger)] {
            try Data(seed.utf8).write(to: URL(fileURLWithPath: cli.path(name)))
            cli.ok(["-f", cli.path(name), "--today", "2025-04-01", "forecast", "--until", "2025-09"])
        }
        for index in 0..<(60 * Hostile.scale) {
            let json = index % 4 == 1
            let text = hostile.mutateLines(json ? Self.smallJSONLedger : index % 4 == 0 ? household : Self.smallLedger)
            let file = cli.path("mutated-\(index).\(json ? "json" : "yaml")")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let command = hostile.pick(commands)
            let result = cli.run(["-f", file, "--today", "2025-04-01"] + command)
            Self.check(result, "case \(index), capital -f <mutated> \(command.joined(separator: " ")):\n\(text)", failures: &failures)
        }
    }

    @Test func mutatedValuesOnTheCommandLineAnswerOrFailOnOneLine() throws {
        let cli = try CLI.initialized()
        var hostile = Hostile(seed: 0xC11)
        var failures = 0
        let seeds: [(values: [String], command: (String) -> [String])] = [
            (["1234.5", "1 234,50", "+3", "92233720368547758.07"], { ["spend", $0, "Groceries", "--on", "2025-01-02"] }),
            (["2025-03-01", "2025-12", "2024-02-29"], { ["balance", "--on", $0] }),
            (
                ["monthly on 31", "FREQ=MONTHLY;BYDAY=-1FR", "every 2 weeks on fri", "yearly on 02-29"],
                {
                    ["rule", "expand", $0, "--start", "2025-01-31", "--until", "2025-12-31"]
                }
            ),
            (
                ["DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 32"],
                {
                    ["due", "add", "bill", "--total", "5", "--due", "2025-05-01", "--reason", "x", "--iban", $0]
                }
            ),
            (["12", "7.75", "0.0001"], { ["loan", "schedule", "--principal", "100000", "--rate", $0, "--term", "12", "--start", "2025-01-01"] }),
        ]
        for index in 0..<(100 * Hostile.scale) {
            let (values, command) = seeds[index % seeds.count]
            // Arguments cannot hold NUL: the kernel would cut them there.
            let value = hostile.mutate(hostile.pick(values)).replacingOccurrences(of: "\u{0}", with: "")
            let args = command(value)
            Self.check(cli.run(args), "case \(index), capital \(args.map { String(reflecting: $0) }.joined(separator: " "))", failures: &failures)
        }
    }

    @Test func mutatedScenarioFilesAnswerOrFailOnOneLine() throws {
        let cli = try CLI.initialized()
        let seed = try String(contentsOfFile: CLI.root.appendingPathComponent("samples/cars.csv").path, encoding: .utf8)
        var hostile = Hostile(seed: 0xCA5)
        var failures = 0
        for index in 0..<(40 * Hostile.scale) {
            var bytes = Array(hostile.mutateLines(seed).utf8)
            // Maybe not UTF-8 afterwards.
            if hostile.below(2) == 0, !bytes.isEmpty { bytes[hostile.below(bytes.count)] = UInt8(truncatingIfNeeded: hostile.below(256)) }
            let file = cli.path("cars-\(index).csv")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let result = cli.run(["scenario", "eval", file, "--today", "2025-04-01"])
            Self.check(result, "case \(index), capital scenario eval <mutated>:\n\(String(decoding: bytes, as: UTF8.self))", failures: &failures)
        }
    }
}

/// Seeded mutation of command-line values and files on CapitalTestSupport's draws.
extension Hostile {
    static let pieces: [String] = [
        "\"", "'", ":", ": ", "\t", "\n", "\r\n", ";", "=", ",", ".", "-", "--", "+", "#", "&a ", "*a", "? ", "[", "]", "{", "}", "\\", "\u{1B}[31m",
        "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{202E}", "\u{A0}", "\u{2212}", "é", "Ё", "☃", "😀", "١٢", "１２", "99999999999999999999",
        "-9223372036854775808", "1e309", "NaN", "'; DROP TABLE account; --", "null", "yes", "2025-02-29", "9999-12-31", "FREQ=", ";COUNT=999999999",
    ]

    static let scalarRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x30...0x39, 0x01...0x1F, 0x80...0xFF, 0x400...0x4FF, 0x1F300...0x1FAFF, 1...0x10FFFF,
    ]

    /// One to four edits.
    mutating func mutate(_ text: String) -> String {
        var s = Array(text.unicodeScalars)
        for _ in 0...below(3) { edit(&s, span: 6, nines: 30, choices: 7, pieces: Self.pieces, scalars: Self.scalarRanges) }
        return Self.string(s)
    }

    /// One or two edits by line (delete, duplicate, swap, indent, dedent) or inside a line.
    mutating func mutateLines(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...below(2) {
            let at = below(lines.count)
            switch below(7) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[at], at: at)
            case 2: lines.swapAt(at, below(lines.count))
            case 3: lines[at] = "  " + lines[at]
            case 4: lines[at] = String(lines[at].drop { $0 == " " })
            default: lines[at] = mutate(lines[at])
            }
            if lines.isEmpty { lines = [""] }
        }
        return lines.joined(separator: "\n")
    }
}
