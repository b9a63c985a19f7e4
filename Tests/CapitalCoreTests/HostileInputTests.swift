import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalCore

/// Hostile input for every text parser of the core: thousands of seeded, mutated inputs each
/// (valid forms with characters flipped, inserted and deleted, pieces duplicated, swapped and cut,
/// quotes, colons, tabs, line breaks, control characters, odd Unicode and huge numbers put in).
/// Every input must give a result or an error whose message is one line, never a trap, and in
/// bounded time; a result must also survive the parser's own round trip.
///
/// The generator is the seeded SplitMix64 the money tests use, not a property-testing package: the
/// core stays free of dependencies, every case repeats exactly from its seed, and a failure names
/// the seed, the case and the input, which is what shrinking would give for inputs this short.
@Suite("Hostile input: core parsers")
struct HostileInputTests {
    /// Cases per parser (each runs its parser one or more times); readable rules, whose errors
    /// each compute a suggestion by edit distance, get fewer.
    static let cases = 2_000 * Hostile.scale

    // MARK: Amounts

    static let amountSeeds = [
        "1234.5", "1 234,50", "-12", "+3", "0.01", "92233720368547758.07", "-92233720368547758.08", "1\u{202F}000 000",
        "12,34.5", "1'234'567.89", "1_000", "\u{2212}5", "007", "0", "999999999999999999999",
    ]

    @Test func amountsParseOrFailOnOneLine() throws {
        let currencies = try ["RUB", "JPY", "KWD", "CLF"].map { try Currency($0) }
        try Hostile.run(seed: 0xA1, cases: Self.cases, seeds: Self.amountSeeds) { text, report in
            for currency in currencies {
                let money: Money
                do { money = try Money(parsing: text, currency: currency) } catch {
                    report.oneLine("\(error)")
                    continue
                }
                // Whatever was read prints and reads back as the same amount.
                do {
                    let again = try Money(parsing: money.plain, currency: currency)
                    if again != money { report("read as \(money.minor), but its plain form '\(money.plain)' reads as \(again.minor)") }
                } catch {
                    report("read as \(money.minor), but its plain form '\(money.plain)' is refused: \(error)")
                }
            }
        }
    }

    // MARK: Dates

    static let daySeeds = ["2025-03-01", "2024-02-29", "2025-12", "0001-01-01", "9999-12-31", "2025-02-30", "25-1-1", "2025-13"]

    @Test func datesParseOrFailOnOneLine() throws {
        try Hostile.run(seed: 0xD4, cases: Self.cases, seeds: Self.daySeeds) { text, report in
            do {
                let day = try Day(iso: text)
                if day.iso != text { report("read as \(day.iso), which is not the text") }
            } catch {
                report.oneLine("\(error)")
            }
            for form in [Day.MonthForm.startOfMonth, .endOfMonth] {
                do { _ = try Day(parsing: text, monthAs: form) } catch { report.oneLine("\(error)") }
            }
        }
    }

    // MARK: RRULE

    static let rruleSeeds = [
        "FREQ=MONTHLY;BYDAY=-1FR", "RRULE:freq=weekly;interval=2;byday=mo,th", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
        "FREQ=DAILY;COUNT=10", "FREQ=MONTHLY;UNTIL=20251231T235959Z;BYMONTHDAY=15,-1", "FREQ=YEARLY;BYWEEKNO=1,-1;BYDAY=MO;WKST=SU",
        "FREQ=YEARLY;BYYEARDAY=1,100,-1", "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU;UNTIL=2026-06-30", "FREQ=HOURLY", "FREQ=DAILY;BYHOUR=9",
    ]

    @Test func rrulesParseOrFailOnOneLineAndExpandBounded() throws {
        let start = try Day(iso: "2025-01-15")
        let range = DayRange(start, start.advanced(by: 2 * 366))
        try Hostile.run(seed: 0x22, cases: Self.cases, seeds: Self.rruleSeeds) { text, report in
            let rule: Recurrence
            do { rule = try Recurrence(rrule: text) } catch {
                report.oneLine("\(error)")
                return
            }
            do {
                if try Recurrence(rrule: rule.rrule) != rule { report("its canonical form '\(rule.rrule)' reads as another rule") }
            } catch {
                report("its canonical form '\(rule.rrule)' is refused: \(error)")
            }
            do { try rule.validate(start: start) } catch { report.oneLine("\(error)") }
            _ = rule.occurrenceCount(start: start, in: range)
            _ = ReadableRule.print(rule, adjustment: .none)
        }
    }

    // MARK: Readable rules

