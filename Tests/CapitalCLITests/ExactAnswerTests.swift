import CapitalCore
import Foundation
import Testing

/// The exact answer with credit cards, end to end: the issue's bank and card (50 000, not the
/// 150 000 a pooled level said), and generated households whose answer is spent for real, as
/// the split says, then checked day by day in the forecast the engine makes of the ledger with
/// that spending recorded: the pool at or above its floor, every card within its limit, nothing
/// left to spend, and one kopeck more on any part of the split breaking a constraint.
@Suite("CLI: the exact answer with cards")
struct ExactAnswerTests {
    /// The issue's ledger: 100 000 in the bank, 50 000 spent on the card on 11-20 (its 11-25
    /// statement due 12-15 from the bank), seen on 2026-12-01.
    static func issueLedger() throws -> CLI {
        let cli = try bankAndCard(bank: "100000", on: "2026-11-20", today: "2026-12-01")
        cli.ok(["spend", "50000", "Other", "--from", "Card", "--on", "2026-11-20", "--today", "2026-12-01"])
        return cli
    }

    /// A bank holding `bank` from `day` (the default account) and a card of 100 000, statements on
    /// the 25th due 20 days later from the bank, seen from `today`.
    static func bankAndCard(bank: String, on day: String, today: String) throws -> CLI {
        let cli = try CLI()
        let today = ["--today", today]
        cli.ok(["init"] + today)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + today)
        cli.ok(["card", "add", "Card", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank"] + today)
        cli.ok(["tx", "add", "--on", day, "--posting", "Bank=\(bank)", "--posting", "Capital"] + today)
        return cli
    }

    @Test func theIssuesCardAnswers50000OnTheCard() throws {
        let cli = try Self.issueLedger()
        let today = ["--today", "2026-12-01"]
        let text = cli.ok(["can-spend", "--why"] + today)
        #expect(text.hasPrefix("You can spend 50 000.00 on 2026-12-01 (level 4"), "\(text)")
        #expect(text.contains("Pay with: 50 000.00 on Card."), "\(text)")
        #expect(text.contains("Card: its limit binds on 2026-12-01, before its payback on 2027-01-14"), "\(text)")
        let object = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        #expect(object.string("amount") == "50000.00")
        let split = try #require(object["split"] as? [[String: Any]])
        #expect(split.map { $0.string("account") } == ["Bank", "Card"])
        #expect(split.map { $0.string("amount") } == ["0.00", "50000.00"])
        #expect(split.compactMap { minorUnits($0.string("amount")!) }.reduce(0, +) == 5_000_000)
        #expect(split[1].string("payback") == "2027-01-14" && split[1].string("binds") == "limit")
        // CSV names the split in one field.
        #expect(cli.ok(["can-spend", "--format", "csv"] + today).contains("Card 50000.00"))
        // 150 000 no longer passes for a purchase; 50 000 does, all of it on the card, and not a kopeck more.
        #expect(cli.ok(["scenario", "try", "--price", "150000", "--on", "2026-12-01"] + today).contains("No"))
        let fits = try #require(try cli.json(["scenario", "try", "--price", "50000", "--on", "2026-12-01"] + today) as? [String: Any])
        #expect(fits["feasible"] as? Bool == true && fits.string("maxPrice") == "50000.00" && fits.string("onCards") == "50000.00")
        #expect(cli.ok(["scenario", "try", "--price", "50000.01", "--on", "2026-12-01"] + today).contains("No"))
        // when: 50 000 today, 50 000.01 never within the horizon (nothing comes in).
        #expect(cli.ok(["when", "50000"] + today).contains("can be spent from 2026-12-01 on"))
        #expect(cli.ok(["when", "50000.01"] + today).hasPrefix("Not before the horizon"))

        // Spent as the split says: nothing is left, the bank never goes below 0, the card never past its limit.
        cli.ok(["spend", "50000", "Other", "--from", "Card", "--on", "2026-12-01"] + today)
        let after = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        #expect(after.string("amount") == "0.00" && after.string("shortfall") == "0.00")
        #expect(try Self.closings(cli, "Bank", today).min() == 0)
        #expect(try Self.closings(cli, "Card", today).min() == -10_000_000)
    }

    /// A purchase paid on the card (`scenario try --from Card`): the card's room until its payback,
    /// the bank's after it: exactly 50 000.
    @Test func aScenarioOnTheCardIsPaidBackFromThePool() throws {
        let cli = try Self.issueLedger()
        let today = ["--today", "2026-12-01"]
        let at = try #require(
            try cli.json(["scenario", "try", "--price", "50000", "--on", "2026-12-01", "--from", "Card"] + today) as? [String: Any])
        #expect(at["feasible"] as? Bool == true && at.string("maxPrice") == "50000.00")
        let above = try #require(
            try cli.json(["scenario", "try", "--price", "50000.01", "--on", "2026-12-01", "--from", "Card"] + today) as? [String: Any])
        #expect(above["feasible"] as? Bool == false && above.string("shortfall") == "0.01")
        cli.fails(
            ["scenario", "try", "--price", "500", "--on", "2026-12-01", "--from", "Card", "--earliest"] + today,
            mentioning: ["--from 'Card'", "moves the purchase"])
    }

    /// A payback after the horizon counts against the pool on its last day, in can-spend and in a
    /// scenario on the card alike; a pool short already binds the cards too.
    @Test func theHorizonAndAShortPoolBindTheCardsToo() throws {
        let cli = try Self.bankAndCard(bank: "30000", on: "2025-01-01", today: "2025-01-10")
        let today = ["--today", "2025-01-10"]
        let short = ["--until", "2025-01-20"]
        let text = cli.ok(["can-spend", "--why"] + short + today)
        #expect(
            text.hasPrefix("You can spend 30 000.00") && text.contains("paid back on 2025-02-14, after the horizon (counted on its last day)"),
            "\(text)")
        for (price, feasible) in [("30000", true), ("30000.01", false), ("90000", false)] {
            let tried = try #require(
                try cli.json(["scenario", "try", "--price", price, "--on", "2025-01-10", "--from", "Card"] + short + today) as? [String: Any])
            #expect(tried["feasible"] as? Bool == feasible, "\(price): \(tried)")
        }
        #expect(
            cli.ok(["scenario", "try", "--price", "50000", "--on", "2025-01-10", "--from", "Card"] + today).contains(
                "card 'Card' (then level 4 from its payback)"))
        cli.ok(
            ["schedule", "add", "Rent", "--rule", "monthly on 5", "--start", "2025-02-05", "--amount", "40000", "--from", "Bank", "--to", "Housing"]
                + today)
        let object = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        let split = try #require(object["split"] as? [[String: Any]])
        #expect(
            object.string("amount") == "0.00"
                && split.allSatisfy { $0.string("binds") == "pool" && $0.string("bindingDay") == object.string("bindingDay") }, "\(object)")
        #expect(!cli.ok(["can-spend", "--why"] + today).contains("its limit binds"))
    }

    /// `--from` names an account of level 4 to pay from: anything else is bad input (exit 64).
    @Test func aPurchaseIsPaidFromAnAccountOfTheLevel() throws {
        let cli = try Self.issueLedger()
        let today = ["--today", "2026-12-01"]
        cli.ok(["account", "add", "Savings", "--kind", "debit", "--level", "5"] + today)
        cli.ok(
            ["loan", "add", "Car", "--principal", "100000", "--rate", "10", "--term", "12", "--start", "2026-06-01", "--pay-from", "Bank"] + today)
        let cases: [(String, [String])] = [
            ("Savings", ["--from 'Savings'", "counts from level 5"]), ("Groceries", ["--from 'Groceries'", "expense account"]),
            ("Car", ["--from 'Car'", "counts from level 6"]), ("Nope", ["--from 'Nope'", "no such account"]),
            ("Cardd", ["--from 'Cardd'", "did you mean 'Card'"]), ("Crad", ["--from 'Crad'", "did you mean 'Card'"]),
        ]
        for (name, mentions) in cases {
            let result = cli.fails(["scenario", "try", "--price", "1000", "--on", "2026-12-01", "--from", name] + today, mentioning: mentions)
            #expect(result.status == 64, "\(name): \(result)")
        }
    }

    /// A pool short already: 0, the shortfall, and the smallest top-up from outside the level that
    /// restores it, by the first day the pool is short; doing it leaves nothing short.
    @Test func aShortPoolSaysWhatRestoresIt() throws {
        let cli = try Self.issueLedger()
        let today = ["--today", "2026-12-01"]
        cli.ok(["account", "add", "Savings", "--kind", "debit", "--level", "5"] + today)
        cli.ok(["tx", "add", "--on", "2026-11-01", "--posting", "Savings=30000", "--posting", "Capital"] + today)
        // Rent of 70 000 on the 20th: the bank (100 000, 50 000 of it for the card's payback) is short on 12-20.
        cli.ok(
            [
                "schedule", "add", "Rent", "--rule", "monthly on 20", "--start", "2026-12-01", "--count", "1", "--amount", "70000", "--from", "Bank",
                "--to", "Housing",
            ] + today)
        let object = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        #expect(object.string("amount") == "0.00" && object.string("shortfall") == "20000.00")
        let topUp = try #require(object["topUp"] as? [String: Any])
        #expect(topUp.string("amount") == "20000.00" && topUp.string("by") == "2026-12-20" && topUp.string("uncovered") == "0.00")
        let moves = try #require(topUp["moves"] as? [[String: Any]])
        #expect(moves.map { [$0.string("from"), $0.string("to"), $0.string("amount")] } == [["Savings", "Bank", "20000.00"]])
        #expect(cli.ok(["can-spend"] + today).contains("To restore it: move 20 000.00 from Savings to Bank by 2026-12-20."))
        cli.ok(["transfer", "20000", "--from", "Savings", "--to", "Bank", "--on", "2026-12-20"] + today)
        let after = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        #expect(after.string("shortfall") == "0.00" && after.string("amount") == "0.00" && after["topUp"] is NSNull)
        // Nothing outside the level to take it from: said so.
        let bare = try Self.issueLedger()
        bare.ok(
            [
                "schedule", "add", "Rent", "--rule", "monthly on 20", "--start", "2026-12-01", "--count", "1", "--amount", "70000", "--from", "Bank",
                "--to", "Housing",
            ] + today)
        #expect(
            bare.ok(["can-spend"] + today).contains(
                "To restore it: 20 000.00 is needed by 2026-12-20, and no cash or debit account outside the level can give it."))
    }

    /// A card paid back from outside the level counts its limit alone; one paid back by a 5 %
    /// minimum takes what its payments to the horizon let the bank pay (its limit less the
    /// rounding of its minimums), its repayments binding; `--why` says which.
    @Test func cardsPaidOtherwiseSayHowTheyCount() throws {
        let cli = try CLI()
        let today = ["--today", "2026-12-01"]
        cli.ok(["init"] + today)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + today)
        cli.ok(["account", "add", "Savings", "--kind", "debit", "--level", "5"] + today)
        cli.ok(["tx", "add", "--on", "2026-11-20", "--posting", "Bank=100000", "--posting", "Savings=10000", "--posting", "Capital"] + today)
        cli.ok(["card", "add", "Outside", "--limit", "30000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Savings"] + today)
        cli.ok(
            [
                "card", "add", "Minimum", "--limit", "40000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank", "--payback",
                "minimum", "--minimum", "5",
            ] + today)
        let object = try #require(try cli.json(["can-spend", "--why"] + today) as? [String: Any])
        let split = try #require(object["split"] as? [[String: Any]])
        // The cards in listing order (by name).
        #expect(split.map { $0.string("account") } == ["Bank", "Minimum", "Outside"])
        // Outside's limit is 30 000, but Savings can pay back only its 10 000.
        #expect(split.map { $0.string("amount") } == ["82752.02", "39999.99", "10000.00"])
        #expect(split.map { $0.string("binds") } == ["pool", "repayments", "paying-account"])
        #expect(object.string("amount") == "132752.01")
        let text = cli.ok(["can-spend", "--why"] + today)
        #expect(
            text.contains("Outside is paid back from outside the level: what its paying account can pay after its payback on 2027-01-14 binds"),
            "\(text)")
        #expect(
            text.contains(
                "Minimum is paid back by its minimum or fixed amount, first on 2027-01-14: those payments, with interest, bind the pool on"
            ), "\(text)")
    }

    /// The docs' card paid over time: a 10 % minimum at 24 % a year, a bank that the salary
    /// refills before each rent. The answer's card part is what its minimums, with interest, let
    /// the bank pay; spent for real, nothing is left, the bank never goes below 0 nor the card
    /// past its limit, and a minor unit more on the card lowers the total.
    @Test func aCardPaidOverTimeAddsWhatItsRepaymentsLeave() throws {
        let today = ["--today", "2026-12-01"]
        func ledger() throws -> CLI {
            let cli = try CLI()
            cli.ok(["init"] + today)
            cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"] + today)
            cli.ok(["tx", "add", "--on", "2026-11-20", "--posting", "Bank=100000", "--posting", "Capital"] + today)
            cli.ok(
                [
                    "card", "add", "Card", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank", "--payback",
                    "minimum", "--minimum", "10", "--rate", "24",
                ] + today)
            cli.ok(
                [
                    "schedule", "add", "Salary", "--rule", "monthly on 10", "--start", "2026-12-01", "--amount", "60000", "--from", "Salary", "--to",
                    "Bank",
                ]
                    + today)
            cli.ok(
                [
                    "schedule", "add", "Rent", "--rule", "monthly on 1", "--start", "2026-12-02", "--amount", "55000", "--from", "Bank", "--to",
                    "Housing",
                ]
                    + today)
            return cli
        }
        let cli = try ledger()
        let object = try #require(try cli.json(["can-spend", "--why"] + today) as? [String: Any])
        let split = try #require(object["split"] as? [[String: Any]])
        #expect(object.string("amount") == "186888.50")
        #expect(split.map { $0.string("amount") } == ["86888.53", "99999.97"])
        #expect(split.map { $0.string("binds") } == ["pool", "repayments"])
        #expect(split.last?.string("payback") == "2027-01-14")
        // Scenarios use it: the best split pays up to can-spend's answer and not a minor unit more.
        let tried = try #require(try cli.json(["scenario", "try", "--price", "186888.50", "--on", "2026-12-01"] + today) as? [String: Any])
        #expect(tried["feasible"] as? Bool == true && tried.string("maxPrice") == "186888.50", "\(tried)")
        let paid = try #require(tried["split"] as? [[String: Any]])
        #expect(paid.map { $0.string("account") } == ["Bank", "Card"] && paid.map { $0.string("amount") } == ["86888.53", "99999.97"], "\(paid)")
        let above = try #require(try cli.json(["scenario", "try", "--price", "186888.51", "--on", "2026-12-01"] + today) as? [String: Any])
        #expect(above["feasible"] as? Bool == false && above.string("maxPrice") == "186888.50", "\(above)")
        // A price the bank can pay alone goes on no card paid over time: it costs interest.
        let small = try #require(try cli.json(["scenario", "try", "--price", "50000", "--on", "2026-12-01"] + today) as? [String: Any])
        #expect(small["feasible"] as? Bool == true && small["split"] == nil && small.string("onCards") == "0.00", "\(small)")
        // Paid on the card by name: up to what its limit and the bank's payments for it let.
        let onCard = try #require(
            try cli.json(["scenario", "try", "--price", "1000", "--on", "2026-12-01", "--from", "Card"] + today) as? [String: Any])
        #expect(onCard["feasible"] as? Bool == true && onCard.string("onCards") == "1000.00", "\(onCard)")
        let most = try #require(onCard.string("maxPrice").flatMap(minorUnits))
        let atMost = try #require(
            try cli.json(["scenario", "try", "--price", HouseholdForecast.decimal(most), "--on", "2026-12-01", "--from", "Card"] + today)
                as? [String: Any])
        let past = try #require(
            try cli.json(["scenario", "try", "--price", HouseholdForecast.decimal(most + 1), "--on", "2026-12-01", "--from", "Card"] + today)
                as? [String: Any])
        #expect(atMost["feasible"] as? Bool == true && past["feasible"] as? Bool == false, "\(atMost) \(past)")
        // Spent for real on the card, the bank makes its payments and the card stays within its limit.
        let spent = try ledger()
        spent.ok(["spend", HouseholdForecast.decimal(most), "Other", "--from", "Card"] + today)
        #expect(try Self.closings(spent, "Bank", today).allSatisfy { $0 >= 0 })
        #expect(try Self.closings(spent, "Card", today).allSatisfy { $0 >= -10_000_000 })
        // A minor unit more on the card: the bank can then pay less than a unit less.
        let other = try ledger()
        other.ok(["spend", "99999.98", "Other", "--from", "Card"] + today)
        let more = try #require(try other.json(["can-spend"] + today) as? [String: Any])
        #expect(try #require(more.string("amount").flatMap(minorUnits)) < 8_688_853)
        cli.ok(["spend", "99999.97", "Other", "--from", "Card"] + today)
        cli.ok(["spend", "86888.53", "Other", "--from", "Bank"] + today)
        let after = try #require(try cli.json(["can-spend"] + today) as? [String: Any])
        #expect(after.string("amount") == "0.00" && after.string("shortfall") == "0.00")
        #expect(try Self.closings(cli, "Bank", today).allSatisfy { $0 >= 0 })
        #expect(try Self.closings(cli, "Card", today).allSatisfy { $0 >= -10_000_000 })
    }

    /// Each day's closing balance of an account to the horizon, in kopecks.
    static func closings(_ cli: CLI, _ account: String, _ today: [String]) throws -> [Int64] {
        let object = try #require(try cli.json(["forecast", "--account", account, "--by", "day"] + today) as? [String: Any])
        let periods = try #require(object["periods"] as? [[String: Any]])
        return periods.compactMap { $0.string("closing").flatMap(minorUnits) }
    }

    /// A generated household: a bank (the default, with a floor) and a wallet, a salary and the
    /// rent, one or two cards paid back from the bank (in full, or over time), spending on the cards by schedule
    /// and already on their statements.
    struct Household: CustomStringConvertible {
        var seed: UInt64
        var cards: [(name: String, limit: Int64)] = []
        var floors: [String: Int64] = [:]
        var description: String { "household \(seed)" }
    }

    static let today = ["--today", "2026-03-10"]

    /// With `overTime`, each card is paid back by a minimum or a fixed amount with interest, half the time.
    static func household(_ seed: UInt64, _ cli: CLI, overTime: Bool = false) -> Household {
        var random = SplitMix64(seed: seed)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        var household = Household(seed: seed)
        cli.ok(["init"] + today)
        let bankFloor = Int64(int(0...3) * 5_000)
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default", "--floor", "\(bankFloor)"] + today)
        cli.ok(["account", "add", "Wallet", "--kind", "cash"] + today)
        household.floors = ["Bank": bankFloor * 100, "Wallet": 0]
        cli.ok(
            [
                "tx", "add", "--on", "2026-02-01", "--posting", "Bank=\(int(20...120) * 1_000)", "--posting", "Wallet=\(int(0...5) * 1_000)",
                "--posting", "Capital",
            ] + today)
        cli.ok(
            [
                "schedule", "add", "Salary", "--rule", "monthly on \(int(1...28))", "--start", "2026-01-01", "--amount", "\(int(60...150) * 1_000)",
                "--from", "Salary", "--to", "Bank",
            ] + today)
        cli.ok(
            [
                "schedule", "add", "Rent", "--rule", "monthly on \(int(1...28))", "--start", "2026-01-01", "--amount", "\(int(30...70) * 1_000)",
                "--from", "Bank", "--to", "Housing",
            ] + today)
        for k in 1...int(1...2) {
            let name = "Card\(k)"
            let limit = int(5...20) * 10_000
            let statement = int(1...28)
            let due = int(0...1) == 0 ? ["--due-after", "\(int(10...25))"] : ["--due-day", "\((statement + int(1...20) - 1) % 28 + 1)"]
            let payback =
                !overTime || int(0...1) == 0
                ? []
                : int(0...1) == 0
                    ? ["--payback", "minimum", "--minimum", "\(int(5...20))", "--rate", "\(int(12...40))"]
                    : ["--payback", "fixed", "--fixed", "\(int(3...15) * 1_000)", "--rate", "\(int(12...40))"]
            cli.ok(["card", "add", name, "--limit", "\(limit)", "--statement-day", "\(statement)", "--pay-from", "Bank"] + due + payback + today)
            cli.ok(
                [
                    "schedule", "add", "Shop\(k)", "--rule", "monthly on \(int(1...28))", "--start", "2026-01-01", "--amount",
                    "\(int(2...15) * 1_000)", "--from", name, "--to", "Groceries",
                ] + today)
            cli.ok(["spend", "\(int(1...30) * 500)", "Other", "--from", name, "--on", "2026-03-0\(int(1...9))"] + today)
            household.cards.append((name, Int64(limit) * 100))
        }
        return household
    }

    /// Whether the ledger as it stands keeps the pool (bank and wallet) at or above its floors and
    /// every card within its limit on every day to the horizon.
    static func withinLimits(_ cli: CLI, _ household: Household) throws -> Bool {
        let bank = try closings(cli, "Bank", today)
        let wallet = try closings(cli, "Wallet", today)
        let floor = household.floors.values.reduce(0, +)
        guard zip(bank, wallet).allSatisfy({ $0 + $1 >= floor }) else { return false }
        for card in household.cards where try closings(cli, card.name, today).contains(where: { $0 < -card.limit }) { return false }
        return true
    }

    @Test("generated households: the split spent for real keeps every limit, leaves nothing, and a kopeck more breaks one", arguments: 0..<6)
    func theSplitSpentForReal(batch: Int) throws {
        for seed in stride(from: UInt64(100 + batch), to: 124, by: 6) { try Self.spendForReal(seed, overTime: false) }
    }

    /// The same with cards paid back by a minimum or fixed amount, with interest: their payments
    /// to the horizon count, as the cards' own terms make them.
    @Test(
        "generated households with cards paid over time: the split spent for real keeps every limit, leaves nothing, and a kopeck more breaks one",
        arguments: 0..<4)
    func theSplitSpentForRealPaidOverTime(batch: Int) throws {
        for seed in stride(from: UInt64(300 + batch), to: 316, by: 4) { try Self.spendForReal(seed, overTime: true) }
    }

    static func spendForReal(_ seed: UInt64, overTime: Bool) throws {
        let cli = try CLI()
        let household = Self.household(seed, cli, overTime: overTime)
        let base = try #require(try cli.json(["can-spend"] + Self.today) as? [String: Any])
        let amount = try #require(base.string("amount").flatMap(minorUnits))
        let split = try #require(base["split"] as? [[String: Any]])
        let parts = split.map { ($0.string("account")!, minorUnits($0.string("amount")!)!) }
        #expect(parts.map(\.1).reduce(0, +) == amount, "\(household): \(split)")
        guard amount > 0 else {
            let breaks = !(try Self.withinLimits(cli, household))
            #expect(minorUnits(base.string("shortfall")!)! > 0 || breaks, "\(household): \(base)")
            return
        }
        #expect(try Self.withinLimits(cli, household), "\(household): the base breaks a limit")
        let backup = cli.path("before.sqlite")
        cli.ok(["backup", backup])
        for (account, minor) in parts where minor > 0 { Self.spend(cli, minor, from: account) }
        #expect(try Self.withinLimits(cli, household), "\(household): spending \(split) breaks a limit")
        let after = try #require(try cli.json(["can-spend"] + Self.today) as? [String: Any])
        #expect(after.string("amount") == "0.00", "\(household): \(after)")
        // A kopeck more on any part (the rest as the split says) breaks a limit.
        for (index, part) in parts.enumerated() {
            let trial = try CLI()
            trial.ok(["backup", trial.db, "--db", backup])
            for (j, other) in parts.enumerated() where other.1 > 0 || j == index {
                Self.spend(trial, other.1 + (j == index ? 1 : 0), from: other.0)
            }
            #expect(!(try Self.withinLimits(trial, household)), "\(household): one kopeck more on \(part.0) still fits")
        }
    }

    /// Spends `minor` kopecks from `account` today (a pool part may take its one account below
    /// its own floor while the pool stays above the summed floors: the warning says so).
    static func spend(_ cli: CLI, _ minor: Int64, from account: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = cli.run(
            ["spend", "\(minor / 100).\(String(format: "%02d", minor % 100))", "Other", "--from", account, "--on", "2026-03-10"] + today)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    }
}
