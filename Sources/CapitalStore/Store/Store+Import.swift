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
    /// Loans, cards and deposits.
    public var instrumentsAdded = 0
    public var instrumentsAlreadyPresent = 0

    public var description: String {
        "\(accountsAdded) accounts added, \(accountsMerged) merged; \(groupsAdded) groups added, \(groupsMerged) merged; "
            + "\(transactionsAdded) transactions added, \(transactionsAlreadyPresent) already present"
            + (schedulesAdded + schedulesAlreadyPresent > 0 ? "; \(schedulesAdded) schedules added, \(schedulesAlreadyPresent) already present" : "")
            + (instrumentsAdded + instrumentsAlreadyPresent > 0
                ? "; \(instrumentsAdded) loans, cards, deposits, dues and budgets added, \(instrumentsAlreadyPresent) already present" : "")
    }
}

extension Store {
    /// Imports a ledger file, all or nothing. Into an empty database it creates the ledger with the
    /// file's currency. Into one with data it merges by name: an account or group of the same name
    /// must have the same kind (type) and currency, and is then shared; group memberships are
    /// joined; a transaction whose `id` is already present must be identical and is skipped.
    /// Anything else that disagrees is a conflict and nothing is imported.
    @discardableResult
    public func importDocument(_ document: LedgerDocument) throws(StoreError) -> ImportSummary {
        try write("importing \(document.file)") { db in try Store.merge(db, document, location: location) }
    }

    /// A read-only in-memory store holding a ledger file (`-f FILE`).
    public static func load(_ document: LedgerDocument) throws(StoreError) -> Store {
        let store = try Store.inMemory(location: document.file, readOnly: true)
        _ = try store.load { db in try Store.merge(db, document, location: document.file) }
        return store
    }

