import CapitalCore
import Dispatch

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
    /// files, and files whose first line is later than their last, reversed; then sorted by day,
    /// keeping the file's order within a day).
    ///
    /// - Parameters:
    ///   - separator: the separator when the rules name none (from the file's extension).
    ///   - path: the statement's path, for errors.
    /// - Throws: `KitError.fileLine` naming the statement's line: a record whose field count is
    ///   not the `fields` count, a date not in `date-format`, an amount that does not parse or
    ///   overflows, both `amount-in` and `amount-out` given, no amount, no date, a `%N` past the
    ///   record's end; and the reader's errors (an unterminated quote, a record over 1 MB).
    /// - Complexity: O(bytes × patterns) at worst; literal patterns are substring searches. The
    ///   records are split 8 192 at a time and each batch is read by the rules on two threads.
    public func read(_ text: String, exponent: Int, separator defaultSeparator: UInt8, path: String) throws -> RulesReading {
        try read(text, exponent: exponent, separator: defaultSeparator, path: path, threads: 2, batch: Self.batch)
    }

    /// Records split at a time (a batch; not the rules' `if` blocks): each batch's records are
    /// read by the rules on `threads` threads when it holds at least `2 × minimumPart` of them.
    static let batch = 8_192
    static let minimumPart = 1_024

    /// `read(_:exponent:separator:path:)` with the records cut into batches of `batch`, each
    /// batch's records read by the rules in up to `threads` parts at once. The outcome is the same as one
    /// part's: lines in file order, and the first record's error or `end` (in file order) stops it.
    func read(
        _ text: String, exponent: Int, separator defaultSeparator: UInt8, path: String, threads: Int, batch: Int, minimumPart: Int = minimumPart
    ) throws -> RulesReading {
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

        // Read by the parts' threads: no longer changed.
        let (initialValues, templateList) = (base, templates)
        @Sendable func fail(_ line: Int, _ reason: String) -> KitError { KitError.fileLine(path: path, line: line, reason: reason) }

        /// What the rules make of one record; `foldedColumns` is the caller's scratch.
        @Sendable func process(_ record: DelimitedRecord, _ foldedColumns: inout [[UInt8]?]) throws -> RecordOutcome {
            let fields = record.fields
            // A record of another shape (a footer, a total) may be one an `if` leaves out: as in
            // hledger, `skip` and `end` are decided before the shape is checked, its missing
            // columns read as empty.
            let misshapen = !names.isEmpty && fields.count != names.count
            func column(_ index: Int) throws -> String {
                guard fields.indices.contains(index) else {
                    if misshapen { return "" }
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
            var values = initialValues
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
            for block in compiledBlocks where !misshapen || block.ends || block.skipsRecord {
                var applies = false
                for group in block.groups where try group.allSatisfy(matches) {
                    applies = true
                    break
                }
                guard applies else { continue }
                if block.ends { return .end }
                if block.skipsRecord { return .skipped }
                hits.append(block.origin)
                for (slot, template) in block.assignments { values[slot] = template }
            }
            if misshapen {
                throw fail(
                    record.line,
                    "the record has \(fields.count) field\(fields.count == 1 ? "" : "s") and fields names \(names.count): "
                        + FieldKeys.literal(fields.joined(separator: ",").prefix(80).description))
            }
            func value(_ slot: Slot) throws -> String? {
                let template = values[slot.rawValue]
                guard template >= 0 else { return nil }
                let text = try render(templateList[Int(template)]).trimmed()
                return text.isEmpty ? nil : text
            }
            // The currency sign or code printed with an amount (`$12.00`), with the text it came in.
            var printed: (mark: String, text: String)?
            func amount(_ slot: Slot) throws -> Int64? {
                guard let text = try value(slot) else { return nil }
                let (parsed, refusal) = Self.amount(
                    text, field: Self.fieldOrder[slot.rawValue], exponent: exponent, decimalMark: decimalMark, line: record.line)
                if let refusal { throw fail(record.line, refusal) }
                guard let parsed else { return nil }
                if let mark = parsed.currency, printed == nil { printed = (mark, text) }
                return parsed.minor
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
                    // A line of 0.00 (a card check) is read as 0; one with no amount at all is refused,
                    // unless it gives its balance: its amount is then the change from the balance
                    // before it (an hledger balance assignment).
                    guard try value(.amount) != nil || value(.amountIn) != nil || value(.amountOut) != nil || value(.balance) != nil else {
                        let assigned = [Slot.amount, .amountIn, .amountOut].contains { values[$0.rawValue] >= 0 }
                        throw fail(
                            record.line,
                            assigned
                                ? "no amount: the amount columns are empty" : "no amount: the rules assign neither amount nor amount-in/amount-out")
                    }
                    minor = 0
                }
            }
            let balance = try amount(.balance)
            let fromBalance = try value(.amount) == nil && value(.amountIn) == nil && value(.amountOut) == nil && balance != nil
            var currency = try value(.currency)
            if let printed {
                // A sign printed with an amount names its currency: the rules' must agree with it.
                if let given = currency, !StatementCurrency.agree(printed.mark, given) {
                    throw fail(
                        record.line,
                        "amount '\(FieldKeys.literal(printed.text))' is in \(FieldKeys.literal(printed.mark)), the rules' currency is \(FieldKeys.literal(given))"
                    )
                }
                currency = currency ?? printed.mark
            }
            var line = StatementLine(
                line: record.line, day: day, amountMinor: minor, currency: currency, payee: try value(.description) ?? "",
                note: try value(.comment) ?? "", counterpart: try value(.account2), balanceMinor: balance)
            line.amountFromBalance = fromBalance
            return .line(line, hits)
        }

        /// The records of `records` read in order, until one fails or ends the reading.
        @Sendable func run(_ records: ArraySlice<DelimitedRecord>) -> RecordsPart {
            var part = RecordsPart()
            part.lines.reserveCapacity(records.count)
            part.matched.reserveCapacity(records.count)
            var folded: [[UInt8]?] = []
            for record in records {
                do {
                    switch try process(record, &folded) {
                    case .line(let line, let hits):
                        part.lines.append(line)
                        part.matched.append(hits)
                    case .skipped: part.skipped += 1
                    case .end:
                        part.stop = .end
                        return part
                    }
                } catch {
                    part.stop = .failure(error)
                    return part
                }
            }
            return part
        }

        batches: while true {
            // A batch of records; the reader's error comes after the records before it.
            var records: [DelimitedRecord] = []
            records.reserveCapacity(min(batch, Self.batch))
            var readerError: KitError?
            while records.count < batch {
                do {
                    guard let record = try reader.next() else { break }
                    if toSkip > 0 {
                        toSkip -= 1
                        continue
                    }
                    records.append(record)
                } catch {
                    readerError = fail(error.line, FieldKeys.literal(error.reason))
                    break
                }
            }
            let count = threads > 1 && records.count >= 2 * minimumPart ? min(threads, records.count / minimumPart) : 1
            var parts = [RecordsPart](repeating: RecordsPart(), count: count)
            if count == 1 {
                parts[0] = run(records[...])
            } else {
                let size = (records.count + count - 1) / count
                let read = records
                parts.withUnsafeMutableBufferPointer { output in
                    nonisolated(unsafe) let output = output
                    DispatchQueue.concurrentPerform(iterations: count) { index in
                        output[index] = run(read[min(read.count, index * size)..<min(read.count, (index + 1) * size)])
                    }
                }
            }
            for part in parts {
                lines += part.lines
                matched += part.matched
                skipped += part.skipped
                switch part.stop {
                case nil: continue
                case .end?: break batches
                case .failure(let error)?: throw error
                }
            }
            if let readerError { throw readerError }
            if records.count < batch { break }
        }
        // As hledger: a file whose first line is later than its last is newest first even
        // without `newest-first` (which a file of one day's lines still needs).
        if newestFirst || (lines.count > 1 && lines[0].day > lines[lines.count - 1].day) {
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
    /// What the rules make of one record.
    fileprivate enum RecordOutcome {
        case line(StatementLine, [String])
        /// Left out by an `if` block's `skip`.
        case skipped
        /// An `if` block's `end`: this record and every later one are left out.
        case end
    }

    /// A run of records read by the rules: its lines, and what stopped it before its end.
    fileprivate struct RecordsPart {
        enum Stop {
            case end
            case failure(any Error)
        }
        var lines: [StatementLine] = []
        var matched: [[String]] = []
        var skipped = 0
        var stop: Stop?
    }

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

extension StatementRules {
    /// `text` of `field` (`amount`, `balance`, …) read as an amount, its signs settled first
    /// (`simplifiedSign`); or why not, quoting it once (`balance '12x' is not a number`).
    static func amount(
        _ text: String, field: String, exponent: Int, decimalMark: UInt8?, line: Int
    ) -> (value: StatementAmount.Marked?, refusal: String?) {
        let simplified = simplifiedSign(text)
        do {
            return (try StatementAmount.parseMarked(Substring(simplified), exponent: exponent, decimalMark: decimalMark, line: line), nil)
        } catch {
            // The parser's reason quotes the amount too: said once, after the field's name.
            let quoted = "amount '\(simplified)' "
            let reason = error.reason.hasPrefix(quoted) ? String(error.reason.dropFirst(quoted.count)) : error.reason
            return (nil, "\(field) '\(FieldKeys.literal(text))' \(FieldKeys.literal(reason))")
        }
    }

    /// An amount's signs as hledger's CSV reader settles them before it reads the number, so that
    /// rules written for hledger (`amount -%amount`, to flip a card's signs) read the same here:
    /// `--5` is 5, `-(3.00)` 3.00, `(-1)` 1, `-+6` -6, `(3.00)` -3.00, `+4` 4, a lone `-`, `+`
    /// or `()` no amount; any other text is left as it is (one sign, before or after, is the
    /// amount parser's).
    /// - Complexity: O(1) unless the text begins with `(`, `-` or `+`; then O(length).
    static func simplifiedSign(_ text: String) -> String {
        guard let first = text.utf8.first, first == UInt8(ascii: "(") || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else {
            return text
        }
        let text = text.trimmed()
        func negated(_ text: String) -> String { text.hasPrefix("-") ? String(text.dropFirst()) : "-" + text }
        if text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 { return simplifiedSign(negated(String(text.dropFirst().dropLast()))) }
        if text.hasPrefix("-("), text.hasSuffix(")") { return simplifiedSign(String(text.dropFirst(2).dropLast())) }
        if text.hasPrefix("--") { return String(text.dropFirst(2)) }
        if text.hasPrefix("-+") { return negated(String(text.dropFirst(2))) }
        if text == "-" || text == "+" || text == "()" { return "" }
        if text.hasPrefix("+") { return simplifiedSign(String(text.dropFirst())) }
        return text
    }
}
