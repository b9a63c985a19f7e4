import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalStore

/// Hostile ledger files: thousands of seeded mutations of valid YAML and JSON (lines deleted,
/// duplicated, swapped, re-indented; characters flipped, inserted, deleted; cut short; quotes,
/// colons, tabs, Unicode, huge numbers, deep nesting, tags, anchors and aliases put in), read by
/// `LedgerFile.parse` and, when they parse, loaded into a store. Each must give a ledger or an
/// error on one line, never a trap, in bounded time; alias bombs are refused in milliseconds.
///
/// Seeded SplitMix64 rather than a property-testing package, as in the core's hostile tests.
@Suite("Hostile input: ledger files")
struct HostileLedgerFileTests {
    /// A small ledger that uses every section, so that mutations reach every reader.
    static let smallYAML = """
        capital: 1
        currency: RUB
        defaultAccount: VTB Debit
        calendar: RU
        calendars:
          - name: RU
            holidays:
              - date: 2025-06-13
                name: Bridge day
            workingDays:
              - date: 2025-11-01
        accounts:
          - name: VTB Debit
            kind: debit
            floor: 20000
            level: 2
          - name: Tinkoff Card
            kind: credit-card
            note: "Statement on the 25th: paid in full"
          - name: Sber Deposit
            kind: deposit
          - name: Car
            kind: fixed-asset
            valueChange: -15
            valueSince: 2024-06-20
            icon: 🚗
            color: "#2e8b57"
          - name: Mortgage
            kind: loan
          - name: Salary
            kind: income
          - name: Groceries
            kind: expense
            hidden: no
          - name: Utilities
            kind: expense
        groups:
          - name: Everyday money
            type: cash-flow
            accounts: [VTB Debit]
        transactions:
          - date: 2025-01-01
            payee: Opening balances
            postings:
              - account: VTB Debit
                amount: 250000
              - account: Capital
          - id: 3f2a1c4e-8b7d-4e21-9a0b-5c6d7e8f9a0b
            date: 2025-01-05
            payee: Magnit
            spender: Anna
            tags: [food, weekly]
            amount: 1 234,50
            from: VTB Debit
            to: Groceries
        schedules:
          - name: Salary Anna
            rule: monthly on 10
            start: 2025-01-10
            adjust: preceding
            amount: 180000
            from: Salary
            to: VTB Debit
            handledThrough: 2025-01-31
            exceptions:
              - date: 2025-03-10
                moveTo: 2025-03-07
          - name: Market
            rule: FREQ=WEEKLY;BYDAY=SA;COUNT=20
            start: 2025-01-04
            amount: 2000..3500
            from: VTB Debit
            to: Groceries
        loans:
          - account: Mortgage
            payFrom: VTB Debit
            principal: 5000000
            rate: 15
            term: 180
            start: 2023-01-05
            prepayments:
              - date: 2026-01-05
                amount: 100000
                reduce: payment
        cards:
          - account: Tinkoff Card
            payFrom: VTB Debit
            limit: 150000
            statementDay: 25
            dueAfter: 20
        deposits:
          - account: Sber Deposit
            rate: 16
            capitalisation: monthly
            opened: 2025-02-10
            maturity: 2025-08-10
            payout: VTB Debit
        dues:
          - type: bill
            total: 5400
            paid: 2000
            reason: "Electricity, March"
            due: 2025-04-10
            category: Utilities
            iban: DE89 3704 0044 0532 0130 00
        budgets:
          - category: Groceries
            amount: 40000
            from: 2025-01-01

        """

    /// The small ledger as capital writes it in JSON.
    static let smallJSON: String = {
        let store = try! Store.inMemory()
        try! store.importDocument(try! LedgerFile.parse(smallYAML, file: "small.yaml"))
        return try! store.export(format: .json)
    }()

    static let household: String = try! String(contentsOfFile: Sample.householdPath, encoding: .utf8)

    @Test func theSeedsAreValidLedgers() throws {
        for (text, file) in [(Self.smallYAML, "small.yaml"), (Self.smallJSON, "small.json"), (Self.household, "household.yaml")] {
            _ = try Store.load(try LedgerFile.parse(text, file: file))
        }
    }

