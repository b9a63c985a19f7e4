import CapitalCore
import GRDB

/// The formats `capital export` writes.
public enum LedgerFileFormat: String, Sendable, CaseIterable {
    case yaml, json
}

extension LedgerFile {
    /// Writes a whole ledger deterministically: accounts and groups in the order they were added,
    /// transactions in the ledger's order (a store's: by day, then id), default values left out. Import then export gives the
    /// same bytes.
    public static func write(_ ledger: Ledger, defaultAccountID: String?, format: LedgerFileFormat, extras: LedgerExtras = LedgerExtras()) -> String {
        var text = ""
        do {
            try write(ledger, transactions: .list(ledger.transactions), defaultAccountID: defaultAccountID, format: format, extras: extras) {
                text += $0
            }
        } catch {
            preconditionFailure("a ledger written into a string cannot fail: \(error)")
        }
        return text
    }

    /// Writes a ledger file in parts of about a megabyte, handing each to `emit`: the ledger's
    /// records from `ledger`, its transactions from `transactions` (a list, or a walk over a
    /// database), so that a million transactions need not be in memory at once. The same bytes as
    /// `write(_:defaultAccountID:format:extras:)`.
    /// - Throws: what `transactions` or `emit` throws.
    static func write(
        _ ledger: Ledger, transactions: TransactionSource, defaultAccountID: String?, format: LedgerFileFormat, extras: LedgerExtras,
        emit: (String) throws -> Void
    ) throws {
        let names = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.name) })
        let currencies = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.currency) })
        var root: [(String, Value)] = [("capital", .number("1")), ("currency", .text(ledger.currency.code))]
        // A default account id that names no live account (a setting left dangling) is left out.
        let defaultName = defaultAccountID.flatMap { names[$0] }
        if let defaultName { root.append(("defaultAccount", .text(defaultName))) }
        root.append(
            (
                "accounts",
                .list(
                    ledger.accounts.map { account in
                        var fields: [(String, Value)] = [("name", .text(account.name)), ("kind", .text(account.kind.rawValue))]
                        if account.currency != ledger.currency { fields.append(("currency", .text(account.currency.code))) }
                        if let icon = account.icon { fields.append(("icon", .text(icon))) }
                        if let color = account.color { fields.append(("color", .text(color))) }
                        if let floor = account.floor {
                            fields.append(("floor", .amount(Money(minor: floor, currency: account.currency).plain)))
                        }
                        if let level = account.level { fields.append(("level", .number(String(level)))) }
                        if account.hidden { fields.append(("hidden", .bool(true))) }
                        if !account.note.isEmpty { fields.append(("note", .text(account.note))) }
                        if let change = account.valueChange {
                            fields.append(("valueChange", .number(change.description.dropLast().replacingOccurrences(of: "+", with: ""))))
                            fields.append(("valueSince", .text(change.since.iso)))
                        }
                        return .map(fields)
                    })
            ))
        if !ledger.groups.isEmpty {
            root.append(
                (
                    "groups",
                    .list(
                        ledger.groups.map { group in
                            .map([
                                ("name", .text(group.name)), ("type", .text(group.type.rawValue)),
                                ("accounts", .list(group.accountIDs.compactMap { names[$0] }.map(Value.text))),
                            ])
                        })
                ))
        }
        root.append(("transactions", .transactions))
        let rows = Rows(names: names, currencies: currencies, statementKeys: extras.statementKeys)
        if let calendar = extras.calendar, calendar != "none" { root.insert(("calendar", .text(calendar)), at: defaultName == nil ? 2 : 3) }
        let calendarNames = extras.calendarDays.reduce(into: [String]()) { if !$0.contains($1.calendar) { $0.append($1.calendar) } }
        if !calendarNames.isEmpty {
            root.append(
                (
                    "calendars",
                    .list(
                        calendarNames.map { name in
                            let days = extras.calendarDays.filter { $0.calendar == name }
                            func entries(_ holiday: Bool) -> Value {
                                .list(
                                    days.filter { $0.holiday == holiday }.map { day in
                                        .map([("date", .text(day.day.iso))] + (day.name.isEmpty ? [] : [("name", .text(day.name))]))
                                    })
                            }
                            return .map([("name", .text(name)), ("holidays", entries(true)), ("workingDays", entries(false))])
                        })
                ))
        }
        if !ledger.schedules.isEmpty {
            root.append(("schedules", .list(ledger.schedules.map { schedule(of: $0, names: names, ledger: ledger, extras: extras) })))
        }
        if !ledger.loans.isEmpty {
            root.append(
                (
                    "loans",
                    .list(ledger.loans.map { loan(of: $0, names: names, currency: currencies[$0.accountID] ?? ledger.currency, extras: extras) })
                ))
        }
        if !ledger.cards.isEmpty {
            root.append(
                (
                    "cards",
                    .list(ledger.cards.map { card(of: $0, names: names, currency: currencies[$0.accountID] ?? ledger.currency, extras: extras) })
                ))
        }
        if !ledger.deposits.isEmpty {
            root.append(("deposits", .list(ledger.deposits.map { deposit(of: $0, names: names, extras: extras) })))
        }
        if !ledger.dues.isEmpty {
            root.append(("dues", .list(ledger.dues.map { due(of: $0, names: names) })))
        }
        if !ledger.budgets.isEmpty {
            root.append(
                (
                    "budgets",
                    .list(ledger.budgets.map { budget(of: $0, names: names, currency: currencies[$0.categoryID] ?? ledger.currency, extras: extras) })
                ))
        }
        if !ledger.rates.isEmpty {
            root.append(("rates", .list(ledger.rates.map(rate(of:)))))
        }
        var out = ""
        /// Hands `out` over once it holds a megabyte.
        func flushIfFull() throws {
            if out.utf8.count >= 1 << 20 {
                try emit(out)
                out = ""
            }
        }
        switch format {
        case .yaml:
            out = "# capital ledger file: see docs/ledger-format.md\n"
            for (key, value) in root {
                guard case .transactions = value else {
                    yaml(key: key, value, indent: 0, into: &out)
                    continue
                }
                var empty = true
                try transactions.walk { transaction in
                    if empty { out += "\(key):\n" }
                    empty = false
                    rows.yaml(transaction, indent: 2, into: &out)
                    try flushIfFull()
                }
                if empty { out += "\(key): []\n" }
            }
        case .json:
            // As `json(.map(root))` writes it, the transactions one by one.
            out += "{\n"
            for (index, (key, value)) in root.enumerated() {
                out += "  " + quoted(key) + ": "
                if case .transactions = value {
                    out += "["
                    var empty = true
                    try transactions.walk { transaction in
                        out += empty ? "\n    " : ",\n    "
                        empty = false
                        json(rows.value(transaction), indent: 4, into: &out)
                        try flushIfFull()
                    }
                    out += empty ? "]" : "\n  ]"
                } else {
                    json(value, indent: 2, into: &out)
                }
                out += index == root.count - 1 ? "\n" : ",\n"
            }
            out += "}\n"
        }
        try emit(out)
    }

    private static func schedule(of s: Schedule, names: [String: String], ledger: Ledger, extras: LedgerExtras) -> Value {
        var fields: [(String, Value)] = [("id", .text(s.id)), ("name", .text(s.name))]
        if !s.note.isEmpty { fields.append(("note", .text(s.note))) }
        let text = s.rule.text
        fields.append(("rule", .text(text)))
        // A schedule without one follows the ledger's calendar; a named one (`none` too) is its own.
        if s.rule.calendar != Rule.ledgerCalendar { fields.append(("calendar", .text(s.rule.calendar))) }
        let implied = (try? Rule(parsing: text))?.adjustment ?? .none
        if s.rule.adjustment != implied { fields.append(("adjust", .text(s.rule.adjustment.rawValue))) }
        fields.append(("start", .text(s.start.iso)))
        if let end = s.end { fields.append(("end", .text(end.iso))) }
        let exponent = s.currency.exponent
        let simple =
            s.postings.count == 2 && s.postings[0].amount.minor == -s.postings[1].amount.minor && s.postings[0].amount.minor > 0
            && s.postings.allSatisfy { $0.note.isEmpty }
        if let model = s.amount ?? (simple ? AmountModel(fixed: s.postings[0].amount.minor) : nil) {
            fields.append(("amount", .amount(model.text(exponent: exponent))))
            if !model.isFixed && model.expected != model.low + (model.high - model.low) / 2 {
                fields.append(("expected", .amount(Money.format(minor: model.expected, exponent: exponent, grouping: nil))))
            }
            fields.append(("from", .text(names[s.postings[1].accountID] ?? s.postings[1].accountID)))
            fields.append(("to", .text(names[s.postings[0].accountID] ?? s.postings[0].accountID)))
        } else {
            fields.append(
                (
                    "postings",
                    .list(
                        s.postings.map { posting in
                            var p: [(String, Value)] = [
                                ("account", .text(names[posting.accountID] ?? posting.accountID)), ("amount", .amount(posting.amount.plain)),
                            ]
                            if !posting.note.isEmpty { p.append(("note", .text(posting.note))) }
                            return .map(p)
                        })
                ))
        }
        if s.approval != .auto { fields.append(("approval", .text(s.approval.rawValue))) }
        if let handled = extras.handledThrough[s.id], handled != s.start.advanced(by: -1) { fields.append(("handledThrough", .text(handled.iso))) }
        if !s.exceptions.isEmpty {
            fields.append(
                (
                    "exceptions",
                    .list(
                        s.exceptions.map { e in
                            var f: [(String, Value)] = [("date", .text(e.original.iso))]
                            if e.skip { f.append(("skip", .bool(true))) }
                            if let to = e.movedTo { f.append(("moveTo", .text(to.iso))) }
                            if let amount = e.amount { f.append(("amount", .amount(Money.format(minor: amount, exponent: exponent, grouping: nil)))) }
                            return .map(f)
                        })
                ))
        }
        if let marks = extras.marks[s.id], !marks.isEmpty { fields.append(("posted", markList(marks))) }
        return .map(fields)
    }

    /// `posted:` of a schedule or a loan, in day order.
    static func markList(_ marks: [(day: Day, mark: FlowMark)]) -> Value {
        .list(
            marks.sorted { $0.day < $1.day }.map { entry in
                var fields: [(String, Value)] = [("date", .text(entry.day.iso))]
                if let transaction = entry.mark.transactionID { fields.append(("transaction", .text(transaction))) }
                if entry.mark.state != .posted { fields.append(("state", .text(entry.mark.state.rawValue))) }
                return .map(fields)
            })
    }

    /// What a ledger's transactions are written with: account names and currencies by id.
    struct Rows {
        let names: [String: String]
        let currencies: [String: Currency]
        /// Per transaction id: the key of the statement line it stands for.
        var statementKeys: [String: String] = [:]

        /// The statement line `transaction` stands for, as a file writes it: the statement's
        /// account by name (the key's account id is the database's own) and the rest of the key.
        func statementLine(_ transaction: Transaction) -> (account: String, key: String)? {
            guard let stored = statementKeys[transaction.id], let colon = stored.firstIndex(of: ":") else { return nil }
            let id = String(stored[..<colon])
            return (names[id] ?? id, String(stored[stored.index(after: colon)...]))
        }

        /// One transaction as a tree of values (JSON writes it so).
        func value(_ transaction: Transaction) -> Value {
            var fields: [(String, Value)] = [("id", .text(transaction.id)), ("date", .text(transaction.day.iso))]
            if !transaction.payee.isEmpty { fields.append(("payee", .text(transaction.payee))) }
            if !transaction.note.isEmpty { fields.append(("note", .text(transaction.note))) }
            if !transaction.spender.isEmpty { fields.append(("spender", .text(transaction.spender))) }
            if !transaction.tags.isEmpty { fields.append(("tags", .inlineList(transaction.tags))) }
            if let line = statementLine(transaction) { fields += [("statementAccount", .text(line.account)), ("statementKey", .text(line.key))] }
            fields.append(
                (
                    "postings",
                    .list(
                        transaction.postings.map { posting in
                            var p: [(String, Value)] = [
                                ("account", .text(names[posting.accountID] ?? posting.accountID)),
                                ("amount", .amount(posting.amount.plain)),
                            ]
                            if currencies[posting.accountID] != posting.amount.currency {
                                p.append(("currency", .text(posting.amount.currency.code)))
                            }
                            if !posting.note.isEmpty { p.append(("note", .text(posting.note))) }
                            return .map(p)
                        })
                ))
            return .map(fields)
        }

        /// One transaction as a YAML list item at `indent`: the same text the tree of values gives
        /// (`yamlItem`), written straight into `out` — files with a million transactions.
        func yaml(_ transaction: Transaction, indent: Int, into out: inout String) {
            let item = LedgerFile.pad(indent)
            let field = LedgerFile.pad(indent + 2)
            out += item + "- id: " + LedgerFile.yamlText(transaction.id, inFlow: false) + "\n"
            out += field + "date: " + transaction.day.iso + "\n"
            if !transaction.payee.isEmpty { out += field + "payee: " + LedgerFile.yamlText(transaction.payee, inFlow: false) + "\n" }
            if !transaction.note.isEmpty { out += field + "note: " + LedgerFile.yamlText(transaction.note, inFlow: false) + "\n" }
            if !transaction.spender.isEmpty { out += field + "spender: " + LedgerFile.yamlText(transaction.spender, inFlow: false) + "\n" }
            if !transaction.tags.isEmpty {
                out += field + "tags: [" + transaction.tags.map { LedgerFile.yamlText($0, inFlow: true) }.joined(separator: ", ") + "]\n"
            }
            if let line = statementLine(transaction) {
                out += field + "statementAccount: " + LedgerFile.yamlText(line.account, inFlow: false) + "\n"
                out += field + "statementKey: " + LedgerFile.yamlText(line.key, inFlow: false) + "\n"
            }
            guard !transaction.postings.isEmpty else {
                out += field + "postings: []\n"
                return
            }
            out += field + "postings:\n"
            let postingItem = LedgerFile.pad(indent + 4)
            let postingField = LedgerFile.pad(indent + 6)
            for posting in transaction.postings {
                out += postingItem + "- account: " + LedgerFile.yamlText(names[posting.accountID] ?? posting.accountID, inFlow: false) + "\n"
                out += postingField + "amount: " + posting.amount.plain + "\n"
                if currencies[posting.accountID] != posting.amount.currency {
                    out += postingField + "currency: " + LedgerFile.yamlText(posting.amount.currency.code, inFlow: false) + "\n"
                }
                if !posting.note.isEmpty { out += postingField + "note: " + LedgerFile.yamlText(posting.note, inFlow: false) + "\n" }
            }
        }
    }

    /// `count` spaces (cached up to 64).
    static func pad(_ count: Int) -> String { count < pads.count ? pads[count] : String(repeating: " ", count: count) }
    private static let pads = (0..<64).map { String(repeating: " ", count: $0) }

    /// A tree of values to write; amounts stay text.
    indirect enum Value {
        case text(String)
        case amount(String)
        case number(String)
        case bool(Bool)
        case list([Value])
        case inlineList([String])
        case map([(String, Value)])
        /// Where the ledger's transactions go: `write` writes them from its `TransactionSource`.
        case transactions
    }

    /// The transactions a ledger file holds, in order: a list in memory, or a walk that hands
    /// them over one at a time (a database's, read in one transaction with the rest).
    enum TransactionSource {
        case list([Transaction])
        case walk((_ body: (Transaction) throws -> Void) throws -> Void)

        /// Calls `body` with each transaction in order.
        func walk(_ body: (Transaction) throws -> Void) throws {
            switch self {
            case .list(let transactions): for transaction in transactions { try body(transaction) }
            case .walk(let walk): try walk(body)
            }
        }
    }

    static func yaml(key: String, _ value: Value, indent: Int, into out: inout String) {
        let pad = pad(indent)
        switch value {
        case .transactions:
            preconditionFailure("a ledger's transactions are written by write(_:transactions:…) alone")
        case .list(let items) where items.isEmpty:
            out += "\(pad)\(key): []\n"
        case .list(let items):
            out += "\(pad)\(key):\n"
            for item in items { yamlItem(item, indent: indent + 2, into: &out) }
        case .map(let fields):
            out += "\(pad)\(key):\n"
            for (k, v) in fields { yaml(key: k, v, indent: indent + 2, into: &out) }
        default:
            out += "\(pad)\(key): \(yamlScalar(value))\n"
        }
    }

    private static func yamlItem(_ value: Value, indent: Int, into out: inout String) {
        let pad = pad(indent)
        switch value {
        case .transactions: preconditionFailure("a ledger's transactions are written by write(_:transactions:…) alone")
        case .map(let fields):
            var first = true
            for (k, v) in fields {
                var line = ""
                yaml(key: k, v, indent: indent + 2, into: &line)
                if first {
                    line.replaceSubrange(line.startIndex..<line.index(line.startIndex, offsetBy: indent + 2), with: pad + "- ")
                    first = false
                }
                out += line
            }
        case .list(let items):
            out += "\(pad)-\n"
            for item in items { yamlItem(item, indent: indent + 2, into: &out) }
        default:
            out += "\(pad)- \(yamlScalar(value))\n"
        }
    }

    private static func yamlScalar(_ value: Value) -> String {
        switch value {
        case .text(let s): return yamlText(s, inFlow: false)
        case .amount(let s), .number(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .inlineList(let items): return "[" + items.map { yamlText($0, inFlow: true) }.joined(separator: ", ") + "]"
        case .list, .map, .transactions: return ""
        }
    }

    /// Plain when it reads back as the same text, double-quoted otherwise.
    static func yamlText(_ s: String, inFlow: Bool) -> String {
        needsQuotes(s, inFlow: inFlow) ? quoted(s) : s
    }

    /// Words YAML 1.1 reads as null or a boolean, in any case.
    private static let reservedWords: Set<String> = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]
    /// Scalars a plain scalar cannot start with.
    private static let reservedFirst = Set("-?:,[]{}#&*!|>'\"%@` ".unicodeScalars)

    /// Whether `s` must be written quoted: a reserved word, a number that is not a date, a
    /// reserved first character, a trailing space or colon, `: ` or ` #` inside, a control or
    /// invisible separator character, or (in a flow list) a flow indicator. One pass over the
    /// scalars (it ran on every field of every transaction: a million transactions took half a
    /// minute through Foundation's substring search).
    static func needsQuotes(_ s: String, inFlow: Bool) -> Bool {
        if s.utf8.count <= 5 && reservedWords.contains(s.lowercased()) { return true }
        guard let first = s.unicodeScalars.first else { return true }
        if reservedFirst.contains(first) { return true }
        if let character = s.first, character.isNumber || character == "-" || character == "+" || character == ".", !isDate(s) { return true }
        if let last = s.utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: ":") { return true }
        var previous: Unicode.Scalar = "\0"
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0..<0x20, 0x7F, 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF: return true
            default: break
            }
            if (previous == ":" && scalar == " ") || (previous == " " && scalar == "#") { return true }
            previous = scalar
        }
        return inFlow && s.contains(where: { ",[]{}".contains($0) })
    }

    private static func isDate(_ s: String) -> Bool {
        (try? Day(iso: s)) != nil
    }

    /// A JSON string literal, which is also a YAML double-quoted scalar.
    public static func quoted(_ s: String) -> String {
        var out = TextBytes(capacity: 6 * s.utf8.count + 2)
        out.append(jsonString: s)
        return out.text
    }

    private static func json(_ value: Value, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2)
        switch value {
        case .transactions: preconditionFailure("a ledger's transactions are written by write(_:transactions:…) alone")
        case .text(let s), .amount(let s): out += quoted(s)
        case .number(let s): out += s
        case .bool(let b): out += b ? "true" : "false"
        case .inlineList(let items): out += "[" + items.map(quoted).joined(separator: ", ") + "]"
        case .list(let items) where items.isEmpty: out += "[]"
        case .list(let items):
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                json(item, indent: indent + 2, into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .map(let fields):
            out += "{\n"
            for (index, (key, item)) in fields.enumerated() {
                out += pad + quoted(key) + ": "
                json(item, indent: indent + 2, into: &out)
                out += index == fields.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }
}

/// What a ledger file holds beyond the `Ledger` value: settings and `post`'s bookkeeping.
public struct LedgerExtras: Sendable {
    public var calendar: String?
    public var calendarDays: [(calendar: String, day: Day, holiday: Bool, name: String)] = []
    /// Per schedule id: occurrences up to this rule day count as handled.
    public var handledThrough: [String: Day] = [:]
    /// Per schedule or loan id: the flows no longer open (key day, mark).
    public var marks: [String: [(day: Day, mark: FlowMark)]] = [:]
    /// Per transaction id: the key of the bank-statement line it stands for, by which a later
    /// import of the same statement knows the line (`statementKey:` in the file).
    public var statementKeys: [String: String] = [:]
    public init() {}
}

extension Store {
    /// The whole ledger as a ledger file.
    public func export(format: LedgerFileFormat) throws(StoreError) -> String {
        var text = ""
        do { try export(format: format) { text += $0 } } catch let error as StoreError { throw error } catch {
            preconditionFailure("a ledger exported into a string cannot fail but by the store: \(error)")
        }
        return text
    }

    /// The whole ledger as a ledger file, handed to `emit` in parts of about a megabyte. A
    /// database is read in one transaction and its transactions walked, never all in memory: the
    /// memory an export takes does not grow with the history.
    /// - Throws: `StoreError` when the ledger cannot be read; what `emit` throws, as it threw it.
    public func export(format: LedgerFileFormat, to emit: (String) throws -> Void) throws {
        if let file = fileLedger {
            let ledger = try file.get()
            let (defaultAccountID, extras) = try read("reading the ledger") { db in try Store.exportExtras(db) }
            try LedgerFile.write(
                ledger, transactions: .list(ledger.transactions), defaultAccountID: defaultAccountID, format: format, extras: extras, emit: emit)
            return
        }
        // The caller's own failure (a full disk) is its to report, not the store's.
        var failure: (any Error)?
        func emitting(_ text: String) throws {
            do { try emit(text) } catch {
                failure = error
                throw error
            }
        }
        do {
            try read("exporting the ledger") { db in
                let ledger = try Store.fetchLedgerRecords(db, location: location)
                let (defaultAccountID, extras) = try Store.exportExtras(db)
                let transactions = LedgerFile.TransactionSource.walk { body in
                    try Store.walkTransactions(db, where: "", []) { transaction in
                        try body(transaction)
                        return true
                    }
                }
                try LedgerFile.write(
                    ledger, transactions: transactions, defaultAccountID: defaultAccountID, format: format, extras: extras, emit: emitting)
            }
        } catch {
            if let failure { throw failure }
            throw error
        }
    }

    /// What a ledger file holds beside the ledger value: the default account, the calendar
    /// setting, schedules' handled days, the flows' marks and the calendars' own days.
    static func exportExtras(_ db: Database) throws -> (defaultAccountID: String?, LedgerExtras) {
        var extras = LedgerExtras()
        extras.calendar = try Store.setting(db, "calendar")
        for row in try Row.fetchAll(db, sql: "SELECT id, handledThrough FROM schedule WHERE deleted = 0") {
            extras.handledThrough[row["id"]] = Day(row["handledThrough"])
        }
        for (key, mark) in try Store.fetchMarks(db) { extras.marks[key.instrumentID, default: []].append((key.day, mark)) }
        extras.calendarDays = try Store.fetchCalendarDays(db)
        for row in try Row.fetchAll(db, sql: "SELECT id, importKey FROM txn WHERE deleted = 0 AND importKey IS NOT NULL") {
            extras.statementKeys[row["id"]] = row["importKey"]
        }
        return (try Store.setting(db, "defaultAccount"), extras)
    }
}
