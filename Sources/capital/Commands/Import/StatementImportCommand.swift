import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension StatementFormat: ExpressibleByArgument {}

/// `import STATEMENT --account ACCOUNT …`: the options of a bank statement import.
struct StatementOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The account the statement is of: FILE is then a bank statement.", valueName: "account"), completion: .accountNames)
    var account: String?
    @Option(help: ArgumentHelp("hledger-style CSV rules (default: FILE.rules beside it, as bank.csv.rules, else bank.rules).", valueName: "file"))
    var rules: String?
    @Option(name: .customLong("format-in"), help: ArgumentHelp("csv, ofx or qif (default: told from the content).", valueName: "format"))
    var formatIn: String?
    @Option(help: ArgumentHelp("utf-8, windows-1251 or windows-1252 (default: UTF-8 if valid, else told from the letters).", valueName: "name"))
    var encoding: String?
    @Option(
        name: .customLong("ofx-account"),
        help: ArgumentHelp("Which statement of an OFX file: its account number or last digits.", valueName: "number"))
    var ofxAccount: String?
    @Flag(name: .customLong("day-first"), help: "QIF dates are day/month (default: as the file's dates tell).") var dayFirst = false
    @Flag(name: .customLong("month-first"), help: "QIF dates are month/day, as Quicken writes them (default: as the file's dates tell).")
    var monthFirst = false
    @Flag(name: .customLong("dry-run"), help: "Show what each line would become; write nothing.") var dryRun = false
    @Flag(name: .customLong("create-missing"), help: "Create the categories the rules name and the ledger lacks.") var createMissing = false
    @Flag(help: "Categorise a line the rules leave alone by what its payee was given most often before.") var learn = false
    @Flag(name: .customLong("keep-both"), help: "Add a line even when a transaction entered by hand stands for it.") var keepBoth = false
    @Flag(help: "A closing balance that differs from the ledger's is an error, not a warning.") var strict = false
    @Option(
        name: .customLong("match-days"), parsing: .unconditional,
        help: ArgumentHelp("Days either side a line may settle an expected flow (default 3).", valueName: "n"))
    var matchDays: String?

    /// The statement options given, for refusing them without `--account`.
    var given: [(option: String, value: String)] {
        var given: [(String, String)] = []
        for (option, value) in [
            ("--rules", rules), ("--format-in", formatIn), ("--encoding", encoding), ("--ofx-account", ofxAccount), ("--match-days", matchDays),
        ] {
            if let value { given.append((option, value)) }
        }
        for (option, set) in [
            ("--day-first", dayFirst), ("--month-first", monthFirst), ("--dry-run", dryRun), ("--create-missing", createMissing), ("--learn", learn),
            ("--keep-both", keepBoth),
            ("--strict", strict),
        ]
        where set {
            given.append((option, ""))
        }
        return given
    }

    /// The statement format a file's extension names, if it names one.
    static func statementFormat(_ path: String) -> StatementFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "csv", "tsv", "ssv": .csv
        case "ofx", "qfx": .ofx
        case "qif": .qif
        default: nil
        }
    }

    /// The statement as the options describe it.
    func source(_ file: String) throws -> StatementSource {
        if dayFirst && monthFirst { throw CLIError("give --day-first or --month-first, not both", exitCode: 64) }
        var source = StatementSource(
            path: file, rulesPath: rules, ofxAccount: ofxAccount, dates: dayFirst ? .dayFirst : monthFirst ? .monthFirst : .fromFile)
        if let formatIn {
            guard let format = StatementFormat(rawValue: formatIn.lowercased()) else {
                throw CLIError.invalid("--format-in", formatIn, "expected csv, ofx or qif")
            }
            source.format = format
        }
        if let encoding {
            guard let value = TextEncoding(name: encoding) else {
                throw CLIError.invalid("--encoding", encoding, "expected utf-8, windows-1251 or windows-1252")
            }
            source.encoding = value
        }
        return source
    }

    func run(file: String, account: String, global: GlobalOptions) throws {
        let format = try global.outputFormat()
        var request = StatementImport(source: try source(file), account: account, today: try global.todayDay())
        (request.createMissing, request.learn, request.keepBoth, request.strict) = (createMissing, learn, keepBoth, strict)
        if let matchDays {
            guard let days = Int(matchDays), days >= 0, days <= 366 else {
                throw CLIError.invalid("--match-days", matchDays, "a number of days from 0 to 366")
            }
            request.matchDays = days
        }
        let store = try global.ledgerStore(writing: !dryRun)
        let result = try kit { try store.importStatement(request, dryRun: dryRun) }
        let shown = { (money: Money) in global.hideAmounts ? "***" : money.plain }
        if let unusable = result.unusableBalance {
            Console.current.writeError(
                "capital: warning: \(file):\(unusable.line): \(unusable.reason.singleLine): the statement gives no usable closing balance; "
                    + "its lines \(dryRun ? "would be" : "are") imported without the balance check\n")
        }
        if let balance = result.balance, balance.difference != 0 {
            let difference = Money(minor: balance.difference, currency: balance.stated.currency)
            Console.current.writeError(
                "capital: warning: \(file): the statement's closing balance on \(balance.day.iso) is \(shown(balance.stated)), "
                    + "the ledger's \(dryRun ? "would be" : "is") \(shown(balance.recorded)) (difference \(shown(difference)))\n")
        }
        // A table of an import says its sums; the lines are for a dry run, JSON and CSV.
        var report = Report.statementImport(result, file: file, dryRun: dryRun, lines: dryRun || format != .table, shown: shown)
        if !dryRun && format == .table { report.headlineOnly = true }
        try global.print(report)
    }
}

