import CapitalCore
import Testing

/// The timeline: end-of-day balances per account from today to the horizon, in three cases,
/// checked against a brute-force reference (`ReferenceTimeline`) on random ledgers, plus the
/// rules written out on small examples.
@Suite("Timeline")
struct TimelineTests {
    static func day(_ text: String) -> Day { try! Day(iso: text) }
    static let rub = try! Currency("RUB")
    static let noCalendars: [String: WorkingDayCalendar] = [:]

    static let accounts = [
        Account(id: "debit", name: "Debit", kind: .debit, currency: rub),
        Account(id: "card", name: "Card", kind: .creditCard, currency: rub, floor: -100_000),
        Account(id: "groceries", name: "Groceries", kind: .expense, currency: rub),
        Account(id: "salary", name: "Salary", kind: .income, currency: rub),
        Account(id: "capital", name: "Capital", kind: .equity, currency: rub),
    ]

    static func transaction(_ day: String, _ minor: Int64, from: String = "capital", to: String = "debit") -> Transaction {
        Transaction(
            id: "\(day)-\(minor)", day: Self.day(day),
            postings: [
                Posting(accountID: to, amount: Money(minor: minor, currency: rub)),
                Posting(accountID: from, amount: Money(minor: -minor, currency: rub)),
            ])
    }

    static func schedule(
        _ id: String, _ rule: String, start: String, minor: Int64, from: String = "debit", to: String = "groceries", amount: AmountModel? = nil
    ) throws -> Schedule {
        Schedule(
            id: id, name: id,
            postings: [
                Posting(accountID: to, amount: Money(minor: minor, currency: rub)),
                Posting(accountID: from, amount: Money(minor: -minor, currency: rub)),
            ],
            amount: amount, rule: try Rule(parsing: rule), start: day(start))
    }

    // MARK: Against the reference

    @Test("every account's series equals the brute-force reference, in every case", arguments: 0..<8)
    func matchesBruteForce(batch: Int) throws {
        for seed in stride(from: UInt64(batch), to: 400, by: 8) {
            let random = RandomLedger(seed: seed)
            let timeline = try Timeline.build(random.ledger, today: random.today, horizon: random.horizon, calendars: random.calendars)
            let reference = ReferenceTimeline(random)
            #expect(timeline.accounts.map(\.id) == reference.accounts.map(\.id), "\(random)")
            #expect(timeline.dayCount == reference.dayCount)
            #expect(timeline.opening == reference.opening, "\(random)")
            for (index, account) in timeline.accounts.enumerated() {
                for forecastCase in ForecastCase.allCases {
                    let built = Array(timeline.balances(ofAccountAt: index, forecastCase))
                    let expected = reference.balances[forecastCase.rawValue][index]
                    guard built != expected else { continue }
                    let first = zip(built, expected).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                    Issue.record(
                        "\(random): \(account.id) \(forecastCase) first differs on \(timeline.day(first)): \(built[first]) vs reference \(expected[first])"
                    )
                }
            }
        }
    }

    @Test("level sums add the level's accounts, another currency's valued each day as a brute-force scan values it", arguments: 0..<4)
    func levelSumsMatchBruteForce(batch: Int) throws {
        for seed in stride(from: UInt64(1_000 + batch), to: 1_200, by: 4) {
            let random = RandomLedger(seed: seed)
            let timeline = try Timeline.build(random.ledger, today: random.today, horizon: random.horizon, calendars: random.calendars)
            let reference = ReferenceTimeline(random)
            for level in 1...6 {
                let (indices, floor) = try timeline.levelAccounts(level)
                let expected = reference.level(level)
                #expect(indices == expected.accounts, "\(random) level \(level)")
                #expect(floor == expected.floor, "\(random) level \(level)")
                for forecastCase in ForecastCase.allCases {
                    #expect(try timeline.sum(accountsAt: indices, forecastCase) == reference.sum(expected.accounts, forecastCase), "\(random)")
                }
            }
        }
    }

    // MARK: The rules on small examples

    @Test("the opening is the balance before today; today's transactions count today")
    func openingAndToday() throws {
        let ledger = Ledger(
            currency: Self.rub, accounts: Self.accounts,
            transactions: [Self.transaction("2025-03-01", 100_000), Self.transaction("2025-03-10", 5_000), Self.transaction("2025-03-12", 700)])
        let timeline = try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-13"), calendars: Self.noCalendars)
        #expect(timeline.accounts.map(\.id) == ["debit", "card"])
        #expect(timeline.opening == [100_000, 0])
        #expect(Array(timeline.balances(ofAccountAt: 0)) == [105_000, 105_000, 105_700, 105_700])
    }

