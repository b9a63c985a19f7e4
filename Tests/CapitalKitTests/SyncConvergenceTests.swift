import CapitalCore
import CapitalKit
import CapitalServer
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// The sync model tested as a property: devices working offline on one shared ledger — accounts,
/// multi-posting transactions, edits, deletes, schedules whose due occurrences two of them post —
/// with pushes and pages duplicated, reordered and lost, clocks skewed by up to ±4 minutes, and
/// a server that appends each change set once (`capital serve`'s log, `LedgerLog`, in memory).
/// After the network heals and everyone syncs to quiescence, every device holds the same ledger,
/// every transaction balances, every change set the server acknowledged is there, and
/// can-spend's answer and why are the same everywhere.
///
/// `CAPITAL_SYNC_SEEDS=10000 swift test --filter SyncConvergence` runs more seeds
/// (`Scripts/sync-seeds.sh`); a failure names its seed and the trace of operations.
@Suite struct SyncConvergenceTests {
    static let seeds: [UInt64] = {
        let count = ProcessInfo.processInfo.environment["CAPITAL_SYNC_SEEDS"].flatMap(Int.init) ?? 200
        let first = ProcessInfo.processInfo.environment["CAPITAL_SYNC_FIRST_SEED"].flatMap(UInt64.init) ?? 1
        return (0..<UInt64(count)).map { first + $0 } + (ProcessInfo.processInfo.environment["CAPITAL_SYNC_SEEDS"] == nil ? regressions : [])
    }()

    /// Seeds that once failed, kept with the first 200: 2128 (a record removed and renamed to a
    /// name another live record held was renamed before it was removed: UNIQUE failed on nameKey).
    static let regressions: [UInt64] = [2128]

    /// The shared ledger every device starts from: a rouble ledger with its categories, Cash and Card.
    static let base: (template: Store, sets: [ChangeSet]) = {
        var origin = try! Store.inMemory()
        origin.clock = { Simulation.start }
        try! origin.startSync()
        try! origin.initialize(currency: try! Currency("RUB"))
        try! origin.addAccount(name: "Cash", kind: .cash, currency: nil)
        try! origin.addAccount(name: "Card", kind: .debit, currency: nil)
        let sets = try! origin.pendingChangeSets(limit: .max)
        var template = try! Store.inMemory()
        template.clock = { Simulation.start }
        try! template.startSync()
        try! template.applyRemote(sets, cursor: Int64(sets.count))
        return (template, sets)
    }()

