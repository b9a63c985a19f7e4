import Foundation
import Testing

/// The issue's "done when": balances of the sample equal the sums of its postings, computed here
/// without capital's code; and the balance table as a golden file.
@Suite("CLI: the household sample")
struct HouseholdSampleTests {
    static let sample: HouseholdSample = {
        let text = String(decoding: FileManager.default.contents(atPath: CLI.samplePath) ?? Data(), as: UTF8.self)
        return HouseholdSample(text: text)
    }()

    @Test func independentReaderSeesTheWholeSample() {
        let sample = Self.sample
        #expect(sample.accounts.count == 28)
        #expect(sample.groups.count == 4)
        #expect(sample.transactions.count == 131)
        // Double entry: every transaction balances, so all balances together are zero.
        #expect(sample.transactions.allSatisfy { $0.postings.map(\.amount).reduce(0, +) == 0 })
        #expect(sample.balances().values.reduce(0, +) == 0)
    }

    /// Balance rows from `balance --format json`: name → kopecks, for accounts and for groups.
    static func balances(_ cli: CLI, _ args: [String]) throws -> (accounts: [String: Int64], groups: [String: Int64]) {
        let object = try #require(try cli.json(args) as? [String: Any])
        let accounts = try #require(object["accounts"] as? [[String: Any]])
        let groups = try #require(object["groups"] as? [[String: Any]])
        var byAccount: [String: Int64] = [:]
        for row in accounts {
            #expect(row.string("currency") == "RUB")
            let name = try #require(row.string("account"))
            #expect(byAccount[name] == nil, "\(name) listed twice")
            let balance = try #require(row.string("balance"))
            let minor: Int64 = try #require(minorUnits(balance), "\(balance)")
            byAccount[name] = minor
        }
        var byGroup: [String: Int64] = [:]
        for row in groups {
            let balance = try #require(row.string("balance"))
            let minor: Int64 = try #require(minorUnits(balance), "\(balance)")
            byGroup[try #require(row.string("group"))] = minor
        }
        return (byAccount, byGroup)
    }

    @Test func balanceOfTheSampleEqualsTheSumsOfItsPostings() throws {
        let cli = try CLI()
        let (accounts, groups) = try Self.balances(cli, ["-f", "samples/household.yaml", "balance"])
        let expected = Self.sample.balances()
        let balanceSheet = Self.sample.accounts.filter { !$0.isCategory }.map(\.name)
        #expect(Set(accounts.keys) == Set(balanceSheet))
        for name in balanceSheet {
            #expect(accounts[name] == expected[name], "\(name)")
        }
        for group in Self.sample.groups {
            let sum = group.accounts.map { expected[$0] ?? 0 }.reduce(0, +)
            #expect(groups[group.name] == sum, "group \(group.name)")
        }
        // Spot checks against numbers worked out by hand from the generator.
        #expect(accounts["VTB Debit"] == 371_000_00)
        #expect(accounts["Mortgage"] == -4_770_000_00)
    }

    @Test func balanceWithAllListsEveryAccountWithTheSumOfItsPostings() throws {
        let cli = try CLI()
        let (accounts, _) = try Self.balances(cli, ["-f", "samples/household.yaml", "balance", "--all"])
        #expect(accounts == Self.sample.balances())
    }

    @Test(arguments: ["2025-01-01", "2025-01-31", "2025-02-14", "2025-02-28", "2025-03-31", "2024-12-31"])
    func balanceOnADayCountsPostingsUpToThatDay(day: String) throws {
        let cli = try CLI.household()
        let (accounts, _) = try Self.balances(cli, ["balance", "--all", "--on", day])
        #expect(accounts == Self.sample.balances(through: day))
    }

    @Test func balanceTableMatchesTheGoldenFile() throws {
        let cli = try CLI()
        let golden = CLI.root.appendingPathComponent("Tests/Fixtures/household-balance.txt").path
        let expected = String(decoding: try #require(FileManager.default.contents(atPath: golden)), as: UTF8.self)
        let output = cli.ok(["-f", "samples/household.yaml", "balance", "--on", "2025-03-31"])
        #expect(output == expected)
    }

    // MARK: Listing filters, checked against the independent reader

    struct Filter: Sendable, CustomTestStringConvertible {
        var args: [String]
        var testDescription: String { args.joined(separator: " ") }
        var matches: @Sendable (HouseholdSample.Transaction) -> Bool
    }

    static let filters: [Filter] = [
        Filter(args: []) { _ in true },
        Filter(args: ["--from", "2025-03-01", "--to", "2025-03-31"]) { $0.date >= "2025-03-01" && $0.date <= "2025-03-31" },
        Filter(args: ["--from", "2025-02", "--to", "2025-02"]) { $0.date.hasPrefix("2025-02") },
        Filter(args: ["--from", "2025-03-25"]) { $0.date >= "2025-03-25" },
        Filter(args: ["--to", "2025-01-03"]) { $0.date <= "2025-01-03" },
        Filter(args: ["--account", "Cash"]) { $0.postings.contains { $0.account == "Cash" } },
        Filter(args: ["--account", "tinkoff card", "--account", "Mortgage"]) {
            $0.postings.contains { $0.account == "Tinkoff Card" || $0.account == "Mortgage" }
        },
        Filter(args: ["--category", "Kids"]) { $0.postings.contains { $0.account == "Kids" } },
        Filter(args: ["--category", "Loan interest", "--from", "2025-02-01"]) {
            $0.date >= "2025-02-01" && $0.postings.contains { $0.account == "Loan interest" }
        },
        Filter(args: ["--min", "15000"]) { $0.size >= 15_000_00 },
        Filter(args: ["--max", "300"]) { $0.size <= 300_00 },
        Filter(args: ["--min", "9 000", "--max", "12000,00"]) { $0.size >= 9_000_00 && $0.size <= 12_000_00 },
        Filter(args: ["--search", "POOL"]) { ($0.payee + "\u{0}" + $0.note).lowercased().contains("pool") },
        Filter(args: ["--search", "principal"]) { ($0.payee + "\u{0}" + $0.note).lowercased().contains("principal") },
        Filter(args: ["--spender", "anna"]) { $0.spender == "Anna" },
        Filter(args: ["--spender", "Ivan", "--category", "Eating out"]) {
            $0.spender == "Ivan" && $0.postings.contains { $0.account == "Eating out" }
        },
        Filter(args: ["--kind", "income"]) { sample.kind(of: $0) == "income" },
        Filter(args: ["--kind", "expense"]) { sample.kind(of: $0) == "expense" },
        Filter(args: ["--kind", "transfer"]) { sample.kind(of: $0) == "transfer" },
    ]

    @Test(arguments: filters)
    func transactionListFilterShowsExactlyTheMatchingTransactions(_ filter: Filter) throws {
        let cli = try CLI.household()
        let rows = try cli.rows(["tx", "list"] + filter.args)
        let listed = rows.map { "\($0.string("date") ?? "?") \($0.string("payee") ?? "?") \(minorUnits($0.string("amount") ?? "") ?? -1)" }
        let expected = Self.sample.transactions.filter(filter.matches).map { "\($0.date) \($0.payee) \($0.size)" }
        #expect(listed == expected)
        #expect(!expected.isEmpty, "a filter that matches nothing in the sample proves little")
    }

    @Test func kindsPartitionTheSample() {
        let kinds = Self.sample.transactions.map { Self.sample.kind(of: $0) }
        #expect(kinds.filter { $0 == "income" }.count == 6)
        #expect(kinds.filter { $0 == "transfer" }.count == 7)
        #expect(!kinds.contains("mixed"))
    }
}
