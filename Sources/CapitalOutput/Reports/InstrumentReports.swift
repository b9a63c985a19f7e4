import CapitalCore
import CapitalKit

package extension Report {
    /// `card show`, seen from today or from the day `--on` names (`on`).
    static func card(_ view: CardStatus, on: Day? = nil) -> Report {
        let terms = view.card.terms
        let last = view.lastStatement
        return record(
            "card",
            [
                (Column("id", "ID", tableHidden: true), .id(view.card.id)), (Column("name", "Card"), .text(view.account.name)),
                (Column("debt", "Debt " + seen(on)), view.money(view.debt)),
                (Column("available", "Credit left"), view.money(view.available)), (Column("limit", "Limit"), view.money(terms.limit)),
                (Column("lastStatement", "Last statement"), last.map { .day($0.statement) } ?? .none),
                (Column("statementDebt", "  its balance"), last.map { view.money($0.debt) } ?? .none),
                (Column("dueDay", "Due on"), view.open.map { .day($0.due) } ?? .none),
                (Column("amountDue", "Amount due"), view.money(view.open?.payback ?? 0)), (Column("overdue", "Overdue"), view.money(view.overdue)),
                (Column("overdueSince", "  since"), view.overdueSince.map { .day($0) } ?? .none),
                (Column("nextStatement", "Next statement"), .day(view.nextStatement)),
                (Column("nextDueDay", "  due on"), .day(terms.dueDay(forStatement: view.nextStatement))),
                (Column("nextInterest", "  interest charged"), view.nextCycle.map { view.money($0.interest) } ?? .none),
                // The policy in words for tables; as data (kind, percent, amounts) in JSON.
                (Column("paybackText", "Payback", jsonHidden: true), .text(view.policy)),
                (Column("payback", "Payback", tableHidden: true), .text(paybackKind(terms.payback))),
                (Column("paybackPercent", "Payback percent", tableHidden: true), paybackPercent(terms.payback).map { .rate($0) } ?? .none),
                (Column("paybackAmount", "Payback amount", tableHidden: true), paybackAmount(terms.payback).map { view.money($0) } ?? .none),
                (Column("payFrom", "Paid from"), view.payFrom.map { .text($0.name) } ?? .none),
                (Column("rate", "Rate"), .rate(terms.rate)), (Column("grace", "Grace"), .text(terms.grace.rawValue)),
            ])
    }

    /// A card's payback policy as data: its kind, the minimum's percent, and the minimum's floor or
    /// the fixed amount.
    static func paybackKind(_ payback: CardPayback) -> String {
        switch payback {
        case .full: "full"
        case .minimum: "minimum"
        case .fixed: "fixed"
        }
    }

    static func paybackPercent(_ payback: CardPayback) -> Rate? {
        if case .minimum(let percent, _) = payback { return percent }
        return nil
    }

    static func paybackAmount(_ payback: CardPayback) -> Int64? {
        switch payback {
        case .full: nil
        case .minimum(_, let floor): floor
        case .fixed(let amount): amount
        }
    }

    /// `deposit show`.
    static func deposit(_ view: DepositStatus) -> Report {
        let terms = view.deposit.terms
        let next = view.interest.first
        return record(
            "deposit",
            [
                (Column("id", "ID", tableHidden: true), .id(view.deposit.id)), (Column("name", "Deposit"), .text(view.account.name)),
                (Column("balance", "Balance today"), view.money(view.balance)),
                (Column("rate", "Rate"), .rate(terms.rate)),
                (Column("capitalisation", "Capitalised"), .text(terms.capitalisation.rawValue)),
                (Column("opened", "Opened"), .day(terms.opened)), (Column("maturity", "Matures"), terms.maturity.map { .day($0) } ?? .none),
                (Column("nextInterestDay", "Next interest on"), next.map { .day($0.day) } ?? .none),
                (Column("nextInterest", "Next interest"), next.map { view.money(view.interest(of: $0)) } ?? .none),
                (
                    Column("interestAhead", terms.maturity == nil ? "Interest in 12 months" : "Interest to maturity"),
                    view.money(view.interestAhead)
                ),
                (Column("payout", "Paid out at maturity"), view.payoutAmount.map { view.money($0) } ?? .none),
                (Column("payoutTo", "  into"), view.payoutAccount.map { .text($0.name) } ?? .none),
                (Column("level", "Ladder level"), .int(view.level)),
            ])
    }

    /// `loan show`, with the payments from the day it is seen from on when `schedule`; `on`: the
    /// day `--on` names.
    static func loan(_ detail: LoanDetail, schedule: Bool, on: Day? = nil) -> Report {
        let view = detail.standing
        let terms = view.loan.terms
        var fields: [(Column, Cell)] = [
            (Column("id", "ID", tableHidden: true), .id(view.loan.id)), (Column("name", "Loan"), .text(view.account.name)),
            (Column("payFrom", "Paid from"), .text(detail.payFrom.name)),
            (Column("category", "Interest to"), .text(detail.interestCategory.name)), (Column("principal", "Principal"), view.money(terms.principal)),
            (Column("rate", "Rate"), .rate(terms.rate)), (Column("term", "Term (months)"), .int(terms.term)),
            (Column("method", "Method"), .text(terms.method.rawValue)), (Column("dayCount", "Day count"), .text(terms.dayCount.rawValue)),
            (Column("start", "Start"), .day(terms.start)), (Column("payment", "Payment"), view.money(view.schedule.payment)),
            (Column("balance", "Balance " + seen(on)), view.money(view.status.balance)),
            (Column("owed", "Owed, paid short"), view.status.owedSince == nil ? .none : view.money(view.status.owed)),
            (Column("owedSince", "  overdue since"), view.status.owedSince.map { .day($0) } ?? .none),
            (Column("nextDay", "Next payment on"), view.status.next.map { .day($0.day) } ?? .none),
            (Column("nextPayment", "Next payment"), view.status.next.map { view.money($0.payment) } ?? .none),
            (Column("nextInterest", "  of it interest"), view.status.next.map { view.money($0.interest) } ?? .none),
            (Column("nextPrincipal", "  of it principal"), view.status.next.map { view.money($0.principal) } ?? .none),
            (Column("paymentsLeft", "Payments left"), .int(view.status.paymentsLeft)), (Column("payoff", "Paid off on"), .day(view.status.payoff)),
            (Column("interestLeft", "Interest left"), view.money(view.status.interestLeft)),
            (Column("totalInterest", "Total interest"), view.money(view.schedule.totalInterest)),
        ]
        if let collateral = detail.collateral, let equity = detail.equity {
            fields += [
                (Column("collateral", "Collateral"), .text(collateral.account.name)),
                (Column("collateralValue", "Collateral value " + seen(on)), view.money(collateral.value)),
                (Column("equity", "Collateral minus debt"), view.money(equity)),
            ]
        }
        var report = record("loan", fields)
        guard schedule else { return report }
        var rows = view.schedule
        rows.rows = rows.rows.filter { $0.day >= view.today }
        let table = loanSchedule(rows, currency: view.account.currency)
        report.sections += table.sections
        if case .object(let extra) = table.json ?? .null {
            report.json = .object(fields.map { ($0.0.key, jsonValue($0.1)) } + extra.filter { $0.0 == "rows" })
        }
        return report
    }

    /// `loan schedule`'s line above the table: the loan's terms, its payment, interest and payoff.
    static func loanHeadline(_ loan: Loan, _ plan: LoanPlan, currency: Currency, _ options: RenderOptions) -> String {
        let shown = { (minor: Int64) in options.shown(Money(minor: minor, currency: currency)) }
        return
            "\(loan.method == .annuity ? "Annuity" : "Linear") loan of \(shown(loan.principal)) \(currency.code) at \(loan.rate) over \(loan.term) months "
            + "from \(loan.start), \(loan.dayCount.rawValue): payment \(shown(plan.schedule.payment)), total interest \(shown(plan.schedule.totalInterest)), "
            + "paid off \(plan.schedule.payoff)" + (plan.interestSaved.map { ", interest saved \(shown($0))" } ?? "")
    }

    /// `loan prepay`'s line: the new payoff and payment against the old, and the interest saved.
    static func prepaymentHeadline(_ outcome: PrepaymentOutcome, dryRun: Bool, _ options: RenderOptions) -> String {
        let money = { (minor: Int64) in options.shown(Money(minor: minor, currency: outcome.after.account.currency)) }
        return
            "\(dryRun ? "Would prepay" : "Prepaid") '\(outcome.after.account.name)': paid off \(outcome.after.schedule.payoff) (was \(outcome.before.schedule.payoff)), "
            + "payment \(money(outcome.paymentAfter)) (was \(money(outcome.before.schedule.payment))), interest saved \(money(outcome.interestSaved))"
            + (dryRun ? " (a dry run: nothing was written)." : ".")
    }

    /// A loan's schedule as a report: a row per payment and prepayment.
    static func loanSchedule(_ schedule: LoanSchedule, currency: Currency, extra: [(String, JSON)] = []) -> Report {
        func money(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: currency)) }
        var section = Section(
            name: "rows",
            columns: [
                Column("n", "N", numeric: true), Column("day", "Day"), Column("payment", "Payment", numeric: true),
                Column("interest", "Interest", numeric: true),
                Column("principal", "Principal", numeric: true), Column("balance", "Balance", numeric: true), Column("kind", "Kind"),
            ])
        section.rows = schedule.rows.map { row in
            [
                row.kind == .payment ? .int(row.n) : .none, .day(row.day), money(row.payment), money(row.interest), money(row.principal),
                money(row.balance),
                .text(row.kind == .payment ? "" : row.balance == 0 ? "payoff" : "prepayment"),
            ]
        }
        var report = Report([section])
        report.json = .object(
            [
                ("currency", .string(currency.code)), ("payment", Report.jsonValue(money(schedule.payment))),
                ("totalInterest", Report.jsonValue(money(schedule.totalInterest))), ("payoff", .string(schedule.payoff.iso)),
            ] + extra + [
                (
                    "rows",
                    .array(
                        schedule.rows.map { row in
                            .object([
                                ("n", row.kind == .payment ? .number(String(row.n)) : .null), ("kind", .string(row.kind.rawValue)),
                                ("day", .string(row.day.iso)),
                                ("payment", Report.jsonValue(money(row.payment))), ("interest", Report.jsonValue(money(row.interest))),
                                ("principal", Report.jsonValue(money(row.principal))), ("balance", Report.jsonValue(money(row.balance))),
                            ])
                        })
                )
            ])
        return report
    }
}

/// "today", or "on 2025-02-01" for a screen seen from the day `--on` names.
package func seen(_ on: Day?) -> String { on.map { "on \($0)" } ?? "today" }

package extension LoanStanding {
    func money(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: account.currency)) }
}

package extension CardStatus {
    func money(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: account.currency)) }

    /// The payback policy in words.
    var policy: String {
        switch card.terms.payback {
        case .full: return "full statement balance"
        case .minimum(let percent, let floor):
            return "minimum \(percent) (at least \(Money(minor: floor, currency: account.currency).formatted()))"
        case .fixed(let amount): return "fixed \(Money(minor: amount, currency: account.currency).formatted())"
        }
    }
}

package extension DepositStatus {
    func money(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: account.currency)) }
}
