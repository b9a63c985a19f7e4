import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

/// The tables `capital export --format csv --what …` writes. Another table is a case here, a
/// function that builds it, and its line in `table(_:_:range:)`.
enum CSVExport: String, CaseIterable {
    case transactions
    case forecast
    case dues

    /// "transactions, forecast or dues".
    static var names: String { allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue }

    /// The options only this table takes.
    var ownOptions: Set<String> {
        switch self {
        case .transactions, .dues: return []
        case .forecast: return ["--by", "--account", "--group", "--level", "--expected"]
        }
    }

    func table(_ options: CSVExportOptions, _ global: GlobalOptions, range: (from: Day?, to: Day?)) throws -> CSVTable {
        switch self {
        case .transactions: return try transactionTable(try global.ledgerStore(writing: false), range: range)
        case .forecast: return try forecastTable(options, global, range: range)
        case .dues: return try dueTable(try global.ledgerStore(writing: false), today: try global.todayDay(), range: range)
        }
    }
}

/// A header and its rows, before they are written as CSV.
struct CSVTable {
    var header: [String]
    var rows: [[CSVWriter.Field]] = []
}

/// `export --format csv` options.
struct CSVExportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("With --format csv: transactions (one row per posting; the default), forecast or dues.", valueName: "table"))
    var what: String?
    @Option(
        help: ArgumentHelp("First day (YYYY-MM-DD, or YYYY-MM for its first day); a forecast's is today or later, default today.", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("Last day (YYYY-MM-DD, or YYYY-MM for its last day); a forecast's defaults to 12 months ahead.", valueName: "date"))
    var to: String?
    @Flag(help: "Start with a UTF-8 byte order mark, which Excel needs to read UTF-8 text.") var bom = false
    @Flag(help: "Write text as it is: no ' before a cell starting with = + - @ (for programs rather than spreadsheets).") var raw = false
    @Option(
        help: ArgumentHelp("Forecast: one row per day, week or month (default month).", valueName: "period"),
        completion: .list(["day", "week", "month"])) var by: String?
    @Option(help: ArgumentHelp("Forecast: one account.", valueName: "account"), completion: .accountNames) var account: String?
    @Option(help: ArgumentHelp("Forecast: one group.", valueName: "group"), completion: .groupNames) var group: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Forecast: a ladder level, 1 to 6 (default 4).", valueName: "n")) var level: Int?
    @Flag(help: "Forecast: expected amounts of ranged schedules instead of the pessimistic ends.") var expected = false

    /// The options given, in the order of `--help`, with their values (nil for a flag).
    var given: [(option: String, value: String?)] {
        let options: [(String, String?)] = [
            ("--what", what), ("--from", from), ("--to", to), ("--by", by), ("--account", account), ("--group", group),
            ("--level", level.map(String.init)),
        ]
        let flags = [("--bom", bom), ("--raw", raw), ("--expected", expected)]
        return options.compactMap { option, value in value.map { (option, $0) } } + flags.filter(\.1).map { ($0.0, nil) }
    }

    /// An option given where it does not belong: `--by 'week': why`, or `--bom: why` for a flag.
    static func misplaced(_ option: String, _ value: String?, _ reason: String) -> CLIError {
        value.map { CLIError.invalid(option, $0, reason) } ?? CLIError("\(option): \(reason)", exitCode: 64)
    }

    /// The CSV text of the table asked for.
    func export(_ global: GlobalOptions) throws -> String {
        let table = what ?? CSVExport.transactions.rawValue
        guard let export = CSVExport(rawValue: table) else { throw CLIError.invalid("--what", table, "expected \(CSVExport.names)") }
        let others = Set(CSVExport.allCases.flatMap(\.ownOptions)).subtracting(export.ownOptions)
        if let (option, value) = given.first(where: { others.contains($0.option) }) {
            let owner = CSVExport.allCases.first { $0.ownOptions.contains(option) }!
            throw CSVExportOptions.misplaced(option, value, "goes with --what \(owner.rawValue), not --what \(export.rawValue)")
        }
        // A day, a month, or a count from today (`+30y`, `-6m`), as --until takes it.
        func day(_ text: String, _ field: KitError.Field, _ form: Day.MonthForm) throws -> Day {
            guard text.first == "+" || text.first == "-" else { return try parseDay(text, field: "--\(field.rawValue)", monthAs: form) }
            let today = try global.todayDay()
            return try kit { try today.counting(text, field: field) }
        }
        let first = try from.map { try day($0, .from, .startOfMonth) }
        let last = try to.map { try day($0, .to, .endOfMonth) }
        if let first, let last, first > last { throw CLIError.invalid("--to", to!, "it is before --from \(from!)") }
        let csv = try export.table(self, global, range: (first, last))
        return CSVWriter(bom: bom, guardFormulas: !raw).write(header: csv.header, rows: csv.rows)
    }
}

