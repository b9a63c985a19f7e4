import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalStore

/// `LedgerDocument.resolve()` (what `-f` answers from, no database) against the database path it
/// replaced: importing the same file into an empty database and reading it back. Both must give
/// the same ledger, or fail with the same words.
@Suite("Resolving a ledger file without a database")
struct ResolveTests {
    /// The ledger as text in which account and group ids (random per load) read as their names.
    static func canonical(_ ledger: Ledger) -> String {
        var parts: [String] = ["\(ledger.currency)", "default \(ledger.defaultAccountID ?? "none")"]
        parts += ledger.accounts.map { "\($0)" } + ledger.groups.map { "\($0)" } + ledger.transactions.map { "\($0)" }
        parts += ledger.schedules.map { "\($0)" }
        for id in ledger.scheduleStates.keys.sorted() {
            let state = ledger.scheduleStates[id]!
            parts.append("\(id): \(state.handledThrough) \(state.posted.sorted())")
        }
        parts += ledger.loans.map { "\($0)" } + ledger.cards.map { "\($0)" } + ledger.deposits.map { "\($0)" }
        parts += ledger.dues.map { "\($0)" } + ledger.budgets.map { "\($0)" }
        var text = parts.joined(separator: "\n")
        for account in ledger.accounts { text = text.replacingOccurrences(of: account.id, with: "account<\(account.name)>") }
        for group in ledger.groups { text = text.replacingOccurrences(of: group.id, with: "group<\(group.name)>") }
        return text
    }

    /// What the database path gives: the file imported into an empty in-memory database, read back.
    static func imported(_ document: LedgerDocument) -> Result<String, StoreError> {
        do {
            let store = try Store.inMemory(location: document.file)
            try store.importDocument(document)
            return .success(canonical(try store.snapshot()))
        } catch {
            return .failure(error)
        }
    }

    static func resolved(_ document: LedgerDocument) -> Result<String, StoreError> {
        Result { () throws(StoreError) in canonical(try document.resolve().ledger) }
    }

    /// Both paths agree on `document`: the same ledger, or errors with the same message.
    static func expectAgreement(_ document: LedgerDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        switch (resolved(document), imported(document)) {
        case (.success(let resolved), .success(let imported)):
            let difference = zip(resolved.split(separator: "\n"), imported.split(separator: "\n")).first { $0 != $1 }
            #expect(resolved == imported, "first difference: \(String(describing: difference))", sourceLocation: sourceLocation)
        case (.failure(let resolved), .failure(let imported)):
            #expect("\(resolved)" == "\(imported)", sourceLocation: sourceLocation)
        case (let resolved, let imported):
            Issue.record("resolve gave \(resolved), import gave \(imported)", sourceLocation: sourceLocation)
        }
    }

    @Test func theHouseholdSampleResolvesAsItImports() throws {
        let document = try LedgerFile.read(path: Sample.householdPath)
        let ledger = try document.resolve().ledger
        #expect(!ledger.loans.isEmpty && !ledger.cards.isEmpty && !ledger.schedules.isEmpty && !ledger.transactions.isEmpty)
        Self.expectAgreement(document)
    }

    @Test(arguments: [(200, 3, UInt64(1)), (50, 30, 7)])
    func generatedLedgersResolveAsTheyImport(rules: Int, years: Int, seed: UInt64) throws {
        let generated = try SampleLedger.generate(rules: rules, years: years, seed: seed, currency: try Currency("RUB"))
        var extras = LedgerExtras()
        for (id, state) in generated.scheduleStates { extras.handledThrough[id] = state.handledThrough }
        let text = LedgerFile.write(generated, defaultAccountID: generated.defaultAccountID, format: .yaml, extras: extras)
        Self.expectAgreement(try LedgerFile.parse(text, file: "generated.yaml"))
    }

