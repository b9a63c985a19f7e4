import CapitalCore
import CapitalKit

extension ReportPage {
    func loansAndCards() -> String {
        var out = ""
        if !overview.loans.isEmpty {
            let rows = overview.loans.map { standing -> [String] in
                let status = standing.status
                let next = status.next.map { moneyCell($0.payment) + " on " + day($0.day.iso) } ?? "none"
                return [
                    HTML.escape(standing.account.name), moneyCell(status.balance), next, day(status.payoff.iso), moneyCell(status.interestLeft),
                    sparkline(standing.account.id, name: standing.account.name, owed: true),
                ]
            }
            out += HTML.element("h3", [], "Loans")
            out += table(
                ["Loan", "Owed", "Next payment", "Paid off", "Interest left", "Owed to \(horizon.iso)"], numeric: [1, 4], optional: [4], rows,
                id: "loans-table")
        }
        if !overview.cards.isEmpty {
            let rows = overview.cards.map { card -> [String] in
                let due = card.open ?? card.nextCycle
                let next = due.map { moneyCell($0.payback) + " on " + day($0.due.iso) } ?? "none"
                let late = card.late.map { _ in " (overdue " + moneyCell(card.overdue) + ")" } ?? ""
                return [
                    HTML.escape(card.account.name), moneyCell(card.debt), moneyCell(card.available), next + late,
                    sparkline(card.account.id, name: card.account.name, owed: true),
                ]
            }
            out += HTML.element("h3", [], "Credit cards")
            out += table(
                ["Card", "Owed", "Available", "Next payback", "Owed to \(horizon.iso)"], numeric: [1, 2], optional: [2], rows, id: "cards-table")
        }
        if out.isEmpty { out = HTML.element("p", [("class", "empty")], "No loans and no credit cards.") }
        return section("debts", "Loans and cards", out)
    }

    func depositsAndAssets() -> String {
        var out = ""
        if !overview.deposits.isEmpty {
            let rows = overview.deposits.map { deposit -> [String] in
                [
                    HTML.escape(deposit.account.name), moneyCell(deposit.balance), deposit.deposit.terms.maturity.map { day($0.iso) } ?? "open-ended",
                    moneyCell(deposit.interestAhead), deposit.payoutAccount.map { HTML.escape($0.name) } ?? "stays in the deposit",
                    sparkline(deposit.account.id, name: deposit.account.name),
                ]
            }
            out += HTML.element("h3", [], "Deposits")
            out += table(
                ["Deposit", "Balance", "Matures", "Interest ahead", "Pays out to", "Balance to \(horizon.iso)"], numeric: [1, 3], optional: [3, 4],
                rows,
                id: "deposits-table")
        }
        if !overview.assets.isEmpty {
            let rows = overview.assets.map { asset -> [String] in
                let series = overview.accountSeries[asset.id] ?? []
                return [
                    HTML.escape(asset.name), moneyCell(series.first ?? 0, currency: asset.currency),
                    moneyCell(series.last ?? 0, currency: asset.currency),
                    sparkline(asset.id, name: asset.name),
                ]
            }
            out += HTML.element("h3", [], "Assets")
            out += table(["Asset", "Value today", "At \(horizon.iso)", "Value to \(horizon.iso)"], numeric: [1, 2], rows, id: "assets-table")
        }
        if out.isEmpty { out = HTML.element("p", [("class", "empty")], "No deposits and no assets that change value.") }
        return section("savings", "Deposits and assets", out)
    }

    func scenarios(_ outcomes: [ScenarioOutcome]) -> String {
        let results = outcomes.compactMap(\.value)
        let floor = overview.pool.floor
        let balances = results.map { $0.worstBalance(above: floor) }
        let low = min(balances.min() ?? 0, floor)
        let high = max(balances.max() ?? 0, floor, 1)
        var rows: [[String]] = []
        var classes: [String?] = []
        for (rank, outcome) in outcomes.enumerated() {
            guard let result = outcome.value else { continue }
            let price: Int64 = (try? outcome.row.scenario.get().price) ?? 0
            let worst = result.worstBalance(above: floor)
            rows.append([
                String(rank + 1), HTML.escape(outcome.row.name), moneyCell(price), result.feasible ? "yes" : "no", moneyCell(worst),
                lowestBar(worst, floor: floor, low: low, high: high), day(result.worstDay.iso), moneyCell(result.maxPrice),
                moneyCell(result.totalCost),
            ])
            classes.append(result.feasible ? nil : "overdue")
        }
        let body =
            HTML.element(
                "p", [("class", "note")], "Safest first: ranked by the lowest balance each purchase leaves (as scenario eval --sort worst-balance).")
            + table(
                ["#", "Purchase", "Price", "Feasible", "Lowest balance", "Lowest against the floor", "Lowest on", "Max price", "Total cost"],
                numeric: [2, 4, 7, 8], optional: [3, 6, 8], rows, rowClasses: classes, id: "scenarios-table")
        return section("scenarios", "Purchases, ranked", body)
    }

