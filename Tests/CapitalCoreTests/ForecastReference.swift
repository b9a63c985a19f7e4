import CapitalCore

/// Random ledgers for the forecast's property tests, and a brute-force reference timeline that
/// shares no code with `Timeline`, `SuffixMinimum` or `Availability`: plain loops over every day.
///
/// A ledger has accounts of every kind (categories, equity and a second currency included),
/// transactions before and after today, fixed, split and ranged schedules on weekly, monthly and
/// daily rules with every business-day adjustment on a small synthetic calendar, exceptions
/// (skip, move, re-amount), end days, and random `post` bookkeeping.
struct RandomLedger: CustomStringConvertible {
    var ledger: Ledger
    var today: Day
    var horizon: Day
    var calendars: [String: WorkingDayCalendar]
    var seed: UInt64

    var description: String { "seed \(seed): today \(today), horizon \(horizon)" }

    static let rub = try! Currency("RUB")
    static let usd = try! Currency("USD")
    static let origin = try! Day(iso: "2025-01-01")

    static let rules = [
        "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=FR", "FREQ=WEEKLY;BYDAY=SA", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "FREQ=WEEKLY;COUNT=5",
        "FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=-1FR",
        "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYMONTHDAY=25;COUNT=4", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=10",
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=DAILY;INTERVAL=9",
    ]

