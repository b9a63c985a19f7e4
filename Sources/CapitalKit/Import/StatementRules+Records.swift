import CapitalCore

/// A CSV statement read by rules: its lines, and for each the rules that matched it (what
/// `rules test` shows).
public struct RulesReading: Sendable {
    public var statement: Statement
    /// Per line of `statement.lines`, the `if` blocks and table rows that matched it (`bank.rules:12`).
    public var matched: [[String]]
    /// Records left out by `skip` or `end` inside an `if`.
    public var skipped: Int
}

extension StatementRules {
    /// The statement lines of the CSV `text` (already decoded), read by these rules; amounts in
    /// minor units of a currency with `exponent` decimals. Lines come oldest first (`newest-first`
    /// files reversed; then sorted by day, keeping the file's order within a day).
    ///
    /// - Parameters:
    ///   - separator: the separator when the rules name none (from the file's extension).
    ///   - path: the statement's path, for errors.
    /// - Throws: `KitError.fileLine` naming the statement's line: a record whose field count is
    ///   not the `fields` count, a date not in `date-format`, an amount that does not parse or
    ///   overflows, both `amount-in` and `amount-out` given, no amount, no date, a `%N` past the
    ///   record's end; and the reader's errors (an unterminated quote, a record over 1 MB).
    /// - Complexity: O(bytes × patterns) at worst; literal patterns are substring searches.
    public func read(_ text: String, exponent: Int, separator defaultSeparator: UInt8, path: String) throws -> RulesReading {
        var reader = DelimitedReader(text: text, separator: separator ?? defaultSeparator)
        var lines: [StatementLine] = []
        var matched: [[String]] = []
        var skipped = 0
        var toSkip = skip
        let names = fieldNames ?? []
        let columns = Dictionary(names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // Fields that `fields` names: assigned from their columns unless a rule says otherwise.
        var base: [String: Template] = [:]
        for (index, name) in names.enumerated() where StatementRules.fields.contains(name) {
            base[name] = Template(parts: [.column(.number(index + 1))])
        }
        for assignment in assignments { base[assignment.field] = assignment.template }
        let wantsRecordText = blocks.contains { $0.groups.joined().contains { $0.column == nil } }

        func fail(_ line: Int, _ reason: String) -> KitError { KitError.fileLine(path: path, line: line, reason: reason) }

        records: while true {
            let next: DelimitedRecord?
            do { next = try reader.next() } catch { throw fail(error.line, FieldKeys.literal(error.reason)) }
            guard let record = next else { break }
            if toSkip > 0 {
                toSkip -= 1
                continue
            }
            let fields = record.fields
            if !names.isEmpty && fields.count != names.count {
                throw fail(
                    record.line,
                    "the record has \(fields.count) field\(fields.count == 1 ? "" : "s") and fields names \(names.count): "
                        + FieldKeys.literal(fields.joined(separator: ",").prefix(80).description))
            }
            func column(_ reference: Reference) throws -> String {
                let index: Int
                switch reference {
                case .number(let number): index = number - 1
                case .name(let name): index = columns[name] ?? -1
                }
                guard fields.indices.contains(index) else {
                    throw fail(record.line, "the rules read column \(index + 1), and the record has \(fields.count)")
                }
                return fields[index]
            }
            func render(_ template: Template) throws -> String {
                if template.parts.count == 1, case .column(let reference) = template.parts[0] { return try column(reference) }
                var text = ""
                for part in template.parts {
                    switch part {
                    case .text(let literal): text += literal
                    case .column(let reference): text += try column(reference)
                    }
                }
                return text
            }
            var values = base
            var hits: [String] = []
            let recordText = wantsRecordText ? fields.joined(separator: ",") : ""
            var foldedRecord: [UInt8]?
            var foldedColumns: [Int: [UInt8]] = [:]
            func matches(_ matcher: Matcher) throws -> Bool {
                let result: Bool
                if let reference = matcher.column {
                    let text = try column(reference)
                    let key: Int
                    switch reference {
                    case .number(let number): key = number - 1
                    case .name(let name): key = columns[name] ?? -1
                    }
                    let folded = foldedColumns[key] ?? RulePattern.fold(text)
                    foldedColumns[key] = folded
                    result = matcher.pattern.matches(text, folded: folded)
                } else {
                    let folded = foldedRecord ?? RulePattern.fold(recordText)
                    foldedRecord = folded
                    result = matcher.pattern.matches(recordText, folded: folded)
                }
                return result != matcher.negated
            }
            for block in blocks {
                var applies = false
                for group in block.groups where try group.allSatisfy(matches) {
                    applies = true
                    break
                }
                guard applies else { continue }
                if block.ends { break records }
                if block.skipsRecord {
                    skipped += 1
                    continue records
                }
                hits.append(block.origin)
                for assignment in block.assignments { values[assignment.field] = assignment.template }
            }
            func value(_ field: String) throws -> String? {
                guard let template = values[field] else { return nil }
                let text = try render(template).trimmed
                return text.isEmpty ? nil : text
            }
            func amount(_ field: String) throws -> Int64? {
                guard let text = try value(field) else { return nil }
                do {
                    return try StatementAmount.parse(Substring(text), exponent: exponent, decimalMark: decimalMark, line: record.line)
                } catch {
                    throw fail(record.line, "\(field) '\(FieldKeys.literal(text))': \(FieldKeys.literal(error.reason))")
                }
            }
            guard let dateText = try value("date") else { throw fail(record.line, "no date: the rules assign no date, or its column is empty") }
            let day = dateFormat.map { $0.day(Substring(dateText)) } ?? DateFormat.defaultDay(Substring(dateText))
            guard let day else {
                let format = dateFormat.map { "date-format \($0.pattern)" } ?? "YYYY-MM-DD (no date-format)"
                throw fail(record.line, "date '\(FieldKeys.literal(dateText))' is not a day in \(FieldKeys.literal(format))")
            }
            let minor: Int64
            if values["amount"] != nil, let single = try amount("amount") {
                minor = single
            } else {
                let incoming = try amount("amount-in").flatMap { $0 == 0 ? nil : $0 }
                let outgoing = try amount("amount-out").flatMap { $0 == 0 ? nil : $0 }
                switch (incoming, outgoing) {
                case (let incoming?, nil): minor = incoming
                case (nil, let outgoing?):
                    guard outgoing != .min else { throw fail(record.line, "amount-out is past the range of amounts") }
                    minor = -abs(outgoing)
                case (_?, _?):
                    throw fail(
                        record.line,
                        "both amount-in '\(FieldKeys.literal(try value("amount-in") ?? ""))' and amount-out '\(FieldKeys.literal(try value("amount-out") ?? ""))' have a value"
                    )
                case (nil, nil):
                    // A line of 0.00 (a card check) is read as 0; one with no amount at all is refused.
                    guard try value("amount") != nil || value("amount-in") != nil || value("amount-out") != nil else {
                        let assigned = values["amount"] != nil || values["amount-in"] != nil || values["amount-out"] != nil
                        throw fail(
                            record.line,
                            assigned
                                ? "no amount: the amount columns are empty" : "no amount: the rules assign neither amount nor amount-in/amount-out")
                    }
                    minor = 0
                }
            }
            lines.append(
                StatementLine(
                    line: record.line, day: day, amountMinor: minor, currency: try value("currency"), payee: try value("description") ?? "",
                    note: try value("comment") ?? "", counterpart: try value("account2"), balanceMinor: try amount("balance")))
            matched.append(hits)
        }
        if newestFirst {
            lines.reverse()
            matched.reverse()
        }
        // Oldest first, the file's order kept within a day.
        let order = lines.indices.sorted { (lines[$0].day, $0) < (lines[$1].day, $1) }
        let statement = Statement(currency: lines.first?.currency, lines: order.map { lines[$0] })
        return RulesReading(statement: statement, matched: order.map { matched[$0] }, skipped: skipped)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        let start = drop { $0 == " " || $0 == "\t" }
        return String(start.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
