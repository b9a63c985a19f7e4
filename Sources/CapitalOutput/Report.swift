import CapitalCore

/// One value in a report: rendered with grouping in tables, plain in CSV, typed in JSON.
package enum Cell {
    case text(String)
    /// A value with a note for people: `RU (the ledger's)` in tables, the value alone in JSON and CSV.
    case noted(String, note: String)
    /// A value spelled for people in tables (`partially paid`, an IBAN in groups of four) and as
    /// data in JSON and CSV (`partially-paid`, the IBAN without spaces).
    case spelled(String, data: String)
    /// An annual rate: `7.75%` in tables, the decimal `7.75` in JSON and CSV.
    case rate(Rate)
    /// Nothing, said in words in tables (`(the default account)`): null in JSON, empty in CSV.
    case absent(String)
    /// A record id: its first 8 hex digits in tables, whole in JSON and CSV.
    case id(String)
    case money(Money)
    /// A range of amounts, `250.00..500.00`.
    case range(Money, Money)
    case int(Int)
    case day(Day)
    case bool(Bool)
    case list([String])
    /// An account's name with its icon and colour in tables; the bare name in JSON and CSV.
    case label(Label)
    /// Several accounts' names: joined in tables, a list of names in JSON.
    case labels([Label])
    case none
}

package extension Cell {
    /// Free text that may be empty: an empty one is absent (null in JSON, an empty CSV field).
    static func optional(_ text: String) -> Cell { text.isEmpty ? .none : .text(text) }
}

/// A column: its JSON/CSV key, its table title, and whether it lines up on the right.
package struct Column {
    package var key: String
    package var title: String
    package var numeric: Bool = false
    /// In JSON and CSV only: tables show it another way (an icon before the name).
    package var tableHidden: Bool = false
    /// Not in JSON: its object says it once for all rows (a forecast's currency).
    package var jsonHidden: Bool = false

    package init(_ key: String, _ title: String, numeric: Bool = false, tableHidden: Bool = false, jsonHidden: Bool = false) {
        self.key = key
        self.title = title
        self.numeric = numeric
        self.tableHidden = tableHidden
        self.jsonHidden = jsonHidden
    }
}

/// A titled table of rows.
package struct Section {
    package var name: String
    package var title: String?
    package var columns: [Column]
    package var rows: [[Cell]] = []

    package init(name: String, title: String? = nil, columns: [Column], rows: [[Cell]] = []) {
        (self.name, self.title, self.columns, self.rows) = (name, title, columns, rows)
    }
}

/// What a listing or query prints, in whichever format was asked for.
package struct Report {
    package var sections: [Section]
    /// JSON: an object with one key per section instead of a bare array (for multi-section output).
    package var keyed: Bool = false

    package init(_ sections: [Section], keyed: Bool = false) {
        self.sections = sections
        self.keyed = keyed || sections.count > 1
    }

    /// A single record shown as field/value lines in a table and as one object in JSON; its
    /// `parts` (a due's payments, a schedule's next occurrences) follow as tables, and in JSON as
    /// arrays of objects under their names.
    package static func record(_ name: String, _ fields: [(Column, Cell)], parts: [Section] = []) -> Report {
        var section = Section(name: name, columns: fields.map(\.0))
        section.rows = [fields.map(\.1)]
        var report = Report([section] + parts)
        report.isRecord = true
        return report
    }

    package var isRecord = false
    /// A JSON shape of its own, for nested records (a transaction with its postings).
    package var json: JSON?
    /// JSON only: what the sections are of (a forecast's currency and level, a check's database),
    /// written before them in one object, each section then under its name.
    package var envelope: Envelope?
    /// Lines before the table, in table format only: the answer in words, a title, a chart.
    package var headline: [String] = []
    /// Lines after the table, in table format only.
    package var footer: [String] = []
    /// In table format the headline says it all: no table follows it.
    package var headlineOnly = false
    /// JSON only: an answer's `"overdue": {"count", "net"}` (the open expected flows before today
    /// it counts today), added to its object, or to each object of its array.
    package var overdue: JSON?
    /// JSON only: the rates older than a week an answer valued other currencies at (`"staleRates"`).
    package var staleRates: JSON?
}

/// The fields a report's JSON writes before its sections.
package struct Envelope {
    package var fields: [(String, JSON)]

    package init(fields: [(String, JSON)]) { self.fields = fields }
}

package extension Report {
    /// A flow as JSON, as every "why" writes it: `{"day", "label", "amount"}`.
    static func json(_ event: FlowEvent, _ money: (Int64) -> Money) -> JSON {
        .object([("day", .string(event.day.iso)), ("label", .string(event.label)), ("amount", .string(money(event.amount).plain))])
    }
}
