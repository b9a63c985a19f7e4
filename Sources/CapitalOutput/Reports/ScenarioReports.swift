import CapitalCore
import CapitalKit

package extension ScenarioBasis {
    /// "level 4", "account 'VTB Debit'", or for a card "card 'Tinkoff Card' (then level 4 from its payback)".
    var pool: String {
        if card != nil, case .account(_, let name) = paidFrom.kind { return "card '\(name)' (then level \(Ladder.defaultLevel) from its payback)" }
        if case .account(_, let name) = paidFrom.kind { return "account '\(name)'" }
        return "level \(paidFrom.level ?? Ladder.defaultLevel)"
    }

    func money(_ minor: Int64) -> Money { projection.money(minor) }

    /// A result's fields: the columns of every output format.
    func cells(_ result: ScenarioResult, earliest: Bool) -> [(Column, Cell)] {
        var cells: [(Column, Cell)] = [
            (Column("feasible", "Feasible"), .bool(result.feasible)),
            (Column("worstBalance", "Lowest balance", numeric: true), .money(money(worstBalance(result)))),
            (Column("worstDay", "Lowest on"), .day(result.worstDay)),
            (Column("shortfall", "Shortfall", numeric: true), .money(money(result.shortfall))),
            (Column("maxPrice", "Max price", numeric: true), .money(money(result.maxPrice))),
        ]
        if earliest { cells.append((Column("earliestDay", "Earliest"), result.earliestDay.map { .day($0) } ?? .text("none"))) }
        cells += [
            (Column("loanInterest", "Interest", numeric: true), .money(money(result.loanInterest))),
            (Column("recurringCosts", "Recurring", numeric: true), .money(money(result.recurringCosts))),
            (Column("totalCost", "Total cost", numeric: true), .money(money(result.totalCost))),
            (Column("onCards", "On cards", numeric: true), .money(money(result.onCardsTotal))),
        ]
        return cells
    }
}

package extension ScenarioBasis {
    /// `scenario try`: yes or no in words, then the result's fields (and with `why`, what drives
    /// the balance down to its lowest day).
    func report(_ scenario: Scenario, _ result: ScenarioResult, earliest: Bool, why: Bool, _ options: RenderOptions) -> Report {
        var cells = self.cells(result, earliest: earliest)
        var whyText: String?
        var drivers: [FlowEvent] = []
        if why {
            (whyText, drivers) = explain(scenario, result, options)
            cells.append((Column("why", "Why"), .text(whyText!)))
        }
        var report = Report.record("scenario", cells)
        let payments = payments(scenario, result)
        if why || !payments.isEmpty {
            var object = cells.map { ($0.0.key, Report.jsonValue($0.1)) }
            if !payments.isEmpty {
                object.append(
                    (
                        "split",
                        .array(
                            payments.map { payment in
                                .object([
                                    ("account", .string(payment.account)), ("amount", .string(money(payment.amount).plain)),
                                    ("kind", .string(payment.isCard ? "card" : "pool")),
                                    ("payback", payment.payback.map { .string($0.iso) } ?? .null),
                                ])
                            })
                    ))
            }
            if why { object.append(("drivers", .array(drivers.map { Report.json($0, self.money) }))) }
            report.json = .object(object)
        }
        let shown = { (minor: Int64) in options.shown(self.money(minor)) }
        let paid = payments.map { "\(shown($0.amount)) \($0.isCard ? "on" : "from") \($0.account)" }.joined(separator: ", ")
        let upfront = scenario.financing == .cash ? "Pay with" : "Pay the down payment with"
        report.headline =
            [
                result.feasible
                    ? "Yes: \(shown(scenario.price)) on \(scenario.day) keeps \(pool) at or above its floor to \(evaluator.horizon)."
                    : "No: \(shown(scenario.price)) on \(scenario.day) takes \(pool) \(shown(result.shortfall)) below its floor on \(result.worstDay)."
            ] + (payments.isEmpty || !result.feasible ? [] : ["\(upfront): \(paid)."])
        return report
    }

    /// The lowest day, the largest outflows from the purchase to it (the plan's own and the
    /// forecast's), and the next inflow after it.
    private func explain(_ scenario: Scenario, _ result: ScenarioResult, _ options: RenderOptions) -> (String, [FlowEvent]) {
        let money = { (minor: Int64) in options.shown(self.money(minor)) }
        let why = why(scenario, result)
        let monthDay = Report.dayNames(from: scenario.day, why.drivers.map(\.day) + [why.relief?.day].compactMap { $0 })
        var text = "lowest on \(result.worstDay) (balance \(money(worstBalance(result)))"
        if floor != 0 { text += ", floor \(money(floor))" }
        text += ")"
        text += ": " + why.drivers.map { "\($0.label) \(money(-$0.amount)) on \(monthDay($0.day))" }.joined(separator: ", ")
        if result.loanInterest > 0 || scenario.financing != .cash { text += ", and the plan's payments to then" }
        if let relief = why.relief {
            text += "; \(relief.label) \(money(relief.amount)) on \(monthDay(relief.day)) lifts it"
        }
        return (text, why.drivers)
    }
}