    @Test(arguments: seeds)
    func devicesConverge(seed: UInt64) throws {
        var simulation = try Simulation(seed: seed, devices: 8)
        defer {
            if let file = simulation.serverFile {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        do {
            try simulation.run(steps: 50)
            try simulation.heal()
        } catch {
            Issue.record("seed \(seed): \(error)\ntrace:\n\(simulation.trace.suffix(40).joined(separator: "\n"))")
            return
        }
        try simulation.check()
    }

}

struct Simulation {
    var random: SplitMix64
    let seed: UInt64
    var stores: [Store] = []
    var clocks: [Int64]  // each device's skew, milliseconds
    var online: [Bool]
    var acknowledged: Set<String> = []
    var trace: [String] = []
    /// The server's log, as `capital serve` keeps it: in memory, or for every tenth seed in a
    /// file, closed and opened again at random points (a restarted server).
    var server: LedgerLog
    let serverFile: String?
    let ledger: String
    static let today = try! Day(iso: "2025-03-10")
    static let start: Int64 = 1_741_600_000_000  // 2025-03-10T09:46:40Z
    /// Physical time, moved on by each step.
    var now: Int64 = Simulation.start

    init(seed: UInt64, devices: Int) throws {
        self.seed = seed
        random = SplitMix64(seed: seed)
        if seed % 10 == 0 {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("capital-sync-\(seed)-\(UUID().uuidString).sqlite").path
            serverFile = file
            server = try LedgerLog(path: file)
        } else {
            serverFile = nil
            server = try LedgerLog(path: ":memory:")
        }
        clocks = []
        online = Array(repeating: true, count: devices)
        let nowBox = NowBox()
        self.nowBox = nowBox
        for _ in 0..<devices {
            var store = try SyncConvergenceTests.base.template.inMemoryCopy()
            let skew = Int64(random.next() % 480_001) - 240_000
            clocks.append(skew)
            store.clock = { nowBox.value + skew }
            try store.renewDeviceIdentity()
            stores.append(store)
        }
        ledger = try server.createLedger(name: "home")
        _ = try server.append(SyncConvergenceTests.base.sets, to: ledger, now: Simulation.start)
        for set in SyncConvergenceTests.base.sets { acknowledged.insert(set.id) }
    }

    let nowBox: NowBox

    mutating func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { pick(100) < percent }

    mutating func run(steps: Int) throws {
        for step in 0..<steps {
            nowBox.value += Int64(pick(5_000))
            let device = pick(stores.count)
            if let serverFile, chance(3) {
                server = try LedgerLog(path: serverFile)
                trace.append("\(step): the server restarts")
            }
            switch pick(10) {
            case 0:
                online[device].toggle()
                trace.append("\(step): device \(device) \(online[device] ? "online" : "offline")")
            case 1, 2:
                if online[device] { try sync(device, faults: true) }
            default:
                try operate(device, step: step)
            }
        }
    }

    /// One random write on `device`; a write the store refuses (a name taken, an account with
    /// postings) is part of the trace and changes nothing.
    mutating func operate(_ device: Int, step: Int) throws {
        let store = stores[device]
        let accounts = try store.accounts().filter { $0.kind != .equity }
        let spendable = accounts.filter { $0.kind == .cash || $0.kind == .debit }
        let names = ["Wallet", "Jar", "Savings", "Card"]
        var line = "\(step): device \(device) "
        do {
            switch pick(9) {
            case 0:
                let name = names[pick(names.count)]
                line += "adds account \(name)"
                try store.addAccount(name: name, kind: .cash, currency: nil)
            case 1, 2, 3:
                guard !spendable.isEmpty else { return }
                let from = spendable[pick(spendable.count)]
                let other = accounts[pick(accounts.count)]
                let third = accounts[pick(accounts.count)]
                let amounts = [Int64(pick(500_00) + 1), Int64(pick(300_00) + 1)]
                var postings = [PostingInput(account: other.id, amount: Money(minor: amounts[0], currency: other.currency).plain, field: "p1")]
                if third.id != other.id {
                    postings.append(PostingInput(account: third.id, amount: Money(minor: amounts[1], currency: third.currency).plain, field: "p2"))
                }
                postings.append(PostingInput(account: from.id, amount: nil, field: "p3"))
                line += "adds a transaction \(from.name) → \(postings.count - 1) accounts"
                try store.addTransaction(
                    TransactionInput(day: Simulation.today.advanced(by: -pick(20)), payee: "p\(step)", postings: postings))
            case 4:
                let transactions = try store.snapshot().transactions
                guard !transactions.isEmpty else { return }
                let transaction = transactions[pick(transactions.count)]
                var changes = TransactionChanges()
                if chance(50) {
                    changes.payee = "edited \(step)"
                } else {
                    changes.postings = transaction.postings.map {
                        PostingInput(account: $0.accountID, amount: Money(minor: $0.amount.minor * 2, currency: $0.amount.currency).plain, field: "p")
                    }
                }
                line += "edits transaction \(transaction.id.prefix(8))"
                try store.editTransaction(transaction.id, changes)
            case 5:
                let transactions = try store.snapshot().transactions
                guard !transactions.isEmpty else { return }
                let transaction = transactions[pick(transactions.count)]
                line += "removes transaction \(transaction.id.prefix(8))"
                try store.removeTransaction(transaction.id)
            case 6:
                guard !accounts.isEmpty else { return }
                let account = accounts[pick(accounts.count)]
                if chance(50) {
                    var changes = AccountChanges()
                    changes.floor = .some(Int64(pick(100)) * 100_00)
                    line += "sets \(account.name)'s floor"
                    try store.editAccount(account.id, changes)
                } else {
                    line += "removes account \(account.name)"
                    try store.removeAccount(account.id, .plain)
                }
            case 7:
                switch pick(4) {
                case 0:
                    guard !spendable.isEmpty else { return }
                    var input = LoanInput(
                        account: "Loan \(pick(3))", payFrom: spendable[pick(spendable.count)].id, principal: "\(pick(90) + 10)000", rate: "12",
                        term: 12, start: try Day(iso: "2025-01-15"))
                    input.handledThrough = try Day(iso: "2025-01-15")
                    line += "adds loan \(input.account)"
                    try store.addLoan(input)
                case 1:
                    line += "sets the Groceries budget"
                    try store.setBudget(BudgetInput(category: "Groceries", amount: "\(pick(50) + 1)00", start: try Day(iso: "2025-03-01")))
                case 2:
                    line += "sets the rate of USD"
                    try store.setRate(RateInput(currency: "USD", day: Simulation.today.advanced(by: -pick(3)), rate: "9\(pick(10)).5"))
                default:
                    line += "adds a due"
                    try store.addDue(
                        DueInput(type: .bill, total: "\(pick(90) + 1)00", reason: "Bill \(step)", dueDay: Simulation.today.advanced(by: 9)))
                }
            default:
                if chance(50), !spendable.isEmpty {
                    var input = ScheduleInput(name: "Rent \(pick(3))", rule: "monthly on the 5th", start: try Day(iso: "2025-01-01"))
                    input.amount = "\(pick(50) + 1)000"
                    input.from = spendable[pick(spendable.count)].id
                    input.to = "Housing"
                    input.backfill = true
                    line += "adds schedule \(input.name)"
                    try store.addSchedule(input, today: Simulation.today)
                } else {
                    line += "posts what is due"
                    _ = try store.postDue(through: nil, today: Simulation.today, approvals: [], dryRun: false)
                }
            }
            trace.append(line)
        } catch let error as StoreError {
            trace.append(line + " — refused: \(error)")
        } catch let error as KitError {
            trace.append(line + " — refused: \(error)")
        }
    }

    /// Pushes `device`'s pending change sets, then pulls pages to the log's end; with `faults`,
    /// requests and answers are lost, repeated and pages applied out of order.
    mutating func sync(_ device: Int, faults: Bool) throws {
        let pageSize = faults ? 7 : 100
        let store = stores[device]
        let pending = try store.pendingChangeSets(limit: 50)
        if !pending.isEmpty && !(faults && chance(15)) {
            let sent = faults && chance(20) ? pending + pending.shuffled(using: &random) : pending
            let answers = try server.append(sent, to: ledger, now: nowBox.value)
            if !(faults && chance(15)) {  // the answer may be lost: the sets stay pending, sent again later
                for (set, seq) in zip(sent, answers) {
                    try store.acknowledge(set.id, serverSeq: seq)
                    acknowledged.insert(set.id)
                }
            }
        }
        var cursor = try store.syncCursor()
        while true {
            let page = try server.changes(of: ledger, after: cursor, limit: pageSize)
            if page.sets.isEmpty { break }
            if faults && chance(10) {
                trace.append("device \(device) lost a page after \(cursor)")
                break
            }
            let sets = faults && chance(20) ? page.sets.shuffled(using: &random) : page.sets
            try store.applyRemote(sets, cursor: page.last)
            if faults && chance(10) { try store.applyRemote(page.sets, cursor: page.last) }  // delivered twice
            cursor = page.last
        }
    }

    /// Every device online, syncing round after round until nothing is pending and every
    /// device has read the whole log (renames and kept accounts travel in a round of their own).
    mutating func heal() throws {
        for _ in 0..<10 {
            for device in stores.indices { try sync(device, faults: false) }
            let pending = try stores.map { try $0.pendingChangeSets(limit: 1).count }.reduce(0, +)
            let cursors = try stores.map { try $0.syncCursor() }
            if pending == 0, let head = try server.head(ledger), cursors.allSatisfy({ $0 == head }) { return }
        }
        let stuck = try stores.flatMap { try $0.pendingChangeSets(limit: 3) }.flatMap(\.changes).prefix(6)
            .map { "\($0.entity) \($0.record.prefix(8)) \($0.group) = \($0.value)" }
        Issue.record(
            "seed \(seed): no quiescence after 10 rounds; still changing:\n\(stuck.joined(separator: "\n"))\n\(trace.suffix(40).joined(separator: "\n"))"
        )
    }

    func check() throws {
        let context = "seed \(seed), trace:\n\(trace.suffix(60).joined(separator: "\n"))"
        let canonical = try stores.map { try $0.syncCanonical() }
        #expect(Set(canonical).count == 1, "\(context)")
        let tables = try stores.map { try $0.sharedTables() }
        #expect(Set(tables).count == 1, "\(context)")
        if Set(tables).count != 1, let dump = ProcessInfo.processInfo.environment["CAPITAL_SYNC_DUMP"] {
            for (index, text) in tables.enumerated() { try text.write(toFile: "\(dump)/\(seed)-\(index).txt", atomically: true, encoding: .utf8) }
            try trace.joined(separator: "\n").write(toFile: "\(dump)/\(seed)-trace.txt", atomically: true, encoding: .utf8)
            try canonical[0].write(toFile: "\(dump)/\(seed)-canonical.txt", atomically: true, encoding: .utf8)
        }
        let logged = Set(try server.changes(of: ledger, after: 0, limit: .max).sets.map(\.id))
        for id in acknowledged { #expect(logged.contains(id), "seed \(seed): acknowledged \(id) is not in the log") }
        for store in stores {
            let unbalanced = try store.read("test") { db in
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM (SELECT txnId, currency FROM posting JOIN txn ON txn.id = txnId AND txn.deleted = 0
                        GROUP BY txnId, currency HAVING SUM(amountMinor) != 0)
                        """) ?? -1
            }
            #expect(unbalanced == 0, "\(context)")
        }
        for store in stores {
            // `capital check` finds nothing: the tables agree with the shared state on every device,
            // foreign keys hold, every transaction balances, the checkpoints match the postings.
            let problems = try store.read("test") { db in
                var checker = Checker(db: db)
                try checker.run()
                return checker.problems.map(\.description)
            }
            #expect(problems.isEmpty, "\(context)\n\(problems.prefix(5))")
        }
        let answers = try stores.map { store -> String in
            let projection = try Projection(store: store, today: Simulation.today, horizon: { $0.advanced(by: 90) })
            let answer = try #require(try projection.canSpend(on: Simulation.today, levels: [4], why: true, .pessimistic).first)
            let drivers = answer.why?.drivers.map { "\($0.day) \($0.amount)" } ?? []
            return "\(answer.answer.amount) \(answer.answer.bindingDay) \(drivers)"
        }
        #expect(Set(answers).count == 1, "\(context)\n\(answers)")
    }
}

/// The simulation's physical time, shared by the devices' clocks.
final class NowBox: @unchecked Sendable {
    var value: Int64 = Simulation.start
}
