import Foundation
import Testing

/// `tx list --limit/--after/--before` (issue 20): pages walked from either end put together give
/// the whole listing, with or without filters; pages neither skip nor repeat a transaction when
/// others are added between them; bad paging input is one line.
@Suite("capital tx list: pages")
struct TransactionPagingTests {
    /// The ids of a listing, in order.
    static func ids(_ cli: CLI, _ args: [String]) throws -> [String] {
        let json = try cli.json(["tx", "list"] + args)
        let rows = try #require((json as? [[String: Any]]) ?? ((json as? [String: Any])?["transactions"] as? [[String: Any]]))
        return rows.map { $0["id"] as! String }
    }

    /// Adds `count` grocery purchases from VTB Debit in one import, on days cycling through `month`.
    static func addPurchases(_ cli: CLI, _ count: Int, month: String) throws {
        var yaml = "currency: RUB\ntransactions:\n"
        for n in 0..<count {
            yaml += """
                  - date: \(month)-\(String(format: "%02d", 1 + n % 28))
                    payee: Market \(n)
                    postings:
                      - account: VTB Debit
                        amount: -\(100 + n)
                      - account: Groceries

                """
        }
        let path = cli.path("purchases.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        cli.ok(["import", path])
    }

    /// The paged JSON: its ids and whether more come before and after.
    static func page(_ cli: CLI, _ args: [String]) throws -> (ids: [String], earlier: Bool, later: Bool) {
        let object = try #require(try cli.json(["tx", "list"] + args) as? [String: Any])
        let rows = try #require(object["transactions"] as? [[String: Any]])
        return (rows.map { $0["id"] as! String }, try #require(object["earlier"] as? Bool), try #require(object["later"] as? Bool))
    }

    @Test(arguments: [[String](), ["--account", "VTB Debit"], ["--category", "Loan interest"], ["--from", "2025-02", "--min", "1000"]])
    func pagesFromEitherEndMakeTheWholeListing(filters: [String]) throws {
        let cli = try CLI.household()
        try Self.addPurchases(cli, 25, month: "2025-02")
        let all = try Self.ids(cli, filters)
        #expect(all.count > 7)

        // Backwards from the newest, three at a time.
        var backwards: [String] = []
        var page = try Self.page(cli, filters + ["--limit", "3"])
        #expect(!page.later)
        while true {
            backwards = page.ids + backwards
            guard page.earlier else { break }
            let next = try Self.page(cli, filters + ["--limit", "3", "--before", String(page.ids[0].prefix(8))])
            #expect(next.later)
            page = next
        }
        #expect(backwards == all)

        // Forwards from the oldest.
        var forwards = Array(all.prefix(3))
        var last = all[2]
        while true {
            let next = try Self.page(cli, filters + ["--limit", "3", "--after", last])
            #expect(next.earlier)
            forwards += next.ids
            guard next.later, let end = next.ids.last else { break }
            last = end
        }
        #expect(forwards == all)

        // Between two transactions; the table shows 100 at most and says how to go on.
        #expect(try Self.ids(cli, filters + ["--after", all[1], "--before", all[5]]) == Array(all[2..<5]))
        let table = cli.ok(["tx", "list", "--limit", "2"] + filters)
        #expect(table.contains("Earlier ones: capital tx list --before \(all[all.count - 2].prefix(8)) (with the same filters)."), "\(table)")
    }

    @Test func pagesNeitherSkipNorRepeatWhenOthersAreAdded() throws {
        let cli = try CLI.household()
        let before = try Self.ids(cli, [])
        let first = try Self.page(cli, ["--limit", "4", "--after", before[0]])
        // Added between two pages: on days before, inside and after the page.
        for day in ["2024-01-10", "2025-01-15", "2025-03-01", "2026-05-05"] {
            #expect(cli.run(["earn", "10", "Other income", "--on", day]).status == 0)
        }
        let rest = try Self.ids(cli, ["--after", first.ids.last!])
        let seen = [before[0]] + first.ids + rest
        #expect(Set(seen).count == seen.count, "no transaction twice")
        #expect(Set(before).isSubset(of: Set(seen)), "none of those there before is skipped")
    }

    @Test func tableShowsTheNewestHundredAndDataFormatsEverything() throws {
        let cli = try CLI.household()
        try Self.addPurchases(cli, 110, month: "2025-03")
        let all = try Self.ids(cli, [])
        #expect(all.count > 120, "CSV and JSON list every transaction")
        let table = cli.ok(["tx", "list"])
        let lines = table.split(separator: "\n")
        #expect(lines.count == 2 + 100 + 1, "a header, a rule, 100 rows and the note")
        #expect(lines[2].hasPrefix(String(all[all.count - 100].prefix(8))))
        #expect(cli.ok(["tx", "list", "--format", "csv"]).split(separator: "\n").count == all.count + 1)
    }

    @Test func badPagingIsOneLine() throws {
        let cli = try CLI.household()
        cli.fails(["tx", "list", "--limit", "0"], mentioning: ["--limit '0'", "must be at least 1"])
        cli.fails(["tx", "list", "--limit", "-1"], mentioning: ["--limit '-1'", "must be at least 1"])
        cli.fails(["tx", "list", "--limit", "x"], mentioning: ["--limit"])
        cli.fails(["tx", "list", "--after", "abcdef12"], mentioning: ["abcdef12", "not found"])
        cli.fails(["tx", "list", "--before", "zz"], mentioning: ["'zz'", "at least 4 hex digits"])
    }
}