/// One row per posting: a spreadsheet sums, filters and pivots them. Balance-sheet accounts
/// (and Capital) are in `account`, categories in `category`; amounts are signed as in double
/// entry, so each transaction's rows sum to zero per currency. `value` is the amount in the
/// ledger's currency at the transaction day's rate (empty before its currency's first rate).
func transactionTable(_ store: Store, range: (from: Day?, to: Day?)) throws -> CSVTable {
    let ledger = try store.snapshot()
    var filter = TransactionFilter()
    (filter.from, filter.to) = range
    let accounts = Dictionary(ledger.accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var table = CSVTable(header: [
        "date", "payee", "account", "category", "amount", "currency", "value", "kind", "note", "postingNote", "spender", "tags", "counterparts",
        "transaction",
    ])
    let matching = ledger.transactions(matching: filter)
    let valuation = matching.first.map {
        Valuation(rates: ledger.rates, currency: ledger.currency, today: $0.day, through: matching.last?.day ?? $0.day, pessimisticDays: 1)
    }
    for transaction in matching {
        let names = transaction.postings.map { accounts[$0.accountID]?.name ?? $0.accountID }
        for (index, posting) in transaction.postings.enumerated() {
            let account = accounts[posting.accountID]
            let isCategory = account?.kind.isCategory ?? false
            var counterparts: [String] = []
            for (other, name) in names.enumerated() where other != index && name != names[index] && !counterparts.contains(name) {
                counterparts.append(name)
            }
            table.rows.append([
                .value(transaction.day.iso), .text(transaction.payee), .text(isCategory ? "" : names[index]), .text(isCategory ? names[index] : ""),
                .value(posting.amount.plain), .value(posting.amount.currency.code),
                .value(
                    (try? valuation?.value(posting.amount.minor, in: posting.amount.currency, on: transaction.day)).flatMap { $0 }
                        .map { Money(minor: $0, currency: ledger.currency).plain } ?? ""),
                .value(account?.kind.rawValue ?? ""), .text(transaction.note),
                .text(posting.note), .text(transaction.spender), .text(transaction.tags.joined(separator: ";")),
                .text(counterparts.joined(separator: ";")), .value(transaction.id),
            ])
        }
    }
    return table
}

/// Every bill and fine (by due day within `--from`/`--to`), in the order registered: what a
/// spreadsheet needs to track them, status and days left included.
func dueTable(_ store: Store, today: Day, range: (from: Day?, to: Day?)) throws -> CSVTable {
    let names = Dictionary(try store.accounts(includeHidden: true).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    var table = CSVTable(header: [
        "id", "type", "reason", "dueDay", "daysLeft", "total", "paid", "left", "currency", "status", "institution", "iban", "address", "payFrom",
        "category",
    ])
    for due in try store.dues() {
        if let from = range.from, due.dueDay < from { continue }
        if let to = range.to, due.dueDay > to { continue }
        let money = { (minor: Int64) in CSVWriter.Field.value(Money(minor: minor, currency: due.currency).plain) }
        table.rows.append([
            .value(String(due.number)), .value(due.type.rawValue), .text(due.reason), .value(due.dueDay.iso),
            .value(String(due.daysLeft(today: today))),
            money(due.total), money(due.paid), money(due.left), .value(due.currency.code),
            .value(due.status.rawValue.replacingOccurrences(of: " ", with: "-")), .text(due.institution),
            .text(due.iban), .text(due.address), .text(due.payFromID.flatMap { names[$0] } ?? ""), .text(due.categoryID.flatMap { names[$0] } ?? ""),
        ])
    }
    return table
}

/// The forecast's balance per period from `from` (today by default, never before) to `to` (the
/// horizon, 12 months ahead by default), as `capital forecast` computes it.
func forecastTable(_ options: CSVExportOptions, _ global: GlobalOptions, range: (from: Day?, to: Day?)) throws -> CSVTable {
    let by = options.by ?? "month"
    guard let period = ForecastPeriodLength(rawValue: by) else { throw CLIError.invalid("--by", by, "expected day, week or month") }
    let today = try global.todayDay()
    if let first = range.from, first < today {
        throw CLIError.invalid("--from", options.from!, "a forecast starts today (\(today)); the past is in --what transactions")
    }
    let projection = try global.projection { today in
        guard let last = range.to else { return today.addingMonths(12) }
        guard last >= today else { throw CLIError.invalid("--to", options.to!, "is before today \(today); a forecast looks ahead") }
        return last
    }
    if let first = range.from, first > projection.horizon {
        throw CLIError.invalid("--from", options.from!, "is after the forecast's last day \(projection.horizon); give a later --to")
    }
    let forecastCase: ForecastCase = options.expected ? .expected : .pessimistic
    let forecast = try kit {
        try projection.forecast(
            try projection.pool(account: options.account, group: options.group, level: options.level), by: period, from: range.from, forecastCase)
    }
    var table = CSVTable(header: ["start", "end", "opening", "inflow", "outflow", "closing", "min", "minDay", "currency"])
    // An account in another currency is forecast in its own.
    let currency = forecast.pool.currency
    for period in forecast.periods {
        table.rows.append(
            [.value(period.start.iso), .value(period.end.iso)]
                + [period.opening, period.inflow, period.outflow, period.closing, period.minimum].map {
                    .value(Money(minor: $0, currency: currency).plain)
                }
                + [.value(period.minimumDay.iso), .value(currency.code)])
    }
    return table
}
