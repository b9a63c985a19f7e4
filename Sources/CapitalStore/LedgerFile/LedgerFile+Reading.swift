import CYaml
import CapitalCore
import Foundation

/// Reads ledger files: YAML, or JSON (which the YAML parser reads too, keeping line numbers).
/// Amounts are taken from the scalar text, never through a floating-point number.
public enum LedgerFile {
    /// Reads and parses the file at `path`.
    public static func read(path: String) throws(LedgerFileError) -> LedgerDocument { try read(path: path, stream: nil) }

    /// Reads the file at `path`, handing its transactions to `stream` as they are read when the
    /// file's head comes before them (`Reader.document(_:stream:)`).
    static func read(path: String, stream: TransactionStream?) throws(LedgerFileError) -> LedgerDocument {
        let top = FileLocation(file: path, line: nil, path: "file")
        guard let file = MappedFile(path: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw LedgerFileError(top, "the file \(reason)")
        }
        // Parsed from the file's mapped bytes, which are let go as the parser passes them: a copy
        // in memory, or pages kept after reading, would cost a large file's size.
        let bytes = file.bytes
        guard file.isUTF8 else { throw LedgerFileError(top, "the file is not UTF-8 text") }
        if isJSON(path) { return try parse(String(decoding: bytes, as: UTF8.self), file: path, stream: stream) }
        return try parse(
            bytes: bytes, file: path, stream: stream, hasAsterisk: file.contains(UInt8(ascii: "*")), release: file.release(upTo:), rewind: file.rewind
        )
    }

    /// Parses ledger text; `file` names it in errors. The text is read as libyaml's events, one
    /// node at a time: a list of transactions is read item by item, never held as a tree.
    public static func parse(_ text: String, file: String) throws(LedgerFileError) -> LedgerDocument { try parse(text, file: file, stream: nil) }

    static func parse(_ text: String, file: String, stream: TransactionStream?) throws(LedgerFileError) -> LedgerDocument {
        // libyaml does not join JSON's escaped surrogate pairs (`\ud83d\ude00`, as Python's
        // json.dumps writes emoji); join them first.
        var yaml = isJSON(file) ? joiningSurrogateEscapes(text) : text
        let result = yaml.withUTF8 { bytes in Result { () throws(LedgerFileError) in try parse(bytes: bytes, file: file, stream: stream) } }
        return try result.get()
    }

    /// Parses ledger text given as UTF-8 bytes (checked to be UTF-8).
    /// `release` is told how far the parser has read, so that the bytes before may be let go.
    /// `hasAsterisk` when known spares a pass over the bytes to find out whether there may be aliases.
    /// A text the fast reader takes has none (it declines aliases): only libyaml's is checked.
    static func parse(
        bytes: UnsafeBufferPointer<UInt8>, file: String, stream: TransactionStream?, hasAsterisk: Bool? = nil, release: ((Int) -> Void)? = nil,
        rewind: (() -> Void)? = nil
    ) throws(LedgerFileError) -> LedgerDocument {
        let block = !isJSON(file) && YAMLBlockScanner.accepts(bytes, release: release)
        rewind?()
        if !block, hasAsterisk ?? true { try checkAliasExpansion(bytes, file: file) }
        return try YAMLEvents.reading(bytes, file: file, language: isJSON(file) ? "JSON" : "YAML", release: release, block: block) {
            (events) throws(LedgerFileError) in
            guard try events.root() else { throw LedgerFileError(FileLocation(file: file, line: 1, path: "file"), "the file is empty") }
            let document = try Reader(file: file).document(events, stream: stream)
            try events.finish()
            return document
        }
    }

    static func isJSON(_ file: String) -> Bool { file.lowercased().hasSuffix(".json") }

