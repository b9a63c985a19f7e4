import CapitalCore
import GRDB

extension LedgerDocument {
    /// A bill or fine as written in a ledger file.
    public struct DueEntry: Sendable {
        public var id: String?
        public var input: DueInput
        public var location: FileLocation
    }

    /// A budget as written in a ledger file.
    public struct BudgetEntry: Sendable {
        public var id: String?
        public var input: BudgetInput
        public var location: FileLocation
        /// The first days of the periods skipped (`capital expected skip`), each where it is written.
        public var skipped: [(day: Day, location: FileLocation)] = []
    }
}

extension LedgerDocument {
    /// An exchange rate as written in a ledger file.
    public struct RateEntry: Sendable {
        public var id: String?
        public var input: RateInput
        public var location: FileLocation
    }
}

extension Reader {
    /// `rates[i]`: `currency`, `on`, `rate` (required); `per` (1).
    func rate(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.RateEntry {
        let fields = try mapping(node, path, allowed: ["id", "currency", "on", "rate", "per"])
        var input = RateInput(
            currency: try text(fields, "currency", path, in: node, required: true)!, day: try day(fields, "on", path, in: node, required: true)!,
            rate: try text(fields, "rate", path, in: node, required: true)!)
        input.per = try text(fields, "per", path, in: node) ?? "1"
        return .init(id: try text(fields, "id", path, in: node), input: input, location: location(node, path))
    }

    /// `dues[i]`: `type`, `total`, `reason`, `due` (required); `paid`, `iban`, `address`,
    /// `institution`, `payFrom`, `category`.
    func due(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.DueEntry {
        let fields = try mapping(
            node, path, allowed: ["id", "type", "total", "paid", "reason", "due", "iban", "address", "institution", "payFrom", "category"])
        let type: DueType? = try choice(fields, "type", path, in: node)
        guard let type else { throw fail(node, join(path, "type"), "is required: bill or fine") }
        var input = DueInput(
            type: type, total: try text(fields, "total", path, in: node, required: true)!,
            reason: try text(fields, "reason", path, in: node, required: true)!,
            dueDay: try day(fields, "due", path, in: node, required: true)!)
        input.paid = try text(fields, "paid", path, in: node)
        input.iban = try text(fields, "iban", path, in: node) ?? ""
        input.address = try text(fields, "address", path, in: node) ?? ""
        input.institution = try text(fields, "institution", path, in: node) ?? ""
        input.payFrom = try text(fields, "payFrom", path, in: node)
        input.category = try text(fields, "category", path, in: node)
        return .init(id: try text(fields, "id", path, in: node), input: input, location: location(node, path))
    }

    /// `budgets[i]`: `category`, `amount`, `from` (required); `period` (monthly), `payFrom`,
    /// `skipped` (the first days of the periods skipped).
    func budget(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.BudgetEntry {
        let fields = try mapping(node, path, allowed: ["id", "category", "amount", "period", "from", "payFrom", "skipped"])
        var input = BudgetInput(
            category: try text(fields, "category", path, in: node, required: true)!,
            amount: try text(fields, "amount", path, in: node, required: true)!,
            start: try day(fields, "from", path, in: node, required: true)!)
        input.period = try choice(fields, "period", path, in: node) ?? .monthly
        input.payFrom = try text(fields, "payFrom", path, in: node)
        var skipped: [(day: Day, location: FileLocation)] = []
        for (text, at) in try textList(fields, "skipped", path) {
            do { skipped.append((try Day(input: text), at)) } catch { throw LedgerFileError(at, "'\(text)': \(error)") }
        }
        return .init(id: try text(fields, "id", path, in: node), input: input, location: location(node, path), skipped: skipped)
    }
}

extension LedgerFile {
    static func rate(of rate: ExchangeRate) -> Value {
        var fields: [(String, Value)] = [
            ("id", .text(rate.id)), ("currency", .text(rate.currency.code)), ("on", .text(rate.day.iso)), ("rate", .amount(rate.value.description)),
        ]
        if rate.per != 1 { fields.append(("per", .amount(String(rate.per)))) }
        return .map(fields)
    }

    static func due(of due: Due, names: [String: String]) -> Value {
        var fields: [(String, Value)] = [
            ("id", .text(due.id)), ("type", .text(due.type.rawValue)), ("total", .amount(Money(minor: due.total, currency: due.currency).plain)),
        ]
        if due.paid != 0 { fields.append(("paid", .amount(Money(minor: due.paid, currency: due.currency).plain))) }
        fields += [("reason", .text(due.reason)), ("due", .text(due.dueDay.iso))]
        if !due.iban.isEmpty { fields.append(("iban", .text(due.iban))) }
        if !due.address.isEmpty { fields.append(("address", .text(due.address))) }
        if !due.institution.isEmpty { fields.append(("institution", .text(due.institution))) }
        if let id = due.payFromID { fields.append(("payFrom", .text(names[id] ?? id))) }
        if let id = due.categoryID, names[id] != Store.dueCategory(due.type) { fields.append(("category", .text(names[id] ?? id))) }
        return .map(fields)
    }

    static func budget(of budget: Budget, names: [String: String], currency: Currency, extras: LedgerExtras) -> Value {
        var fields: [(String, Value)] = [
            ("id", .text(budget.id)), ("category", .text(names[budget.categoryID] ?? budget.categoryID)),
            ("amount", .amount(Money(minor: budget.amount, currency: currency).plain)),
        ]
        if budget.period != .monthly { fields.append(("period", .text(budget.period.rawValue))) }
        fields.append(("from", .text(budget.start.iso)))  // as stored: the day the user set it from
        if let id = budget.payFromID { fields.append(("payFrom", .text(names[id] ?? id))) }
        let skipped = (extras.marks[budget.id] ?? []).filter { $0.mark.state == .skipped }.map(\.day).sorted()
        if !skipped.isEmpty { fields.append(("skipped", .list(skipped.map { .text($0.iso) }))) }
        return .map(fields)
    }
}
