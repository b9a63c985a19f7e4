import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Capital {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Spending and income by category, month or spender, with shares, averages and this month against the last.",
            discussion: HelpExamples.laidOut(
                """
                Sums the recorded transactions' category postings: spending is what went to expense categories \
                (refunds reduce it), income what came from income categories. Transfers between your own accounts \
                count nowhere. Hidden categories count.
                Defaults: --to today, --from the first day of the month 11 months before --to's (12 calendar months); \
                --by category.
                Shares are of their kind's total, rounded half up to 0.01 %; monthly averages divide by the calendar \
                months the range touches (a partial first or last month counts as one), rounded half up to a minor unit.
                --by category also compares each expense category this month (from the 1st to --today) with last \
                month and with the average of the range's full months before this one.
                Amounts are in the ledger's currency: a category posting in another currency counts at its \
                transaction day's rate; one before its currency's first rate is left out and counted in a note (and \
                under "leftOut" in JSON). --chart draws bars above the table (table format only).
                --revaluation shows instead, per month and account in another currency, its balance valued at the \
                month's start and end, what flowed, and the gain or loss from rate changes.
                Examples:
                  capital stats --chart
                  capital -f samples/household.yaml stats --from 2025-01 --to 2025-03
                  capital stats --by month --account "VTB Debit" --format json
                  capital stats --from -1y
                  capital stats --by spender --format csv
                  capital stats --revaluation --from 2025-01
                """))

        @OptionGroup var global: GlobalOptions
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "First day (YYYY-MM-DD, YYYY-MM for its first day, or -1y, -6m, -2w, -30d from today); default the 1st of the month 11 months before --to's.",
                valueName: "date"))
        var from: String?
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Last day (YYYY-MM-DD, YYYY-MM for its last day, or -1m … from today); default today.", valueName: "date"))
        var to: String?
        @Option(help: ArgumentHelp("Only transactions with a posting to this account.", valueName: "account"), completion: .accountNames) var account:
            String?
        @Option(help: ArgumentHelp("category, month or spender.", valueName: "view"), completion: .list(["category", "month", "spender"])) var by:
            String?
        @Flag(help: "Draw bar charts above the table.") var chart = false
        @Flag(help: "Gains and losses from rate changes, per month and account in another currency.") var revaluation = false

        func run() throws {
            guard let view = StatsView(rawValue: by ?? "category") else {
                throw CLIError.invalid("--by", by ?? "", "expected category, month or spender")
            }
            if revaluation, let by { throw CLIError.invalid("--by", by, "give --by or --revaluation, not both") }
            if revaluation, chart { throw CLIError("--chart: --revaluation has no chart", exitCode: 64) }
            let format = try global.outputFormat()
            let today = try global.todayDay()
            let range = try kit { try StatisticsRequest(from: from, to: to).range(today: today) }
            let store = try global.ledgerStore(writing: false)
            let filter = try account.map { try accountOption($0, store) }
            if revaluation {
                let ledger = try store.snapshot(asOf: [range.start.advanced(by: -1), today])
                let rows = try kit { try ledger.revaluation(range) }.filter { filter == nil || $0.account.id == filter?.id }
                return try global.print(Report.revaluation(rows, ledger.currency, range: range, global))
            }
            let ledger = try store.snapshot(asOf: [range.start, today])
            let stats = try kit { try ledger.statistics(range, today: today, accountID: filter?.id) }
            var report = StatsReport(stats: stats, view: view, accountName: filter?.name)
            report.labels = AccountLabels(ledger.accounts)
            var output = report.report(forTable: format == .table)
            output.headline = [report.heading] + (report.leftOutNote.map { [$0] } ?? []) + [""]
            if chart, format == .table {
                let console = Console.current
                output.headline.append(report.chart(width: max(40, console.width - 2), hideAmounts: global.hideAmounts, color: console.color))
            }
            if view == .category { output.footer = ["\nNet (income − spending): \(global.shown(Money(minor: stats.net, currency: stats.currency)))"] }
            try global.print(output)
        }
    }
}

/// `--account NAME` looked up, a miss reported as the option's error.
private func accountOption(_ reference: String, _ store: Store) throws -> Account {
    let result = Result { () throws(StoreError) -> Account in try store.account(reference) }
    switch result {
    case .success(let account):
        return account
    case .failure(.notFound(_, _, let hint)):
        throw CLIError.invalid("--account", reference, "no such account" + (hint.map { "; " + Flags.remedy($0) } ?? ""))
    case .failure(.ambiguous(_, _, let candidates)):
        throw CLIError.invalid("--account", reference, "matches several accounts: \(candidates.joined(separator: ", "))")
    case .failure(let error):
        throw error
    }
}

extension Report {
    /// `stats --revaluation`: a row per month and account in another currency.
    static func revaluation(_ rows: [RevaluationRow], _ ledger: Currency, range: DayRange, _ global: GlobalOptions) -> Report {
        var section = Section(
            name: "revaluation",
            columns: [
                Column("start", "From"), Column("end", "To"), Column("account", "Account"), Column("currency", "Cur"),
                Column("opening", "Opening", numeric: true), Column("closing", "Closing", numeric: true),
                Column("openingValue", "Opening \(ledger.code)", numeric: true), Column("flows", "Flows \(ledger.code)", numeric: true),
                Column("closingValue", "Closing \(ledger.code)", numeric: true), Column("revaluation", "Gain/loss", numeric: true),
            ])
        section.rows = rows.map { row in
            let native = { (minor: Int64) in Cell.money(Money(minor: minor, currency: row.currency)) }
            let valued = { (minor: Int64) in Cell.money(Money(minor: minor, currency: ledger)) }
            return [
                .day(row.start), .day(row.end), .label(Label(row.account)), .text(row.currency.code), native(row.opening), native(row.closing),
                valued(row.openingValue), valued(row.flows), valued(row.closingValue), valued(row.revaluation),
            ]
        }
        var report = Report([section])
        let total = rows.reduce(Int64(0)) { saturatingSum($0, $1.revaluation) }
        report.headline = ["Gains and losses from rate changes, \(range.start) to \(range.end.advanced(by: -1)), in \(ledger.code)"]
        report.footer = ["\nTotal: \(global.shown(Money(minor: total, currency: ledger)))"]
        return report
    }
}
