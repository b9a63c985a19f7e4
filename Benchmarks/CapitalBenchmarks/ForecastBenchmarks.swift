import Benchmark
import CapitalCore

/// The forecast engine on a household far larger than any real one: 50 balance-sheet accounts
/// (cash, debit, cards, deposits, receivables, payables, fixed assets, loans) and 16 categories,
/// 1 000 schedules (the recurrence benchmark's rule mix, a tenth moved by business-day
/// adjustments on the Russian-like calendar, a quarter with ranged amounts, a few with
/// exceptions) and 400 past transactions, over 30 years (2026–2055, 10 957 days).
///
/// - `Forecast: timeline + level-4 scan`: `Timeline.build` (every account's balances in three
///   cases) and `Availability(level: 4)` (the level's sum and its suffix minimum). One item is
///   the whole build. Target: under 30 ms on one core.
/// - `Forecast: ... 200 accounts`: the same build with four times the balance-sheet accounts, for
///   its memory: the issue asks for 30 years x 200 accounts well under 100 MB.
/// - `Forecast: can-spend query` and `Forecast: when query`: one `canSpend(on:)` (O(1)) or one
///   `firstDay(toSpend:)` (binary search, O(log days)) on a built `Availability`; an iteration
///   asks 1 000 questions and the figures are per question.
///
/// The ledger, the timeline and the questions are built once, before any measurement.
func forecastBenchmarks() {
    let today = try! Day(iso: "2026-01-01")
    let horizon = try! Day(iso: "2055-12-31")
    let ledger = ForecastBenchmarkLedger.make(today: today)
    let calendars = ["RU-like": RecurrenceBenchmarkSet.ruLikeCalendar]

    /// One item: `Timeline.build` and the level-4 scan of `ledger` to the horizon.
    func build(_ name: String, _ ledger: Ledger, _ metrics: [BenchmarkMetric], maxIterations: Int) {
        let configuration = Benchmark.Configuration(metrics: metrics, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: maxIterations)
            .checked
        Benchmark(name, configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let timeline = try Timeline.build(ledger, today: today, horizon: horizon, calendars: calendars)
                blackHole(try Availability(timeline, level: 4))
            }
        }
    }
    build(
        "Forecast: timeline + level-4 scan, 1000 schedules x 50 accounts x 30 years", ledger,
        [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], maxIterations: 500)
    // The memory bound: 30 years x 200 accounts well under 100 MB. The delta is what one
    // build adds to the process's resident memory (three cases x accounts x days x 8 bytes of
    // series, plus the level sums and the scan); the ledger is built before it is measured.
    build(
        "Forecast: timeline + level-4 scan, 1000 schedules x 200 accounts x 30 years", ForecastBenchmarkLedger.make(today: today, scale: 4),
        [.wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .mallocCountTotal], maxIterations: 50)

    // Issue 19: the same build with a fifth of the accounts in four other currencies and a rate
    // for each of them every day from 400 days back to the horizon (45 000 rates): valuing must
    // add at most 20 % to the build above.
    build(
        "Forecast: timeline + level-4 scan, 5 currencies with daily rates, 1000 schedules x 50 accounts x 30 years",
        ForecastBenchmarkLedger.inCurrencies(ledger, from: today.advanced(by: -400), through: horizon),
        [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], maxIterations: 500)

    let timeline = try! Timeline.build(ledger, today: today, horizon: horizon, calendars: calendars)
    let availability = try! Availability(timeline, level: 4)
    var random = SplitMix64(seed: 44)
    let queryCount = BenchmarkScalingFactor.kilo.rawValue
    let days = (0..<queryCount).map { _ in today.advanced(by: random.next(below: timeline.dayCount)) }
    // Amounts around the level's range of headroom, so searches end all over the timeline.
    let low = availability.suffix.values.first!
    let high = availability.suffix.values.last!
    let span = max(1, Int(high - low))
    let amounts = (0..<queryCount).map { _ in low + Int64(random.next(below: span + span / 10)) }

    let queryConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], scalingFactor: .kilo, maxDuration: .seconds(2))
    Benchmark("Forecast: can-spend query", configuration: queryConfiguration) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(availability.canSpend(on: days[index]))
        }
    }
    Benchmark("Forecast: when query", configuration: queryConfiguration) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(availability.firstDay(toSpend: amounts[index]))
        }
    }
}