    @Test func mutatedSmallYAMLParsesOrFailsOnOneLine() throws {
        try Self.fuzz(seed: 0x7A, cases: 1_500 * Hostile.scale, seeds: [Self.smallYAML], file: "small.yaml", loads: 300)
    }

    @Test func mutatedSmallJSONParsesOrFailsOnOneLine() throws {
        try Self.fuzz(seed: 0x150, cases: 750 * Hostile.scale, seeds: [Self.smallJSON], file: "small.json", loads: 200)
    }

    /// The whole sample is slower to read, so it gets fewer cases (and keeps its mutations for
    /// a single load).
    @Test func mutatedHouseholdParsesOrFailsOnOneLine() throws {
        try Self.fuzz(seed: 0x40, cases: 60 * Hostile.scale, seeds: [Self.household], file: "household.yaml", loads: 40, pile: false)
    }

    // MARK: Alias bombs and deep nesting

    /// `levels` anchors, each a list of ten aliases to the one before: 10^levels scalars.
    static func laughs(levels: Int, indent: String = "") -> String {
        var lines = ["\(indent)- &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...levels {
            lines.append("\(indent)- &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n")
    }

    static let bombs: [(String, String)] = [
        ("under an unknown key", "currency: RUB\nlol:\n\(laughs(levels: 9, indent: "  "))\n"),
        ("as account names", "currency: RUB\naccounts:\n\(laughs(levels: 9, indent: "  "))\n"),
        ("as mapping keys, which Yams hashes", "currency: RUB\nlol:\n\(laughs(levels: 9, indent: "  "))\n  - {? *l9 : a, ? *l8 : b}\n"),
        (
            "as keys doubling at each level",
            "currency: RUB\nx0: &k0 {a: [b, c]}\n"
                + (1...40).map { "x\($0): &k\($0) {? *k\($0 - 1) : 1, ? [*k\($0 - 1)] : 2}" }.joined(separator: "\n") + "\n"
        ),
        (
            "a long scalar repeated",
            "currency: RUB\nnote: &n \"\(String(repeating: "laugh ", count: 20_000))\"\nlol: ["
                + Array(repeating: "*n", count: 20_000).joined(separator: ",") + "]\n"
        ),
        (
            "in JSON",
            "{\"currency\": \"RUB\", \"lol\": [\(laughs(levels: 9).split(separator: "\n").map { $0.dropFirst(2) }.joined(separator: ", "))]}"
        ),
    ]

    @Test(arguments: bombs)
    func anAliasBombIsRefusedQuickly(name: String, text: String) throws {
        let clock = ContinuousClock()
        var result: Result<LedgerDocument, LedgerFileError>?
        let elapsed = clock.measure {
            result = Result { () throws(LedgerFileError) in try LedgerFile.parse(text, file: name.hasSuffix("JSON") ? "bomb.json" : "bomb.yaml") }
        }
        #expect(elapsed < .seconds(2), "\(name): took \(elapsed)")
        guard case .failure(let error) = result else {
            Issue.record("\(name): read as a ledger")
            return
        }
        #expect(Hostile.isOneLine(error.description))
        #expect(error.description.contains("alias"), "\(error)")
    }

    /// Aliases that stand for a little more than they take are fine: a ledger may name an
    /// account once with an anchor.
    @Test func modestAliasesAreRead() throws {
        let text = """
            currency: RUB
            accounts:
              - name: &debit VTB Debit
                kind: debit
              - name: &food Groceries
                kind: expense
            transactions:
            \((1...50).map { "  - {date: 2025-01-\(String(format: "%02d", $0 % 28 + 1)), amount: \($0), from: *debit, to: *food}" }.joined(separator: "\n"))

            """
        let document = try LedgerFile.parse(text, file: "aliases.yaml")
        #expect(document.transactions.count == 50)
        #expect(document.transactions.allSatisfy { $0.postings.map(\.account) == ["Groceries", "VTB Debit"] })
    }

    @Test(arguments: [
        ("flow lists", "currency: RUB\naccounts: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"),
        (
            "flow mappings",
            "currency: RUB\naccounts: " + String(repeating: "{a: ", count: 50_000) + "b" + String(repeating: "}", count: 50_000) + "\n"
        ),
        ("block lists", "currency: RUB\naccounts:\n" + String(repeating: "- ", count: 50_000) + "x\n"),
        ("block mappings", "currency: RUB\n" + (0..<1_100).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " x\n"),
        ("just under the limit", "currency: RUB\nlol: " + String(repeating: "[", count: 990) + String(repeating: "]", count: 990) + "\n"),
    ])
    func deepNestingIsRefusedOrReadWithoutExhaustingTheStack(name: String, text: String) throws {
        do {
            _ = try LedgerFile.parse(text, file: "deep.yaml")
            Issue.record("\(name): read as a ledger")
        } catch {
            #expect(Hostile.isOneLine(error.description), "\(name): \(error)")
            if name != "just under the limit" { #expect(error.description.contains("nest more than 1000 levels deep"), "\(error)") }
        }
    }

    @Test(arguments: [
        ("a quoted key with a line break", "currency: RUB\n\"a\\nb\": 1\n\"a\\nb\": 2\n"),
        ("a block scalar as a currency", "currency: |\n  RUB\n  EUR\n"),
        ("a rule over two lines", "currency: RUB\nschedules:\n  - name: x\n    start: 2025-01-01\n    rule: |\n      monthly\n      on 5\n"),
        ("a file name with a line break", "currency: QQQ\n"),
    ])
    func errorsQuotingLineBreaksStayOnOneLine(name: String, text: String) throws {
        do {
            _ = try Store.load(try LedgerFile.parse(text, file: "odd\nname.yaml"))
            Issue.record("\(name): read as a ledger")
        } catch {
            #expect(Hostile.isOneLine("\(error)"), "\(name): \(error)")
        }
    }

    // MARK: Findings

    /// Ledger files that hung or printed several lines before their fixes, committed under
    /// `Tests/Fixtures/fuzz/ledger/` (libFuzzer findings from `Scripts/fuzz/run.sh` go there, their
    /// first byte, which picked the reader, dropped and the reader named by the extension).
    @Test func ledgerFindingsParseOrFailOnOneLine() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/ledger")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                do {
                    _ = try Store.load(try LedgerFile.parse(text, file: name))
                } catch {
                    #expect(Hostile.isOneLine("\(error)"), "\(name): \(error)")
                }
            }
            #expect(elapsed < .seconds(2), "\(name) took \(elapsed)")
        }
    }

    // MARK: The fuzzing loop

    /// Mutates `seeds` `cases` times; parses each; loads the first `loads` that parse into a
    /// store. With `pile`, later cases mutate earlier mutations too.
    static func fuzz(
        seed: UInt64, cases: Int, seeds: [String], file: String, loads: Int, pile: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var hostile = Hostile(seed: seed)
        var pool = seeds
        var failures = 0
        var loaded = 0
        var parsed = 0
        var slowest: (Duration, Int) = (.zero, 0)
        let clock = ContinuousClock()
        let began = clock.now
        for index in 0..<cases {
            let base = !pile || hostile.below(3) == 0 ? hostile.pick(seeds) : hostile.pick(pool)
            let text = hostile.mutateLedger(base)
            if pile && text.utf8.count < 3 * (seeds.map(\.utf8.count).max() ?? 0) {
                if pool.count < 32 { pool.append(text) } else { pool[hostile.below(pool.count)] = text }
            }
            var problems: [String] = []
            let elapsed = clock.measure {
                do throws(LedgerFileError) {
                    let document = try LedgerFile.parse(text, file: file)
                    parsed += 1
                    if loaded < loads {
                        loaded += 1
                        do { _ = try Store.load(document) } catch {
                            let message = "\(error)"
                            if !Hostile.isOneLine(message) { problems.append("load error on more than one line: \(String(reflecting: message))") }
                        }
                    }
                } catch {
                    if error.message.isEmpty { problems.append("an empty error message") }
                    if !Hostile.isOneLine(error.description) {
                        problems.append("error on more than one line: \(String(reflecting: error.description))")
                    }
                }
            }
            if elapsed > slowest.0 { slowest = (elapsed, index) }
            if !problems.isEmpty && failures < 5 {
                failures += 1
                Issue.record("seed \(seed), case \(index): \(problems.joined(separator: "; "))\n\(text)", sourceLocation: sourceLocation)
            }
        }
        // The figures for docs/reliability.md.
        print("hostile ledger files: \(file), seed \(seed): \(cases) cases, \(parsed) parsed, \(loaded) loaded, \(clock.now - began)")
        #expect(slowest.0 < .seconds(2), "seed \(seed): case \(slowest.1) took \(slowest.0)", sourceLocation: sourceLocation)
        #expect(parsed > 0, "no mutation parsed: the seeds or the mutations are broken", sourceLocation: sourceLocation)
    }
}