    static func merge(_ db: Database, _ document: LedgerDocument, location: String) throws -> ImportSummary {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        var summary = ImportSummary()
        var createdCapital = false
        if let code = try Store.setting(db, "currency") {
            if code != document.currency.code {
                throw fail(
                    FileLocation(file: document.file, line: nil, path: "currency"),
                    "the file's currency \(document.currency.code) differs from the database's \(code); nothing was imported")
            }
        } else {
            try Store.initialize(db, currency: document.currency, categories: false)
            createdCapital = true
        }

        var seen: [String: FileLocation] = [:]
        for entry in document.accounts {
            if let first = seen[Store.nameKey(entry.name)] {
                throw fail(entry.location, "duplicate account name '\(entry.name)' (first defined at line \(first.line ?? 0))")
            }
            seen[Store.nameKey(entry.name)] = entry.location
            do { try Store.validateName(entry.name, field: "name") } catch {
                throw fail(entry.location, "\(error)")
            }
            let currency = entry.currency ?? document.currency
            var floor: Int64?
            if let text = entry.floor {
                do { floor = try Money.parseMinor(text, exponent: currency.exponent, code: currency.code) } catch {
                    throw fail(FileLocation(file: entry.location.file, line: entry.location.line, path: entry.location.path + ".floor"), "\(error)")
                }
            }
            var valueChange: AssetRevaluation?
            if let text = entry.valueChange {
                let at = FileLocation(file: entry.location.file, line: entry.location.line, path: entry.location.path + ".valueChange")
                guard let since = entry.valueSince else { throw fail(at, "'\(text)' needs valueSince: the day the value was known") }
                do { valueChange = try AssetRevaluation(parsing: text, since: since) } catch .invalid(_, _, let reason) {
                    throw fail(at, "'\(text)': \(reason)")
                }
                do { try Store.validateValueChange(valueChange, kind: entry.kind) } catch {
                    throw fail(at, "'\(text)': only a fixed-asset account changes value")
                }
            }
            func style(_ text: String?, _ key: String, _ check: (String, String) throws(AccountStyleError) -> String) throws -> String? {
                guard let text else { return nil }
                let at = FileLocation(file: entry.location.file, line: entry.location.line, path: entry.location.path + "." + key)
                do { return try check(text, key) } catch {
                    switch error {
                    case .invalid(_, _, let reason): throw fail(at, "'\(text)': \(reason)")
                    }
                }
            }
            let color = try style(entry.color, "color", Account.checkedColor)
            let icon = try style(entry.icon, "icon", Account.checkedIcon)
            let isCapital = Store.nameKey(entry.name) == Store.nameKey(Account.capitalName) && entry.kind == .equity
            if isCapital && entry.hidden {
                throw fail(entry.location, "account '\(Account.capitalName)': the equity account cannot be hidden")
            }
            if let id = try Store.accountID(named: entry.name, db), let existing = try Store.fetchAccounts(db, id: id) {
                guard existing.kind == entry.kind, existing.currency == currency else {
                    throw fail(
                        entry.location,
                        "account '\(entry.name)' already exists as \(existing.kind.rawValue) in \(existing.currency.code), the file has \(entry.kind.rawValue) in \(currency.code)"
                    )
                }
                if createdCapital && isCapital {
                    // Created by this import a moment ago: it takes the file's fields.
                    try db.cachedStatement(sql: "UPDATE account SET floorMinor = ?, level = ?, note = ?, color = ?, icon = ? WHERE id = ?").execute(
                        arguments: [floor, entry.level, entry.note, color, icon, existing.id])
                    summary.accountsAdded += 1
                } else {
                    // A merged account keeps its fields; a colour or an icon it lacks comes from the file
                    // (the categories `init` made get the file's look).
                    if existing.color == nil && color != nil || existing.icon == nil && icon != nil {
                        try db.cachedStatement(
                            sql:
                                "UPDATE account SET color = COALESCE(color, ?), icon = COALESCE(icon, ?), updatedAt = ?, version = version + 1 WHERE id = ?"
                        ).execute(arguments: [color, icon, Timestamp.now(), existing.id])
                    }
                    summary.accountsMerged += 1
                }
                continue
            }
            try Store.insertAccount(
                db,
                Account(
                    id: newID(), name: entry.name, kind: entry.kind, currency: currency, floor: floor, level: entry.level, hidden: entry.hidden,
                    note: entry.note,
                    valueChange: valueChange, color: color, icon: icon))
            summary.accountsAdded += 1
        }

        let accounts = AccountIndex(try Store.fetchAccounts(db))
        func accountID(_ name: String, _ at: FileLocation) throws -> String {
            guard let account = accounts[name: name] else {
                throw fail(at, "'\(name)' is not an account defined in the file (or the database)")
            }
            return account.id
        }

        seen = [:]
        for entry in document.groups {
            if let first = seen[Store.nameKey(entry.name)] {
                throw fail(entry.location, "duplicate group name '\(entry.name)' (first defined at line \(first.line ?? 0))")
            }
            seen[Store.nameKey(entry.name)] = entry.location
            do { try Store.validateName(entry.name, field: "name") } catch {
                throw fail(entry.location, "\(error)")
            }
            let group: AccountGroup
            if let existing = try Store.fetchGroups(db).first(where: { Store.nameKey($0.name) == Store.nameKey(entry.name) }) {
                guard existing.type == entry.type else {
                    throw fail(
                        entry.location, "group '\(entry.name)' already exists as \(existing.type.rawValue), the file has \(entry.type.rawValue)")
                }
                group = existing
                summary.groupsMerged += 1
            } else {
                group = AccountGroup(id: newID(), name: entry.name, type: entry.type)
                try Store.insertGroup(db, group)
                summary.groupsAdded += 1
            }
            for (name, at) in entry.accounts {
                let id = try accountID(name, at)
                if !group.accountIDs.contains(id) { try Store.addMember(db, groupID: group.id, accountID: id) }
            }
        }

        if let (name, at) = document.defaultAccount {
            let id = try accountID(name, at)
            if try Store.setting(db, "defaultAccount") == nil {
                do { try Store.setDefault(db, accounts[id: id]!) } catch { throw fail(at, "\(error)") }
            }
        }

        var touched = Set<String>()
        var ids: [String: FileLocation] = [:]
        var occurrences: [String: Int] = [:]
        for entry in document.transactions {
            let inputs = try entry.postings.map { posting in
                PostingInput(
                    account: try accountID(posting.account, posting.location), amount: posting.amount, currency: posting.currency, note: posting.note,
                    field: "\(posting.amountLocation)")
            }
            var transaction: Transaction
            do {
                transaction = try Store.build(
                    accounts, id: "",
                    TransactionInput(day: entry.day, payee: entry.payee, note: entry.note, spender: entry.spender, tags: entry.tags, postings: inputs)
                )
            } catch StoreError.ledger(let error) {
                throw fail(entry.location, "\(error)")
            } catch StoreError.invalid(_, let value, let reason) {
                throw fail(entry.location, "'\(value)': \(reason)")
            }
            if let given = entry.id {
                guard StableID.isUUID(given) else {
                    throw fail(
                        FileLocation(file: entry.location.file, line: entry.location.line, path: entry.location.path + ".id"),
                        "'\(given)' is not a UUID (8-4-4-4-12 hex digits); leave id out and capital derives one")
                }
                transaction.id = given.lowercased()
            } else {
                // Without an id, the id derives from the content (and how many identical ones came
                // before in the file): importing the same file twice adds nothing the second time.
                let content = Store.contentKey(entry, transaction)
                occurrences[content, default: 0] += 1
                transaction.id = StableID.make(content + "#\(occurrences[content]!)")
            }
            let id = transaction.id
            if let first = ids[id] {
                throw fail(entry.location, "duplicate transaction id '\(id)' (first at line \(first.line ?? 0))")
            }
            ids[id] = entry.location
            if let deleted = try Bool.fetchOne(db.cachedStatement(sql: "SELECT deleted FROM txn WHERE id = ?"), arguments: [id]) {
                let existing = deleted ? nil : try Store.fetchTransactions(db, ids: [id]).first
                if deleted && entry.id == nil {
                    // Deleted after an earlier import of the same file: it stays deleted.
                    summary.transactionsAlreadyPresent += 1
                    continue
                }
                guard let existing, existing == transaction else {
                    throw fail(
                        FileLocation(file: entry.location.file, line: entry.location.line, path: entry.location.path + ".id"),
                        deleted
                            ? "transaction '\(id)' was deleted from the database; remove it from the file or give it a new id"
                            : "transaction '\(id)' already exists with different content")
                }
                summary.transactionsAlreadyPresent += 1
                continue
            }
            try Store.insertTransaction(db, transaction, accounts)
            touched.formUnion(transaction.postings.map(\.accountID))
            summary.transactionsAdded += 1
        }
        try Store.checkBalancesFit(db, accountIDs: touched)
        try mergeCalendars(db, document)
        try mergeSchedules(db, document, accounts: accounts, summary: &summary)
        try mergeLoans(db, document, summary: &summary)
        try mergeCards(db, document, summary: &summary)
        try mergeDeposits(db, document, summary: &summary)
        try mergeDues(db, document, summary: &summary)
        try mergeBudgets(db, document, summary: &summary)
        return summary
    }

