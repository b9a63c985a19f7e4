import CapitalCore
import Foundation
import GRDB

/// A posting as a user writes it: an account reference and an amount, in the account's currency
/// unless `currency` says otherwise (only the equity account holds several currencies).
/// At most one posting of a transaction may leave `amount` out: it takes the balancing amount.
public struct PostingInput: Sendable {
    public var account: String
    public var amount: String?
    public var currency: String?
    public var note: String
    /// How the user wrote it, for error messages (`--posting 'Groceries=500'`).
    public var field: String
    /// What an amount in another currency than the ledger's cost in the ledger's: per unit
    /// (`@ 92.5`) or in total (`@@ 9250`). The transaction then balances per currency through
    /// the equity account, which takes the amount's opposite and the price.
    public var price: Price?

    /// A price in the ledger's currency.
    public enum Price: Sendable, Equatable {
        case unit(String)
        case total(String)
    }

    public init(account: String, amount: String?, currency: String? = nil, note: String = "", field: String) {
        self.account = account
        self.amount = amount
        self.currency = currency
        self.note = note
        self.field = field
    }
}

/// A transaction as a user writes it.
public struct TransactionInput: Sendable {
    public var day: Day
    public var payee: String
    public var note: String
    public var spender: String
    public var tags: [String]
    public var postings: [PostingInput]

    public init(day: Day, payee: String = "", note: String = "", spender: String = "", tags: [String] = [], postings: [PostingInput]) {
        self.day = day
        self.payee = payee
        self.note = note
        self.spender = spender
        self.tags = tags
        self.postings = postings
    }
}

/// Changes to a transaction; `nil` leaves a field as it is. New postings replace all old ones.
public struct TransactionChanges: Sendable {
    public var day: Day?
    public var payee: String?
    public var note: String?
    public var spender: String?
    public var tags: [String]?
    public var postings: [PostingInput]?
    public init() {}
}

extension Store {
    /// Records a balanced transaction.
    @discardableResult
    public func addTransaction(_ input: TransactionInput) throws(StoreError) -> Transaction {
        try write("adding a transaction") { db in
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            let transaction = try Store.build(accounts, id: Store.newID(), input)
            try Store.insertTransaction(db, transaction, accounts)
            try Store.checkBalancesFit(db, accountIDs: Set(transaction.postings.map(\.accountID)))
            return transaction
        }
    }

    /// A transaction by a unique id prefix (at least 4 hex digits).
    public func transaction(_ reference: String) throws(StoreError) -> Transaction {
        try read("finding a transaction") { db in try Store.resolveTransaction(db, reference) }
    }

    /// Changes a transaction; the result must still balance. A transaction that stood for an
    /// expected flow keeps standing for it while it still moves the flow's accounts the same way;
    /// otherwise the flow is open again. One whose day or postings changed and that stood for none
    /// settles the nearest open flow it matches within `matchDays`, as a new one would.
    @discardableResult
    public func editTransaction(_ reference: String, _ changes: TransactionChanges, matchDays: Int = 3) throws(StoreError) -> TransactionEdit {
        try write("editing transaction '\(reference)'") { db in
            let old = try Store.resolveTransaction(db, reference)
            var updated = old
            if let postings = changes.postings {
                updated = try Store.build(AccountIndex(try Store.fetchAccounts(db)), id: old.id, TransactionInput(day: old.day, postings: postings))
            }
            try Store.validateTexts(payee: changes.payee ?? "", note: changes.note ?? "", spender: changes.spender ?? "")
            updated.day = changes.day ?? old.day
            updated.payee = changes.payee ?? old.payee
            updated.note = changes.note ?? old.note
            updated.spender = changes.spender ?? old.spender
            updated.tags = try changes.tags.map(Store.validateTags) ?? old.tags
            try db.execute(
                sql: "UPDATE txn SET day = ?, payee = ?, note = ?, spender = ?, tags = ?, updatedAt = ?, version = version + 1 WHERE id = ?",
                arguments: [
                    updated.day.number, updated.payee, updated.note, updated.spender, updated.tags.joined(separator: ","), Timestamp.now(), old.id,
                ])
            if changes.postings != nil {
                try db.execute(sql: "DELETE FROM posting WHERE txnId = ?", arguments: [old.id])
                try Store.insertPostings(db, updated)
                try Store.checkBalancesFit(db, accountIDs: Set(updated.postings.map(\.accountID)))
            }
            var edit = TransactionEdit(transaction: updated, reopened: [], settled: nil)
            if changes.postings != nil || changes.day != nil {
                try Store.resettle(db, &edit, matchDays: matchDays, location: location)
            }
            return edit
        }
    }

