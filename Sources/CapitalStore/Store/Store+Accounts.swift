import CapitalCore
import Foundation
import GRDB

/// How to remove an account that has postings.
public enum AccountRemoval: Sendable, Equatable {
    /// Only an account without postings can be removed.
    case plain
    /// Reassign its postings to another account, then remove it.
    case moveTo(String)
    /// Reassign its postings to `Capital`, then remove it.
    case toCapital
    /// Keep it and its history, but hide it from listings.
    case hide
    /// Delete every transaction that touches it, then remove it.
    case cascade
}

/// Changes to an account; `nil` leaves a field as it is.
public struct AccountChanges: Sendable {
    public var name: String?
    public var kind: AccountKind?
    public var floor: Int64??
    public var level: Int??
    public var hidden: Bool?
    public var note: String?
    /// A yearly change of value for a fixed asset; `.some(nil)` clears it.
    public var valueChange: AssetRevaluation??
    /// A colour (checked by `Account.checkedColor`); `.some(nil)` clears it.
    public var color: String??
    /// An icon (checked by `Account.checkedIcon`); `.some(nil)` clears it.
    public var icon: String??
    public init() {}
}

extension Store {
    /// Accounts in the order they were added; hidden ones only if asked.
    public func accounts(includeHidden: Bool = false) throws(StoreError) -> [Account] {
        try read("listing accounts") { db in
            try Store.fetchAccounts(db).filter { includeHidden || !$0.hidden }
        }
    }

    /// An account by name (case-insensitive) or by a unique id prefix.
    public func account(_ reference: String) throws(StoreError) -> Account {
        if let file = resolvedFile { return try Store.fromFile(file) { try AccountIndex(file.accounts).resolve(reference) } }
        return try read("finding an account") { db in try Store.resolveAccount(db, reference) }
    }

    /// The account quick entries use when none is named.
    public func defaultAccount() throws(StoreError) -> Account? {
        try read("reading settings") { db in
            guard let id = try Store.setting(db, "defaultAccount") else { return nil }
            return try Store.fetchAccounts(db).first { $0.id == id }
        }
    }

    /// Makes `reference` (an account's name or id) this device's default account, or leaves it
    /// with none (nil): a device's own setting, never shared, which a server's copy of a ledger
    /// sets for each answer it is asked for.
    public func useDefaultAccount(_ reference: String?) throws(StoreError) {
        // Asked before every answer a server gives: only a read when it is already the default.
        let unchanged = try read("reading settings") { db in
            let current = try Store.setting(db, "defaultAccount")
            guard let reference else { return current == nil }
            return try current == Store.resolveAccount(db, reference).id
        }
        if unchanged { return }
        try write("setting the default account") { db in
            guard let reference else { return try Store.setSetting(db, "defaultAccount", nil) }
            try Store.setDefault(db, try Store.resolveAccount(db, reference))
        }
    }

    /// Adds an account. Names are unique (case-insensitive).
    @discardableResult
    public func addAccount(
        name: String, kind: AccountKind, currency: Currency?, floor: Int64? = nil, level: Int? = nil,
        note: String = "", groups: [String] = [], makeDefault: Bool = false, valueChange: AssetRevaluation? = nil,
        color: String? = nil, icon: String? = nil
    ) throws(StoreError) -> Account {
        try Store.validateName(name, field: "name")
        try Store.validateText(note, field: "{note}")
        try Store.validateLevel(level)
        try Store.validateValueChange(valueChange, kind: kind)
        let color = try color.map { text throws(StoreError) in try Store.checkedColor(text, field: "{color}") }
        let icon = try icon.map { text throws(StoreError) in try Store.checkedIcon(text, field: "{icon}") }
        return try write("adding account '\(name)'") { db in
            let currency = try currency ?? Store.ledgerCurrency(db, location: location)
            let account = Account(
                id: Store.newID(), name: name, kind: kind, currency: currency, floor: floor, level: level, note: note, valueChange: valueChange,
                color: color, icon: icon)
            try Store.insertAccount(db, account)
            for group in groups {
                let g = try Store.resolveGroup(db, group)
                try Store.addMember(db, groupID: g.id, accountID: account.id)
            }
            if makeDefault { try Store.setDefault(db, account) }
            return account
        }
    }