    // swiftlint:disable:next function_body_length
    init(seed: UInt64, maxDays: Int = 240) {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        self.seed = seed
        today = Self.origin.advanced(by: int(0...729))
        let lengths = [0, 1, 2, 6, 31, maxDays / 2, maxDays]
        horizon = today.advanced(by: chance(50) ? lengths[int(0...lengths.count - 1)] : int(0...maxDays))

        // A synthetic calendar: weekends, a few weekday holidays (some in runs), working Saturdays.
        var holidays: [Day] = []
        var workingDays: [Day] = []
        for _ in 0..<int(0...12) {
            let first = today.advanced(by: int(-90...maxDays + 60))
            for offset in 0..<int(1...4) { holidays.append(first.advanced(by: offset)) }
        }
        for _ in 0..<int(0...3) {
            var saturday = today.advanced(by: int(-90...maxDays + 60))
            while saturday.weekday != .saturday { saturday = saturday.advanced(by: 1) }
            workingDays.append(saturday)
        }
        calendars = ["syn": WorkingDayCalendar(name: "syn", holidays: holidays, workingDays: workingDays), "none": .none]

        // Accounts: a debit account in the main currency, then any kinds.
        var accounts = [Account(id: "a0", name: "Debit", kind: .debit, currency: Self.rub)]
        for index in 1..<int(2...9) {
            let kind = AccountKind.allCases.randomElement(using: &random)!
            var account = Account(id: "a\(index)", name: "Account \(index)", kind: kind, currency: chance(85) ? Self.rub : Self.usd)
            if chance(30) { account.floor = Int64(int(-50_000...50_000)) }
            if chance(20) { account.level = int(1...6) }
            accounts.append(account)
        }
        let main = accounts.filter { $0.currency == Self.rub }
        func anyAccount() -> Account { accounts.randomElement(using: &random)! }
        func money(_ minor: Int64, _ account: Account) -> Money {
            Money(minor: minor, currency: chance(92) ? account.currency : (account.currency == Self.rub ? Self.usd : Self.rub))
        }

        // Transactions before and after today (and past the horizon).
        var transactions: [Transaction] = []
        for index in 0..<int(0...12) {
            var postings: [Posting] = []
            var sum: Int64 = 0
            for _ in 0..<int(1...2) {
                let account = anyAccount()
                let minor = Int64(int(-100_000...100_000))
                sum += minor
                postings.append(Posting(accountID: account.id, amount: money(minor, account)))
            }
            let last = anyAccount()
            postings.append(Posting(accountID: last.id, amount: money(-sum, last)))
            transactions.append(
                Transaction(
                    id: "t\(index)", day: today.advanced(by: int(-60...maxDays + 10)), payee: chance(50) ? "payee \(index)" : "", postings: postings))
        }
        transactions.sort { $0.day < $1.day }

        // Schedules and their bookkeeping.
        var schedules: [Schedule] = []
        var states: [String: ScheduleState] = [:]
        for index in 0..<int(0...6) {
            var adjustment = BusinessDayAdjustment.allCases.randomElement(using: &random)!
            if chance(30) { adjustment = .none }
            let calendarName = chance(70) ? "syn" : chance(60) ? "none" : "XX"
            let rule = Rule(
                recurrence: try! Recurrence(rrule: Self.rules.randomElement(using: &random)!), adjustment: adjustment, calendar: calendarName)
            let start = today.advanced(by: int(-120...60))
            let end: Day? = chance(30) ? start.advanced(by: int(0...300)) : nil
            let pool = chance(80) ? main : accounts
            let to = pool.randomElement(using: &random)!
            var from = pool.randomElement(using: &random)!
            if from.id == to.id { from = accounts[(accounts.firstIndex(of: from)! + 1) % accounts.count] }
            var postings: [Posting]
            var model: AmountModel?
            switch int(0...9) {
            case 0...3:
                let low = Int64(chance(20) ? 0 : int(0...50_000))
                let high = low + Int64(int(0...50_000))
                let expected: Int64? = chance(50) ? nil : Int64(int(Int(low)...Int(high)))
                model = try! AmountModel(low: low, high: high, expected: expected)
                postings = [
                    Posting(accountID: to.id, amount: Money(minor: model!.expected, currency: to.currency)),
                    Posting(accountID: from.id, amount: Money(minor: -model!.expected, currency: to.currency)),
                ]
            case 4...6:
                let minor = Int64(int(1...80_000))
                postings = [
                    Posting(accountID: to.id, amount: Money(minor: minor, currency: to.currency)),
                    Posting(accountID: from.id, amount: Money(minor: -minor, currency: to.currency)),
                ]
            default:
                let other = anyAccount()
                let a = Int64(int(1...60_000))
                let b = Int64(int(-20_000...20_000))
                postings = [
                    Posting(accountID: to.id, amount: Money(minor: a, currency: to.currency)),
                    Posting(accountID: other.id, amount: Money(minor: b, currency: to.currency)),
                    Posting(accountID: from.id, amount: Money(minor: -a - b, currency: to.currency)),
                ]
            }
            var schedule = Schedule(
                id: "s\(index)", name: "Schedule \(index)", postings: postings, amount: model, rule: rule, start: start, end: end)
            let calendar = calendars[calendarName] ?? .none
            let originals = schedule.occurrences(in: DayRange(start.advanced(by: -400), horizon.advanced(by: 60)), calendar: calendar).map(\.original)
            if chance(40) && !originals.isEmpty {
                var seen = Set<Day>()
                for _ in 0..<int(1...3) {
                    let original = originals.randomElement(using: &random)!
                    guard seen.insert(original).inserted else { continue }
                    var exception = Schedule.Exception(original: original)
                    switch int(0...3) {
                    case 0: exception.skip = true
                    case 1: exception.movedTo = today.advanced(by: int(-30...horizon.number - today.number + 30))
                    case 2: exception.amount = Int64(int(0...80_000))
                    default:
                        exception.movedTo = original.advanced(by: int(-10...10))
                        exception.amount = Int64(int(0...80_000))
                    }
                    schedule.exceptions.append(exception)
                }
            }
            if chance(60) {
                let handled = today.advanced(by: int(-40...3))
                var posted = Set<Day>()
                for original in originals where original > handled && original <= today.advanced(by: 5) && chance(40) { posted.insert(original) }
                states[schedule.id] = ScheduleState(handledThrough: handled, posted: posted)
            }
            schedules.append(schedule)
        }
        ledger = Ledger(currency: Self.rub, accounts: accounts, transactions: transactions, schedules: schedules)
        ledger.scheduleStates = states
        // Dollar rates (drawn last, so the records above stay as they were): one before the
        // pessimistic look-back begins, then a few on random days, some quoted per 10.
        if accounts.contains(where: { $0.currency == Self.usd }) {
            var days: Set<Int> = [today.number - 150]
            for _ in 0..<int(0...20) { days.insert(today.number + int(-120...max(0, horizon.number - today.number) + 10)) }
            ledger.rates = days.sorted().map { day in
                let per: Int64 = chance(20) ? 10 : 1
                let value = ExchangeRate.Decimal(coefficient: Int64(int(600_000...1_200_000)) * per, scale: 4)
                return ExchangeRate(id: "r\(day)", currency: Self.usd, day: Day(day), value: value, per: per)
            }
        }
    }
}