    /// Soft-deletes a transaction.
    @discardableResult
    public func removeTransaction(_ reference: String) throws(StoreError) -> Transaction {
        try write("removing transaction '\(reference)'") { db in
            let transaction = try Store.resolveTransaction(db, reference)
            try db.execute(
                sql: "UPDATE txn SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?", arguments: [Timestamp.now(), transaction.id])
            return transaction
        }
    }

    /// Everything in the ledger, as one consistent snapshot.
    public func snapshot() throws(StoreError) -> Ledger {
        if let file = fileLedger { return try file.get() }
        return try read("reading the ledger") { db in try Store.fetchLedger(db, location: location) }
    }

    /// The ledger as answers about any of `days` (balances at their end, forecasts from them)
    /// need it: posted history before a recent month start summed up from the balance
    /// checkpoints (`Ledger.opening`), so that its cost does not grow with the length of the
    /// history. A ledger file is read whole.
    /// - Parameter rates: when given, only the rates valuing the accounts' currencies (and
    ///   `currencies`) from `from` on: each currency's rates from that day and the last before it,
    ///   so that years of past rates cost nothing either.
    public func snapshot(asOf days: [Day], rates: (from: Day, currencies: Set<Currency>)? = nil) throws(StoreError) -> Ledger {
        if let file = fileLedger { return try file.get() }
        return try read("reading the ledger") { db in try Store.fetchLedger(db, location: location, asOf: days, rates: rates) }
    }

    // MARK: Helpers

    static func build(_ accounts: AccountIndex, id: String, _ input: TransactionInput) throws -> Transaction {
        try validateTexts(payee: input.payee, note: input.note, spender: input.spender)
        for posting in input.postings where !posting.note.isEmpty { try validateText(posting.note, field: "{note}") }
        var postings: [Posting] = []
        var missing: (index: Int, input: Int, field: String, fixedCurrency: Bool)?
        for (index, posting) in input.postings.enumerated() {
            let account = try accounts.resolve(posting.account)
            var currency = account.currency
            if let code = posting.currency {
                do { currency = try Currency(code) } catch {
                    throw StoreError.malformed(field: posting.field, value: code, reason: "not an ISO 4217 currency code")
                }
                if currency != account.currency && account.kind != .equity {
                    throw StoreError.currencyMismatch(account: account.name, accountCurrency: account.currency.code, amountCurrency: currency.code)
                }
            }
            var amount = Money.zero(currency)
            if let text = posting.amount {
                do {
                    amount = try Money(parsing: text, currency: currency)
                } catch {
                    throw StoreError.money(field: posting.field, error)
                }
            } else if let first = missing {
                throw StoreError.malformed(
                    field: posting.field, value: posting.account,
                    reason: "only one posting may leave out its amount (\(first.field) already does)")
            } else {
                missing = (postings.count, index, posting.field, posting.currency != nil || account.kind != .equity)
            }
            postings.append(Posting(accountID: account.id, amount: amount, note: posting.note))
            if let price = posting.price { postings += try priced(amount, price, posting, accounts) }
        }
        if let missing {
            var sums: [Currency: Int64] = [:]
            for posting in postings {
                let (next, overflow) = sums[posting.amount.currency, default: 0].addingReportingOverflow(posting.amount.minor)
                if overflow { throw StoreError.ledger(.overflow) }
                sums[posting.amount.currency] = next
            }
            var currency = postings[missing.index].amount.currency
            if !missing.fixedCurrency {
                // The equity account balances whichever one currency is out of balance.
                let open = sums.filter { $0.value != 0 }.keys.sorted { $0.code < $1.code }
                if open.count > 1 {
                    throw StoreError.invalid(
                        field: missing.field, value: input.postings[missing.input].account,
                        reason: "one posting cannot balance \(open.map(\.code).joined(separator: " and ")); give its amounts")
                }
                currency = open.first ?? currency
            }
            let sum = sums[currency] ?? 0
            guard sum != .min else { throw StoreError.ledger(.overflow) }
            postings[missing.index].amount = Money(minor: -sum, currency: currency)
        }
        let transaction = Transaction(
            id: id, day: input.day, payee: input.payee, note: input.note, spender: input.spender,
            tags: try validateTags(input.tags), postings: postings)
        do { try transaction.validate() } catch { throw StoreError.ledger(error) }
        return transaction
    }