    @Test func readableRulesParseOrFailOnOneLine() throws {
        let start = try Day(iso: "2025-01-31")
        let range = DayRange(start, start.advanced(by: 400))
        try Hostile.run(
            seed: 0x8E, cases: 1_000 * Hostile.scale, seeds: ReadableRule.examples + ["every 2 weeks on mon,wed,fri", "annually on 12-31"]
        ) {
            text, report in
            let (rule, adjustment): (Recurrence, BusinessDayAdjustment)
            do { (rule, adjustment) = try ReadableRule.parse(text) } catch {
                report.oneLine("\(error)")
                return
            }
            _ = rule.occurrenceCount(start: start, in: range)
            guard let printed = ReadableRule.print(rule, adjustment: adjustment) else { return }
            do {
                let (again, againAdjustment) = try ReadableRule.parse(printed)
                if again != rule || againAdjustment != adjustment { report("prints as '\(printed)', which reads as another rule") }
            } catch {
                report("prints as '\(printed)', which is refused: \(error)")
            }
        }
    }

    /// The suggestion for an unreadable rule compares it with every documented form: a pasted page
    /// must cost no more than a short rule.
    @Test func aLongUnreadableRuleIsRefusedQuickly() throws {
        let text = String(repeating: "monthly on the 2nd tuesday\n", count: 4_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: RecurrenceError.self) { try ReadableRule.parse(text) }
        }
        #expect(elapsed < .seconds(1), "took \(elapsed)")
        do { _ = try ReadableRule.parse(text) } catch { #expect(Hostile.isOneLine("\(error)")) }
    }

    // MARK: IBANs

    static let ibanSeeds = [
        "DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 32", "fr14 2004 1010 0505 0001 3m02 606", "NO9386011117947",
        "RU0204452560040702810412345678901", "LC55HEMM000100010012001200023015", "DE89\r\n3704 0044 0532 0130 00",
    ]

    @Test func ibansValidateOrFailOnOneLine() throws {
        try Hostile.run(seed: 0x1B, cases: Self.cases, seeds: Self.ibanSeeds) { text, report in
            let iban: IBAN
            do { iban = try IBAN(validating: text) } catch {
                report.oneLine("\(error)")
                return
            }
            if IBAN.mod97(iban.bban + iban.countryCode + iban.checkDigits) != 1 { report("accepted with a wrong checksum") }
            do {
                if try IBAN(validating: iban.printed) != iban { report("its printed form '\(iban.printed)' is another IBAN") }
            } catch {
                report("its printed form '\(iban.printed)' is refused: \(error)")
            }
        }
    }

    // MARK: Scenario CSV

    static let scenarioSeeds = [
        "name,price,date,down,loan_rate,loan_term\nOctavia,2400000,2025-09-01,500000,14,60\n\"Skoda \"\"Rapid\"\", 1.6\",1800000.50,2025-10-01,0,9.9,36\n",
        "price,date,instalments,monthly_cost,yearly_cost,cost_start\n90000,2025-06-01,12,700,12000,2025-07-01\n# a comment\n\n",
        "name,price,date,monthly_income_change,income_start,sale,sale_date,loan_method,loan_rate,loan_term,down\n"
            + "Flat,5000000,2026-01-10,-4000,2026-02-01,1000000,2026-01-20,linear,7.5,240,1000000\r\n",
    ]

    @Test func scenarioCSVReadsOrFailsOnOneLine() throws {
        try Hostile.run(seed: 0x5C, cases: Self.cases, seeds: Self.scenarioSeeds) { text, report in
            // Half the cases also get byte edits that need not be UTF-8, from a generator seeded by
            // the text, so that they repeat too.
            var bytes = Array(text.utf8)
            var local = Hostile(seed: Hostile.fnv1a(bytes))
            if local.below(2) == 0 { bytes = local.mutate(bytes: bytes) }
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            for exponent in [0, 2, 3] {
                do {
                    let csv = try ScenarioCSV(header: bytes[..<end])
                    let body = bytes[min(end + 1, bytes.count)...]
                    let (rows, _) = csv.rows(body, firstLine: 2, exponent: exponent, threads: 1)
                    for row in rows {
                        if case .failure(let error) = row.scenario { report.oneLine("\(error)") }
                    }
                    if let first = body.split(separator: UInt8(ascii: "\n")).first {
                        do { _ = try csv.scenario(first, exponent: exponent, line: 2) } catch { report.oneLine("\(error)") }
                    }
                } catch {
                    report.oneLine("\(error)")
                }
            }
            _ = ScenarioCSV.fields(bytes[...])
        }
    }

    /// Eighteen digits fit the field reader but not once scaled to minor units: refused, not a trap.
    @Test(arguments: ["999999999999999999", "99999999999999999.9", "-999999999999999999"])
    func anAmountPastInt64InMinorUnitsIsAnError(price: String) throws {
        let csv = try ScenarioCSV(header: Array("price,date,monthly_income_change".utf8)[...])
        let line = Array("1000,2025-06-01,\(price)".utf8)
        #expect(throws: ScenarioFieldError.self) { try csv.scenario(line[...], exponent: 2, line: 2) }
        let priced = Array("\(price),2025-06-01,".utf8)
        #expect(throws: ScenarioFieldError.self) { try csv.scenario(priced[...], exponent: 2, line: 2) }
    }

