import CapitalCore
import GRDB

/// What a statement import needs to know of the ledger before it decides anything: the lines
/// already imported, the transactions entered by hand that a line may stand for, the expected
/// flows a line may settle, and (to learn categories) which categories each payee was given.
public struct StatementHistory: Sendable {
    /// The import keys already recorded (`ACCOUNTID:KEY`), with the transaction that holds each.
    public var keys: [String: String]
    /// Live transactions on the account in the range, linked to no statement line.
    public var unlinked: [UnlinkedTransaction]
    /// Live transactions on the account in the range that another account's statement linked
    /// (a transfer the other statement imported or matched): this statement's line of it is the same money.
    public var linkedElsewhere: [LinkedTransaction]
    /// Open expected flows (schedules, loans, deposits) in the range that move the account.
    public var flows: [StatementFlow]
    /// Per payee as recorded, the categories its transactions used and how often (when asked).
    public var payeeCategories: [String: [String: Int]]
}

/// A transaction entered by hand that a statement line may stand for.
public struct UnlinkedTransaction: Sendable, Equatable {
    public var id: String
    public var day: Day
    /// What it moves on the statement's account (minor units).
    public var amount: Int64
    public var payee: String
    /// The other accounts and categories it moves, by name, joined by `, `.
    public var counterparts: String
}

/// A transaction on the statement's account that a line of another account's statement holds
/// (its import key is that account's).
public struct LinkedTransaction: Sendable, Equatable {
    public var id: String
    public var day: Day
    /// What it moves on the statement's account (minor units).
    public var amount: Int64
    /// The account whose statement line it holds.
    public var linkedAccountID: String
    /// The other accounts and categories it moves, by id.
    public var otherAccountIDs: [String]
    /// The same, by name, joined by `, `.
    public var counterparts: String
}

/// An open expected flow a statement line may settle.
public struct StatementFlow: Sendable, Equatable {
    public var entry: ExpectedEntry
    /// The least and the most it moves on the statement's account (equal unless a ranged schedule).
    public var low: Int64
    public var high: Int64
}

/// A transaction a statement import writes, or a hand-entered one it links to its line.
public struct StatementWrite: Sendable {
    public enum Action: Sendable {
        /// Insert `transaction`; settle the flow `settles` names (`Salary@2025-04-05`) when given.
        case insert(Transaction, settles: String?)
        /// Mark the existing transaction `id` as this line's: a later import of it is a duplicate.
        case link(id: String)
    }
    public var key: String
    public var action: Action

    public init(key: String, action: Action) {
        self.key = key
        self.action = action
    }
}

