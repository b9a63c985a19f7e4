import Foundation
import Testing

/// Issue 51, item 13: one ledger lists, exports and answers in one order whatever order its
/// records were written in (on two devices of a shared ledger, the order each wrote them in is its
/// own): budgets by their category's name, then id; loans, cards and deposits by their account's
/// name, then id; a day's transactions by id.
@Suite("CLI: listings in one order whatever the order written")
struct ListingOrderTests {
    static let today = ["--today", "2025-04-10"]

    /// The outputs two devices of one ledger must give byte for byte.
    static func outputs(_ cli: CLI) -> [String] {
        [
            cli.ok(["export"]).split(separator: "\n").filter { !$0.hasPrefix("defaultAccount:") }.joined(separator: "\n"),
            cli.ok(["budget", "list"] + today), cli.ok(["budget", "status"] + today), cli.ok(["budget", "status", "--format", "json"] + today),
            cli.ok(["expected", "list", "--kind", "budget"] + today), cli.ok(["expected", "list", "--format", "csv"] + today),
            cli.ok(["tx", "list"] + today), cli.ok(["tx", "list", "--format", "json"] + today),
            cli.ok(["loan", "list"] + today), cli.ok(["card", "list"] + today), cli.ok(["deposit", "list"] + today),
            cli.ok(["forecast", "--until", "2025-06", "--format", "csv"] + today),
        ]
    }

    @Test func theSameLedgerWrittenInTwoOrdersListsExportsAndAnswersByteForByte() throws {
        let first = try CLI.initialized()
        first.ok(["earn", "100000", "Salary", "--on", "2025-04-01"] + Self.today)
        // Budgets set in an order that is not their names' (Transport, Clothing, Groceries), and
        // four transactions of one day in an order that is neither their ids' nor their payees'.
        for (category, amount) in [("Transport", "3000"), ("Clothing", "2000"), ("Groceries", "9000")] {
            first.ok(["budget", "set", category, amount, "--from", "2025-04"] + Self.today)
        }
        for (payee, category) in [("Market", "Groceries"), ("Bakery", "Groceries"), ("Taxi", "Transport"), ("Shoes", "Clothing")] {
            first.ok(["spend", "100", category, "--payee", payee, "--on", "2025-04-02"] + Self.today)
        }
        // Instruments added in an order that is not their names' (Zeta before Alpha).
        for name in ["Zeta loan", "Alpha loan"] {
            first.ok(
                ["loan", "add", name, "--principal", "100000", "--rate", "12", "--term", "12", "--start", "2025-04-05", "--pay-from", "VTB Debit"]
                    + Self.today)
        }
        for name in ["Zeta card", "Alpha card"] {
            first.ok(["card", "add", name, "--limit", "50000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + Self.today)
        }
        for name in ["Zeta deposit", "Alpha deposit"] {
            first.ok(["deposit", "add", name, "--rate", "10", "--opened", "2025-04-01", "--maturity", "2025-10-01"] + Self.today)
        }
        // The same ledger written the other way round: the export (with every id) with its
        // transactions and budgets reversed, imported into a second database.
        var document = try #require(try JSONSerialization.jsonObject(with: Data(first.ok(["export", "--format", "json"]).utf8)) as? [String: Any])
        for key in ["transactions", "budgets", "loans", "cards", "deposits"] { document[key] = Array(((document[key] as? [Any]) ?? []).reversed()) }
        let reversed = first.path("reversed.json")
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: reversed))
        let second = try CLI()
        second.ok(["import", reversed])
        let (one, other) = (Self.outputs(first), Self.outputs(second))
        for (a, b) in zip(one, other) { #expect(a == b) }
        // The order is the documented one: budgets by category name; the day's transactions by id.
        let budgets = try first.rows(["budget", "list"] + Self.today).compactMap { $0.string("category") }
        #expect(budgets == ["Clothing", "Groceries", "Transport"])
        for kind in ["loan", "card", "deposit"] {
            let names = try first.rows([kind, "list"] + Self.today).compactMap { $0.string("name") ?? $0.string("account") }
            #expect(names == ["Alpha \(kind)", "Zeta \(kind)"], "\(kind) list: \(names)")
        }
        let day = try first.rows(["tx", "list", "--from", "2025-04-02", "--to", "2025-04-02"] + Self.today).compactMap { $0.string("id") }
        #expect(day.count == 4 && (day == day.sorted() || day == day.sorted().reversed()), "\(day)")
    }
}