    // MARK: Findings

    /// Inputs that crashed, hung or printed several lines before their fixes, committed under
    /// `Tests/Fixtures/fuzz/` (libFuzzer findings from `Scripts/fuzz/run.sh` go there too).
    static func findings(_ kind: String) -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/\(kind)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { (name, Array($0)) }
        }
    }

    @Test func ruleFindingsParseOrFailOnOneLine() throws {
        let findings = Self.findings("rrule")
        #expect(!findings.isEmpty)
        for (name, bytes) in findings {
            let text = String(decoding: bytes, as: UTF8.self)
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                do { _ = try Recurrence(rrule: text) } catch { #expect(Hostile.isOneLine("\(error)"), "\(name): \(error)") }
                do { _ = try ReadableRule.parse(text) } catch { #expect(Hostile.isOneLine("\(error)"), "\(name): \(error)") }
            }
            #expect(elapsed < .seconds(1), "\(name) took \(elapsed)")
        }
    }

    @Test func scenarioFindingsReadOrFailOnOneLine() throws {
        let findings = Self.findings("scenario")
        #expect(!findings.isEmpty)
        for (name, bytes) in findings {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let csv = try ScenarioCSV(header: bytes[..<end])
            let (rows, _) = csv.rows(bytes[min(end + 1, bytes.count)...], firstLine: 2, exponent: 2, threads: 1)
            #expect(!rows.isEmpty, "\(name)")
            for row in rows {
                if case .failure(let error) = row.scenario { #expect(Hostile.isOneLine("\(error)"), "\(name): \(error)") }
            }
        }
    }

    // MARK: One line

    @Test(arguments: [
        ("monthly\non 5", "monthly\\non 5"), ("DE89\r\n3704", "DE89\\r\\n3704"), ("a\tb", "a\\tb"), ("\u{1B}[31mred", "\\u{1B}[31mred"),
        ("line\u{2028}separator", "line\\u{2028}separator"), ("plain 'text': ☃", "plain 'text': ☃"),
    ])
    func singleLineEscapesLineBreaksAndControlCharacters(text: String, escaped: String) {
        #expect(text.singleLine == escaped)
    }

    @Test func errorsQuotingALineBreakStayOnOneLine() throws {
        let messages: [String] = [
            "\(try #require(throws: MoneyError.self) { try Money(parsing: "12\n34", currency: Currency("RUB")) })",
            "\(try #require(throws: DayError.self) { try Day(iso: "2025-01\n-01") })",
            "\(try #require(throws: RecurrenceError.self) { try Recurrence(rrule: "FREQ=MONTHLY;\nBYDAY=XX") })",
            "\(try #require(throws: RecurrenceError.self) { try ReadableRule.parse("monthly\non 5") })",
            "\(try #require(throws: IBANError.self) { try IBAN(validating: "DE89\r\n3704") })",
        ]
        for message in messages {
            #expect(Hostile.isOneLine(message), "\(message)")
        }
    }
}

/// Seeded mutation of valid text into hostile text (the draws are CapitalTestSupport's), and the
/// checks every case makes.
extension Hostile {
    /// Pieces that parsers trip on.
    static let pieces: [String] = [
        "\"", "'", ":", ": ", "\t", "\n", "\r\n", "\r", ";", "=", ",", ".", "-", "+", "#", "&a ", "*a", "!!str ", "|", ">", "[", "]", "{", "}",
        "%", "@", "`", "\\", "\\u", "\\ud83d", "\u{0}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{200B}", "\u{202E}",
        "\u{A0}", "\u{202F}", "\u{2212}", "é", "e\u{301}", "Ё", "☃", "😀", "👩‍👩‍👧", "١٢", "１２", "Ⅻ", "99999999999999999999", "-9223372036854775808",
        "9223372036854775807", "18446744073709551616", "1e309", "NaN", "-0", "0x1F", "00000000000000000000001", "'; DROP TABLE account; --",
        "null", "~", "yes", "2025-02-29", "99991231", "T", "Z", "1MO", "-53", "366", "BYDAY=", "FREQ=", "on", "last", "every",
    ]

    /// A scalar from a random class: ASCII, digits, controls, Latin-1, Cyrillic, CJK, emoji, or anywhere.
    mutating func scalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x30...0x39, 0x00...0x1F, 0x80...0xFF, 0x400...0x4FF, 0x4E00...0x9FFF, 0x1F300...0x1FAFF, 0...0x10FFFF,
        ]
        return scalar(in: ranges)
    }

    /// `text` with one to four random edits.
    mutating func mutate(_ text: String) -> String {
        var s = Array(text.unicodeScalars)
        for _ in 0...below(4) {
            let at = below(s.count + 1)
            let length = min(s.count - at, 1 + below(8))
            switch below(11) {
            case 0 where !s.isEmpty: s[min(at, s.count - 1)] = scalar()
            case 1: s.insert(contentsOf: pick(Self.pieces).unicodeScalars, at: at)
            case 2: s.removeSubrange(at..<at + length)
            case 3: s.insert(contentsOf: s[at..<at + length], at: at)
            case 4:  // swap two pieces
                let other = below(s.count + 1)
                let otherLength = min(s.count - other, 1 + below(8))
                if at + length <= other || other + otherLength <= at {
                    let (first, second) = at < other ? ((at, length), (other, otherLength)) : ((other, otherLength), (at, length))
                    let a = Array(s[first.0..<first.0 + first.1]), b = Array(s[second.0..<second.0 + second.1])
                    s.replaceSubrange(second.0..<second.0 + second.1, with: a)
                    s.replaceSubrange(first.0..<first.0 + first.1, with: b)
                }
            case 5: s.removeSubrange(at...)  // truncate
            case 6 where s.count < 2_000:  // a piece many times over
                let piece = length > 0 ? Array(s[at..<at + length]) : Array(pick(Self.pieces).unicodeScalars)
                s.insert(contentsOf: Array(repeating: piece, count: 1 + below(500)).joined(), at: at)
            case 7: s.insert(scalar(), at: at)
            case 8: s.insert(contentsOf: String(repeating: "9", count: 1 + below(40)).unicodeScalars, at: at)
            case 9 where !s.isEmpty:  // flip the case of a letter, or a digit to another
                let i = min(at, s.count - 1)
                let value = s[i].value
                if (65...90).contains(value) || (97...122).contains(value) { s[i] = Unicode.Scalar(value ^ 0x20)! }
                if (48...57).contains(value) { s[i] = Unicode.Scalar(48 + UInt32(below(10)))! }
            default: s.insert(contentsOf: pick(Self.pieces).unicodeScalars, at: at)
            }
        }
        return Self.string(s)
    }

    /// `bytes` with one to four random byte edits, invalid UTF-8 included.
    mutating func mutate(bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0...below(4) {
            let at = below(bytes.count + 1)
            switch below(4) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = UInt8(below(256))
            case 1: bytes.insert(pick([0xFF, 0xC0, 0x80, 0xE2, 0x00, 0x22, 0x2C, 0x0A, 0x0D]), at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(6)))
            default: bytes.insert(contentsOf: Array(pick(Self.pieces).utf8), at: at)
            }
        }
        return bytes
    }

    /// FNV-1a: a hash that, unlike `Hasher`, is the same in every process.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// What a case found wrong: an error on more than one line, or a broken property.
    struct Report {
        var problems: [String] = []
        mutating func callAsFunction(_ problem: String) { problems.append(problem) }
        mutating func oneLine(_ message: String) {
            if message.isEmpty {
                problems.append("an empty error message")
            } else if !Hostile.isOneLine(message) {
                problems.append("error on more than one line: \(String(reflecting: message))")
            }
        }
    }

    /// Runs `check` on `cases` inputs: the seeds as they are, then mutations of them (and of
    /// earlier mutations, so edits pile up). Records the first problems found with their case
    /// number and input, and the slowest case.
    static func run(
        seed: UInt64, cases: Int, seeds: [String], slowest limit: Duration = .seconds(1),
        sourceLocation: SourceLocation = #_sourceLocation, _ check: (String, inout Report) throws -> Void
    ) throws {
        var hostile = Hostile(seed: seed)
        var pool = seeds
        var failures = 0
        var slowest: (Duration, Int) = (.zero, 0)
        let clock = ContinuousClock()
        for index in 0..<cases {
            let text: String
            if index < seeds.count {
                text = seeds[index]
            } else {
                let base = hostile.below(3) == 0 ? hostile.pick(seeds) : hostile.pick(pool)
                text = hostile.mutate(base)
                // Edits pile up on earlier mutations, but long ones are not kept: they slow every
                // later edit and the dedicated long-input tests cover length.
                if text.utf8.count <= 4_000 {
                    if pool.count < 64 { pool.append(text) } else { pool[hostile.below(pool.count)] = text }
                }
            }
            var report = Report()
            let elapsed = try clock.measure { try check(text, &report) }
            if elapsed > slowest.0 { slowest = (elapsed, index) }
            if !report.problems.isEmpty && failures < 5 {
                failures += 1
                Issue.record(
                    "seed \(seed), case \(index), input \(String(reflecting: text)): \(report.problems.joined(separator: "; "))",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(slowest.0 < limit, "seed \(seed): case \(slowest.1) took \(slowest.0)", sourceLocation: sourceLocation)
    }
}
