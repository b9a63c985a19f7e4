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
        // Each field capital reads has a slot; `%name` references become column indexes, once.
        let slots = Dictionary(Self.fieldOrder.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        func compiled(_ template: Template) -> [Part] {
            template.parts.map { part in
                switch part {
                case .text(let text): .text(text)
                case .column(.number(let number)): .column(number - 1)
                case .column(.name(let name)): .column(columns[name] ?? -1)
                }
            }
        }
        // Every template once, in `templates`; a record's fields are indexes into it (-1: none).
        var templates: [[Part]] = []
        func add(_ parts: [Part]) -> Int32 {
            templates.append(parts)
            return Int32(templates.count - 1)
        }
        // Fields that `fields` names: assigned from their columns unless a rule says otherwise.
        var base = [Int32](repeating: -1, count: Self.fieldOrder.count)
        for (index, name) in names.enumerated() { if let slot = slots[name] { base[slot] = add([.column(index)]) } }
        for assignment in assignments { if let slot = slots[assignment.field] { base[slot] = add(compiled(assignment.template)) } }
        struct CompiledMatcher {
            var column: Int?
            var pattern: RulePattern
            var negated: Bool
        }
        struct CompiledBlock {
            var groups: [[CompiledMatcher]]
            var assignments: [(slot: Int, template: Int32)]
            var skipsRecord: Bool
            var ends: Bool
            var origin: String
        }
        let compiledBlocks = blocks.map { block in
            CompiledBlock(
                groups: block.groups.map { group in
                    group.map { matcher in
                        let column: Int? =
                            switch matcher.column {
                            case nil: nil
                            case .number(let number)?: number - 1
                            case .name(let name)?: columns[name] ?? -1
                            }
                        return CompiledMatcher(column: column, pattern: matcher.pattern, negated: matcher.negated)
                    }
                },
                assignments: block.assignments.compactMap { assignment in slots[assignment.field].map { ($0, add(compiled(assignment.template))) } },
                skipsRecord: block.skipsRecord, ends: block.ends, origin: block.origin)
        }
        let wantsRecordText = blocks.contains { $0.groups.joined().contains { $0.column == nil } }

        func fail(_ line: Int, _ reason: String) -> KitError { KitError.fileLine(path: path, line: line, reason: reason) }
        var foldedColumns: [[UInt8]?] = []

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
            func column(_ index: Int) throws -> String {
                guard fields.indices.contains(index) else {
                    throw fail(record.line, "the rules read column \(index + 1), and the record has \(fields.count)")
                }
                return fields[index]
            }
            func render(_ parts: [Part]) throws -> String {
                if parts.count == 1, case .column(let index) = parts[0] { return try column(index) }
                var text = ""
                for part in parts {
                    switch part {
                    case .text(let literal): text += literal
                    case .column(let index): text += try column(index)
                    }
                }
                return text
            }
            var values = base
            var hits: [String] = []
            let recordText = wantsRecordText ? fields.joined(separator: ",") : ""
            var foldedRecord: [UInt8]?
            foldedColumns.removeAll(keepingCapacity: true)
            foldedColumns.append(contentsOf: repeatElement(nil, count: fields.count))
            func matches(_ matcher: CompiledMatcher) throws -> Bool {
                let result: Bool
                if let index = matcher.column {
                    let text = try column(index)
                    let folded = foldedColumns[index] ?? RulePattern.fold(text)
                    foldedColumns[index] = folded
                    result = matcher.pattern.matches(text, folded: folded)
                } else {
                    let folded = foldedRecord ?? RulePattern.fold(recordText)
                    foldedRecord = folded
                    result = matcher.pattern.matches(recordText, folded: folded)
                }
                return result != matcher.negated
            }
            for block in compiledBlocks {
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
                for (slot, template) in block.assignments { values[slot] = template }
            }
            func value(_ slot: Slot) throws -> String? {
                let template = values[slot.rawValue]
                guard template >= 0 else { return nil }
                let text = try render(templates[Int(template)]).trimmed()
                return text.isEmpty ? nil : text
            }
            func amount(_ slot: Slot) throws -> Int64? {
                guard let text = try value(slot) else { return nil }
                do {
                    return try StatementAmount.parse(Substring(text), exponent: exponent, decimalMark: decimalMark, line: record.line)
                } catch {
                    throw fail(record.line, "\(Self.fieldOrder[slot.rawValue]) '\(FieldKeys.literal(text))': \(FieldKeys.literal(error.reason))")
                }
            }
            guard let dateText = try value(.date) else { throw fail(record.line, "no date: the rules assign no date, or its column is empty") }
            let day = dateFormat.map { $0.day(Substring(dateText)) } ?? DateFormat.defaultDay(Substring(dateText))
            guard let day else {
                let format = dateFormat.map { "date-format \($0.pattern)" } ?? "YYYY-MM-DD (no date-format)"
                throw fail(record.line, "date '\(FieldKeys.literal(dateText))' is not a day in \(FieldKeys.literal(format))")
            }
            let minor: Int64
            if values[Slot.amount.rawValue] >= 0, let single = try amount(.amount) {
                minor = single
            } else {
                let incoming = try amount(.amountIn).flatMap { $0 == 0 ? nil : $0 }
                let outgoing = try amount(.amountOut).flatMap { $0 == 0 ? nil : $0 }
                switch (incoming, outgoing) {
                case (let incoming?, nil): minor = incoming
                case (nil, let outgoing?):
                    guard outgoing != .min else { throw fail(record.line, "amount-out is past the range of amounts") }
                    minor = -abs(outgoing)
                case (_?, _?):
                    throw fail(
                        record.line,
                        "both amount-in '\(FieldKeys.literal(try value(.amountIn) ?? ""))' and amount-out '\(FieldKeys.literal(try value(.amountOut) ?? ""))' have a value"
                    )
                case (nil, nil):
                    // A line of 0.00 (a card check) is read as 0; one with no amount at all is refused.
                    guard try value(.amount) != nil || value(.amountIn) != nil || value(.amountOut) != nil else {
                        let assigned = [Slot.amount, .amountIn, .amountOut].contains { values[$0.rawValue] >= 0 }
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
                    line: record.line, day: day, amountMinor: minor, currency: try value(.currency), payee: try value(.description) ?? "",
                    note: try value(.comment) ?? "", counterpart: try value(.account2), balanceMinor: try amount(.balance)))
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

extension StatementRules {
    /// A template's part with its column resolved: text, or a column's index.
    fileprivate enum Part {
        case text(String)
        case column(Int)
    }

    /// The fields capital reads, by slot (in `fieldOrder`'s order).
    fileprivate enum Slot: Int {
        case date, description, comment, account1, account2, amount, amountIn, amountOut, currency, balance
    }
}
