import CapitalCore
import CapitalTestSupport
import Foundation
import Testing
import Yams

@testable import CapitalStore

/// The ledger reader composes libyaml's events itself (`YAMLEvents`), one node at a time, instead
/// of through Yams's whole-file tree, and reads the plain block YAML capital writes with a fast
/// reader of its own (`YAMLBlockScanner`), which declines anything else. These tests hold both to
/// Yams, the reference they replaced: on the seed ledgers and over a thousand seeded mutations of
/// them, both accept or both refuse, and what they accept is the same tree — every scalar's text,
/// whether it was plain, every line — whichever of the two read it.
@Suite("YAML composer against Yams")
struct YAMLComposerTests {
    /// The whole tree by the reader's composer, or its error.
    static func composed(_ text: String, json: Bool) -> Result<YAMLNode?, LedgerFileError> {
        var text = text
        return text.withUTF8 { bytes in
            Result { () throws(LedgerFileError) -> YAMLNode? in
                try YAMLEvents.reading(bytes, file: "t", language: json ? "JSON" : "YAML") { (events) throws(LedgerFileError) -> YAMLNode? in
                    guard try events.root() else { return nil }
                    let node = try events.node()
                    try events.finish()
                    return node
                }
            }
        }
    }

    /// Whether the fast reader takes the text (else libyaml reads it).
    static func isBlock(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { YAMLBlockScanner.accepts($0) }
    }

