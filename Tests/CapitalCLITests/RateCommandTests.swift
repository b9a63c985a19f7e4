import Foundation
import Testing

/// Issue 19, item 1: rates as records — set, list, rm, import — with every bad input refused in
/// one line and the database unchanged; rates in ledger files and through export and import.
@Suite("CLI: exchange rates")
struct RateCommandTests {
    static let fixtures = CLI.root.appendingPathComponent("Tests/Fixtures/rates").path

    static func ledger(_ currency: String = "RUB") throws -> CLI {
        let cli = try CLI()
        cli.ok(["init", "--currency", currency])
        return cli
    }

    /// `currency on rate[/per]` of each listed rate.
    static func listed(_ cli: CLI, _ args: [String] = []) throws -> [String] {
        try cli.rows(["rate", "list"] + args).map { row in
            let per = row["per"] as? Int ?? 0
            return "\(row["currency"] as? String ?? "?") \(row["on"] as? String ?? "?") \(row["rate"] as? String ?? "?")\(per == 1 ? "" : "/\(per)")"
        }
    }

    @Test func setReplacesAndListFilters() throws {
        let cli = try Self.ledger()
        #expect(cli.ok(["rate", "set", "USD", "92.5012", "--on", "2025-03-14"]) == "Set the rate of USD from 2025-03-14: 92.5012 RUB per USD.\n")
        cli.ok(["rate", "set", "thb", "25.04", "--per", "10", "--on", "2025-03-01"])
        cli.ok(["rate", "set", "USD", "91", "--on", "2025-03-01"])
        let replaced = try #require(try cli.json(["rate", "set", "USD", "92.6", "--on", "2025-03-14"]) as? [String: Any])
        #expect(replaced["rate"] as? String == "92.6" && replaced["replaced"] as? String == "92.5012")
        #expect(try Self.listed(cli) == ["THB 2025-03-01 25.04/10", "USD 2025-03-01 91", "USD 2025-03-14 92.6"])
        #expect(try Self.listed(cli, ["--currency", "USD", "--from", "2025-03-02"]) == ["USD 2025-03-14 92.6"])
        #expect(try Self.listed(cli, ["--to", "2025-03-01"]) == ["THB 2025-03-01 25.04/10", "USD 2025-03-01 91"])
        // Without --on: today.
        cli.ok(["--today", "2025-04-01", "rate", "set", "EUR", "100.5"])
        #expect(try Self.listed(cli, ["--currency", "EUR"]) == ["EUR 2025-04-01 100.5"])
    }

    @Test func badRatesChangeNothing() throws {
        let cli = try Self.ledger()
        cli.ok(["rate", "set", "USD", "92.5", "--on", "2025-03-14"])
        cli.fails(["rate", "set", "USD", "0", "--on", "2025-03-14"], mentioning: ["RATE '0'", "above zero"])
        cli.fails(["rate", "set", "USD", "--", "-92.5"], mentioning: ["RATE '-92.5'", "above zero"])
        cli.fails(["rate", "set", "USD", "92.50000000001"], mentioning: ["RATE", "10 significant digits"])
        cli.fails(["rate", "set", "USD", "92,5.1"], mentioning: ["RATE '92,5.1'", "not a rate"])
        cli.fails(["rate", "set", "XYZ", "1"], mentioning: ["CURRENCY 'XYZ'", "ISO 4217"])
        cli.fails(["rate", "set", "RUB", "1"], mentioning: ["CURRENCY 'RUB'", "own currency"])
        cli.fails(["rate", "set", "USD", "92.5", "--per", "0"], mentioning: ["--per '0'", "above 0"])
        cli.fails(["rate", "set", "USD", "92.5", "--per", "ten"], mentioning: ["--per 'ten'"])
        cli.fails(["rate", "set", "USD", "92.5", "--on", "2025-02-30"], mentioning: ["--on", "2025-02-30"])
        cli.fails(["rate", "list", "--currency", "XYZ"], mentioning: ["--currency 'XYZ'"])
        cli.fails(["rate", "list", "--from", "2025-04-01", "--to", "2025-03-01"], mentioning: ["--to '2025-03-01'", "before --from"])
        cli.fails(["rate", "rm", "USD"], mentioning: ["--on", "which day"])
        cli.fails(["rate", "rm", "USD", "--on", "2025-03-13"], mentioning: ["rate of USD", "not found"])
        cli.fails(["rate", "rm", "USD", "--from", "2025-03-01"], mentioning: ["--to", "both"])
        cli.fails(["rate", "rm", "USD", "--on", "2025-03-14", "--from", "2025-03-01", "--to", "2025-03-31"], mentioning: ["not both"])
        cli.fails(["rate", "rm", "XYZ", "--on", "2025-03-14"], mentioning: ["CURRENCY 'XYZ'"])
        #expect(try Self.listed(cli) == ["USD 2025-03-14 92.5"])
    }

    @Test func rmRemovesADayOrARange() throws {
        let cli = try Self.ledger()
        for day in ["2025-03-01", "2025-03-02", "2025-03-03"] { cli.ok(["rate", "set", "USD", "92", "--on", day]) }
        cli.ok(["rate", "set", "EUR", "100", "--on", "2025-03-02"])
        #expect(cli.ok(["rate", "rm", "USD", "--on", "2025-03-01"]) == "Removed the rate of USD on 2025-03-01.\n")
        #expect(cli.ok(["rate", "rm", "USD", "--from", "2025-03-01", "--to", "2025-03-31"]).contains("Removed 2 rates of USD"))
        #expect(try Self.listed(cli) == ["EUR 2025-03-02 100"])
    }