    /// Replaces each `\uD8xx\uDCxx` escape pair with the character it encodes; leaves every other
    /// escape (including an escaped backslash) as it is.
    static func joiningSurrogateEscapes(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= scalars.count else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[at..<at + 4])), radix: 16)
        }
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\\", i + 1 < scalars.count {
                if scalars[i + 1] == "u", let high = hex(i + 2), (0xD800...0xDBFF).contains(high),
                    i + 11 < scalars.count, scalars[i + 6] == "\\", scalars[i + 7] == "u",
                    let low = hex(i + 8), (0xDC00...0xDFFF).contains(low),
                    let joined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                {
                    out.append(joined)
                    i += 12
                    continue
                }
                out.append(scalars[i])
                out.append(scalars[i + 1])
                i += 2
                continue
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }
}

/// Takes a ledger file's transactions as they are read, so that a file of a million of them is
/// never held whole: `begin` gets the file's head (version, currency, accounts, groups, default
/// account), then `take` each transaction in file order.
final class TransactionStream {
    let begin: (LedgerDocument) throws -> Void
    let take: (LedgerDocument.TransactionEntry) throws -> Void
    /// Whether the head was handed over: the document read holds no transactions then.
    var began = false
    /// The first error `begin` or `take` threw; nothing more is handed over after it.
    var failure: (any Error)?

    init(begin: @escaping (LedgerDocument) throws -> Void, take: @escaping (LedgerDocument.TransactionEntry) throws -> Void) {
        self.begin = begin
        self.take = take
    }
}

/// Walks the node tree, checking each field's type and value.
struct Reader {
    let file: String

    func location(_ node: YAMLNode, _ path: String) -> FileLocation {
        FileLocation(file: file, line: node.line, path: path)
    }

    func fail(_ node: YAMLNode, _ path: String, _ message: String) -> LedgerFileError {
        LedgerFileError(location(node, path), message)
    }

