import CapitalCore

extension Report {
    /// `rule expand`: the days with their weekdays; in JSON, the rule as read and its days.
    static func ruleDates(_ rule: Rule, _ dates: [Day]) -> Report {
        var section = Section(name: "dates", columns: [Column("date", "Date"), Column("weekday", "Weekday")])
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        section.rows = dates.map { [.day($0), .text(names[$0.weekday.rawValue - 1])] }
        var report = Report([section])
        report.json = .object([("rule", .string(rule.text)), ("dates", .array(dates.map { .string($0.iso) }))])
        return report
    }

    /// The rule as read, its RRULE and its adjustment, above the table.
    static func ruleLine(_ rule: Rule, calendar: WorkingDayCalendar) -> String {
        "\(rule.text)  (\(rule.recurrence.rrule)\(rule.adjustment == .none ? "" : ", \(rule.adjustment.rawValue) on \(calendar.name)"))"
    }
}
