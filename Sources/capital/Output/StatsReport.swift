import CapitalCore
import CapitalOutput

/// How `stats` groups its figures.
enum StatsView: String, CaseIterable {
    case category, month, spender
}

/// `stats` output: the sections of a table or CSV and the JSON object of one view of `Statistics`.
///
/// Tables add total (and average) rows and show shares as percentages; CSV has the same rows
/// without totals and shares as ratios (`0.2345`); JSON has one object per view, documented in
/// docs/cli.md.
struct StatsReport {
    let stats: Statistics
    let view: StatsView
    /// The name of the account transactions were filtered by.
    let accountName: String?
    /// Categories' icons and colours, for tables and charts.
    var labels = AccountLabels([])

    func money(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: stats.currency)) }
    func plain(_ minor: Int64) -> JSON { .string(Money(minor: minor, currency: stats.currency).plain) }

    /// The first line above a table: what is summarised.
    var heading: String {
        let months = stats.months == 1 ? "1 month" : "\(stats.months) months"
        let averaged = stats.recordsFrom.map { "averaged over \(months): records start in \($0.iso.prefix(7))" } ?? months
        var text = "Statistics \(stats.range.start) to \(stats.range.end.advanced(by: -1)) (\(averaged)), \(stats.currency.code)"
        if let accountName { text += ", transactions with account \(accountName)" }
        return text
    }

    /// A line on category postings left out for their currency, or nil.
    var leftOutNote: String? {
        guard !stats.leftOut.isEmpty else { return nil }
        let parts = stats.leftOut.sorted { $0.key < $1.key }.map { "\($0.value) posting\($0.value == 1 ? "" : "s") in \($0.key)" }
        return "Left out: \(parts.joined(separator: ", ")) with no rate on their day (statistics are in \(stats.currency.code); see capital rate)"
    }

    func report(forTable table: Bool) -> Report {
        var report: Report
        switch view {
        case .category:
            var sections = [categorySection(stats.expense, name: "spending", title: "Spending", table: table)]
            sections.append(categorySection(stats.income, name: "income", title: "Income", table: table))
            sections.append(comparisonSection(table: table))
            report = Report(sections, keyed: true)
        case .month: report = Report([monthSection(table: table)])
        case .spender: report = Report([spenderSection(table: table)])
        }
        report.json = json
        return report
    }

    // MARK: Sections

    func shareCell(_ share: Int64?, table: Bool) -> Cell {
        guard let share else { return .none }
        return .text(table ? StatsReport.percent(share) : StatsReport.ratio(share))
    }

    func categorySection(_ breakdown: CategoryBreakdown, name: String, title: String, table: Bool) -> Section {
        var section = Section(
            name: name, title: table ? title : nil,
            columns: [
                Column("category", "Category"), Column("amount", "Amount", numeric: true), Column("share", "Share", numeric: true),
                Column("monthlyAverage", "Monthly average", numeric: true), Column("transactions", "Transactions", numeric: true),
            ])
        for row in breakdown.categories {
            section.rows.append([
                .label(labels[row.accountID]), money(row.amount), shareCell(row.share, table: table), money(row.monthlyAverage),
                .int(row.transactions),
            ])
        }
        if table && !breakdown.categories.isEmpty {
            section.rows.append([
                .text("Total"), money(breakdown.total), shareCell(breakdown.total == 0 ? nil : BasisPoints.whole, table: true),
                money(breakdown.monthlyAverage),
                .int(breakdown.transactions),
            ])
        }
        return section
    }

    func comparisonSection(table: Bool) -> Section {
        let comparison = stats.comparison
        let average =
            comparison.averagedMonths == 0
            ? "no full month in the range before it"
            : "the average of \(comparison.averagedMonths) full month\(comparison.averagedMonths == 1 ? "" : "s") "
                + "(\(StatsReport.month(comparison.averaged.start))"
                + (comparison.averagedMonths == 1 ? ")" : " to \(StatsReport.month(comparison.averaged.end.advanced(by: -1))))")
        var section = Section(
            name: "comparison",
            title: table
                ? "Spending this month (\(comparison.month) to \(comparison.through)) against last month (\(StatsReport.month(comparison.lastMonth))) and \(average)"
                : nil,
            columns: [
                Column("category", "Category"), Column("thisMonth", "This month", numeric: true), Column("lastMonth", "Last month", numeric: true),
                Column("average", "Average", numeric: true), Column("changeFromLastMonth", "vs last month", numeric: true),
                Column("changeFromAverage", "vs average", numeric: true),
            ])
        func cells(_ figures: ComparisonFigures) -> [Cell] {
            [
                money(figures.thisMonth), money(figures.lastMonth), figures.average.map(money) ?? .none, money(figures.changeFromLastMonth),
                figures.changeFromAverage.map(money) ?? .none,
            ]
        }
        for row in comparison.categories { section.rows.append([.label(labels[row.accountID])] + cells(row.figures)) }
        if table && !comparison.categories.isEmpty { section.rows.append([.text("Total")] + cells(comparison.total)) }
        return section
    }

    func monthSection(table: Bool) -> Section {
        var columns = [Column("month", "Month")]
        if !table { columns += [Column("from", "From"), Column("to", "To")] }
        columns += [
            Column("income", "Income", numeric: true), Column("expense", "Spending", numeric: true), Column("net", "Net", numeric: true),
            Column("transactions", "Transactions", numeric: true),
        ]
        var section = Section(name: "months", columns: columns)
        for flows in stats.trend {
            var row: [Cell] = [.text(StatsReport.month(flows.month))]
            if !table { row += [.day(flows.first), .day(flows.last)] }
            section.rows.append(row + [money(flows.income), money(flows.expense), money(flows.net), .int(flows.transactions)])
        }
        if table && !stats.trend.isEmpty {
            section.rows.append([.text("Total"), money(stats.income.total), money(stats.expense.total), money(stats.net), .int(stats.transactions)])
            section.rows.append([
                .text("Average"), money(stats.income.monthlyAverage), money(stats.expense.monthlyAverage), money(stats.netMonthlyAverage), .none,
            ])
        }
        return section
    }

    func spenderSection(table: Bool) -> Section {
        var section = Section(
            name: "spenders",
            columns: [
                Column("spender", "Spender"), Column("expense", "Spending", numeric: true), Column("share", "Share", numeric: true),
                Column("income", "Income", numeric: true), Column("net", "Net", numeric: true), Column("transactions", "Transactions", numeric: true),
            ])
        for row in stats.spenders {
            section.rows.append([
                .text(row.spender.isEmpty ? "(none)" : row.spender), money(row.expense), shareCell(row.expenseShare, table: table), money(row.income),
                money(row.net), .int(row.transactions),
            ])
        }
        if table && !stats.spenders.isEmpty {
            section.rows.append([
                .text("Total"), money(stats.expense.total), shareCell(stats.expense.total == 0 ? nil : BasisPoints.whole, table: true),
                money(stats.income.total),
                money(stats.net), .int(stats.transactions),
            ])
        }
        return section
    }

    // MARK: Charts

    /// Bar charts of the view, for `--chart` above the table.
    func chart(width: Int, hideAmounts: Bool, color: Bool) -> String {
        let format: (Int64) -> String = { RenderOptions(hideAmounts: hideAmounts).shown(Money(minor: $0, currency: self.stats.currency)) }
        func bars(_ rows: [(label: String, value: Int64)]) -> String { renderBars(rows, width: width, format: format, color: color) }
        switch view {
        case .category:
            return "Spending by category\n" + bars(stats.expense.categories.map { (labels[$0.accountID].plain, $0.amount) })
                + "\nIncome by category\n"
                + bars(stats.income.categories.map { (labels[$0.accountID].plain, $0.amount) })
        case .month:
            var rows: [(label: String, value: Int64)] = []
            for flows in stats.trend {
                rows.append((StatsReport.month(flows.month) + " income", flows.income))
                rows.append(("        spending", flows.expense))
            }
            return "Income and spending by month\n" + bars(rows)
        case .spender:
            return "Spending by spender\n" + bars(stats.spenders.map { ($0.spender.isEmpty ? "(none)" : $0.spender, $0.expense) })
        }
    }

    // MARK: Formatting

    /// `YYYY-MM` of a day.
    static func month(_ day: Day) -> String { String(day.iso.prefix(7)) }

    /// Basis points as a percentage with two decimals: 2345 → `23.45 %`.
    static func percent(_ basisPoints: Int64) -> String {
        let magnitude = basisPoints.magnitude
        let hundredths = magnitude % 100
        return (basisPoints < 0 ? "-" : "") + "\(magnitude / 100).\(hundredths < 10 ? "0" : "")\(hundredths) %"
    }

    /// Basis points as a ratio with four decimals: 2345 → `0.2345`, 10 000 → `1.0000`.
    static func ratio(_ basisPoints: Int64) -> String {
        let magnitude = basisPoints.magnitude
        let fraction = String(magnitude % 10_000)
        return (basisPoints < 0 ? "-" : "") + "\(magnitude / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