/// Seeded mutation of valid ledger text: line edits and YAML pieces on CapitalTestSupport's draws.
extension Hostile {
    static let pieces: [String] = [
        "\"", "'", ":", ": ", " #", "\t", "\n", "\r\n", "\r", ";", "=", ",", "-", "- ", "? ", "---\n", "...\n", "%YAML 1.1\n", "&a ", "*a",
        "&b [x, *a]",
        "<<: *a", "!!str ", "!!binary ", "!custom ", "|", ">-", "[", "]", "{", "}", "[[[[[[[[", "{a: {b: {c: ", "@", "`", "\\", "\\u", "\\ud83d",
        "\\ude00", "\\ud83d\\ude00", "\\u0000", "\u{0}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{200B}", "\u{202E}", "\u{A0}",
        "é", "Ё", "☃", "😀", "👩‍👩‍👧", "99999999999999999999", "-9223372036854775808", "92233720368547758.07", "1e309", ".nan", "0x1F", "0o17",
        "'; DROP TABLE account; --", "null", "~", "yes", "on", "2025-02-29", "9999-12-31", "0000-01-01", "FREQ=DAILY;COUNT=999999999",
        "every 1 days", "RUB", "XXX", "capital: 2",
    ]

    static let scalarRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x30...0x39, 0x00...0x1F, 0x80...0xFF, 0x400...0x4FF, 0x1F300...0x1FAFF, 0...0x10FFFF,
    ]

    /// One to three edits (mostly one, so that a fair share still parses and reaches the store),
    /// by line or by character.
    mutating func mutateLedger(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...[0, 0, 0, 1, 2][below(5)] {
            let at = below(lines.count)
            switch below(14) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[at], at: at)
            case 2: lines.swapAt(at, below(lines.count))
            case 3: lines[at] = String(repeating: " ", count: 1 + below(4)) + lines[at]  // indent
            case 4: lines[at] = String(lines[at].drop { $0 == " " })  // dedent
            case 5: lines.removeSubrange(min(at + 1, lines.count)...)  // truncate at a line
            case 6:  // a section many times over
                let length = min(lines.count - at, 1 + below(12))
                lines.insert(contentsOf: Array(repeating: lines[at..<at + length], count: 1 + below(50)).joined(), at: at)
            default: lines[at] = mutate(lines[at])
            }
            if lines.isEmpty { lines = [""] }
        }
        var result = lines.joined(separator: "\n")
        if below(20) == 0 {  // cut anywhere, even inside a character's bytes
            let bytes = Array(result.utf8)
            result = String(decoding: bytes[..<below(bytes.count + 1)], as: UTF8.self)
        }
        return result
    }

    /// One edit inside a line (pieces twice as likely as in the command-line tests).
    mutating func mutate(_ text: String) -> String {
        var s = Array(text.unicodeScalars)
        edit(&s, span: 8, nines: 40, choices: 8, pieces: Self.pieces, scalars: Self.scalarRanges)
        return Self.string(s)
    }
}
