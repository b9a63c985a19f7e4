import CapitalCore
import Foundation
import GRDB

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var accountsAdded = 0
    public var accountsMerged = 0
    public var groupsAdded = 0
    public var groupsMerged = 0
    public var transactionsAdded = 0
    public var transactionsAlreadyPresent = 0
    public var schedulesAdded = 0
    public var schedulesAlreadyPresent = 0
    /// Loans, cards, deposits, bills, fines and budgets (`instrumentsAddedByKind` counts them per kind).
    public var instrumentsAdded = 0
    public var instrumentsAlreadyPresent = 0
    /// Per kind (`loan`, `card`, `deposit`, `bill`, `fine`, `budget`): how many the import added.
    public var instrumentsAddedByKind: [String: Int] = [:]
    /// Per kind: how many were there already.
    public var instrumentsPresentByKind: [String: Int] = [:]
    public var ratesAdded = 0
    public var ratesAlreadyPresent = 0

    /// Whether the file added nothing: everything in it was already there.
    public var addedNothing: Bool { accountsAdded + groupsAdded + transactionsAdded + schedulesAdded + instrumentsAdded + ratesAdded == 0 }

    /// The kinds of instrument a summary counts, in the order it lists them.
    public static let instrumentKinds = ["loan", "card", "deposit", "bill", "fine", "budget"]

    /// Counts one instrument of `kind`, added or already there.
    mutating func countInstrument(_ kind: String, added: Bool) {
        if added {
            instrumentsAdded += 1
            instrumentsAddedByKind[kind, default: 0] += 1
        } else {
            instrumentsAlreadyPresent += 1
            instrumentsPresentByKind[kind, default: 0] += 1
        }
    }

    /// `1 loan and 2 cards`, `none`: counts per kind in the kinds' order.
    static func instruments(_ counts: [String: Int]) -> String {
        let parts = instrumentKinds.compactMap { kind in counts[kind].map { $0.counted(kind) } }
        guard let last = parts.last else { return "none" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    public var description: String {
        if addedNothing {
            let records: [(Int, String)] = [
                (accountsMerged, "account"), (groupsMerged, "group"), (transactionsAlreadyPresent, "transaction"),
                (schedulesAlreadyPresent, "schedule"),
            ]
            var there = records.filter { $0.0 > 0 }.map { $0.0.counted($0.1) }
            for kind in ImportSummary.instrumentKinds { if let count = instrumentsPresentByKind[kind] { there.append(count.counted(kind)) } }
            if ratesAlreadyPresent > 0 { there.append(ratesAlreadyPresent.counted("rate")) }
            return "nothing new" + (there.isEmpty ? "" : " (\(there.joined(separator: ", ")) already there)")
        }
        return "\(accountsAdded.counted("account")) added, \(accountsMerged) merged; \(groupsAdded.counted("group")) added, \(groupsMerged) merged; "
            + "\(transactionsAdded.counted("transaction")) added, \(transactionsAlreadyPresent) already present"
            + (schedulesAdded + schedulesAlreadyPresent > 0
                ? "; \(schedulesAdded.counted("schedule")) added, \(schedulesAlreadyPresent) already present" : "")
            + (instrumentsAdded + instrumentsAlreadyPresent > 0
                ? "; \(ImportSummary.instruments(instrumentsAddedByKind)) added, \(ImportSummary.instruments(instrumentsPresentByKind)) already present"
                : "")
            + (ratesAdded + ratesAlreadyPresent > 0 ? "; \(ratesAdded.counted("rate")) added, \(ratesAlreadyPresent) already present" : "")
    }
}

extension Store {
    /// Imports a ledger file, all or nothing: the file is resolved onto the database's ledger
    /// (`Store.resolve`, the checks `-f` makes, plus agreement with what is stored), then what it
    /// adds is inserted. Into an empty database it creates the ledger with the file's currency.
    @discardableResult
    public func importDocument(_ document: LedgerDocument) throws(StoreError) -> ImportSummary {
        try bulkWrite("importing \(document.file)") { db in
            let draft = try Store.importDraft(file: document.file, db)
            try Store.resolve(document, onto: draft)
            try Store.insert(draft.content, db)
            return draft.content.summary
        }
    }

    /// Imports the ledger file at `path`, all or nothing, as `importDocument` imports it. When the
    /// file's version, currency and accounts come before its transactions (as capital writes
    /// files), each transaction is resolved and written as it is read, so that a file of a million
    /// transactions is never held whole; otherwise the file is read first.
    @discardableResult
    public func importFile(path: String) throws(StoreError) -> ImportSummary { try importFile(path: path, threadFrom: LedgerFile.Pipe.threadFrom) }

    /// `importFile(path:)`, reading on a thread of its own from `threadFrom` bytes.
    func importFile(path: String, threadFrom: Int) throws(StoreError) -> ImportSummary {
        try bulkWrite("importing \(path)") { db in
            let draft = try Store.importDraft(file: path, db)
            var writer: TransactionWriter?
            var head = InsertedHead()
            do {
                try Store.resolveFile(
                    path: path, onto: draft,
                    begin: {
                        head = try Store.insert(draft.content, db)
                        writer = try TransactionWriter(draft, db)
                    },
                    take: { entry in try writer!.take(entry) }, finish: { try writer!.finish() }, threadFrom: threadFrom)
                try Store.insert(draft.content, db, after: head)
                return draft.content.summary
            } catch {
                writer?.restoreCache()
                throw error
            }
        }
    }

    /// A read-only store holding the ledger file at `path` (`-f FILE`), as `load(_:)` makes one of
    /// the file's document, but with its transactions resolved as they are read when the file's
    /// head comes first (as `importFile` does): the file's entries are never all held at once.
    public static func load(path: String) throws(StoreError) -> Store { try load(path: path, threadFrom: LedgerFile.Pipe.threadFrom) }

    /// `load(path:)`, reading on a thread of its own from `threadFrom` bytes.
    static func load(path: String, threadFrom: Int) throws(StoreError) -> Store {
        let draft = LedgerDraft(ResolvedLedger(file: path))
        try resolving(path) {
            var resolver: TransactionResolver?
            try resolveFile(
                path: path, onto: draft, begin: { resolver = try TransactionResolver(draft) },
                take: { entry in
                    if let transaction = try resolver!.resolve(entry) { draft.content.transactions.append(transaction) }
                }, finish: { try resolver!.finish() }, threadFrom: threadFrom)
        }
        return Store(file: draft.content)
    }

    /// Reads the ledger file at `path` and resolves it onto `draft`. When the file's version,
    /// currency and accounts come before its transactions (as capital writes files), its head is
    /// resolved first and `begin` told, then each transaction goes to `take` as it is read, and
    /// `finish` is called after the last; the rest of the file is resolved after them. Otherwise
    /// the file is read whole and resolved (`resolve(_:onto:)`), and none of the three is called.
    /// A mistake anywhere in the file's text is the error reported, before any of resolving.
    static func resolveFile(
        path: String, onto draft: LedgerDraft, begin: @escaping () throws -> Void,
        take: @escaping (LedgerDocument.TransactionEntry) throws -> Void, finish: () throws -> Void, threadFrom: Int
    ) throws {
        var headDocument: LedgerDocument?
        let read: (document: LedgerDocument, failure: (any Error)?)
        do throws(LedgerFileError) {
            // A large file is read on a thread of its own while this one resolves (and writes).
            read = try LedgerFile.read(
                path: path,
                begin: { document in
                    try Store.resolveHead(document, onto: draft)
                    try begin()
                    headDocument = document
                }, take: take, threadFrom: threadFrom)
        } catch { throw StoreError.file(error) }
        if let failure = read.failure { throw failure }
        let document = read.document
        guard let headDocument else { return try Store.resolve(document, onto: draft) }
        try finish()
        // Groups or a default account written after the transactions.
        if headDocument.groups.isEmpty { try Store.resolveGroups(document, onto: draft) }
        if headDocument.defaultAccount == nil { try Store.resolveDefaultAccount(document, onto: draft) }
        try Store.resolveTail(document, onto: draft)
    }

    /// An import's draft: the database's settings, accounts, groups and calendar days, and the
    /// database to look the rest up in.
    static func importDraft(file: String, _ db: Database) throws -> LedgerDraft {
        var seed = ResolvedLedger(file: file)
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT key, value FROM setting")) { seed.settings[row["key"]] = row["value"] }
        seed.accounts = try Store.fetchAccounts(db)
        seed.groups = try Store.fetchGroups(db)
        seed.calendarDays = try Store.fetchCalendarDays(db).map {
            ResolvedLedger.CalendarDay(calendar: $0.calendar, day: $0.day, holiday: $0.holiday, name: $0.name)
        }
        return LedgerDraft(seed, lookup: DatabaseLookup(db: db))
    }

    /// A read-only store holding a ledger file (`-f FILE`). Its snapshot and calendars come
    /// straight from the resolved file; a listing that needs the database's queries gets an
    /// in-memory one, filled on first use the way an import fills one.
    public static func load(_ document: LedgerDocument) throws(StoreError) -> Store {
        Store(file: try document.resolve())
    }

    /// From how many transactions an import writes them in bulk (`Checkpoints.bulkInsert`): below
    /// it, the per-posting trigger costs less than a pass over the index.
    static let bulkTransactions = 2_000

    /// Whether writing `transactions` is worth setting the trigger and index aside for: at least
    /// `bulkTransactions`, with at least a quarter as many postings as the ledger holds (the
    /// index is built again over all of them).
    static func isBulk(_ transactions: [Transaction], _ db: Database) throws -> Bool {
        try isBulk(transactions: transactions.count, postings: transactions.reduce(0) { $0 + $1.postings.count }, db)
    }

    /// `isBulk` for a write of `transactions` transactions holding `postings` postings in all.
    static func isBulk(transactions: Int, postings: Int, _ db: Database) throws -> Bool {
        guard transactions >= bulkTransactions else { return false }
        // Posting rowids only grow: the largest is about how many postings were ever written.
        let held = Int(try lastPosting(db))
        return postings * 4 >= held
    }

    /// What an insert of a file's head wrote, which a second insert of the whole file skips.
    struct InsertedHead {
        var settings = 0
        var accounts: Set<String> = []
        var restyled = 0
        var groups: Set<String> = []
        var members = 0
    }

    /// Writes what a resolved file adds to the database, in the order it was made, but for what an
    /// earlier insert of its head wrote (`head`); returns what it wrote of the head.
    @discardableResult
    static func insert(_ resolved: ResolvedLedger, _ db: Database, after head: InsertedHead = InsertedHead()) throws -> InsertedHead {
        for key in resolved.changedSettings.dropFirst(head.settings) { try setSetting(db, key, resolved.settings[key]) }
        for account in resolved.accounts where resolved.addedAccounts.contains(account.id) && !head.accounts.contains(account.id) {
            try insertAccount(db, account)
        }
        for id in resolved.restyled.dropFirst(head.restyled) {
            guard let account = resolved.accounts.first(where: { $0.id == id }) else { continue }
            try db.cachedStatement(
                sql: "UPDATE account SET color = COALESCE(color, ?), icon = COALESCE(icon, ?), updatedAt = ?, version = version + 1 WHERE id = ?"
            )
            .execute(arguments: [account.color, account.icon, Timestamp.now(), id])
        }
        for group in resolved.groups where resolved.addedGroups.contains(group.id) && !head.groups.contains(group.id) {
            var empty = group
            empty.accountIDs = []
            try insertGroup(db, empty)
        }
        for (group, account) in resolved.addedMembers.dropFirst(head.members) { try addMember(db, groupID: group, accountID: account) }
        let accounts = AccountIndex(resolved.accounts)
        if try isBulk(resolved.transactions, db) {
            // The month sums come from the transactions in hand, not from a join of every new posting.
            try Checkpoints.bulkInsert(db, written: resolved.transactions) {
                let now = Timestamp.now()
                var seq = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM txn") ?? 0
                for transaction in resolved.transactions {
                    seq += 1
                    let key = try freeStatementKey(db, resolved.statementKeys[transaction.id])
                    try insertTransaction(db, transaction, accounts, seq: seq, now: now, importKey: key)
                }
            }
        } else {
            for transaction in resolved.transactions {
                try insertTransaction(db, transaction, accounts, importKey: try freeStatementKey(db, resolved.statementKeys[transaction.id]))
            }
        }
        for day in resolved.addedCalendarDays {
            try db.cachedStatement(sql: "INSERT INTO calendarDay(calendar, day, kind, name) VALUES (?, ?, ?, ?)").execute(arguments: [
                day.calendar, day.day.number, day.holiday ? "holiday" : "workday", day.name,
            ])
        }
        for entry in resolved.schedules {
            try insertSchedule(db, entry.schedule, handledThrough: entry.handledThrough, position: entry.position)
            for (day, mark) in entry.posted { try Store.mark(db, FlowKey(kind: .schedule, instrumentID: entry.schedule.id, day: day), mark) }
        }
        for loan in resolved.loans {
            try insertLoan(db, loan)
            for (day, mark) in resolved.flowMarks[loan.id] ?? [] { try Store.mark(db, FlowKey(kind: .loan, instrumentID: loan.id, day: day), mark) }
        }
        for card in resolved.cards {
            try insertCard(db, card)
            for (day, mark) in resolved.flowMarks[card.id] ?? [] { try Store.mark(db, FlowKey(kind: .card, instrumentID: card.id, day: day), mark) }
        }
        for deposit in resolved.deposits {
            try insertDeposit(db, deposit)
            for (day, mark) in resolved.flowMarks[deposit.id] ?? [] {
                try Store.mark(db, FlowKey(kind: .deposit, instrumentID: deposit.id, day: day), mark)
            }
        }
        for due in resolved.dues { try insertDue(db, due) }
        for rate in resolved.rates { try insertRate(db, rate) }
        for budget in resolved.budgets {
            try insertBudget(db, budget)
            for (day, mark) in resolved.flowMarks[budget.id] ?? [] {
                try Store.mark(db, FlowKey(kind: .budget, instrumentID: budget.id, day: day), mark)
            }
        }
        return InsertedHead(
            settings: resolved.changedSettings.count, accounts: resolved.addedAccounts, restyled: resolved.restyled.count,
            groups: resolved.addedGroups, members: resolved.addedMembers.count)
    }

    /// Writes a file's transactions as they are resolved: the first `bulkTransactions` are held to
    /// decide whether the write is a bulk one (`isBulk`); after that each is written as it comes.
    struct TransactionWriter {
        private var resolver: TransactionResolver
        private let db: Database
        private let accounts: AccountIndex
        private var held: [Transaction] = []
        private var bulk: Checkpoints.BulkWrite?
        private var deciding = true
        private let now = Timestamp.now()
        private var seq: Int

        init(_ draft: LedgerDraft, _ db: Database) throws {
            resolver = try TransactionResolver(draft)
            self.db = db
            accounts = draft.accountIndex()
            seq = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM txn") ?? 0
        }

        mutating func take(_ entry: LedgerDocument.TransactionEntry) throws {
            guard let transaction = try resolver.resolve(entry) else { return }
            guard deciding else { return try write(transaction) }
            held.append(transaction)
            if held.count >= bulkTransactions { try decide() }
        }

        /// Checks the sums, writes what is held and finishes a bulk write.
        mutating func finish() throws {
            try resolver.finish()
            if deciding { try decide() }
            try bulk?.finish()
        }

        private mutating func decide() throws {
            deciding = false
            if try isBulk(held, db) { bulk = try Checkpoints.BulkWrite(db) }
            for transaction in held { try write(transaction) }
            held = []
        }

        /// After a failure: the page cache as it was (the rollback restores the rest).
        func restoreCache() { bulk?.restoreCache() }

        private mutating func write(_ transaction: Transaction) throws {
            seq += 1
            let key = try freeStatementKey(db, resolver.draft.content.statementKeys[transaction.id])
            try insertTransaction(db, transaction, accounts, seq: seq, now: now, importKey: key)
            try bulk?.wrote(transaction)
        }
    }

    /// A statement line's key from a file, unless a transaction of the database has it already
    /// (that line was imported into this ledger by itself): a key stands for one transaction.
    static func freeStatementKey(_ db: Database, _ key: String?) throws -> String? {
        guard let key else { return nil }
        let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM txn WHERE importKey = ?)", arguments: [key]) ?? false
        return taken ? nil : key
    }

    /// What identifies an id-less transaction of a file: its day, texts, and postings by account name.
    static func contentKey(_ entry: LedgerDocument.TransactionEntry, _ transaction: Transaction) -> String {
        var key = "\(entry.day.number)\u{1F}\(entry.payee)\u{1F}\(entry.note)\u{1F}\(entry.spender)\u{1F}\(entry.tags.joined(separator: ","))"
        for (posting, built) in zip(entry.postings, transaction.postings) {
            key += "\u{1F}\(Store.nameKey(posting.account))=\(built.amount.minor) \(built.amount.currency.code) \(built.note)"
        }
        return key
    }
}

