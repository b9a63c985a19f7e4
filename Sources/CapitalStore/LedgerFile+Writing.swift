import CapitalCore

/// The formats `capital export` writes.
public enum LedgerFileFormat: String, Sendable, CaseIterable {
    case yaml, json
}

extension LedgerFile {
    /// Writes a whole ledger deterministically: accounts and groups in the order they were added,
    /// transactions by day and entry order, default values left out. Import then export gives the
    /// same bytes.
    public static func write(_ ledger: Ledger, defaultAccountID: String?, format: LedgerFileFormat) -> String {
        let names = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.name) })
        let currencies = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.currency) })
        var root: [(String, Value)] = [("capital", .number("1")), ("currency", .text(ledger.currency.code))]
        if let id = defaultAccountID, let name = names[id] { root.append(("defaultAccount", .text(name))) }
        root.append(
            (
                "accounts",
                .list(
                    ledger.accounts.map { account in
                        var fields: [(String, Value)] = [("name", .text(account.name)), ("kind", .text(account.kind.rawValue))]
                        if account.currency != ledger.currency { fields.append(("currency", .text(account.currency.code))) }
                        if let floor = account.floor {
                            fields.append(("floor", .amount(Money(minor: floor, currency: account.currency).plain)))
                        }
                        if let level = account.level { fields.append(("level", .number(String(level)))) }
                        if account.hidden { fields.append(("hidden", .bool(true))) }
                        if !account.note.isEmpty { fields.append(("note", .text(account.note))) }
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
        root.append(
            (
                "transactions",
                .list(
                    ledger.transactions.map { transaction in
                        var fields: [(String, Value)] = [("id", .text(transaction.id)), ("date", .text(transaction.day.iso))]
                        if !transaction.payee.isEmpty { fields.append(("payee", .text(transaction.payee))) }
                        if !transaction.note.isEmpty { fields.append(("note", .text(transaction.note))) }
                        if !transaction.spender.isEmpty { fields.append(("spender", .text(transaction.spender))) }
                        if !transaction.tags.isEmpty { fields.append(("tags", .inlineList(transaction.tags))) }
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
                    })
            ))
        var out = ""
        switch format {
        case .yaml:
            out = "# capital ledger file: see docs/ledger-format.md\n"
            for (key, value) in root { yaml(key: key, value, indent: 0, into: &out) }
        case .json:
            json(.map(root), indent: 0, into: &out)
            out += "\n"
        }
        return out
    }

    /// A tree of values to write; amounts stay text.
    indirect enum Value {
        case text(String)
        case amount(String)
        case number(String)
        case bool(Bool)
        case list([Value])
        case inlineList([String])
        case map([(String, Value)])
    }

    private static func yaml(key: String, _ value: Value, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
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
        let pad = String(repeating: " ", count: indent)
        switch value {
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
        case .list, .map: return ""
        }
    }

    /// Plain when it reads back as the same text, double-quoted otherwise.
    static func yamlText(_ s: String, inFlow: Bool) -> String {
        let reserved: Set<String> = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]
        let first = s.unicodeScalars.first
        let looksLikeNumber = s.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? false
        let needsQuotes =
            reserved.contains(s.lowercased()) || looksLikeNumber && !isDate(s)
            || first.map { "-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains($0) } ?? true
            || s.hasSuffix(" ") || s.hasSuffix(":") || s.contains(": ") || s.contains(" #")
            || s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0xA0 || $0.value == 0x2028 || $0.value == 0x2029 || $0.value == 0xFEFF }
            || inFlow && s.contains(where: { ",[]{}".contains($0) })
        return needsQuotes ? quoted(s) : s
    }

    private static func isDate(_ s: String) -> Bool {
        (try? Day(iso: s)) != nil
    }

    /// A JSON string literal, which is also a YAML double-quoted scalar.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func json(_ value: Value, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2)
        switch value {
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

extension Store {
    /// The whole ledger as a ledger file.
    public func export(format: LedgerFileFormat) throws(StoreError) -> String {
        let ledger = try snapshot()
        let defaultAccount = try defaultAccount()
        return LedgerFile.write(ledger, defaultAccountID: defaultAccount?.id, format: format)
    }
}
