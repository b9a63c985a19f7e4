import Benchmark
import CapitalCore
import CapitalKit
import CapitalStore
import Foundation
import GRDB

/// The store and the whole forecast path on `capital sample generate --rules 1000 --years 30`
/// (the ledger every whole-process figure uses), and a lower bound for the engine:
///
/// - `Ledger file: parse` — the 271 kB YAML into a `LedgerDocument` (Yams and field checks).
/// - `Ledger file: parse and resolve` — that, then checked into ledger values
///   (`LedgerDocument.resolve()`): what `-f` does.
/// - `Ledger file: import into an empty in-memory store` — resolved and inserted: what `import`
///   does (and what a listing of `-f` asks for the first time it needs the database's queries).
/// - `Whole forecast path` — from a SQLite file: the snapshot, what the instruments make, the
///   timeline of 30 years and the level-4 scan: what `capital forecast` computes.
/// - `SQLite: snapshot of N posted transactions` — reading 10^5 and 10^6 transactions (two
///   postings each) into a `Ledger`. The databases are made once, with plain inserts, in the
///   temporary folder (`capital-bench-N.sqlite`), and reused by later runs.
/// - `Lower bound` — the same number of additions as the timeline makes (every posting of every
///   occurrence to the horizon, into a day-by-account array at the same places) and a running
///   sum and minimum over the level's days: what no forecast can do without.
func storeBenchmarks() {
    let rub = try! Currency("RUB")
    let today = SampleLedger.defaultStart
    let sample = try! SampleLedger.generate(rules: 1_000, years: 30, currency: rub)
    let horizon = today.addingMonths(12 * 30)
    var extras = LedgerExtras()
    for (id, state) in sample.scheduleStates { extras.handledThrough[id] = state.handledThrough }
    let yaml = LedgerFile.write(sample, defaultAccountID: sample.defaultAccountID, format: .yaml, extras: extras)
    let document = try! LedgerFile.parse(yaml, file: "big.yaml")
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    Benchmark("Ledger file: parse 1000 rules x 30 years (YAML)", configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 50))
    {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(try LedgerFile.parse(yaml, file: "big.yaml")) }
    }
    Benchmark(
        "Ledger file: parse and resolve (what -f does), 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 30).checked
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try LedgerFile.parse(yaml, file: "big.yaml").resolve().ledger) }
    }
    Benchmark(
        "Ledger file: import into an empty in-memory store, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 30)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let store = try Store.inMemory()
            blackHole(try store.importDocument(document))
        }
    }

    let path = NSTemporaryDirectory() + "capital-bench-forecast-\(getpid()).sqlite"
    let store = try! Store.open(path: path)
    _ = try! store.importDocument(document)
    Benchmark(
        "Whole forecast path from SQLite: snapshot, instruments, timeline, level-4 scan, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 50).checked
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let ledger = try store.snapshot()
            var calendars: [String: WorkingDayCalendar] = [:]
            for name in Set(ledger.schedules.map(\.rule.calendar) + ledger.loans.map(\.calendar)) { calendars[name] = try store.calendar(name) }
            let forecast = try ledger.forecastLedger(today: today, horizon: horizon, calendars: calendars)
            let timeline = try Timeline.build(forecast, today: today, horizon: horizon, calendars: calendars)
            blackHole(try Availability(timeline, level: 4))
        }
    }

    // The engine alone on the same ledger, already in memory: what the instruments make, the
    // timeline of 30 years and the level-4 scan (no SQLite, no file): what the lower bound below
    // is the floor of.
    let engineCalendars = ["RU": try! store.calendar("RU")]
    Benchmark(
        "Engine: instruments, timeline, level-4 scan, 1000 rules x 30 years",
        configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let forecast = try sample.forecastLedger(today: today, horizon: horizon, calendars: engineCalendars)
            let timeline = try Timeline.build(forecast, today: today, horizon: horizon, calendars: engineCalendars)
            blackHole(try Availability(timeline, level: 4))
        }
    }
    let engineLedger = try! sample.forecastLedger(today: today, horizon: horizon, calendars: engineCalendars)
    Benchmark(
        "Engine: timeline and level-4 scan alone, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100).checked
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let timeline = try Timeline.build(engineLedger, today: today, horizon: horizon, calendars: engineCalendars)
            blackHole(try Availability(timeline, level: 4))
        }
    }

    // The exact answer of issue 50 on the same timeline: level 4 split into its pool and its
    // card (what can-spend builds), one question today and one `when`, against the level-4 scan
    // above without the card's constraint (the timeline is built once, outside the measurement).
    let engineTimeline = try! Timeline.build(engineLedger, today: today, horizon: horizon, calendars: engineCalendars)
    Benchmark(
        "Exact answer: level 4 split into its pool and its card, can-spend and when, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100).checked
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let availability = try Availability(engineTimeline, level: 4, cards: engineLedger.cards, defaultAccountID: engineLedger.defaultAccountID)
            blackHole(availability.canSpend(on: today))
            blackHole(availability.firstDay(toSpend: 100_000_00))
        }
    }
    Benchmark(
        "Exact answer: the level-4 scan without the split, can-spend and when, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let availability = try Availability(engineTimeline, level: 4)
            blackHole(availability.canSpend(on: today))
            blackHole(availability.firstDay(toSpend: 100_000_00))
        }
    }
    // The same card paid back by a 5 % minimum (floor 500.00) at 24 %: each question searches
    // its part by running its cycles again (`SplitAvailability.bestRepaid`). The repayments'
    // inputs are built outside the measurement, as the timeline is.
    var revolving = sample
    for index in revolving.cards.indices {
        revolving.cards[index].terms.payback = .minimum(percent: Rate(perMillion: 50_000), floor: 50_000)
        revolving.cards[index].terms.rate = Rate(perMillion: 240_000)
    }
    // Seen from 2025-06-01, when the pool is not short (on 2025-01-01 it is, and nothing is searched).
    let later = try! Day(iso: "2025-06-01")
    let laterHorizon = later.addingMonths(12 * 30)
    let revolvingLedger = try! revolving.forecastLedger(today: later, horizon: laterHorizon, calendars: engineCalendars)
    let revolvingTimeline = try! Timeline.build(revolvingLedger, today: later, horizon: laterHorizon, calendars: engineCalendars)
    let repayments = revolvingLedger.cardRepayments(today: later, horizon: laterHorizon, calendars: engineCalendars, .pessimistic)
    Benchmark(
        "Exact answer: level 4 with a card paid over time, can-spend and when, 1000 rules x 30 years",
        configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100).checked
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let availability = try Availability(
                revolvingTimeline, level: 4, cards: revolvingLedger.cards, defaultAccountID: revolvingLedger.defaultAccountID,
                repayments: repayments)
            blackHole(availability.canSpend(on: later))
            // More than today's answer (2 316 399.00): the days ahead are searched.
            blackHole(availability.firstDay(toSpend: 2_500_000_00))
        }
    }

    for count in [100_000, 1_000_000] {
        let database = NSTemporaryDirectory() + "capital-bench-\(count).sqlite"
        let loaded = try! postedTransactions(count, at: database, currency: rub)
        Benchmark(
            "SQLite: snapshot of \(count) posted transactions", configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 10)
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try loaded.snapshot()) }
        }
        guard count == 1_000_000 else { continue }
        // Issue 20: what answers read of a long history, and what a write costs with the
        // checkpoints kept. The history spans the ten years before `today`, about 270 a day,
        // written in day order as daily use and bank imports write it (the database above spreads
        // each day's transactions over the whole file, which makes a month's read random).
        let history = try! postedTransactions(
            count, at: NSTemporaryDirectory() + "capital-bench-history-\(count).sqlite", currency: rub, inDayOrder: true)
        Benchmark(
            "History: opening balances from checkpoints and last month listed, 1000000 posted transactions",
            configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 100).checked
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try history.snapshot(asOf: [today])) }
        }
        Benchmark(
            "History: a spend with its checkpoint kept, on 1000000 posted transactions",
            configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 200).checked
        ) { benchmark in
            let input = TransactionInput(
                day: today.advanced(by: -20), payee: "benchmark",
                postings: [PostingInput(account: "Cash", amount: "-1", field: "from"), PostingInput(account: "Groceries", amount: nil, field: "to")])
            for _ in benchmark.scaledIterations { blackHole(try history.addTransaction(input)) }
        }
        Benchmark(
            "History: stats of the last 12 months, 1000000 posted transactions",
            configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5), maxIterations: 30).checked
        ) { benchmark in
            let range = DayRange(through: today, from: today.startOfMonth.addingMonths(-11))
            for _ in benchmark.scaledIterations {
                blackHole(try history.snapshot(asOf: [range.start, today]).statistics(range, today: today))
            }
        }
    }

    // The lower bound: every occurrence posting to the horizon as one addition at its place, then
    // a running sum and minimum over the days of the level's accounts.
    let days = horizon.number - today.number + 1
    let accounts = sample.accounts.count
    var places: [Int32] = []
    var amounts: [Int64] = []
    let index = Dictionary(uniqueKeysWithValues: sample.accounts.enumerated().map { ($1.id, $0) })
    let calendars = ["RU": try! store.calendar("RU")]
    for schedule in sample.schedules {
        for occurrence in schedule.occurrences(in: DayRange(today, horizon.advanced(by: 1)), calendar: calendars[schedule.rule.calendar] ?? .none) {
            for posting in occurrence.postings {
                places.append(Int32(index[posting.accountID]! * days + occurrence.day.number - today.number))
                amounts.append(posting.amount.minor)
            }
        }
    }
    let level = sample.accounts.enumerated().filter { [.cash, .debit, .creditCard].contains($1.kind) }.map(\.offset)
    Benchmark(
        "Lower bound: \(places.count) additions into accounts x days and a running minimum (1000 rules x 30 years)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(3))
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var deltas = [Int64](repeating: 0, count: accounts * days)
            for i in places.indices { deltas[Int(places[i])] &+= amounts[i] }
            var balance: Int64 = 0
            var lowest = Int64.max
            for day in 0..<days {
                for account in level { balance &+= deltas[account * days + day] }
                lowest = min(lowest, balance)
            }
            blackHole(lowest)
        }
    }
}

