import Foundation
import Testing

/// `capital loan schedule`: the HP 10bII mortgage end to end, prepayments, and every bad input of
/// the loans issue that the command can meet.
@Suite("CLI: loan schedule")
struct LoanCommandTests {
    static let base = ["loan", "schedule", "--principal", "5000000", "--rate", "12", "--term", "240", "--start", "2025-02-15"]

    static func object(_ cli: CLI, _ args: [String]) throws -> [String: Any] {
        try #require(try cli.json(args) as? [String: Any])
    }

    /// The HP 10bII example ($180 000 at 7.75 % for 360 months): payment 1 289.54, last payment
    /// 1 292.54, interest 284 237.40, in the JSON shape the issue gives.
    @Test func theHP10bIIMortgageWithoutADatabase() throws {
        let cli = try CLI()
        let object = try Self.object(
            cli, ["loan", "schedule", "--principal", "180000", "--rate", "7.75", "--term", "360", "--start", "2025-01-01", "--currency", "USD"])
        #expect(object["payment"] as? String == "1289.54")
        #expect(object["totalInterest"] as? String == "284237.40")
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.count == 360)
        #expect(rows.first?["n"] as? Int == 1 && rows.first?["day"] as? String == "2025-02-01")
        #expect(rows.first?["interest"] as? String == "1162.50" && rows.first?["principal"] as? String == "127.04")
        #expect(rows.first?["balance"] as? String == "179872.96")
        #expect(rows.last?["payment"] as? String == "1292.54" && rows.last?["balance"] as? String == "0.00")
        #expect(!FileManager.default.fileExists(atPath: cli.db), "loan schedule must not create a database")
    }

    @Test func theTableStartsWithASummaryLine() throws {
        let output = try CLI().ok(Self.base)
        let lines = output.split(separator: "\n")
        #expect(
            lines.first
                == "Annuity loan of 5 000 000.00 RUB at 12% over 240 months from 2025-02-15, 30/360: payment 55 054.31, total interest 8 213 031.04, paid off 2045-02-15"
        )
        #expect(lines.count == 1 + 2 + 240)
        #expect(lines.last?.contains("2045-02-15") == true && lines.last?.contains(" 0.00") == true)
    }

    @Test func aPrepaymentReducingThePaymentShowsTheInterestSaved() throws {
        let cli = try CLI()
        let plain = try Self.object(cli, Self.base)
        let object = try Self.object(cli, Self.base + ["--prepay", "1000000@2026-02-15", "--reduce", "payment"])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["kind"] as? String == "payment" }.count == 240)
        let prepayment = try #require(rows.first { $0["kind"] as? String == "prepayment" })
        #expect(prepayment["day"] as? String == "2026-02-15" && prepayment["principal"] as? String == "1000000.00" && prepayment["n"] is NSNull)
        let total = { (o: [String: Any]) in Double(o["totalInterest"] as! String)! }
        let saved = try #require(Double(object["interestSaved"] as? String ?? ""))
        #expect(abs(total(plain) - total(object) - saved) < 0.001 && saved > 0)
        // The payment after the prepayment is lower; the loan still ends on the 240th.
        let after = try #require(rows.first { $0["n"] as? Int == 13 })
        #expect(Double(after["payment"] as! String)! < 55_054.31)
        #expect(object["payoff"] as? String == "2045-02-15")
    }

    @Test func aPrepaymentReducingTheTermEndsTheLoanSooner() throws {
        let object = try Self.object(try CLI(), Self.base + ["--prepay", "1000000@2026-02-15", "--prepay", "500000@2027-02-15"])
        let payoff = try #require(object["payoff"] as? String)
        #expect(payoff < "2045-02-15")
        let payments = (object["rows"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "payment" }
        #expect(payments.dropLast().allSatisfy { $0["payment"] as? String == "55054.31" })
    }

    @Test func payingOffInFullEndsTheScheduleThatDay() throws {
        let object = try Self.object(try CLI(), Self.base + ["--prepay", "full@2026-06-20"])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(object["payoff"] as? String == "2026-06-20")
        #expect(rows.last?["kind"] as? String == "prepayment" && rows.last?["balance"] as? String == "0.00")
    }

    @Test func linearAndActualDayCounts() throws {
        let object = try Self.object(
            try CLI(),
            [
                "loan", "schedule", "--principal", "100000", "--rate", "12", "--term", "3", "--start", "2025-01-15", "--method", "linear",
                "--day-count", "actual/365",
            ])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["principal"] as? String } == ["33333.33", "33333.33", "33333.34"])
        // 100 000 × 12 % × 31/365 = 1 019.18; 66 666.67 × 12 % × 28/365 = 613.70; 33 333.34 × 12 % × 31/365 = 339.73.
        #expect(rows.map { $0["interest"] as? String } == ["1019.18", "613.70", "339.73"])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var args: [String]
        var mentions: [String]
        var testDescription: String { args.joined(separator: " ") }
    }

    static let bad: [Bad] = [
        Bad(args: ["--rate", "-1"], mentions: ["--rate '-1'", "cannot be negative"]),
        Bad(args: ["--rate", "1000.5"], mentions: ["--rate '1000.5'", "over 1000 % a year"]),
        Bad(args: ["--rate", "7.12345"], mentions: ["--rate '7.12345'", "at most four decimals"]),
        Bad(args: ["--rate", "twelve"], mentions: ["--rate 'twelve'", "a percentage"]),
        Bad(args: ["--term", "0"], mentions: ["--term '0'", "at least 1 month"]),
        Bad(args: ["--term", "1201"], mentions: ["--term '1201'", "1200 months"]),
        Bad(args: ["--principal", "0"], mentions: ["--principal '0'", "more than 0"]),
        Bad(args: ["--principal", "-5"], mentions: ["--principal '-5'", "more than 0"]),
        Bad(args: ["--principal", "5000000.001"], mentions: ["--principal", "'5000000.001'", "RUB allows 2"]),
        Bad(args: ["--start", "2025-02-30"], mentions: ["--start", "'2025-02-30'"]),
        Bad(args: ["--first-payment", "2025-02-01"], mentions: ["--first-payment '2025-02-01'", "after the loan's start 2025-02-15"]),
        Bad(args: ["--adjust", "skip"], mentions: ["--adjust 'skip'", "cannot be skipped"]),
        Bad(args: ["--calendar", "XX"], mentions: ["--calendar 'XX'", "unknown"]),
        Bad(args: ["--currency", "XYZ"], mentions: ["--currency 'XYZ'", "ISO 4217"]),
        // Prepayments: larger than what is left, before the start, after the payoff, malformed.
        Bad(
            args: ["--prepay", "6000000@2025-06-01"],
            mentions: ["--prepay '6 000 000.00@2025-06-01'", "not less than the", "left", "full@2025-06-01"]),
        Bad(args: ["--prepay", "1000@2025-02-01"], mentions: ["--prepay '2025-02-01'", "before the loan starts on 2025-02-15"]),
        Bad(args: ["--prepay", "1000@2046-01-01"], mentions: ["--prepay '2046-01-01'", "after the loan is paid off on 2045-02-15"]),
        Bad(args: ["--prepay", "1000"], mentions: ["--prepay '1000'", "AMOUNT@YYYY-MM-DD"]),
        Bad(args: ["--prepay", "-5@2026-01-01"], mentions: ["--prepay '-5@2026-01-01'", "more than 0"]),
        Bad(args: ["--prepay", "100@2026-13-01"], mentions: ["--prepay", "'2026-13-01'"]),
    ]

    @Test(arguments: bad)
    func badInputIsOneLineAndWritesNothing(_ bad: Bad) throws {
        let cli = try CLI()
        cli.fails(Self.base + bad.args, mentioning: bad.mentions)
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    /// With a database, the amounts are in its currency.
    @Test func theDatabasesCurrencyIsTheDefault() throws {
        let cli = try CLI()
        cli.ok(["init", "--currency", "JPY"])
        let object = try Self.object(cli, ["loan", "schedule", "--principal", "1000000", "--rate", "3", "--term", "12", "--start", "2025-01-10"])
        #expect(object["currency"] as? String == "JPY")
        #expect((object["payment"] as? String)?.contains(".") == false)
    }
}
