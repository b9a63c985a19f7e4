import CapitalCore
import CapitalKit

package extension Report {
    /// `due list`: a row per due payment.
    static func dues(_ dues: [Due], today: Day) -> Report {
        var section = Section(name: "dues", columns: dueColumns)
        section.rows = dues.map { dueRow($0, today: today) }
        return Report([section])
    }

    /// `due show`: its row's fields, where it is paid from and filed under, then its payments.
    static func due(_ detail: DueDetail, today: Day) -> Report {
        let due = detail.due
        var fields = Array(zip(dueColumns, dueRow(due, today: today)))
        // Grouped by four in tables, without spaces as data.
        let iban = (try? IBAN(validating: due.iban))
        let ibanCell: Cell = due.iban.isEmpty ? .none : .spelled(iban?.printed ?? due.iban, data: iban?.electronic ?? due.iban)
        fields += [
            (Column("iban", "IBAN"), ibanCell), (Column("address", "Address"), .optional(due.address)),
            (Column("payFrom", "Paid from"), detail.payFrom.map { .text($0.name) } ?? .absent("(the default account)")),
            (Column("category", "Category"), detail.category.map { .text($0.name) } ?? .none),
        ]
        var payments = Section(
            name: "payments",
            columns: [Column("day", "Date"), Column("amount", "Amount", numeric: true), Column("from", "From"), Column("id", "Transaction")])
        payments.rows = detail.payments.map { [.day($0.transaction.day), .money($0.amount), .text($0.from.name), .id($0.transaction.id)] }
        return record("due", fields, parts: [payments])
    }
}

/// The columns of a due payment's row.
package let dueColumns = [
    Column("id", "#"), Column("type", "Type"), Column("reason", "Reason"), Column("dueDay", "Due"), Column("daysLeft", "Days left", numeric: true),
    Column("when", "When", jsonHidden: true), Column("total", "Total", numeric: true), Column("paid", "Paid", numeric: true),
    Column("left", "Left", numeric: true),
    Column("status", "Status"), Column("institution", "Institution"),
]

/// A due payment's row: its number, what and when, the amounts and its status.
package func dueRow(_ due: Due, today: Day) -> [Cell] {
    let money = { (minor: Int64) in Cell.money(Money(minor: minor, currency: due.currency)) }
    return [
        .int(due.number), .text(due.type.rawValue), .text(due.reason), .day(due.dueDay), .int(due.daysLeft(today: today)),
        .text(dueWhen(due, today: today)),
        money(due.total), money(due.paid), money(due.left),
        .spelled(due.status.rawValue, data: due.status.rawValue.replacingOccurrences(of: " ", with: "-")), .optional(due.institution),
    ]
}

/// "in 3 days", "today", "5 days overdue", or "paid".
package func dueWhen(_ due: Due, today: Day) -> String {
    if due.status == .fullyPaid { return "paid" }
    let days = due.daysLeft(today: today)
    switch days {
    case 0: return "due today"
    case 1: return "in 1 day"
    case 2...: return "in \(days) days"
    case -1: return "1 day overdue"
    default: return "\(-days) days overdue"
    }
}