    /// A small chart of an account's balance to the horizon, with its first and last values in
    /// its title; `owed` draws a debt as what is owed (falling as it is paid).
    func sparkline(_ accountID: String, name: String, owed: Bool = false) -> String {
        guard var series = overview.accountSeries[accountID], !series.isEmpty else { return "" }
        if owed { series = series.map { $0 == .min ? .max : -$0 } }
        let width = 120
        let height = 30
        let columns = SeriesSampler.columns(series, width: width)
        let low = columns.map(\.low).min() ?? 0
        let high = columns.map(\.high).max() ?? 0
        let scale = ChartScale(
            left: 1, top: 2, width: Double(width - 2), height: Double(height - 4), low: low, high: high, lastOffset: series.count - 1, unit: 1)
        let points = SeriesSampler.points(columns).map { SVGNumber.text(scale.x($0.offset)) + "," + SVGNumber.text(scale.y($0.value)) }
        let title = "\(name)\(owed ? " owes" : ""): \(amounts.text(series.first ?? 0)) today, \(amounts.text(series.last ?? 0)) on \(horizon.iso)"
        return "<svg class=\"spark\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(HTML.escape(title))\">"
            + HTML.element("title", [], HTML.escape(title)) + HTML.empty("polyline", [("points", points.joined(separator: " "))]) + "</svg>"
    }

    /// A bar of a purchase's lowest balance between the lowest and highest of all, with the floor marked.
    func lowestBar(_ worst: Int64, floor: Int64, low: Int64, high: Int64) -> String {
        let span = Double(high) - Double(low)
        let share = span > 0 ? (Double(worst) - Double(low)) / span : 1
        let floorAt = span > 0 ? (Double(floor) - Double(low)) / span : 0
        let label = "lowest balance \(amounts.text(worst)) against the floor \(amounts.text(floor))"
        return "<div class=\"bar\" role=\"img\" aria-label=\"\(HTML.escape(label))\">"
            + HTML.element("span", [("class", worst < floor ? "over" : nil), ("style", "width:\(SVGNumber.text(max(0.02, share) * 100))%")], "")
            + HTML.element("i", [("style", "left:\(SVGNumber.text(floorAt * 100))%")], "") + "</div>"
    }
}

extension BalanceChart {
    /// The chart of a forecast: its daily balance, its months' lowest days, its pool's floor, and
    /// the day an availability answer binds on (else the forecast's lowest day).
    static func of(
        _ forecast: ForecastReport, today: Day, band: (low: [Int64], high: [Int64])? = nil, binding answer: Availability.Answer? = nil,
        landmarks: [FlowEvent] = [], amounts: Amounts
    ) -> BalanceChart {
        let lowest = forecast.minimumIndex
        let binding: (day: Day, balance: Int64) =
            answer.map { ($0.bindingDay, $0.bindingBalance) } ?? (
                today.advanced(by: lowest), forecast.balances.isEmpty ? 0 : forecast.balances[lowest]
            )
        let last = today.advanced(by: max(0, forecast.balances.count - 1))
        let title = forecast.pool.title
        var summary: String = String(title.prefix(1)).uppercased() + String(title.dropFirst())
        summary += " from \(today.iso) to \(last.iso): "
        summary += "lowest \(amounts.text(binding.balance)) on \(binding.day.iso)"
        if forecast.pool.floor != 0 || forecast.pool.level != nil { summary += ", floor \(amounts.text(forecast.pool.floor))" }
        summary += "; \(amounts.text(forecast.balances.first ?? 0)) today, \(amounts.text(forecast.balances.last ?? 0)) at the end."
        return BalanceChart(
            today: today, balances: forecast.balances, band: band, floor: forecast.pool.floor, binding: binding,
            monthLows: forecast.periods.map { ($0.minimumDay, $0.minimum) }, landmarks: landmarks, amounts: amounts,
            title: "Balance of \(forecast.pool.title), \(today.iso) to \(last.iso)", summary: summary)
    }
}

/// The balance chart of a forecast alone, as an SVG file, for embedding.
public enum ForecastChart {
    /// `forecast`'s chart in the light theme, with its floor, its months' lowest days and its lowest day marked.
    public static func svg(_ forecast: ForecastReport, today: Day, currency: Currency, hideAmounts: Bool) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + BalanceChart.of(forecast, today: today, amounts: Amounts(currency: currency, hidden: hideAmounts)).svg(standalone: true) + "\n"
    }
}