    @Test func importWritesAllOrNothing() throws {
        let cli = try Self.ledger()
        cli.ok(["rate", "set", "USD", "92.5012", "--on", "2025-03-14"])
        cli.ok(["rate", "set", "THB", "25", "--per", "10", "--on", "2025-03-14"])
        let summary = try #require(try cli.json(["rate", "import", Self.fixtures + "/plain.csv"]) as? [String: Any])
        #expect(summary["format"] as? String == "csv")
        #expect(summary["added"] as? Int == 1 && summary["replaced"] as? Int == 1 && summary["unchanged"] as? Int == 1)
        #expect(try Self.listed(cli) == ["THB 2025-03-14 25.04/10", "USD 2025-03-14 92.5012", "USD 2025-03-17 92.75"])
        // The Bank of Russia's file: XDR is no ISO 4217 currency, so it is left out, said on stderr.
        let result = cli.run(["rate", "import", Self.fixtures + "/cbr-daily.xml", "--currency", "EUR", "--currency", "XDR"])
        #expect(result.status != 0 && result.stderr.contains("--currency 'XDR'"), "\(result)")
        let cbr = cli.run(["rate", "import", Self.fixtures + "/cbr-daily.xml"])
        #expect(cbr.status == 0 && cbr.stderr == "" && cbr.stdout.contains("Imported 4 rates (cbr) for EUR, JPY, THB, USD"), "\(cbr)")
        #expect(cbr.stdout.contains("left out XDR"), "\(cbr)")
        #expect(try Self.listed(cli, ["--currency", "JPY"]) == ["JPY 2025-03-14 58.7967/100"])
        // A file with one bad line writes nothing, and says which line.
        let dir = cli.folder.path
        let bad = dir + "/bad.csv"
        try "2025-04-01,USD,93\n2025-04-02,USD,abc\n".write(toFile: bad, atomically: true, encoding: .utf8)
        cli.fails(["rate", "import", bad], mentioning: ["bad.csv:2", "'abc'"])
        let twice = dir + "/twice.csv"
        try "2025-04-01,USD,93\n2025-04-01,USD,94\n".write(toFile: twice, atomically: true, encoding: .utf8)
        cli.fails(["rate", "import", twice], mentioning: ["twice.csv:2", "which one", "line 1"])
        let own = dir + "/own.csv"
        try "2025-04-01,RUB,1\n".write(toFile: own, atomically: true, encoding: .utf8)
        cli.fails(["rate", "import", own], mentioning: ["own.csv:1", "own currency"])
        cli.fails(["rate", "import", dir + "/missing.csv"], mentioning: ["FILE", "no such file"])
        cli.fails(["rate", "import", Self.fixtures + "/eurofxref.csv"], mentioning: ["eurofxref.csv:2", "no rate for RUB"])
        // --dry-run lists and writes nothing.
        let before = cli.state()
        let dry = try cli.rows(["rate", "import", Self.fixtures + "/plain.csv", "--dry-run"])
        #expect(dry.map { $0["currency"] as? String } == ["THB", "USD", "USD"])
        #expect(cli.state() == before)
    }

    @Test func ratesTravelInLedgerFiles() throws {
        let cli = try Self.ledger()
        cli.ok(["rate", "set", "USD", "92.5012", "--on", "2025-03-14"])
        cli.ok(["rate", "set", "JPY", "58.7967", "--per", "100", "--on", "2025-03-14"])
        let dir = cli.folder.path
        for format in ["yaml", "json"] {
            let file = dir + "/ledger.\(format)"
            cli.ok(["export", "--format", format, "--out", file])
            #expect(try Self.listed(cli, ["-f", file]) == ["JPY 2025-03-14 58.7967/100", "USD 2025-03-14 92.5012"])
            let other = try CLI()
            other.ok(["import", file])
            #expect(try Self.listed(other) == ["JPY 2025-03-14 58.7967/100", "USD 2025-03-14 92.5012"])
            #expect(other.ok(["import", file]).contains("2 rates already there"))
        }
        // A file whose rate differs from the ledger's for the same currency and day is refused.
        let changed = dir + "/changed.yaml"
        try (try String(contentsOfFile: dir + "/ledger.yaml", encoding: .utf8)).replacingOccurrences(of: "92.5012", with: "93")
            .write(toFile: changed, atomically: true, encoding: .utf8)
        cli.fails(["import", changed], mentioning: ["rates[1]", "the ledger has 92.5012"])
        // Bad rates in a file are named by their place.
        let bad = dir + "/bad.yaml"
        try "capital: 1\ncurrency: RUB\nrates:\n  - {currency: USD, on: 2025-03-14, rate: 0}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        cli.fails(["-f", bad, "rate", "list"], mentioning: ["rates[0].rate", "above zero"], unchanged: false)
        try "capital: 1\ncurrency: RUB\nrates:\n  - {currency: RUB, on: 2025-03-14, rate: 1}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        cli.fails(["-f", bad, "rate", "list"], mentioning: ["rates[0].currency", "own currency"], unchanged: false)
        try "capital: 1\ncurrency: RUB\nrates:\n  - {currency: USD, on: 2025-03-14, rate: 1}\n  - {currency: USD, on: 2025-03-14, rate: 2}\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let twice = cli.fails(["-f", bad, "rate", "list"], mentioning: ["rates[1]", "(the first on line 4)", "which one"], unchanged: false)
        #expect(!twice.stderr.contains("Optional"), "\(twice.stderr)")
    }
}
