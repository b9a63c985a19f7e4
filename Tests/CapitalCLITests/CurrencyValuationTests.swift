import Foundation
import Testing

/// Issue 19, items 3 and 4 from the command line: every answer counts accounts in other
/// currencies at the day's rate (the pessimistic case at the lowest rate of the look-back), says
/// when a rate is stale, and refuses an amount it cannot value.
@Suite("CLI: answers in several currencies")
struct CurrencyValuationTests {
    /// A RUB ledger: 50 000 in VTB Debit, 1 000 USD in a deposit, both in the group `Savings`;
    /// USD at 90 from 1 March and 95 from 15 March 2025.
    static func ledger(rates: Bool = true) throws -> CLI {
        let cli = try CLI()
        cli.ok(["init", "--currency", "RUB"])
        cli.ok(["account", "add", "VTB Debit", "--kind", "debit", "--default"])
        cli.ok(["account", "add", "Savings USD", "--kind", "deposit", "--currency", "USD"])
        cli.ok(["tx", "add", "--on", "2025-03-01", "--posting", "VTB Debit=50000", "--posting", "Capital"])
        cli.ok(["tx", "add", "--on", "2025-03-01", "--posting", "Savings USD=1000", "--posting", "Capital"])
        cli.ok(["group", "add", "Savings", "--type", "cash-flow", "--account", "VTB Debit", "--account", "Savings USD"])
        if rates {
            cli.ok(["rate", "set", "USD", "90", "--on", "2025-03-01"])
            cli.ok(["rate", "set", "USD", "95", "--on", "2025-03-15"])
        }
        return cli
    }

    static func amount(_ cli: CLI, _ args: [String]) throws -> String? {
        (try cli.json(args) as? [String: Any])?.string("amount")
    }

    @Test func balancesValueEachAccountAndSumGroupsInTheLedgersCurrency() throws {
        let cli = try Self.ledger()
        let object = try #require(try cli.json(["balance", "--on", "2025-03-20"]) as? [String: Any])
        let accounts = try #require(object["accounts"] as? [[String: Any]])
        let savings = try #require(accounts.first { $0.string("account") == "Savings USD" })
        #expect(savings.string("balance") == "1000.00" && savings.string("currency") == "USD" && savings.string("value") == "95000.00")
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(groups.map { $0.string("balance") } == ["145000.00"] && groups.first?.string("currency") == "RUB")
        // Before the second rate: the first one holds.
        let early = try #require((try cli.json(["balance", "--on", "2025-03-08"]) as? [String: Any])?["groups"] as? [[String: Any]])
        #expect(early.first?.string("balance") == "140000.00")
        // By currency: each currency's total with its value, then the valued total.
        let table = cli.ok(["balance", "--on", "2025-03-20", "--by-currency"])
        #expect(table.contains("Savings  cash-flow   50 000.00  RUB   50 000.00"), "\(table)")
        #expect(table.contains("Savings  cash-flow    1 000.00  USD   95 000.00"), "\(table)")
        #expect(table.contains("Savings  total      145 000.00  RUB  145 000.00"), "\(table)")
        #expect(cli.ok(["balance", "--on", "2025-03-20"]).contains("In RUB"))
        // A balance on a day before the currency's first rate cannot be valued.
        cli.ok(["tx", "add", "--on", "2025-02-01", "--posting", "Savings USD=1", "--posting", "Capital"])
        cli.fails(["balance", "--on", "2025-02-10"], mentioning: ["no rate of USD on 2025-02-10", "first rate is on 2025-03-01"])
    }

