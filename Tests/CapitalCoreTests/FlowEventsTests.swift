import CapitalCore
import Testing

/// The flows into a set of accounts explain its balance: summed over any days after today they
/// equal the change of the timeline's balance, and today's flows lift the opening to today's
/// balance, in every case.
@Suite("Flow events")
struct FlowEventsTests {
    @Test("a level's flows add up to its timeline balance, in every case", arguments: 0..<4)
    func flowsExplainTheBalance(batch: Int) throws {
        for seed in stride(from: UInt64(4_000 + batch), to: 4_200, by: 4) {
            let random = RandomLedger(seed: seed)
            let ledger = random.ledger
            let timeline = try Timeline.build(ledger, today: random.today, horizon: random.horizon, calendars: random.calendars)
            let whole = DayRange(through: random.horizon, from: random.today)
            for level in 1...6 {
                // The level's accounts in the ledger's currency: flows explain their balance
                // (another currency's value also moves with its rate).
                let indices = try timeline.levelAccounts(level).indices.filter { timeline.accounts[$0].currency == ledger.currency }
                let ids = Set(indices.map { timeline.accounts[$0].id })
                let opening = try timeline.opening(ofAccountsAt: indices)
                for forecastCase in ForecastCase.allCases {
                    let balances = try timeline.sum(accountsAt: indices, forecastCase)
                    let events = ledger.flows(into: ids, in: whole, today: random.today, calendars: random.calendars, forecastCase)
                    let context = "\(random) level \(level) \(forecastCase)"
                    #expect(events.allSatisfy { whole.contains($0.day) && $0.amount != 0 }, "\(context)")
                    #expect(zip(events, events.dropFirst()).allSatisfy { $0.day <= $1.day }, "\(context)")
                    let todays = events.filter { $0.day == random.today }.reduce(0) { $0 + $1.amount }
                    let later = events.filter { $0.day > random.today }.reduce(0) { $0 + $1.amount }
                    #expect(opening + todays == balances[0], "\(context)")
                    #expect(later == balances[balances.count - 1] - balances[0], "\(context)")

                    // Any window after today: its flows are the change across it.
                    guard balances.count > 2 else { continue }
                    let first = Int(random.seed % UInt64(balances.count - 1)) + 1
                    let last = first + Int((random.seed / 7) % UInt64(balances.count - first))
                    let window = DayRange(through: random.today.advanced(by: last), from: random.today.advanced(by: first))
                    let inWindow = ledger.flows(into: ids, in: window, today: random.today, calendars: random.calendars, forecastCase)
                    #expect(inWindow.reduce(0) { $0 + $1.amount } == balances[last] - balances[first - 1], "\(context) \(window)")
                }
            }
        }
    }

    /// `flowTotalsByCurrency` lays schedules without exceptions straight onto its rows; the flows
    /// walk every occurrence. Both must give the same inflow and outflow on every day, for any set of
    /// accounts, case and window (one starting before today too).
    @Test("per-day inflow and outflow sums equal the flows, day by day", arguments: 0..<4)
    func totalsEqualTheFlows(batch: Int) throws {
        for seed in stride(from: UInt64(7_000 + batch), to: 7_240, by: 4) {
            let random = RandomLedger(seed: seed)
            let ledger = random.ledger
            var generator = SplitMix64(seed: seed)
            let windows = [
                DayRange(through: random.horizon, from: random.today),
                DayRange(through: random.horizon, from: random.today.advanced(by: -10)),
                DayRange(through: random.horizon.advanced(by: 40), from: random.today.advanced(by: 1 + Int(seed % 30))),
            ]
            for subset in 0..<6 {
                // Level-like sets and random ones (categories and other currencies included).
                let ids = Set(ledger.accounts.filter { _ in subset == 0 || generator.next(below: 2) == 0 }.map(\.id))
                for forecastCase in ForecastCase.allCases {
                    for window in windows where window.count > 0 {
                        // Each currency's rows, summed here: the events carry no currency.
                        var inflow = [Int64](repeating: 0, count: window.count)
                        var outflow = inflow
                        for part in ledger.flowTotalsByCurrency(
                            into: ids, in: window, today: random.today, calendars: random.calendars, forecastCase)
                        {
                            for i in inflow.indices {
                                inflow[i] &+= part.totals.inflow[i]
                                outflow[i] &+= part.totals.outflow[i]
                            }
                        }
                        var expectedIn = [Int64](repeating: 0, count: window.count)
                        var expectedOut = expectedIn
                        for event in ledger.flows(into: ids, in: window, today: random.today, calendars: random.calendars, forecastCase) {
                            let index = event.day.number - window.start.number
                            if event.amount > 0 { expectedIn[index] += event.amount } else { expectedOut[index] += event.amount }
                        }
                        let context = "\(random) set \(ids.sorted()) \(forecastCase) \(window)"
                        #expect(inflow == expectedIn, "\(context)")
                        #expect(outflow == expectedOut, "\(context)")
                    }
                }
            }
        }
    }

