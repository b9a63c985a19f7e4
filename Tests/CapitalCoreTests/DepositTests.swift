import Foundation
import Testing

@testable import CapitalCore

@Suite("Deposits: hand-worked interest, capitalisation days, maturity, bad terms, a rational reference")
struct DepositTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }

    static func deposit(_ rate: String, _ capitalisation: Capitalisation, _ opened: String, _ maturity: String? = nil) throws -> Deposit {
        try Deposit(rate: Rate(parsing: rate), capitalisation: capitalisation, opened: day(opened), maturity: maturity.map(day))
    }

    static func flow(_ day: String, _ amount: Int64) -> DepositFlow { DepositFlow(day: Self.day(day), amount: amount) }
    static func interest(_ day: String, _ amount: Int64) -> DepositEvent { DepositEvent(kind: .interest, day: Self.day(day), amount: amount) }
    static func payout(_ day: String, _ amount: Int64) -> DepositEvent { DepositEvent(kind: .payout, day: Self.day(day), amount: amount) }

    // MARK: Credits recorded as transactions

    /// Credits marked made give no event and add nothing themselves: when the transactions that
    /// stand for them (at the amounts the deposit would have credited) are among the flows, every
    /// other event is what it was, payout included; a made maturity ends the list; when nothing
    /// stands for a credit (skipped), the later ones earn less.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func madeCreditsStandForTheirEvents(seed: UInt64) throws {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let opened = Self.day("2025-01-10")
        let deposit = try Deposit(
            rate: Rate(perMillion: Int64(50_000 + next(200_000))), capitalisation: [.monthly, .quarterly][next(2)], opened: opened,
            maturity: opened.addingMonths(6 + next(30)))
        var flows = [DepositFlow(day: opened, amount: Int64(1_000_00 + next(10_000_000_00)))]
        for _ in 0..<next(6) { flows.append(DepositFlow(day: opened.advanced(by: 1 + next(500)), amount: Int64(next(1_000_000_00) - 200_000_00))) }
        let last = try #require(deposit.maturity).advanced(by: 10)
        let all = deposit.events(flows: flows, through: last)
        let credits = all.filter { $0.kind == .interest }
        #expect(credits.count >= 2)
        // The maturity's credit stands with the payout (one flow): made, it ends the list.
        let maturity = try #require(deposit.maturity)
        let made = Set(credits.filter { $0.day != maturity && next(2) == 0 }.map(\.day))
        let recorded = flows + credits.filter { made.contains($0.day) }.map { DepositFlow(day: $0.day, amount: $0.amount) }
        #expect(deposit.events(flows: recorded, through: last, made: made) == all.filter { !($0.kind == .interest && made.contains($0.day)) })
        #expect(deposit.events(flows: flows, through: last, made: [maturity]) == all.filter { $0.day < maturity })
        // Skipped: nothing stands for the first credit, so every later one earns on less.
        let first = credits[0]
        let skipped = deposit.events(flows: flows, through: last, made: [first.day])
        #expect(!skipped.contains(first))
        for event in skipped where event.kind == .interest {
            let unskipped = try #require(all.first { $0.kind == .interest && $0.day == event.day })
            #expect(event.amount <= unskipped.amount)
        }
        #expect((skipped.last?.amount ?? 0) < (all.last?.amount ?? 0) || all.last?.kind == .interest)
    }

    // MARK: Hand-worked

    /// 1 000 000.00 at 12 % capitalised monthly from 10 January 2025 for a year:
    ///
    /// - 10 Feb, 31 days (10 Jan … 9 Feb): 100 000 000 × 0.12 × 31/365 = 1 019 178.08 → 1 019 178
    /// - 10 Mar, 28 days on 101 019 178 (the interest compounds): × 0.12 × 28/365 = 929 929.97
    ///   → 929 930
    /// - at maturity on 10 Jan 2026 the last interest, then the whole balance paid out.
    @Test func monthlyInterestCompounds() throws {
        let deposit = try Self.deposit("12", .monthly, "2025-01-10", "2026-01-10")
        let events = deposit.events(flows: [Self.flow("2025-01-10", 100_000_000)], through: Self.day("2026-06-01"))
        #expect(events.count == 13)
        #expect(events[0] == Self.interest("2025-02-10", 1_019_178))
        #expect(events[1] == Self.interest("2025-03-10", 929_930))
        #expect(events.dropLast().map(\.day) == (1...12).map { Self.day("2025-01-10").addingMonths($0) })
        #expect(events.dropLast().allSatisfy { $0.kind == .interest })
        let interest = events.dropLast().reduce(0) { $0 + $1.amount }
        #expect(events.last == Self.payout("2026-01-10", 100_000_000 + interest))
        #expect(interest == 12_682_450)  // Scripts/deposit-fixtures.py agrees
    }

    /// 1 000 000.00 at 12 % monthly from 15 December 2027, into the leap year 2028:
    ///
    /// - 15 Jan 2028: 17 days of 2027 (15–31 Dec) over 365 and 14 of 2028 (1–14 Jan) over 366:
    ///   12 000 000 × (17/365 + 14/366) = 558 904.11 + 459 016.39 = 1 017 920.50303… → 1 017 921
    ///   (one rounding for the period, not one per year)
    /// - 15 Feb 2028: 31 days over 366 on 101 017 921: × 0.12 × 31/366 = 1 026 739.52 → 1 026 740
    @Test func aPeriodCrossingIntoALeapYear() throws {
        let deposit = try Self.deposit("12", .monthly, "2027-12-15")
        let events = deposit.events(flows: [Self.flow("2027-12-15", 100_000_000)], through: Self.day("2028-02-15"))
        #expect(events == [Self.interest("2028-01-15", 1_017_921), Self.interest("2028-02-15", 1_026_740)])
    }

    /// 1 000 000.00 at 10 % quarterly from 15 January 2025, maturing 1 September (a short last
    /// quarter):
    ///
    /// - 15 Apr, 90 days: 100 000 000 × 0.1 × 90/365 = 2 465 753.42 → 2 465 753
    /// - 15 Jul, 91 days on 102 465 753: 2 554 625.62 → 2 554 626
    /// - 1 Sep, 48 days (15 Jul … 31 Aug) on 105 020 379: 1 381 089.92 → 1 381 090;
    ///   payout 105 020 379 + 1 381 090 = 106 401 469
    @Test func quarterlyWithAShortLastQuarter() throws {
        let deposit = try Self.deposit("10", .quarterly, "2025-01-15", "2025-09-01")
        let events = deposit.events(flows: [Self.flow("2025-01-15", 100_000_000)], through: Self.day("2025-12-31"))
        #expect(
            events == [
                Self.interest("2025-04-15", 2_465_753), Self.interest("2025-07-15", 2_554_626), Self.interest("2025-09-01", 1_381_090),
                Self.payout("2025-09-01", 106_401_469),
            ])
    }

    /// 1 000 000.00 at 15 % paid at maturity, 1 July 2027 to 1 July 2028: simple interest on 184
    /// days of 2027 over 365 and 182 of 2028 over 366:
    /// 15 000 000 × (184/365 + 182/366) = 7 561 643.84 + 7 459 016.39 = 15 020 660.23 → 15 020 660.
    @Test func atMaturityIsSimpleInterestPaidOnce() throws {
        let deposit = try Self.deposit("15", .atMaturity, "2027-07-01", "2028-07-01")
        let flows = [Self.flow("2027-07-01", 100_000_000)]
        #expect(
            deposit.events(flows: flows, through: Self.day("2028-07-01"))
                == [Self.interest("2028-07-01", 15_020_660), Self.payout("2028-07-01", 115_020_660)])
        #expect(deposit.events(flows: flows, through: Self.day("2028-06-30")).isEmpty)
    }

    /// 100 000.00 at 12 % monthly from 1 March, 50 000.00 more on 11 March: 1–10 March (10 days)
    /// earn on 10 000 000, 11–31 March (21 days) on 15 000 000:
    /// 0.12 / 365 × (10 × 10 000 000 + 21 × 15 000 000) = 0.12 × 415 000 000 / 365 = 136 438.36
    /// → 136 438 on 1 April.
    @Test func aTopUpEarnsFromItsOwnDay() throws {
        let deposit = try Self.deposit("12", .monthly, "2025-03-01")
        let flows = [Self.flow("2025-03-11", 5_000_000), Self.flow("2025-03-01", 10_000_000)]
        #expect(deposit.events(flows: flows, through: Self.day("2025-04-01")) == [Self.interest("2025-04-01", 136_438)])
    }

    /// The same with 40 000.00 taken out on 21 March: 20 days on 10 000 000, 11 on 6 000 000:
    /// 0.12 × (200 000 000 + 66 000 000) / 365 = 87 452.05 → 87 452.
    @Test func aWithdrawalEarnsNothingFromItsOwnDay() throws {
        let deposit = try Self.deposit("12", .monthly, "2025-03-01")
        let flows = [Self.flow("2025-03-01", 10_000_000), Self.flow("2025-03-21", -4_000_000)]
        #expect(deposit.events(flows: flows, through: Self.day("2025-04-01")) == [Self.interest("2025-04-01", 87_452)])
    }

    /// Taking out more than is there leaves a negative balance, which earns nothing (not negative
    /// interest): only 1–10 March count, 0.12 × 10 000 000 × 10/365 = 32 876.71 → 32 877. The
    /// balance at maturity, −5 000 000 + 32 877, is not positive: no payout.
    @Test func aNegativeBalanceEarnsNothingAndPaysNothingOut() throws {
        let deposit = try Self.deposit("12", .monthly, "2025-03-01", "2025-04-01")
        let flows = [Self.flow("2025-03-01", 10_000_000), Self.flow("2025-03-11", -15_000_000)]
        #expect(deposit.events(flows: flows, through: Self.day("2025-12-31")) == [Self.interest("2025-04-01", 32_877)])
    }

    /// Opened on 31 January and maturing on 28 February: 28 days,
    /// 12 000 000 × 28/365 = 920 547.95 → 920 548; an open-ended account opened that day
    /// capitalises on the last day of shorter months and is back on the 31st in March.
    @Test func monthlyFrom31JanuaryClampsToMonthEnds() throws {
        let flows = [Self.flow("2025-01-31", 100_000_000)]
        let short = try Self.deposit("12", .monthly, "2025-01-31", "2025-02-28")
        #expect(
            short.events(flows: flows, through: Self.day("2025-03-31"))
                == [Self.interest("2025-02-28", 920_548), Self.payout("2025-02-28", 100_920_548)])
        let open = try Self.deposit("12", .monthly, "2025-01-31")
        #expect(
            open.events(flows: flows, through: Self.day("2025-05-31")).map(\.day)
                == ["2025-02-28", "2025-03-31", "2025-04-30", "2025-05-31"].map(Self.day))
    }

    @Test func aMaturityBetweenCapitalisationDaysEndsAShortPeriod() throws {
        // After 10 February and 10 March: 100 000 000 + 1 019 178 + 929 930 = 101 949 108, which
        // earns for 10–14 March (5 days): × 0.12 × 5/365 = 167 587.57 → 167 588.
        let deposit = try Self.deposit("12", .monthly, "2025-01-10", "2025-03-15")
        let events = deposit.events(flows: [Self.flow("2025-01-10", 100_000_000)], through: Self.day("2025-12-31"))
        #expect(
            events == [
                Self.interest("2025-02-10", 1_019_178), Self.interest("2025-03-10", 929_930), Self.interest("2025-03-15", 167_588),
                Self.payout("2025-03-15", 101_949_108 + 167_588),
            ])
    }

    @Test func eventsStopAtTheLastDayAndAnOpenAccountNeverPaysOut() throws {
        let deposit = try Self.deposit("10", .monthly, "2025-03-01")
        let flows = [Self.flow("2025-03-01", 1_000_000)]
        #expect(deposit.events(flows: flows, through: Self.day("2025-08-20")).map(\.day).last == Self.day("2025-08-01"))
        #expect(deposit.events(flows: flows, through: Self.day("2025-08-01")).count == 5)
        #expect(deposit.events(flows: flows, through: Self.day("2025-07-31")).count == 4)
        #expect(deposit.events(flows: flows, through: Self.day("2025-03-01")).isEmpty)
        #expect(deposit.events(flows: flows, through: Self.day("2024-01-01")).isEmpty)
        #expect(deposit.events(flows: flows, through: Self.day("2045-03-01")).allSatisfy { $0.kind == .interest })
    }

    /// Money moved in before the opening is the opening balance (earning from the opening only);
    /// a flow on the maturity day is paid out with the rest; flows after maturity change nothing.
    @Test func flowsBeforeTheOpeningOnMaturityAndAfter() throws {
        let deposit = try Self.deposit("12", .atMaturity, "2025-03-01", "2025-04-01")
        let base = deposit.events(flows: [Self.flow("2025-03-01", 10_000_000)], through: Self.day("2025-12-31"))
        // 0.12 × 10 000 000 × 31/365 = 101 917.81 → 101 918.
        #expect(base == [Self.interest("2025-04-01", 101_918), Self.payout("2025-04-01", 10_101_918)])
        let early = deposit.events(flows: [Self.flow("2025-02-01", 10_000_000)], through: Self.day("2025-12-31"))
        #expect(early == base)
        let more = [Self.flow("2025-03-01", 10_000_000), Self.flow("2025-04-01", 500), Self.flow("2025-04-02", 7_000_000)]
        #expect(deposit.events(flows: more, through: Self.day("2025-12-31")) == [base[0], Self.payout("2025-04-01", 10_102_418)])
    }

    /// A year of 2025 at 10 % on 5 minor units is exactly 0.5: rounded up to 1. At 9.9999 % it is
    /// 0.499995: 0, and no interest event.
    @Test func aHalfRoundsUpAndZeroInterestGivesNoEvent() throws {
        let flows = [Self.flow("2025-01-01", 5)]
        let half = try Self.deposit("10", .atMaturity, "2025-01-01", "2026-01-01")
        #expect(half.events(flows: flows, through: Self.day("2026-01-01")) == [Self.interest("2026-01-01", 1), Self.payout("2026-01-01", 6)])
        let less = try Self.deposit("9.9999", .atMaturity, "2025-01-01", "2026-01-01")
        #expect(less.events(flows: flows, through: Self.day("2026-01-01")) == [Self.payout("2026-01-01", 5)])
        let none = try Self.deposit("0", .monthly, "2025-01-01", "2026-01-01")
        #expect(none.events(flows: flows, through: Self.day("2026-01-01")) == [Self.payout("2026-01-01", 5)])
        #expect(none.events(flows: [], through: Self.day("2026-01-01")).isEmpty)
    }

    // MARK: Ladder level

    @Test func shortTermMeansMaturingWithinAYear() throws {
        let today = Self.day("2025-06-01")
        #expect(try Self.deposit("5", .monthly, "2025-01-01", "2026-06-01").isShortTerm(today: today))  // 365 days on
        #expect(try !Self.deposit("5", .monthly, "2025-01-01", "2026-06-02").isShortTerm(today: today))
        #expect(try Self.deposit("5", .monthly, "2024-01-01", "2025-01-01").isShortTerm(today: today))  // matured already
        #expect(try !Self.deposit("5", .monthly, "2025-01-01").isShortTerm(today: today))
    }

    // MARK: Bad terms

    @Test func badTermsAreRefused() throws {
        let rate = try Rate(parsing: "5")
        let opened = Self.day("2025-01-10")
        #expect(throws: DepositError.invalid(field: "{maturity}", value: "2025-01-09", reason: "must be after the opening day 2025-01-10")) {
            try Deposit(rate: rate, capitalisation: .monthly, opened: opened, maturity: Self.day("2025-01-09"))
        }
        #expect(throws: DepositError.self) { try Deposit(rate: rate, capitalisation: .atMaturity, opened: opened, maturity: opened) }
        #expect(throws: DepositError.self) {
            try Deposit(rate: rate, capitalisation: .quarterly, opened: Self.day("2030-01-01"), maturity: Self.day("2029-12-31"))
        }
        #expect(throws: DepositError.self) {
            try Deposit(rate: rate, capitalisation: .monthly, opened: opened, maturity: Self.day("2125-01-11"))
        }
        #expect(throws: DepositError.self) { try Deposit(rate: Rate(perMillion: -1), capitalisation: .monthly, opened: opened) }
        #expect(throws: DepositError.self) { try Deposit(rate: Rate(perMillion: 10_000_001), capitalisation: .monthly, opened: opened) }
        let needsMaturity = DepositError.invalid(
            field: "{capitalisation}", value: "at-maturity", reason: "needs a maturity day; an open-ended account capitalises monthly or quarterly")
        #expect(throws: needsMaturity) { try Deposit(rate: rate, capitalisation: .atMaturity, opened: opened) }
        #expect(
            needsMaturity.description
                == "capitalisation 'at-maturity': needs a maturity day; an open-ended account capitalises monthly or quarterly")
        // The longest accepted: exactly 100 years, at the largest rate.
        _ = try Deposit(rate: .maximum, capitalisation: .atMaturity, opened: opened, maturity: Self.day("2125-01-10"))
    }

    /// Fields set past what `init` accepts give no events rather than a crash.
    @Test func termsChangedPastValidationGiveNoEvents() throws {
        var deposit = try Self.deposit("5", .monthly, "2025-01-10", "2025-06-10")
        let flows = [Self.flow("2025-01-10", 1_000)]
        deposit.maturity = Self.day("2025-01-10")
        #expect(deposit.events(flows: flows, through: Self.day("2026-01-01")).isEmpty)
        deposit.maturity = nil
        deposit.capitalisation = .atMaturity
        #expect(deposit.events(flows: flows, through: Self.day("2026-01-01")).isEmpty)
        deposit.capitalisation = .monthly
        deposit.rate = Rate(perMillion: -50_000)  // read as 0
        #expect(deposit.events(flows: flows, through: Self.day("2026-01-01")).isEmpty)
    }

    /// The largest amounts over the longest terms: no crash; where the balance would pass Int64
    /// the list ends with the last event that fits.
    @Test func extremesNeverCrash() throws {
        let opened = Self.day("2025-01-01")
        let end = opened.addingMonths(1_200)
        func check(_ events: [DepositEvent]) {
            #expect(events.allSatisfy { $0.amount > 0 })
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.day <= $1.day })
        }
        let big = [DepositFlow(day: opened, amount: 1_000_000_000_000_000)]
        for capitalisation in Capitalisation.allCases {
            let deposit = try Deposit(rate: .maximum, capitalisation: capitalisation, opened: opened, maturity: end)
            check(deposit.events(flows: big, through: end))
        }
        // At maturity, a century at 1000 % on 10^15 still fits: 10^15 × (1 + 10 × 36 525/365.25…).
        let simple = try Deposit(rate: .maximum, capitalisation: .atMaturity, opened: opened, maturity: end)
        #expect(simple.events(flows: big, through: end).last?.kind == .payout)
        // Compounded monthly it passes Int64 within a few years.
        let compound = try Deposit(rate: .maximum, capitalisation: .monthly, opened: opened, maturity: end)
        #expect(compound.events(flows: big, through: end).count < 100)
        // 20 000 flows of ±10^15 a day apart: sums past Int64 stop the list.
        let many = (0..<20_000).map { DepositFlow(day: opened.advanced(by: $0), amount: 1_000_000_000_000_000) }
        check(compound.events(flows: many, through: end))
        check(simple.events(flows: many.map { DepositFlow(day: $0.day, amount: -$0.amount) }, through: end))
        let open = try Deposit(rate: .maximum, capitalisation: .quarterly, opened: opened)
        check(open.events(flows: many, through: end))
    }

    // MARK: The rational reference

    struct Reference: Decodable {
        struct Flow: Decodable {
            var day: String
            var amount: Int64
            init(from decoder: any Decoder) throws {
                var row = try decoder.unkeyedContainer()
                day = try row.decode(String.self)
                amount = try row.decode(Int64.self)
            }
        }

        struct Event: Decodable {
            var kind: String
            var day: String
            var amount: Int64
            init(from decoder: any Decoder) throws {
                var row = try decoder.unkeyedContainer()
                kind = try row.decode(String.self)
                day = try row.decode(String.self)
                amount = try row.decode(Int64.self)
            }
        }

        var rate: String
        var capitalisation: String
        var opened: String
        var maturity: String?
        var last: String
        var flows: [Flow]
        var events: [Event]
    }

    struct File: Decodable { var deposits: [Reference] }

    /// The deposits of `Tests/Fixtures/deposits-reference.json`, worked out day by day in exact
    /// fractions by `Scripts/deposit-fixtures.py`.
    static let references: [Reference] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/deposits-reference.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).deposits
    }()

    @Test func everyDepositMatchesTheDayByDayRationalReference() throws {
        #expect(Self.references.count >= 300)
        var mismatches = 0
        for reference in Self.references {
            let capitalisation = try #require(Capitalisation(rawValue: reference.capitalisation))
            let deposit = try Self.deposit(reference.rate, capitalisation, reference.opened, reference.maturity)
            let events = deposit.events(flows: reference.flows.map { Self.flow($0.day, $0.amount) }, through: Self.day(reference.last))
            let expected = reference.events.map {
                DepositEvent(kind: DepositEvent.Kind(rawValue: $0.kind)!, day: Self.day($0.day), amount: $0.amount)
            }
            if events != expected { mismatches += 1 }
            #expect(events == expected, "\(reference.rate) % \(reference.capitalisation) from \(reference.opened) to \(reference.maturity ?? "-")")
            if mismatches > 5 { break }
        }
        // The fixture covers what it claims to.
        #expect(Set(Self.references.map(\.capitalisation)) == ["monthly", "quarterly", "at-maturity"])
        #expect(Self.references.contains { $0.maturity == nil })
        #expect(Self.references.contains { $0.flows.contains { $0.amount < 0 } })
        #expect(Self.references.reduce(0) { $0 + $1.events.count } > 2_000)
    }
}
