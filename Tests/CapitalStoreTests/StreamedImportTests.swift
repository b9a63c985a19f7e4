import CapitalCore
import CapitalTestSupport
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// `Store.importFile` resolves and writes a file's transactions as they are read when the file's
/// head comes first (`TransactionStream`): it must import exactly what reading the whole file
/// first imports (`importDocument`), refuse the same mistakes with the same words, and leave the
/// database as it was when it refuses.
@Suite("Import: transactions streamed as they are read")
struct StreamedImportTests {
    static func temporary(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A generated ledger with `history` posted transactions more, as `sample generate` writes it.
    static func generated(history: Int) throws -> String {
        let ledger = try SampleLedger.generate(rules: 5, years: 1, currency: try Currency("RUB"), history: history)
        return LedgerFile.write(ledger, defaultAccountID: ledger.defaultAccountID, format: .yaml)
    }

    static func export(_ store: Store) throws -> String { try store.export(format: .yaml) }

    /// Whether the balance checkpoints equal the postings' sums.
    static func checkpointsWhole(_ store: Store) throws -> Bool { try store.read("checking") { db in try Checkpoints.differences(db) }.isEmpty }

    /// Into a fresh store, then again into the store that holds it (each streamed transaction
    /// looked up: nothing new), against the same two imports of the whole file read first.
    /// (`threadFrom` 0: the file is read on a thread of its own, as a large one is.)
    @Test(arguments: ["household", "history-2100"], [0, Int.max])
    func streamingImportsWhatReadingFirstImports(name: String, threadFrom: Int) throws {
        let text = name == "household" ? HostileLedgerFileTests.household : try Self.generated(history: Int(name.dropFirst(8))!)
        let path = try Self.temporary("\(name).yaml", text)
        let streamed = try Store.inMemory()
        let whole = try Store.inMemory()
        for round in 0..<2 {
            let summary = try streamed.importFile(path: path, threadFrom: threadFrom)
            #expect(summary == (try whole.importDocument(try LedgerFile.read(path: path))))
            #expect(summary.addedNothing == (round == 1))
            #expect(try Self.export(streamed) == Self.export(whole))
            #expect(try Self.checkpointsWhole(streamed))
        }
    }

    /// A large streamed import is a bulk write: the months it adds equal the postings' sums, and
    /// the trigger and index it set aside are back; a bulk write refused after its list is rolled back whole, trigger and index included.
    @Test func aLargeStreamedImportKeepsItsCheckpointsWhole() throws {
        let text = try Self.generated(history: 2_100)
        func setAside(_ store: Store) throws -> Bool {
            let names = try store.read("t") { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')")
            }
            return !names.contains("posting_txn") || !names.contains("balanceMonth_postingInsert")
        }
        let broken = try Store.inMemory()
        // The last transaction's amount spoilt: the bulk write is under way when it is read.
        var lines = text.components(separatedBy: "\n")
        let schedules = try #require(lines.firstIndex(of: "schedules:"))
        let amount = try #require(lines.indices.last { $0 < schedules && lines[$0].contains("amount: ") })
        lines[amount] = lines[amount].replacingOccurrences(of: "amount: ", with: "amount: 12x")
        let late = lines.joined(separator: "\n")
        #expect(throws: StoreError.self) { try broken.importFile(path: try Self.temporary("late.yaml", late)) }
        #expect(try broken.read("t") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn") } == 0)
        #expect(try !setAside(broken))
        let store = try Store.inMemory()
        let summary = try store.importFile(path: try Self.temporary("big.yaml", text))
        #expect(summary.transactionsAdded > 2_100)
        #expect(try Self.checkpointsWhole(store))
        #expect(try !setAside(store))
    }

    /// Mistakes found while or after the transactions stream in: the same error as reading the
    /// whole file first, and nothing written.
    @Test(arguments: [0, Int.max])
    func aRefusedFileLeavesTheDatabaseAsItWas(threadFrom: Int) throws {
        let base = try Self.generated(history: 200)
        let lines = base.components(separatedBy: "\n")
        let transactionsAt = try #require(lines.firstIndex(of: "transactions:"))
        let schedulesAt = try #require(lines.firstIndex(of: "schedules:"))
        // A transaction late in the list with a bad amount; a duplicate id; a mistake after the list.
        let amountAt = try #require(lines.indices.last { $0 < schedulesAt && lines[$0].contains("amount: ") })
        let firstID = try #require(lines[(transactionsAt + 1)...].first { $0.contains("- id: ") })
        var badAmount = lines
        badAmount[amountAt] = badAmount[amountAt].replacingOccurrences(of: "amount: ", with: "amount: 12x")
        var duplicate = lines
        duplicate.insert(contentsOf: Array(lines[(transactionsAt + 1)...].prefix { !$0.contains("- id: ") || $0 == firstID }), at: schedulesAt)
        var badSchedule = lines
        badSchedule.insert("  - name: Broken\n    rule: every day\n    start: 2025-02-30", at: schedulesAt + 1)
        var badTransactionField = lines
        badTransactionField.insert("    colour: red", at: amountAt)
        for (name, variant) in [("amount", badAmount), ("duplicate", duplicate), ("schedule", badSchedule), ("field", badTransactionField)] {
            let path = try Self.temporary("\(name).yaml", variant.joined(separator: "\n"))
            let store = try Store.inMemory()
            try store.importDocument(try LedgerFile.parse(HostileLedgerFileTests.household, file: "h.yaml"))
            let before = try Self.export(store)
            var streamedError = ""
            do { try store.importFile(path: path, threadFrom: threadFrom) } catch { streamedError = "\(error)" }
            var wholeError = ""
            do {
                let reference = try Store.inMemory()
                try reference.importDocument(try LedgerFile.parse(HostileLedgerFileTests.household, file: "h.yaml"))
                try reference.importDocument(try LedgerFile.read(path: path))
            } catch { wholeError = "\(error)" }
            #expect(!streamedError.isEmpty, "\(name): the streamed import was not refused")
            #expect(streamedError == wholeError, "\(name)")
            #expect(streamedError.contains("\(path):"), "\(name): \(streamedError)")
            #expect(try Self.export(store) == before, "\(name): the database changed")
            #expect(try Self.checkpointsWhole(store))
        }
    }

    /// A ledger whose groups and default account come after its transactions.
    static let lateGroups = """
        capital: 1
        currency: RUB
        accounts:
          - {name: Cash, kind: cash}
          - {name: Food, kind: expense}
        transactions:
          - {date: 2025-01-02, amount: 5, from: Cash, to: Food}
        groups:
          - {name: Pocket, type: cash-flow, accounts: [Cash]}
        defaultAccount: Cash
        """

    /// Groups and a default account written after the transactions are imported all the same.
    @Test func groupsAndTheDefaultAccountAfterTheTransactionsAreImported() throws {
        let path = try Self.temporary("late-groups.yaml", Self.lateGroups)
        for threadFrom in [0, Int.max] {
            let streamed = try Store.inMemory()
            let whole = try Store.inMemory()
            #expect(try streamed.importFile(path: path, threadFrom: threadFrom) == whole.importDocument(try LedgerFile.read(path: path)))
            #expect(try Self.export(streamed) == Self.export(whole))
            #expect(try Self.export(streamed).contains("defaultAccount: Cash"))
            #expect(try Self.export(streamed).contains("Pocket"))
        }
    }

    /// `-f FILE` (`Store.load(path:)`) resolves the transactions as they are read: the same
    /// ledger as resolving the whole file read first, and the same refusals in the same words.
    @Test(arguments: [0, Int.max])
    func aFileLoadedAsItIsReadIsTheFileReadFirst(threadFrom: Int) throws {
        // What the store exports, or the error's words.
        func loaded(_ path: String) -> (read: Bool, text: String) {
            do { return (true, try Self.export(try Store.load(path: path, threadFrom: threadFrom))) } catch { return (false, "\(error)") }
        }
        func readFirst(_ path: String) -> (read: Bool, text: String) {
            do { return (true, try Self.export(try Store.load(try LedgerFile.read(path: path)))) } catch { return (false, "\(error)") }
        }
        let base = try Self.generated(history: 300)
        let lines = base.components(separatedBy: "\n")
        let schedulesAt = try #require(lines.firstIndex(of: "schedules:"))
        let amountAt = try #require(lines.indices.last { $0 < schedulesAt && lines[$0].contains("amount: ") })
        var badAmount = lines
        badAmount[amountAt] = badAmount[amountAt].replacingOccurrences(of: "amount: ", with: "amount: 12x")
        var badSchedule = lines
        badSchedule.insert("  - name: Broken\n    rule: every day\n    start: 2025-02-30", at: schedulesAt + 1)
        var badSyntax = lines
        badSyntax.append("rates: [")
        let texts = [
            ("household", HostileLedgerFileTests.household, true), ("generated", base, true), ("late-groups", Self.lateGroups, true),
            ("amount", badAmount.joined(separator: "\n"), false), ("schedule", badSchedule.joined(separator: "\n"), false),
            ("syntax", badSyntax.joined(separator: "\n"), false),
        ]
        for (name, text, good) in texts {
            let path = try Self.temporary("\(name).yaml", text)
            let streamed = loaded(path)
            let reference = readFirst(path)
            #expect(streamed.read == reference.read && streamed.text == reference.text, "\(name): \(streamed.text.prefix(300))")
            #expect(streamed.read == good, "\(name): \(streamed.text.prefix(300))")
        }
    }

    /// A file whose accounts come after its transactions is read whole first, and imports alike.
    @Test func accountsAfterTheTransactionsAreReadFirst() throws {
        let text = """
            capital: 1
            currency: RUB
            transactions:
              - {date: 2025-01-02, amount: 5, from: Cash, to: Food}
            accounts:
              - {name: Cash, kind: cash}
              - {name: Food, kind: expense}
            """
        let store = try Store.inMemory()
        #expect(try store.importFile(path: try Self.temporary("late.yaml", text)).transactionsAdded == 1)
    }
}
