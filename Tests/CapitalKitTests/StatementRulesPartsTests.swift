import CapitalCore
import Foundation
import Testing

@testable import CapitalKit

/// A CSV statement read by rules in batches, each batch's records in parts on two threads, reads
/// exactly as in one pass: the same lines in file order, the same rules matched, the same skipped
/// count, and the same error — the first in file order, whether from the rules, a date, an amount
/// or the reader — or the same `end`, after which nothing counts, an error included.
@Suite("Kit: statement records read in parts on two threads, as in one pass")
struct StatementRulesPartsTests {
    static let rules = """
        skip 1
        separator ;
        fields date, payee, note, amount
        date-format %Y-%m-%d
        decimal-mark ,
        description %payee
        comment %note

        if %payee ^(REWE|EDEKA)
         account2 expenses:groceries

        if %note gehalt|lohn
         account2 income:salary

        if %payee [0-9]{3}
         comment numbered %note

        if SKIPME
         skip

        if STOPHERE
         end
        """

    /// What a reading came to: its lines, matches and skipped count, or its error's text.
    enum Outcome: Equatable {
        case read([StatementLine], [[String]], Int)
        case failed(String)
    }

    static func outcome(_ text: String, threads: Int, batch: Int, minimumPart: Int) -> Outcome {
        do {
            let rules = try StatementRules(text: Self.rules, path: "bank.rules") { _, _ in throw KitError.refused(reason: "no includes") }
            let reading = try rules.read(
                text, exponent: 2, separator: UInt8(ascii: ","), path: "bank.csv", threads: threads, batch: batch, minimumPart: minimumPart)
            return .read(reading.statement.lines, reading.matched, reading.skipped)
        } catch {
            return .failed("\(error)")
        }
    }

    /// A statement of `count` records after a header, drawn from `seed`; `special` puts a given
    /// record (by its 0-based number) in place of a drawn one.
    static func statement(_ count: Int, seed: UInt64, special: [Int: String] = [:]) -> String {
        var random = SplitMix64(seed: seed)
        let payees = ["REWE Markt", "EDEKA 123", "Stadtwerke", "ACME GmbH", "Bäckerei Müller", "SKIPME Gebühr", "Kiosk 42"]
        let notes = ["Einkauf", "Gehalt Mai", "Lohn", "Abschlag", "\"Miete; Juni\"", ""]
        var text = "date;payee;note;amount\n"
        for index in 0..<count {
            if let line = special[index] {
                text += line + "\n"
                continue
            }
            let day = 1 + Int(random.next() % 28)
            let payee = payees[Int(random.next() % UInt64(payees.count))]
            let note = notes[Int(random.next() % UInt64(notes.count))]
            let cents = Int(random.next() % 100_000) - 60_000
            let amount = "\(cents < 0 ? "-" : "")\(abs(cents) / 100),\(String(format: "%02d", abs(cents) % 100))"
            text += "2025-03-\(day < 10 ? "0" : "")\(day);\(payee);\(note);\(amount)\n"
        }
        return text
    }

    /// Batch sizes and parts: a batch smaller than a part, batches cut inside runs of records, and one part per thread.
    static let shapes: [(batch: Int, minimumPart: Int)] = [(7, 1), (64, 3), (500, 40), (1_000, 1)]

    static func expectSameAsOnePass(_ text: String, _ comment: Comment) {
        let whole = outcome(text, threads: 1, batch: 1_000_000, minimumPart: 1)
        for shape in shapes {
            let parted = outcome(text, threads: 2, batch: shape.batch, minimumPart: shape.minimumPart)
            #expect(parted == whole, "\(comment): batch \(shape.batch), parts of at least \(shape.minimumPart)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aCleanStatementReadsTheSame(seed: UInt64) {
        let text = Self.statement(3_000, seed: seed)
        guard case .read(let lines, let matched, let skipped) = Self.outcome(text, threads: 1, batch: 1_000_000, minimumPart: 1) else {
            Issue.record("the statement does not read")
            return
        }
        // The statement exercises what it is meant to: rules matched, records skipped, every line kept.
        #expect(lines.count + skipped == 3_000)
        #expect(skipped > 0)
        #expect(matched.contains { $0.count >= 2 })
        Self.expectSameAsOnePass(text, "seed \(seed)")
    }

    @Test(arguments: [0, 6, 7, 63, 64, 1_499, 1_500, 2_996])
    func theFirstErrorInFileOrderIsTheOneThrown(at index: Int) {
        // A bad date at `index`, a bad amount two records later, a quote never closed at the end.
        let text = Self.statement(
            3_000, seed: 9,
            special: [index: "2025-13-01;REWE;Einkauf;1,00", index + 2: "2025-03-01;REWE;Einkauf;12x", 2_999: "2025-03-01;\"REWE;x;1,00"]
        )
        guard case .failed(let message) = Self.outcome(text, threads: 1, batch: 1_000_000, minimumPart: 1) else {
            Issue.record("the statement reads")
            return
        }
        #expect(message.hasPrefix("bank.csv:\(index + 2): date"), "\(message)")
        Self.expectSameAsOnePass(text, "error at record \(index)")
    }

    @Test(arguments: [0, 7, 64, 1_500, 2_998])
    func anEndStopsTheReadingAndHidesLaterErrors(at index: Int) {
        let text = Self.statement(
            3_000, seed: 11, special: [index: "2025-03-02;STOPHERE;x;1,00", index + 1: "2025-99-01;REWE;Einkauf;1,00"])
        guard case .read(let lines, _, let skipped) = Self.outcome(text, threads: 1, batch: 1_000_000, minimumPart: 1) else {
            Issue.record("the statement does not read")
            return
        }
        #expect(lines.count + skipped == index)
        Self.expectSameAsOnePass(text, "end at record \(index)")
    }

    @Test func aReaderErrorComesAfterTheRecordsBeforeIt() {
        // The quote never closed is the reader's error; a rule's error before it wins, one after it never comes.
        let unclosed = Self.statement(3_000, seed: 13, special: [2_000: "2025-03-01;\"REWE;x;1,00"])
        Self.expectSameAsOnePass(unclosed, "a quote never closed")
        let ruleFirst = Self.statement(3_000, seed: 13, special: [1_000: "2025-03-01;REWE;x;1,0,0", 2_000: "2025-03-01;\"REWE;x;1,00"])
        guard case .failed(let message) = Self.outcome(ruleFirst, threads: 1, batch: 1_000_000, minimumPart: 1) else {
            Issue.record("the statement reads")
            return
        }
        #expect(message.hasPrefix("bank.csv:1002: "), "\(message)")
        Self.expectSameAsOnePass(ruleFirst, "a bad amount before a quote never closed")
    }
}
