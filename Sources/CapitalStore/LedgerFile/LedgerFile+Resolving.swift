import CapitalCore

extension LedgerDocument {
    /// The ledger this file describes, checked as an import into an empty database checks it.
    /// What `-f` answers from; no database is involved.
    /// - Throws: `StoreError.file` naming the line and path of what is wrong, or the error a
    ///   record's check gives (`household.yaml:40: cards[0].limit …`).
    public func resolve() throws(StoreError) -> ResolvedLedger {
        let draft = LedgerDraft(ResolvedLedger(file: file))
        try Store.resolving(file) { try Store.resolve(self, onto: draft) }
        return draft.content
    }
}

extension Store {
    /// Runs a record's builder for an entry of the file: the fields its errors name by key are
    /// named by their places in the file (`{limit}` → `household.yaml:40: cards[0].limit`).
    static func building<T>(_ place: (String) -> FileLocation, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StoreError {
            // An amount in the file that is not one is the file's error (exit 1, clipped), not a
            // malformed command line's.
            if case .money(let field, let money) = error, field.hasPrefix("{"), field.hasSuffix("}") {
                throw StoreError.file(LedgerFileError(place(String(field.dropFirst().dropLast())), "\(money)"))
            }
            // A malformed value in the file is the file's error too (exit 1), not a command line's.
            throw error.asInvalid.rekeyed({ FieldKeys.literal("\(place($0))") }, inReason: { FieldKeys.literal(place($0).path) })
        }
    }

    /// Runs a resolution, giving its errors the shape loading a file always gave them.
    static func resolving(_ file: String, _ body: () throws -> Void) throws(StoreError) {
        do { try body() } catch let error as StoreError { throw error } catch {
            throw .conflict(FieldKeys.literal("\(file): \(error)"))
        }
    }

    /// Resolves a ledger file onto `draft` (an empty ledger, or a database's for an import).
    /// An account or group of the same name must have the same kind (type) and currency, and is
    /// then shared; group memberships are joined; a transaction whose `id` is already present
    /// must be identical and is skipped. Anything else that disagrees is an error.
    static func resolve(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        try resolveHead(document, onto: draft)
        var transactions = try TransactionResolver(draft)
        for entry in document.transactions {
            if let transaction = try transactions.resolve(entry) { draft.content.transactions.append(transaction) }
        }
        try transactions.finish()
        try resolveTail(document, onto: draft)
    }

