import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// A device of a shared ledger in the tests: an in-memory store whose clock the test sets.
final class Device: @unchecked Sendable {
    private let lock = NSLock()
    private var milliseconds: Int64
    private(set) var store: Store

    init(at milliseconds: Int64 = 1_750_000_000_000) throws {
        self.milliseconds = milliseconds
        store = try Store.inMemory()
        store.clock = { [unowned self] in lock.withLock { self.milliseconds } }
        try store.startSync()
    }

    /// A device holding what `template` holds (its id too: for devices that never meet).
    init(copying template: Device) throws {
        milliseconds = template.lock.withLock { template.milliseconds }
        store = try template.store.inMemoryCopy()
        store.clock = { [unowned self] in lock.withLock { self.milliseconds } }
    }

    /// Moves the device's clock by `milliseconds` (backwards too).
    func advance(_ milliseconds: Int64) { lock.withLock { self.milliseconds += milliseconds } }

    /// Applies every pending change set of `other`.
    func pull(from other: Device) throws {
        try store.applyRemote(try other.store.pendingChangeSets(limit: .max))
    }

    /// Marks every pending change set as appended by a server.
    func acknowledgeAll() throws {
        for set in try store.pendingChangeSets(limit: .max) { try store.acknowledge(set.id, serverSeq: set.deviceSeq) }
    }

    /// The shared tables as a person sees them, in an order independent of insertion.
    func tables() throws -> String { try store.sharedTables() }
}

/// The lines of `device`'s exported ledger, sorted: the same for two devices holding the same ledger.
func exportedLines(_ device: Device) throws -> [String] {
    try device.store.export(format: .yaml).split(separator: "\n").map(String.init).sorted()
}

@Suite struct SyncStoreTests {
    /// The columns of every table of the schema, read from SQLite.
    private func schema() throws -> [String: [String]] {
        let store = try Store.inMemory()
        return try store.read("test") { db in
            var tables: [String: [String]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                tables[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { $0["name"] as String }
            }
            return tables
        }
    }

    @Test func everyColumnOfEveryTableIsSharedOrSaidLocal() throws {
        var covered: [String: Set<String>] = [:]
        for entity in SyncSchema.entities {
            var columns = Set(entity.key + entity.local + entity.groups.flatMap(\.columns))
            if entity.softDelete { columns.insert("deleted") }
            covered[entity.table] = columns
            for child in entity.groups.compactMap(\.child) { covered[child.table] = Set([child.parent] + child.columns) }
        }
        for (table, columns) in try schema() where !SyncSchema.localTables.contains(table) {
            let known = try #require(covered[table], "table \(table) is neither shared (SyncSchema.entities) nor local (SyncSchema.localTables)")
            for column in columns {
                #expect(known.contains(column), "\(table).\(column) is in no group and not local: say how it syncs")
            }
        }
    }

    @Test func sharingALargeLedgerMakesSetsCutBetweenRecords() throws {
        var store = try Store.inMemory()
        store.clock = { 1_750_000_000_000 }
        try store.initialize(currency: try Currency("RUB"))
        try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        let day = try Day(iso: "2025-03-01")
        for index in 0..<1_000 {
            _ = try store.addTransaction(
                TransactionInput(
                    day: day, payee: "Shop \(index)",
                    postings: [
                        PostingInput(account: "Cash", amount: "-1", field: "p1"), PostingInput(account: "Groceries", amount: nil, field: "p2"),
                    ]))
        }
        try store.startSync()
        let sets = try store.pendingChangeSets(limit: .max)
        let changes = sets.flatMap(\.changes)
        #expect(sets.count >= 2 && sets.allSatisfy { $0.changes.count <= SyncCapture.maxChanges + 10 })
        #expect(sets.map(\.deviceSeq) == Array(1...Int64(sets.count)))
        // Each record's groups stay in one set, and the whole ledger is there once.
        var home: [String: Int] = [:]
        for (index, set) in sets.enumerated() {
            for change in set.changes {
                let key = change.entity + "/" + change.record
                #expect(home[key, default: index] == index, "\(key) split across sets")
                home[key] = index
            }
        }
        #expect(changes.filter { $0.entity == "txn" }.count == 3_000)
        let other = try Store.inMemory()
        try other.startSync()
        try other.applyRemote(sets, cursor: Int64(sets.count))
        #expect(try other.sharedTables() == store.sharedTables())
    }

    /// A push's own sets right after the cursor move it (a pull need not bring them back); a set
    /// of another device's between them keeps it where it is, to be pulled.
    @Test func acknowledgedSetsRightAfterTheCursorMoveIt() throws {
        let anna = try Device()
        try anna.store.initialize(currency: .rub)
        try anna.store.addAccount(name: "Cash", kind: .cash, currency: nil)
        let first = try anna.store.pendingBodies()
        #expect(first.count == 2)
        try anna.store.acknowledge(first.enumerated().map { ($1.id, Int64($0 + 1)) })
        #expect(try anna.store.syncCursor() == 2)
        #expect(try anna.store.pendingBodies().isEmpty)
        try anna.store.addAccount(name: "Card", kind: .cash, currency: nil)
        let second = try #require(anna.store.pendingBodies().first)
        try anna.store.acknowledge([(second.id, 4)])  // the server holds another device's set at 3
        #expect(try anna.store.syncCursor() == 2)
        // What a push sends is the log's JSON as it is.
        let push = try JSONDecoder().decode(SyncWire.Push.self, from: Data(SyncWire.Push.body(sets: first.map(\.body)).utf8))
        #expect(try push.sets.map { try $0.body } == first.map(\.body))
    }

    @Test func aWholeLedgerWrittenOnOneDeviceArrivesWholeOnAnother() throws {
        let anna = try Device()
        try anna.store.importDocument(Sample.household)
        try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        var changes = AccountChanges()
        changes.floor = .some(5_000_00)
        changes.note = "for the week"
        try anna.store.editAccount("Cash", changes)
        let phone = try Device()
        try phone.pull(from: anna)
        #expect(try phone.store.syncCanonical() == anna.store.syncCanonical())
        #expect(try phone.tables() == anna.tables())
        #expect(try phone.store.balancesByName() == anna.store.balancesByName())
        // The default account is the device's own; the order of a day's transactions is the order
        // each device wrote them in. Everything else of the exported ledger is the same.
        #expect(try phone.store.defaultAccount() == nil)
        #expect(try exportedLines(phone) == exportedLines(anna).filter { !$0.hasPrefix("defaultAccount:") })
    }
}

@Suite struct SyncMergeStoreTests {
    /// The change sets that make the shared ledger `pair` starts from.
    private static let base: [ChangeSet] = {
        let anna = try! Device()
        try! anna.store.initialize(currency: .rub)
        try! anna.store.addAccount(name: "Cash", kind: .cash, currency: nil)
        try! anna.store.addAccount(name: "Card", kind: .cash, currency: nil)
        return try! anna.store.pendingChangeSets()
    }()

