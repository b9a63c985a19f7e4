import CapitalCore
import CapitalOutput

extension StatsReport {
    /// The JSON object of the view: common fields (`by`, `currency`, `from`, `to`, `today`,
    /// `account`, `months`), the view's own, and `leftOut`; the shape docs/cli.md documents.
    var json: JSON {
        var fields: [(String, JSON)] = [
            ("by", .string(view.rawValue)), ("currency", .string(stats.currency.code)), ("from", .string(stats.range.start.iso)),
            ("to", .string(stats.range.end.advanced(by: -1).iso)), ("today", .string(stats.today.iso)),
            ("account", accountName.map(JSON.string) ?? .null),
            ("months", .number(String(stats.months))), ("recordsFrom", stats.recordsFrom.map { .string($0.iso) } ?? .null),
        ]
        func share(_ value: Int64?) -> JSON { value.map { .number(StatsReport.ratio($0)) } ?? .null }
        func breakdown(_ breakdown: CategoryBreakdown) -> JSON {
            .object([
                ("total", plain(breakdown.total)), ("monthlyAverage", plain(breakdown.monthlyAverage)),
                ("transactions", .number(String(breakdown.transactions))),
                (
                    "categories",
                    .array(
                        breakdown.categories.map { row in
                            .object([
                                ("category", .string(row.name)), ("amount", plain(row.amount)), ("share", share(row.share)),
                                ("monthlyAverage", plain(row.monthlyAverage)), ("transactions", .number(String(row.transactions))),
                            ])
                        })
                ),
            ])
        }
        func figures(_ figures: ComparisonFigures) -> [(String, JSON)] {
            [
                ("thisMonth", plain(figures.thisMonth)), ("lastMonth", plain(figures.lastMonth)), ("average", figures.average.map(plain) ?? .null),
                ("changeFromLastMonth", plain(figures.changeFromLastMonth)), ("changeFromAverage", figures.changeFromAverage.map(plain) ?? .null),
            ]
        }
        let totals: [(String, JSON)] = [
            ("income", plain(stats.income.total)), ("expense", plain(stats.expense.total)), ("net", plain(stats.net)),
            ("transactions", .number(String(stats.transactions))),
        ]
        switch view {
        case .category:
            let comparison = stats.comparison
            fields += [
                ("expense", breakdown(stats.expense)), ("income", breakdown(stats.income)), ("net", plain(stats.net)),
                (
                    "comparison",
                    .object([
                        ("month", .string(StatsReport.month(comparison.month))), ("from", .string(comparison.month.iso)),
                        ("through", .string(comparison.through.iso)),
                        ("lastMonth", .string(StatsReport.month(comparison.lastMonth))),
                        (
                            "averageOf",
                            .object([
                                ("months", .number(String(comparison.averagedMonths))),
                                ("from", comparison.averaged.isEmpty ? .null : .string(comparison.averaged.start.iso)),
                                ("to", comparison.averaged.isEmpty ? .null : .string(comparison.averaged.end.advanced(by: -1).iso)),
                            ])
                        ),
                        ("categories", .array(comparison.categories.map { .object([("category", .string($0.name))] + figures($0.figures)) })),
                        ("total", .object(figures(comparison.total))),
                    ])
                ),
            ]
        case .month:
            fields += [
                (
                    "trend",
                    .array(
                        stats.trend.map { flows in
                            .object([
                                ("month", .string(StatsReport.month(flows.month))), ("from", .string(flows.first.iso)),
                                ("to", .string(flows.last.iso)),
                                ("income", plain(flows.income)), ("expense", plain(flows.expense)), ("net", plain(flows.net)),
                                ("transactions", .number(String(flows.transactions))),
                            ])
                        })
                ),
                ("total", .object(totals)),
                (
                    "monthlyAverage",
                    .object([
                        ("income", plain(stats.income.monthlyAverage)), ("expense", plain(stats.expense.monthlyAverage)),
                        ("net", plain(stats.netMonthlyAverage)),
                    ])
                ),
            ]
        case .spender:
            fields += [
                (
                    "spenders",
                    .array(
                        stats.spenders.map { row in
                            .object([
                                ("spender", row.spender.isEmpty ? .null : .string(row.spender)), ("expense", plain(row.expense)),
                                ("share", share(row.expenseShare)),
                                ("income", plain(row.income)), ("net", plain(row.net)), ("transactions", .number(String(row.transactions))),
                            ])
                        })
                ),
                ("total", .object(totals)),
            ]
        }
        fields.append(
            (
                "leftOut",
                .array(
                    stats.leftOut.sorted { $0.key < $1.key }.map {
                        .object([("currency", .string($0.key)), ("postings", .number(String($0.value)))])
                    })
            ))
        return .object(fields)
    }
}
