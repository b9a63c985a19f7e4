import CapitalCore
import CapitalStore

/// The decisions of one statement import, line by line, before anything is written.
struct StatementPlan {
    let request: StatementImport
    let store: Store
    let account: Account
    let currency: Currency
    let history: StatementHistory
    /// Live accounts and categories by folded name.
    var byName: [String: Account]
    /// Counterpart names as the file gives them, resolved.
    var counterparts: [String: Account] = [:]
    /// Per normalised payee, the category it was given most often (with `learn`).
    var learned: [String: String] = [:]
    var byID: [String: Account]

    var rows: [StatementRow] = []
    var writes: [StatementWrite] = []
    var newCategories: [Account] = []
    /// What the lines to be added move on the account, by day (for the balance check).
    var added: [(Day, Int64)] = []
    private var seenKeys: Set<String> = []
    /// Hand-entered transactions by the amount they move on the account.
    private var unlinkedByAmount: [Int64: [UnlinkedTransaction]] = [:]
    /// Transactions another account's statement holds, by the amount they move on the account.
    private var linkedByAmount: [Int64: [LinkedTransaction]] = [:]
    /// Open flows by day.
    private var flowsByDay: [Int: [StatementFlow]] = [:]
    private var usedTransactions: Set<String> = []
    private var usedFlows: Set<String> = []

