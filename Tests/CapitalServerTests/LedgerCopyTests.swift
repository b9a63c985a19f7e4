import CapitalCore
import CapitalStore
import Foundation
import Testing

@testable import CapitalServer

/// The server's copies of the ledgers: an answer kept or shared among the requests queued behind
/// a busy copy is never older than its request, that is, it holds every change appended before
/// the request was made.
@Suite struct LedgerCopyTests {
    /// A device's change sets, in order: its currency, an account, then `count` accounts more.
    static func deviceSets(_ name: String, count: Int) throws -> [ChangeSet] {
        let store = try SyncServerTests.device()
        for number in 0...count { try store.addAccount(name: "\(name) \(number)", kind: .cash, currency: nil) }
        return try store.pendingChangeSets()
    }

    /// Eight devices push concurrently, each asking after each of its pushes (the same question,
    /// so answers are kept and shared): every answer's copy has reached that push.
    @Test func anAnswerHoldsEveryChangeAppendedBeforeItWasAsked() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let log = harness.log
        let ledger = try log.createLedger(name: "Home", owner: "anna")
        let copies = LedgerCopies(now: { SyncServerTests.start })
        let devices = try (0..<8).map { try Self.deviceSets("Cash \($0)", count: 12) }
        let computed = Counter()
        let stale = try await withThrowingTaskGroup(of: [String].self) { group in
            for sets in devices {
                group.addTask {
                    var stale: [String] = []
                    for set in sets {
                        let seq = try await log.append([set], to: ledger, by: "anna", now: SyncServerTests.start)[0]
                        let text = try await copies.copy(of: ledger).answer(log, key: "cursor") { store in
                            computed.add()
                            return String(try store.syncCursor())
                        }
                        if let cursor = Int64(text), cursor < seq { stale.append("asked after \(seq), answered at \(cursor)") }
                    }
                    return stale
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(stale.isEmpty, "\(stale.prefix(5))")
        let asked = devices.map(\.count).reduce(0, +)
        print("LedgerCopyTests: \(asked) questions, \(computed.value) answers computed")
    }
}

/// A count shared by concurrent tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