    /// The equity account's two postings that balance `amount` bought or sold at `price`: the
    /// amount's opposite in its currency, and its cost in the ledger's (the equity account's).
    static func priced(_ amount: Money, _ price: PostingInput.Price, _ posting: PostingInput, _ accounts: AccountIndex) throws -> [Posting] {
        let capital = try accounts.resolve(Account.capitalName)
        let ledger = capital.currency
        guard posting.amount != nil else {
            throw StoreError.malformed(field: posting.field, value: posting.account, reason: "a price needs the amount it is the price of")
        }
        guard amount.currency != ledger else {
            throw StoreError.invalid(
                field: posting.field, value: amount.plain, reason: "a price is for an amount in another currency than \(ledger.code)")
        }
        let cost: Int64
        switch price {
        case .unit(let text):
            let rate: ExchangeRate.Decimal
            do { rate = try ExchangeRate.Decimal(parsing: text) } catch {
                throw StoreError.malformed(field: posting.field, value: text, reason: "the price per unit: \(error.reason)")
            }
            let factor = ExchangeRate.Factor(
                ExchangeRate(id: "", currency: amount.currency, day: Day(0), value: rate), from: amount.currency, to: ledger)
            guard let converted = ExchangeRate.convert(amount.minor, factor: factor) else { throw StoreError.ledger(.overflow) }
            cost = converted
        case .total(let text):
            let total: Money
            do { total = try Money(parsing: text, currency: ledger) } catch { throw StoreError.money(field: posting.field, error) }
            guard total.minor > 0 else { throw StoreError.malformed(field: posting.field, value: text, reason: "a total price is above zero") }
            cost = amount.minor < 0 ? -total.minor : total.minor
        }
        return [
            Posting(accountID: capital.id, amount: try amount.negated()),
            Posting(accountID: capital.id, amount: Money(minor: cost, currency: ledger)),
        ]
    }

    /// A transaction's payee, note and spender: names and a text, as `validateName` and `validateText` check them.
    static func validateTexts(payee: String, note: String, spender: String) throws(StoreError) {
        try validateText(payee, field: "{payee}", limit: TextLimits.name)
        try validateText(note, field: "{note}")
        try validateText(spender, field: "{spender}", limit: TextLimits.name)
    }

    static func validateTags(_ tags: [String]) throws -> [String] {
        // (The comma looked for byte by byte: stored tags are joined by commas.)
        for tag in tags where tag.isEmpty || tag.utf8.contains(UInt8(ascii: ",")) || tag.contains(where: \.isNewline) {
            throw StoreError.malformed(field: "{tag}", value: tag, reason: "a tag must be non-empty, without commas or line breaks")
        }
        for tag in tags { try validateText(tag, field: "{tag}", limit: TextLimits.name) }
        return tags
    }