    /// The file's currency, accounts, groups and default account, which its transactions need.
    static func resolveHead(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        var createdCapital = false
        if let code = draft.recordSetting("currency") {
            if code != document.currency.code {
                throw fail(
                    FileLocation(file: document.file, line: nil, path: "currency"),
                    "the file's currency \(document.currency.code) differs from the database's \(code); nothing was imported")
            }
        } else {
            draft.setSetting("currency", document.currency.code)
            try draft.addAccount(Account(id: newID(), name: Account.capitalName, kind: .equity, currency: document.currency))
            createdCapital = true
        }

        var seen: [String: FileLocation] = [:]
        for entry in document.accounts {
            if let first = seen[nameKey(entry.name)] {
                throw fail(entry.location, "duplicate account name '\(entry.name)' (first defined at line \(first.line ?? 0))")
            }
            seen[nameKey(entry.name)] = entry.location
            do { try validateName(entry.name, field: "name") } catch { throw fail(entry.location, "\(error)") }
            do { try validateText(entry.note, field: "note") } catch { throw fail(entry.location.field("note"), "\(error)") }
            let currency = entry.currency ?? document.currency
            var floor: Int64?
            if let text = entry.floor {
                do { floor = try Money.parseMinor(text, exponent: currency.exponent, code: currency.code) } catch {
                    throw fail(entry.location.field("floor"), "\(error)")
                }
            }
            var valueChange: AssetRevaluation?
            if let text = entry.valueChange {
                let location = entry.location.field("valueChange")
                guard let since = entry.valueSince else { throw fail(location, "'\(text)' needs valueSince: the day the value was known") }
                do { valueChange = try AssetRevaluation(parsing: text, since: since) } catch .invalid(_, _, let reason) {
                    throw fail(location, "'\(text)': \(reason)")
                }
                do { try validateValueChange(valueChange, kind: entry.kind) } catch {
                    throw fail(location, "'\(text)': only a fixed-asset account changes value")
                }
            }
            func style(_ text: String?, _ key: String, _ check: (String, String) throws(AccountStyleError) -> String) throws -> String? {
                guard let text else { return nil }
                do { return try check(text, key) } catch {
                    switch error {
                    case .invalid(_, _, let reason): throw fail(entry.location.field(key), "'\(text)': \(reason)")
                    }
                }
            }
            let color = try style(entry.color, "color", Account.checkedColor)
            let icon = try style(entry.icon, "icon", Account.checkedIcon)
            let isCapital = nameKey(entry.name) == nameKey(Account.capitalName) && entry.kind == .equity
            if isCapital && entry.hidden {
                throw fail(entry.location, "account '\(Account.capitalName)': the equity account cannot be hidden")
            }
            if var existing = draft.accountIndex()[name: entry.name] {
                guard existing.kind == entry.kind, existing.currency == currency else {
                    throw fail(
                        entry.location,
                        "account '\(entry.name)' already exists as \(existing.kind.rawValue) in \(existing.currency.code), the file has \(entry.kind.rawValue) in \(currency.code)"
                    )
                }
                if createdCapital && isCapital {
                    // Created a moment ago: it takes the file's fields.
                    (existing.floor, existing.level, existing.note, existing.color, existing.icon) = (floor, entry.level, entry.note, color, icon)
                    draft.updateAccount(existing)
                    draft.content.summary.accountsAdded += 1
                } else {
                    // A merged account keeps its fields; a colour or an icon it lacks comes from the file
                    // (the categories `init` made get the file's look).
                    if existing.color == nil && color != nil || existing.icon == nil && icon != nil {
                        existing.color = existing.color ?? color
                        existing.icon = existing.icon ?? icon
                        draft.updateAccount(existing)
                        if !draft.content.addedAccounts.contains(existing.id) { draft.content.restyled.append(existing.id) }
                    }
                    draft.content.summary.accountsMerged += 1
                }
                continue
            }
            try draft.addAccount(
                Account(
                    id: newID(), name: entry.name, kind: entry.kind, currency: currency, floor: floor, level: entry.level, hidden: entry.hidden,
                    note: entry.note, valueChange: valueChange, color: color, icon: icon))
            draft.content.summary.accountsAdded += 1
        }

        try resolveGroups(document, onto: draft)
        try resolveDefaultAccount(document, onto: draft)
    }

    /// The file's groups, their accounts joined to the groups of the same name.
    static func resolveGroups(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        let accounts = draft.accountIndex()
        var seen: [String: FileLocation] = [:]
        for entry in document.groups {
            if let first = seen[nameKey(entry.name)] {
                throw fail(entry.location, "duplicate group name '\(entry.name)' (first defined at line \(first.line ?? 0))")
            }
            seen[nameKey(entry.name)] = entry.location
            do { try validateName(entry.name, field: "name") } catch { throw fail(entry.location, "\(error)") }
            let position: Int
            if let found = draft.content.groups.firstIndex(where: { nameKey($0.name) == nameKey(entry.name) }) {
                let existing = draft.content.groups[found]
                guard existing.type == entry.type else {
                    throw fail(
                        entry.location, "group '\(entry.name)' already exists as \(existing.type.rawValue), the file has \(entry.type.rawValue)")
                }
                position = found
                draft.content.summary.groupsMerged += 1
            } else {
                let group = AccountGroup(id: newID(), name: entry.name, type: entry.type)
                draft.content.groups.append(group)
                draft.content.addedGroups.insert(group.id)
                position = draft.content.groups.count - 1
                draft.content.summary.groupsAdded += 1
            }
            for (name, location) in entry.accounts {
                let id = try accountID(name, location, accounts)
                if !draft.content.groups[position].accountIDs.contains(id) {
                    draft.content.groups[position].accountIDs.append(id)
                    draft.content.addedMembers.append((draft.content.groups[position].id, id))
                }
            }
        }
    }

