/// `samples/household.yaml` read independently of capital: a line reader for the shape that
/// `Scripts/make-household-sample.py` writes, with integer sums in kopecks. It shares no code with
/// the ledger-file reader it checks.
struct HouseholdSample {
    struct Account {
        var name: String
        var kind: String
        var isCategory: Bool { kind == "income" || kind == "expense" }
    }

    struct Group {
        var name: String
        var type: String
        var accounts: [String]
    }

    struct Transaction {
        var date = ""
        var payee = ""
        var note = ""
        var spender = ""
        var tags: [String] = []
        /// Shorthand: `amount` moves from `from` to `to`.
        var amount: Int64?
        var from: String?
        var to: String?
        /// Postings as written; nil amount balances the others.
        var written: [(account: String, amount: Int64?)] = []

        /// Postings with every amount filled in: +amount to `to`, −amount from `from`; a posting
        /// without an amount takes the negated sum of the others.
        var postings: [(account: String, amount: Int64)] {
            if let amount, let from, let to { return [(to, amount), (from, -amount)] }
            let known = written.compactMap(\.amount).reduce(0, +)
            return written.map { ($0.account, $0.amount ?? -known) }
        }

        /// What a listing calls its amount: the sum of its positive postings.
        var size: Int64 { postings.map(\.amount).filter { $0 > 0 }.reduce(0, +) }
    }

    var accounts: [Account] = []
    var groups: [Group] = []
    var transactions: [Transaction] = []

    init(text: String) {
        var section = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(raw)
            if line.hasPrefix("#") { continue }
            if !line.hasPrefix(" ") {
                section = String(line.prefix { $0 != ":" })
                continue
            }
            let trimmed = line.drop { $0 == " " }
            let isItem = trimmed.hasPrefix("- ")
            let body = isItem ? trimmed.dropFirst(2) : trimmed
            guard let colon = body.firstIndex(of: ":") else { continue }
            let key = String(body[..<colon])
            let value = Self.unquote(String(body[body.index(after: colon)...].drop { $0 == " " }))
            let indent = line.count - trimmed.count
            switch section {
            case "accounts":
                if isItem { accounts.append(Account(name: value, kind: "")) } else if key == "kind" { accounts[accounts.count - 1].kind = value }
            case "groups":
                if isItem {
                    groups.append(Group(name: value, type: "", accounts: []))
                } else if key == "type" {
                    groups[groups.count - 1].type = value
                } else if key == "accounts" {
                    groups[groups.count - 1].accounts = Self.list(value)
                }
            case "transactions":
                if isItem && indent == 2 {
                    transactions.append(Transaction())
                }
                let last = transactions.count - 1
                if indent >= 6 {
                    if key == "account" { transactions[last].written.append((value, nil)) }
                    if key == "amount" { transactions[last].written[transactions[last].written.count - 1].amount = Self.kopecks(value) }
                    continue
                }
                switch key {
                case "date": transactions[last].date = value
                case "payee": transactions[last].payee = value
                case "note": transactions[last].note = value
                case "spender": transactions[last].spender = value
                case "tags": transactions[last].tags = Self.list(value)
                case "amount": transactions[last].amount = Self.kopecks(value)
                case "from": transactions[last].from = value
                case "to": transactions[last].to = value
                default: break
                }
            default:
                break
            }
        }
    }

    static func unquote(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    static func list(_ text: String) -> [String] {
        text.trimmingPrefix("[").split(separator: ",").map { String($0.filter { $0 != "]" }).trimmingLeadingAndTrailingSpaces() }
    }

    /// Whole roubles or roubles with kopecks, as the generator writes them.
    static func kopecks(_ text: String) -> Int64 {
        guard let value = minorUnits(text) else { fatalError("not an amount in the sample: \(text)") }
        return value
    }

    /// End-of-day balance of every account on `date` (ISO dates compare as text), in kopecks.
    func balances(through date: String = "9999-12-31") -> [String: Int64] {
        var result = Dictionary(uniqueKeysWithValues: accounts.map { ($0.name, Int64(0)) })
        for transaction in transactions where transaction.date <= date {
            for posting in transaction.postings { result[posting.account, default: 0] += posting.amount }
        }
        return result
    }

    func kind(of account: String) -> String? { accounts.first { $0.name == account }?.kind }

    /// income, expense or transfer, as `tx list --kind` means them.
    func kind(of transaction: Transaction) -> String {
        let kinds = Set(transaction.postings.compactMap { kind(of: $0.account) })
        if kinds.contains("income") && !kinds.contains("expense") { return "income" }
        if kinds.contains("expense") && !kinds.contains("income") { return "expense" }
        return kinds.contains("income") ? "mixed" : "transfer"
    }
}

extension String {
    func trimmingLeadingAndTrailingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