/// The database's records, looked up one by one as a file is resolved onto them.
struct DatabaseLookup: LedgerLookup {
    let db: Database

    func transaction(_ id: String) throws -> (deleted: Bool, live: Transaction?)? {
        guard let deleted = try Bool.fetchOne(db.cachedStatement(sql: "SELECT deleted FROM txn WHERE id = ?"), arguments: [id]) else { return nil }
        return (deleted, deleted ? nil : try Store.fetchTransactions(db, ids: [id]).first)
    }

    func holdsTransactions() throws -> Bool { try Bool.fetchOne(db, sql: "SELECT 1 FROM txn LIMIT 1") != nil }

    func isDeleted(_ table: String, _ id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table) WHERE id = ? AND deleted = 1"), arguments: [id]) != nil
    }

    func schedule(_ id: String) throws -> Schedule? {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM schedule WHERE id = ?"), arguments: [id]) != nil else { return nil }
        return try Store.fetchSchedules(db, ids: [id]).first
    }

    func scheduleNameTaken(_ nameKey: String) throws -> Bool {
        try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM schedule WHERE deleted = 0 AND nameKey = ?"), arguments: [nameKey]) != nil
    }

    func nextSchedulePosition() throws -> Int { try Store.nextSchedulePosition(db) }

    func instrumentExists(in table: String, onAccount accountID: String, except id: String) throws -> Bool {
        try db.instrumentExists(in: table, onAccount: accountID, except: id)
    }

    func loan(_ id: String) throws -> LedgerLoan? { try Store.fetchLoans(db, filter: "AND id = ?", arguments: [id]).first }
    func card(_ id: String) throws -> LedgerCard? { try Store.fetchCards(db, filter: "AND id = ?", arguments: [id]).first }
    func deposit(_ id: String) throws -> LedgerDeposit? { try Store.fetchDeposits(db, filter: "AND id = ?", arguments: [id]).first }
    func due(_ id: String) throws -> Due? { try Store.fetchDues(db, filter: "AND id = ?", arguments: [id]).first }
    func lastDueNumber() throws -> Int { try Int.fetchOne(db, sql: "SELECT MAX(number) FROM due") ?? 0 }
    func rate(_ currency: Currency, on day: Day) throws -> ExchangeRate? {
        try Store.fetchRates(db, filter: " AND currency = ? AND day = ?", arguments: [currency.code, day.number]).first
    }
    func rate(_ id: String) throws -> ExchangeRate? { try Store.fetchRates(db, filter: " AND id = ?", arguments: [id]).first }
    func budget(_ id: String) throws -> Budget? { try Store.fetchBudgets(db, filter: "AND budget.id = ?", arguments: [id]).first }
    func budget(onCategory categoryID: String) throws -> Budget? {
        try Store.fetchBudgets(db, filter: "AND budget.categoryId = ?", arguments: [categoryID]).first
    }

    func postingSums(_ accountID: String) throws -> [String: (positive: Int64, negative: Int64)]? {
        do {
            var sums: [String: (positive: Int64, negative: Int64)] = [:]
            // From the balance checkpoints: O(months), not O(postings). SQLite's sum() fails on
            // an integer overflow; a month that went past Int64 inside a write (SQLite's `+`
            // then makes it a real number) makes its sum a real one.
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT currency, SUM(positiveMinor), SUM(negativeMinor),
                            typeof(SUM(positiveMinor)) = 'integer' AND typeof(SUM(negativeMinor)) = 'integer'
                        FROM balanceMonth WHERE accountId = ? GROUP BY currency
                        """), arguments: [accountID])
            {
                guard row[3] as Bool else { return nil }
                sums[row[0]] = (row[1] ?? 0, row[2] ?? 0)
            }
            return sums
        } catch let error as DatabaseError where error.message?.contains("overflow") == true {
            return nil
        }
    }
}

/// Ids derived from content: two 64-bit FNV-1a hashes shaped as a UUID (version 8, "custom").
enum StableID {
    /// Whether `text` is a UUID: 8-4-4-4-12 hex digits.
    static func isUUID(_ text: String) -> Bool {
        var length = 0
        for byte in text.utf8 {
            switch length {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) else {
                    return false
                }
            }
            length += 1
            if length > 36 { return false }
        }
        return length == 36
    }

    static func make(_ text: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        var high = fnv(0xcbf2_9ce4_8422_2325)
        var low = fnv(0x84222325cbf29ce4)
        high = (high & ~0xF000) | 0x8000  // version 8
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: digits - text.count) + text
        }
        let h = hex(high, 16)
        let l = hex(low, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
    }
}