    /// The file's default account, unless the database has one.
    static func resolveDefaultAccount(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        let accounts = draft.accountIndex()
        if let (name, location) = document.defaultAccount {
            let id = try accountID(name, location, accounts)
            if draft.recordSetting("defaultAccount") == nil {
                let account = accounts[id: id]!
                guard account.kind.isBalanceSheet else {
                    let reason = "a category cannot be the default account; pick a cash or debit account"
                    throw StoreError.file(LedgerFileError(location, "\(StoreError.invalid(field: "{default}", value: account.name, reason: reason))"))
                }
                draft.setSetting("defaultAccount", id)
            }
        }
    }

    /// The id of the account `name` (of the file or the database) written at `at`.
    static func accountID(_ name: String, _ at: FileLocation, _ accounts: AccountIndex) throws -> String {
        guard let account = accounts[name: name] else {
            throw StoreError.file(LedgerFileError(at, "'\(name)' is not an account defined in the file (or the database)"))
        }
        return account.id
    }

    /// What follows the transactions: calendars, schedules, loans, cards, deposits, dues, rates and budgets.
    static func resolveTail(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        let accounts = draft.accountIndex()
        try resolveCalendars(document, onto: draft)
        try resolveSchedules(document, onto: draft, accounts: accounts)
        try resolveInstruments(
            document.loans, onto: draft, kind: "loan", id: \.id, account: \.input.account, location: \.location,
            // Its terms are compared; what its payments paid is the marks' and transactions' to say.
            existing: { id in
                var stored = try draft.lookup.loan(id)
                stored?.payments = [:]
                return stored
            },
            added: \.loans, valueID: \.id,
            build: { entry, id in
                var loan = try building(entry.place) { try buildLoan(draft, id: id, entry.input, accounts: draft.accountIndex()) }
                // A file that does not say how far the history goes takes the stored loan's word.
                if loan.handledThrough == nil, let stored = try draft.lookup.loan(id) { loan.handledThrough = stored.handledThrough }
                var transactionIDs: Set<String>?
                draft.content.flowMarks[id] = try resolveMarks(entry.posted, onto: draft, known: &transactionIDs)
                return loan
            })
        try resolveInstruments(
            document.cards, onto: draft, kind: "card", id: \.id, account: \.input.account, location: \.location, existing: draft.lookup.card,
            added: \.cards, valueID: \.id,
            build: { entry, id in
                let card = try building(entry.location.field) { try buildCard(draft, id: id, entry.input) }
                var transactionIDs: Set<String>?
                draft.content.flowMarks[id] = try resolveMarks(entry.posted, onto: draft, known: &transactionIDs)
                return card
            })
        try resolveInstruments(
            document.deposits, onto: draft, kind: "deposit", id: \.id, account: \.input.account, location: \.location,
            existing: draft.lookup.deposit, added: \.deposits, valueID: \.id,
            build: { entry, id in
                var deposit = try building(entry.location.field) { try buildDeposit(draft, id: id, entry.input) }
                if deposit.handledThrough == nil, let stored = try draft.lookup.deposit(id) { deposit.handledThrough = stored.handledThrough }
                var transactionIDs: Set<String>?
                draft.content.flowMarks[id] = try resolveMarks(entry.posted, onto: draft, known: &transactionIDs)
                return deposit
            })
        try resolveDues(document, onto: draft)
        try resolveRates(document, onto: draft)
        try resolveInstruments(
            document.budgets, onto: draft, kind: "budget", id: \.id, account: \.input.category, location: \.location,
            existing: { try draft.lookup.budget($0) }, added: \.budgets, valueID: \.id,
            build: { entry, id in
                let budget = try building(entry.location.field) { try buildBudget(draft, id: id, entry.input) }
                var skipped: [(day: Day, mark: FlowMark)] = []
                for (day, at) in entry.skipped where !skipped.contains(where: { $0.day == day }) {
                    let start = Budget.period(budget.period, containing: day).start
                    guard start == day else {
                        throw StoreError.file(LedgerFileError(at, "'\(day)': not the first day of a \(budget.period.rawValue) period (\(start))"))
                    }
                    skipped.append((day, FlowMark(state: .skipped, transactionID: nil)))
                }
                draft.content.flowMarks[id] = skipped
                return budget
            },
            adding: { budget in
                // Checked for a new budget only, as inserting one always did.
                let other =
                    try draft.content.budgets.first { $0.categoryID == budget.categoryID } ?? draft.lookup.budget(onCategory: budget.categoryID)
                if let other {
                    throw StoreError.conflict(FieldKeys.literal("budget of '\(budget.categoryID)': the category already has a budget (\(other.id))"))
                }
            })
    }

