import Foundation
import Testing

/// `forecast --by-currency` on the sample household (issue 19, item 3): each period's accounts
/// per currency in their own currency, next to their value, checked against the independent
/// reader of the sample and its rates (`HouseholdForecast.value(of:on:today:_:)`).
@Suite("CLI: forecast --by-currency")
struct ForecastByCurrencyTests {
    @Test(arguments: [(5, "pessimistic"), (6, "pessimistic"), (5, "expected"), (4, "expected")])
    func eachCurrencysPartIsItsAccountsInItsCurrencyAndTheirValue(level: Int, forecastCase: String) throws {
        let reference = try ForecastCommandTests.reference()
        let cli = try CLI.household()
        let expected = forecastCase == "expected"
        let object = try ForecastCommandTests.object(
            cli,
            ForecastCommandTests.dated(["forecast", "--level", "\(level)", "--until", "2025-09", "--by-currency"] + (expected ? ["--expected"] : [])))
        let periods = try #require(object["periods"] as? [[String: Any]])
        let parts = try #require(object["currencies"] as? [[String: Any]])
        let accounts = reference.accounts(level: level)
        let currencies = Set(accounts.map { reference.sample.currency(of: $0) })
        #expect(currencies == (level >= 5 ? ["RUB", "USD", "EUR"] : ["RUB", "EUR"]))
        #expect(parts.count == periods.count * currencies.count)
        for period in periods {
            let end = try #require(period.string("end"))
            let mine = parts.filter { $0.string("end") == end }
            // The ledger's currency first, then the others by code.
            #expect(mine.map { $0.string("currency") ?? "" } == ["RUB"] + currencies.subtracting(["RUB"]).sorted())
            // The parts' values sum to the period's closing.
            #expect(try mine.map { try ForecastCommandTests.minor($0, "value") }.reduce(0, +) == (try ForecastCommandTests.minor(period, "closing")))
            for part in mine {
                let currency = try #require(part.string("currency"))
                let opening = try ForecastCommandTests.minor(part, "opening")
                let closing = try ForecastCommandTests.minor(part, "closing")
                #expect(opening + (try ForecastCommandTests.minor(part, "inflow")) + (try ForecastCommandTests.minor(part, "outflow")) == closing)
                guard currency != "RUB" else {
                    #expect(part.string("value") == part.string("closing"))
                    #expect(part.string("inflow") == period.string("inflow") && part.string("outflow") == period.string("outflow"))
                    continue
                }
                // No schedule or instrument moves the sample's foreign accounts after March: the
                // file's postings are their balance, and the value is the reference's.
                let held = accounts.filter { reference.sample.currency(of: $0) == currency }
                #expect(closing == held.map { reference.sample.posted($0, through: end) }.reduce(0, +))
                let value = held.map { reference.value(of: $0, on: end, today: HouseholdForecast.today, expected ? .expected : .pessimistic) }
                #expect(try ForecastCommandTests.minor(part, "value") == value.reduce(0, +), "\(currency) on \(end)")
            }
        }
        let table = cli.ok(ForecastCommandTests.dated(["forecast", "--level", "\(level)", "--until", "2025-05", "--by-currency"]))
        #expect(table.contains("\nBy currency (value in RUB)\n") && table.contains("\nPeriods (in RUB)\n"), "\(table)")
    }

    /// One account in another currency speaks its currency: its one part is itself, unvalued.
    @Test func anAccountInAnotherCurrencyIsItsOwnPart() throws {
        let cli = try CLI.household()
        let object = try ForecastCommandTests.object(
            cli, ForecastCommandTests.dated(["forecast", "--account", "Savings USD", "--until", "2025-05", "--by-currency"]))
        #expect(object.string("currency") == "USD")
        let parts = try #require(object["currencies"] as? [[String: Any]])
        #expect(
            parts.map { "\($0.string("currency") ?? "") \($0.string("closing") ?? "") \($0.string("value") ?? "")" } == [
                "USD 3000.00 3000.00", "USD 3000.00 3000.00",
            ])
    }

    @Test func withoutTheFlagThereAreNoParts() throws {
        let cli = try CLI.household()
        let object = try ForecastCommandTests.object(cli, ForecastCommandTests.dated(["forecast", "--level", "6", "--until", "2025-05"]))
        #expect(object["currencies"] == nil)
        #expect(!cli.ok(ForecastCommandTests.dated(["forecast", "--level", "6", "--until", "2025-05"])).contains("By currency"))
    }

    @Test func theSVGChartHasNoParts() throws {
        let cli = try CLI.household()
        cli.fails(ForecastCommandTests.dated(["forecast", "--chart", "svg", "--by-currency"]), mentioning: ["--by-currency", "--chart svg"])
    }
}