    /// Two devices that share a ledger with the default categories and a Cash and a Card account.
    private func pair() throws -> (Device, Device) {
        let anna = try Device()
        try anna.store.applyRemote(Self.base)
        let ivan = try Device(at: 1_750_000_000_000 + 90_000)  // his clock runs 90 s ahead
        try ivan.store.applyRemote(Self.base)
        return (anna, ivan)
    }

    /// Exchanges pending change sets both ways until neither has any.
    private func exchange(_ devices: Device...) throws {
        for from in devices {
            for to in devices where to !== from { try to.pull(from: from) }
        }
        for device in devices { try device.acknowledgeAll() }
    }

    @Test func concurrentEditsOfOneGroupKeepTheLaterAndListTheLoser() throws {
        let (anna, ivan) = try pair()
        var annas = AccountChanges()
        annas.floor = .some(42_000_00)
        try anna.store.editAccount("Cash", annas)
        var ivans = AccountChanges()
        ivans.floor = .some(45_000_00)
        try ivan.store.editAccount("Cash", ivans)  // later: his clock is ahead
        try exchange(anna, ivan)
        #expect(try anna.store.account("Cash").floor == 45_000_00)
        #expect(try ivan.store.account("Cash").floor == 45_000_00)
        #expect(try anna.store.syncCanonical() == ivan.store.syncCanonical())
        let conflicts = try anna.store.syncConflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.group == "limits")
        #expect(conflicts.first?.lost.value.contains("4200000") == true)
        #expect(conflicts.first?.kept.value.contains("4500000") == true)
    }

