import Foundation
import Testing

/// `capital sample generate`: deterministic synthetic ledgers that import and forecast.
@Suite("CLI: sample generate")
struct SampleGenerateTests {
    @Test func theSameSeedGivesTheSameFileAndItImports() throws {
        let cli = try CLI()
        let first = cli.ok(["sample", "generate", "--rules", "120", "--years", "3"])
        #expect(cli.ok(["sample", "generate", "--rules", "120", "--years", "3"]) == first)
        #expect(cli.ok(["sample", "generate", "--rules", "120", "--years", "3", "--seed", "2"]) != first)
        let file = cli.path("sample.yaml")
        try first.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(cli.ok(["import", file]).contains("schedules"))
        let schedules = try cli.rows(["schedule", "list", "--format", "json"])
        #expect(schedules.count == 120)
        // The mix: every kind of rule the generator promises appears.
        let rules = schedules.compactMap { $0["rule"] as? String }
        for kind in ["daily", "BYDAY=MO,TU,WE,TH,FR", "weekly on", "every 2 weeks", "monthly on", "quarterly on", "yearly on"] {
            #expect(rules.contains { $0.contains(kind) }, "no \(kind) among \(Set(rules).prefix(5))")
        }
        // Some on the Russian calendar with an adjustment, some ranged, some ending.
        let text = first
        #expect(text.contains("calendar: RU") && text.contains("adjust:"))
        #expect(text.contains(".."))
        #expect(text.contains("end:"))
        // A few hundred posted transactions, a mortgage and a card (8 accounts by default).
        #expect(try cli.rows(["tx", "list", "--format", "json"]).count >= 300)
        #expect(try cli.rows(["loan", "list", "--format", "json"]).count == 1)
        #expect(try cli.rows(["card", "list", "--format", "json", "--today", "2025-01-01"]).count == 1)
        // It forecasts over its years.
        let forecast = try cli.json(["--today", "2025-01-01", "forecast", "--until", "+3y", "--format", "json"]) as? [String: Any]
        #expect((forecast?["periods"] as? [Any])?.count == 37)
    }

    @Test func historyAddsPostedTransactionsThatImport() throws {
        let cli = try CLI()
        let file = cli.path("history.yaml")
        cli.ok(["sample", "generate", "--rules", "5", "--years", "1", "--history", "3000", "--out", file])
        cli.ok(["import", file])
        let transactions = try cli.rows(["tx", "list", "--format", "json"])
        let plain = try CLI()
        plain.ok(["sample", "generate", "--rules", "5", "--years", "1", "--out", plain.path("plain.yaml")])
        plain.ok(["import", plain.path("plain.yaml")])
        #expect(transactions.count == (try plain.rows(["tx", "list", "--format", "json"])).count + 3_000)
        #expect(transactions.contains { $0["payee"] as? String == "Salary Anna" })
        #expect(cli.run(["check"]).status == 0)
    }

    @Test func jsonToo() throws {
        let cli = try CLI()
        let text = cli.ok(["sample", "generate", "--rules", "20", "--years", "1", "--accounts", "3", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["schedules"] as? [Any])?.count == 20)
        // Three accounts: too few for a loan and a card.
        #expect(object["loans"] == nil && object["cards"] == nil)
    }

    @Test func badCountsAreRefused() throws {
        let cli = try CLI()
        cli.fails(["sample", "generate", "--rules", "0", "--years", "1"], mentioning: ["--rules '0'", "1 to 100000"])
        cli.fails(["sample", "generate", "--rules", "10", "--years", "0"], mentioning: ["--years '0'", "1 to 100"])
        cli.fails(["sample", "generate", "--rules", "10", "--years", "500"], mentioning: ["--years '500'", "1 to 100"])
        cli.fails(["sample", "generate", "--rules", "10", "--years", "5", "--accounts", "1"], mentioning: ["--accounts '1'"])
        cli.fails(["sample", "generate", "--rules", "10", "--years", "5", "--format", "csv"], mentioning: ["--format 'csv'"])
        cli.fails(["sample", "generate", "--rules", "-3", "--years", "5"], mentioning: ["--rules '-3'"])
        cli.fails(["sample", "generate", "--rules", "3", "--years", "1", "--history", "-1"], mentioning: ["--history '-1'", "0 to 10000000"])
        cli.fails(["sample", "generate", "--rules", "3", "--years", "1", "--history", "10000001"], mentioning: ["--history '10000001'"])
        cli.fails(["sample", "generate", "--rules", "3", "--years", "1", "--history", "many"], mentioning: ["--history", "many"])
    }

    @Test func relativeHorizons() throws {
        let cli = try CLI()
        let base = ["-f", "samples/household.yaml", "--today", "2025-04-01", "forecast", "--format", "json", "--by", "day"]
        func last(_ until: String) throws -> String? {
            let object = try cli.json(base + ["--until", until]) as? [String: Any]
            return ((object?["periods"] as? [[String: Any]])?.last?["end"]) as? String
        }
        #expect(try last("+10d") == "2025-04-11")
        #expect(try last("+2w") == "2025-04-15")
        #expect(try last("+2m") == "2025-06-01")
        #expect(try last("+1y") == "2026-04-01")
        cli.fails(base + ["--until", "+3q"], mentioning: ["--until '+3q'"])
        cli.fails(base + ["--until", "+101y"], mentioning: ["100 years"])
    }
}