    /// Changes an account's fields. `Capital` cannot be renamed.
    @discardableResult
    public func editAccount(_ reference: String, _ changes: AccountChanges, makeDefault: Bool = false) throws(StoreError) -> Account {
        if let name = changes.name { try Store.validateName(name, field: "{name}") }
        if let note = changes.note { try Store.validateText(note, field: "{note}") }
        if let level = changes.level { try Store.validateLevel(level) }
        let color = try changes.color.map { text throws(StoreError) in
            try text.map { t throws(StoreError) in try Store.checkedColor(t, field: "{color}") }
        }
        let icon = try changes.icon.map { text throws(StoreError) in
            try text.map { t throws(StoreError) in try Store.checkedIcon(t, field: "{icon}") }
        }
        return try write("editing account '\(reference)'") { db in
            var account = try Store.resolveAccount(db, reference)
            if account.name == Account.capitalName && account.kind == .equity {
                if let name = changes.name, name != Account.capitalName { throw StoreError.capitalIsProtected(action: "renamed") }
                if let kind = changes.kind, kind != .equity { throw StoreError.capitalIsProtected(action: "changed to another kind") }
                if changes.hidden == true { throw StoreError.capitalIsProtected(action: "hidden") }
            }
            if let name = changes.name, Store.nameKey(name) != Store.nameKey(account.name),
                try Store.accountID(named: name, db) != nil
            {
                throw StoreError.duplicateName(what: "account", name: name)
            }
            if let name = changes.name { account.name = name }
            if let kind = changes.kind { account.kind = kind }
            if let floor = changes.floor { account.floor = floor }
            if let level = changes.level { account.level = level }
            if let hidden = changes.hidden { account.hidden = hidden }
            if let note = changes.note { account.note = note }
            if let change = changes.valueChange { account.valueChange = change }
            if let color { account.color = color }
            if let icon { account.icon = icon }
            if changes.valueChange != nil || changes.kind != nil { try Store.validateValueChange(account.valueChange, kind: account.kind) }
            try db.cachedStatement(
                sql: """
                    UPDATE account SET name = ?, nameKey = ?, kind = ?, floorMinor = ?, level = ?, hidden = ?, note = ?, valueChange = ?, valueSince = ?,
                    color = ?, icon = ?, updatedAt = ?, version = version + 1 WHERE id = ?
                    """
            ).execute(arguments: [
                account.name, Store.nameKey(account.name), account.kind.rawValue, account.floor, account.level, account.hidden, account.note,
                account.valueChange?.annualChange, account.valueChange?.since.number, account.color, account.icon, Timestamp.now(), account.id,
            ])
            if makeDefault { try Store.setDefault(db, account) }
            return account
        }
    }

    /// How many postings (in live transactions) an account has.
    public func postingCount(_ reference: String) throws(StoreError) -> Int {
        try read("counting postings") { db in
            let account = try Store.resolveAccount(db, reference)
            return try Store.postingCount(db, accountID: account.id)
        }
    }