    @Test func editsOfDifferentGroupsOfOneRecordBothSurvive() throws {
        let (anna, ivan) = try pair()
        var floor = AccountChanges()
        floor.floor = .some(1_000_00)
        try anna.store.editAccount("Cash", floor)
        var note = AccountChanges()
        note.note = "the kitchen drawer"
        try ivan.store.editAccount("Cash", note)
        try exchange(anna, ivan)
        for device in [anna, ivan] {
            let cash = try device.store.account("Cash")
            #expect(cash.floor == 1_000_00)
            #expect(cash.note == "the kitchen drawer")
        }
        #expect(try anna.store.syncConflicts().isEmpty)
        #expect(try ivan.store.syncConflicts().isEmpty)
    }

    @Test func twoAccountsOfOneNameMadeOfflineBecomeCashAndCashTwoEverywhere() throws {
        let (anna, ivan) = try pair()
        let annas = try anna.store.addAccount(name: "Wallet", kind: .cash, currency: nil)
        let ivans = try ivan.store.addAccount(name: "wallet", kind: .cash, currency: nil)  // later, other case
        try exchange(anna, ivan)
        try exchange(anna, ivan)  // the rename travels
        for device in [anna, ivan] {
            #expect(try device.store.account(annas.id).name == "Wallet")
            #expect(try device.store.account(ivans.id).name == "wallet (2)")
        }
        #expect(try anna.tables() == ivan.tables())
        #expect(try anna.store.syncCanonical() == ivan.store.syncCanonical())
    }

    @Test func twoBudgetsOfOneCategoryOrTwoRatesOfOneDayKeepTheEarlierEverywhere() throws {
        let (anna, ivan) = try pair()
        let day = try Day(iso: "2025-03-14")
        try anna.store.setBudget(BudgetInput(category: "Groceries", amount: "3000", start: day))
        try anna.store.setRate(RateInput(currency: "USD", day: day, rate: "92.5"))
        try ivan.store.setBudget(BudgetInput(category: "Groceries", amount: "4500", start: day))  // later: his clock is ahead
        try ivan.store.setRate(RateInput(currency: "USD", day: day, rate: "93.1"))
        try exchange(anna, ivan)
        try exchange(anna, ivan)  // the removal of the later travels
        for device in [anna, ivan] {
            #expect(try device.store.budgets().map(\.amount) == [3000_00])
            #expect(try device.store.rates().map { "\($0.value.coefficient)e-\($0.value.scale)" } == ["925e-1"])
        }
        #expect(try anna.tables() == ivan.tables())
    }

    /// Issue 51, item 13: budgets set and a day's transactions recorded on two devices list,
    /// export and answer in one order on both once synced: budgets by category name then id, a
    /// day's transactions by id. (Before, each device kept the order it wrote them in: the one
    /// device its own first, the other in order of arrival.)
    @Test func twoDevicesThatSyncedListExportAndAnswerInOneOrder() throws {
        let (anna, ivan) = try pair()
        let day = try Day(iso: "2025-03-01")
        try anna.store.setBudget(BudgetInput(category: "Transport", amount: "3000", start: day))
        try ivan.store.setBudget(BudgetInput(category: "Clothing", amount: "2000", start: day))
        try anna.store.setBudget(BudgetInput(category: "Groceries", amount: "9000", start: day))
        for payee in ["Market", "Bakery", "Kiosk"] { _ = try anna.store.add(on: "2025-03-02", payee: payee, [("Groceries", "100"), ("Cash", nil)]) }
        for payee in ["Taxi", "Metro"] { _ = try ivan.store.add(on: "2025-03-02", payee: payee, [("Transport", "50"), ("Card", nil)]) }
        try exchange(anna, ivan)
        try exchange(anna, ivan)
        func categories(_ device: Device) throws -> [String] { try device.store.budgets().map { try device.store.account($0.categoryID).name } }
        #expect(try categories(anna) == ["Clothing", "Groceries", "Transport"])
        #expect(try categories(ivan) == categories(anna))
        func exported(_ device: Device) throws -> String {
            try device.store.export(format: .yaml).split(separator: "\n").filter { !$0.hasPrefix("defaultAccount:") }.joined(separator: "\n")
        }
        #expect(try exported(anna) == exported(ivan))
        func ids(_ device: Device) throws -> [String] {
            var ids: [String] = []
            try device.store.walkTransactions(Store.TransactionRange()) { transaction in
                ids.append(transaction.id)
                return true
            }
            return ids
        }
        #expect(try ids(anna) == ids(ivan) && (try ids(anna)) == (try ids(anna)).sorted())
        let today = try Day(iso: "2025-03-10")
        let range = DayRange(try Day(iso: "2025-03-01"), try Day(iso: "2025-06-01"))
        #expect(try anna.store.expectedEntries(in: range, today: today) == ivan.store.expectedEntries(in: range, today: today))
    }