    /// Where the two trees first differ, or nil when they are the same.
    static func difference(_ ours: YAMLNode, _ reference: Yams.Node, _ path: String = "") -> String? {
        switch (ours, reference) {
        case (.scalar(let a), .scalar(let b)):
            if a.string != b.string { return "\(path): text \(String(reflecting: a.string)) vs \(String(reflecting: b.string))" }
            if a.isPlain != (b.style == .plain) { return "\(path): plain \(a.isPlain) vs style \(b.style)" }
            return a.line == b.mark?.line ? nil : "\(path): line \(a.line) vs \(String(describing: b.mark?.line))"
        case (.mapping(let a), .mapping(let b)):
            let pairs = Array(b)
            guard a.line == b.mark?.line else { return "\(path): mapping line \(a.line) vs \(String(describing: b.mark?.line))" }
            guard a.pairs.count == pairs.count else { return "\(path): \(a.pairs.count) pairs vs \(pairs.count)" }
            for (index, (pair, other)) in zip(a.pairs, pairs).enumerated() {
                if let found = difference(pair.key, other.key, "\(path){\(index)}") ?? difference(pair.value, other.value, "\(path).\(index)") {
                    return found
                }
            }
            return nil
        case (.sequence(let a), .sequence(let b)):
            let items = Array(b)
            guard a.line == b.mark?.line else { return "\(path): list line \(a.line) vs \(String(describing: b.mark?.line))" }
            guard a.items.count == items.count else { return "\(path): \(a.items.count) items vs \(items.count)" }
            for (index, (item, other)) in zip(a.items, items).enumerated() {
                if let found = difference(item, other, "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return "\(path): \(ours) vs \(reference)"
        }
    }

    /// Checks one text; returns a problem or nil.
    static func check(_ text: String, json: Bool) -> String? {
        let reference: Result<Yams.Node?, Error> = Result { try Yams.compose(yaml: text, .basic) }
        switch (composed(text, json: json), reference) {
        case (.success(let ours), .success(let theirs)):
            switch (ours, theirs) {
            case (nil, nil): return nil
            case (let ours?, let theirs?): return difference(ours, theirs)
            default: return "one is empty: \(String(describing: ours)) vs \(String(describing: theirs))"
            }
        case (.failure(let error), .success):
            return "refused what Yams reads: \(error)"
        case (.success, .failure(let error)):
            return "read what Yams refuses: \(error)"
        case (.failure(let ours), .failure(let theirs)):
            // A syntax error is placed on Yams's line (its duplicate keys carry no line: ours do).
            guard let reference = theirs as? YamlError else { return nil }
            switch reference {
            case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
                return ours.location.line == mark.line
                    ? nil : "refused on line \(String(describing: ours.location.line)), Yams on \(mark.line): \(ours)"
            default:
                return nil
            }
        }
    }

    @Test(arguments: [("small.yaml", false), ("small.json", true), ("household.yaml", false)])
    func mutatedLedgersComposeAsYamsComposesThem(name: String, json: Bool) {
        let seed = [
            "small.yaml": HostileLedgerFileTests.smallYAML, "small.json": HostileLedgerFileTests.smallJSON,
            "household.yaml": HostileLedgerFileTests.household,
        ][name]!
        #expect(Self.check(seed, json: json) == nil)
        var hostile = Hostile(seed: 0x9A11 &+ UInt64(name.utf8.count))
        var problems = 0
        var composed = 0
        var fast = 0
        let cases = (name == "household.yaml" ? 60 : 600) * Hostile.scale
        for index in 0..<cases {
            let text = hostile.mutateLedger(seed)
            if case .success = Self.composed(text, json: json) { composed += 1 }
            if !json, Self.isBlock(text) { fast += 1 }
            if let problem = Self.check(text, json: json), problems < 5 {
                problems += 1
                Issue.record("\(name), case \(index): \(problem)\n\(text)")
            }
        }
        // Both outcomes are reached: the mutations neither all parse nor all fail; and the fast
        // reader took a good share of the YAML ones (what it declines, libyaml read).
        #expect(composed > cases / 10 && composed < cases)
        if !json { #expect(fast > cases / 10 && fast < cases, "the fast reader took \(fast) of \(cases)") }
    }

    /// What capital writes, the fast reader takes: the sample, the small ledger, a generated one.
    @Test func theFastReaderTakesWhatCapitalWrites() throws {
        let ledger = try SampleLedger.generate(rules: 20, years: 1, seed: 7, currency: Currency("EUR"), history: 300)
        var extras = LedgerExtras()
        for (id, state) in ledger.scheduleStates { extras.handledThrough[id] = state.handledThrough }
        let generated = LedgerFile.write(ledger, defaultAccountID: ledger.defaultAccountID, format: .yaml, extras: extras)
        for text in [HostileLedgerFileTests.household, HostileLedgerFileTests.smallYAML, generated] {
            #expect(Self.isBlock(text))
            #expect(Self.check(text, json: false) == nil)
        }
    }

    /// Each rule of the fast reader at its edge: it takes the first list (and reads each text as
    /// Yams does) and declines the second (which libyaml then reads, or refuses, as Yams does).
    @Test func theFastReaderTakesItsShapeAndDeclinesTheRest() {
        let taken = [
            "a:\n", "a:", "a:\nb: 1\n", "a: # c\n  - x\n", "a:\n\n  # c\n  b: 1\n", "- a\n- b\n", "- a: 1\n  b:\n- c\n",
            "a:\n  - b: 1\n    c: [x, \"y\", -1]\n  - d\n", "a: []\n", "a: [ x , y z ]  # c\n", "a: x#y\n", "a: x #y\n",
            "a: http://x:1\n", "a: 5*3 & more\n", "a: -1\n", "a:    b  c   \n", "a:\n  b:\n    c:\nd: e", "k_1: \"\"\n", "a: \"x\"  # c\n",
            "a: \"q\\\"u\\\\o\\u00e9\\x41\\U0001F600\\N\\_\\L\\P\\/\\0\\t\\ \"\n", "a: Пятёрочка №5 — €\n", "# only\n",
            "", "a: 1\n# end", "a:\n  - x\n\n\n", "- [a]\n- []\n", "- {a: 1, b: \"x\"}\n- {}\n", "a: { b: c d , e: -1 }\n", "a: {b: c}\n",
            "a: ~\nb: null\n",
        ]
        let declined = [
            "a: 'x'\n", "a: 'x\n", "a: |\n  x\n", "a: >\n  x\n", "a: x\n  y\n", "a:\n- x\n", "a: [x,\n y]\n", "a: \"x\n y\"\n", "a: {b: c,\n d: e}\n",
            "a: &x y\nb: *x\n", "a: !t y\n", "? a\n: b\n", "---\na: 1\n", "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n", "\ta: 1\n",
            "a: b\r\n", "a: \u{85}x\n", "a: x\u{2028}y\n", "a: \u{FEFF}\n", " a: 1\n", "a: 1\n b: 2\n", "a: b: c\n", "a: [a: b]\n",
            "a: [a, ]\n", "a: [\"x\"y]\n", "a: \"\\q\"\n", "a: \"\\ud800\"\n", "a: x:\n", "a: - b\n", "- - a\n", "-\n  a: 1\n",
            "a b: 1\n", "\"a\": 1\n", "a: `x`\n", "a: @x\n", "a: %x\n", "a: ,x\n", "a: \u{7F}\n", "a: \u{1}\n", "a: [x] y\n", "a: {b}\n",
            "a: {b: }\n", "a: {b: c, }\n", "a: {b: [c]}\n", "a: {b:c}\n", "a: {\"b\": c}\n",
            "a: \"x\" y\n", "a: \"x\"#c\n", "- a\nb: 1\n", "a: 1\n- b\n", "a\n", "[a]\n", "a:\n  b: 1\n c: 2\n",
        ]
        for text in taken {
            #expect(Self.isBlock(text), "declined: \(String(reflecting: text))")
            #expect(Self.check(text, json: false) == nil, "\(String(reflecting: text))")
        }
        for text in declined {
            #expect(!Self.isBlock(text), "taken: \(String(reflecting: text))")
            // (Yams drops a U+FEFF anywhere before libyaml reads; capital's libyaml reading keeps it.)
            if !text.contains("\u{FEFF}") { #expect(Self.check(text, json: false) == nil, "\(String(reflecting: text))") }
        }
    }

    @Test func anchorsAliasesAndEveryScalarStyleComposeAsInYams() {
        let text = """
            base: &base {account: Groceries, amount: "12.50"}
            list:
              - *base
              - &plain plain text
              - 'single ''quoted'''
              - "double \\u00e9 \\n"
              - |
                a literal
                block
              - >
                folded
                text
              - *plain
              - ~
              - [a, {b: c}, []]
            ? complex
            : key
            """
        #expect(Self.check(text, json: false) == nil)
    }

    @Test func aKeyTwiceIsRefusedOnItsLineWhereverItIs() {
        let text = """
            capital: 1
            currency: RUB
            transactions:
              - date: 2025-01-02
                payee: a
                payee: b
                postings: []
            """
        #expect(throws: LedgerFileError.self) { try LedgerFile.parse(text, file: "d.yaml") }
        do { _ = try LedgerFile.parse(text, file: "d.yaml") } catch {
            #expect(error.description == "d.yaml:5: syntax: not valid YAML: duplicate keys payee")
        }
    }

    @Test func aSecondDocumentIsRefused() {
        do {
            _ = try LedgerFile.parse("capital: 1\ncurrency: RUB\n---\ncapital: 1\n", file: "two.yaml")
            Issue.record("two documents were read")
        } catch {
            #expect(error.description == "two.yaml:3: syntax: not valid YAML: expected a single document in the stream but found another document")
        }
    }

    /// Transactions are read as they are composed, yet errors come in the file's usual order: the
    /// format's version and the accounts before the transactions, syntax anywhere before either.
    @Test func errorsInTheStreamedTransactionsComeInTheirUsualOrder() {
        func message(_ text: String) -> String {
            do {
                _ = try LedgerFile.parse(text, file: "o.yaml")
                return "read"
            } catch { return error.description }
        }
        let badTransaction = "transactions:\n  - date: 2025-13-01\n    amount: 1\n    from: A\n    to: B\n"
        #expect(message("capital: 1\ncurrency: RUB\n" + badTransaction).hasPrefix("o.yaml:4: transactions[0].date:"))
        #expect(message(badTransaction + "capital: 2\ncurrency: RUB\n").hasPrefix("o.yaml:6: capital: '2' is not a ledger format"))
        #expect(message(badTransaction + "currency: RUB\naccounts:\n  - name: A\n").hasPrefix("o.yaml:8: accounts[0].kind: missing"))
        #expect(message("capital: 1\ncurrency: RUB\n" + badTransaction + "schedules: [\n").hasPrefix("o.yaml:9: syntax: not valid YAML"))
        // An alias in a transaction stands for an anchor written before it.
        let aliased = """
            capital: 1
            currency: RUB
            accounts:
              - {name: &cash Cash, kind: cash}
              - {name: Food, kind: expense}
            transactions:
              - {date: 2025-01-02, amount: 5, from: *cash, to: Food}
            """
        #expect((try? LedgerFile.parse(aliased, file: "a.yaml"))?.transactions.first?.postings.last?.account == "Cash")
    }
}
