import CapitalCore
import Foundation
import Testing

/// One meaning of "balance" (issue 17, case 3): `group show` lists each account at the balance
/// `balance` gives it, and its totals are their sums — loans, cards, deposits and categories too.
@Suite("CLI: group show and balance agree")
struct GroupBalanceTests {
    /// The minor units of a decimal amount as the JSON writes it ("-6231277.64").
    static func minor(_ text: Any?) throws -> Int64 {
        let money = try Money(parsing: try #require(text as? String), currency: try Currency("RUB"))
        return money.minor
    }

    /// `balance --all` on `day`: each account's balance and each group's, in minor units.
    static func balances(_ cli: CLI, on day: String) throws -> (accounts: [String: Int64], groups: [String: Int64]) {
        let object = try #require(try cli.json(["--today", day, "balance", "--all", "--format", "json"]) as? [String: Any])
        var accounts: [String: Int64] = [:]
        for row in try #require(object["accounts"] as? [[String: Any]]) {
            accounts[try #require(row["account"] as? String), default: 0] += try minor(row["balance"])
        }
        var groups: [String: Int64] = [:]
        for row in try #require(object["groups"] as? [[String: Any]]) {
            groups[try #require(row["group"] as? String), default: 0] += try minor(row["balance"])
        }
        return (accounts, groups)
    }

    /// 100 random days from 2025 to 2026, in four parts that run side by side. Each day: every
    /// group's line in `balance --all` is the sum of its accounts' lines there, and one group (in
    /// turn) shows each account at its `balance` and totals their sum.
    @Test(arguments: 0..<4)
    func groupShowIsTheSumOfBalanceOnAHundredDays(part: Int) throws {
        let cli = try CLI.household()
        let members = Dictionary(
            uniqueKeysWithValues: try cli.rows(["group", "list", "--format", "json"]).map {
                ($0["name"] as? String ?? "", $0["accounts"] as? [String] ?? [])
            })
        let groups = ["Everyday money", "Debts", "Children", "Car"]
        #expect(Set(members.keys) == Set(groups))
        var random = SplitMix64(seed: 17)
        let first = try Day(iso: "2025-01-01")
        let days = (0..<100).map { _ in first.advanced(by: Int(random.next() % 730)).iso }
        for index in stride(from: part, to: days.count, by: 4) {
            let day = days[index]
            let (accounts, totals) = try Self.balances(cli, on: day)
            for group in groups {
                #expect(totals[group] == members[group]!.map { accounts[$0] ?? 0 }.reduce(0, +), "\(group) in balance on \(day)")
            }
            let group = groups[index % groups.count]
            let shown = try #require(try cli.json(["--today", day, "group", "show", group, "--format", "json"]) as? [String: Any])
            var sum: Int64 = 0
            for row in try #require(shown["accounts"] as? [[String: Any]]) {
                let name = try #require(row["name"] as? String)
                let balance = try Self.minor(row["balance"])
                #expect(balance == accounts[name], "\(group) on \(day): \(name)")
                sum += balance
            }
            let total = try #require((shown["totals"] as? [[String: Any]])?.first)
            #expect(try Self.minor(total["balance"]) == sum, "\(group) on \(day)")
            #expect(sum == totals[group], "\(group) on \(day)")
        }
    }

    /// The case as found: the loans at their payments' sums (Mortgage +30 233.52, total +59 492.94)
    /// against −6 231 277.64 in `balance`; the CSV says the same as the JSON.
    @Test func theDebtsGroupOwesWhatBalanceSaysItOwes() throws {
        let cli = try CLI.household()
        let (accounts, groups) = try Self.balances(cli, on: "2025-04-01")
        #expect(groups["Debts"] == -6_231_277_64)
        let csv = cli.ok(["--today", "2025-04-01", "group", "show", "Debts", "--format", "csv"])
        #expect(
            csv.contains("\naccounts,Mortgage,loan,\(Money(minor: try #require(accounts["Mortgage"]), currency: try Currency("RUB")).plain),"),
            "\(csv)")
        #expect(csv.contains("\ntotals,,,-6231277.64,RUB,"), "\(csv)")
    }
}
