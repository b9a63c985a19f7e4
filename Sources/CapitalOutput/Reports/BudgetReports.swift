import CapitalCore
import CapitalKit

package extension Report {
    /// Where each budget stands: its period, limit, spent, left, projected spend and state.
    static func budgets(_ lines: [BudgetLine]) -> Report {
        var section = Section(
            name: "budgets",
            columns: [
                Column("category", "Category"), Column("from", "Period from"), Column("to", "to"), Column("limit", "Limit", numeric: true),
                Column("spent", "Spent", numeric: true), Column("left", "Left", numeric: true), Column("projected", "Projected", numeric: true),
                Column("state", "State"),
            ])
        for line in lines {
            let status = line.status
            let money = { (minor: Int64) in Cell.money(Money(minor: minor, currency: line.category.currency)) }
            let state = status.isOver ? "over" : status.willBeOver ? "over at this pace" : "under"
            section.rows.append([
                .label(Label(line.category)), .day(line.period.start), .day(line.period.end.advanced(by: -1)), money(status.limit),
                money(status.spent), money(status.left), money(status.projected), .text(state),
            ])
        }
        return Report([section])
    }
}