    static func resolveCalendars(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        if let name = document.calendar {
            let at = FileLocation(file: document.file, line: nil, path: "calendar")
            let calendar: WorkingDayCalendar
            do { calendar = try workingDayCalendar(draft, name) } catch { throw fail(at, "\(error)") }
            if draft.recordSetting("calendar") == nil { draft.setSetting("calendar", calendar.name) }
        }
        for entry in document.calendars {
            let calendar: WorkingDayCalendar
            do { calendar = try workingDayCalendar(draft, entry.name) } catch { throw fail(entry.location, "\(error)") }
            for (days, holiday) in [(entry.holidays, true), (entry.workingDays, false)] {
                for (day, name) in days {
                    if let existing = draft.content.calendarDays.first(where: { $0.calendar == calendar.name && $0.day == day }) {
                        guard existing.holiday == holiday else {
                            throw fail(
                                entry.location,
                                "\(day) is a \(existing.holiday ? "holiday" : "workday") of \(calendar.name) in the database, the file makes it a \(holiday ? "holiday" : "workday")"
                            )
                        }
                        continue
                    }
                    let added = ResolvedLedger.CalendarDay(calendar: calendar.name, day: day, holiday: holiday, name: name)
                    draft.content.calendarDays.append(added)
                    draft.content.addedCalendarDays.append(added)
                }
            }
        }
    }

    static func resolveSchedules(_ document: LedgerDocument, onto draft: LedgerDraft, accounts: AccountIndex) throws {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        var position = try draft.lookup.nextSchedulePosition()
        var names = Set<String>()
        var added: [String: Int] = [:]
        var transactionIDs: Set<String>?
        for entry in document.schedules {
            let id = entry.id?.lowercased() ?? StableID.make("schedule\u{1F}\(nameKey(entry.input.name))")
            try checkGivenID(entry.id, at: entry.location)
            var input = entry.input
            // Accounts by name alone (never an id prefix), and named in errors as the file names them.
            input.postings = try input.postings.map { posting in
                guard let account = accounts[name: posting.account] else {
                    throw fail(entry.location, "'\(posting.account)' is not an account defined in the file (or the database)")
                }
                var named = posting
                named.account = account.name
                return named
            }
            for (name, field) in [(input.from, "from"), (input.to, "to")] {
                if let name, accounts[name: name] == nil {
                    throw fail(entry.location, "\(field): '\(name)' is not an account defined in the file (or the database)")
                }
            }
            input.from = input.from.flatMap { accounts[name: $0]?.name }
            input.to = input.to.flatMap { accounts[name: $0]?.name }
            var (schedule, _) = try building(entry.location.field) { try buildSchedule(draft, id: id, input, today: input.start, accounts: accounts) }
            let handled = entry.handledThrough ?? input.start.advanced(by: -1)
            for exception in entry.exceptions {
                var amount: Int64?
                if let text = exception.amount {
                    do { amount = try Money.parseMinor(text, exponent: schedule.currency.exponent, code: schedule.currency.code) } catch {
                        throw fail(exception.location, "amount: \(error)")
                    }
                }
                // One exception per occurrence: a later one for the same day replaces the earlier, as stored.
                schedule.exceptions.removeAll { $0.original == exception.date }
                schedule.exceptions.append(.init(original: exception.date, skip: exception.skip, movedTo: exception.moveTo, amount: amount))
            }
            if let existing = try added[id].map({ draft.content.schedules[$0].schedule }) ?? draft.lookup.schedule(id) {
                var sorted = schedule
                sorted.exceptions.sort { $0.original < $1.original }
                guard existing == schedule || existing == sorted else {
                    throw fail(entry.location, "schedule '\(schedule.name)' (\(id)) already exists with different content")
                }
                draft.content.summary.schedulesAlreadyPresent += 1
                continue
            }
            if try draft.lookup.isDeleted("schedule", id) {
                throw fail(
                    entry.location, "schedule '\(schedule.name)' (\(id)) was deleted from the database; remove it from the file or give it a new id")
            }
            let key = nameKey(schedule.name)
            let taken = try names.contains(key) || draft.lookup.scheduleNameTaken(key)
            if taken {
                throw StoreError.duplicateName(what: "schedule", name: schedule.name)
            }
            names.insert(key)
            let posted = try resolveMarks(entry.posted, onto: draft, known: &transactionIDs)
            added[id] = draft.content.schedules.count
            draft.content.schedules.append(.init(schedule: schedule, handledThrough: handled, position: position, posted: posted))
            position += 1
            draft.content.summary.schedulesAdded += 1
        }
    }