/// A database with `count` posted transactions of two postings each over the accounts of a small
/// sample ledger, made once with plain inserts and reused: over the ten years before the sample's
/// start, each day's spread over the file (a day every 3 650 rows) or, `inDayOrder`, one day after
/// another.
private func postedTransactions(_ count: Int, at path: String, currency: Currency, inDayOrder: Bool = false) throws -> Store {
    if FileManager.default.fileExists(atPath: path), let store = try? Store.open(path: path),
        let found = try? DatabaseQueue(path: path).read({ try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM txn") ?? 0 }), found >= count
    {
        return store
    }
    try? FileManager.default.removeItem(atPath: path)
    let store = try Store.open(path: path)
    let small = try SampleLedger.generate(rules: 10, years: 1, currency: currency)
    _ = try store.importDocument(
        try LedgerFile.parse(LedgerFile.write(small, defaultAccountID: small.defaultAccountID, format: .yaml), file: "small.yaml"))
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
        let accounts = try String.fetchAll(db, sql: "SELECT id FROM account WHERE kind IN ('debit', 'cash')")
        let categories = try String.fetchAll(db, sql: "SELECT id FROM account WHERE kind = 'expense'")
        let txn = try db.makeStatement(
            sql:
                "INSERT INTO txn(id, createdAt, updatedAt, day, seq, payee) VALUES (?, '2025-01-01 00:00:00.000', '2025-01-01 00:00:00.000', ?, ?, ?)"
        )
        let posting = try db.makeStatement(
            sql: "INSERT INTO posting(id, txnId, accountId, position, amountMinor, currency) VALUES (?, ?, ?, ?, ?, ?)")
        let first = SampleLedger.defaultStart.number - 3_650
        for n in 0..<count {
            let id = String(format: "00000000-0000-4000-8000-%012x", n)
            let minor = Int64(100 + n % 100_000)
            try txn.execute(arguments: [id, first + (inDayOrder ? n * 3_650 / count : n % 3_650), 1_000 + n, "Shop \(n % 50)"])
            try posting.execute(arguments: [id + "a", id, categories[n % categories.count], 0, minor, currency.code])
            try posting.execute(arguments: [id + "b", id, accounts[n % accounts.count], 1, -minor, currency.code])
        }
    }
    return store
}