    static func mergeCalendars(_ db: Database, _ document: LedgerDocument) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        if let name = document.calendar {
            let at = FileLocation(file: document.file, line: nil, path: "calendar")
            let calendar: WorkingDayCalendar
            do { calendar = try workingDayCalendar(db, name) } catch { throw fail(at, "\(error)") }
            if try setting(db, "calendar") == nil { try setSetting(db, "calendar", calendar.name) }
        }
        for entry in document.calendars {
            let calendar: WorkingDayCalendar
            do { calendar = try workingDayCalendar(db, entry.name) } catch { throw fail(entry.location, "\(error)") }
            for (days, kind) in [(entry.holidays, "holiday"), (entry.workingDays, "workday")] {
                for (day, name) in days {
                    if let existing = try String.fetchOne(
                        db.cachedStatement(sql: "SELECT kind FROM calendarDay WHERE calendar = ? AND day = ?"),
                        arguments: [calendar.name, day.number])
                    {
                        guard existing == kind else {
                            throw fail(entry.location, "\(day) is a \(existing) of \(calendar.name) in the database, the file makes it a \(kind)")
                        }
                        continue
                    }
                    try db.cachedStatement(sql: "INSERT INTO calendarDay(calendar, day, kind, name) VALUES (?, ?, ?, ?)").execute(arguments: [
                        calendar.name, day.number, kind, name,
                    ])
                }
            }
        }
    }

    static func mergeSchedules(_ db: Database, _ document: LedgerDocument, accounts: AccountIndex, summary: inout ImportSummary) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        var position = try nextSchedulePosition(db)
        for entry in document.schedules {
            let id = entry.id?.lowercased() ?? StableID.make("schedule\u{1F}\(nameKey(entry.input.name))")
            if let given = entry.id, !StableID.isUUID(given) {
                throw fail(entry.location, "id '\(given)' is not a UUID (8-4-4-4-12 hex digits); leave it out and capital derives one")
            }
            var input = entry.input
            input.postings = try input.postings.map { posting in
                guard let account = accounts[name: posting.account] else {
                    throw fail(entry.location, "'\(posting.account)' is not an account defined in the file (or the database)")
                }
                var resolved = posting
                resolved.account = account.id
                return resolved
            }
            for (name, field) in [(input.from, "from"), (input.to, "to")] {
                if let name, accounts[name: name] == nil {
                    throw fail(entry.location, "\(field): '\(name)' is not an account defined in the file (or the database)")
                }
            }
            input.from = input.from.flatMap { accounts[name: $0]?.id }
            input.to = input.to.flatMap { accounts[name: $0]?.id }
            var (schedule, _) = try buildSchedule(db, id: id, input, today: input.start, accounts: accounts)
            let handled = entry.handledThrough ?? input.start.advanced(by: -1)
            for exception in entry.exceptions {
                var amount: Int64?
                if let text = exception.amount {
                    do { amount = try Money.parseMinor(text, exponent: schedule.currency.exponent, code: schedule.currency.code) } catch {
                        throw fail(exception.location, "amount: \(error)")
                    }
                }
                schedule.exceptions.append(.init(original: exception.date, skip: exception.skip, movedTo: exception.moveTo, amount: amount))
            }
            // Only a schedule already there is read back (none is, loading a file with `-f`).
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM schedule WHERE id = ?"), arguments: [id]) != nil,
                let existing = try fetchSchedules(db, ids: [id]).first
            {
                guard existing == schedule else {
                    throw fail(entry.location, "schedule '\(schedule.name)' (\(id)) already exists with different content")
                }
                summary.schedulesAlreadyPresent += 1
                continue
            }
            try insertSchedule(db, schedule, handledThrough: handled, position: position)
            position += 1
            for (date, transaction, at) in entry.posted {
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM txn WHERE id = ?"), arguments: [transaction.lowercased()]) != nil
                else {
                    throw fail(at, "transaction '\(transaction)' is not in the file or the database")
                }
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO postedOccurrence(scheduleId, original, txnId) VALUES (?, ?, ?)").execute(
                    arguments: [id, date.number, transaction.lowercased()])
            }
            summary.schedulesAdded += 1
        }
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
