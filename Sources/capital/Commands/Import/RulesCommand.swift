import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import Foundation

extension Capital {
    struct RulesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rules", "Try CSV rules (hledger's syntax) on a bank statement, without a database.", subcommands: [Test.self])
    }
}

extension Capital.RulesCommand {
    struct Test: ParsableCommand, SpellsFields {
        // Both files are arguments here, not --rules and a statement.
        static let fieldNames = ["rules": "RULES", "statement": "STATEMENT"]
        static let configuration = CommandConfiguration(
            "test", "Show each line of a CSV statement as the rules read it, and which if blocks or table rows matched it.",
            about: "Amounts have two decimals unless --currency names a currency with other (JPY: none). See docs/import.md.",
            example: "capital rules test bank.rules statement.csv", "capital rules test bank.rules statement.csv --format json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The rules file.") var rules: String
        @Argument(help: "The CSV statement.") var statement: String
        @Option(help: ArgumentHelp("utf-8, windows-1251 or windows-1252 (default: UTF-8 if valid, else told from the letters).", valueName: "name"))
        var encoding: String?
        @Option(help: ArgumentHelp("The statement's currency, for its decimals (default two).", valueName: "code")) var currency: String?

        func run() throws {
            var source = StatementSource(path: statement, format: .csv, rulesPath: rules)
            if let encoding {
                guard let value = TextEncoding(name: encoding) else {
                    throw CLIError.invalid("--encoding", encoding, "expected utf-8, windows-1251 or windows-1252")
                }
                source.encoding = value
            }
            var exponent = 2
            if let currency {
                do { exponent = try Currency(currency).exponent } catch { throw CLIError.invalid("--currency", currency, spelled(error)) }
            }
            // Without a ledger, a line that gives only its balance counts from zero, as hledger reading the CSV alone.
            let reading = try kit { try source.read(exponent: exponent).settlingAmountsFromBalances(opening: 0, path: statement) }
            var section = Section(
                name: "lines",
                columns: [
                    Column("line", "Line", numeric: true), Column("date", "Date"), Column("amount", "Amount", numeric: true),
                    Column("payee", "Payee"), Column("note", "Note"), Column("counterpart", "Counterpart"),
                    Column("balance", "Balance", numeric: true),
                    Column("rules", "Rules"),
                ])
            let money = { (minor: Int64) in global.hideAmounts ? "***" : Money.format(minor: minor, exponent: exponent, grouping: nil) }
            section.rows = zip(reading.statement.lines, reading.matched).map { line, matched in
                [
                    .int(line.line), .day(line.day), .text(money(line.amountMinor)), .text(line.payee), .text(line.note),
                    .text(line.counterpart ?? ""), line.balanceMinor.map { .text(money($0)) } ?? .none,
                    matched.isEmpty ? .absent("no rule") : .list(matched),
                ]
            }
            var report = Report([section])
            let unmatched = reading.matched.filter(\.isEmpty).count
            report.headline = [
                "\(reading.statement.lines.count.counted("line")) read by \(rules) (\(reading.encoding.rawValue)); \(unmatched) matched no if rule."
            ]
            try global.print(report)
        }
    }
}