    /// Adds a file's instruments by id (derived from the account's name when the file gives none);
    /// one already there must have the same terms.
    /// The marks of a schedule or a loan, each transaction found in the file or the database; the
    /// first of a day counts.
    static func resolveMarks(_ entries: [LedgerDocument.MarkEntry], onto draft: LedgerDraft, known transactionIDs: inout Set<String>?) throws
        -> [(day: Day, mark: FlowMark)]
    {
        var marks: [(day: Day, mark: FlowMark)] = []
        for entry in entries {
            var mark = entry.mark
            if let transaction = mark.transactionID {
                let id = transaction.lowercased()
                if transactionIDs == nil { transactionIDs = Set(draft.content.transactions.map(\.id)) }
                var known = transactionIDs!.contains(id)
                if !known { known = try draft.lookup.transaction(id) != nil }
                guard known else {
                    throw StoreError.file(LedgerFileError(entry.location, "transaction '\(transaction)' is not in the file or the database"))
                }
                mark.transactionID = id
            }
            if !marks.contains(where: { $0.day == entry.date }) { marks.append((entry.date, mark)) }
        }
        return marks
    }

    static func resolveInstruments<Entry, Value: Equatable>(
        _ entries: [Entry], onto draft: LedgerDraft, kind: String, id: (Entry) -> String?, account: (Entry) -> String,
        location: (Entry) -> FileLocation, existing: (String) throws -> Value?, added: WritableKeyPath<ResolvedLedger, [Value]>,
        valueID: KeyPath<Value, String>,
        build: (Entry, String) throws -> Value, adding: (Value) throws -> Void = { _ in }
    ) throws {
        for entry in entries {
            try checkGivenID(id(entry), at: location(entry))
            let identifier = id(entry)?.lowercased() ?? StableID.make("\(kind)\u{1F}\(nameKey(account(entry)))")
            let built = try build(entry, identifier)
            if let present = try draft.content[keyPath: added].first(where: { $0[keyPath: valueID] == identifier }) ?? existing(identifier) {
                guard present == built else {
                    throw StoreError.file(
                        LedgerFileError(location(entry), "\(kind) '\(account(entry))' (\(identifier)) already exists with different terms"))
                }
                draft.content.summary.countInstrument(kind, added: false)
                continue
            }
            if try draft.lookup.isDeleted(kind, identifier) {
                throw StoreError.file(
                    LedgerFileError(
                        location(entry),
                        "\(kind) '\(account(entry))' (\(identifier)) was deleted from the database; remove it from the file or give it a new id"))
            }
            try adding(built)
            draft.content[keyPath: added].append(built)
            draft.content.summary.countInstrument(kind, added: true)
        }
    }

    /// Adds a file's bills and fines by id (derived from type, reason and due day when the file
    /// gives none); one already there must be the same.
    static func resolveDues(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        // Numbers go on from the highest stored or added one (read once, not per due).
        var last = try draft.lookup.lastDueNumber()
        for entry in document.dues {
            try checkGivenID(entry.id, at: entry.location)
            let input = entry.input
            let id =
                entry.id?.lowercased() ?? StableID.make("due\u{1F}\(input.type.rawValue)\u{1F}\(nameKey(input.reason))\u{1F}\(input.dueDay.number)")
            let present = try draft.content.dues.first { $0.id == id } ?? draft.lookup.due(id)
            let built = try building({ entry.location.field($0 == "dueDay" ? "due" : $0) }) {
                try buildDue(draft, id: id, number: present?.number ?? last + 1, input)
            }
            if let present {
                guard present == built else {
                    throw StoreError.file(
                        LedgerFileError(entry.location, "\(input.type.rawValue) '\(input.reason)' (\(id)) already exists with different terms"))
                }
                draft.content.summary.countInstrument(input.type.rawValue, added: false)
                continue
            }
            try refuseDeleted("due", id, named: "\(input.type.rawValue) '\(input.reason)'", draft, at: entry.location)
            draft.content.dues.append(built)
            last = max(last, built.number)
            draft.content.summary.countInstrument(input.type.rawValue, added: true)
        }
    }

