import Foundation
import Testing

/// The forecast issue's bad inputs: a one-line error naming the field, the value and the reason,
/// a non-zero exit, and the ledger unchanged. A floor above the balance is not one of them:
/// `can-spend` answers 0 and says why.
@Suite("CLI: forecast bad input")
struct ForecastBadInputTests {
    struct Bad: Sendable, CustomTestStringConvertible {
        var args: [String]
        var mentions: [String]
        var testDescription: String { args.joined(separator: " ") }
    }

    static let today = ["--today", HouseholdForecast.today]

    static let bad: [Bad] = [
        // --until before today, or not a month.
        Bad(args: ["forecast", "--until", "2025-03"], mentions: ["--until '2025-03'", "is before today 2025-04-01"]),
        Bad(args: ["forecast", "--until", "2025-03-31"], mentions: ["--until '2025-03-31'", "is before today 2025-04-01"]),
        Bad(args: ["can-spend", "--until", "2024-12"], mentions: ["--until '2024-12'", "is before today 2025-04-01"]),
        Bad(args: ["forecast", "--until", "2025-13"], mentions: ["--until", "'2025-13'", "the month must be 01 to 12"]),
        Bad(args: ["when", "5", "--until", "2025-13"], mentions: ["--until", "'2025-13'", "the month must be 01 to 12"]),
        Bad(args: ["forecast", "--until", "2025-3"], mentions: ["--until", "'2025-3'", "YYYY-MM-DD, or YYYY-MM"]),
        // --days.
        Bad(args: ["forecast", "--days", "0"], mentions: ["--days '0'", "must be at least 1"]),
        Bad(args: ["can-spend", "--days", "0"], mentions: ["--days '0'", "must be at least 1"]),
        // A negative count is a value refused in words, not a missing value.
        Bad(args: ["forecast", "--days", "-5"], mentions: ["--days '-5'", "must be at least 1"]),
        Bad(args: ["when", "5", "--days", "-1"], mentions: ["--days '-1'", "must be at least 1"]),
        Bad(args: ["forecast", "--until", "2026-03", "--days", "30"], mentions: ["--days '30'", "give --until or --days, not both"]),
        // Unknown group, account or level.
        Bad(args: ["forecast", "--group", "Nope"], mentions: ["group 'Nope'", "not found"]),
        Bad(args: ["forecast", "--group", "Children"], mentions: ["--group 'Children'", "profit-and-loss group", "balance-sheet accounts"]),
        Bad(args: ["forecast", "--account", "Nope"], mentions: ["account 'Nope'", "not found"]),
        Bad(args: ["forecast", "--account", "Groceries"], mentions: ["--account 'Groceries'", "expense account", "balance-sheet accounts"]),
        Bad(args: ["forecast", "--level", "7"], mentions: ["--level '7'", "levels 1 (cash) to 6 (net)"]),
        Bad(args: ["forecast", "--level", "0"], mentions: ["--level '0'", "levels 1 (cash) to 6 (net)"]),
        Bad(args: ["forecast", "--level", "-1"], mentions: ["--level '-1'", "levels 1 (cash) to 6 (net)"]),
        Bad(args: ["schedule", "show", "Salary", "--next", "-3"], mentions: ["--next '-3'", "must be at least 1"]),
        Bad(args: ["can-spend", "--level", "7"], mentions: ["--level '7'", "levels 1 (cash) to 6 (net)"]),
        Bad(args: ["when", "300000", "--level", "0"], mentions: ["--level '0'", "levels 1 (cash) to 6 (net)"]),
        Bad(args: ["forecast", "--level", "2", "--group", "Debts"], mentions: ["--level '2'", "give one of --account, --group and --level"]),
        // Issue 17, case 11: this named --level, which was not given.
        Bad(
            args: ["forecast", "--account", "Cash", "--group", "Debts"], mentions: ["--group 'Debts'", "give one of --account, --group and --level"]),
        Bad(args: ["can-spend", "--level", "2", "--all-levels"], mentions: ["--level '2'", "not both"]),
        Bad(args: ["forecast", "--by", "year"], mentions: ["--by 'year'", "expected day, week or month"]),
        // Amounts for when: not positive, or not written as RUB is.
        Bad(args: ["when", "-5"], mentions: ["AMOUNT '-5'", "must be more than zero"]),
        Bad(args: ["when", "0"], mentions: ["AMOUNT '0'", "must be more than zero"]),
        Bad(args: ["when", "0.00"], mentions: ["AMOUNT '0.00'", "must be more than zero"]),
        Bad(args: ["when", "1.234"], mentions: ["AMOUNT", "'1.234'", "too many decimals", "RUB allows 2"]),
        Bad(args: ["when", "12,34.5"], mentions: ["AMOUNT", "'12,34.5'", "mixes ',' and '.'"]),
        Bad(args: ["when", "abc"], mentions: ["AMOUNT", "'abc'", "not an amount"]),
        Bad(args: ["when"], mentions: ["AMOUNT", "give the amount to spend"]),
        Bad(args: ["when", "5", "6"], mentions: ["AMOUNT '5 6'", "give one amount"]),
        // can-spend --on outside today…horizon, or not a day.
        Bad(args: ["can-spend", "--on", "2025-03-31"], mentions: ["--on '2025-03-31'", "is before today 2025-04-01"]),
        Bad(args: ["can-spend", "--on", "2026-04-02"], mentions: ["--on '2026-04-02'", "after the horizon 2026-04-01", "--until"]),
        Bad(args: ["can-spend", "--on", "2025-02-30"], mentions: ["--on", "'2025-02-30'", "days 01 to 28"]),
    ]

