import CapitalCore
import Foundation
import GRDB

@testable import CapitalStore

/// A fresh folder under the system's temporary directory, removed when the value goes away.
/// Swift Testing runs tests in parallel: every test makes its own.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("capital-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    func path(_ components: String...) -> String {
        components.reduce(url) { $0.appendingPathComponent($1) }.path
    }
}

enum Sample {
    /// `samples/household.yaml`, found from this file's place in the repository.
    static let householdPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/household.yaml").path

    static let household: LedgerDocument = try! LedgerFile.read(path: householdPath)

    /// The sample imported once, exported in each format.
    static let householdExports: [LedgerFileFormat: String] = {
        let store = try! Store.household()
        return Dictionary(uniqueKeysWithValues: LedgerFileFormat.allCases.map { ($0, try! store.export(format: $0)) })
    }()
}

extension Currency {
    static let rub = try! Currency("RUB")
}

extension Store {
    /// A store holding an initialized RUB ledger with the default categories.
    static func initialized() throws -> Store {
        let store = try Store.inMemory()
        try store.initialize(currency: .rub)
        return store
    }

    /// The household sample, imported into a fresh in-memory store.
    static func household() throws -> Store {
        let store = try Store.inMemory()
        try store.importDocument(Sample.household)
        return store
    }

    /// End-of-day balances far in the future, by account name, in minor units.
    func balancesByName(on day: String = "2099-12-31") throws -> [String: Int64] {
        let ledger = try snapshot()
        let totals = try ledger.balances(on: try Day(iso: day))
        var result: [String: Int64] = [:]
        for account in ledger.accounts {
            result[account.name] = totals[BalanceKey(accountID: account.id, currency: account.currency)] ?? 0
        }
        return result
    }

    /// A row count straight from SQLite, soft-deleted rows included.
    func rawCount(_ table: String) throws -> Int {
        try read("test") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// Runs raw SQL in one transaction, bypassing the façade: for setting up odd states.
    func rawWrite(_ body: (Database) throws -> Void) throws {
        try write("test setup") { db in try body(db) }
    }

    /// Records a transaction from `(account, amount)` pairs; `nil` balances the others.
    @discardableResult
    func add(on day: String, payee: String = "", _ postings: [(String, String?)]) throws -> Transaction {
        try addTransaction(
            TransactionInput(
                day: try Day(iso: day), payee: payee,
                postings: postings.map { PostingInput(account: $0.0, amount: $0.1, field: "posting \($0.0)") }))
    }
}

/// The bytes of a file, or nil if there is none.
func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// A list that threads append to.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var items: [Element] { lock.withLock { storage } }
}