    /// A file's rates: ids derive from the currency and day; a rate the ledger has (by id, or
    /// for the same currency and day) must have the same value, and one currency and day has
    /// one rate in a file.
    static func resolveRates(_ document: LedgerDocument, onto draft: LedgerDraft) throws {
        let ledger = try ledgerCurrency(draft, location: draft.content.file)
        var seen: [String: FileLocation] = [:]
        for entry in document.rates {
            try checkGivenID(entry.id, at: entry.location)
            let input = entry.input
            let code = input.currency.uppercased()
            let id = entry.id?.lowercased() ?? StableID.make("rate\u{1F}\(code)\u{1F}\(input.day.number)")
            let built = try building(entry.location.field) { try buildRate(id: id, input, ledger: ledger) }
            let key = "\(built.currency.code) \(built.day.number)"
            if let first = seen[key] {
                throw StoreError.file(
                    LedgerFileError(
                        entry.location,
                        "a second rate for \(built.currency.code) on \(built.day) (the first \(first.line.map { "on line \($0)" } ?? "earlier in the file")): which one?"
                    ))
            }
            seen[key] = entry.location
            if let present = try draft.lookup.rate(id) ?? draft.lookup.rate(built.currency, on: built.day) {
                guard present.value == built.value && present.per == built.per && present.currency == built.currency && present.day == built.day
                else {
                    throw StoreError.file(
                        LedgerFileError(
                            entry.location,
                            "the ledger has \(present.value) per \(present.per) \(present.currency.code) on \(present.day) (\(present.id)); remove it with rate rm or change the file"
                        ))
                }
                draft.content.summary.ratesAlreadyPresent += 1
                continue
            }
            try refuseDeleted("rate", id, named: "the rate of \(code) on \(input.day)", draft, at: entry.location)
            draft.content.rates.append(built)
            draft.content.summary.ratesAdded += 1
        }
    }

    /// Refuses an `id` a file gives that is not a UUID.
    static func checkGivenID(_ given: String?, at location: FileLocation) throws {
        if let given, !StableID.isUUID(given) {
            throw StoreError.file(
                LedgerFileError(location, "id '\(given)' is not a UUID (8-4-4-4-12 hex digits); leave it out and capital derives one"))
        }
    }

    /// Refuses a record of `table` the database holds only as deleted: the file would bring it back.
    static func refuseDeleted(_ table: String, _ id: String, named name: String, _ draft: LedgerDraft, at location: FileLocation) throws {
        if try draft.lookup.isDeleted(table, id) {
            throw StoreError.file(
                LedgerFileError(location, "\(name) (\(id)) was deleted from the database; remove it from the file or give it a new id"))
        }
    }
}

/// Resolves a file's transactions one at a time, as they are read or streamed: each checked and
/// built as an import builds it, its id given or derived from its content, refused when the id
/// came before in the file or is stored with other content. What it keeps per transaction is its
/// id's line; per account, the running sums that must fit Int64.
struct TransactionResolver {
    let draft: LedgerDraft
    let accounts: AccountIndex
    /// The line of each id seen, by the id's 128 bits.
    private var ids = IDLines()
    private var occurrences: [String: Int] = [:]
    /// Each account name met as the file spells it, and its account's id: a name is folded and
    /// looked up once, not once a posting.
    private var accountIDs: [String: String] = [:]
    /// Per account touched: what is stored plus what is added, per currency (nil once it overflowed).
    private var sums: [String: [String: (positive: Int64, negative: Int64)]?] = [:]

    /// Whether the database held transactions when the file began: when it held none, only the
    /// file's own ids can clash, and those are caught as they come.
    private let lookingUp: Bool

    init(_ draft: LedgerDraft) throws {
        self.draft = draft
        accounts = draft.accountIndex()
        lookingUp = try draft.lookup.holdsTransactions()
    }