    @Test(arguments: bad)
    func refusedWithOneLineAndNothingWritten(_ bad: Bad) throws {
        let cli = try CLI.household()
        cli.fails(Self.today + bad.args, mentioning: bad.mentions)
    }

    static let onFile = bad.filter {
        [
            "forecast --until 2025-03", "forecast --until 2025-13", "forecast --days 0", "forecast --group Nope", "forecast --level 7", "when -5",
            "when 1.234",
        ]
        .contains($0.testDescription)
    }

    @Test(arguments: onFile)
    func refusedOnTheLedgerFileToo(_ bad: Bad) throws {
        let cli = try CLI()
        cli.fails(["-f", "samples/household.yaml"] + Self.today + bad.args, mentioning: bad.mentions)
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    // MARK: A floor above the balance is an answer, not an error

    /// Negative numbers are values (an overdraft floor, a refused count), never a missing value.
    @Test func negativeNumbersAreValues() throws {
        let cli = try CLI.household()
        cli.ok(Self.today + ["account", "add", "Overdraft", "--kind", "debit", "--floor", "-5000"])
        let account = try #require(try cli.json(Self.today + ["account", "show", "Overdraft"]) as? [String: Any])
        #expect("\(account)".contains("-5000.00"), "\(account)")
        cli.fails(Self.today + ["account", "edit", "Overdraft", "--level", "-2"], mentioning: ["--level '-2'", "levels 1 to 6"])
        cli.fails(
            Self.today + [
                "schedule", "add", "Gym", "--amount", "-1000", "--from", "VTB Debit", "--to", "Groceries", "--rule", "monthly on 5",
                "--start", "2025-04-05",
            ], mentioning: ["--amount '-1000'", "is negative"])
    }

    static func aboveTheFloor() throws -> CLI {
        let cli = try CLI.household()
        cli.ok(Self.today + ["account", "edit", "VTB Debit", "--floor", "10000000"])
        return cli
    }

    @Test func canSpendAnswersZeroWithTheShortfall() throws {
        let reference = try HouseholdForecast.shared.get()
        let cli = try Self.aboveTheFloor()
        let object = try #require(try cli.json(Self.today + ["can-spend"]) as? [String: Any])
        #expect(object.string("amount") == "0.00")
        // Level 4's pool's floor: VTB Debit's 10 000 000 (the card is a constraint of its own).
        #expect(object.string("floor") == "10000000.00")
        // Short by the floor less the pool's lowest balance ahead, which is where it binds.
        let pool = reference.accounts(level: 4).subtracting(["Tinkoff Card"])
        let balances = reference.balances(of: pool, through: HouseholdForecast.defaultHorizon, .pessimistic)
        let lowest = try #require(balances.min())
        #expect(object.string("shortfall") == HouseholdForecast.decimal(10_000_000_00 - lowest))
        #expect(object.string("bindingBalance") == HouseholdForecast.decimal(lowest))
        #expect((minorUnits(object.string("shortfall") ?? "") ?? 0) > 0)
    }

    @Test func canSpendWhySaysItIsBelowTheFloor() throws {
        let cli = try Self.aboveTheFloor()
        let text = cli.ok(Self.today + ["can-spend", "--why"])
        #expect(text.hasPrefix("You can spend 0.00 on 2025-04-01"))
        #expect(text.contains("floor 10 000 000.00"))  // VTB Debit's: the card is not in the pool
        #expect(text.contains("below the floor, so nothing can be spent"))
        let object = try #require(try cli.json(Self.today + ["can-spend", "--why"]) as? [String: Any])
        #expect(object.string("why")?.contains("below the floor") == true)
    }

    @Test func everyLevelWithTheFloorIsZeroAndCashAloneIsNot() throws {
        let cli = try Self.aboveTheFloor()
        let rows = try cli.rows(Self.today + ["can-spend", "--all-levels"])
        #expect(rows.count == 6)
        for row in rows {
            let level = row["level"] as? Int ?? 0
            if level == 1 {
                #expect(row.string("amount") != "0.00", "cash has no floor")
            } else {
                #expect(row.string("amount") == "0.00", "level \(level)")
                #expect((minorUnits(row.string("shortfall") ?? "") ?? 0) > 0, "level \(level)")
            }
        }
    }

    @Test func whenSaysNotBeforeTheHorizon() throws {
        let cli = try Self.aboveTheFloor()
        let object = try #require(try cli.json(Self.today + ["when", "5"]) as? [String: Any])
        #expect(object["day"] is NSNull)
        #expect((minorUnits(object.string("shortfall") ?? "") ?? 0) > 10_000_000_00 - 1_000_000_00)
        #expect(cli.ok(Self.today + ["when", "5"]).hasPrefix("Not before the horizon 2026-04-01: at level 4 (forecast) 5.00 stays "))
    }
}