    /// Checks accounts and balance, then writes the transaction and its postings.
    /// Inserts a transaction and its postings. A caller writing many passes `seq` (the next
    /// free one; else it is looked up) and `now` (the write's timestamp) once per write;
    /// `importKey` marks a statement line's transaction.
    static func insertTransaction(
        _ db: Database, _ transaction: Transaction, _ accounts: AccountIndex, seq: Int? = nil, now: String? = nil, importKey: String? = nil,
        derivedPostings: Bool = false
    ) throws {
        do { try transaction.validate() } catch { throw StoreError.ledger(error) }
        for posting in transaction.postings {
            guard let account = accounts[id: posting.accountID] else {
                throw StoreError.notFound(what: "account id", reference: posting.accountID, hint: nil)
            }
            if account.currency != posting.amount.currency && account.kind != .equity {
                throw StoreError.currencyMismatch(
                    account: account.name, accountCurrency: account.currency.code, amountCurrency: posting.amount.currency.code)
            }
        }
        // Cached statements: an import inserts thousands of these.
        let seq = try seq ?? Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(seq), 0) + 1 FROM txn")) ?? 1
        let now = now ?? Timestamp.now()  // converted once, used for createdAt and updatedAt
        try db.cachedStatement(
            sql: "INSERT INTO txn(id, createdAt, updatedAt, day, seq, payee, note, spender, tags, importKey) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .insert(
            db, .text(transaction.id), .text(now), .text(now), .integer(Int64(transaction.day.number)), .integer(Int64(seq)),
            .text(transaction.payee),
            .text(transaction.note), .text(transaction.spender), .text(transaction.tags.joined(separator: ",")), importKey.map(RawValue.text) ?? .null
        )
        try insertPostings(db, transaction, derivedIDs: derivedPostings)
    }

    /// Refuses a change after which an account's positive or negative postings add up past Int64:
    /// then no balance on any day can overflow, and every listing stays readable.
    /// - Complexity: O(postings of these accounts), summed inside SQLite (whose sum() reports overflow).
    static func checkBalancesFit(_ db: Database, accountIDs: Set<String>) throws {
        // The ledger's order, the equity account last (as a ledger file is checked).
        let accounts = try Row.fetchAll(db, sql: "SELECT id, name FROM account ORDER BY kind = 'equity', position")
        for row in accounts where accountIDs.contains(row["id"]) {
            let (id, name): (String, String) = (row["id"], row["name"])
            guard try DatabaseLookup(db: db).postingSums(id) == nil else { continue }
            throw StoreError.invalid(
                field: "account", value: name,
                reason: "its postings would add up past the largest amount capital can hold (Int64 minor units); nothing was changed")
        }
    }

    /// Inserts the transaction's postings: with time-ordered new ids, or with `derivedIDs` ids
    /// derived from the transaction's and the position (for a transaction every device derives
    /// alike, `Store.flowTransactionID`).
    static func insertPostings(_ db: Database, _ transaction: Transaction, derivedIDs: Bool = false) throws {
        for (position, posting) in transaction.postings.enumerated() {
            try db.cachedStatement(
                sql: "INSERT INTO posting(id, txnId, accountId, position, amountMinor, currency, note) VALUES (?, ?, ?, ?, ?, ?, ?)"
            )
            .insert(
                db, .text(derivedIDs ? DerivedID.uuid("posting/\(transaction.id)/\(position)") : newPostingID()), .text(transaction.id),
                .text(posting.accountID), .integer(Int64(position)), .integer(posting.amount.minor), .text(posting.amount.currency.code),
                .text(posting.note))
        }
    }

    /// Transactions in day order (and by id within a day), with their postings in
    /// order: one query walked with a cursor, so no row is kept and no posting is looked up by
    /// transaction id. Account ids and currencies are shared, not copied per posting.
    /// - Complexity: O(postings).
    static func fetchTransactions(_ db: Database, ids: [String]? = nil) throws -> [Transaction] {
        try fetchTransactions(
            db, where: ids.map { "AND txn.id IN (\($0.map { _ in "?" }.joined(separator: ",")))" } ?? "", StatementArguments(ids ?? []))
    }

    /// The transactions `filter` (SQL after `WHERE txn.deleted = 0`, with `arguments`) keeps, as
    /// `fetchTransactions(_:ids:)` reads them.
    static func fetchTransactions(_ db: Database, where filter: String, _ arguments: StatementArguments) throws -> [Transaction] {
        var result: [Transaction] = []
        try walkTransactions(db, where: filter, arguments) { transaction in
            result.append(transaction)
            return true
        }
        return result
    }

    /// Calls `body` with each transaction `filter` keeps (SQL after `WHERE txn.deleted = 0`, with
    /// `arguments`), in day order and by id within a day (the newest first when `newestFirst`),
    /// its postings in order, until `body` returns false. SQLite steps through the rows as they
    /// are asked for, so a walk stopped early reads only what it passed.
    static func walkTransactions(
        _ db: Database, where filter: String, _ arguments: StatementArguments, newestFirst: Bool = false,
        _ body: (Transaction) throws -> Bool
    ) throws {
        var accountIDs: [String: String] = [:]
        for id in try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM account")) { accountIDs[id] = id }
        var currencies: [String: Currency] = [:]
        var current: Transaction?
        var positions: [Int] = []
        /// Hands over the transaction being read, its postings in position order.
        func finish() throws -> Bool {
            guard var transaction = current else { return true }
            if positions != positions.sorted() {
                transaction.postings = zip(positions, transaction.postings).sorted { $0.0 < $1.0 }.map(\.1)
            }
            return try body(transaction)
        }
        // Same-day transactions by id, which sync carries (`seq`, the order written, is each
        // device's own): two devices that synced list, export and answer alike.
        let order = newestFirst ? "txn.day DESC, txn.id DESC" : "txn.day, txn.id"
        let cursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT txn.id, txn.day, txn.payee, txn.note, txn.spender, txn.tags,
                        posting.accountId, posting.amountMinor, posting.currency, posting.note, posting.position
                    FROM txn JOIN posting ON posting.txnId = txn.id WHERE txn.deleted = 0 \(filter) ORDER BY \(order)
                    """), arguments: arguments)
        while let row = try cursor.next() {
            let id: String = row[0]
            if current?.id != id {
                guard try finish() else { return }
                let tags: String = row[5]
                current = Transaction(
                    id: id, day: Day(row[1] as Int), payee: row[2], note: row[3], spender: row[4],
                    tags: tags.isEmpty ? [] : tags.split(separator: ",").map(String.init), postings: [])
                current!.postings.reserveCapacity(2)
                positions.removeAll(keepingCapacity: true)
            }
            let code: String = row[8]
            let currency = try currencies[code] ?? Currency(code)
            currencies[code] = currency
            let account: String = row[6]
            current!.postings.append(
                Posting(accountID: accountIDs[account] ?? account, amount: Money(minor: row[7], currency: currency), note: row[9]))
            positions.append(row[10])
        }
        _ = try finish()
    }

    /// Where a page of transactions starts and ends: days, a transaction to start after or end
    /// before (keyset paging on the day and the id, so pages neither skip nor repeat
    /// a transaction when others are added meanwhile), the accounts one of whose postings it
    /// must have, and the direction.
    public struct TransactionRange: Sendable {
        public var from: Day?
        public var to: Day?
        /// The id of the transaction the range starts after (exclusive).
        public var after: String?
        /// The id of the transaction the range ends before (exclusive).
        public var before: String?
        /// Only transactions with a posting to one of these (none: all).
        public var accountIDs: Set<String> = []
        public var newestFirst = false

        /// Every transaction, oldest first.
        public init() {}
    }

    /// Calls `body` with each live transaction in `range`, in its direction, until `body`
    /// returns false; nothing is kept.
    /// - Throws: `StoreError.notFound` when `after` or `before` names no live transaction.
    /// - Complexity: O(transactions passed), independent of the history outside the range.
    public func walkTransactions(_ range: TransactionRange, _ body: (Transaction) -> Bool) throws(StoreError) {
        try read("listing transactions") { db in
            var filter = ""
            var arguments: [any DatabaseValueConvertible] = []
            if let from = range.from {
                filter += " AND txn.day >= ?"
                arguments.append(from.number)
            }
            if let to = range.to {
                filter += " AND txn.day <= ?"
                arguments.append(to.number)
            }
            for (id, comparison) in [(range.after, ">"), (range.before, "<")] {
                guard let id else { continue }
                guard let row = try Row.fetchOne(db, sql: "SELECT day, id FROM txn WHERE id = ? AND deleted = 0", arguments: [id]) else {
                    throw StoreError.notFound(what: "transaction id", reference: id, hint: .listTransactions)
                }
                filter += " AND (txn.day, txn.id) \(comparison) (?, ?)"
                arguments += [row[0] as Int, row[1] as String]
            }
            if !range.accountIDs.isEmpty {
                filter +=
                    " AND txn.id IN (SELECT txnId FROM posting WHERE accountId IN (\(range.accountIDs.map { _ in "?" }.joined(separator: ","))))"
                arguments += range.accountIDs.sorted()
            }
            try Store.walkTransactions(db, where: filter, StatementArguments(arguments), newestFirst: range.newestFirst, body)
        }
    }

    static func resolveTransaction(_ db: Database, _ reference: String) throws -> Transaction {
        let prefix = reference.lowercased().replacingOccurrences(of: "-", with: "")
        guard prefix.count >= 4, prefix.allSatisfy(\.isHexDigit) else {
            throw StoreError.refused(field: "transaction id", value: reference, reason: "give at least 4 hex digits", remedy: .listTransactions)
        }
        let ids = try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM txn WHERE deleted = 0 AND REPLACE(id, '-', '') LIKE ? || '%'"), arguments: [prefix])
        if ids.isEmpty {
            throw StoreError.notFound(what: "transaction", reference: reference, hint: .list("tx"))
        }
        if ids.count > 1 {
            let candidates = try fetchTransactions(db, ids: Array(ids.prefix(10))).map { "\(shortID($0.id)) (\($0.day) \($0.payee))" }
            throw StoreError.ambiguous(what: "transaction", reference: reference, candidates: candidates)
        }
        return try fetchTransactions(db, ids: ids)[0]
    }
}
