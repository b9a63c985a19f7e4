import CapitalCore
import CapitalServer
import CapitalStore
import Foundation
import Testing

/// The server's log (`capital serve`'s storage) with real devices' change sets.
@Suite struct LedgerLogTests {
    static let now: Int64 = 1_750_000_000_000

    /// A device that shares a new ledger: categories, Cash and Card.
    private func device(at milliseconds: Int64 = now) throws -> Store {
        var store = try Store.inMemory()
        store.clock = { milliseconds }
        try store.startSync()
        return store
    }

    private func origin() throws -> Store {
        let store = try device()
        try store.initialize(currency: try Currency("RUB"))
        try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        return store
    }

    /// Pushes `store`'s pending sets and records the answers, as `capital sync` does.
    private func push(_ store: Store, to log: LedgerLog, _ ledger: String) throws {
        let pending = try store.pendingChangeSets()
        let answers = try log.append(pending, to: ledger, now: Self.now)
        for (set, seq) in zip(pending, answers) { try store.acknowledge(set.id, serverSeq: seq) }
    }

    /// Pulls every page after the device's cursor.
    private func pull(_ store: Store, from log: LedgerLog, _ ledger: String) throws {
        while true {
            let page = try log.changes(of: ledger, after: store.syncCursor(), limit: 3)
            if page.sets.isEmpty { return }
            try store.applyRemote(page.sets, cursor: page.last)
        }
    }

    @Test func theSameChangeSetTwiceAnswersItsFirstNumber() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let anna = try origin()
        let sets = try anna.pendingChangeSets()
        let first = try log.append(sets, to: ledger, now: Self.now)
        #expect(first == Array(1...Int64(sets.count)))
        #expect(try log.append(sets, to: ledger, now: Self.now) == first)
        #expect(try log.head(ledger) == Int64(sets.count))
    }

    @Test func aNewDeviceJoinsFromASnapshotAndFollowsTheLog() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let anna = try origin()
        try anna.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        try push(anna, to: log, ledger)
        let phone = try device(at: Self.now + 1_000)
        try phone.applySnapshot(Data(try log.snapshot(of: ledger).utf8))
        #expect(try phone.syncCanonical() == anna.syncCanonical())
        // An edit on the phone reaches Anna at her next sync.
        var floor = AccountChanges()
        floor.floor = .some(2_000_00)
        try phone.editAccount("Cash", floor)
        try push(phone, to: log, ledger)
        try pull(anna, from: log, ledger)
        #expect(try anna.account("Cash").floor == 2_000_00)
        try pull(phone, from: log, ledger)
        #expect(try phone.syncCanonical() == anna.syncCanonical())
    }

    @Test func anIDSentAgainWithOtherContentIsRefused() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let set = try #require(try origin().pendingChangeSets().first)
        _ = try log.append([set], to: ledger, now: Self.now)
        let forged = ChangeSet(id: set.id, device: set.device, deviceSeq: set.deviceSeq, changes: Array(set.changes.dropLast()))
        #expect(throws: AppendError.idReused(id: set.id)) { try log.append([forged], to: ledger, now: Self.now) }
    }

    @Test func aCopiedDatabaseReusingADevicesNumbersIsRefused() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let set = try #require(try origin().pendingChangeSets().first)
        _ = try log.append([set], to: ledger, now: Self.now)
        let copy = ChangeSet(id: "another-id", device: set.device, deviceSeq: set.deviceSeq, changes: set.changes)
        #expect(throws: AppendError.deviceSeqReused(device: set.device, deviceSeq: set.deviceSeq)) {
            try log.append([copy], to: ledger, now: Self.now)
        }
        let gap = ChangeSet(id: "later-id", device: set.device, deviceSeq: set.deviceSeq + 2, changes: set.changes)
        #expect(throws: AppendError.outOfOrder(device: set.device, expected: set.deviceSeq + 1, got: set.deviceSeq + 2)) {
            try log.append([gap], to: ledger, now: Self.now)
        }
    }

    @Test func aDeviceClockADayAheadIsRefusedAndNothingOfThePushIsAppended() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let anna = try origin()
        try push(anna, to: log, ledger)
        let phone = try device(at: Self.now + 86_400_000)
        try phone.applySnapshot(Data(try log.snapshot(of: ledger).utf8))
        try phone.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        let pending = try phone.pendingChangeSets()
        let head = try log.head(ledger)
        #expect {
            try log.append(pending, to: ledger, now: Self.now)
        } throws: { error in
            guard case AppendError.clockSkew(_, let ahead) = error else { return false }
            return ahead >= 86_000_000 && "\(error)".contains("check this device's clock")
        }
        #expect(try log.head(ledger) == head)
        #expect(try phone.pendingChangeSets().count == pending.count)
    }

    @Test func anUnbalancedTransactionFromAModifiedClientIsRefused() throws {
        let log = try LedgerLog(path: ":memory:")
        let ledger = try log.createLedger(name: "home")
        let anna = try origin()
        try push(anna, to: log, ledger)
        try anna.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        let set = try #require(try anna.pendingChangeSets().first)
        let forged = ChangeSet(
            id: set.id, device: set.device, deviceSeq: set.deviceSeq,
            changes: set.changes.map {
                Change(
                    entity: $0.entity, record: $0.record, group: $0.group, value: $0.value.replacingOccurrences(of: "-35000", with: "-1"),
                    hlc: $0.hlc, base: $0.base)
            })
        #expect {
            try log.append([forged], to: ledger, now: Self.now)
        } throws: { "\($0)".contains("do not balance") }
    }

    @Test func aLedgerThatDoesNotExistIsNamed() throws {
        let log = try LedgerLog(path: ":memory:")
        #expect(throws: AppendError.noLedger("nope")) { try log.append([], to: "nope", now: Self.now) }
    }

    @Test func concurrentPushersGetEveryNumberOnceAndInOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try LedgerLog(path: folder.appendingPathComponent("server.sqlite").path)
        let ledger = try log.createLedger(name: "home")
        // Eight devices, each pushing 25 change sets of one transaction, at once.
        let pushers = try (0..<8).map { _ -> [ChangeSet] in
            let store = try origin()
            for day in 1...24 { try store.add(on: "2025-03-\(day < 10 ? "0" : "")\(day)", [("Groceries", "\(day)"), ("Cash", nil)]) }
            return try store.pendingChangeSets(limit: .max)
        }
        let answers = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for sets in pushers {
                group.addTask { try sets.flatMap { try log.append([$0], to: ledger, now: Self.now) } }
            }
            var all: [Int64] = []
            for try await numbers in group { all += numbers }
            return all
        }
        let total = pushers.map(\.count).reduce(0, +)
        #expect(answers.sorted() == Array(1...Int64(total)))
        let read = try log.changes(of: ledger, after: 0, limit: .max)
        #expect(read.sets.count == total)
        #expect(read.last == Int64(total))
        #expect(Set(read.sets.map(\.id)).count == total)
    }
}

extension Store {
    /// Records a transaction from `(account, amount)` pairs; `nil` balances the others.
    fileprivate func add(on day: String, payee: String = "", _ postings: [(String, String?)]) throws {
        try addTransaction(
            TransactionInput(
                day: try Day(iso: day), payee: payee, postings: postings.map { PostingInput(account: $0.0, amount: $0.1, field: "posting \($0.0)") }))
    }
}