    init(request: StatementImport, account: Account, statement: Statement, store: Store) throws {
        self.request = request
        self.store = store
        self.account = account
        currency = account.currency
        let accounts = try store.accounts(includeHidden: true)
        byName = Dictionary(accounts.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let days = statement.lines.map(\.day)
        let range = DayRange(days.min() ?? request.today, (days.max() ?? request.today).advanced(by: 1))
        history = try store.statementHistory(
            accountID: account.id, range: range, window: max(StatementImport.handEnteredDays, request.matchDays), today: request.today,
            learn: request.learn)
        unlinkedByAmount = Dictionary(grouping: history.unlinked, by: \.amount)
        linkedByAmount = Dictionary(grouping: history.linkedElsewhere, by: \.amount)
        flowsByDay = Dictionary(grouping: history.flows, by: { $0.entry.flow.day.number })
        try resolveCounterparts(statement.lines)
        if request.learn { learn() }
    }

    // MARK: Counterparts

    /// Maps every counterpart name the file gives to an account: the exact name, else its last
    /// `:` segment (`expenses:food` → `food`), else a new category with `createMissing`.
    private mutating func resolveCounterparts(_ lines: [StatementLine]) throws {
        var unknown: [String] = []
        var unknownAccounts: [String] = []
        for line in lines {
            let names = line.splits.isEmpty ? [line.counterpart].compactMap { $0 } : line.splits.map(\.counterpart)
            // An empty name (a QIF split with no `S`, a rule's field left blank) names nothing: Uncategorised.
            for (index, name) in names.enumerated() where !name.isEmpty && counterparts[name] == nil {
                if let found = find(name) {
                    guard found.id != account.id else {
                        throw KitError.fileLine(
                            path: request.source.path, line: line.line,
                            reason: "the counterpart '\(FieldKeys.literal(name))' is the statement's own account")
                    }
                    // The line's amount lands on it too: refused here, as the write would refuse it.
                    guard found.currency == currency || found.kind == .equity else {
                        throw KitError.fileLine(
                            path: request.source.path, line: line.line,
                            reason: "the counterpart '\(FieldKeys.literal(found.name))' holds \(found.currency.code), "
                                + "account '\(FieldKeys.literal(account.name))' \(currency.code)")
                    }
                    counterparts[name] = found
                    continue
                }
                let amount = line.splits.isEmpty ? line.amountMinor : line.splits[index].amountMinor
                guard let kind = Self.categoryKind(name, amount: amount) else {
                    if !unknownAccounts.contains(name) { unknownAccounts.append(name) }
                    continue
                }
                if request.createMissing {
                    let category = Account(id: Store.newID(), name: Self.categoryName(name), kind: kind, currency: currency)
                    newCategories.append(category)
                    byName[category.name.lowercased()] = category
                    byID[category.id] = category
                    counterparts[name] = category
                } else if !unknown.contains(name) {
                    unknown.append(name)
                }
            }
        }
        func listed(_ names: [String]) -> String {
            names.prefix(20).map { "'\(FieldKeys.literal($0))'" }.joined(separator: ", ") + (names.count > 20 ? ", …" : "")
        }
        if !unknownAccounts.isEmpty {
            throw KitError.refused(
                reason: "\(unknownAccounts.count) account name\(unknownAccounts.count == 1 ? "" : "s") in the statement match no account: "
                    + "\(listed(unknownAccounts)); add the accounts (they are not created), or name existing ones in the rules")
        }
        guard unknown.isEmpty else {
            throw KitError.refused(
                reason: "\(unknown.count) category name\(unknown.count == 1 ? "" : "s") in the statement match no category: "
                    + "\(listed(unknown)); add them, or pass {createMissing} to create them")
        }
    }

    /// The kind of category an hledger account name stands for: `expenses:…` an expense,
    /// `income:…` or `revenues:…` an income, `assets:…`, `liabilities:…`, `equity:…` and a QIF
    /// transfer's `[Account]` none (an account, never created); any other name by the money's direction.
    static func categoryKind(_ name: String, amount: Int64) -> AccountKind? {
        if bracketed(name) != nil { return nil }
        let top = name.split(separator: ":").first.map { $0.lowercased() } ?? ""
        switch top {
        case "expenses", "expense": return .expense
        case "income", "revenues", "revenue": return .income
        case "assets", "asset", "liabilities", "liability", "equity": return name.contains(":") ? nil : (amount > 0 ? .income : .expense)
        default: return amount > 0 ? .income : .expense
        }
    }

    /// A created category's name: the last segment, its first letter capitalised (`expenses:eating-out` → `Eating-out`).
    static func categoryName(_ name: String) -> String {
        let last = lastSegment(name)
        return last.prefix(1).uppercased() + last.dropFirst()
    }

    /// The account or category a counterpart name stands for; a QIF transfer's `[Savings]` only
    /// an account.
    private func find(_ name: String) -> Account? {
        if let inside = Self.bracketed(name) { return byName[inside.lowercased()].flatMap { $0.kind.isBalanceSheet ? $0 : nil } }
        return byName[name.lowercased()] ?? byName[Self.lastSegment(name).lowercased()]
    }

    /// `Savings` of a QIF transfer's `[Savings]`.
    static func bracketed(_ name: String) -> String? {
        guard name.count >= 2, name.hasPrefix("["), name.hasSuffix("]") else { return nil }
        return String(name.dropFirst().dropLast())
    }

    /// `expenses:food` → `food`.
    static func lastSegment(_ name: String) -> String {
        String(name.split(separator: ":").last ?? Substring(name)).trimmed()
    }

    /// The category each payee was given most often before, by normalised payee.
    private mutating func learn() {
        var counts: [String: [String: Int]] = [:]
        for (payee, categories) in history.payeeCategories {
            let key = Self.normalisedPayee(payee)
            guard !key.isEmpty else { continue }
            // Uncategorised is where nothing was learned yet: never a payee's category.
            for (id, count) in categories where byID[id]?.name.lowercased() != StatementImport.uncategorised.lowercased() {
                counts[key, default: [:]][id, default: 0] += count
            }
        }
        for (key, categories) in counts {
            // Most used; ties to the category listed first in the ledger (a stable choice).
            let best = categories.max { a, b in
                a.value != b.value ? a.value < b.value : (byID[a.key]?.name ?? a.key) > (byID[b.key]?.name ?? b.key)
            }
            if let best { learned[key] = best.key }
        }
    }

    /// A payee as compared for learning: lower case, without digits, card-number masks (`*`,
    /// `#`, runs of `x`) and extra spaces: `PYATEROCHKA 1234 MOSCOW` and `Pyaterochka 5678 Moscow` are one payee.
    static func normalisedPayee(_ payee: String) -> String {
        let words = payee.lowercased().split { $0 == " " || $0 == "\t" }.compactMap { word -> String? in
            let kept = word.filter { !$0.isNumber && $0 != "*" && $0 != "#" }
            let trimmed = kept.trimmed("-_/.,:;")
            if trimmed.isEmpty || trimmed.allSatisfy({ $0 == "x" || $0 == "х" }) { return nil }
            return trimmed
        }
        return words.joined(separator: " ")
    }

    // MARK: Lines

    /// Decides each line in order; see `Store.importStatement`.
    mutating func decide(_ lines: [StatementLine]) throws {
        var occurrences: [LineDigest: Int] = [:]
        for line in lines {
            let amount = Money(minor: line.amountMinor, currency: currency)
            var identity = LineDigest()
            identity.add("\(line.day.number)|\(line.amountMinor)|")
            identity.add(line.payee)
            identity.add("|")
            identity.add(line.note)
            let occurrence = occurrences[identity, default: 0]
            occurrences[identity] = occurrence + 1
            let (id, key) = Self.key(line, identity: identity, occurrence: occurrence, accountID: account.id)
            var row = StatementRow(
                line: line.line, day: line.day, amount: amount, payee: line.payee, note: line.note, account: account.name, counterpart: "", id: id,
                status: .new)
            let given = line.splits.isEmpty ? line.counterpart.flatMap { counterparts[$0] } : nil
            row.counterpart =
                line.splits.isEmpty
                ? (given?.name ?? "")
                : line.splits.map { counterparts[$0.counterpart]?.name ?? StatementImport.uncategorised }.joined(separator: ", ")
            if line.amountMinor == 0 {
                row.status = .zero
            } else if history.keys[key] != nil || seenKeys.contains(key) {
                row.status = .duplicate
            } else if let match = handEntered(line), !request.keepBoth {
                usedTransactions.insert(match.id)
                row.status = .matches(Store.shortID(match.id))
                row.counterpart = match.counterparts
                writes.append(StatementWrite(key: key, action: .link(id: match.id)))
            } else if line.splits.isEmpty, !request.keepBoth, let match = linkedElsewhere(line, counterpart: given) {
                // The other statement's line of a transfer: the money is in the ledger once; that
                // transaction keeps the other statement's key, and nothing is written.
                usedTransactions.insert(match.id)
                row.status = .matches(Store.shortID(match.id))
                row.counterpart = match.counterparts
            } else if line.splits.isEmpty, let flow = flow(line, counterpart: given) {
                usedFlows.insert(flow.entry.reference)
                let transaction = Transaction(
                    id: Store.newID(), day: line.day, payee: line.payee.isEmpty ? flow.entry.flow.payee : line.payee, note: line.note,
                    postings: postings(of: flow, amount: line.amountMinor))
                row.status = .settles(flow.entry.reference)
                row.counterpart = transaction.postings.filter { $0.accountID != account.id }.compactMap { byID[$0.accountID]?.name }.joined(
                    separator: ", ")
                insert(transaction, key: key, settles: flow.entry.reference)
            } else {
                var postings = [Posting(accountID: account.id, amount: amount)]
                if !line.splits.isEmpty {
                    let sum = line.splits.reduce(Int64(0)) { saturatingSum($0, $1.amountMinor) }
                    guard sum == line.amountMinor else {
                        throw KitError.fileLine(
                            path: request.source.path, line: line.line,
                            reason: "the splits add up to \(Money(minor: sum, currency: currency).plain), the line to \(amount.plain)")
                    }
                    for split in line.splits {
                        let category: Account
                        if let known = counterparts[split.counterpart] {
                            category = known
                        } else {
                            category = uncategorised()
                            row.status = .uncategorised
                        }
                        postings.append(
                            Posting(accountID: category.id, amount: Money(minor: -split.amountMinor, currency: currency), note: split.note))
                    }
                } else {
                    let category: Account
                    if let given {
                        category = given
                    } else if let id = learned[Self.normalisedPayee(line.payee)], let known = byID[id] {
                        category = known
                    } else {
                        category = uncategorised()
                        row.status = .uncategorised
                    }
                    row.counterpart = category.name
                    postings.append(Posting(accountID: category.id, amount: Money(minor: -line.amountMinor, currency: currency)))
                }
                insert(Transaction(id: Store.newID(), day: line.day, payee: line.payee, note: line.note, postings: postings), key: key, settles: nil)
            }
            seenKeys.insert(key)
            rows.append(row)
        }
    }

    private mutating func insert(_ transaction: Transaction, key: String, settles: String?) {
        writes.append(StatementWrite(key: key, action: .insert(transaction, settles: settles)))
        let moved = transaction.postings.filter { $0.accountID == account.id }.reduce(Int64(0)) { saturatingSum($0, $1.amount.minor) }
        added.append((transaction.day, moved))
    }

    /// The `Uncategorised` expense category, created with the import when the ledger lacks it.
    private mutating func uncategorised() -> Account {
        if let found = byName[StatementImport.uncategorised.lowercased()] { return found }
        let category = Account(id: Store.newID(), name: StatementImport.uncategorised, kind: .expense, currency: currency)
        newCategories.append(category)
        byName[category.name.lowercased()] = category
        byID[category.id] = category
        return category
    }

    /// The nearest hand-entered transaction of the same amount on the account within two days, not yet taken.
    private func handEntered(_ line: StatementLine) -> UnlinkedTransaction? {
        (unlinkedByAmount[line.amountMinor] ?? []).filter {
            abs($0.day.number - line.day.number) <= StatementImport.handEnteredDays && !usedTransactions.contains($0.id)
        }.min { abs($0.day.number - line.day.number) < abs($1.day.number - line.day.number) }
    }

    /// The nearest transaction another account's statement holds that moves this account by the
    /// line's amount within the match window (`--match-days`, at least two days) and moves that
    /// other account too (the line's counterpart, when it names one, must be it), not yet taken.
    private func linkedElsewhere(_ line: StatementLine, counterpart: Account?) -> LinkedTransaction? {
        if line.counterpart != nil && counterpart == nil { return nil }
        let window = max(StatementImport.handEnteredDays, request.matchDays)
        return (linkedByAmount[line.amountMinor] ?? []).filter { linked in
            abs(linked.day.number - line.day.number) <= window && !usedTransactions.contains(linked.id)
                && linked.otherAccountIDs.contains(linked.linkedAccountID) && (counterpart == nil || counterpart?.id == linked.linkedAccountID)
        }.min { abs($0.day.number - line.day.number) < abs($1.day.number - line.day.number) }
    }

    /// The nearest open expected flow that moves the account by the line's amount (or within its
    /// range) within the match window, not yet taken, and moves the line's counterpart if it has one.
    private func flow(_ line: StatementLine, counterpart: Account?) -> StatementFlow? {
        if line.counterpart != nil && counterpart == nil { return nil }
        var best: StatementFlow?
        var bestDistance = Int.max
        for day in (line.day.number - request.matchDays)...(line.day.number + request.matchDays) {
            for flow in flowsByDay[day] ?? [] {
                guard line.amountMinor >= flow.low && line.amountMinor <= flow.high, !usedFlows.contains(flow.entry.reference) else { continue }
                if let category = counterpart, !flow.entry.flow.postings.contains(where: { $0.accountID == category.id }) { continue }
                let distance = abs(day - line.day.number)
                if distance < bestDistance { (best, bestDistance) = (flow, distance) }
            }
        }
        return best
    }

    /// The flow's postings for a line of `amount`: a two-posting flow at the line's amount, a split
    /// one (a loan payment) as expected when the amount is the expected one.
    private func postings(of flow: StatementFlow, amount: Int64) -> [Posting] {
        let expected = flow.entry.flow.postings
        if flow.low == amount && flow.high == amount { return expected }
        let other = expected.first { $0.accountID != account.id }?.accountID ?? account.id
        return [
            Posting(accountID: account.id, amount: Money(minor: amount, currency: currency)),
            Posting(accountID: other, amount: Money(minor: -amount, currency: currency)),
        ]
    }

    /// The line's id as shown and its key as stored (the account's id, then the id): the bank's
    /// FITID, else a digest of the day, the amount, payee, note and the line's occurrence among
    /// identical ones.
    static func key(_ line: StatementLine, identity: LineDigest, occurrence: Int, accountID: String) -> (id: String, key: String) {
        if let external = line.externalID, !external.isEmpty { return (external, "\(accountID):fitid:\(external)") }
        // The account is in the key, not the digest: a line's id reads the same in every ledger.
        var digest = identity
        digest.add("|\(occurrence)")
        let hex = digest.hex
        return (String(hex.prefix(16)), "\(accountID):line:\(hex)")
    }

    // MARK: Balance

    /// The statement's closing balance (OFX `LEDGERBAL`, else the last balance a line gives) beside
    /// the account's recorded balance that day, with the lines this import adds.
    func balanceCheck(_ statement: Statement) throws -> StatementBalanceCheck? {
        let closing =
            statement.closingBalance
            ?? statement.lines.last(where: { $0.balanceMinor != nil }).flatMap { line in
                line.balanceMinor.map { StatementBalance(day: line.day, amountMinor: $0) }
            }
        guard let closing else { return nil }
        return try balanceCheck(closing)
    }

    private func balanceCheck(_ closing: StatementBalance) throws -> StatementBalanceCheck {
        // The checkpoint path reads no history before the day's month.
        let ledger = try store.snapshot(asOf: [closing.day])
        var recorded: Int64
        do { recorded = try ledger.balances(on: closing.day)[BalanceKey(accountID: account.id, currency: currency)] ?? 0 } catch {
            throw KitError.engine(context: "balance", reason: KitError.template(error))
        }
        for (day, amount) in added where day <= closing.day { recorded = saturatingSum(recorded, amount) }
        return StatementBalanceCheck(
            day: closing.day, stated: Money(minor: closing.amountMinor, currency: currency), recorded: Money(minor: recorded, currency: currency))
    }
}

/// A 128-bit FNV-1a digest (two 64-bit lanes), written in hex after a SplitMix64 finish: stable
/// across runs and machines (Swift's `Hasher` is not).
struct LineDigest: Hashable {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = b ^ (b >> 29)
        }
    }

    /// 32 hexadecimal digits.
    var hex: String {
        // SplitMix64's finaliser: lines that differ in one character get unrelated digests.
        func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9e37_79b9_7f4a_7c15
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        let (x, y) = (mix(a), mix(b ^ mix(a)))
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(x) + hex(y)
    }
}
