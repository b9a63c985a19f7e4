import Testing

@testable import CapitalCore

@Suite("Revalued assets: a depreciating car, an appreciating flat, write-offs, real postings, parsing")
struct AssetValueTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    /// Replays real postings: the value at the end of a day is the sum of those up to it.
    static func ledger(_ postings: [(String, Int64)]) -> (Day) -> Int64 {
        let postings = postings.map { (Self.day($0.0), $0.1) }
        return { day in postings.filter { $0.0 <= day }.reduce(0) { $0 + $1.1 } }
    }

    static func value(after changes: [AssetChange], through day: Day, start: Int64) -> Int64 {
        start + changes.filter { $0.day <= day }.reduce(0) { $0 + $1.amount }
    }

    /// A car bought for 2 000 000.00 on 1 January 2025, losing 15 % a year:
    ///
    /// - year 1: 200 000 000 × 0.15 = 30 000 000, twelve parts of −2 500 000 (1 Feb … 1 Jan 2026)
    /// - year 2: base 170 000 000, −25 500 000, parts of −2 125 000
    /// - year 3: base 144 500 000, −21 675 000, parts of −1 806 250; 122 825 000 left
    @Test func aCarLosing15PercentAYear() throws {
        let since = Self.day("2025-01-01")
        let car = try AssetRevaluation(parsing: "-15", since: since)
        let valueAt = Self.ledger([("2025-01-01", 200_000_000)])
        let changes = car.changes(valueAt: valueAt, through: Self.day("2028-01-01"))
        #expect(changes.count == 36)
        #expect(changes.map(\.day) == (1...36).map { since.addingMonths($0) })
        #expect(changes[0..<12].allSatisfy { $0.amount == -2_500_000 })
        #expect(changes[12..<24].allSatisfy { $0.amount == -2_125_000 })
        #expect(changes[24..<36].allSatisfy { $0.amount == -1_806_250 })
        #expect(Self.value(after: changes, through: Self.day("2026-01-01"), start: 200_000_000) == 170_000_000)
        #expect(Self.value(after: changes, through: Self.day("2027-01-01"), start: 200_000_000) == 144_500_000)
        #expect(Self.value(after: changes, through: Self.day("2028-01-01"), start: 200_000_000) == 122_825_000)
        // The 36th part falls on 1 January 2028, after the last day asked for here.
        #expect(car.changes(valueAt: valueAt, through: Self.day("2027-12-31")) == Array(changes.dropLast()))
    }

    /// 12 345.67 losing 15 %: 1 234 567 × 0.15 = 185 185.05 → −185 185, whose twelfth truncates
    /// toward zero to −15 432 (11 months, −169 752); the 12th month takes the rest, −15 433.
    @Test func theTwelfthMonthTakesTheRest() throws {
        let car = try AssetRevaluation(annualChange: -150_000, since: Self.day("2025-03-31"))
        let changes = car.changes(valueAt: { _ in 1_234_567 }, through: Self.day("2026-03-31"))
        #expect(changes.map(\.amount) == Array(repeating: -15_432, count: 11) + [-15_433])
        #expect(Array(changes.map(\.day).prefix(3)) == ["2025-04-30", "2025-05-31", "2025-06-30"].map(Self.day))
    }

    /// A flat worth 10 000 000.00 from 31 January 2024 gaining 3.5 % a year: 35 000 000 in year 1,
    /// 2 916 666 a month for 11 months and 2 916 674 in the 12th; year 2 on 1 035 000 000 is
    /// 36 225 000, 3 018 750 a month. Posted on the last day of shorter months (29 Feb 2024).
    @Test func anAppreciatingFlat() throws {
        let since = Self.day("2024-01-31")
        let flat = try AssetRevaluation(parsing: "+3.5%", since: since)
        let changes = flat.changes(valueAt: { _ in 1_000_000_000 }, through: Self.day("2026-01-31"))
        #expect(changes.map(\.amount) == Array(repeating: 2_916_666, count: 11) + [2_916_674] + Array(repeating: 3_018_750, count: 12))
        #expect(Array(changes.map(\.day).prefix(2)) == ["2024-02-29", "2024-03-31"].map(Self.day))
        #expect(changes.last?.day == Self.day("2026-01-31"))
    }

    /// −100 % writes 120 000.01 off in a year (11 × −1 000 000 and −1 000 001), then nothing more.
    @Test func losingEverythingStopsAtZero() throws {
        let asset = try AssetRevaluation(parsing: "-100", since: Self.day("2025-01-01"))
        let changes = asset.changes(valueAt: { _ in 12_000_001 }, through: Self.day("2030-01-01"))
        #expect(changes.map(\.amount) == Array(repeating: -1_000_000, count: 11) + [-1_000_001])
    }

    /// Selling the car in June (a real posting of its book value) leaves nothing to depreciate.
    @Test func aSoldAssetChangesNoMore() throws {
        let car = try AssetRevaluation(annualChange: -150_000, since: Self.day("2025-01-01"))
        // Five parts of −2 500 000 by 1 June: the book value sold on 15 June is 187 500 000.
        let valueAt = Self.ledger([("2025-01-01", 200_000_000), ("2025-06-15", -187_500_000)])
        let changes = car.changes(valueAt: valueAt, through: Self.day("2027-01-01"))
        #expect(changes.count == 5)
        // Most of it written off by a real posting (−186 000 000) leaves 1 500 000: the next loss,
        // on 1 July, is cut from −2 500 000 to exactly that, and nothing follows.
        let writtenDown = Self.ledger([("2025-01-01", 200_000_000), ("2025-06-15", -186_000_000)])
        let cut = car.changes(valueAt: writtenDown, through: Self.day("2027-01-01"))
        #expect(cut.count == 6)
        #expect(cut.last == AssetChange(day: Self.day("2025-07-01"), amount: -1_500_000))
        // An asset worth nothing never gains.
        let nothing = try AssetRevaluation(annualChange: 35_000, since: Self.day("2025-01-01"))
        #expect(nothing.changes(valueAt: { _ in 0 }, through: Self.day("2027-01-01")).isEmpty)
        #expect(nothing.changes(valueAt: { _ in -5_000 }, through: Self.day("2027-01-01")).isEmpty)
    }

    /// The car again, with a 500 000.00 upgrade bought on 15 June 2026, in year 2: year 2 keeps its
    /// base of 170 000 000; year 3's is 250 000 000 of real postings less the 55 500 000 written off
    /// so far, 194 500 000, losing 29 175 000 (−2 431 250 a month).
    @Test func aRealPostingChangesTheNextYearsBase() throws {
        let car = try AssetRevaluation(annualChange: -150_000, since: Self.day("2025-01-01"))
        let valueAt = Self.ledger([("2025-01-01", 200_000_000), ("2026-06-15", 50_000_000)])
        let changes = car.changes(valueAt: valueAt, through: Self.day("2028-01-01"))
        #expect(changes[12..<24].allSatisfy { $0.amount == -2_125_000 })
        #expect(changes[24..<36].allSatisfy { $0.amount == -2_431_250 })
        // A posting on the first day of a rate year counts in that year's base.
        let onTheDay = Self.ledger([("2025-01-01", 200_000_000), ("2026-01-01", 30_000_000)])
        let next = car.changes(valueAt: onTheDay, through: Self.day("2027-01-01"))
        #expect(next[12..<24].map(\.amount).reduce(0, +) == -30_000_000)  // 200 000 000 × 0.15
    }

    /// Issue 51, item 11: a car bought on 20 June 2026 for 1 500 000.00, losing 15 % a year
    /// (225 000.00 in its first year), entered on 1 October: 103 of the year's 365 days have
    /// passed, 63 493.15 (6 349 315.07 rounded) is posted on the day it is entered, and the rest,
    /// 161 506.85, in nine parts on the 20th from October to June (8 × −1 794 520, −1 794 525).
    /// A year after it was bought it is worth 1 275 000.00, as if it had been entered that day.
    @Test func aValueEnteredAfterItsValuationDayCountsFromThatDay() throws {
        let car = try AssetRevaluation(annualChange: -150_000, since: Self.day("2026-06-20"))
        let valueAt = Self.ledger([("2026-10-01", 150_000_000)])
        let changes = car.changes(valueAt: valueAt, through: Self.day("2027-07-20"), valuedFrom: Self.day("2026-10-01"))
        #expect(changes.first == AssetChange(day: Self.day("2026-10-01"), amount: -6_349_315))
        #expect(Array(changes[1...9].map(\.day)) == (4...12).map { Self.day("2026-06-20").addingMonths($0) })
        #expect(changes[1..<9].allSatisfy { $0.amount == -1_794_520 } && changes[9].amount == -1_794_525)
        #expect(Self.value(after: changes, through: Self.day("2027-06-01"), start: 150_000_000) == 129_294_525)
        #expect(Self.value(after: changes, through: Self.day("2027-06-20"), start: 150_000_000) == 127_500_000)
        // Year 2 as before: 127 500 000 × 0.15 = 19 125 000, a twelfth a month.
        #expect(changes.last == AssetChange(day: Self.day("2027-07-20"), amount: -1_593_750))
        // Nothing is posted before the day it was entered, nor when asked only up to the day before.
        #expect(changes.allSatisfy { $0.day >= Self.day("2026-10-01") })
        #expect(car.changes(valueAt: valueAt, through: Self.day("2026-09-30"), valuedFrom: Self.day("2026-10-01")).isEmpty)
        // Entered on its valuation day, or with something posted by then: the monthly parts as always.
        let onTheDay = Self.ledger([("2026-06-20", 150_000_000)])
        let plain = car.changes(valueAt: onTheDay, through: Self.day("2027-06-20"))
        #expect(car.changes(valueAt: onTheDay, through: Self.day("2027-06-20"), valuedFrom: Self.day("2026-06-20")) == plain)
        #expect(plain.count == 12 && plain.allSatisfy { $0.amount == -1_875_000 })
        let deposit = Self.ledger([("2026-06-20", 1_000), ("2026-10-01", 149_999_000)])
        #expect(car.changes(valueAt: deposit, through: Self.day("2026-10-20"), valuedFrom: Self.day("2026-06-20")).count == 4)
    }

    /// Entered more than a year late: whole rate years before the day compound, all posted that
    /// day. 1 000 000.00 from 1 January 2024 losing 15 %, entered on 2 July 2025: year 1 −15 000 000,
    /// year 2 (base 85 000 000, −12 750 000) 182 of 365 days, −6 357 534; the rest, −6 392 466, in
    /// six parts of −1 065 411 from August to 1 January 2026, when it is worth 722 500.00.
    @Test func aValueEnteredYearsLateCompoundsTheYearsBefore() throws {
        let flat = try AssetRevaluation(annualChange: -150_000, since: Self.day("2024-01-01"))
        let valueAt = Self.ledger([("2025-07-02", 100_000_000)])
        let changes = flat.changes(valueAt: valueAt, through: Self.day("2026-01-01"), valuedFrom: Self.day("2025-07-02"))
        #expect(changes.first == AssetChange(day: Self.day("2025-07-02"), amount: -21_357_534))
        #expect(changes.dropFirst().map(\.amount) == Array(repeating: -1_065_411, count: 6))
        #expect(Self.value(after: changes, through: Self.day("2026-01-01"), start: 100_000_000) == 72_250_000)
        // A gain the same way, never below zero for a loss of everything.
        let all = try AssetRevaluation(annualChange: -1_000_000, since: Self.day("2024-01-01"))
        let gone = all.changes(valueAt: valueAt, through: Self.day("2026-01-01"), valuedFrom: Self.day("2025-07-02"))
        #expect(gone == [AssetChange(day: Self.day("2025-07-02"), amount: -100_000_000)])
    }

    @Test func changesStopAtTheLastDayAndZeroChangesNothing() throws {
        let car = try AssetRevaluation(annualChange: -150_000, since: Self.day("2025-01-15"))
        #expect(car.changes(valueAt: { _ in 1_000_000 }, through: Self.day("2025-02-14")).isEmpty)
        #expect(car.changes(valueAt: { _ in 1_000_000 }, through: Self.day("2025-02-15")).count == 1)
        #expect(car.changes(valueAt: { _ in 1_000_000 }, through: Self.day("2024-01-01")).isEmpty)
        let still = try AssetRevaluation(annualChange: 0, since: Self.day("2025-01-15"))
        #expect(still.changes(valueAt: { _ in 1_000_000 }, through: Self.day("2030-01-01")).isEmpty)
        // 11 minor units losing 15 %: 1.65 → −2 a year, whose twelfth truncates to 0: only the
        // 12th month posts.
        let tiny = car.changes(valueAt: { _ in 11 }, through: Self.day("2026-01-15"))
        #expect(tiny == [AssetChange(day: Self.day("2026-01-15"), amount: -2)])
    }

    /// Halves round away from zero, so a loss rounds like the same gain.
    @Test(arguments: [(3, 500_000, 2), (3, -500_000, -2), (1, -500_000, -1), (5, 100_000, 1), (5, -100_000, -1), (4, -100_000, 0)])
    func yearlyChangesRoundHalfAwayFromZero(base: Int64, change: Int64, expected: Int64) throws {
        let asset = try AssetRevaluation(annualChange: change, since: Self.day("2025-01-01"))
        #expect(asset.yearChange(base: base) == expected)
    }

    @Test func hugeGainsNeverCrash() throws {
        let asset = try AssetRevaluation(annualChange: AssetRevaluation.range.upperBound, since: Self.day("2025-01-01"))
        let changes = asset.changes(valueAt: { _ in 1_000_000_000_000_000 }, through: Self.day("2125-01-01"))
        #expect(!changes.isEmpty && changes.count < 120)
        #expect(changes.allSatisfy { $0.amount > 0 })
        let max = asset.changes(valueAt: { _ in Int64.max }, through: Self.day("2125-01-01"))
        #expect(max.isEmpty)
        let min = try AssetRevaluation(annualChange: -1_000_000, since: Self.day("2025-01-01"))
        #expect(min.changes(valueAt: { _ in Int64.max }, through: Self.day("2027-01-01")).reduce(0) { $0 + $1.amount } == -Int64.max)
    }

    // MARK: Parsing

    @Test(arguments: [
        ("-15", -150_000), ("-15%", -150_000), ("+3.5", 35_000), ("3.5%", 35_000), ("-100", -1_000_000), ("+1000", 10_000_000),
        ("0.0001", 1), ("-0", 0), ("12.3456%", 123_456), ("-99.9999", -999_999),
    ])
    func changesReadAsSignedPercentages(text: String, perMillion: Int64) throws {
        #expect(try AssetRevaluation(parsing: text, since: Self.day("2025-01-01")).annualChange == perMillion)
    }

    @Test(arguments: [
        ("-101", "below -100 %: an asset cannot lose more than its whole value"),
        ("abc", "expected a percentage a year such as -15 or +3.5"),
        ("1.00001", "at most four decimals (0.0001 %)"),
        ("+10000.1", "over +1000 % a year"),
        ("-100.0001", "below -100 %: an asset cannot lose more than its whole value"),
        ("1000.0001%", "over +1000 % a year"),
        ("99999999999999999999999", "over +1000 % a year"),
        ("", "expected a percentage a year such as -15 or +3.5"),
        ("%", "expected a percentage a year such as -15 or +3.5"),
        ("-", "expected a percentage a year such as -15 or +3.5"),
        ("+-5", "expected a percentage a year such as -15 or +3.5"),
        ("5.", "expected a percentage a year such as -15 or +3.5"),
        (".5", "expected a percentage a year such as -15 or +3.5"),
        ("1e3", "expected a percentage a year such as -15 or +3.5"),
        (" 5", "expected a percentage a year such as -15 or +3.5"),
    ])
    func badChangesAreRefused(text: String, reason: String) {
        #expect(throws: AssetValueError.invalid(field: "{valueChange}", value: text, reason: reason)) {
            try AssetRevaluation(parsing: text, since: Self.day("2025-01-01"))
        }
    }

    @Test func changesOutOfRangeAreRefusedAndDescribed() throws {
        let since = Self.day("2025-01-01")
        #expect(
            throws: AssetValueError.invalid(
                field: "{valueChange}", value: "-100.0001%", reason: "below -100 %: an asset cannot lose more than its whole value")
        ) {
            try AssetRevaluation(annualChange: -1_000_001, since: since)
        }
        #expect(throws: AssetValueError.self) { try AssetRevaluation(annualChange: 10_000_001, since: since) }
        #expect(throws: AssetValueError.self) { try AssetRevaluation(annualChange: .min, since: since) }
        #expect(AssetValueError.invalid(field: "{valueChange}", value: "-101", reason: "x").description == "valueChange '-101': x")
        #expect(try AssetRevaluation(parsing: "-15.50", since: since).description == "-15.5%")
        #expect(try AssetRevaluation(parsing: "3.5", since: since).description == "+3.5%")
        #expect(try AssetRevaluation(parsing: "-0", since: since).description == "0%")
    }
}
