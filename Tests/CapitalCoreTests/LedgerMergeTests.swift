import Testing

@testable import CapitalCore

/// `Ledger.add(_:)` merges generated transactions into a ledger in place, rewriting only what
/// comes after the first generated day. Held to the rule it keeps, computed the plain way: the
/// ledger's transactions and the generated ones sorted by day, a day's own transactions before
/// the generated ones, each side in its own order (the generated ones by their days first).
@Suite("Ledger: generated transactions merged in place")
struct LedgerMergeTests {
    static func transaction(_ id: String, _ day: Int) -> Transaction {
        Transaction(id: id, day: Day(day), postings: [Posting(accountID: "a", amount: .rub(1)), Posting(accountID: "b", amount: .rub(-1))])
    }

    @Test(arguments: 0..<200)
    func mergingInPlaceKeepsDayOrderAndEachSidesOrder(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let stored = (0..<Int.random(in: 0...40, using: &random)).map { Self.transaction("s\($0)", Int.random(in: 0...30, using: &random)) }
            .sorted { $0.day < $1.day }
        // Generated ones in any order, some on the stored ones' days, some before and after all of them.
        let generated = (0..<Int.random(in: 0...12, using: &random)).map { Self.transaction("g\($0)", Int.random(in: -3...34, using: &random)) }
        var ledger = Ledger(currency: .rub, transactions: stored)
        let shared = ledger  // the stored array is shared, as a projection's stored ledger shares it
        ledger.add(generated)
        let expected = (stored.enumerated().map { ($0.element, 0, $0.offset) } + generated.enumerated().map { ($0.element, 1, $0.offset) })
            .sorted { ($0.0.day.number, $0.1, $0.2) < ($1.0.day.number, $1.1, $1.2) }.map(\.0.id)
        #expect(ledger.transactions.map(\.id) == expected)
        #expect(shared.transactions.map(\.id) == stored.map(\.id))
        #expect(shared.adding(generated).transactions.map(\.id) == expected)
    }
}