/// End-of-day balances computed the slow, obvious way: for every day from today to the horizon,
/// the sum of every posting dated on or before it, plus every schedule occurrence counted on or
/// before it. Occurrences whose day is today or earlier count on today when still open
/// (`ScheduleState.isOpen`); later ones on their day. A ranged occurrence takes, per case, its
/// expected amount, or (pessimistic) its low end into `to` and its high end out of `from`, or
/// (optimistic) the reverse. Summed over a set holding both accounts of a ranged transfer, the
/// transfer moves nothing out of the set: both legs then count at the expected amount.
struct ReferenceTimeline {
    /// A ranged occurrence between two accounts with series: (day it counts from, from, to, low, high, expected).
    private var transfers: [(day: Day, first: Int, second: Int, low: Int64, high: Int64, expected: Int64)] = []
    /// The accounts with a series: everything but categories and equity, in ledger order.
    let accounts: [Account]
    let today: Day
    let dayCount: Int
    /// `balances[case][account][day]`.
    let balances: [[[Int64]]]
    /// Each account's balance at the end of yesterday.
    let opening: [Int64]
    /// The ledger's currency, and the rates that value the others in it.
    let currency: Currency
    let rates: [ExchangeRate]

    /// One amount landing in one account, counted from `day` on, per case.
    private struct Entry {
        var day: Day
        var account: Int
        var amounts: [Int64]
    }

    init(_ random: RandomLedger) {
        let ledger = random.ledger
        let dayCount = random.horizon.number - random.today.number + 1
        self.today = random.today
        self.dayCount = dayCount
        let today = random.today
        let accounts = ledger.accounts.filter { $0.kind != .income && $0.kind != .expense && $0.kind != .equity }
        func slot(_ posting: Posting) -> Int? {
            accounts.firstIndex { $0.id == posting.accountID && $0.currency == posting.amount.currency }
        }
        var entries: [Entry] = []
        for transaction in ledger.transactions {
            for posting in transaction.postings {
                guard let account = slot(posting) else { continue }
                let minor = posting.amount.minor
                entries.append(Entry(day: transaction.day, account: account, amounts: [minor, minor, minor]))
            }
        }
        for schedule in ledger.schedules {
            let calendar = random.calendars[schedule.rule.calendar] ?? .none
            let state = ledger.scheduleStates[schedule.id]
            let everything = DayRange(today.advanced(by: -3_000), random.horizon.advanced(by: 1))
            for occurrence in schedule.occurrences(in: everything, calendar: calendar) {
                var day = occurrence.day
                if day <= today {
                    let open = state.map { $0.isOpen(occurrence.original) } ?? true
                    guard open else { continue }
                    day = today
                }
                if schedule.amount != nil, occurrence.postings.count == 2, let a = slot(occurrence.postings[0]),
                    let b = slot(occurrence.postings[1])
                {
                    transfers.append((day, a, b, occurrence.amount.low, occurrence.amount.high, occurrence.amount.expected))
                }
                for (position, posting) in occurrence.postings.enumerated() {
                    guard let account = slot(posting) else { continue }
                    let minor = posting.amount.minor
                    if schedule.amount != nil {
                        let a = occurrence.amount
                        let into = position == 0
                        entries.append(
                            Entry(day: day, account: account, amounts: into ? [a.expected, a.low, a.high] : [-a.expected, -a.high, -a.low]))
                    } else {
                        entries.append(Entry(day: day, account: account, amounts: [minor, minor, minor]))
                    }
                }
            }
        }
        var balances = [[[Int64]]](
            repeating: [[Int64]](repeating: [Int64](repeating: 0, count: dayCount), count: accounts.count), count: 3)
        for index in 0..<dayCount {
            let day = today.advanced(by: index)
            for entry in entries where entry.day <= day {
                for forecastCase in 0..<3 { balances[forecastCase][entry.account][index] += entry.amounts[forecastCase] }
            }
        }
        var opening = [Int64](repeating: 0, count: accounts.count)
        for entry in entries where entry.day < today { opening[entry.account] += entry.amounts[0] }
        self.accounts = accounts
        self.balances = balances
        self.opening = opening
        self.currency = ledger.currency
        self.rates = ledger.rates
    }