/// The benchmark's ledger, drawn with a fixed seed.
enum ForecastBenchmarkLedger {
    static let rub = try! Currency("RUB")

    /// - Parameter scale: multiplies the balance-sheet accounts (50 at scale 1); the schedules and
    ///   transactions stay the same and spread over them.
    static func make(today: Day, scale: Int = 1) -> Ledger {
        var random = SplitMix64(seed: 30)
        let kinds: [(AccountKind, Int)] = [
            (.cash, 5), (.debit, 15), (.creditCard, 8), (.deposit, 8), (.receivable, 2), (.payable, 2), (.fixedAsset, 5), (.loan, 5),
        ]
        var accounts: [Account] = []
        for (kind, count) in kinds {
            for index in 0..<count * scale {
                let floor: Int64? = kind == .creditCard ? -30_000_000 : index == 0 ? 1_000_000 : nil
                accounts.append(Account(id: "\(kind.rawValue)-\(index)", name: "\(kind.rawValue) \(index)", kind: kind, currency: rub, floor: floor))
            }
        }
        let balanceSheet = accounts
        let income = (0..<4).map { Account(id: "income-\($0)", name: "Income \($0)", kind: .income, currency: rub) }
        let expenses = (0..<12).map { Account(id: "expense-\($0)", name: "Expense \($0)", kind: .expense, currency: rub) }
        accounts += income + expenses
        accounts.append(Account(id: "capital", name: Account.capitalName, kind: .equity, currency: rub))

        func pick(_ from: [Account]) -> String { from[random.next(below: from.count)].id }
        func posting(_ id: String, _ minor: Int64) -> Posting { Posting(accountID: id, amount: Money(minor: minor, currency: rub)) }

        // Opening balances and a year of past spending.
        var transactions: [Transaction] = balanceSheet.enumerated().map { index, account in
            let minor = Int64(10_000_000 + 100_000 * index)
            return Transaction(
                id: "open-\(index)", day: today.advanced(by: -400), postings: [posting(account.id, minor), posting("capital", -minor)])
        }
        for index in 0..<350 {
            let minor = Int64(1 + random.next(below: 5_000_000))
            transactions.append(
                Transaction(
                    id: "past-\(index)", day: today.advanced(by: -365 + random.next(below: 365)), payee: "shop",
                    postings: [posting(pick(expenses), minor), posting(pick(balanceSheet), -minor)]))
        }
        transactions.sort { $0.day < $1.day }

        // Rules: the recurrence benchmark's mix; every tenth takes a calendar rule with an adjustment.
        let calendarRules: [(String, BusinessDayAdjustment)] = [
            ("FREQ=MONTHLY;BYMONTHDAY=10", .preceding), ("FREQ=MONTHLY;BYMONTHDAY=25", .preceding), ("FREQ=MONTHLY;BYMONTHDAY=-1", .preceding),
            ("FREQ=MONTHLY;BYMONTHDAY=1", .following), ("FREQ=MONTHLY;BYMONTHDAY=5", .modifiedFollowing), ("FREQ=WEEKLY;BYDAY=FR", .preceding),
            ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1", .following), ("FREQ=DAILY", .skip),
        ]
        var schedules: [Schedule] = []
        var states: [String: ScheduleState] = [:]
        for (index, base) in RecurrenceBenchmarkSet.schedules(count: 1_000).enumerated() {
            var rule = Rule(recurrence: base.rule)
            if index % 10 == 1 {
                let (text, adjustment) = calendarRules[random.next(below: calendarRules.count)]
                rule = Rule(recurrence: try! Recurrence(rrule: text), adjustment: adjustment, calendar: "RU-like")
            }
            let minor = Int64(base.amount.magnitude) * 100 + 100
            let (to, from): (String, String)
            switch index % 7 {
            case 0: (to, from) = (pick(balanceSheet), pick(balanceSheet))  // a transfer
            default: (to, from) = base.amount >= 0 ? (pick(balanceSheet), pick(income)) : (pick(expenses), pick(balanceSheet))
            }
            var model: AmountModel?
            var expected = minor
            if index % 4 == 0 {
                model = try! AmountModel(low: minor * 8 / 10, high: minor * 12 / 10)
                expected = model!.expected
            }
            var schedule = Schedule(
                id: "s\(index)", name: "Schedule \(index)", postings: [posting(to, expected), posting(from, -expected)], amount: model, rule: rule,
                start: base.start)
            if index % 50 == 3 {
                let next = schedule.occurrences(in: DayRange(today, today.advanced(by: 400)), calendar: RecurrenceBenchmarkSet.ruLikeCalendar)
                if next.count > 2 {
                    schedule.exceptions = [
                        .init(original: next[0].original, skip: true), .init(original: next[1].original, amount: minor * 2),
                        .init(original: next[2].original, movedTo: next[2].day.advanced(by: 3)),
                    ]
                }
            }
            // Posted through yesterday, but for a few that are a week behind.
            states[schedule.id] = ScheduleState(handledThrough: today.advanced(by: index % 40 == 0 ? -8 : -1))
            schedules.append(schedule)
        }
        var ledger = Ledger(currency: rub, accounts: accounts, transactions: transactions, schedules: schedules)
        ledger.scheduleStates = states
        return ledger
    }

