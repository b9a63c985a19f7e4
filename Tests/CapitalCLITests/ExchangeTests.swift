import Foundation
import Testing

/// Issue 19, item 2: money changing currency — `exchange`, and spend, earn and transfer between
/// accounts of two currencies with `--paid` or `--rate` — one transaction balanced per currency
/// through Capital, its implied rate the day's rate.
@Suite("CLI: exchanges")
struct ExchangeTests {
    static func ledger() throws -> CLI {
        let cli = try CLI()
        cli.ok(["init", "--currency", "RUB"])
        cli.ok(["account", "add", "VTB Debit", "--kind", "debit", "--default"])
        cli.ok(["account", "add", "Cash USD", "--kind", "cash", "--currency", "USD"])
        cli.ok(["tx", "add", "--on", "2025-03-01", "--posting", "VTB Debit=200000", "--posting", "Capital"])
        return cli
    }

    /// Each account's balance per currency on a day, `name currency` → minor units, from `balance --all`.
    static func balances(_ cli: CLI, on day: String) throws -> [String: Int64] {
        let accounts = try #require((try cli.json(["balance", "--on", day, "--all"]) as? [String: Any])?["accounts"] as? [[String: Any]])
        var result: [String: Int64] = [:]
        for row in accounts {
            let text = (row.string("balance") ?? "").replacingOccurrences(of: ".", with: "")
            result["\(row.string("account") ?? "?") \(row.string("currency") ?? "?")"] = Int64(text)
        }
        return result
    }

    @Test func anExchangeBalancesPerCurrencyAndSetsTheDaysRate() throws {
        let cli = try Self.ledger()
        let said = cli.ok(["exchange", "1000", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "92500", "--on", "2025-03-20"])
        #expect(said.hasPrefix("Exchanged 92 500.00 RUB from VTB Debit for 1 000.00 USD into Cash USD on 2025-03-20"), "\(said)")
        #expect(said.contains("USD set at 92.5 RUB that day."))
        let balances = try Self.balances(cli, on: "2025-03-20")
        #expect(balances["VTB Debit RUB"] == 107_500_00 && balances["Cash USD USD"] == 1_000_00)
        // Capital holds the other side of each currency: the opening, then +92 500 RUB and −1 000 USD.
        #expect(balances["Capital RUB"] == -107_500_00 && balances["Capital USD"] == -1_000_00)
        #expect(cli.ok(["check"]).contains(": ok ("))
        let rates = try cli.rows(["rate", "list"])
        #expect(rates.count == 1 && rates[0].string("rate") == "92.5" && rates[0].string("on") == "2025-03-20")
        // Selling at a rate: the other side is the amount at it, half to even; the rate of the day replaced.
        cli.ok(["exchange", "100.01", "USD", "--from", "Cash USD", "--to", "VTB Debit", "--rate", "91.85", "--on", "2025-03-20"])
        let after = try Self.balances(cli, on: "2025-03-20")
        #expect(after["VTB Debit RUB"] == Int64(116_685_92))  // 107 500 + 100.01 × 91.85 (9 185.9185)
        #expect(after["Cash USD USD"] == 899_99)
        #expect(try cli.rows(["rate", "list"]).map { $0.string("rate") } == ["91.85"])
        // --no-rate leaves the rates alone.
        cli.ok(["exchange", "10", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "1000", "--on", "2025-03-21", "--no-rate"])
        #expect(try cli.rows(["rate", "list"]).count == 1)
        // The CSV export values each posting at its day's rate; none before the first rate.
        cli.ok(["tx", "add", "--on", "2025-03-05", "--posting", "Cash USD=1", "--posting", "Capital"])
        let csv = cli.ok(["export", "--format", "csv", "--what", "transactions"])
        #expect(csv.contains("2025-03-21,,Cash USD,,10.00,USD,918.50,cash,"), "\(csv)")
        #expect(csv.contains("2025-03-05,,Cash USD,,1.00,USD,,cash,"), "\(csv)")
        #expect(csv.contains("2025-03-20,,VTB Debit,,-92500.00,RUB,-92500.00,debit,"), "\(csv)")
        // A forecast of the dollar account, in dollars.
        let forecast = cli.ok([
            "--today", "2025-03-22", "export", "--format", "csv", "--what", "forecast", "--account", "Cash USD", "--to", "2025-03-31",
        ])
        #expect(forecast.contains(",USD"), "\(forecast)")
    }

