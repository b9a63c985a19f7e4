import CapitalCore
import GRDB

extension LedgerDocument {
    /// A loan as written in a ledger file.
    public struct LoanEntry: Sendable {
        public var id: String?
        public var input: LoanInput
        public var location: FileLocation
        /// Where each of `input.prepayments` is written.
        public var prepaymentLocations: [FileLocation] = []
        /// Payments after `handledThrough` no longer open.
        public var posted: [MarkEntry] = []

        /// The place of a field a loan's error names by key: `loans[0].rate`, or a prepayment's
        /// own (`loans[0].prepayments[1].date` for `{prepayments.1.on}`).
        func place(_ key: String) -> FileLocation {
            let pieces = key.split(separator: ".", maxSplits: 2)
            if pieces.count == 3, pieces[0] == "prepayments", let index = Int(pieces[1]), prepaymentLocations.indices.contains(index) {
                let at = prepaymentLocations[index]
                return FileLocation(file: at.file, line: at.line, path: "\(at.path).\(pieces[2] == "on" ? "date" : pieces[2])")
            }
            return location.field(key)
        }
    }
}

extension Reader {
    /// `loans[i]`: the terms as `loan add` takes them, with `prepayments` (`date`, `amount` or
    /// `full`, `reduce`, and `every` + `until` for a recurring one).
    func loan(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.LoanEntry {
        let fields = try mapping(
            node, path,
            allowed: [
                "id", "account", "payFrom", "category", "disburseTo", "collateral", "principal", "rate", "term", "start", "firstPayment", "method",
                "dayCount", "rounding", "calendar", "adjust", "prepayments", "handledThrough", "posted",
            ])
        let termText = try text(fields, "term", path, in: node, required: true)!
        guard let term = Int(termText) else { throw fail(fields["term"]!, "\(path).term", "'\(termText)' is not a whole number of months") }
        let at = location(node, path)
        var input = LoanInput(
            account: try text(fields, "account", path, in: node, required: true)!,
            payFrom: try text(fields, "payFrom", path, in: node, required: true)!,
            principal: try text(fields, "principal", path, in: node, required: true)!,
            rate: try text(fields, "rate", path, in: node, required: true)!,
            term: term, start: try day(fields, "start", path, in: node, required: true)!)
        input.category = try text(fields, "category", path, in: node)
        input.disburseTo = try text(fields, "disburseTo", path, in: node)
        input.collateral = try text(fields, "collateral", path, in: node)
        input.firstPayment = try day(fields, "firstPayment", path, in: node)
        input.method = try choice(fields, "method", path, in: node) ?? .annuity
        input.dayCount = try choice(fields, "dayCount", path, in: node) ?? .thirty360
        input.rounding = try choice(fields, "rounding", path, in: node) ?? .halfUp
        input.calendar = try text(fields, "calendar", path, in: node) ?? "none"
        input.adjustment = try choice(fields, "adjust", path, in: node) ?? .none
        input.handledThrough = try day(fields, "handledThrough", path, in: node)
        var prepaymentLocations: [FileLocation] = []
        for (index, item) in try list(fields, "prepayments", path).enumerated() {
            let p = "\(path).prepayments[\(index)]"
            let f = try mapping(item, p, allowed: ["date", "amount", "full", "reduce", "every", "until"])
            var prepayment = PrepaymentInput(day: try day(f, "date", p, in: item, required: true)!, amount: try text(f, "amount", p, in: item))
            prepayment.full = try bool(f, "full", p, in: item)
            prepayment.effect = try choice(f, "reduce", p, in: item) ?? .term
            prepayment.every = try text(f, "every", p, in: item)
            prepayment.until = try day(f, "until", p, in: item)
            input.prepayments.append(prepayment)
            prepaymentLocations.append(location(item, p))
        }
        return .init(
            id: try text(fields, "id", path, in: node), input: input, location: at, prepaymentLocations: prepaymentLocations,
            posted: try marks(fields, path, in: node))
    }

    /// A field that names one of an enum's cases.
    func choice<T: RawRepresentable<String> & CaseIterable>(_ fields: YAMLNode.Fields, _ key: String, _ path: String, in parent: YAMLNode)
        throws(LedgerFileError) -> T?
    {
        guard let value = try text(fields, key, path, in: parent) else { return nil }
        guard let result = T(rawValue: value) else {
            throw fail(fields[key]!, join(path, key), "'\(value)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return result
    }
}

extension LedgerFile {
    static func loan(of loan: LedgerLoan, names: [String: String], currency: Currency, extras: LedgerExtras) -> Value {
        let t = loan.terms
        func name(_ id: String) -> Value { .text(names[id] ?? id) }
        func amount(_ minor: Int64) -> Value { .amount(Money(minor: minor, currency: currency).plain) }
        var fields: [(String, Value)] = [("id", .text(loan.id)), ("account", name(loan.accountID)), ("payFrom", name(loan.payFromID))]
        if names[loan.interestCategoryID] != "Loan interest" { fields.append(("category", name(loan.interestCategoryID))) }
        if let id = loan.disburseToID { fields.append(("disburseTo", name(id))) }
        if let id = loan.collateralID { fields.append(("collateral", name(id))) }
        fields += [
            ("principal", amount(t.principal)), ("rate", .number(String(t.rate.description.dropLast()))), ("term", .number(String(t.term))),
            ("start", .text(t.start.iso)),
        ]
        if t.firstPayment != t.start.addingMonths(1) { fields.append(("firstPayment", .text(t.firstPayment.iso))) }
        if t.method != .annuity { fields.append(("method", .text(t.method.rawValue))) }
        if t.dayCount != .thirty360 { fields.append(("dayCount", .text(t.dayCount.rawValue))) }
        if t.rounding != .halfUp { fields.append(("rounding", .text(t.rounding.rawValue))) }
        if loan.calendar != "none" { fields.append(("calendar", .text(loan.calendar))) }
        if t.adjustment != .none { fields.append(("adjust", .text(t.adjustment.rawValue))) }
        var prepayments: [Value] = t.prepayments.map { p in
            var f: [(String, Value)] = [("date", .text(p.day.iso))]
            f.append(p.full ? ("full", .bool(true)) : ("amount", amount(p.amount)))
            if p.effect != .term { f.append(("reduce", .text(p.effect.rawValue))) }
            return .map(f)
        }
        prepayments += loan.extras.map { e in
            var f: [(String, Value)] = [("date", .text(e.start.iso)), ("amount", amount(e.amount)), ("every", .text(e.rule.text))]
            if let end = e.end { f.append(("until", .text(end.iso))) }
            if e.effect != .term { f.append(("reduce", .text(e.effect.rawValue))) }
            return .map(f)
        }
        if !prepayments.isEmpty { fields.append(("prepayments", .list(prepayments))) }
        if let handled = loan.handledThrough { fields.append(("handledThrough", .text(handled.iso))) }
        if let marks = extras.marks[loan.id], !marks.isEmpty { fields.append(("posted", markList(marks))) }
        return .map(fields)
    }
}

extension LedgerDocument {
    public struct CardEntry: Sendable {
        public var id: String?
        public var input: CardInput
        public var location: FileLocation
        /// Paybacks posted or skipped, by statement day.
        public var posted: [MarkEntry] = []
    }

    public struct DepositEntry: Sendable {
        public var id: String?
        public var input: DepositInput
        public var location: FileLocation
        /// Credits after `handledThrough` no longer open.
        public var posted: [MarkEntry] = []
    }
}

extension Reader {
    func integer(_ fields: YAMLNode.Fields, _ key: String, _ path: String, in parent: YAMLNode, required: Bool = false) throws(LedgerFileError)
        -> Int?
    {
        guard let value = try text(fields, key, path, in: parent, required: required) else { return nil }
        guard let number = Int(value) else { throw fail(fields[key]!, join(path, key), "'\(value)' is not a whole number") }
        return number
    }

    func card(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.CardEntry {
        let fields = try mapping(
            node, path,
            allowed: [
                "id", "account", "payFrom", "category", "limit", "statementDay", "dueDay", "dueAfter", "payback", "minimum", "minimumFloor", "fixed",
                "rate", "grace", "posted",
            ])
        var input = CardInput(
            account: try text(fields, "account", path, in: node, required: true)!, limit: try text(fields, "limit", path, in: node, required: true)!,
            statementDay: try integer(fields, "statementDay", path, in: node, required: true)!)
        input.payFrom = try text(fields, "payFrom", path, in: node)
        input.category = try text(fields, "category", path, in: node)
        input.dueDay = try integer(fields, "dueDay", path, in: node)
        input.dueAfter = try integer(fields, "dueAfter", path, in: node)
        input.payback = try text(fields, "payback", path, in: node) ?? "full"
        input.minimum = try text(fields, "minimum", path, in: node)
        input.minimumFloor = try text(fields, "minimumFloor", path, in: node)
        input.fixed = try text(fields, "fixed", path, in: node)
        input.rate = try text(fields, "rate", path, in: node) ?? "0"
        input.grace = try choice(fields, "grace", path, in: node) ?? .keep
        return .init(
            id: try text(fields, "id", path, in: node), input: input, location: location(node, path), posted: try marks(fields, path, in: node))
    }

    func deposit(_ node: YAMLNode, _ path: String) throws(LedgerFileError) -> LedgerDocument.DepositEntry {
        let fields = try mapping(
            node, path, allowed: ["id", "account", "payout", "category", "rate", "capitalisation", "opened", "maturity", "handledThrough", "posted"])
        var input = DepositInput(
            account: try text(fields, "account", path, in: node, required: true)!, rate: try text(fields, "rate", path, in: node, required: true)!,
            opened: try day(fields, "opened", path, in: node, required: true)!)
        input.payout = try text(fields, "payout", path, in: node)
        input.category = try text(fields, "category", path, in: node)
        input.capitalisation = try choice(fields, "capitalisation", path, in: node) ?? .monthly
        input.maturity = try day(fields, "maturity", path, in: node)
        input.handledThrough = try day(fields, "handledThrough", path, in: node)
        return .init(
            id: try text(fields, "id", path, in: node), input: input, location: location(node, path), posted: try marks(fields, path, in: node))
    }
}

extension LedgerFile {
    static func card(of card: LedgerCard, names: [String: String], currency: Currency, extras: LedgerExtras) -> Value {
        let t = card.terms
        func amount(_ minor: Int64) -> Value { .amount(Money(minor: minor, currency: currency).plain) }
        var fields: [(String, Value)] = [
            ("id", .text(card.id)), ("account", .text(names[card.accountID] ?? card.accountID)),
            ("payFrom", .text(names[card.payFromID] ?? card.payFromID)),
        ]
        if names[card.interestCategoryID] != "Card interest" {
            fields.append(("category", .text(names[card.interestCategoryID] ?? card.interestCategoryID)))
        }
        fields += [("limit", amount(t.limit)), ("statementDay", .number(String(t.statementDay)))]
        switch t.due {
        case .dayOfMonth(let day): fields.append(("dueDay", .number(String(day))))
        case .daysAfterStatement(let days): fields.append(("dueAfter", .number(String(days))))
        }
        switch t.payback {
        case .full: break
        case .minimum(let percent, let floor):
            fields += [("payback", .text("minimum")), ("minimum", .number(String(percent.description.dropLast()))), ("minimumFloor", amount(floor))]
        case .fixed(let value): fields += [("payback", .text("fixed")), ("fixed", amount(value))]
        }
        if t.rate.perMillion != 0 { fields.append(("rate", .number(String(t.rate.description.dropLast())))) }
        if t.grace != .keep { fields.append(("grace", .text(t.grace.rawValue))) }
        if let marks = extras.marks[card.id], !marks.isEmpty { fields.append(("posted", markList(marks))) }
        return .map(fields)
    }

    static func deposit(of deposit: LedgerDeposit, names: [String: String], extras: LedgerExtras) -> Value {
        let t = deposit.terms
        var fields: [(String, Value)] = [("id", .text(deposit.id)), ("account", .text(names[deposit.accountID] ?? deposit.accountID))]
        if let payout = deposit.payoutID { fields.append(("payout", .text(names[payout] ?? payout))) }
        if names[deposit.interestCategoryID] != "Interest" {
            fields.append(("category", .text(names[deposit.interestCategoryID] ?? deposit.interestCategoryID)))
        }
        fields += [
            ("rate", .number(String(t.rate.description.dropLast()))), ("capitalisation", .text(t.capitalisation.rawValue)),
            ("opened", .text(t.opened.iso)),
        ]
        if let maturity = t.maturity { fields.append(("maturity", .text(maturity.iso))) }
        if let handled = deposit.handledThrough { fields.append(("handledThrough", .text(handled.iso))) }
        if let marks = extras.marks[deposit.id], !marks.isEmpty { fields.append(("posted", markList(marks))) }
        return .map(fields)
    }
}
