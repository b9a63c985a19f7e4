import CapitalCore
import CapitalStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output formats of listings and queries.
package enum OutputFormat: String, CaseIterable {
    case table, json, csv
}

/// How to draw amounts and colours.
package struct RenderOptions {
    package var hideAmounts = false
    package var color = false

    package init(hideAmounts: Bool = false, color: Bool = false) { (self.hideAmounts, self.color) = (hideAmounts, color) }

    /// What stands for an amount with `--hide-amounts`.
    package static let hidden = "***"

    /// An amount as a table or a sentence shows it: grouped, or hidden.
    package func shown(_ money: Money) -> String { hideAmounts ? RenderOptions.hidden : money.formatted() }

    /// Amounts in `money`'s currency as tables show them (`***` when hidden).
    package func shown(_ money: @escaping (Int64) -> Money) -> (Int64) -> String { { self.shown(money($0)) } }
}

package extension Report {
    func render(_ format: OutputFormat, _ options: RenderOptions) -> String {
        switch format {
        case .table: return renderTable(options)
        case .csv: return renderCSV()
        case .json: return renderJSON()
        }
    }

    // MARK: Table

    private func tableText(_ cell: Cell, _ options: RenderOptions) -> String {
        switch cell {
        case .text(let s): return s.contains(where: \.isNewline) ? s.split(whereSeparator: \.isNewline).joined(separator: " ⏎ ") : s
        case .noted(let s, let note): return tableText(.text(s), options) + " (\(note))"
        case .spelled(let s, _): return tableText(.text(s), options)
        case .rate(let rate): return rate.description
        case .absent(let words): return words
        case .id(let s): return Store.shortID(s)
        case .money(let m): return options.shown(m)
        case .range(let low, let high): return options.hideAmounts ? RenderOptions.hidden : low.formatted() + ".." + high.formatted()
        case .int(let i): return String(i)
        case .day(let d): return d.iso
        case .bool(let b): return b ? "yes" : "no"
        case .list(let items): return items.joined(separator: ", ")
        case .label(let label): return label.plain
        case .labels(let labels): return labels.map(\.plain).joined(separator: ", ")
        case .none: return ""
        }
    }

    /// The headline, the sections (unless the headline says it all), then the footer.
    private func renderTable(_ options: RenderOptions) -> String {
        headline.map { $0 + "\n" }.joined() + (headlineOnly ? "" : renderSections(options)) + footer.map { $0 + "\n" }.joined()
    }

    private func renderSections(_ options: RenderOptions) -> String {
        var out = ""
        for (index, section) in sections.enumerated() {
            if index > 0 { out += "\n" }
            if let title = section.title { out += title + "\n" }
            // A record is its first section; sections after it are tables.
            if isRecord, index == 0, let row = section.rows.first {
                let width = section.columns.map { $0.title.count }.max() ?? 0
                for (column, cell) in zip(section.columns, row) where !column.tableHidden {
                    // A field with no value is left out (JSON says null): no blank `End:` line.
                    if case .none = cell { continue }
                    out += pad(column.title + ":", width + 1, right: false) + " " + colored(cell, tableText(cell, options), options) + "\n"
                }
                continue
            }
            if section.rows.isEmpty {
                out += "(none)\n"
                continue
            }
            let shown = section.columns.indices.filter { !section.columns[$0].tableHidden }
            let texts = section.rows.map { row in shown.map { tableText(row[$0], options) } }
            var widths = shown.map { section.columns[$0].title.count }
            for row in texts { for (i, text) in row.enumerated() { widths[i] = max(widths[i], text.displayWidth) } }
            out +=
                trimmed(
                    shown.enumerated().map { pad(section.columns[$1].title, widths[$0], right: section.columns[$1].numeric) }.joined(separator: "  "))
                + "\n"
            out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
            for (rowIndex, row) in texts.enumerated() {
                let line = row.enumerated().map { i, text in
                    colored(section.rows[rowIndex][shown[i]], pad(text, widths[i], right: section.columns[shown[i]].numeric), options)
                }
                out += trimmed(line.joined(separator: "  ")) + "\n"
            }
        }
        return out
    }

    /// `text` (the cell's table text, padded) with colour: negative amounts red, account names in
    /// their own colours (the name only, not its icon or the padding).
    private func colored(_ cell: Cell, _ text: String, _ options: RenderOptions) -> String {
        guard options.color else { return text }
        switch cell {
        case .money(let m) where m.isNegative && !options.hideAmounts:
            return "\u{1B}[31m" + text + "\u{1B}[0m"
        case .label(let label) where label.color != nil:
            return text.replacingFirst(label.plain, with: label.styled(color: true))
        case .labels(let labels) where labels.contains(where: { $0.color != nil }):
            return text.replacingFirst(
                labels.map(\.plain).joined(separator: ", "), with: labels.map { $0.styled(color: true) }.joined(separator: ", "))
        default:
            return text
        }
    }

    private func pad(_ text: String, _ width: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.displayWidth))
        return right ? fill + text : text + fill
    }

    private func trimmed(_ line: String) -> String {
        var line = line
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    // MARK: CSV

    /// A cell as a CSV field: what a person typed (texts, names, lists) is text a spreadsheet
    /// must not run as a formula; amounts, days, ids and flags are values capital wrote.
    private func csvField(_ cell: Cell) -> CSVWriter.Field {
        switch cell {
        case .text(let s), .noted(let s, _), .spelled(_, let s): return .text(s)
        case .money(let m): return .value(m.plain)
        case .range(let low, let high): return .value(low.plain + ".." + high.plain)
        case .id(let s): return .value(s)
        case .rate(let rate): return .value(rate.percent)
        case .absent: return .value("")
        case .bool(let b): return .value(b ? "true" : "false")
        case .list(let items): return .text(items.joined(separator: ";"))
        case .label(let label): return .text(label.name)
        case .labels(let labels): return .text(labels.map(\.name).joined(separator: ";"))
        default: return .value(tableText(cell, RenderOptions()))
        }
    }

    /// One table of every section's columns (with a `section` column when there are several),
    /// through the one CSV writer: RFC 4180 quoting, formulas made inert, LF line ends.
    private func renderCSV() -> String {
        let multi = sections.count > 1
        var keys: [String] = []
        for section in sections { for column in section.columns where !keys.contains(column.key) { keys.append(column.key) } }
        var rows: [[CSVWriter.Field]] = []
        for section in sections {
            let indices = keys.map { key in section.columns.firstIndex { $0.key == key } }
            for row in section.rows {
                rows.append((multi ? [.value(section.name)] : []) + indices.map { $0.map { csvField(row[$0]) } ?? .value("") })
            }
        }
        return CSVWriter(lineEnd: "\n").write(header: (multi ? ["section"] : []) + keys, rows: rows)
    }

    // MARK: JSON

    static func jsonValue(_ cell: Cell) -> JSON {
        switch cell {
        case .text(let s), .id(let s), .noted(let s, _), .spelled(_, let s): return .string(s)
        case .money(let m): return .string(m.plain)
        case .range(let low, let high): return .string(low.plain + ".." + high.plain)
        case .int(let i): return .number(String(i))
        case .rate(let rate): return .string(rate.percent)
        case .absent: return .null
        case .day(let d): return .string(d.iso)
        case .bool(let b): return .bool(b)
        case .list(let items): return .array(items.map(JSON.string))
        case .label(let label): return .string(label.name)
        case .labels(let labels): return .array(labels.map { .string($0.name) })
        case .none: return .null
        }
    }

    private func renderJSON() -> String {
        func rows(_ section: Section) -> [JSON] {
            section.rows.map { row in .object(zip(section.columns, row).filter { !$0.0.jsonHidden }.map { ($0.key, Report.jsonValue($1)) }) }
        }
        var value: JSON
        if let json {
            value = json
        } else if let envelope {
            value = .object(envelope.fields + sections.map { ($0.name, .array(rows($0))) })
        } else if isRecord, let section = sections.first, case .object(let fields)? = rows(section).first {
            // A record's later sections are its parts: an array of objects under each one's name.
            value = .object(fields + sections.dropFirst().map { ($0.name, .array(rows($0))) })
        } else if keyed {
            value = .object(sections.map { ($0.name, .array(rows($0))) })
        } else {
            value = .array(sections.first.map(rows) ?? [])
        }
        for (key, extra) in [("overdue", overdue), ("staleRates", staleRates)] {
            guard let extra else { continue }
            switch value {
            case .object(let fields): value = .object(fields + [(key, extra)])
            case .array(let items):
                value = .array(
                    items.map { item in
                        if case .object(let fields) = item { return .object(fields + [(key, extra)]) }
                        return item
                    })
            default: break
            }
        }
        return value.text(indent: 0) + "\n"
    }
}

/// A JSON value printed with stable key order.
package indirect enum JSON {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    package func text(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent + 2)
        let close = String(repeating: " ", count: indent)
        switch self {
        case .string(let s): return JSON.quote(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items) where items.isEmpty: return "[]"
        case .array(let items):
            return "[\n" + items.map { pad + $0.text(indent: indent + 2) }.joined(separator: ",\n") + "\n" + close + "]"
        case .object(let fields) where fields.isEmpty: return "{}"
        case .object(let fields):
            return "{\n" + fields.map { pad + JSON.quote($0.0) + ": " + $0.1.text(indent: indent + 2) }.joined(separator: ",\n") + "\n" + close + "}"
        }
    }

    package static func quote(_ s: String) -> String { LedgerFile.quoted(s) }
}

package extension String {
    /// The text with the first occurrence of `target` replaced (the text itself when there is none).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
