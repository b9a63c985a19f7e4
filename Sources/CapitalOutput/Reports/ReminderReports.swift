import CapitalCore
import CapitalKit

package extension Report {
    /// `remind`: a row per reminder with how far off it is; a line when there is none.
    static func reminders(_ items: [Reminder], today: Day, days: Int) -> Report {
        var section = Section(
            name: "reminders",
            columns: [
                Column("day", "Due"), Column("daysLeft", "Days left", tableHidden: true), Column("when", "When", jsonHidden: true),
                Column("kind", "Kind"), Column("what", "What"),
                Column("amount", "Amount", numeric: true),
                Column("overdue", "Overdue"),
            ])
        section.rows = items.map { item in
            let days = item.day.number - today.number
            let when = days == 0 ? "today" : days > 0 ? "in \(days) day\(days == 1 ? "" : "s")" : "\(-days) day\(days == -1 ? "" : "s") overdue"
            return [.day(item.day), .int(days), .text(when), .text(item.kind.key), .text(item.what), .money(item.amount), .bool(item.overdue)]
        }
        var report = Report([section])
        if items.isEmpty {
            report.headline = [days == 0 ? "Nothing due today." : "Nothing due in the next \(days) day\(days == 1 ? "" : "s")."]
            report.headlineOnly = true
        }
        return report
    }
}
