import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalStore

/// `LedgerFile.needsQuotes`, one pass over the scalars, against the rule it replaced (Foundation's
/// substring search and the stdlib's suffix and character tests, kept here as the reference) on
/// the awkward strings of YAML and on seeded hostile edits of them.
@Suite("Ledger file: YAML quoting")
struct YAMLQuotingTests {
    /// The rule as it was written before (2026-11-26).
    static func reference(_ s: String, inFlow: Bool) -> Bool {
        let reserved: Set<String> = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]
        let first = s.unicodeScalars.first
        let looksLikeNumber = s.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? false
        return reserved.contains(s.lowercased()) || looksLikeNumber && (try? Day(iso: s)) == nil
            || first.map { "-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains($0) } ?? true
            || s.hasSuffix(" ") || s.hasSuffix(":") || (s as NSString).range(of: ": ").location != NSNotFound
            || (s as NSString).range(of: " #").location != NSNotFound
            || s.unicodeScalars.contains {
                $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0xA0 || $0.value == 0x2028 || $0.value == 0x2029
                    || $0.value == 0xFEFF
            }
            || inFlow && s.contains(where: { ",[]{}".contains($0) })
    }

    static let pieces = [
        "", "~", "NULL", "True", "yes", "Off", "n", "Y", "12", "-3", "+4", ".5", "٣", "½", "2025-04-01", "2025-13-01", "a: b", "a #b", "a:",
        "a ", " a", "#x", "- x", "? x", "[x]", "{x}", "x,y", "é", "e\u{301}", ":\u{301} ", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\t",
        "\n", "\u{7F}", "Кофе", "🙂", "a\u{200D}b", "'q'", "\"q\"", "%x", "@x", "`x`", "!x", "&x", "*x", "|x", ">x",
    ]

    @Test func awkwardStringsAreQuotedAsBefore() {
        for piece in Self.pieces {
            for inFlow in [false, true] {
                #expect(
                    LedgerFile.needsQuotes(piece, inFlow: inFlow) == Self.reference(piece, inFlow: inFlow),
                    "\(piece.debugDescription) inFlow \(inFlow)")
            }
        }
    }

    /// Never less than before; more only where `: ` or ` #` appear as scalars but not as whole
    /// characters (a combining mark or a joiner after the space or the `#`), which a YAML parser,
    /// reading scalars, takes for a mapping or a comment: the rule before left those unquoted.
    @Test func hostileEditsAreQuotedAsBeforeOrMore() {
        var hostile = Hostile(seed: 26)
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0xFF, 0x300...0x36F, 0x2000...0x206F, 0xFE00...0xFEFF, 0x1F600...0x1F64F]
        var more = 0
        for _ in 0..<(20_000 * Hostile.scale) {
            var scalars = Array(hostile.pick(Self.pieces).unicodeScalars)
            for _ in 0..<(1 + hostile.below(4)) {
                hostile.edit(&scalars, span: 3, nines: 3, choices: 9, pieces: Self.pieces, scalars: ranges)
            }
            let text = Hostile.string(scalars)
            let inFlow = hostile.below(2) == 0
            let now = LedgerFile.needsQuotes(text, inFlow: inFlow)
            let before = Self.reference(text, inFlow: inFlow)
            if now == before { continue }
            more += 1
            let pairs = zip(scalars, scalars.dropFirst())
            #expect(now && !before, "quoted before, not now: \(text.debugDescription)")
            #expect(pairs.contains { ($0 == ":" && $1 == " ") || ($0 == " " && $1 == "#") }, "\(text.debugDescription)")
        }
        #expect(more < 20_000 * Hostile.scale / 10)
    }
}

/// Transactions are written to YAML straight from the ledger (`LedgerFile.Rows.yaml`), not through
/// the tree of values the rest of a file goes through: the same text as the tree gives, for
/// awkward payees, notes, spenders, tags, foreign currencies and empty postings.
@Suite("Ledger file: transactions written straight")
struct TransactionRowsTests {
    @Test func theStraightPathWritesWhatTheTreeWrites() throws {
        let rub = try Currency("RUB")
        let usd = try Currency("USD")
        var hostile = Hostile(seed: 11)
        let accounts = ["Debit", "Cash: petty", "#tag", "Кошелёк", "yes"]
        let ids = accounts.map { "id-\($0)" }
        var transactions: [Transaction] = []
        for n in 0..<2_000 {
            let text = { (hostile: inout Hostile) in
                hostile.below(3) == 0 ? "" : hostile.pick(YAMLQuotingTests.pieces) + hostile.pick(YAMLQuotingTests.pieces)
            }
            let from = hostile.below(ids.count)
            let to = (from + 1 + hostile.below(ids.count - 1)) % ids.count
            let amount = Int64(hostile.below(1_000_000)) - 500_000
            let currency = hostile.below(5) == 0 ? usd : rub
            var postings = [
                Posting(accountID: ids[to], amount: Money(minor: amount, currency: currency), note: text(&hostile)),
                Posting(accountID: ids[from], amount: Money(minor: -amount, currency: currency)),
            ]
            if n % 97 == 0 { postings = [] }
            transactions.append(
                Transaction(
                    id: "t\(n)", day: Day(20_000 + n), payee: text(&hostile), note: text(&hostile), spender: text(&hostile),
                    tags: (0..<hostile.below(3)).map { _ in hostile.pick(YAMLQuotingTests.pieces) }, postings: postings))
        }
        let rows = LedgerFile.Rows(
            names: Dictionary(uniqueKeysWithValues: zip(ids, accounts)), currencies: Dictionary(uniqueKeysWithValues: ids.map { ($0, rub) }))
        var straight = "transactions:\n"
        for transaction in transactions { rows.yaml(transaction, indent: 2, into: &straight) }
        var tree = ""
        LedgerFile.yaml(key: "transactions", .list(transactions.map(rows.value)), indent: 0, into: &tree)
        #expect(straight == tree)
        #expect(straight.contains("currency: USD") && straight.contains("postings: []") && straight.contains("tags: ["))
    }
}