    /// Hostile mutations that parse, of the small ledger (every section) and of the household
    /// sample (every instrument): resolved and imported alike.
    @Test(arguments: [("small.yaml", 320, 30), ("household.yaml", 60, 6)])
    func mutatedLedgersResolveAsTheyImport(file: String, cases: Int, least: Int) throws {
        let seed = file == "small.yaml" ? HostileLedgerFileTests.smallYAML : HostileLedgerFileTests.household
        var hostile = Hostile(seed: 0x5E7)
        var compared = 0
        var failed = 0
        for _ in 0..<cases {
            let text = hostile.mutateLedger(seed)
            guard let document = try? LedgerFile.parse(text, file: file) else { continue }
            compared += 1
            if case .failure = Self.resolved(document) { failed += 1 }
            Self.expectAgreement(document)
        }
        // Enough of both kinds to mean something.
        #expect(compared > least && failed > least / 10 && compared - failed > least / 10, "compared \(compared), failed \(failed)")
    }

    /// Accounts and groups named on the command line (`--account`, `--group`) are found in a file
    /// as in the database it imports into, with the same errors.
    @Test func namesResolveInAFileAsInTheDatabase() throws {
        let document = try LedgerFile.read(path: Sample.householdPath)
        let file = try Store.load(document)
        let database = try Store.inMemory()
        try database.importDocument(document)
        func outcome<T>(_ body: () throws -> T, _ name: (T) -> String) -> String {
            do { return name(try body()) } catch { return "error: \(error)" }
        }
        for reference in ["VTB Debit", "vtb debit", "Cash", "Mortgage", "Nope", "Debit", "Groceries"] {
            #expect(outcome({ try file.account(reference) }, \.name) == outcome({ try database.account(reference) }, \.name), "\(reference)")
        }
        for reference in ["Debts", "debts", "Everyday money", "Nope"] {
            #expect(outcome({ try file.group(reference) }, \.name) == outcome({ try database.group(reference) }, \.name), "\(reference)")
        }
        #expect(throws: StoreError.self) { try file.account("Nope") }
    }

    /// Postings that would add up past Int64 on one account are refused, by resolve as by import,
    /// and by an import onto a database whose own postings take the account most of the way.
    @Test func postingSumsPastInt64AreRefused() throws {
        func file(_ transactions: Int) -> String {
            var text = "capital: 1\ncurrency: RUB\naccounts:\n  - name: Bank\n    kind: debit\ntransactions:\n"
            for day in 1...transactions {
                text +=
                    "  - date: 2025-01-0\(day)\n    postings:\n      - account: Bank\n        amount: 90000000000000000\n      - account: Capital\n"
            }
            return text
        }
        let two = try LedgerFile.parse(file(2), file: "big.yaml")
        Self.expectAgreement(two)
        #expect(throws: StoreError.self) { try two.resolve() }
        do { _ = try two.resolve() } catch { #expect("\(error)".contains("'Bank': its postings would add up past the largest amount")) }
        // One fits; the same file's second transaction, imported on top, does not.
        let store = try Store.inMemory()
        try store.importDocument(try LedgerFile.parse(file(1), file: "one.yaml"))
        #expect(throws: StoreError.self) { try store.importDocument(two) }
        #expect(try store.snapshot().transactions.count == 1)
    }

    /// A file imported onto a database that already holds it adds nothing, as before.
    @Test func importingTheSameFileTwiceAddsNothing() throws {
        let document = try LedgerFile.read(path: Sample.householdPath)
        let store = try Store.inMemory()
        let first = try store.importDocument(document)
        let second = try store.importDocument(document)
        #expect(first.transactionsAdded > 0 && first.schedulesAdded > 0 && first.instrumentsAdded > 0)
        #expect(second.transactionsAdded == 0 && second.schedulesAdded == 0 && second.instrumentsAdded == 0 && second.accountsAdded == 0)
        #expect(second.transactionsAlreadyPresent == first.transactionsAdded)
        #expect(second.instrumentsAlreadyPresent == first.instrumentsAdded)
    }
}