    @Test func quickEntriesAcrossCurrenciesAreExchanges() throws {
        let cli = try Self.ledger()
        cli.ok(["exchange", "1000", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "92500", "--on", "2025-03-20"])
        #expect(
            cli.ok(["spend", "10", "Groceries", "--from", "Cash USD", "--rate", "92", "--on", "2025-03-22"]).hasPrefix("Spent 10.00 USD on Groceries")
        )
        cli.ok(["transfer", "100", "--from", "Cash USD", "--to", "VTB Debit", "--paid", "9150", "--on", "2025-03-22"])
        let balances = try Self.balances(cli, on: "2025-03-22")
        #expect(balances["Groceries RUB"] == 920_00)
        #expect(balances["Cash USD USD"] == 890_00)
        #expect(balances["VTB Debit RUB"] == Int64(116_650_00))
        #expect(
            try cli.rows(["rate", "list"]).map { "\($0.string("on") ?? "") \($0.string("rate") ?? "")" } == ["2025-03-20 92.5", "2025-03-22 91.5"])
    }

    /// `tx add` with hledger's price notation: the equity account takes the amount's opposite and
    /// its cost, so the transaction balances per currency.
    @Test func txAddTakesPrices() throws {
        let cli = try Self.ledger()
        cli.ok(["rate", "set", "USD", "92", "--on", "2025-03-19"])  // a price sets no rate: balance values at this one
        cli.ok(["tx", "add", "--on", "2025-03-20", "--posting", "Cash USD=100.01 @ 92.25", "--posting", "VTB Debit"])
        cli.ok(["tx", "add", "--on", "2025-03-21", "--posting", "Cash USD=-50 @@ 4600", "--posting", "VTB Debit"])
        let balances = try Self.balances(cli, on: "2025-03-21")
        #expect(balances["Cash USD USD"] == Int64(50_01))
        #expect(balances["VTB Debit RUB"] == Int64(200_000_00 - 9_225_92 + 4_600_00))  // 100.01 × 92.25 = 9 225.9225
        #expect(balances["Capital USD"] == Int64(-50_01))
        #expect(cli.ok(["check"]).contains(": ok ("))
        cli.fails(
            ["tx", "add", "--posting", "VTB Debit=100 @ 2", "--posting", "Cash USD"], mentioning: ["VTB Debit=100 @ 2", "another currency than RUB"])
        cli.fails(["tx", "add", "--posting", "Cash USD=100 @ 0", "--posting", "VTB Debit"], mentioning: ["'0'", "above zero"])
        cli.fails(["tx", "add", "--posting", "Cash USD=100 @", "--posting", "VTB Debit"], mentioning: ["expected a price after @"])
        cli.fails(["tx", "add", "--posting", "Cash USD=100 @@ 1.001", "--posting", "VTB Debit"], mentioning: ["1.001", "RUB allows 2"])
        cli.fails(["tx", "add", "--posting", "Cash USD=100 @@ -5", "--posting", "VTB Debit"], mentioning: ["'-5'", "above zero"])
    }

    @Test func badExchangesChangeNothing() throws {
        let cli = try Self.ledger()
        let base = ["exchange", "1000", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--on", "2025-03-20"]
        cli.fails(base + ["--paid", "92500.123"], mentioning: ["--paid '92500.123'", "too many decimals", "RUB allows 2"])
        cli.fails(
            ["exchange", "1000.001", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "1"],
            mentioning: ["AMOUNT '1000.001'", "USD allows 2"])
        cli.fails(base + ["--paid", "0"], mentioning: ["--paid '0'", "more than zero"])
        cli.fails(base + ["--rate", "0"], mentioning: ["--rate '0'", "above zero"])
        cli.fails(base + ["--rate", "92.50000000001"], mentioning: ["--rate", "10 significant digits"])
        cli.fails(base, mentioning: ["--paid", "--rate"])
        cli.fails(base + ["--paid", "1", "--rate", "2"], mentioning: ["--paid or --rate, not both"])
        cli.fails(
            ["exchange", "1000", "EUR", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "1"], mentioning: ["CURRENCY 'EUR'", "neither account"])
        cli.fails(["exchange", "1000", "XYZ", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "1"], mentioning: ["CURRENCY 'XYZ'", "ISO 4217"])
        cli.fails(
            ["exchange", "10", "RUB", "--from", "VTB Debit", "--to", "VTB Debit", "--paid", "1"], mentioning: ["--to 'VTB Debit'", "transfer"])
        cli.fails(
            ["exchange", "10", "USD", "--from", "VTB Debit", "--to", "Groceries", "--paid", "1"],
            mentioning: ["--to 'Groceries'", "balance accounts"])
        cli.fails(["exchange", "10", "USD", "--from", "Nowhere", "--to", "Cash USD", "--paid", "1"], mentioning: ["Nowhere", "not found"])
        cli.fails(["spend", "10", "Groceries", "--from", "Cash USD"], mentioning: ["holds USD", "--paid", "--rate"])
        cli.fails(["transfer", "10", "--from", "Cash USD", "--to", "VTB Debit"], mentioning: ["holds USD", "--paid", "--rate"])
        cli.fails(["spend", "10", "Groceries", "--rate", "3"], mentioning: ["--rate '3'", "nothing changes currency"])
        #expect(try cli.rows(["rate", "list"]).isEmpty)
    }

    /// Issue 19, item 6: the journal export carries every rate as a `P` directive, and hledger's
    /// `balance -X RUB --value=end,RUB` on it gives, for each account in one currency, the value
    /// capital's `balance` shows, on every day checked (where hledger is installed).
    @Test(.enabled(if: CLI.hasHledger))
    func hledgerValuesTheExportAsCapitalDoes() throws {
        let cli = try Self.ledger()
        cli.ok(["account", "add", "Savings USD", "--kind", "deposit", "--currency", "USD"])
        cli.ok(["account", "add", "Card EUR", "--kind", "credit-card", "--currency", "EUR"])
        cli.ok(["rate", "set", "EUR", "100.3456", "--on", "2025-03-01"])
        cli.ok(["rate", "set", "EUR", "99.87", "--on", "2025-03-18"])
        cli.ok(["rate", "set", "JPY", "58.7967", "--per", "100", "--on", "2025-03-01"])
        cli.ok(["exchange", "1000", "USD", "--from", "VTB Debit", "--to", "Cash USD", "--paid", "92500", "--on", "2025-03-10"])
        cli.ok(["exchange", "2500.55", "USD", "--from", "VTB Debit", "--to", "Savings USD", "--rate", "93.1234", "--on", "2025-03-12"])
        cli.ok(["spend", "45.67", "Eating out", "--from", "Card EUR", "--rate", "101.1", "--on", "2025-03-15"])
        cli.ok(["spend", "12.34", "Groceries", "--from", "Cash USD", "--rate", "94.5", "--on", "2025-03-20"])
        let journal = cli.path("valued.journal")
        cli.ok(["--today", "2025-03-25", "export", "--format", "journal", "--to", "2025-03-26", "--out", journal])
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text.contains("P 2025-03-01 JPY 0.587967 RUB"))
        #expect(text.contains("P 2025-03-12 USD 93.1234 RUB"))
        // An exchange the hledger way: its cost as an @@ total price, no postings to Capital.
        #expect(text.contains("    assets:cash:Cash USD  1000.00 USD @@ 92500.00 RUB\n    assets:debit:VTB Debit  -92500.00 RUB\n"), "\(text)")
        let names = [
            "VTB Debit": "assets:debit:VTB Debit", "Cash USD": "assets:cash:Cash USD", "Savings USD": "assets:deposit:Savings USD",
            "Card EUR": "liabilities:credit-card:Card EUR",
        ]
        for day in ["2025-03-10", "2025-03-12", "2025-03-15", "2025-03-17", "2025-03-18", "2025-03-20", "2025-03-25"] {
            let next = try #require(
                Calendar(identifier: .gregorian).date(byAdding: .day, value: 1, to: ISO8601DateFormatter().date(from: day + "T00:00:00Z")!))
            let end = ISO8601DateFormatter().string(from: next).prefix(10)
            let (status, output) = try CLI.hledger([
                "-f", journal, "balance", "-e", String(end), "-X", "RUB", "--value=end,RUB", "--flat", "-O", "csv",
            ])
            #expect(status == 0)
            var theirs: [String: String] = [:]
            for line in output.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                if fields.count >= 2 { theirs[fields[0]] = fields[1].replacingOccurrences(of: " RUB", with: "") }
            }
            let accounts = try #require((try cli.json(["balance", "--on", day]) as? [String: Any])?["accounts"] as? [[String: Any]])
            for row in accounts {
                guard let name = row.string("account"), let path = names[name] else { continue }
                let value = row.string("value") ?? "?"
                #expect(
                    (theirs[path] ?? "0.00") == (value == "0.00" ? "0.00" : value),
                    "\(name) on \(day): hledger \(theirs[path] ?? "none"), capital \(value)")
            }
        }
    }
}
