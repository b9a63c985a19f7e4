import CapitalCore
import Testing

/// The answer ladder: which accounts each of the six levels counts, with overrides and floors.
@Suite("Ladder")
struct LadderTests {
    static let rub = try! Currency("RUB")
    static let usd = try! Currency("USD")

    @Test(
        "each account kind joins the ladder at its level; categories and equity never",
        arguments: [
            (AccountKind.cash, 1), (.debit, 2), (.creditCard, 3), (.deposit, 5), (.receivable, 5), (.payable, 5), (.fixedAsset, 6),
            (.loan, 6), (.income, nil), (.expense, nil), (.equity, nil),
        ] as [(AccountKind, Int?)])
    func kindLevels(kind: AccountKind, level: Int?) {
        #expect(Ladder.level(of: kind) == level)
        let account = Account(id: "a", name: "A", kind: kind, currency: Self.rub)
        #expect(Ladder.level(of: account) == level)
        for answer in Ladder.levels { #expect(Ladder.includes(account, in: answer) == (level.map { $0 <= answer } ?? false)) }
    }

    @Test("every kind has an answer")
    func everyKindIsCovered() {
        #expect(AccountKind.allCases.filter { Ladder.level(of: $0) == nil } == [.income, .expense, .equity])
    }

    @Test("an account's own level overrides its kind's")
    func overrides() {
        let deposit = Account(id: "d", name: "Instant-access savings", kind: .deposit, currency: Self.rub, level: 2)
        #expect(Ladder.level(of: deposit) == 2)
        #expect(!Ladder.includes(deposit, in: 1))
        #expect(Ladder.includes(deposit, in: 2) && Ladder.includes(deposit, in: 6))
        let cash = Account(id: "c", name: "Emergency cash", kind: .cash, currency: Self.rub, level: 6)
        #expect(!Ladder.includes(cash, in: 5))
        #expect(Ladder.includes(cash, in: 6))
    }

    @Test("names, the default level and which levels look ahead")
    func namesAndForecastLevels() {
        #expect(Ladder.levels.map(Ladder.name) == ["cash", "debit", "credit", "forecast", "liquid", "net"])
        #expect(Ladder.defaultLevel == 4)
        #expect(Ladder.levels.filter(Ladder.isForecast) == [4, 5, 6])
    }

    @Test("a level sums its accounts' floors (a card's floor is minus its limit), another currency's valued at today's rate")
    func levelAccountsAndFloors() throws {
        let accounts = [
            Account(id: "cash", name: "Cash", kind: .cash, currency: Self.rub, floor: 1_000),
            Account(id: "debit", name: "Debit", kind: .debit, currency: Self.rub, floor: 50_000),
            Account(id: "food", name: "Food", kind: .expense, currency: Self.rub, floor: 7),
            Account(id: "card", name: "Card", kind: .creditCard, currency: Self.rub, floor: -300_000),
            Account(id: "dollars", name: "Dollars", kind: .cash, currency: Self.usd, floor: 100),
            Account(id: "savings", name: "Savings", kind: .deposit, currency: Self.rub, floor: 200_000, level: 3),
            Account(id: "flat", name: "Flat", kind: .fixedAsset, currency: Self.rub),
            Account(id: "loan", name: "Mortgage", kind: .loan, currency: Self.rub, hidden: true),
            Account(id: "capital", name: "Capital", kind: .equity, currency: Self.rub),
        ]
        var ledger = Ledger(currency: Self.rub, accounts: accounts)
        let today = try Day(iso: "2025-03-10")
        // Without a rate, the dollars' floor cannot be valued.
        #expect(throws: TimelineError.self) { try Timeline.build(ledger, today: today, horizon: today, calendars: [:]).levelAccounts(1) }
        ledger.rates = [
            ExchangeRate(id: "r1", currency: Self.usd, day: try Day(iso: "2025-03-01"), value: try ExchangeRate.Decimal(parsing: "90.125")),
            ExchangeRate(id: "r2", currency: Self.usd, day: try Day(iso: "2025-03-11"), value: try ExchangeRate.Decimal(parsing: "99")),
        ]
        let timeline = try Timeline.build(ledger, today: today, horizon: today, calendars: [:])
        #expect(timeline.accounts.map(\.id) == ["cash", "debit", "card", "dollars", "savings", "flat", "loan"])
        func ids(_ level: Int) throws -> [String] { try timeline.levelAccounts(level).indices.map { timeline.accounts[$0].id } }
        #expect(try ids(1) == ["cash", "dollars"])
        #expect(try ids(2) == ["cash", "debit", "dollars"])
        #expect(try ids(3) == ["cash", "debit", "card", "dollars", "savings"])
        #expect(try ids(4) == ids(3))
        #expect(try ids(5) == ids(3))
        #expect(try ids(6) == ["cash", "debit", "card", "dollars", "savings", "flat", "loan"])
        // 1.00 USD at today's 90.125 is 90.12 RUB (half to even), not the 99 of tomorrow.
        #expect(try Ladder.levels.map { try timeline.levelAccounts($0).floor } == [10_012, 60_012, -39_988, -39_988, -39_988, -39_988])
    }
}