    @Test("an unposted occurrence due before today counts today; a posted or handled one does not")
    func overdueOccurrencesCountToday() throws {
        var ledger = Ledger(
            currency: Self.rub, accounts: Self.accounts, transactions: [Self.transaction("2025-01-01", 1_000_000)],
            schedules: [
                try Self.schedule("weekly", "FREQ=WEEKLY;BYDAY=MO", start: "2025-03-01", minor: 1_000),
                try Self.schedule("handled", "FREQ=WEEKLY;BYDAY=MO", start: "2025-03-01", minor: 10),
            ])
        // Mondays 3 and 10 March are due by Wednesday 12 March; the second schedule has posted the 3rd.
        ledger.scheduleStates["handled"] = ScheduleState(handledThrough: Self.day("2025-03-02"), posted: [Self.day("2025-03-03")])
        let timeline = try Timeline.build(ledger, today: Self.day("2025-03-12"), horizon: Self.day("2025-03-17"), calendars: Self.noCalendars)
        let debit = Array(timeline.balances(ofAccountAt: 0))
        #expect(debit == [997_990, 997_990, 997_990, 997_990, 997_990, 996_980])
    }

    @Test("ranged amounts: expected, pessimistic (outflows high, inflows low) and optimistic")
    func rangedCases() throws {
        let model = try AmountModel(low: 400, high: 1_000, expected: 600)
        let ledger = Ledger(
            currency: Self.rub, accounts: Self.accounts,
            schedules: [
                try Self.schedule("spend", "FREQ=DAILY", start: "2025-03-11", minor: 600, amount: model),
                try Self.schedule("earn", "FREQ=DAILY", start: "2025-03-11", minor: 600, from: "salary", to: "card", amount: model),
            ])
        let timeline = try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-12"), calendars: Self.noCalendars)
        #expect(Array(timeline.balances(ofAccountAt: 0, .expected)) == [0, -600, -1_200])
        #expect(Array(timeline.balances(ofAccountAt: 0, .pessimistic)) == [0, -1_000, -2_000])
        #expect(Array(timeline.balances(ofAccountAt: 0, .optimistic)) == [0, -400, -800])
        #expect(Array(timeline.balances(ofAccountAt: 1, .pessimistic)) == [0, 400, 800])
        #expect(Array(timeline.balances(ofAccountAt: 1, .optimistic)) == [0, 1_000, 2_000])
    }

    @Test("a ranged schedule whose expected amount is 0 still flows out of its `from` account")
    func rangedWithZeroExpected() throws {
        let model = try AmountModel(low: 0, high: 1_000, expected: 0)
        let ledger = Ledger(
            currency: Self.rub, accounts: Self.accounts,
            schedules: [try Self.schedule("tips", "FREQ=DAILY", start: "2025-03-11", minor: 0, from: "debit", to: "card", amount: model)])
        let timeline = try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-11"), calendars: Self.noCalendars)
        #expect(Array(timeline.balances(ofAccountAt: 0, .pessimistic)) == [0, -1_000])
        #expect(Array(timeline.balances(ofAccountAt: 0, .optimistic)) == [0, 0])
        #expect(Array(timeline.balances(ofAccountAt: 1, .pessimistic)) == [0, 0])
        #expect(Array(timeline.balances(ofAccountAt: 1, .optimistic)) == [0, 1_000])
    }

    @Test("an open occurrence moved by `preceding` to before its handled day still counts today")
    func precedingOccurrenceBeforeHandledDay() throws {
        // Rule day Sunday 1 June 2025 is paid Friday 30 May; the schedule was handled through
        // Friday 30 May (rule days), so the 1 June occurrence is open and `post` would post it.
        var schedule = try Self.schedule("rent", "FREQ=MONTHLY;BYMONTHDAY=1", start: "2025-05-01", minor: 500)
        schedule.rule.adjustment = .preceding
        var ledger = Ledger(currency: Self.rub, accounts: Self.accounts, schedules: [schedule])
        ledger.scheduleStates["rent"] = ScheduleState(handledThrough: Self.day("2025-05-30"))
        for today in ["2025-05-30", "2025-05-31", "2025-06-02"] {
            let timeline = try Timeline.build(ledger, today: Self.day(today), horizon: Self.day("2025-06-03"), calendars: Self.noCalendars)
            #expect(timeline.balances(ofAccountAt: 0).first == -500, "today \(today)")
        }
    }

    @Test("an horizon before today is refused; an horizon of today gives one day")
    func horizonBounds() throws {
        let ledger = Ledger(currency: Self.rub, accounts: Self.accounts)
        #expect(throws: TimelineError.horizonBeforeToday(today: Self.day("2025-03-10"), horizon: Self.day("2025-03-09"))) {
            try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-09"), calendars: Self.noCalendars)
        }
        let timeline = try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-10"), calendars: Self.noCalendars)
        #expect(timeline.dayCount == 1)
        #expect(timeline.index(of: Self.day("2025-03-10")) == 0)
        #expect(timeline.index(of: Self.day("2025-03-11")) == nil)
    }

    @Test("a balance past Int64 is an overflow error naming the account")
    func overflowIsAnError() throws {
        let ledger = Ledger(
            currency: Self.rub, accounts: Self.accounts,
            transactions: [Self.transaction("2025-03-01", .max), Self.transaction("2025-03-11", 1)])
        #expect(throws: TimelineError.overflow(account: "Debit")) {
            try Timeline.build(ledger, today: Self.day("2025-03-10"), horizon: Self.day("2025-03-12"), calendars: Self.noCalendars)
        }
    }
}