    @Test func twoDuesNumberedAlikeOfflineGetTwoNumbers() throws {
        let (anna, ivan) = try pair()
        let day = try Day(iso: "2025-04-10")
        let water = try anna.store.addDue(DueInput(type: .bill, total: "1000", reason: "Water", dueDay: day))
        let phone = try ivan.store.addDue(DueInput(type: .bill, total: "500", reason: "Phone", dueDay: day))
        #expect(water.number == phone.number)
        try exchange(anna, ivan)
        try exchange(anna, ivan)
        for device in [anna, ivan] {
            let numbers = try device.store.dues().map { "\($0.number) \($0.reason)" }.sorted()
            #expect(numbers == ["\(water.number) Water", "\(water.number + 1) Phone"])
        }
        #expect(try anna.tables() == ivan.tables())
    }

    @Test func aTransactionPostedToAnAccountRemovedElsewhereKeepsItsPostings() throws {
        let (anna, ivan) = try pair()
        try anna.store.removeAccount("Card", .plain)  // no postings on her device
        try ivan.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Card", nil)])
        try exchange(anna, ivan)
        try exchange(anna, ivan)  // the card kept, closed, travels
        #expect(try anna.tables() == ivan.tables())
        for device in [anna, ivan] {
            let card = try device.store.account("Card")
            #expect(card.hidden)
            let balances = try device.store.balancesByName()
            #expect(balances["Card"] == -350_00)
            #expect(balances["Groceries"] == 350_00)
        }
    }

    @Test func applyingTheSameChangeSetsTwiceEqualsOnce() throws {
        let (anna, ivan) = try pair()
        try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        let sets = try anna.store.pendingChangeSets()
        try ivan.store.applyRemote(sets)
        let once = try ivan.tables()
        let report = try ivan.store.applyRemote(sets + sets)
        #expect(report.taken == 0)
        #expect(try ivan.tables() == once)
        #expect(try ivan.store.pendingChangeSets().isEmpty)
    }

    @Test func everyOrderOfSixChangeSetsGivesTheSameLedger() throws {
        let (anna, ivan) = try pair()
        let card = try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Card", nil)])
        var floor = AccountChanges()
        floor.floor = .some(100_00)
        try anna.store.editAccount("Cash", floor)
        var payee = TransactionChanges()
        payee.payee = "Bakery on the corner"
        try anna.store.editTransaction(card.id, payee)
        try ivan.store.add(on: "2025-03-03", payee: "Fuel", [("Cash", "-2000"), ("Groceries", nil)])
        var ivansFloor = AccountChanges()
        ivansFloor.floor = .some(300_00)
        try ivan.store.editAccount("Cash", ivansFloor)
        try ivan.store.addAccount(name: "Savings", kind: .cash, currency: nil)
        let sets = try anna.store.pendingChangeSets() + ivan.store.pendingChangeSets()
        #expect(sets.count == 6)
        var results: Set<String> = []
        let template = try Device()
        try template.store.applyRemote(Self.base)
        for order in permutations(Array(sets.indices)) {
            let device = try Device(copying: template)
            try device.store.applyRemote(order.map { sets[$0] })
            results.insert(try device.tables() + device.store.syncCanonical())
        }
        #expect(results.count == 1)
    }

    @Test func anUnbalancedTransactionIsRefusedAndNothingIsApplied() throws {
        let (anna, ivan) = try pair()
        try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        let set = try #require(anna.store.pendingChangeSets().first)
        let forged = ChangeSet(
            id: set.id, device: set.device, deviceSeq: set.deviceSeq,
            changes: set.changes.map {
                $0.group != "postings"
                    ? $0
                    : Change(
                        entity: $0.entity, record: $0.record, group: $0.group, value: $0.value.replacingOccurrences(of: "-35000", with: "-3500"),
                        hlc: $0.hlc, base: $0.base)
            })
        let before = try ivan.tables()
        #expect {
            try ivan.store.applyRemote([forged])
        } throws: { error in
            "\(error)".contains("do not balance: RUB sums to 31500 minor units")
        }
        #expect(try ivan.tables() == before)
    }
}

/// Every order of `items` (n! of them).
func permutations<T>(_ items: [T]) -> [[T]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index in
        var rest = items
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
    }
}