    /// The id of the account a posting names, from the names met before when it was met.
    private mutating func accountID(_ posting: LedgerDocument.PostingEntry) throws -> String {
        if let id = accountIDs[posting.account] { return id }
        let id = try Store.accountID(posting.account, posting.location, accounts)
        accountIDs[posting.account] = id
        return id
    }

    /// The transaction `entry` adds, or nil when it is there already (or was deleted after an
    /// earlier import of the same file); the draft's summary counts it.
    mutating func resolve(_ entry: LedgerDocument.TransactionEntry) throws -> Transaction? {
        func fail(_ at: FileLocation, _ message: String) -> StoreError { .file(LedgerFileError(at, message)) }
        // A posting with an amount stands by its index until an error about the amount names
        // it (a million transactions would otherwise format two locations each that no message
        // uses); one without keeps its place, which the next one without an amount names.
        let inputs = try entry.postings.enumerated().map { index, posting in
            PostingInput(
                account: try accountID(posting), amount: posting.amount, currency: posting.currency,
                note: posting.note, field: posting.amount == nil ? "\(posting.amountLocation)" : String(index))
        }
        var transaction: Transaction
        do {
            transaction = try Store.build(
                accounts, id: "",
                TransactionInput(day: entry.day, payee: entry.payee, note: entry.note, spender: entry.spender, tags: entry.tags, postings: inputs))
        } catch StoreError.money(let field, let error) {
            // The file's error (exit 1), at the posting's amount.
            throw fail(Int(field).map { entry.postings[$0].amountLocation } ?? entry.location, "\(error)")
        } catch StoreError.ledger(let error) {
            throw fail(entry.location, "\(error)")
        } catch StoreError.invalid(_, let value, let reason), StoreError.malformed(_, let value, let reason) {
            // The postings were given account ids: name the account as the file does.
            throw fail(entry.location, "'\(accounts[id: value]?.name ?? value)': \(reason)")
        }
        let idLocation = { entry.location.field("id") }
        let key: UUIDKey
        if let given = entry.id {
            // One pass: the format checked, the bits read, and whether it is in lower case already.
            guard let bits = UUIDKey.bits(given) else {
                throw fail(idLocation(), "'\(given)' is not a UUID (8-4-4-4-12 hex digits); leave id out and capital derives one")
            }
            transaction.id = bits.isLowerCase ? given : given.lowercased()
            key = .bits(bits.high, bits.low)
        } else {
            // Without an id, the id derives from the content (and how many identical ones came
            // before in the file): importing the same file twice adds nothing the second time.
            let content = Store.contentKey(entry, transaction)
            occurrences[content, default: 0] += 1
            transaction.id = StableID.make(content + "#\(occurrences[content]!)")
            key = UUIDKey(transaction.id)
        }
        let id = transaction.id
        if let first = ids.insert(key, line: entry.location.line ?? 0) {
            throw fail(entry.location, "duplicate transaction id '\(id)' (first at line \(first))")
        }
        if lookingUp, let (deleted, existing) = try draft.lookup.transaction(id) {
            if deleted && entry.id == nil {
                // Deleted after an earlier import of the same file: it stays deleted.
                draft.content.summary.transactionsAlreadyPresent += 1
                return nil
            }
            guard let existing, existing == transaction else {
                throw fail(
                    idLocation(),
                    deleted
                        ? "transaction '\(id)' was deleted from the database; remove it from the file or give it a new id"
                        : "transaction '\(id)' already exists with different content")
            }
            draft.content.summary.transactionsAlreadyPresent += 1
            return nil
        }
        for posting in transaction.postings { try add(posting) }
        if let line = entry.statementLine {
            let account = try Store.accountID(line.account, entry.location.field("statementAccount"), accounts)
            draft.content.statementKeys[id] = "\(account):\(line.key)"
        }
        draft.content.summary.transactionsAdded += 1
        return transaction
    }