    func describe(_ node: YAMLNode) -> String {
        switch node {
        // A whole CSV file read as one YAML scalar is not quoted whole.
        case .scalar(let s): return "'\(s.string.count > 40 ? s.string.prefix(40) + "…" : s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    // The paths these take are spelled only when an error names them (`@autoclosure`): a million
    // transactions would otherwise spell several a transaction that no message uses.

    /// A mapping's entries by key, refusing keys that are not in `allowed`.
    func mapping(_ node: YAMLNode, _ path: @autoclosure () -> String, allowed: [String]) throws(LedgerFileError) -> YAMLNode.Fields {
        guard case .mapping(let mapping) = node else {
            throw fail(node, path(), "expected a mapping with keys \(allowed.joined(separator: ", ")), got \(describe(node))")
        }
        // Keys are unique: the composer refuses a mapping with a key twice.
        var result = YAMLNode.Fields()
        result.pairs.reserveCapacity(mapping.pairs.count)
        for pair in mapping.pairs {
            let (key, value) = (pair.key, pair.value)
            guard case .scalar(let scalar) = key else { throw fail(key, path(), "keys must be text") }
            guard allowed.contains(scalar.string) else {
                throw fail(key, join(path(), scalar.string), "unknown field; expected one of \(allowed.joined(separator: ", "))")
            }
            result.pairs.append((scalar.string, value))
        }
        return result
    }

    /// `path.key`, or just `key` at the top of the file.
    func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let s) = node, s.isPlain else { return false }
        switch s.string {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    func text(
        _ fields: YAMLNode.Fields, _ key: String, _ path: @autoclosure () -> String, in parent: YAMLNode, required: Bool = false
    ) throws(LedgerFileError) -> String? {
        guard let node = fields[key], !isNull(node) else {
            if required { throw fail(parent, join(path(), key), "missing required field") }
            return nil
        }
        guard case .scalar(let scalar) = node else {
            throw fail(node, join(path(), key), "expected text, got \(describe(node))")
        }
        return scalar.string
    }

    func list(_ fields: YAMLNode.Fields, _ key: String, _ path: @autoclosure () -> String) throws(LedgerFileError) -> [YAMLNode] {
        guard let node = fields[key], !isNull(node) else { return [] }
        guard case .sequence(let sequence) = node else {
            throw fail(node, join(path(), key), "expected a list, got \(describe(node))")
        }
        return sequence.items
    }

    /// A list of text, each item with its place.
    func textList(_ fields: YAMLNode.Fields, _ key: String, _ path: String) throws(LedgerFileError) -> [(String, FileLocation)] {
        try zip(texts(fields, key, path), list(fields, key, path)).enumerated().map { index, pair in
            (pair.0, location(pair.1, "\(join(path, key))[\(index)]"))
        }
    }

    /// A list of text.
    func texts(_ fields: YAMLNode.Fields, _ key: String, _ path: @autoclosure () -> String) throws(LedgerFileError) -> [String] {
        var result: [String] = []
        for (index, node) in try list(fields, key, path()).enumerated() {
            guard case .scalar(let scalar) = node else {
                throw fail(node, "\(join(path(), key))[\(index)]", "expected text, got \(describe(node))")
            }
            result.append(scalar.string)
        }
        return result
    }

    func bool(_ fields: YAMLNode.Fields, _ key: String, _ path: String, in parent: YAMLNode) throws(LedgerFileError) -> Bool {
        guard let value = try text(fields, key, path, in: parent) else { return false }
        switch value.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw fail(fields[key]!, join(path, key), "'\(value)' is not true or false")
        }
    }

    /// The whole file, from the events at its root. The transactions' list, the long part of a
    /// file, is read item by item as it is composed; the first mistake in it is reported where
    /// the list is read below, so that errors come in the order they always came.
    ///
    /// With a `stream`, a list of transactions that comes after the file's version, currency and
    /// accounts goes to the stream instead, entry by entry, once the stream has taken the head
    /// (those and the groups and default account written before the list); the document then
    /// holds no transactions. A stream's own failure is kept in it; reading goes on so that a
    /// mistake in the file is still the error reported.
    func document(_ events: YAMLEvents, stream: TransactionStream? = nil) throws(LedgerFileError) -> LedgerDocument {
        var transactions: [LedgerDocument.TransactionEntry] = []
        var transactionError: LedgerFileError?
        var count = 0
        let root: YAMLNode
        if events.type == YAML_MAPPING_START_EVENT {
            var top = YAMLNode.Mapping(pairs: [], line: events.line)
            try events.pairs { (key, value) throws(LedgerFileError) in
                guard case .scalar(let scalar) = key, scalar.string == "transactions", events.type == YAML_SEQUENCE_START_EVENT else {
                    top.pairs.append(.init(key: key, value: try value()))
                    return
                }
                if let stream, stream.failure == nil, Self.streams(before: top), let head = try? head(.mapping(top)) {
                    do { try stream.begin(head) } catch { stream.failure = error }
                    stream.began = true
                }
                // Stands for the list in the mapping's checks; its items are read here.
                top.pairs.append(.init(key: key, value: .sequence(.init(items: [], line: events.line))))
                try events.items { (node) throws(LedgerFileError) in
                    guard transactionError == nil else { return }
                    do throws(LedgerFileError) {
                        let entry = try transaction(node, "transactions[\(count)]")
                        count += 1
                        guard let stream, stream.began else { return transactions.append(entry) }
                        guard stream.failure == nil else { return }
                        do { try stream.take(entry) } catch { stream.failure = error }
                    } catch {
                        transactionError = error
                    }
                }
            }
            root = .mapping(top)
        } else {
            root = try events.node()
        }
        var document = try head(root)
        let fields = try mapping(root, "", allowed: Self.topKeys)
        for (index, node) in try list(fields, "transactions", "").enumerated() {
            document.transactions.append(try transaction(node, "transactions[\(index)]"))
        }
        if let transactionError { throw transactionError }
        if document.transactions.isEmpty { document.transactions = transactions }
        document.calendar = try text(fields, "calendar", "", in: root)
        for (index, node) in try list(fields, "calendars", "").enumerated() {
            document.calendars.append(try calendarEntry(node, "calendars[\(index)]"))
        }
        for (index, node) in try list(fields, "schedules", "").enumerated() {
            document.schedules.append(try schedule(node, "schedules[\(index)]"))
        }
        for (index, node) in try list(fields, "loans", "").enumerated() {
            document.loans.append(try loan(node, "loans[\(index)]"))
        }
        for (index, node) in try list(fields, "cards", "").enumerated() {
            document.cards.append(try card(node, "cards[\(index)]"))
        }
        for (index, node) in try list(fields, "deposits", "").enumerated() {
            document.deposits.append(try deposit(node, "deposits[\(index)]"))
        }
        for (index, node) in try list(fields, "dues", "").enumerated() {
            document.dues.append(try due(node, "dues[\(index)]"))
        }
        for (index, node) in try list(fields, "budgets", "").enumerated() {
            document.budgets.append(try budget(node, "budgets[\(index)]"))
        }
        for (index, node) in try list(fields, "rates", "").enumerated() {
            document.rates.append(try rate(node, "rates[\(index)]"))
        }
        return document
    }

    static let topKeys = [
        "capital", "currency", "defaultAccount", "calendar", "calendars", "accounts", "groups", "transactions", "schedules", "loans", "cards",
        "deposits", "dues", "budgets", "rates",
    ]

    /// Whether the transactions can be streamed after the top-level pairs in `top`: the version,
    /// the currency and the accounts are known.
    static func streams(before top: YAMLNode.Mapping) -> Bool {
        let keys = top.pairs.compactMap { pair -> String? in
            if case .scalar(let scalar) = pair.key { scalar.string } else { nil }
        }
        return keys.contains("capital") && keys.contains("currency") && keys.contains("accounts")
    }

    /// The file's head: its version checked, its currency, default account, accounts and groups.
    func head(_ root: YAMLNode) throws(LedgerFileError) -> LedgerDocument {
        let fields = try mapping(root, "", allowed: Self.topKeys)
        if let version = try text(fields, "capital", "", in: root), version != "1" {
            throw fail(fields["capital"]!, "capital", "'\(version)' is not a ledger format this capital reads (it reads 1)")
        }
        guard let code = try text(fields, "currency", "", in: root, required: true) else { fatalError("unreachable") }
        let currency: Currency
        do { currency = try Currency(code) } catch { throw fail(fields["currency"]!, "currency", "\(error)") }
        var document = LedgerDocument(file: file, currency: currency)
        if let name = try text(fields, "defaultAccount", "", in: root) {
            document.defaultAccount = (name, location(fields["defaultAccount"]!, "defaultAccount"))
        }
        for (index, node) in try list(fields, "accounts", "").enumerated() {
            document.accounts.append(try account(node, "accounts[\(index)]"))
        }
        for (index, node) in try list(fields, "groups", "").enumerated() {
            document.groups.append(try group(node, "groups[\(index)]"))
        }
        return document
    }

    func account(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.AccountEntry {
        let fields = try mapping(
            node, path, allowed: ["name", "kind", "currency", "icon", "color", "floor", "level", "hidden", "note", "valueChange", "valueSince"])
        let name = try text(fields, "name", path, in: node, required: true)!
        let kindText = try text(fields, "kind", path, in: node, required: true)!
        guard let kind = AccountKind(rawValue: kindText) else {
            throw fail(fields["kind"]!, "\(path).kind", "'\(kindText)' is not an account kind; expected one of \(AccountKind.names)")
        }
        var currency: Currency?
        if let code = try text(fields, "currency", path, in: node) {
            do { currency = try Currency(code) } catch { throw fail(fields["currency"]!, "\(path).currency", "\(error)") }
        }
        var level: Int?
        if let levelText = try text(fields, "level", path, in: node) {
            guard let value = Int(levelText), (1...6).contains(value) else {
                throw fail(fields["level"]!, "\(path).level", "'\(levelText)' is not a ladder level 1 to 6")
            }
            level = value
        }
        return LedgerDocument.AccountEntry(
            name: name, kind: kind, currency: currency, floor: try text(fields, "floor", path, in: node), level: level,
            hidden: try bool(fields, "hidden", path, in: node), note: try text(fields, "note", path, in: node) ?? "",
            valueChange: try text(fields, "valueChange", path, in: node), valueSince: try day(fields, "valueSince", path, in: node),
            color: try text(fields, "color", path, in: node), icon: try text(fields, "icon", path, in: node), location: location(node, path))
    }

    func group(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.GroupEntry {
        let fields = try mapping(node, path, allowed: ["name", "type", "accounts"])
        let name = try text(fields, "name", path, in: node, required: true)!
        let typeText = try text(fields, "type", path, in: node, required: true)!
        guard let type = GroupType(rawValue: typeText) else {
            throw fail(fields["type"]!, "\(path).type", "'\(typeText)' is not a group type; expected cash-flow or profit-and-loss")
        }
        return LedgerDocument.GroupEntry(
            name: name, type: type, accounts: try textList(fields, "accounts", path).map { ($0.0, $0.1) }, location: location(node, path))
    }

    func day(_ fields: YAMLNode.Fields, _ key: String, _ path: String, in parent: YAMLNode, required: Bool = false) throws(LedgerFileError) -> Day? {
        guard let text = try text(fields, key, path, in: parent, required: required) else { return nil }
        do { return try Day(input: text) } catch { throw fail(fields[key]!, join(path, key), "\(error)") }
    }

    func calendarEntry(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.CalendarEntry {
        let fields = try mapping(node, path, allowed: ["name", "holidays", "workingDays"])
        let name = try text(fields, "name", path, in: node, required: true)!
        func days(_ key: String) throws(LedgerFileError) -> [(day: Day, name: String)] {
            var result: [(day: Day, name: String)] = []
            for (index, item) in try list(fields, key, path).enumerated() {
                let p = "\(join(path, key))[\(index)]"
                let f = try mapping(item, p, allowed: ["date", "name"])
                result.append((try day(f, "date", p, in: item, required: true)!, try text(f, "name", p, in: item) ?? ""))
            }
            return result
        }
        return .init(name: name, holidays: try days("holidays"), workingDays: try days("workingDays"), location: location(node, path))
    }

    func schedule(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.ScheduleEntry {
        let fields = try mapping(
            node, path,
            allowed: [
                "id", "name", "note", "rule", "calendar", "adjust", "start", "end", "count", "amount", "expected", "from", "to", "postings",
                "approval", "handledThrough", "exceptions", "posted",
            ])
        let name = try text(fields, "name", path, in: node, required: true)!
        var input = ScheduleInput(
            name: name, rule: try text(fields, "rule", path, in: node, required: true)!,
            start: try day(fields, "start", path, in: node, required: true)!)
        input.note = try text(fields, "note", path, in: node) ?? ""
        input.calendar = try text(fields, "calendar", path, in: node)
        if let adjust = try text(fields, "adjust", path, in: node) {
            guard let value = BusinessDayAdjustment(rawValue: adjust) else {
                throw fail(
                    fields["adjust"]!, "\(path).adjust",
                    "'\(adjust)' is not an adjustment; expected \(BusinessDayAdjustment.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            input.adjustment = value
        }
        input.end = try day(fields, "end", path, in: node)
        if let count = try text(fields, "count", path, in: node) {
            guard let value = Int(count), value > 0 else {
                throw fail(fields["count"]!, "\(path).count", "'\(count)' is not a positive whole number")
            }
            input.count = value
        }
        input.amount = try text(fields, "amount", path, in: node)
        input.expected = try text(fields, "expected", path, in: node)
        input.from = try text(fields, "from", path, in: node)
        input.to = try text(fields, "to", path, in: node)
        for (index, posting) in try list(fields, "postings", path).enumerated() {
            let p = "\(path).postings[\(index)]"
            let pf = try mapping(posting, p, allowed: ["account", "amount", "note"])
            input.postings.append(
                PostingInput(
                    account: try text(pf, "account", p, in: posting, required: true)!, amount: try text(pf, "amount", p, in: posting),
                    note: try text(pf, "note", p, in: posting) ?? "",
                    field: "\(location(pf["amount"] ?? posting, pf["amount"] == nil ? p : "\(p).amount"))"))
        }
        if let approval = try text(fields, "approval", path, in: node) {
            guard let value = Schedule.Approval(rawValue: approval) else {
                throw fail(fields["approval"]!, "\(path).approval", "'\(approval)' is not auto or confirm")
            }
            input.approval = value
        }
        var exceptions: [LedgerDocument.ScheduleEntry.ExceptionEntry] = []
        for (index, item) in try list(fields, "exceptions", path).enumerated() {
            let p = "\(path).exceptions[\(index)]"
            let f = try mapping(item, p, allowed: ["date", "skip", "moveTo", "amount"])
            exceptions.append(
                .init(
                    date: try day(f, "date", p, in: item, required: true)!, skip: try bool(f, "skip", p, in: item),
                    moveTo: try day(f, "moveTo", p, in: item), amount: try text(f, "amount", p, in: item), location: location(item, p)))
        }
        return .init(
            id: try text(fields, "id", path, in: node), input: input, handledThrough: try day(fields, "handledThrough", path, in: node),
            exceptions: exceptions, posted: try marks(fields, path, in: node), location: location(node, path))
    }

    /// `posted:` of a schedule or a loan: each flow no longer open, by `date` (its key day), with
    /// the `transaction` that stands for it and `state` (posted, the default, or settled), or
    /// `state: skipped` and no transaction.
    func marks(_ fields: YAMLNode.Fields, _ path: String, in node: YAMLNode) throws(LedgerFileError) -> [LedgerDocument.MarkEntry] {
        var marks: [LedgerDocument.MarkEntry] = []
        for (index, item) in try list(fields, "posted", path).enumerated() {
            let p = "\(path).posted[\(index)]"
            let f = try mapping(item, p, allowed: ["date", "transaction", "state"])
            let state: ExpectedState = try choice(f, "state", p, in: item) ?? .posted
            if state == .open || state == .handled {
                throw fail(f["state"]!, "\(p).state", "'\(state.rawValue)' is not a mark: posted, settled or skipped")
            }
            let transaction = try text(f, "transaction", p, in: item, required: state != .skipped)
            if state == .skipped, transaction != nil {
                throw fail(f["transaction"]!, "\(p).transaction", "a skipped flow has no transaction")
            }
            marks.append(
                .init(
                    date: try day(f, "date", p, in: item, required: true)!, mark: FlowMark(state: state, transactionID: transaction),
                    location: location(item, p)))
        }
        return marks
    }

    func transaction(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.TransactionEntry {
        let fields = try mapping(node, path, allowed: Self.transactionKeys)
        let dateText = try text(fields, "date", path, in: node, required: true)!
        let day: Day
        do { day = try Day(input: dateText) } catch { throw fail(fields["date"]!, "\(path).date", "\(error)") }
        var postings: [LedgerDocument.PostingEntry] = []
        let shorthand = fields["amount"] != nil || fields["from"] != nil || fields["to"] != nil
        if shorthand {
            if fields["postings"] != nil {
                throw fail(node, path, "give either postings or amount/from/to, not both")
            }
            let amount = try text(fields, "amount", path, in: node, required: true)!
            let from = try text(fields, "from", path, in: node, required: true)!
            let to = try text(fields, "to", path, in: node, required: true)!
            let amountLine = fields["amount"]!.line
            postings.append(
                .init(
                    account: to, amount: amount, currency: nil, note: "",
                    place: .init(file: file, transaction: path, side: "to", accountLine: fields["to"]!.line, amountLine: amountLine)))
            postings.append(
                .init(
                    account: from, amount: nil, currency: nil, note: "",
                    place: .init(file: file, transaction: path, side: "from", accountLine: fields["from"]!.line, amountLine: amountLine)))
        } else {
            let nodes = try list(fields, "postings", path)
            if fields["postings"] == nil { throw fail(node, "\(path).postings", "missing required field (or give amount, from and to)") }
            for (index, posting) in nodes.enumerated() {
                let pf = try mapping(posting, "\(path).postings[\(index)]", allowed: Self.postingKeys)
                let account = try text(pf, "account", "\(path).postings[\(index)]", in: posting, required: true)!
                let amount = try text(pf, "amount", "\(path).postings[\(index)]", in: posting)
                postings.append(
                    .init(
                        account: account, amount: amount, currency: try text(pf, "currency", "\(path).postings[\(index)]", in: posting),
                        note: try text(pf, "note", "\(path).postings[\(index)]", in: posting) ?? "",
                        place: .init(
                            file: file, transaction: path, index: index, accountLine: pf["account"]!.line,
                            amountLine: (pf["amount"] ?? posting).line, hasAmount: pf["amount"] != nil)))
            }
        }
        let statementAccount = try text(fields, "statementAccount", path, in: node)
        let statementKey = try text(fields, "statementKey", path, in: node)
        if (statementAccount == nil) != (statementKey == nil) {
            throw fail(node, path, "statementAccount and statementKey go together (the statement line the transaction stands for)")
        }
        return LedgerDocument.TransactionEntry(
            id: try text(fields, "id", path, in: node), day: day, payee: try text(fields, "payee", path, in: node) ?? "",
            note: try text(fields, "note", path, in: node) ?? "", spender: try text(fields, "spender", path, in: node) ?? "",
            tags: try texts(fields, "tags", path), statementLine: statementAccount.map { (account: $0, key: statementKey ?? "") }, postings: postings,
            location: location(node, path))
    }

    static let transactionKeys = [
        "id", "date", "payee", "note", "spender", "tags", "statementAccount", "statementKey", "postings", "amount", "from", "to",
    ]
    static let postingKeys = ["account", "amount", "currency", "note"]
}

/// A file mapped read-only, whose pages can be let go once read (they come back from the file if
/// read again): reading a large file then costs its pages in flight, not its size.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer?
    private var released = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// What is not a regular file (a pipe such as `/dev/stdin`) is read whole into memory of its own.
    private let owned: UnsafeMutableBufferPointer<UInt8>?

    /// Nil when the path cannot be opened and read (a folder, a missing file).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
        let size = Int(status.st_size)
        if status.st_mode & S_IFMT == S_IFREG, size > 0, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED {
            (base, owned) = (mapped, nil)
            bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        _ = buffer.initialize(from: data)
        (base, owned) = (nil, buffer)
        bytes = UnsafeBufferPointer(buffer)
    }

    deinit {
        if let base { munmap(base, bytes.count) }
        owned?.deallocate()
    }

    /// A window of the bytes at a time, each let go once `body` has read it.
    private func windows(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        rewind()
        defer { rewind() }
        var start = 0
        while start < bytes.count {
            var end = min(start + Self.window, bytes.count)
            // Not in the middle of a character: back to a byte that is not a continuation byte.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if end == start { end = min(start + Self.window, bytes.count) }
            guard body(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return false }
            release(upTo: end)
            start = end
        }
        return true
    }

    private static let window = 4 << 20

    /// Whether the bytes are UTF-8 text.
    var isUTF8: Bool { windows { TextEncoding.firstInvalidUTF8($0) == nil } }

    /// Whether `byte` is among the bytes.
    func contains(_ byte: UInt8) -> Bool {
        var found = false
        _ = windows { window in
            found = window.baseAddress.map { memchr($0, Int32(byte), window.count) != nil } ?? false
            return !found
        }
        return found
    }

    /// Starts a new pass over the bytes: `release(upTo:)` counts from the start again.
    func rewind() { released = 0 }

    /// Lets the whole pages before `offset` go (those of this pass not let go yet).
    func release(upTo offset: Int) {
        guard let base else { return }
        let end = offset / Self.pageSize * Self.pageSize
        guard end > released else { return }
        _ = madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }
}