    @Test("a transfer between two accounts of the set nets out; each schedule occurrence is one event")
    func transfersNetOut() throws {
        let rub = try Currency("RUB")
        let accounts = [
            Account(id: "debit", name: "Debit", kind: .debit, currency: rub),
            Account(id: "cash", name: "Cash", kind: .cash, currency: rub),
            Account(id: "food", name: "Food", kind: .expense, currency: rub),
        ]
        func schedule(_ id: String, to: String) throws -> Schedule {
            Schedule(
                id: id, name: id,
                postings: [
                    Posting(accountID: to, amount: Money(minor: 500, currency: rub)),
                    Posting(accountID: "debit", amount: Money(minor: -500, currency: rub)),
                ],
                rule: try Rule(parsing: "FREQ=WEEKLY;BYDAY=MO"), start: try Day(iso: "2025-03-01"))
        }
        let ledger = Ledger(currency: rub, accounts: accounts, schedules: [try schedule("atm", to: "cash"), try schedule("food", to: "food")])
        let today = try Day(iso: "2025-03-05")
        let events = ledger.flows(into: ["debit", "cash"], in: DayRange(today, today.advanced(by: 14)), today: today, calendars: [:])
        // Monday 3 March is overdue (no bookkeeping: every occurrence since the start is open).
        #expect(events.map(\.day.iso) == ["2025-03-05", "2025-03-10", "2025-03-17"])
        #expect(events.map(\.scheduleID) == ["food", "food", "food"])
        #expect(events.allSatisfy { $0.amount == -500 && $0.label == "food" })
    }

    @Test("a ranged occurrence flows at its case's end, out of `from` even when its expected amount is 0")
    func rangedCases() throws {
        let rub = try Currency("RUB")
        let accounts = [
            Account(id: "debit", name: "Debit", kind: .debit, currency: rub),
            Account(id: "tips", name: "Tips", kind: .expense, currency: rub),
        ]
        let schedule = Schedule(
            id: "tips", name: "Tips",
            postings: [
                Posting(accountID: "tips", amount: Money(minor: 0, currency: rub)),
                Posting(accountID: "debit", amount: Money(minor: 0, currency: rub)),
            ],
            amount: try AmountModel(low: 0, high: 1_000, expected: 0), rule: try Rule(parsing: "FREQ=DAILY"), start: try Day(iso: "2025-03-11"))
        let ledger = Ledger(currency: rub, accounts: accounts, schedules: [schedule])
        let today = try Day(iso: "2025-03-10")
        let range = DayRange(today, today.advanced(by: 3))
        #expect(ledger.flows(into: ["debit"], in: range, today: today, calendars: [:], .pessimistic).map(\.amount) == [-1_000, -1_000])
        #expect(ledger.flows(into: ["debit"], in: range, today: today, calendars: [:], .optimistic).isEmpty)
        #expect(ledger.flows(into: ["debit"], in: range, today: today, calendars: [:], .expected).isEmpty)
    }
}
