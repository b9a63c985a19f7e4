import Foundation
import Testing

/// A category's icon shows before its name in the tables and charts of stats and budgets; JSON
/// keeps the bare name.
@Suite("CLI: category icons in stats and budgets")
struct CategoryLabelTests {
    @Test func iconsShowInTablesAndChartsButNotInJSON() throws {
        let cli = try CLI.household()
        cli.ok(["category", "edit", "Groceries", "--icon", "🛒"])
        let today = ["--today", "2025-04-01"]
        let table = cli.ok(["stats", "--chart"] + today)
        #expect(table.contains("🛒 Groceries"))
        // The chart's line and the table's row both carry it: two places at least.
        #expect(table.components(separatedBy: "🛒 Groceries").count - 1 >= 3)
        let json = cli.ok(["stats", "--format", "json"] + today)
        #expect(json.contains("\"Groceries\"") && !json.contains("🛒"))
        #expect(cli.ok(["budget", "list"]).contains("🛒 Groceries"))
        #expect(cli.ok(["budget", "status"] + today).contains("🛒 Groceries"))
        #expect(!cli.ok(["budget", "list", "--format", "csv"]).contains("🛒"))
    }
}