    /// Removes (soft-deletes) an account, or hides it; see `AccountRemoval`. Returns what was done.
    @discardableResult
    public func removeAccount(_ reference: String, _ removal: AccountRemoval) throws(StoreError) -> String {
        try write("removing account '\(reference)'") { db in
            let account = try Store.resolveAccount(db, reference)
            if account.name == Account.capitalName && account.kind == .equity {
                throw StoreError.capitalIsProtected(action: removal == .hide ? "hidden" : "deleted")
            }
            let uses = try Store.uses(db, accountID: account.id)
            let count = uses.postings
            let schedules = uses.schedules
            let now = Timestamp.now()  // converted once, used for createdAt and updatedAt
            if count > 0 && removal == .plain { throw StoreError.accountHasPostings(name: account.name, count: count) }
            if !schedules.isEmpty && (removal == .plain || removal == .cascade) {
                throw StoreError.invalid(
                    field: "account", value: account.name,
                    reason:
                        "schedules use it (\(FieldKeys.literal(schedules.joined(separator: ", ")))); remove them first, or use {moveTo}, {toCapital} or {hide}"
                )
            }
            // A loan, card, deposit, due payment or budget would be left naming a removed account.
            if !uses.records.isEmpty && removal != .hide {
                throw StoreError.invalid(
                    field: "account", value: account.name,
                    reason:
                        "\(uses.records.joined(separator: ", ")) use\(uses.records.count == 1 ? "s" : "") it; remove or change them first, or use {hide}"
                )
            }
            switch removal {
            case .hide:
                try db.cachedStatement(sql: "UPDATE account SET hidden = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                    now, account.id,
                ])
                return "hid account '\(account.name)' (its \(count.counted("posting")) \(count == 1 ? "stays" : "stay") in the ledger)"
            case .plain where count > 0:
                throw StoreError.accountHasPostings(name: account.name, count: count)
            case .plain:
                break
            case .moveTo, .toCapital:
                let target: Account
                if case .moveTo(let ref) = removal {
                    target = try Store.resolveAccount(db, ref)
                } else {
                    target = try Store.resolveAccount(db, Account.capitalName)
                }
                if target.id == account.id {
                    throw StoreError.invalid(field: "{moveTo}", value: target.name, reason: "it is the account being removed")
                }
                if target.currency != account.currency && target.kind != .equity {
                    throw StoreError.currencyMismatch(
                        account: target.name, accountCurrency: target.currency.code, amountCurrency: account.currency.code)
                }
                try db.cachedStatement(
                    sql: "UPDATE txn SET updatedAt = ?, version = version + 1 WHERE id IN (SELECT txnId FROM posting WHERE accountId = ?)"
                ).execute(arguments: [now, account.id])
                try db.cachedStatement(sql: "UPDATE posting SET accountId = ? WHERE accountId = ?").execute(arguments: [target.id, account.id])
                try db.cachedStatement(sql: "UPDATE schedulePosting SET accountId = ? WHERE accountId = ?").execute(arguments: [
                    target.id, account.id,
                ])
                try Store.checkBalancesFit(db, accountIDs: [target.id])
            case .cascade:
                try db.cachedStatement(
                    sql: """
                        UPDATE txn SET deleted = 1, updatedAt = ?, version = version + 1
                        WHERE deleted = 0 AND id IN (SELECT txnId FROM posting WHERE accountId = ?)
                        """
                ).execute(arguments: [now, account.id])
            }
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE accountId = ?").execute(arguments: [account.id])
            try db.cachedStatement(sql: "UPDATE account SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                now, account.id,
            ])
            if try Store.setting(db, "defaultAccount") == account.id { try Store.setSetting(db, "defaultAccount", nil) }
            switch removal {
            case .moveTo, .toCapital:
                return "removed account '\(account.name)'; moved its \(count.counted("posting"))"
            case .cascade:
                return "removed account '\(account.name)' and the transactions of its \(count.counted("posting"))"
            default:
                return "removed account '\(account.name)'"
            }
        }
    }

    // MARK: Helpers shared with import and transactions

    static func setDefault(_ db: Database, _ account: Account) throws {
        guard account.kind.isBalanceSheet else {
            throw StoreError.invalid(
                field: "{default}", value: account.name, reason: "a category cannot be the default account; pick a cash or debit account")
        }
        try setSetting(db, "defaultAccount", account.id)
    }

    static func validateName(_ name: String, field: String) throws(StoreError) {
        // Printable ASCII without '=' that neither starts nor ends with a space: fine, without
        // Foundation's trimming (most names, thousands of them in a large ledger file).
        let bytes = name.utf8
        if let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20, bytes.count <= TextLimits.name,
            bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "=") })
        {
            return
        }
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .malformed(field: field, value: name, reason: "a name cannot be empty")
        }
        if name != name.trimmingCharacters(in: .whitespaces) {
            throw .malformed(field: field, value: name, reason: "a name cannot start or end with spaces")
        }
        if name.contains(where: { $0.isNewline || $0 == "=" }) {
            throw .malformed(field: field, value: name, reason: "a name cannot contain line breaks or '='")
        }
        if let problem = TextLimits.problem(in: name, limit: TextLimits.name) {
            throw .malformed(field: field, value: shortened(name), reason: "a name cannot have \(problem)")
        }
    }

    /// A free text of at most `limit` characters, without control characters: a note (the
    /// default limit) may have line breaks, a payee, spender or tag (the name limit) may not.
    static func validateText(_ text: String, field: String, limit: Int = TextLimits.text) throws(StoreError) {
        if let problem = TextLimits.problem(in: text, limit: limit, lineBreaks: limit == TextLimits.text) {
            throw .malformed(field: field, value: shortened(text), reason: "a text cannot have \(problem)")
        }
    }

    /// `text` as an error quotes it: its first 40 characters and `…` when it is longer.
    static func shortened(_ text: String) -> String { text.count > 40 ? String(text.prefix(40)) + "…" : text }

    static func validateValueChange(_ change: AssetRevaluation?, kind: AccountKind) throws(StoreError) {
        if let change, kind != .fixedAsset {
            throw .invalid(
                field: "{valueChange}", value: change.description,
                reason: "only a fixed-asset account changes value at a yearly rate; this one is \(kind.withArticle)")
        }
    }

    /// A colour checked by the core, its error as a store error.
    static func checkedColor(_ text: String, field: String) throws(StoreError) -> String {
        do { return try Account.checkedColor(text, field: field) } catch {
            switch error {
            case .invalid(let field, let value, let reason): throw .malformed(field: field, value: value, reason: reason)
            }
        }
    }

    /// An icon checked by the core, its error as a store error.
    static func checkedIcon(_ text: String, field: String) throws(StoreError) -> String {
        do { return try Account.checkedIcon(text, field: field) } catch {
            switch error {
            case .invalid(let field, let value, let reason): throw .malformed(field: field, value: value, reason: reason)
            }
        }
    }

    static func validateLevel(_ level: Int??) throws(StoreError) {
        if case .some(.some(let value)) = level, !(1...6).contains(value) {
            throw .malformed(field: "{level}", value: String(value), reason: "the answer ladder has levels 1 to 6")
        }
    }

    static func insertAccount(_ db: Database, _ account: Account) throws {
        if try accountID(named: account.name, db) != nil {
            throw StoreError.duplicateName(what: "account", name: account.name)
        }
        let position = try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM account")) ?? 1
        let now = Timestamp.now()  // converted once, used for createdAt and updatedAt
        try db.cachedStatement(
            sql: """
                INSERT INTO account(id, createdAt, updatedAt, name, nameKey, kind, currency, floorMinor, level, hidden, note, position, valueChange, valueSince,
                color, icon)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            account.id, now, now, account.name, Store.nameKey(account.name), account.kind.rawValue, account.currency.code, account.floor,
            account.level,
            account.hidden, account.note, position, account.valueChange?.annualChange, account.valueChange?.since.number, account.color, account.icon,
        ])
    }

    static func accountID(named name: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM account WHERE deleted = 0 AND nameKey = ?"), arguments: [Store.nameKey(name)])
    }

    static func postingCount(_ db: Database, accountID: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: "SELECT COUNT(*) FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0 AND posting.accountId = ?"),
            arguments: [accountID]) ?? 0
    }

    /// One live account by id.
    static func fetchAccounts(_ db: Database, id: String) throws -> Account? {
        try fetchAccounts(db, filter: "AND id = ?", arguments: [id]).first
    }

    static func fetchAccounts(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [Account] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM account WHERE deleted = 0 \(filter) ORDER BY position"), arguments: arguments).map {
            row in
            let kindText: String = row["kind"]
            let currencyText: String = row["currency"]
            guard let kind = AccountKind(rawValue: kindText) else {
                throw StoreError.unreadable(path: nil, field: "account.kind", value: kindText, reason: "not an account kind")
            }
            var change: AssetRevaluation?
            if let perMillion: Int64 = row["valueChange"], let since: Int = row["valueSince"] {
                change = try AssetRevaluation(annualChange: perMillion, since: Day(since))
            }
            return Account(
                id: row["id"], name: row["name"], kind: kind, currency: try Currency(currencyText),
                floor: row["floorMinor"], level: row["level"], hidden: row["hidden"], note: row["note"], valueChange: change,
                color: row["color"], icon: row["icon"])
        }
    }

    /// Name (case-insensitive) first, then a unique id prefix, as git resolves short hashes.
    static func resolveAccount(_ db: Database, _ reference: String) throws -> Account {
        try AccountIndex(try fetchAccounts(db)).resolve(reference)
    }

    /// Items whose id starts with `reference` (at least 4 hex digits; dashes ignored).
    static func idPrefixMatches<T>(_ reference: String, in items: [T], id: (T) -> String) -> [T] {
        let prefix = reference.lowercased().replacingOccurrences(of: "-", with: "")
        guard prefix.count >= 4, prefix.allSatisfy(\.isHexDigit) else { return [] }
        return items.filter { id($0).replacingOccurrences(of: "-", with: "").hasPrefix(prefix) }
    }

    /// A name folded for comparison: Unicode lower case of its canonical composition, so
    /// `Продукты` and `продукты` (or `é` typed two ways) are the same name.
    static func nameKey(_ name: String) -> String {
        // ASCII needs no normalisation: skip Foundation's (slow) canonical mapping.
        name.utf8.allSatisfy { $0 < 0x80 } ? name.lowercased() : name.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The first 8 hex digits of an id: what listings show.
    public static func shortID(_ id: String) -> String { String(id.prefix(8)) }
}

/// The live accounts, looked up by id and by name without a query each: imports resolve every
/// posting through one of these.
struct AccountIndex {
    private(set) var accounts: [Account]
    private var byID: [String: Account]
    private var byName: [String: Account]

    init(_ accounts: [Account]) {
        self.accounts = accounts
        byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        byName = Dictionary(accounts.map { (Store.nameKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Adds an account (kept as the first of its id or name, as `init` keeps them).
    mutating func insert(_ account: Account) {
        accounts.append(account)
        if byID[account.id] == nil { byID[account.id] = account }
        let key = Store.nameKey(account.name)
        if byName[key] == nil { byName[key] = account }
    }

    /// Puts `account` in place of the one with its id (same name).
    mutating func replace(_ account: Account) {
        guard let position = accounts.firstIndex(where: { $0.id == account.id }) else { return }
        accounts[position] = account
        if byID[account.id]?.id == account.id { byID[account.id] = account }
        let key = Store.nameKey(account.name)
        if byName[key]?.id == account.id { byName[key] = account }
    }

    subscript(id id: String) -> Account? { byID[id] }
    subscript(name name: String) -> Account? { byName[Store.nameKey(name)] }

    /// By exact id, by name (case-insensitive), then by a unique id prefix.
    func resolve(_ reference: String) throws -> Account {
        if let exact = byID[reference] { return exact }
        if let named = byName[Store.nameKey(reference)] { return named }
        let matches = Store.idPrefixMatches(reference, in: accounts, id: \.id)
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw StoreError.ambiguous(
                what: "account", reference: reference, candidates: matches.map { "\(Store.shortID($0.id)) (\($0.name))" })
        }
        // Names that hold what was typed, or are a few edits from it (a third of its letters, at least
        // two: a swapped pair of letters is two), as the command line suggests commands.
        let typed = reference.lowercased()
        let similar = accounts.filter {
            let name = $0.name.lowercased()
            return name.contains(typed) || editDistance(typed, name) <= max(2, typed.count / 3)
        }.map(\.name)
        throw StoreError.notFound(
            what: "account", reference: reference,
            hint: similar.isEmpty ? .list("account") : .didYouMean(Array(similar.prefix(5))))
    }
}
