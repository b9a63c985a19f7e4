import CapitalCore
import CapitalKit
import CapitalStore

package extension Report {
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
        "\(rule.text)  (\(rule.rrule)\(rule.adjustment == .none ? "" : ", \(rule.adjustment.rawValue) on \(calendar.name)"))"
    }
}

package extension Report {
    /// `schedule list`: a row per schedule with its next day and monthly equivalent.
    static func schedules(_ listing: (ledger: Ledger, schedules: [ScheduleSummary])) -> Report {
        let labels = AccountLabels(listing.ledger.accounts)
        var section = Section(
            name: "schedules",
            columns: [
                Column("id", "ID"), Column("name", "Name"), Column("rule", "Rule"), Column("next", "Next"), Column("amount", "Amount", numeric: true),
                Column("monthly", "Monthly", numeric: true), Column("currency", "Cur"), Column("from", "From"), Column("to", "To"),
                Column("approval", "Approval"),
            ])
        section.rows = listing.schedules.map { summary in
            let schedule = summary.schedule
            return [
                .id(schedule.id), .text(schedule.name), .text(schedule.rule.text), summary.next.map { .day($0) } ?? .none, amountCell(schedule),
                .money(Money(minor: summary.monthly, currency: schedule.currency)), .text(schedule.currency.code),
                .labels(schedule.postings.filter { $0.amount.minor < 0 }.map { labels[$0.accountID] }),
                .labels(schedule.postings.filter { $0.amount.minor > 0 }.map { labels[$0.accountID] }), .text(schedule.approval.rawValue),
            ]
        }
        return Report([section])
    }

    /// `schedule show`: its fields, then its next occurrences.
    static func schedule(_ detail: ScheduleDetail) -> Report {
        let found = detail.schedule
        let money = { (minor: Int64) in Cell.money(Money(minor: minor, currency: found.currency)) }
        let head: [(Column, Cell)] = [
            (Column("id", "ID"), .text(found.id)), (Column("name", "Name"), .text(found.name)),
            (Column("rule", "Rule"), .text(found.rule.text)), (Column("rrule", "RRULE"), .text(found.rule.rrule)),
            (Column("calendar", "Calendar"), detail.followsLedgerCalendar ? .noted(detail.calendar, note: "the ledger's") : .text(detail.calendar)),
            (Column("calendarFromLedger", "Calendar from ledger", tableHidden: true), .bool(detail.followsLedgerCalendar)),
            (Column("adjust", "Adjust"), .text(found.rule.adjustment.rawValue)),
            (Column("start", "Start"), .day(found.start)), (Column("end", "End"), found.end.map { .day($0) } ?? .none),
            (Column("amount", "Amount"), amountCell(found)), (Column("expected", "Expected"), found.amount.map { money($0.expected) } ?? .none),
            (Column("approval", "Approval"), .text(found.approval.rawValue)), (Column("note", "Note"), .optional(found.note)),
            (
                Column("postings", "Postings"),
                .list(
                    found.postings.map { "\(detail.accountNames[$0.accountID] ?? $0.accountID) \($0.amount.minor >= 0 ? "+" : "")\($0.amount.plain)" }
                )
            ),
        ]
        var upcoming = Section(
            name: "occurrences", title: "Next occurrences",
            columns: [
                Column("date", "Date"), Column("ruleDay", "Rule day"), Column("amount", "Amount", numeric: true), Column("low", "Low", numeric: true),
                Column("high", "High", numeric: true), Column("note", "Note"),
            ])
        upcoming.rows = detail.occurrences.map {
            [.day($0.occurrence.day), .day($0.occurrence.original), money($0.size), money($0.low), money($0.high), .text($0.change?.rawValue ?? "")]
        }
        var report = record("schedule", head, parts: [upcoming])
        // JSON: the postings as objects, as a transaction's are; the other fields as the record writes them.
        report.json = .object(
            head.map { column, cell in
                guard column.key == "postings" else { return (column.key, jsonValue(cell)) }
                return (
                    "postings",
                    .array(
                        found.postings.map {
                            .object([
                                ("account", .string(detail.accountNames[$0.accountID] ?? $0.accountID)), ("amount", .string($0.amount.plain)),
                                ("currency", .string($0.amount.currency.code)),
                            ])
                        })
                )
            } + [("occurrences", .array(upcoming.rows.map { row in .object(zip(upcoming.columns, row).map { ($0.key, jsonValue($1)) }) }))])
        return report
    }
}

/// The size of an occurrence: what moves (the sum of its positive postings).
package func size(_ postings: [Posting]) -> Int64 { Transaction.amount(of: postings) }

/// The amount or range as a cell: grouped in tables, plain in JSON and CSV.
package func amountCell(_ schedule: Schedule) -> Cell {
    if let model = schedule.amount {
        return .range(Money(minor: model.low, currency: schedule.currency), Money(minor: model.high, currency: schedule.currency))
    }
    return .money(Money(minor: size(schedule.postings), currency: schedule.currency))
}

package extension Report {
    /// Expected flows: reference, kind, day, amount, state and the transaction standing for it.
    static func expected(_ entries: [ExpectedEntry]) -> Report {
        let columns = [
            Column("ref", "Ref"), Column("kind", "Kind"), Column("date", "Date"), Column("payee", "Flow"), Column("amount", "Amount", numeric: true),
            Column("currency", "Cur"), Column("state", "State"), Column("transaction", "Transaction"),
        ]
        let rows: [[Cell]] = entries.map { entry in
            let currency = entry.flow.postings[0].amount.currency
            return [
                .text(entry.reference), .text(entry.flow.kind.rawValue), .day(entry.flow.day), .text(entry.flow.payee),
                .money(Money(minor: entry.flow.amount, currency: currency)), .text(currency.code), .text(entry.state.rawValue),
                entry.transactionID.map { .id($0) } ?? .none,
            ]
        }
        return Report([Section(name: "expected", title: nil, columns: columns, rows: rows)])
    }
}
