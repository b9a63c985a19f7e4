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
            let name = try #require(row["account"] as? String)
            // The equity account's other sides of the sample's dollars and euros: screens show its roubles.
            if name == "Capital" && row.string("currency") != "RUB" { continue }
            accounts[name, default: 0] += try minor(row["balance"])
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

    /// Item 3: `--on DATE` on every screen that shows a balance gives what `balance --on` gives,
    /// seen from a later today: the accounts, a group, the loans and the card at the end of that day.
    @Test(arguments: ["2025-01-31", "2025-02-01", "2025-03-15"])
    func everyScreenShowsTheBalanceOfBalanceOn(day: String) throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-06"]
        let (accounts, _) = try Self.balanceOn(cli, day, today)
        let listed = try cli.rows(today + ["account", "list", "--all", "--on", day])
        for row in listed where (row["kind"] as? String) != "income" && (row["kind"] as? String) != "expense" {
            let name = try #require(row.string("name"))
            #expect(try Self.minor(row["balance"]) == accounts[name], "account list --on \(day): \(name)")
        }
        let shown = try #require(try cli.json(today + ["account", "show", "VTB Debit", "--on", day]) as? [String: Any])
        #expect(try Self.minor(shown["balance"]) == accounts["VTB Debit"], "account show --on \(day)")
        let group = try #require(try cli.json(today + ["group", "show", "Debts", "--on", day]) as? [String: Any])
        for row in try #require(group["accounts"] as? [[String: Any]]) {
            #expect(try Self.minor(row["balance"]) == accounts[try #require(row.string("name"))], "group show --on \(day)")
        }
        for loan in try cli.rows(today + ["loan", "list", "--on", day]) {
            let name = try #require(loan.string("name"))
            #expect(try Self.minor(loan["balance"]) == -(accounts[name] ?? 0), "loan list --on \(day): \(name)")
            #expect(try #require(loan.string("nextDay")) > day, "seen from \(day), the next payment is after it")
            let one = try #require(try cli.json(today + ["loan", "show", name, "--on", day]) as? [String: Any])
            #expect(one.string("balance") == loan.string("balance") && one.string("nextDay") == loan.string("nextDay"), "loan show --on \(day)")
        }
        let card = try #require(try cli.json(today + ["card", "show", "Tinkoff Card", "--on", day]) as? [String: Any])
        #expect(try Self.minor(card["debt"]) == -(accounts["Tinkoff Card"] ?? 0), "card show --on \(day)")
        #expect(
            cli.ok(today + ["card", "show", "Tinkoff Card", "--on", day]).contains("Debt on \(day):"),
            "the screen says which day it shows")
    }

    /// `balance --on DAY` seen from `today`.
    static func balanceOn(_ cli: CLI, _ day: String, _ today: [String]) throws -> (accounts: [String: Int64], groups: [String: Int64]) {
        let object = try #require(try cli.json(today + ["balance", "--all", "--on", day]) as? [String: Any])
        var accounts: [String: Int64] = [:]
        for row in try #require(object["accounts"] as? [[String: Any]]) {
            let name = try #require(row["account"] as? String)
            // The equity account's other sides of the sample's dollars and euros: screens show its roubles.
            if name == "Capital" && row.string("currency") != "RUB" { continue }
            accounts[name, default: 0] += try minor(row["balance"])
        }
        return (accounts, [:])
    }

    @Test func aBadOnIsRefusedOnEveryScreen() throws {
        let cli = try CLI.household()
        for screen in [
            ["account", "list"], ["account", "show", "Cash"], ["group", "show", "Debts"], ["loan", "list"], ["loan", "show", "Mortgage"],
            ["card", "list"], ["card", "show", "Tinkoff Card"],
        ] {
            let result = cli.run(screen + ["--on", "2025-13-01"])
            #expect(result.status == 64 && result.stderr.hasPrefix("capital: error: --on: '2025-13-01' is not a date"), "\(screen): \(result)")
        }
    }
}