extension Store {
    /// What an import of lines on `accountID` from `range` needs (see `StatementHistory`); `window`
    /// widens the range for hand-entered transactions and flows; `today` decides loans' flows.
    /// - Complexity: O(transactions of the account in the range + flows in it); payee categories,
    ///   when `learn`, one grouped pass over the ledger's transactions.
    public func statementHistory(accountID: String, range: DayRange, window: Int, today: Day, learn: Bool) throws(StoreError) -> StatementHistory {
        try read("reading what the statement's lines may match") { db in
            var keys: [String: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT importKey, id FROM txn WHERE importKey >= ? AND importKey < ?", arguments: [accountID + ":", accountID + ";"])
            {
                keys[row[0]] = row[1]
            }
            let wide = DayRange(range.start.advanced(by: -window), range.end.advanced(by: window))
            let unlinked = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.id, t.day, t.payee, SUM(p.amountMinor),
                        (SELECT GROUP_CONCAT(a.name, ', ') FROM posting q JOIN account a ON a.id = q.accountId WHERE q.txnId = t.id AND q.accountId <> ?)
                    FROM txn t JOIN posting p ON p.txnId = t.id
                    WHERE t.deleted = 0 AND t.importKey IS NULL AND p.accountId = ? AND t.day >= ? AND t.day < ?
                    GROUP BY t.id ORDER BY t.day, t.id
                    """, arguments: [accountID, accountID, wide.start.number, wide.end.number]
            ).map { row in
                UnlinkedTransaction(id: row[0], day: Day(row[1]), amount: row[3], payee: row[2], counterparts: row[4] ?? "")
            }
            let linkedElsewhere = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.id, t.day, SUM(p.amountMinor), substr(t.importKey, 1, instr(t.importKey, ':') - 1),
                        (SELECT GROUP_CONCAT(q.accountId, ',') FROM posting q WHERE q.txnId = t.id AND q.accountId <> ?),
                        (SELECT GROUP_CONCAT(a.name, ', ') FROM posting q JOIN account a ON a.id = q.accountId WHERE q.txnId = t.id AND q.accountId <> ?)
                    FROM txn t JOIN posting p ON p.txnId = t.id
                    WHERE t.deleted = 0 AND t.importKey IS NOT NULL AND substr(t.importKey, 1, instr(t.importKey, ':') - 1) <> ?
                        AND p.accountId = ? AND t.day >= ? AND t.day < ?
                    GROUP BY t.id ORDER BY t.day, t.id
                    """, arguments: [accountID, accountID, accountID, accountID, wide.start.number, wide.end.number]
            ).map { row in
                LinkedTransaction(
                    id: row[0], day: Day(row[1]), amount: row[2], linkedAccountID: row[3],
                    otherAccountIDs: (row[4] as String? ?? "").split(separator: ",").map(String.init), counterparts: row[5] ?? "")
            }
            var flows: [StatementFlow] = []
            if try Store.expectsFlows(db, into: [accountID]) {
                let (ledger, calendars, marks) = try Store.expectedContext(db, location: location, asOf: [wide.start])
                let models = Dictionary(ledger.schedules.map { ($0.id, $0.amount) }, uniquingKeysWith: { first, _ in first })
                for entry in try Store.entries(
                    in: wide, today: today, ledger: ledger, calendars: calendars, marks: marks, kinds: [.schedule, .loan, .deposit])
                where entry.state == .open {
                    let moved = entry.flow.postings.filter { $0.accountID == accountID }.reduce(Int64(0)) { saturatingSum($0, $1.amount.minor) }
                    guard moved != 0 else { continue }
                    var (low, high) = (moved, moved)
                    if entry.flow.kind == .schedule, let model = models[entry.flow.instrumentID] ?? nil, !model.isFixed {
                        (low, high) = moved < 0 ? (-model.high, -model.low) : (model.low, model.high)
                    }
                    flows.append(StatementFlow(entry: entry, low: low, high: high))
                }
            }
            var payeeCategories: [String: [String: Int]] = [:]
            if learn {
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT t.payee, p.accountId, COUNT(*) FROM txn t JOIN posting p ON p.txnId = t.id JOIN account a ON a.id = p.accountId
                        WHERE t.deleted = 0 AND t.payee <> '' AND a.deleted = 0 AND a.kind IN ('income', 'expense')
                        GROUP BY t.payee, p.accountId
                        """)
                {
                    payeeCategories[row[0], default: [:]][row[1]] = row[2]
                }
            }
            return StatementHistory(
                keys: keys, unlinked: unlinked, linkedElsewhere: linkedElsewhere, flows: flows, payeeCategories: payeeCategories)
        }
    }

    /// Writes a statement import in one transaction, all or nothing: `categories` first (new
    /// categories the lines use), then each write in order. Returns the flows settled.
    /// - Throws: `StoreError` when a transaction does not balance or does not fit its accounts, a
    ///   flow cannot be settled, or a key is already recorded (another import got there first).
    public func recordStatement(categories: [Account], writes: [StatementWrite]) throws(StoreError) -> [Settlement] {
        try write("importing a statement") { db in
            for category in categories { try Store.insertAccount(db, category) }
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            var (count, postings) = (0, 0)
            for write in writes {
                guard case .insert(let transaction, _) = write.action else { continue }
                count += 1
                postings += transaction.postings.count
            }
            // A page cache of 16 MB, not the ledger import's 64: no slower on 100 000 lines, 60 MB less
            // (docs/performance.md, "Statement import"). The months are summed as the lines are written.
            var bulk = try Store.isBulk(transactions: count, postings: postings, db) ? Checkpoints.BulkWrite(db, cacheKiB: 16_384) : nil
            var settling: [(Transaction, String)] = []
            var touched: Set<String> = []
            var seq = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM txn") ?? 0
            let now = Timestamp.now()
            func run() throws {
                for write in writes {
                    switch write.action {
                    case .insert(let transaction, let settles):
                        seq += 1
                        try Store.insertTransaction(db, transaction, accounts, seq: seq, now: now, importKey: write.key)
                        try bulk?.wrote(transaction)
                        touched.formUnion(transaction.postings.map(\.accountID))
                        if let settles { settling.append((transaction, settles)) }
                    case .link(let id):
                        try db.execute(
                            sql: "UPDATE txn SET importKey = ?, updatedAt = ?, version = version + 1 WHERE id = ? AND importKey IS NULL",
                            arguments: [write.key, Timestamp.now(), id])
                        guard db.changesCount == 1 else {
                            throw StoreError.invalid(
                                field: "{statement}", value: Store.shortID(id), reason: "that transaction is already linked to a statement line")
                        }
                    }
                }
            }
            do { try run() } catch {
                bulk?.restoreCache()
                throw error
            }
            try bulk?.finish()
            // Settled once every line is in and the balance checkpoints are whole again.
            var settlements: [Settlement] = []
            for (transaction, reference) in settling {
                var transaction = transaction
                if let settlement = try Store.settle(db, &transaction, .named(reference), location: location) { settlements.append(settlement) }
            }
            try Store.checkBalancesFit(db, accountIDs: touched)
            return settlements
        }
    }
}