    /// The rate holding on `day`: the last one on or before it, found by a scan.
    func rate(on day: Day) -> ExchangeRate? {
        rates.filter { $0.day <= day }.max { $0.day < $1.day }
    }

    /// `amount` of account `account`'s currency at the end of day index `index`, in the
    /// ledger's currency: at the rate of the day, or (pessimistic) an asset at the lowest and a
    /// debt at the highest rate of the 90 days before today through the day, (optimistic) the reverse.
    func valued(_ amount: Int64, account: Int, at index: Int, _ forecastCase: ForecastCase) -> Int64 {
        let foreign = accounts[account].currency
        guard foreign != currency, amount != 0 else { return amount }
        var chosen = rate(on: today.advanced(by: index))!
        if forecastCase != .expected {
            let wantsLow = (amount > 0) == (forecastCase == .pessimistic)
            for back in -89...index {
                guard let other = rate(on: today.advanced(by: back)) else { continue }
                // per-unit values compared as fractions: a/(10^s·per)
                let (a, b) = (other.value.fraction, chosen.value.fraction)
                let otherBelow = a.numerator * b.denominator * Int128(chosen.per) < b.numerator * a.denominator * Int128(other.per)
                let chosenBelow = b.numerator * a.denominator * Int128(other.per) < a.numerator * b.denominator * Int128(chosen.per)
                if wantsLow ? otherBelow : chosenBelow { chosen = other }
            }
        }
        return chosen.convert(amount, from: foreign, to: currency)!
    }

    /// The level an account answers at, written out independently of `Ladder`.
    static func level(of account: Account) -> Int? {
        if let level = account.level { return level }
        switch account.kind {
        case .cash: return 1
        case .debit: return 2
        case .creditCard: return 3
        case .deposit, .receivable, .payable: return 5
        case .fixedAsset, .loan: return 6
        case .income, .expense, .equity: return nil
        }
    }

    /// The accounts a level sums (every currency, joining at or below the level) and their
    /// floors in the ledger's currency (another currency's at today's rate).
    func level(_ level: Int) -> (accounts: [Int], floor: Int64) {
        var indices: [Int] = []
        var floor: Int64 = 0
        for (index, account) in accounts.enumerated() {
            guard let own = Self.level(of: account), own <= level else { continue }
            indices.append(index)
            floor += valued(account.floor ?? 0, account: index, at: 0, .expected)
        }
        return (indices, floor)
    }

    /// The summed balances of some accounts, day by day.
    func sum(_ indices: [Int], _ forecastCase: ForecastCase) -> [Int64] {
        var total = [Int64](repeating: 0, count: dayCount)
        for account in indices {
            for day in 0..<dayCount { total[day] += valued(balances[forecastCase.rawValue][account][day], account: account, at: day, forecastCase) }
        }
        // Both ends of a ranged transfer inside the set: replace their per-account ends
        // (into: low/high, out of: high/low) by the expected amount on both sides.
        // In another currency, the day's correction of all such transfers together is valued at
        // the day's rate.
        let members = Set(indices)
        var foreign = [Int64](repeating: 0, count: dayCount)
        var foreignAccount: Int?
        for t in transfers where members.contains(t.first) && members.contains(t.second) {
            let perAccount: Int64
            switch forecastCase {
            case .expected: perAccount = 0
            case .pessimistic: perAccount = t.low - t.high
            case .optimistic: perAccount = t.high - t.low
            }
            let isForeign = accounts[t.first].currency != currency
            if isForeign { foreignAccount = t.first }
            for index in 0..<dayCount where today.advanced(by: index) >= t.day {
                if isForeign { foreign[index] -= perAccount } else { total[index] -= perAccount }
            }
        }
        if let foreignAccount {
            for index in 0..<dayCount { total[index] += valued(foreign[index], account: foreignAccount, at: index, .expected) }
        }
        return total
    }
}
