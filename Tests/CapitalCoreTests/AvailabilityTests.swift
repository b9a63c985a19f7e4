import CapitalCore
import Testing

/// "How much can I spend on day d" and "from when can I spend X", against brute-force scans of the
/// reference timeline on random ledgers, plus the defining property: can-spend X on d is the
/// largest one-off outflow on d that keeps every later balance of the level at or above its floor.
@Suite("Availability")
struct AvailabilityTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static let rub = try! Currency("RUB")

    /// The brute-force answer for day index `index`: the lowest headroom over the level's days
    /// (that day only for levels 1–3, to the horizon for 4–6) and the first day reaching it.
    static func bruteAnswer(_ headroom: [Int64], _ index: Int, forecast: Bool) -> (value: Int64, binding: Int) {
        var best = index
        if forecast {
            for t in index..<headroom.count where headroom[t] < headroom[best] { best = t }
        }
        return (headroom[best], best)
    }

    /// The first day index from which every headroom to the horizon is at least `amount`: the
    /// day after the last one short of it, by a linear scan.
    static func bruteFirstDay(_ headroom: [Int64], _ amount: Int64) -> Int? {
        var lastShort = -1
        for (index, value) in headroom.enumerated() where value < amount { lastShort = index }
        return lastShort + 1 < headroom.count ? lastShort + 1 : nil
    }

    @Test("can-spend and first-day answers equal brute-force scans, every level and case", arguments: 0..<8)
    func matchesBruteForce(batch: Int) throws {
        for seed in stride(from: UInt64(2_000 + batch), to: 2_160, by: 8) {
            let random = RandomLedger(seed: seed)
            let timeline = try Timeline.build(random.ledger, today: random.today, horizon: random.horizon, calendars: random.calendars)
            let reference = ReferenceTimeline(random)
            for level in 1...6 {
                let (accounts, floor) = reference.level(level)
                for forecastCase in ForecastCase.allCases {
                    let availability = try Availability(timeline, level: level, forecastCase)
                    let balances = reference.sum(accounts, forecastCase)
                    let headroom = balances.map { $0 - floor }
                    #expect(availability.balances == balances && availability.floor == floor, "\(random) level \(level)")
                    for index in 0..<reference.dayCount {
                        let day = random.today.advanced(by: index)
                        let (value, binding) = Self.bruteAnswer(headroom, index, forecast: level >= 4)
                        let answer = availability.canSpend(on: day)
                        let expected = (day, max(0, value), max(0, -value), random.today.advanced(by: binding), balances[binding])
                        guard let answer, (answer.day, answer.amount, answer.shortfall, answer.bindingDay, answer.bindingBalance) == expected else {
                            Issue.record("\(random) level \(level) \(forecastCase): \(String(describing: answer)) vs \(expected)")
                            continue
                        }
                    }
                    #expect(availability.canSpend(on: random.today.advanced(by: -1)) == nil)
                    #expect(availability.canSpend(on: random.horizon.advanced(by: 1)) == nil)

                    var amounts: Set<Int64> = [0, 1, -1, .min, .max]
                    for value in headroom.prefix(40) { amounts.formUnion([value - 1, value, value + 1]) }
                    for amount in amounts {
                        let expected = Self.bruteFirstDay(headroom, amount).map { random.today.advanced(by: $0) }
                        let got = availability.firstDay(toSpend: amount)
                        if got != expected {
                            Issue.record(
                                "\(random) level \(level) \(forecastCase) amount \(amount): \(String(describing: got)) vs \(String(describing: expected))"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test("can-spend X on d keeps every later balance at the floor or above, and X + 1 does not", arguments: 0..<4)
    func canSpendIsTheLargestSafeOutflow(batch: Int) throws {
        for seed in stride(from: UInt64(3_000 + batch), to: 3_160, by: 4) {
            let random = RandomLedger(seed: seed)
            let timeline = try Timeline.build(random.ledger, today: random.today, horizon: random.horizon, calendars: random.calendars)
            let reference = ReferenceTimeline(random)
            for level in 4...6 {
                let (accounts, floor) = reference.level(level)
                let balances = reference.sum(accounts, .pessimistic)
                let availability = try Availability(timeline, level: level)
                for index in 0..<reference.dayCount {
                    let answer = try #require(availability.canSpend(on: random.today.advanced(by: index)))
                    let spend = answer.amount
                    // A one-off outflow of `spend` on day `index` lowers every balance from then on.
                    func keepsFloor(_ outflow: Int64) -> Bool { balances[index...].allSatisfy { $0 - outflow >= floor } }
                    if spend > 0 { #expect(keepsFloor(spend), "\(random) level \(level) day \(index): \(spend) breaks the floor") }
                    #expect(!keepsFloor(spend + 1), "\(random) level \(level) day \(index): \(spend + 1) still fits")
                    #expect((answer.shortfall > 0) == !keepsFloor(0))
                }
            }
        }
    }

    // MARK: Examples

    /// Salary on the 25th, mortgage on the 20th, a card payback on the 22nd, from a debit account.
    static func household(debit: Int64, floor: Int64? = nil) throws -> (Ledger, Timeline) {
        let accounts = [
            Account(id: "debit", name: "Debit", kind: .debit, currency: rub, floor: floor),
            Account(id: "card", name: "Card", kind: .creditCard, currency: rub, floor: -50_000),
            Account(id: "salary", name: "Salary", kind: .income, currency: rub),
            Account(id: "housing", name: "Housing", kind: .expense, currency: rub),
            Account(id: "capital", name: "Capital", kind: .equity, currency: rub),
        ]
        func schedule(_ id: String, _ rule: String, _ minor: Int64, to: String, from: String) throws -> Schedule {
            Schedule(
                id: id, name: id,
                postings: [
                    Posting(accountID: to, amount: Money(minor: minor, currency: rub)),
                    Posting(accountID: from, amount: Money(minor: -minor, currency: rub)),
                ],
                rule: try Rule(parsing: rule), start: day("2025-03-01"))
        }
        let ledger = Ledger(
            currency: rub, accounts: accounts,
            transactions: [
                Transaction(
                    id: "open", day: day("2025-03-01"),
                    postings: [
                        Posting(accountID: "debit", amount: Money(minor: debit, currency: rub)),
                        Posting(accountID: "card", amount: Money(minor: -41_200, currency: rub)),
                        Posting(accountID: "capital", amount: Money(minor: 41_200 - debit, currency: rub)),
                    ])
            ],
            schedules: [
                try schedule("mortgage", "monthly on 20", 70_000, to: "housing", from: "debit"),
                try schedule("payback", "monthly on 22", 41_200, to: "card", from: "debit"),
                try schedule("salary", "monthly on 25", 180_000, to: "debit", from: "salary"),
            ])
        let timeline = try Timeline.build(ledger, today: day("2025-03-10"), horizon: day("2025-04-30"), calendars: [:])
        return (ledger, timeline)
    }

    @Test("the forecast level is bound by the lowest day ahead; the debit level only by the day")
    func bindingDay() throws {
        let (_, timeline) = try Self.household(debit: 123_600)
        // Debit: 123 600 − 70 000 on 03-20 − 41 200 on 03-22 = 12 400, until the salary on 03-25.
        // Level 4 counts the card too (−41 200 until its payback on 03-22, then 0), so the level
        // is at 12 400 from 03-20 on; the card's floor makes the level's floor −50 000.
        let forecast = try Availability(timeline, level: 4)
        let answer = try #require(forecast.canSpend(on: Self.day("2025-03-10")))
        #expect(answer.bindingDay == Self.day("2025-03-20"))
        #expect(answer.bindingBalance == 12_400)
        #expect(answer.amount == 62_400)
        let debit = try Availability(timeline, level: 2)
        #expect(debit.canSpend(on: Self.day("2025-03-10"))!.amount == 123_600)
        #expect(debit.canSpend(on: Self.day("2025-03-22"))!.amount == 12_400)
        // 62 400 is there from today; a minor unit more only once the salary has come on 03-25
        // (April's low is 122 400 after its mortgage: 172 400 above the floor).
        #expect(forecast.firstDay(toSpend: 62_400) == Self.day("2025-03-10"))
        #expect(forecast.firstDay(toSpend: 62_401) == Self.day("2025-03-25"))
        #expect(forecast.firstDay(toSpend: 172_400) == Self.day("2025-03-25"))
        #expect(forecast.firstDay(toSpend: 172_401) == Self.day("2025-04-25"))
    }

    @Test("a floor above the balance answers 0 with the shortfall, not an error")
    func floorAboveBalance() throws {
        let (_, timeline) = try Self.household(debit: 10_000, floor: 200_000)
        let availability = try Availability(timeline, level: 2)
        let answer = try #require(availability.canSpend(on: Self.day("2025-03-10")))
        #expect(answer.amount == 0)
        #expect(answer.shortfall == 190_000)
    }

    @Test("what the horizon lacks for an amount")
    func shortfallAtHorizon() throws {
        let (_, timeline) = try Self.household(debit: 123_600)
        let availability = try Availability(timeline, level: 4)
        let last = try #require(availability.suffix.values.last)
        #expect(availability.shortfallAtHorizon(for: last) == 0)
        #expect(availability.shortfallAtHorizon(for: last + 5) == 5)
        #expect(availability.firstDay(toSpend: last + 1) == nil)
    }
}
