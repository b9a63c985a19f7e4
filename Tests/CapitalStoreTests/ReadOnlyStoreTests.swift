import CapitalCore
import Foundation
import Testing

@testable import CapitalStore

/// Issue 51, item 14: a database opened read-only (`Store.openReadOnly`, what the command line
/// does for a query when `access(2)` says the file or its folder cannot be written) answers, and
/// refuses every write in one line without touching the file.
///
/// The tests run as root, whom `access(2)` lets write whatever the mode bits forbid, so these open
/// the store read-only directly: they exercise SQLite's read-only open, the immutable open and the
/// refusal, not the decision to open so (the command-line test runs `capital` as `nobody` for that).
@Suite struct ReadOnlyStoreTests {
    /// A database with a ledger and one transaction, in a folder of its own, closed.
    static func database() throws -> (folder: String, path: String) {
        let folder = NSTemporaryDirectory() + "capital-readonly-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/capital.sqlite"
        do {
            let store = try Store.open(path: path)
            try store.initialize(currency: .rub)
            try store.addAccount(name: "Cash", kind: .cash, currency: nil)
            _ = try store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        }
        return (folder, path)
    }

    @Test func aReadOnlyStoreAnswersAndRefusesWritesLeavingTheFileAlone() throws {
        let (folder, path) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the writing store closed and removed its -wal")
        let before = try #require(FileManager.default.contents(atPath: path))
        let store = try Store.openReadOnly(path: path, reason: "its folder \(folder) is not writable")
        #expect(store.readOnlyReason == "its folder \(folder) is not writable")
        #expect(try store.balancesByName()["Cash"] == -350_00)
        #expect(try store.export(format: .yaml).contains("Bakery"))
        #expect {
            try store.addAccount(name: "Card", kind: .cash, currency: nil)
        } throws: { error in
            guard case StoreError.databaseReadOnly(path, "its folder \(folder) is not writable") = error else { return false }
            return true
        }
        #expect(
            StoreError.databaseReadOnly(path: path, reason: "its folder \(folder) is not writable").description
                == "database \(path): the database is read-only (its folder \(folder) is not writable); nothing was changed")
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// Bad input: what is not a capital database, or is missing, is refused as when written.
    @Test func aReadOnlyOpenRefusesWhatIsNotACapitalDatabase() throws {
        let (folder, path) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let other = folder + "/other.sqlite"
        try "not a database at all, just text that is long enough to be a header".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) { try Store.openReadOnly(path: other, reason: "the file is not writable") }
        #expect(throws: StoreError.self) { try Store.openReadOnly(path: folder + "/missing.sqlite", reason: "the file is not writable") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing.sqlite"))
        // What root is told: the mode bits do not stop it, a read-only file system would.
        if getuid() == 0 {
            chmod(path, 0o444)
            #expect(Store.unwritable(path: path) == nil)
        }
    }
}
