import CapitalCore
import Foundation
import GRDB

extension Store {
    /// Whether `init` (or an import) has set this ledger up.
    public func isInitialized() throws(StoreError) -> Bool {
        if let file = resolvedFile { return file.settings["currency"] != nil }
        return try read("reading settings") { db in try Store.setting(db, "currency") != nil }
    }

    /// The ledger's main currency.
    public func currency() throws(StoreError) -> Currency {
        if let file = fileLedger { return try file.get().currency }
        return try read("reading settings") { db in try Store.ledgerCurrency(db, location: location) }
    }

    /// Sets the ledger up: its currency, the `Capital` equity account and, unless `categories` is
    /// false, the default categories.
    public func initialize(currency: Currency, categories: Bool = true) throws(StoreError) {
        try write("initializing the ledger") { db in
            if let existing = try Store.setting(db, "currency") {
                throw StoreError.alreadyInitialized(path: location, currency: existing)
            }
            try Store.initialize(db, currency: currency, categories: categories)
        }
    }

    static func initialize(_ db: Database, currency: Currency, categories: Bool) throws {
        try setSetting(db, "currency", currency.code)
        try insertAccount(db, Account(id: newID(), name: Account.capitalName, kind: .equity, currency: currency))
        if categories {
            for (name, kind) in Account.defaultCategories {
                try insertAccount(db, Account(id: newID(), name: name, kind: kind, currency: currency))
            }
        }
    }

    static func setting(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
    }

    static func setSetting(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(
                sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    static func ledgerCurrency(_ db: some LedgerContext, location: String) throws -> Currency {
        guard let code = try db.recordSetting("currency") else { throw StoreError.notInitialized(path: location) }
        return try Currency(code)
    }
}
