import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

@Suite("Store: category colour, icon and removal")
struct CategoryStoreTests {
    @Test func colourAndIconAreStoredReadAndCleared() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "Pets", kind: .expense, currency: nil, color: "Bright-Magenta", icon: "🐈")
        #expect(try store.account("Pets").color == "bright-magenta")
        #expect(try store.account("Pets").icon == "🐈")

        var changes = AccountChanges()
        changes.color = .some("#FF8800")
        try store.editAccount("Pets", changes)
        #expect(try store.account("Pets").color == "#ff8800")
        #expect(try store.account("Pets").icon == "🐈", "an edit that leaves the icon out keeps it")

        changes = AccountChanges()
        changes.icon = .some(nil)
        changes.color = .some(nil)
        try store.editAccount("Pets", changes)
        let cleared = try store.account("Pets")
        #expect(cleared.color == nil && cleared.icon == nil)
    }

    @Test func badColourOrIconChangesNothing() throws {
        let store = try Store.initialized()
        try store.addAccount(name: "Pets", kind: .expense, currency: nil, color: "green", icon: "🐈")
        let before = try store.export(format: .yaml)
        #expect {
            try store.addAccount(name: "Toys", kind: .expense, currency: nil, color: "purpleish")
        } throws: { error in
            (error as? StoreError)?.template.hasPrefix("{color} 'purpleish': not a colour") == true
        }
        var changes = AccountChanges()
        changes.name = "Animals"
        changes.icon = .some("x")
        #expect(throws: StoreError.self) { try store.editAccount("Pets", changes) }
        #expect(try store.export(format: .yaml) == before)
    }

    @Test(arguments: LedgerFileFormat.allCases)
    func colourAndIconSurviveExportImportExport(format: LedgerFileFormat) throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.color = .some("#00ff00")
        changes.icon = .some("🛒")
        try store.editAccount("Groceries", changes)
        try store.addAccount(name: "Pride", kind: .expense, currency: nil, color: "bright-red", icon: "🏳️‍🌈")
        try store.addAccount(name: "Card", kind: .debit, currency: nil, icon: "💳")
        let first = try store.export(format: format)
        let copy = try Store.inMemory()
        try copy.importDocument(try LedgerFile.parse(first, file: "styled.\(format.rawValue)"))
        #expect(try copy.export(format: format) == first)
        let groceries = try copy.account("Groceries")
        #expect(groceries.color == "#00ff00" && groceries.icon == "🛒")
        #expect(try copy.account("Pride").icon == "🏳️‍🌈")
        #expect(try copy.account("Card").icon == "💳" && copy.account("Card").color == nil)
    }

    @Test func theKeysAreWrittenOnlyWhenSet() throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.icon = .some("🛒")
        try store.editAccount("Groceries", changes)
        let yaml = try store.export(format: .yaml)
        #expect(yaml.contains("  - name: Groceries\n    kind: expense\n    icon: 🛒\n  - name: Housing\n    kind: expense\n  - name: Utilities"))
        #expect(!yaml.contains("color:"))
        #expect(try !Store.initialized().export(format: .json).contains("\"icon\""))
    }

    @Test func aHexColourIsQuotedInYAMLSoItIsNotAComment() throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.color = .some("#123abc")
        try store.editAccount("Kids", changes)
        #expect(try store.export(format: .yaml).contains("    color: \"#123abc\"\n"))
    }

    static let badFiles: [(key: String, value: String, reason: String)] = [
        ("color", "purpleish", "not a colour"), ("color", "\"#12345\"", "six hex digits"), ("icon", "x", "non-ASCII"),
        ("icon", "ab", "one character"),
    ]

    @Test(arguments: badFiles)
    func aBadColourOrIconInAFileImportsNothing(key: String, value: String, reason: String) throws {
        let text = """
            capital: 1
            currency: RUB
            accounts:
              - name: Cash
                kind: cash
              - name: Toys
                kind: expense
                \(key): \(value)
            """
        let store = try Store.inMemory()
        #expect {
            try store.importDocument(try LedgerFile.parse(text, file: "bad.yaml"))
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("bad.yaml:6: accounts[1].\(key): ") && message.contains(reason)
        }
        #expect(try !store.isInitialized())
    }

    @Test func aMergedCategoryTakesTheFilesLookOnlyWhereItHasNone() throws {
        let store = try Store.initialized()
        var changes = AccountChanges()
        changes.color = .some("red")
        try store.editAccount("Kids", changes)
        let text = """
            capital: 1
            currency: RUB
            accounts:
              - {name: Groceries, kind: expense, icon: 🛒, color: green}
              - {name: Kids, kind: expense, icon: 🧸, color: blue}
            """
        try store.importDocument(try LedgerFile.parse(text, file: "look.yaml"))
        #expect(try store.account("Groceries").icon == "🛒" && store.account("Groceries").color == "green")
        #expect(try store.account("Kids").icon == "🧸", "it had no icon")
        #expect(try store.account("Kids").color == "red", "its own colour stays")
    }

    // MARK: Removal

    @Test func anUnusedCategoryIsRemoved() throws {
        let store = try Store.initialized()
        #expect(try store.removeCategory("gifts") == "removed expense category 'Gifts'")
        #expect(throws: StoreError.self) { try store.account("Gifts") }
    }

    @Test func aCategoryInUseIsRefusedNamingWhatUsesIt() throws {
        let store = try Store.household()
        let before = try store.export(format: .yaml)
        #expect {
            try store.removeCategory("Loan interest")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("category 'Loan interest': it is in use (") && message.contains("loan Mortgage")
                && message.contains("loan VTB Loan") && message.contains("loan Car Loan") && message.contains("postings")
        }
        #expect(try store.export(format: .yaml) == before)
    }

    @Test func aBalanceSheetAccountIsNotACategory() throws {
        let store = try Store.household()
        #expect(throws: StoreError.self) { try store.removeCategory("VTB Debit") }
        #expect {
            try store.category("VTB Debit")
        } throws: { error in
            guard case StoreError.refused(_, _, _, .seeAccounts) = error else { return false }
            return "\(error)"
                == "category 'VTB Debit': 'VTB Debit' is a debit account, not a category (an income or expense account); the account listing shows the categories"
        }
    }

    /// Due payments and budgets have no store API on this branch: rows written straight into their tables.
    @Test func dueAndBudgetRowsCountAsUses() throws {
        let store = try Store.initialized()
        let id = try store.account("Health").id
        try store.write("test rows") { db in
            try db.execute(
                sql: """
                    INSERT INTO due(id, createdAt, updatedAt, type, total, currency, reason, dueDay, categoryId, number)
                    VALUES ('d1', '2025-01-01', '2025-01-01', 'fine', 500000, 'RUB', 'Speeding', 20000, ?, 3)
                    """, arguments: [id])
            try db.execute(
                sql: """
                    INSERT INTO budget(id, createdAt, updatedAt, categoryId, amount, period, start)
                    VALUES ('b1', '2025-01-01', '2025-01-01', ?, 1000000, 'monthly', 20000)
                    """, arguments: [id])
        }
        var expected = AccountUses()
        expected.dues = ["due 3 (Speeding)"]
        expected.budgets = ["a monthly budget"]
        #expect(try store.uses(ofAccount: "Health") == expected)
        #expect(throws: StoreError.self) { try store.removeCategory("Health") }
        #expect(throws: StoreError.self) { try store.removeAccount("Health", .plain) }
        #expect(try store.account("Health").id == id)
    }

    /// `account rm` used to leave a card naming a removed category: its export could not be imported.
    @Test func accountRemovalKeepsInstrumentsWhole() throws {
        let store = try Store.household()
        let before = try store.export(format: .yaml)
        for removal in [AccountRemoval.plain, .toCapital, .moveTo("Other"), .cascade] {
            #expect(throws: StoreError.self, "\(removal)") { try store.removeAccount("Card interest", removal) }
        }
        #expect(try store.export(format: .yaml) == before)
        try store.removeAccount("Card interest", .hide)
        #expect(try store.account("Card interest").hidden)
    }
}