    @Test func canSpendCountsTheForeignDepositPessimistically() throws {
        let cli = try Self.ledger()
        let today = ["--today", "2025-03-20"]
        // Level 6 holds both: pessimistic at the lowest rate of the 90 days (90), expected at today's (95).
        #expect(try Self.amount(cli, today + ["can-spend", "--level", "6"]) == "140000.00")
        #expect(try Self.amount(cli, today + ["can-spend", "--level", "6", "--expected"]) == "145000.00")
        // A look-back of 3 days sees only 95.
        #expect(try Self.amount(cli, today + ["can-spend", "--level", "6", "--fx-window", "3"]) == "145000.00")
        // What if the dollar fell to 80 after today: the pessimistic answer takes it from tomorrow on.
        #expect(try Self.amount(cli, today + ["can-spend", "--level", "6", "--rate", "USD=80"]) == "130000.00")
        // Level 2 holds the debit account only: no rate needed, nothing said.
        #expect(try Self.amount(cli, today + ["can-spend", "--level", "2"]) == "50000.00")
        // An assumed path: 70 from June, so the lowest day ahead is worth 70 000 in dollars.
        let path = cli.path("path.csv")
        try "2025-06-10,USD,70\n".write(toFile: path, atomically: true, encoding: .utf8)
        let forecast = try #require(
            (try cli.json(today + ["forecast", "--level", "6", "--until", "2025-07", "--expected", "--rates-ahead", path]) as? [String: Any])?[
                "periods"] as? [[String: Any]])
        #expect(forecast.map { $0.string("revaluation") } == ["0.00", "0.00", "0.00", "-25000.00", "0.00"])
        #expect(forecast.last?.string("closing") == "120000.00")
    }

    @Test func theWhyNamesTheRateEachForeignAccountIsCountedAt() throws {
        let cli = try Self.ledger()
        let today = ["--today", "2025-03-20"]
        let pessimistic = cli.ok(today + ["can-spend", "--level", "6", "--why"])
        #expect(
            pessimistic.contains("Savings USD 1 000.00 USD counted at 90 (the lowest rate of the look-back, of 2025-03-01): 90 000.00"),
            "\(pessimistic)")
        let expected = cli.ok(today + ["can-spend", "--level", "6", "--why", "--expected"])
        #expect(expected.contains("Savings USD 1 000.00 USD counted at 95 (the rate of 2025-03-15): 95 000.00"), "\(expected)")
        let object = try #require(try cli.json(today + ["can-spend", "--level", "6", "--why"]) as? [String: Any])
        let effects = try #require(object["currencies"] as? [[String: Any]])
        #expect(effects.count == 1)
        #expect(effects.first?.string("account") == "Savings USD" && effects.first?.string("rate") == "90")
        #expect(effects.first?.string("rateDay") == "2025-03-01" && effects.first?.string("value") == "90000.00")
        // A level without the deposit names no currency.
        let two = try #require(try cli.json(today + ["can-spend", "--level", "2", "--why"]) as? [String: Any])
        #expect((two["currencies"] as? [Any])?.isEmpty == true)
    }

    @Test func aStaleRateIsSaidOnStderrAndInJSON() throws {
        let cli = try Self.ledger()
        let fresh = cli.run(["--today", "2025-03-20", "can-spend", "--level", "6"])
        #expect(fresh.status == 0 && fresh.stderr == "", "\(fresh)")
        let stale = cli.run(["--today", "2025-04-20", "can-spend", "--level", "6"])
        #expect(stale.status == 0)
        #expect(
            stale.stderr.split(separator: "\n") == [
                "capital: note: valued with rates older than 7 days: USD at 95 of 2025-03-15 (36 days old); import newer ones with capital rate import"
            ])
        let json = cli.run(["--today", "2025-04-20", "can-spend", "--level", "6", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rates = try #require(object["staleRates"] as? [[String: Any]])
        #expect(
            rates.count == 1 && rates[0].string("currency") == "USD" && rates[0].string("lastRate") == "95" && rates[0].string("on") == "2025-03-15")
        // balance says it too, for the day it shows.
        let balance = cli.run(["balance", "--on", "2025-04-20"])
        #expect(balance.status == 0 && balance.stderr.contains("USD at 95 of 2025-03-15 (36 days old)"), "\(balance)")
        #expect(cli.run(["balance", "--on", "2025-03-20"]).stderr == "")
        // A rate per 100 units is quoted per one.
        cli.ok(["rate", "set", "USD", "9500", "--per", "100", "--on", "2025-03-16"])
        #expect(cli.run(["--today", "2025-04-20", "can-spend", "--level", "6"]).stderr.contains("USD at 95 of 2025-03-16"))
    }

    @Test func answersWithoutARateAreRefused() throws {
        let cli = try Self.ledger(rates: false)
        cli.fails(
            ["--today", "2025-03-20", "can-spend", "--level", "6"],
            mentioning: ["Savings USD", "no rate of USD on 2025-03-20", "the ledger has none"])
        cli.fails(["--today", "2025-03-20", "forecast", "--group", "Savings"], mentioning: ["Savings USD", "no rate of USD"])
        cli.ok(["rate", "set", "USD", "90", "--on", "2025-03-25"])
        cli.fails(
            ["--today", "2025-03-20", "can-spend", "--level", "6"], mentioning: ["no rate of USD on 2025-03-20", "first rate is on 2025-03-25"])
        // Levels without the deposit need no rate.
        #expect(try Self.amount(cli, ["--today", "2025-03-20", "can-spend", "--level", "4"]) == "50000.00")
    }

    @Test func badRateAssumptionsAreRefused() throws {
        let cli = try Self.ledger()
        let ask = ["--today", "2025-03-20", "can-spend", "--level", "6"]
        cli.fails(ask + ["--rate", "USD"], mentioning: ["--rate 'USD'", "CODE=RATE"])
        cli.fails(ask + ["--rate", "XYZ=1"], mentioning: ["--rate 'XYZ=1'", "ISO 4217"])
        cli.fails(ask + ["--rate", "RUB=1"], mentioning: ["--rate 'RUB=1'", "own currency"])
        cli.fails(ask + ["--rate", "USD=0"], mentioning: ["--rate 'USD=0'", "above zero"])
        cli.fails(ask + ["--rate", "USD=-3"], mentioning: ["--rate 'USD=-3'", "above zero"])
        cli.fails(ask + ["--rate", "USD=12345678901"], mentioning: ["--rate", "10 significant digits"])
        cli.fails(ask + ["--rate", "USD=90", "--rate", "usd=91"], mentioning: ["--rate 'usd=91'", "which one"])
        cli.fails(ask + ["--fx-window", "0"], mentioning: ["--fx-window '0'", "1 to 3660"])
        cli.fails(ask + ["--fx-window", "-5"], mentioning: ["--fx-window '-5'"])
        cli.fails(ask + ["--rates-ahead", cli.path("missing.csv")], mentioning: ["--rates-ahead", "no such file"])
        let early = cli.path("early.csv")
        try "2025-03-10,USD,70\n".write(toFile: early, atomically: true, encoding: .utf8)
        cli.fails(
            ask + ["--rates-ahead", early], mentioning: ["--rates-ahead", "2025-03-10 is not after the ledger's last rate of it (2025-03-15)"])
        let broken = cli.path("broken.csv")
        try "2025-06-10,USD,seventy\n".write(toFile: broken, atomically: true, encoding: .utf8)
        cli.fails(ask + ["--rates-ahead", broken], mentioning: ["broken.csv:1", "'seventy'"])
    }

    /// Item 5: spending in another currency counts in its category at the transaction day's rate;
    /// a posting before the currency's first rate is left out, and said.
    @Test func statsCountForeignSpendingAtItsDaysRate() throws {
        let cli = try Self.ledger()
        cli.ok(["account", "add", "Cash USD", "--kind", "cash", "--currency", "USD"])
        cli.ok(["account", "add", "Travel", "--kind", "expense", "--currency", "USD"])
        cli.ok(["tx", "add", "--on", "2025-02-01", "--posting", "Cash USD=100", "--posting", "Capital"])
        cli.ok(["spend", "5", "Travel", "--from", "Cash USD", "--on", "2025-02-10"])  // before the first rate
        cli.ok(["spend", "10.01", "Travel", "--from", "Cash USD", "--on", "2025-03-10"])  // at 90: 900.90
        cli.ok(["spend", "20", "Travel", "--from", "Cash USD", "--on", "2025-03-20"])  // at 95: 1 900.00
        cli.ok(["spend", "300", "Groceries", "--on", "2025-03-21"])
        let object = try #require(try cli.json(["--today", "2025-03-31", "stats", "--from", "2025-02", "--to", "2025-03"]) as? [String: Any])
        let rows = try #require((object["expense"] as? [String: Any])?["categories"] as? [[String: Any]])
        let travel = try #require(rows.first { $0.string("category") == "Travel" })
        #expect(travel.string("amount") == "2800.90")
        #expect((object["expense"] as? [String: Any])?.string("total") == "3100.90")
        let leftOut = try #require(object["leftOut"] as? [[String: Any]])
        #expect(leftOut.count == 1 && leftOut.first?["postings"] as? Int == 1 && leftOut.first?.string("currency") == "USD")
        let table = cli.ok(["--today", "2025-03-31", "stats", "--from", "2025-02", "--to", "2025-03"])
        #expect(table.contains("Left out: 1 posting in USD with no rate on their day"), "\(table)")
    }

    /// Item 5: `stats --revaluation`: per month and account in another currency, what rates added
    /// beyond the flows, each flow valued at its day.
    @Test func revaluationIsTheChangeNoFlowExplains() throws {
        let cli = try Self.ledger()
        let args = ["--today", "2025-04-30", "stats", "--revaluation", "--from", "2025-03", "--to", "2025-04"]
        let rows = try cli.rows(args)
        #expect(rows.map { $0.string("account") } == ["Savings USD", "Savings USD"])
        // March: 1 000 USD put in on the 1st at 90 (90 000), worth 95 000 at the month's end.
        #expect(rows[0].string("start") == "2025-03-01" && rows[0].string("end") == "2025-03-31")
        #expect(rows[0].string("openingValue") == "0.00" && rows[0].string("flows") == "90000.00")
        #expect(rows[0].string("closingValue") == "95000.00" && rows[0].string("revaluation") == "5000.00")
        // April: no new rate, no flow.
        #expect(rows[1].string("openingValue") == "95000.00" && rows[1].string("revaluation") == "0.00")
        #expect(cli.ok(args).contains("Total: 5 000.00"))
        // An account filter keeps its rows; bad combinations are refused.
        #expect(try cli.rows(args + ["--account", "VTB Debit"]).isEmpty)
        cli.fails(args + ["--by", "month"], mentioning: ["--by 'month'", "not both"])
        cli.fails(args + ["--chart"], mentioning: ["--chart"])
        // Without the March rate, the month's opening flow cannot be valued.
        cli.ok(["rate", "rm", "USD", "--on", "2025-03-01"])
        cli.fails(args, mentioning: ["Savings USD", "no rate of USD on 2025-03-01", "first rate is on 2025-03-15"])
    }

    /// An answer from a database reads only the rates from the look-back on (and the one before
    /// them); the same ledger read whole from a file, every rate, gives the same answers — with
    /// years of rates before, a look-back reaching into them, a rate in the look-back's first days
    /// lower than any later, and a currency no account holds.
    @Test func answersFromTheWindowOfRatesAreThoseFromEveryRate() throws {
        let cli = try Self.ledger(rates: false)
        var lines = ["date,currency,rate"]
        var day = try #require(ISO8601DateFormatter().date(from: "2022-01-01T00:00:00Z"))
        var n = 0
        while ISO8601DateFormatter().string(from: day).prefix(10) <= "2025-03-31" {
            let iso = String(ISO8601DateFormatter().string(from: day).prefix(10))
            // A saw from 80 to 99.9, its low of 70.5 on 2025-01-05 (in a 90-day look-back from April).
            let rate = iso == "2025-01-05" ? "70.5" : "\(80 + n % 200 / 10).\(n % 10)"
            lines.append("\(iso),USD,\(rate)")
            lines.append("\(iso),CHF,\(100 + n % 7)")
            n += 1
            day = day.addingTimeInterval(86_400)
        }
        let file = cli.path("history.csv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        cli.ok(["rate", "import", file])
        let ledger = cli.path("ledger.yaml")
        cli.ok(["export", "--format", "yaml", "--out", ledger])
        for today in ["2025-04-01", "2025-03-01", "2025-06-30"] {
            for extra in [[], ["--fx-window", "400"], ["--fx-window", "1"], ["--expected"]] {
                for answer in [["can-spend", "--level", "6", "--why"], ["forecast", "--level", "6", "--days", "40", "--by-currency"]] {
                    let args = ["--today", today] + answer + extra + ["--format", "json"]
                    let fromDatabase = cli.run(args)
                    let fromFile = cli.run(["-f", ledger] + args)
                    #expect(fromDatabase.status == 0 && fromDatabase.stdout == fromFile.stdout, "\(args): \(fromDatabase) / \(fromFile)")
                    #expect(fromDatabase.stderr == fromFile.stderr, "\(args)")
                }
            }
        }
        // The look-back's low counts from April; from July it has left the window.
        let april = try #require(try cli.json(["--today", "2025-04-01", "can-spend", "--level", "6", "--why"]) as? [String: Any])
        #expect((april["currencies"] as? [[String: Any]])?.first?.string("rate") == "70.5")
        let july = try #require(try cli.json(["--today", "2025-07-10", "can-spend", "--level", "6", "--why"]) as? [String: Any])
        #expect((july["currencies"] as? [[String: Any]])?.first?.string("rate") != "70.5")
    }

    /// An instrument's interest category, or the account a due or a budget is paid from, in
    /// another currency than its amounts is refused when it is named: each posting would be
    /// refused later, and with it everything else `post` was to write.
    @Test func aCategoryOrAccountInAnotherCurrencyIsRefusedWhereItIsNamed() throws {
        let cli = try Self.ledger()
        cli.ok(["category", "add", "Interest", "--income"])
        cli.ok(["category", "add", "Card interest"])
        let loan = [
            "loan", "add", "Car loan", "--principal", "1000", "--rate", "10", "--term", "12", "--start", "2025-01-01", "--pay-from", "Savings USD",
        ]
        cli.fails(loan, mentioning: ["'Loan interest'", "it holds RUB, the amounts are in USD"])
        cli.fails(["deposit", "add", "Savings USD", "--rate", "5", "--opened", "2025-01-01"], mentioning: ["'Interest'", "it holds RUB"])
        cli.fails(
            ["card", "add", "Visa", "--limit", "1000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Savings USD"],
            mentioning: ["'Card interest'", "it holds RUB"])
        let due = ["due", "add", "fine", "--total", "100", "--due", "2025-05-01", "--reason", "Parking"]
        cli.fails(due + ["--from", "Savings USD"], mentioning: ["--from 'Savings USD'", "it holds USD, the amounts are in RUB"])
        cli.fails(["budget", "set", "Groceries", "100", "--pay-from", "Savings USD"], mentioning: ["--pay-from 'Savings USD'", "it holds USD"])
        cli.ok(due)
        cli.fails(["due", "edit", "1", "--from", "Savings USD"], mentioning: ["--from 'Savings USD'", "it holds USD"])
        // A category in the loan's currency is taken, and what it expects posts.
        cli.ok(["category", "add", "USD interest", "--currency", "USD"])
        cli.ok(loan + ["--category", "USD interest"])
        let posted = cli.run(["--today", "2025-03-10", "post"])
        #expect(posted.status == 0, "\(posted)")
        #expect(cli.ok(["check"]).contains(": ok"))
    }
}
