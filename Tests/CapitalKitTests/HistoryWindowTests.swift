import CapitalCore
import CapitalKit
import CapitalStore
import Foundation
import Testing

/// A ledger read for answers as of a day (`Store.snapshot(asOf:)`) lists only recent history and
/// sums up the rest from the balance checkpoints; every answer built on it equals the answer built
/// on the whole history, read transaction by transaction (`Store.snapshot()`).
@Suite("CapitalKit: answers from a summed-up history equal the whole history's")
struct HistoryWindowTests {
    /// The household sample in a database, with two years of random spending and transfers before
    /// it (on the card too) and budgets whose periods start before any month boundary: a yearly one
    /// from mid-July, a weekly one.
    static let store = makeStore(yearlyBudget: true)

    static func makeStore(yearlyBudget: Bool) -> Store {
        let store = try! Store.inMemory()
        try! store.importDocument(try! LedgerFile.read(path: ProjectionTests.root.appendingPathComponent("samples/household.yaml").path))
        var random = SplitMix64(seed: 20)
        let first = try! Day(iso: "2023-02-01")
        let pairs = [
            ("VTB Debit", "Groceries"), ("Cash", "Eating out"), ("Tinkoff Card", "Groceries"), ("VTB Debit", "Tinkoff Card"),
            ("VTB Debit", "Sber Deposit"), ("VTB Debit", "Cash"), ("Tinkoff Card", "Eating out"),
        ]
        for _ in 0..<600 {
            let day = first.advanced(by: Int(random.next() % 880))
            let (from, to) = pairs[Int(random.next() % UInt64(pairs.count))]
            let amount = String(Int(random.next() % 5_000) + 10)
            _ = try! store.addTransaction(
                TransactionInput(
                    day: day, payee: "history",
                    postings: [PostingInput(account: from, amount: "-\(amount)", field: "from"), PostingInput(account: to, amount: nil, field: "to")]
                ))
        }
        if yearlyBudget { _ = try! store.setBudget(yearly) }
        var weekly = BudgetInput(category: "Eating out", amount: "5000", start: try! Day(iso: "2024-01-03"))
        weekly.period = .weekly
        _ = try! store.setBudget(weekly)
        return store
    }

    static let yearly: BudgetInput = {
        var yearly = BudgetInput(category: "Groceries", amount: "400000", start: try! Day(iso: "2023-07-15"))
        yearly.period = .yearly
        return yearly
    }()

    static func nonZero(_ balances: [BalanceKey: Int64]) -> [BalanceKey: Int64] { balances.filter { $0.value != 0 } }

    @Test func openingReachesBackToTheCardsStatementAndTheBudgetsPeriods() throws {
        let store = Self.store
        // Yearly budget periods are calendar years: the one holding the day is listed from 1 January.
        #expect(try store.snapshot(asOf: [try Day(iso: "2025-04-01")]).opening?.day == (try Day(iso: "2025-01-01")))
        #expect(try store.snapshot(asOf: [try Day(iso: "2024-12-20")]).opening?.day == (try Day(iso: "2024-01-01")))
        #expect(try store.snapshot(asOf: [try Day(iso: "2025-07-20"), try Day(iso: "2024-05-03")]).opening?.day == (try Day(iso: "2024-01-01")))
        let withoutYearly = Self.makeStore(yearlyBudget: false)
        // Then the month before, or the month of the card's statement before its last one (so a
        // statement not paid by its due day stays overdue after the next: 25 February for 1 April).
        #expect(try withoutYearly.snapshot(asOf: [try Day(iso: "2025-04-01")]).opening?.day == (try Day(iso: "2025-02-01")))
        #expect(try withoutYearly.snapshot(asOf: [try Day(iso: "2025-05-26")]).opening?.day == (try Day(iso: "2025-04-01")))
        #expect(try withoutYearly.snapshot(asOf: [try Day(iso: "2025-05-25")]).opening?.day == (try Day(iso: "2025-03-01")))
        #expect(try withoutYearly.snapshot(asOf: [try Day(iso: "2025-05-01")]).opening?.day == (try Day(iso: "2025-03-01")))
        let all = try withoutYearly.snapshot()
        #expect(all.opening == nil)
        let recent = try withoutYearly.snapshot(asOf: [try Day(iso: "2025-07-20")])
        #expect(recent.transactions.count * 4 < all.transactions.count, "most of the history is summed up")
    }

    @Test(arguments: ["2024-03-31", "2024-09-10", "2025-01-01", "2025-03-17", "2025-04-01", "2025-06-15"])
    func answersEqualTheWholeHistorys(day: String) throws {
        let today = try Day(iso: day)
        let store = Self.store
        let full = try store.snapshot()
        let windowed = try store.snapshot(asOf: [today])
        let opening = try #require(windowed.opening)
        #expect(opening.day <= today.startOfMonth.advanced(by: -1).startOfMonth)
        // Before the opening, only the history of loans, deposits and accounts whose value changes is listed.
        let replayed = Set(full.loans.map(\.accountID) + full.deposits.map(\.accountID) + full.accounts.filter { $0.valueChange != nil }.map(\.id))
        #expect(windowed.transactions.allSatisfy { $0.day >= opening.day || $0.postings.contains { replayed.contains($0.accountID) } })
        // Listed: the history from the opening on, and older transactions of instruments that replay their own.
        #expect(
            windowed.transactions.count
                == full.transactions.filter { $0.day >= opening.day || $0.postings.contains { replayed.contains($0.accountID) } }.count)