    /// Adds a posting to its account's sums: the positive and the negative ones apart, as the
    /// database sums them, from what the account holds already.
    private mutating func add(_ posting: Posting) throws {
        let account = posting.accountID
        if sums[account] == nil { sums[account] = .some(try draft.lookup.postingSums(account)) }
        // Taken out while it changes, so that it changes in place instead of being copied.
        guard var held = sums.updateValue(nil, forKey: account)! else { return }
        let code = posting.amount.currency.code
        var sum = held[code] ?? (0, 0)
        let minor = posting.amount.minor
        let overflow: Bool
        if minor > 0 {
            (sum.positive, overflow) = sum.positive.addingReportingOverflow(minor)
        } else {
            (sum.negative, overflow) = sum.negative.addingReportingOverflow(minor)
        }
        guard !overflow else { return }  // stays nil: the account overflowed
        held[code] = sum
        sums[account] = .some(held)
    }

    /// Refuses postings that would add up, on one account, past what Int64 holds; the account named
    /// is the first in the ledger's order, the equity account last: the one the user means.
    func finish() throws {
        let order = draft.content.accounts.filter { sums[$0.id] != nil }
        for id in (order.filter { $0.kind != .equity } + order.filter { $0.kind == .equity }).map(\.id) where sums[id]! == nil {
            throw StoreError.invalid(
                field: "account", value: accounts[id: id]?.name ?? id,
                reason: "its postings would add up past the largest amount capital can hold (Int64 minor units); nothing was changed")
        }
    }
}

/// A transaction id's 128 bits, or its text when it is not a UUID: a million ids seen cost 16
/// bytes each, not a string each.
enum UUIDKey: Hashable {
    case bits(UInt64, UInt64)
    case text(String)

    init(_ id: String) {
        if let bits = Self.bits(id), bits.isLowerCase { self = .bits(bits.high, bits.low) } else { self = .text(id) }
    }

    /// The 128 bits of a UUID written 8-4-4-4-12 in hexadecimal digits of either case (as
    /// `StableID.isUUID` takes it), and whether its letters are all lower case; nil for any other text.
    static func bits(_ text: String) -> (high: UInt64, low: UInt64, isLowerCase: Bool)? {
        var text = text
        return text.withUTF8 { bytes -> (UInt64, UInt64, Bool)? in
            guard bytes.count == 36 else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            var upper = false
            var digits = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"):
                    value = byte &- UInt8(ascii: "A") &+ 10
                    upper = true
                default: return nil
                }
                if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
                digits += 1
            }
            return (high, low, !upper)
        }
    }
}

/// The line of each transaction id seen in a file: an open-addressing table of the ids' 128 bits
/// (a `Dictionary` hashed each of a million ids with SipHash, a tenth of the resolving thread's
/// time), ids that are not UUIDs in a dictionary beside it.
/// - Complexity: O(1) expected per insert; 25 bytes a slot (its id, line and whether it is used), at most half the slots full.
struct IDLines {
    private var slots: [(high: UInt64, low: UInt64, line: Int)] = []
    private var used: [Bool] = []
    private var count = 0
    private var others: [String: Int] = [:]

    /// Records `key` at `line`; the line it was first seen at when it was seen before (and then
    /// nothing changes).
    mutating func insert(_ key: UUIDKey, line: Int) -> Int? {
        switch key {
        case .text(let text):
            if let first = others[text] { return first }
            others[text] = line
            return nil
        case .bits(let high, let low):
            if (count + 1) * 2 > slots.count { grow() }
            var index = slot(high, low)
            while used[index] {
                if slots[index].high == high && slots[index].low == low { return slots[index].line }
                index = (index + 1) & (slots.count - 1)
            }
            used[index] = true
            slots[index] = (high, low, line)
            count += 1
            return nil
        }
    }

    /// Where `high`/`low` starts looking: the bits mixed (a version 7 id's high bits are a clock),
    /// then the top bits for a table of a power of two.
    private func slot(_ high: UInt64, _ low: UInt64) -> Int {
        let mixed = (high ^ low.byteSwapped) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = zip(slots, used).filter(\.1).map(\.0)
        let size = Swift.max(1024, slots.count * 2)
        slots = Array(repeating: (0, 0, 0), count: size)
        used = Array(repeating: false, count: size)
        count = 0
        for entry in old {
            var index = slot(entry.high, entry.low)
            while used[index] { index = (index + 1) & (size - 1) }
            used[index] = true
            slots[index] = entry
            count += 1
        }
    }
}
