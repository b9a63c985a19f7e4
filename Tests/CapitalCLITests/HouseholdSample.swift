/// `samples/household.yaml` read independently of capital: a line reader for the shape that
/// `Scripts/make-household-sample.py` writes, with integer sums in kopecks. It shares no code with
/// the ledger-file reader it checks.
struct HouseholdSample {
    struct Account {
        var name: String
        var kind: String
        /// Its currency: the ledger's (RUB) unless the file says.
        var currency = "RUB"
        var floor: Int64?
        /// A fixed asset's change of value a year, in percent (`-15`), and the day it counts from.
        var valueChange: String?
        var valueSince: String?
        var isCategory: Bool { kind == "income" || kind == "expense" }
    }

    /// An entry of `loans:`, `cards:`, `deposits:`, `dues:` or `budgets:`: its fields as written, keyed by name.
    struct Instrument {
        var fields: [String: String]
        /// The account the instrument goes by.
        var account: String { fields["account"] ?? "" }
        subscript(_ key: String) -> String? { fields[key] }
        /// A field that is an amount, in kopecks.
        func amount(_ key: String) -> Int64? { fields[key].map(HouseholdSample.kopecks) }
        /// A field that is a whole number.
        func number(_ key: String) -> Int? { fields[key].flatMap { Int($0) } }
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
        /// Postings as written; nil amount balances the others; a currency only where the file gives one.
        var written: [(account: String, amount: Int64?, currency: String?)] = []

        /// Postings with every amount filled in: +amount to `to`, −amount from `from`; a posting
        /// without an amount takes the negated sum of the others (the sample leaves one out only
        /// in transactions of one currency). The equity account's legs in another currency (the
        /// other side of a foreign amount) are left out: they are not in roubles.
        var postings: [(account: String, amount: Int64)] {
            if let amount, let from, let to { return [(to, amount), (from, -amount)] }
            let known = written.filter { $0.currency == nil }.compactMap(\.amount).reduce(0, +)
            return written.filter { $0.currency == nil }.map { ($0.account, $0.amount ?? -known) }
        }

    }

    var accounts: [Account] = []
    var groups: [Group] = []
    var transactions: [Transaction] = []
    var loans: [Instrument] = []
    var cards: [Instrument] = []
    var deposits: [Instrument] = []
    var dues: [Instrument] = []
    var budgets: [Instrument] = []
    /// Where spending comes from when nothing else is said.
    var defaultAccount = ""
    /// Each currency's rates in roubles per unit, in day order: (day, rate as written).
    var rates: [String: [(day: String, rate: String)]] = [:]

    init(text: String) {
        var section = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(raw)
            if line.hasPrefix("#") { continue }
            if !line.hasPrefix(" ") {
                section = String(line.prefix { $0 != ":" })
                if section == "defaultAccount" { defaultAccount = Self.unquote(String(line.dropFirst(section.count + 1).drop { $0 == " " })) }
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
                if isItem {
                    accounts.append(Account(name: value, kind: ""))
                } else {
                    switch key {
                    case "kind": accounts[accounts.count - 1].kind = value
                    case "currency": accounts[accounts.count - 1].currency = value
                    case "floor": accounts[accounts.count - 1].floor = Self.kopecks(value)
                    case "valueChange": accounts[accounts.count - 1].valueChange = value
                    case "valueSince": accounts[accounts.count - 1].valueSince = value
                    default: break
                    }
                }
            case "loans", "cards", "deposits", "dues", "budgets":
                if isItem && indent == 2 {
                    switch section {
                    case "loans": loans.append(Instrument(fields: [:]))
                    case "cards": cards.append(Instrument(fields: [:]))
                    case "dues": dues.append(Instrument(fields: [:]))
                    case "budgets": budgets.append(Instrument(fields: [:]))
                    default: deposits.append(Instrument(fields: [:]))
                    }
                }
                guard indent <= 4 else { continue }  // a loan's prepayments: the sample has none
                switch section {
                case "loans": loans[loans.count - 1].fields[key] = value
                case "cards": cards[cards.count - 1].fields[key] = value
                case "dues": dues[dues.count - 1].fields[key] = value
                case "budgets": budgets[budgets.count - 1].fields[key] = value
                default: deposits[deposits.count - 1].fields[key] = value
                }
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
                    if key == "account" { transactions[last].written.append((value, nil, nil)) }
                    if key == "amount" { transactions[last].written[transactions[last].written.count - 1].amount = Self.kopecks(value) }
                    if key == "currency" { transactions[last].written[transactions[last].written.count - 1].currency = value }
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
            case "rates":
                // `  - {currency: USD, on: 2025-01-01, rate: 101.6797}`
                var fields: [String: String] = [:]
                for pair in trimmed.dropFirst(2).filter({ $0 != "{" && $0 != "}" }).split(separator: ",") {
                    let parts = pair.split(separator: ":").map { String($0).trimmingLeadingAndTrailingSpaces() }
                    if parts.count == 2 { fields[parts[0]] = parts[1] }
                }
                if let currency = fields["currency"], let day = fields["on"], let rate = fields["rate"] {
                    rates[currency, default: []].append((day, rate))
                }
            default:
                break
            }
        }
    }

    func currency(of account: String) -> String { accounts.first { $0.name == account }?.currency ?? "RUB" }

    /// What a listing calls a transaction's amount: the sum of its positive postings in its first
    /// posting's currency.
    func size(of transaction: Transaction) -> Int64 {
        let legs = legs(of: transaction)
        return legs.filter { $0.currency == legs.first?.currency && $0.amount > 0 }.map(\.amount).reduce(0, +)
    }

    /// Every posting of a transaction with its currency: the one it names, else its account's.
    func legs(of transaction: Transaction) -> [(account: String, amount: Int64, currency: String)] {
        if transaction.written.isEmpty { return transaction.postings.map { ($0.account, $0.amount, currency(of: $0.account)) } }
        let known = transaction.written.filter { $0.currency == nil }.compactMap(\.amount).reduce(0, +)
        return transaction.written.map { ($0.account, $0.amount ?? -known, $0.currency ?? currency(of: $0.account)) }
    }

    /// The rate of `currency` that holds on `day` (the last on or before it), as written.
    func rate(of currency: String, on day: String) -> String? { rates[currency]?.last { $0.day <= day }?.rate }

    /// `minor` units of a currency with two decimals at `rate` roubles per unit, in kopecks,
    /// rounded half to even: decimal arithmetic on the rate's digits, no floating point.
    static func value(_ minor: Int64, at rate: String) -> Int64 {
        let parts = rate.split(separator: ".")
        let scale = parts.count == 2 ? parts[1].count : 0
        let coefficient = Int64(parts.joined())!
        let divisor = (0..<scale).reduce(Int64(1)) { result, _ in result * 10 }
        let product = minor * coefficient  // small in the sample: no overflow
        var quotient = product / divisor
        let remainder = abs(product % divisor) * 2
        if remainder > divisor || (remainder == divisor && quotient % 2 != 0) { quotient += product < 0 ? -1 : 1 }
        return quotient
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

    /// Posted transactions only: what the file says, before any instrument adds its own.
    func posted(_ account: String, through date: String) -> Int64 {
        transactions.filter { $0.date <= date }.flatMap(\.postings).filter { $0.account == account }.map(\.amount).reduce(0, +)
    }

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
