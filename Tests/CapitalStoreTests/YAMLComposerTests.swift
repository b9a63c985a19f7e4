import CapitalCore
import CapitalTestSupport
import Foundation
import Testing
import Yams

@testable import CapitalStore

/// The ledger reader composes libyaml's events itself (`YAMLEvents`), one node at a time, instead
/// of through Yams's whole-file tree. These tests hold it to Yams, the reference it replaced: on
/// the seed ledgers and over a thousand seeded mutations of them, both accept or both refuse, and what
/// they accept is the same tree — every scalar's text, whether it was plain, every line.
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
        let cases = (name == "household.yaml" ? 60 : 600) * Hostile.scale
        for index in 0..<cases {
            let text = hostile.mutateLedger(seed)
            if case .success = Self.composed(text, json: json) { composed += 1 }
            if let problem = Self.check(text, json: json), problems < 5 {
                problems += 1
                Issue.record("\(name), case \(index): \(problem)\n\(text)")
            }
        }
        // Both outcomes are reached: the mutations neither all parse nor all fail.
        #expect(composed > cases / 10 && composed < cases)
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