        // Balances on every day from the opening's eve on.
        for offset in stride(from: -1, through: opening.day.distance(to: today) + 40, by: 1) {
            let on = opening.day.advanced(by: offset)
            #expect(Self.nonZero(try windowed.balances(on: on)) == Self.nonZero(try full.balances(on: on)), "\(on)")
        }
        // The forecast of every account, in every case, and the flows it generates.
        let calendars = try store.calendars(for: full)
        let window = ForecastWindow(today: today, horizon: today.addingMonths(14), calendars: calendars)
        let whole = try Projection(store: store, stored: full, window: window)
        let summed = try Projection(store: store, stored: windowed, window: window)
        #expect(whole.timeline.accounts.map(\.id) == summed.timeline.accounts.map(\.id))
        for index in whole.timeline.accounts.indices {
            for forecastCase in ForecastCase.allCases {
                #expect(
                    Array(whole.timeline.balances(ofAccountAt: index, forecastCase))
                        == Array(summed.timeline.balances(ofAccountAt: index, forecastCase)),
                    "\(whole.timeline.accounts[index].name) \(forecastCase)")
            }
        }
        #expect(whole.ledger.transactions.filter { $0.day >= opening.day } == summed.ledger.transactions.filter { $0.day >= opening.day })
        // Card cycles, overdue flows left out, and what `balance` and the card screens read.
        for card in full.cards {
            #expect(
                full.cardCycles(card, today: today, horizon: window.horizon, calendars: calendars)
                    == windowed.cardCycles(card, today: today, horizon: window.horizon, calendars: calendars))
        }
        let ignoring = try Projection(store: store, stored: full.ignoringOverdue(today: today, calendars: calendars), window: window)
        let ignoringSummed = try Projection(store: store, stored: windowed.ignoringOverdue(today: today, calendars: calendars), window: window)
        #expect(ignoring.timeline.opening == ignoringSummed.timeline.opening)
        #expect(
            ignoring.ledger.transactions.filter { $0.day >= opening.day } == ignoringSummed.ledger.transactions.filter { $0.day >= opening.day })
        let sheet = try store.balanceSheet(on: today, today: today)
        #expect(sheet.ledger.opening != nil)
        let instruments = try full.forecastLedger(today: today, horizon: today, calendars: calendars, expected: false)
        #expect(Self.nonZero(sheet.balances) == Self.nonZero(try instruments.balances(on: today)))
        let cards = try store.cardStatuses(today: today)
        #expect(cards.count == full.cards.count)
    }

    /// A value's whole contents as text, for values that are not Equatable.
    static func dumped<T>(_ value: T) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test(arguments: [("2025-04-01", "2024-05-01"), ("2025-04-01", "2025-03-01"), ("2025-02-10", "2023-01-01"), ("2024-11-30", "2024-11-01")])
    func statisticsAndBudgetsEqualTheWholeHistorys(day: String, from: String) throws {
        let store = Self.store
        let today = try Day(iso: day)
        let range = DayRange(through: today, from: try Day(iso: from))
        let full = try store.snapshot()
        let windowed = try store.snapshot(asOf: [range.start, today])
        #expect(windowed.opening != nil)
        for account in [nil, try store.account("VTB Debit").id] {
            #expect(
                try windowed.statistics(range, today: today, accountID: account) == full.statistics(range, today: today, accountID: account))
        }
        for asked in [today, range.start, today.addingMonths(2)] {
            let windowedBudgets = try store.budgetReport(try store.snapshot(asOf: [asked, today]), on: asked, today: today)
            #expect(Self.dumped(windowedBudgets) == Self.dumped(try store.budgetReport(full, on: asked, today: today)), "\(asked)")
            #expect(!windowedBudgets.isEmpty)
        }
    }

    @Test func balancesOnAnEarlierDayReachBackToIt() throws {
        let store = Self.store
        let today = try Day(iso: "2025-04-01")
        for day in ["2023-03-15", "2024-02-29", "2025-02-28", "2025-03-31"] {
            let on = try Day(iso: day)
            let sheet = try store.balanceSheet(on: on, today: today)
            let full = try store.snapshot()
            let calendars = try store.calendars(for: full)
            let whole = try full.forecastLedger(today: today, horizon: today, calendars: calendars, expected: false)
            #expect(Self.nonZero(sheet.balances) == Self.nonZero(try whole.balances(on: on)), "\(day)")
        }
    }

    @Test func accountScreensCountEveryPosting() throws {
        let store = Self.store
        let today = try Day(iso: "2025-04-01")
        let full = try store.snapshot()
        let calendars = try store.calendars(for: full)
        let whole = try full.forecastLedger(today: today, horizon: today, calendars: calendars, expected: false)
        for name in ["VTB Debit", "Tinkoff Card", "Eating out", "Mortgage"] {
            let account = try store.account(name)
            let counted = whole.transactions.reduce(0) { $0 + $1.postings.filter { $0.accountID == account.id }.count }
            #expect(try store.accountDetail(name, today: today).postings == counted, "\(name)")
        }
    }
}