    /// `ledger` with every fifth balance-sheet account in USD, EUR, CNY or JPY (its postings with
    /// it) and a rate of each of them for every day from `first` through `last`, on a random walk.
    static func inCurrencies(_ ledger: Ledger, from first: Day, through last: Day) -> Ledger {
        let foreign = ["USD", "EUR", "CNY", "JPY"].map { try! Currency($0) }
        var ledger = ledger
        var moved: [String: Currency] = [:]
        var count = 0
        for index in ledger.accounts.indices where ledger.accounts[index].kind.isBalanceSheet && ledger.accounts[index].kind != .equity {
            defer { count += 1 }
            guard count % 5 == 4 else { continue }
            let currency = foreign[(count / 5) % foreign.count]
            ledger.accounts[index].currency = currency
            moved[ledger.accounts[index].id] = currency
        }
        func recurrency(_ postings: [Posting]) -> [Posting] {
            postings.map { posting in
                guard let currency = moved[posting.accountID] else { return posting }
                return Posting(accountID: posting.accountID, amount: Money(minor: posting.amount.minor, currency: currency))
            }
        }
        for index in ledger.transactions.indices { ledger.transactions[index].postings = recurrency(ledger.transactions[index].postings) }
        for index in ledger.schedules.indices { ledger.schedules[index].postings = recurrency(ledger.schedules[index].postings) }
        var random = SplitMix64(seed: 19)
        for (position, currency) in foreign.enumerated() {
            var value = Int64([92_5012, 100_1200, 12_8800, 6142][position])  // 4 decimals, 2 for the yen per 100
            for day in first.number...last.number {
                value = max(1, value + Int64(random.next(below: 201)) - 100)
                ledger.rates.append(
                    ExchangeRate(
                        id: "\(currency.code)-\(day)", currency: currency, day: Day(day),
                        value: ExchangeRate.Decimal(coefficient: value, scale: currency.code == "JPY" ? 2 : 4), per: currency.code == "JPY" ? 100 : 1)
                )
            }
        }
        return ledger
    }
}
