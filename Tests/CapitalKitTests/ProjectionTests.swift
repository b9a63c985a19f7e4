import CapitalCore
import CapitalKit
import CapitalStore
import Foundation
import Testing

/// The use cases over the sample household, checked against brute force built from the
/// timeline's per-account balances and the ledger's own accounts, not from `Pool` or
/// `Availability`.
@Suite("CapitalKit: projection, pools and answers")
struct ProjectionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let today = try! Day(iso: "2025-04-01")

    /// The household opened over a year from 2025-04-01.
    static let projection: Projection = {
        let store = try! Store.load(try! LedgerFile.read(path: root.appendingPathComponent("samples/household.yaml").path))
        return try! Projection(store: store, today: today, horizon: { try HorizonRequest(until: "2026-03").lastDay(today: $0) })
    }()

    /// A level's balance less its floor, day by day, summed by hand over the accounts the ladder
    /// includes (the sample's dollar savings and euro card by their valued series); `without` the
    /// accounts named (the pool of levels 4–6 is the level less its card).
    static func bruteHeadroom(level: Int, _ forecastCase: ForecastCase, without excluded: Set<String> = []) -> [Int64] {
        let timeline = projection.timeline
        var headroom = [Int64](repeating: 0, count: timeline.dayCount)
        for (index, account) in timeline.accounts.enumerated() where Ladder.includes(account, in: level) && !excluded.contains(account.name) {
            let series =
                account.currency == timeline.currency
                ? Array(timeline.balances(ofAccountAt: index, forecastCase)) : try! timeline.value(ofAccountAt: index, forecastCase)
            for (day, balance) in series.enumerated() { headroom[day] += balance }
            for day in headroom.indices { headroom[day] -= account.floor ?? 0 }
        }
        return headroom
    }

    /// The sample's card, worked by hand: Tinkoff Card, limit 150 000, statements on the 25th, due
    /// 20 days later from VTB Debit. Its room (balance + limit) day by day, and the day index a
    /// purchase on day index `offset` is paid back: the 25th on or after it, plus 20 days.
    static func card(_ forecastCase: ForecastCase) -> (room: [Int64], payback: (Int) -> Int) {
        let timeline = projection.timeline
        let index = timeline.accounts.firstIndex { $0.name == "Tinkoff Card" }!
        let room = timeline.balances(ofAccountAt: index, forecastCase).map { $0 + 15_000_000 }
        let payback = { (offset: Int) -> Int in
            var day = projection.today.advanced(by: offset)
            while day.civil.day != 25 { day = day.advanced(by: 1) }
            return day.advanced(by: 20).number - projection.today.number
        }
        return (room, payback)
    }

    /// The best split on day index `offset` by brute force: every card part on a coarse grid (a
    /// thousandth of the card's room), the most the pool can add to each (its lowest room before
    /// the payback, and after it less the card part), then every minor unit around the best.
    static func bruteSplit(pool: [Int64], card: (room: [Int64], payback: (Int) -> Int), at offset: Int) -> (total: Int64, pool: Int64, card: Int64) {
        let payback = card.payback(offset)
        let before = pool[offset..<min(payback, pool.count)].min() ?? .max
        let after = pool[min(payback, pool.count - 1)...].min()!
        guard min(before, after) >= 0 else { return (0, 0, 0) }
        let room = max(0, card.room[offset..<min(payback, pool.count)].min()!)
        func total(_ x1: Int64) -> (Int64, Int64)? {
            let x0 = min(before, after - x1)
            return x0 >= 0 ? (x0 + x1, x0) : nil
        }
        let step = max(1, room / 1_000)
        var best: (total: Int64, pool: Int64, card: Int64) = (0, 0, 0)
        func consider(_ x1: Int64) {
            guard x1 >= 0 && x1 <= room, let (sum, x0) = total(x1) else { return }
            if sum > best.total || (sum == best.total && x0 < best.pool) { best = (sum, x0, x1) }
        }
        for x1 in stride(from: 0, through: room, by: Int(step)) { consider(x1) }
        consider(room)
        let coarse = best.card
        for x1 in (coarse - step)...(coarse + step) { consider(x1) }
        return best
    }

    @Test(
        "can-spend at every level and every tenth day: levels 1–3 that day's headroom; 4–6 the best split of the pool and the card, by brute force",
        arguments: [ForecastCase.pessimistic, .expected])
    func canSpendIsTheBruteForceMinimum(forecastCase: ForecastCase) throws {
        let projection = Self.projection
        let card = Self.card(forecastCase)
        for level in Ladder.levels {
            let forecast = Ladder.isForecast(level)
            let headroom = Self.bruteHeadroom(level: level, forecastCase, without: forecast ? ["Tinkoff Card"] : [])
            for offset in stride(from: 0, to: headroom.count, by: 10) {
                let day = projection.today.advanced(by: offset)
                let answers = try projection.canSpend(on: day, levels: [level], why: false, forecastCase)
                let answer = try #require(answers.first).answer
                guard forecast else {
                    #expect(answer.amount == max(0, headroom[offset]) && answer.shortfall == max(0, -headroom[offset]), "level \(level) on \(day)")
                    #expect(answer.bindingDay == day && answer.parts.isEmpty)
                    continue
                }
                let best = Self.bruteSplit(pool: headroom, card: card, at: offset)
                #expect(answer.amount == best.total, "level \(level) on \(day): \(answer) vs \(best)")
                #expect(answer.parts.map(\.amount) == [best.pool, best.card], "level \(level) on \(day): \(answer.parts) vs \(best)")
                let lowest = headroom[offset...].min()!
                #expect(answer.shortfall == max(0, -lowest), "level \(level) on \(day)")
                let binding = answer.bindingDay.number - projection.today.number
                let floor = try projection.availability(level: level, forecastCase).floor
                #expect(binding >= offset && headroom[binding] == answer.bindingBalance - floor, "level \(level) on \(day)")
            }
        }
    }

    @Test("the why's drivers are outflows up to the binding day, largest first, and the relief the first inflow after it")
    func whyDriversAndRelief() throws {
        let projection = Self.projection
        let answer = try #require(try projection.canSpend(on: projection.today, levels: [4], why: true, .pessimistic).first)
        let why = try #require(answer.why)
        #expect(!why.countsThatDayOnly)
        #expect(why.drivers.count <= 3 && !why.drivers.isEmpty)
        #expect(why.drivers.allSatisfy { $0.amount < 0 && $0.day <= answer.answer.bindingDay && $0.day >= projection.today })
        #expect(zip(why.drivers, why.drivers.dropFirst()).allSatisfy { $0.amount <= $1.amount })
        if let relief = why.relief { #expect(relief.amount > 0 && relief.day > answer.answer.bindingDay) }
        let cash = try #require(try projection.canSpend(on: projection.today, levels: [1], why: true, .pessimistic).first)
        #expect(cash.why?.countsThatDayOnly == true && cash.why?.drivers == [])
    }

    @Test("when is the first day from which every later day's best split covers the amount, by linear search")
    func whenIsTheFirstDayThatStaysAffordable() throws {
        let projection = Self.projection
        let headroom = Self.bruteHeadroom(level: 4, .pessimistic, without: ["Tinkoff Card"])
        let card = Self.card(.pessimistic)
        let answers = headroom.indices.map { Self.bruteSplit(pool: headroom, card: card, at: $0).total }
        for roubles: Int64 in [1, 100, 50_000, 300_000, 1_000_000, 100_000_000] {
            let amount = roubles * 100
            let answer = try projection.when(String(roubles), level: 4, .pessimistic)
            let lastBelow = answers.indices.last { answers[$0] < amount }
            let expected: Int? = lastBelow.map { $0 + 1 < answers.count ? $0 + 1 : -1 } ?? 0
            #expect(answer.day.map { $0.number - projection.today.number } ?? -1 == expected, "amount \(amount)")
            if answer.day == nil { #expect(answer.shortfall == amount - answers.last!) } else { #expect(answer.shortfall == 0) }
        }
    }

    @Test("forecast periods chain opening to the last closing, and each minimum is the period's lowest day", arguments: ForecastPeriodLength.allCases)
    func forecastPeriodsAgreeWithTheBalances(period: ForecastPeriodLength) throws {
        let projection = Self.projection
        let pool = try projection.pool(account: nil, group: "Everyday money", level: nil)
        let report = try projection.forecast(pool, by: period, .pessimistic)
        #expect(report.periods.first?.start == projection.today && report.periods.last?.end == projection.horizon)
        for (previous, next) in zip(report.periods, report.periods.dropFirst()) {
            #expect(next.opening == previous.closing && next.start == previous.end.advanced(by: 1))
        }
        for item in report.periods {
            let range = (item.start.number - projection.today.number)...(item.end.number - projection.today.number)
            #expect(item.closing == report.balances[range.upperBound])
            #expect(item.minimum == report.balances[range].min() && report.balances[item.minimumDay.number - projection.today.number] == item.minimum)
        }
    }

    @Test("every transaction the forecast generated has a typed origin naming an instrument of the ledger; recorded ones have none")
    func generatedFlowsHaveTypedOrigins() throws {
        let projection = Self.projection
        let stored = projection.stored
        let recorded = Set(stored.transactions.map(\.id))
        var kinds: Set<String> = []
        for transaction in projection.ledger.transactions {
            let origin = projection.ledger.origin(of: transaction)
            if recorded.contains(transaction.id) {
                #expect(origin == nil, "\(transaction.id)")
                continue
            }
            switch try #require(origin, "\(transaction.id) \(transaction.payee)") {
            case .loan(let id): #expect(stored.loans.contains { $0.id == id }); kinds.insert("loan")
            case .valueChange(let id): #expect(stored.accounts.contains { $0.id == id && $0.valueChange != nil }); kinds.insert("value")
            case .deposit(let id): #expect(stored.deposits.contains { $0.id == id }); kinds.insert("deposit")
            case .card(let id): #expect(stored.cards.contains { $0.id == id }); kinds.insert("card")
            case .due(let id): #expect(stored.dues.contains { $0.id == id }); kinds.insert("due")
            case .budget(let id): #expect(stored.budgets.contains { $0.id == id }); kinds.insert("budget")
            }
        }
        // The sample household has every kind but budgets.
        #expect(kinds.isSuperset(of: ["loan", "value", "deposit", "card", "due"]), "\(kinds)")
    }

    @Test("a group pool is its balance-sheet members in the ledger's currency, with their floors")
    func groupPoolHoldsItsMembers() throws {
        let projection = Self.projection
        let pool = try projection.pool(group: "Everyday money")
        let names = Set(pool.indices.map { projection.timeline.accounts[$0].name })
        #expect(names == ["VTB Debit", "Cash"])
        let floors = projection.stored.accounts.filter { names.contains($0.name) }.compactMap(\.floor).reduce(0, +)
        #expect(pool.floor == floors && pool.title == "group Everyday money")
    }

    @Test("refusals name the field by key, never a flag")
    func refusalsNameTheField() throws {
        let projection = Self.projection
        #expect(throws: KitError.invalid(.level, value: "7", reason: "the answer ladder has levels 1 (cash) to 6 (net)")) {
            try projection.pool(level: 7)
        }
        #expect(
            throws: KitError.invalid(.account, value: "Groceries", reason: "it is an expense account; forecasts follow balance-sheet accounts")
        ) { try projection.pool(account: "Groceries", for: .forecast, field: .account) }
        #expect(
            throws: KitError.invalid(.group, value: "Children", reason: "it is a profit-and-loss group; forecasts follow balance-sheet accounts")
        ) { try projection.pool(group: "Children") }
        #expect(throws: KitError.invalid(.level, value: "4", reason: "", remedy: .oneOf([.account, .group, .level]))) {
            try projection.pool(account: "Cash", group: nil, level: 4)
        }
        #expect(throws: KitError.invalid(.on, value: "2026-04-01", reason: "is after the horizon 2026-03-31", remedy: .laterHorizon)) {
            try projection.canSpend(on: try Day(iso: "2026-04-01"), levels: [4], why: false, .pessimistic)
        }
        #expect(throws: KitError.invalid(.amount, value: "-5", reason: "must be more than zero")) {
            try projection.when("-5", level: 4, .pessimistic)
        }
    }

    @Test("posting stops at today: a later day is refused before anything is read or written; up to today it posts what is due")
    func postingIsUpToToday() throws {
        let store = try Store.inMemory()
        try store.importDocument(try LedgerFile.read(path: Self.root.appendingPathComponent("samples/household.yaml").path))
        let before = try store.snapshot().transactions.count
        #expect(throws: KitError.invalid(.until, value: "2025-04-02", reason: "is after today 2025-04-01: only what is due can be posted")) {
            try store.postDue(through: try Day(iso: "2025-04-02"), today: Self.today, approvals: [], dryRun: false)
        }
        #expect(try store.snapshot().transactions.count == before)
        // A dry run up to today lists what is due and changes nothing; the run posts exactly that.
        let dry = try store.postDue(through: nil, today: Self.today, approvals: [], dryRun: true)
        #expect(try store.snapshot().transactions.count == before)
        let posted = try store.postDue(through: nil, today: Self.today, approvals: [], dryRun: false)
        #expect(posted.posted.count == dry.posted.count && !dry.posted.isEmpty, "\(dry.posted.count) due")
        #expect(try store.snapshot().transactions.count == before + posted.posted.count)
        #expect(try store.postDue(through: nil, today: Self.today, approvals: [], dryRun: false).posted.isEmpty)
    }

    @Test("the journal export names its horizon by key and reads the ledger's calendars")
    func journalExport() throws {
        let store = try Store.load(try LedgerFile.read(path: Self.root.appendingPathComponent("samples/household.yaml").path))
        let text = try store.journal(today: Self.today, horizon: HorizonRequest(until: "2025-06")) { last in ["to \(last)"] }
        #expect(text.hasPrefix("; to 2025-06-30"))
        #expect(text.contains("~ "))
        #expect(throws: KitError.self) { try store.journal(today: Self.today, horizon: HorizonRequest(until: "2025-01")) { _ in [] } }
    }

    @Test("a horizon request: +N from today, a month for its last day, one of until and days, never before today")
    func horizonRequests() throws {
        let today = Self.today
        #expect(try HorizonRequest().lastDay(today: today) == today.addingMonths(12))
        #expect(try HorizonRequest(until: "+90d").lastDay(today: today) == today.advanced(by: 90))
        #expect(try HorizonRequest(until: "+6w").lastDay(today: today) == today.advanced(by: 42))
        #expect(try HorizonRequest(until: "+18m").lastDay(today: today) == today.addingMonths(18))
        #expect(try HorizonRequest(until: "+30y").lastDay(today: today) == today.addingMonths(360))
        #expect(try HorizonRequest(until: "2025-06").lastDay(today: today) == (try Day(iso: "2025-06-30")))
        #expect(try HorizonRequest(days: 1).lastDay(today: today) == today.advanced(by: 1))
        #expect(throws: KitError.invalid(.days, value: "5", reason: "", remedy: .oneOf([.until, .days]))) {
            try HorizonRequest(until: "2025-06", days: 5).lastDay(today: today)
        }
        #expect(throws: KitError.invalid(.until, value: "2025-03-31", reason: "is before today 2025-04-01")) {
            try HorizonRequest(until: "2025-03-31").lastDay(today: today)
        }
        #expect(throws: KitError.invalid(.until, value: "+101y", reason: "looks further than 100 years")) {
            try HorizonRequest(until: "+101y").lastDay(today: today)
        }
        #expect(throws: KitError.invalid(.days, value: "0", reason: "must be at least 1")) { try HorizonRequest(days: 0).lastDay(today: today) }
    }

    @Test("a budget month: today's period by default, a past month's last day, a later month's first day; YYYY-MM only")
    func budgetRequests() throws {
        let today = Self.today
        #expect(try BudgetRequest().day(today: today) == today)
        #expect(try BudgetRequest(month: "2025-02").day(today: today) == (try Day(iso: "2025-02-28")))
        #expect(try BudgetRequest(month: "2025-04").day(today: today) == today)
        #expect(try BudgetRequest(month: "2025-06").day(today: today) == (try Day(iso: "2025-06-01")))
        #expect(throws: KitError.invalid(.month, value: "2025", reason: "expected a month, YYYY-MM")) {
            try BudgetRequest(month: "2025").day(today: today)
        }
        #expect(throws: KitError.self) { try BudgetRequest(month: "2025-13").day(today: today) }
    }

    @Test("statistics: a year of whole months to today by default; a month for its first or last day; never from after to")
    func statisticsRequests() throws {
        let today = Self.today  // 2025-04-01
        #expect(try StatisticsRequest().range(today: today) == DayRange(through: today, from: try Day(iso: "2024-05-01")))
        #expect(
            try StatisticsRequest(from: "2025-01", to: "2025-03").range(today: today)
                == DayRange(through: try Day(iso: "2025-03-31"), from: try Day(iso: "2025-01-01")))
        #expect(throws: KitError.invalid(.from, value: "2025-05", reason: "is after {to} 2025-04-01 (today)")) {
            try StatisticsRequest(from: "2025-05").range(today: today)
        }
        #expect(KitError.invalid(.from, value: "2025-05", reason: "is after {to} 2025-04-01").description == "from '2025-05': is after to 2025-04-01")
        #expect(throws: KitError.self) { try StatisticsRequest(to: "2025-13").range(today: today) }
    }

    @Test("a scenario file is read in batches in file order, every row with its line; a missing file names the file")
    func scenarioFilesAreReadInOrder() throws {
        let path = Self.root.appendingPathComponent("samples/cars.csv").path
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.dropFirst()
        var rows: [ScenarioRow] = []
        try ScenarioSource(path: path, exponent: 2).forEachBatch(size: 2) { batch, _ in rows += batch }
        #expect(rows.count == lines.count)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.line < $1.line })
        #expect(rows.allSatisfy { (try? $0.scenario.get()) != nil })
        #expect(throws: KitError.invalid(.scenarioFile, value: "/nowhere.csv", reason: "no such file")) {
            try ScenarioSource(path: "/nowhere.csv", exponent: 2).forEachBatch(size: 10) { _, _ in }
        }
    }

    @Test("a batch keeps input order across batches, gives each refused row its file column, and evaluates the rest as one by one")
    func scenarioBatchesKeepOrderAndNameColumns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("plans.csv").path
        try """
        name,price,date,down,loan_rate,loan_term
        cheap,1000,2025-05-01,,,
        bad price,abc,2025-05-01,,,
        loan,500000,2025-06-01,100000,12,0
        dear,90000000,2025-07-01,,,
        later,2000,2025-08-01,,,

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let basis = try Self.projection.scenarioBasis(level: nil, from: nil, .pessimistic)
        var outcomes: [ScenarioOutcome] = []
        var counts: [Int] = []
        var read: [Int] = []
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let summary = try basis.evaluate(ScenarioSource(path: path, exponent: 2), earliest: false, batchSize: 2) { batch, progress in
            outcomes += batch
            counts.append(progress.evaluated)
            read.append(progress.bytesRead)
            #expect(progress.bytes == size)
        }
        #expect(read.last == size)
        #expect(outcomes.map(\.row.name) == ["cheap", "bad price", "loan", "dear", "later"])
        #expect(counts.last == 5 && zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 })
        #expect(summary.total == 5 && summary.failed == 2)
        #expect(summary.firstFailure?.contains("price") == true)
        let refused = try #require(outcomes[2].result.failureText)
        #expect(refused.hasPrefix("line 4: loan_term '0'"), "\(refused)")
        // Each evaluated row is what the evaluator says of that scenario alone.
        for outcome in outcomes {
            guard case .success(let result) = outcome.result else { continue }
            let alone = basis.evaluator.evaluate([try outcome.row.scenario.get()], earliest: false, threads: 1)
            #expect(try alone[0].get() == result)
        }
        #expect(try outcomes[3].result.get().feasible == false)
        #expect(try outcomes[0].result.get().feasible == true)
    }

    @Test("a transaction query keeps what a hand-written check over every transaction keeps")
    func transactionQueries() throws {
        let store = Self.projection.store
        let ledger = Self.projection.stored
        let groceries = try #require(ledger.accounts.first { $0.name == "Groceries" })
        var query = TransactionQuery()
        (query.from, query.to, query.categories, query.min) = ("2025-01", "2025-03", ["groceries"], "1000")
        let found = try store.transactions(matching: query).transactions
        let first = try Day(iso: "2025-01-01")
        let last = try Day(iso: "2025-03-31")
        let expected = ledger.transactions.filter { t in
            t.day >= first && t.day <= last && t.postings.contains { $0.accountID == groceries.id } && t.amount >= 100_000
        }
        #expect(!expected.isEmpty)
        #expect(found.map(\.id) == expected.map(\.id))
        query = TransactionQuery()
        query.kind = "income"
        #expect(
            try store.transactions(matching: query).transactions.allSatisfy {
                $0.postings.contains { p in ledger.accounts.first { $0.id == p.accountID }?.kind == .income }
            })
        query.kind = "mixed"
        #expect(throws: KitError.invalid(.kind, value: "mixed", reason: "expected income, expense or transfer")) {
            try store.transactions(matching: query)
        }
        query = TransactionQuery()
        (query.from, query.to) = ("2025-03-01", "2025-02")
        #expect(throws: KitError.invalid(.to, value: "2025-02", reason: "it is before {from} 2025-03-01")) { try store.transactions(matching: query) }
    }

    @Test("quick entries move one amount between the right kinds of account, or say which field is wrong")
    func quickEntries() throws {
        let store = try Store.inMemory()
        try store.initialize(currency: try Currency("RUB"))
        _ = try store.addAccount(name: "Bank", kind: .debit, currency: nil)
        _ = try store.addAccount(name: "Dollars", kind: .cash, currency: try Currency("USD"))
        let day = Self.today
        #expect(throws: KitError.missing(.from, reason: "no account given and no default account", remedy: .nameOrSetDefault(.from))) {
            try store.record(QuickEntry(.spend(category: "Groceries", from: nil), amount: "5", day: day))
        }
        #expect(
            throws: KitError.invalid(
                .category, value: "Bank", reason: "it is a debit account, not an expense category", remedy: .transferBetweenAccounts)
        ) { try store.record(QuickEntry(.spend(category: "Bank", from: "Bank"), amount: "5", day: day)) }
        #expect(throws: KitError.invalid(.to, value: "bank", reason: "it is the same account as {from}")) {
            try store.record(QuickEntry(.transfer(from: "Bank", to: "bank"), amount: "5", day: day))
        }
        #expect(throws: KitError.self) { try store.record(QuickEntry(.transfer(from: "Bank", to: "Dollars"), amount: "5", day: day)) }
        #expect(throws: KitError.invalid(.amount, value: "0", reason: "must be more than zero")) {
            try store.record(QuickEntry(.earn(category: "Salary", to: "Bank"), amount: "0", day: day))
        }
        #expect(try store.snapshot().transactions.isEmpty)
        var entry = QuickEntry(.earn(category: "Salary", to: "Bank"), amount: "1 500.25", day: day)
        entry.payee = "Employer"
        let (transaction, from, to, settled) = try store.record(entry)
        #expect(settled == nil, "no schedule or loan expects it")
        #expect(from.name == "Salary" && to.name == "Bank" && transaction.day == day && transaction.payee == "Employer")
        #expect(transaction.postings.map(\.amount.minor).sorted() == [-150_025, 150_025])
    }

    @Test("a schedule at a glance: its next day and a year's occurrences over twelve")
    func scheduleSummaries() throws {
        let (_, summaries) = try Self.projection.store.scheduleSummaries(today: Self.today)
        #expect(summaries.count == Self.projection.stored.schedules.count)
        // Salary Anna: 180 000.00 on the 10th, twelve times in the coming year.
        let salary = try #require(summaries.first { $0.schedule.name == "Salary Anna" })
        #expect(salary.next == (try Day(iso: "2025-04-10")))
        #expect(salary.monthly == 180_000_00)
        #expect(summaries.allSatisfy { $0.next.map { $0 >= Self.today } ?? true })
    }

    @Test("reminders come overdue first, then by day, each within the window")
    func remindersAreOrdered() throws {
        let projection = Self.projection
        let last = projection.today.advanced(by: 40)
        let items = projection.stored.reminders(today: projection.today, through: last, calendars: projection.window.calendars)
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0.day <= last && ($0.overdue == ($0.day < projection.today) || $0.kind == .card) })
        let keys = items.map { ($0.overdue ? 0 : 1, $0.day.number) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Set(items.map(\.kind.key)).isSuperset(of: ["loan"]))
    }
}

/// Errors are data and words are the front end's: no flag and no command advice in a string
/// below the command line (comments may name them).
@Suite("Below the front ends: no front-end words")
struct FrontEndWordsTests {
    @Test(
        "no string in CapitalCore, CapitalStore or CapitalKit names a flag (--until) or a command (`capital …`)",
        arguments: ["CapitalCore", "CapitalStore", "CapitalKit"])
    func noFlagsOrCommandsInStrings(module: String) throws {
        let folder = ProjectionTests.root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 5)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.range(of: #""[^"]*(--[a-z]|`capital )"#, options: .regularExpression) != nil {
                found.append("\(file):\(number + 1): \(line)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

extension Result where Failure == ScenarioRow.Failure {
    var failureText: String? { if case .failure(let failure) = self { failure.description } else { nil } }
}