extension Report {
    /// `import STATEMENT`: a row per statement line (what it became), a summary above; in JSON
    /// `{"transactions": [...], "summary": {...}}`.
    static func statementImport(
        _ result: StatementImportResult, file: String, dryRun: Bool, lines: Bool, shown: (Money) -> String = { $0.plain }
    ) -> Report {
        var section = Section(
            name: "transactions",
            columns: [
                Column("line", "Line", numeric: true), Column("date", "Date"), Column("amount", "Amount", numeric: true), Column("currency", "Cur"),
                Column("payee", "Payee"), Column("note", "Note"), Column("account", "Account"), Column("counterpart", "Counterpart"),
                Column("id", "Id"), Column("status", "Status"),
            ])
        section.rows =
            !lines
            ? []
            : result.rows.map { row in
                [
                    .int(row.line), .day(row.day), .money(row.amount), .text(row.amount.currency.code), .text(row.payee), .text(row.note),
                    .text(row.account), .text(row.counterpart), .text(row.id), .text(row.status.text),
                ]
            }
        var tally = [Int](repeating: 0, count: 6)
        for row in result.rows {
            switch row.status {
            case .new: tally[0] += 1
            case .uncategorised: tally[1] += 1
            case .settles: tally[2] += 1
            case .matches: tally[3] += 1
            case .duplicate: tally[4] += 1
            case .zero: tally[5] += 1
            }
        }
        let counts: [(String, Int)] = [
            ("lines", result.rows.count), ("new", tally[0]), ("uncategorised", tally[1]), ("settles", tally[2]), ("matches", tally[3]),
            ("duplicate", tally[4]), ("zero", tally[5]),
        ]
        var report = Report([section])
        let added = counts[1].1 + counts[2].1 + counts[3].1
        let verb = dryRun ? "Would import" : result.written ? "Imported" : "Nothing new in"
        var parts = ["\(added) new (\(counts[2].1) uncategorised, \(counts[3].1) settling expected flows)"]
        parts.append("\(counts[4].1.counted("matching transaction")) entered by hand")
        parts.append("\(counts[5].1) already imported")
        if counts[6].1 > 0 { parts.append("\(counts[6].1) of zero") }
        report.headline = [
            "\(verb) \(file) (\(result.format.rawValue), \(result.encoding.rawValue)): \(result.rows.count.counted("line")); "
                + parts.joined(separator: ", ")
                + "."
        ]
        if counts[2].1 > 0 && !dryRun && result.written {
            report.headline.append("Categorise what nothing categorised: capital tx list --uncategorised, then capital tx edit ID --posting ….")
        }
        if !result.createdCategories.isEmpty {
            report.headline.append("\(dryRun ? "Would create" : "Created") categories: \(result.createdCategories.joined(separator: ", ")).")
        }
        if let balance = result.balance {
            report.headline.append(
                balance.difference == 0
                    ? "Closing balance on \(balance.day.iso): \(shown(balance.stated)), as in the ledger."
                    : "Closing balance on \(balance.day.iso): the statement says \(shown(balance.stated)), the ledger \(shown(balance.recorded)).")
        }
        var summary: [(String, JSON)] = [
            ("file", .string(file)), ("format", .string(result.format.rawValue)), ("encoding", .string(result.encoding.rawValue)),
        ]
        summary += counts.map { ($0.0, .number(String($0.1))) }
        summary.append(("createdCategories", .array(result.createdCategories.map { .string($0) })))
        summary.append(("written", .bool(result.written)))
        // null when the statement gives no closing balance (absent values are null in capital's JSON).
        summary.append(
            (
                "balance",
                result.balance.map { balance in
                    .object([
                        ("date", .string(balance.day.iso)), ("stated", .string(balance.stated.plain)), ("recorded", .string(balance.recorded.plain)),
                        ("difference", .string(Money(minor: balance.difference, currency: balance.stated.currency).plain)),
                    ])
                } ?? .null
            ))
        guard lines else { return report }
        report.json = .object([
            (
                "transactions",
                .array(
                    result.rows.map { row in
                        .object([
                            ("line", .number(String(row.line))), ("date", .string(row.day.iso)), ("amount", .string(row.amount.plain)),
                            ("currency", .string(row.amount.currency.code)), ("payee", .string(row.payee)), ("note", .string(row.note)),
                            ("account", .string(row.account)), ("counterpart", .string(row.counterpart)), ("id", .string(row.id)),
                            ("status", .string(row.status.text)),
                        ])
                    })
            ),
            ("summary", .object(summary)),
        ])
        return report
    }
}

extension StatementRow.Status {
    /// `new`, `uncategorised`, `duplicate`, `matches tx 3f2a1b2c`, `settles Salary@2025-04-05`, `zero`.
    var text: String {
        switch self {
        case .new: "new"
        case .uncategorised: "uncategorised"
        case .duplicate: "duplicate"
        case .matches(let id): "matches tx \(id)"
        case .settles(let reference): "settles \(reference)"
        case .zero: "zero"
        }
    }
}
