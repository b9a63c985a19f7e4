import CapitalCore

extension StatementRules {
    /// Reads the rules in `text`, from the file at `path`; `include` reads another file through
    /// `load(name, includingPath)`, which returns its text and path.
    ///
    /// - Throws: `KitError.fileLine` naming the file and line of an unknown or unsupported
    ///   directive, a regular expression that does not compile, a `%reference` to no field, a bad
    ///   `separator`, `decimal-mark`, `skip` or `date-format`, or an include that cannot be read
    ///   (or includes itself).
    /// - Complexity: O(length of the rules), plus compiling each regular expression once.
    public init(text: String, path: String, load: (String, String) throws -> (text: String, path: String)) throws {
        self = try withoutActuallyEscaping(load) { load in
            var reader = RulesReader(rules: StatementRules(), load: load)
            try reader.read(text: text, path: path, depth: 0)
            return reader.rules
        }
        try resolve(path: path)
    }

    /// Checks every `%name` against `fields` and turns it into a column number.
    private mutating func resolve(path: String) throws {
        let names = fieldNames ?? []
        func check(_ reference: Reference, line: Int) throws {
            switch reference {
            case .name(let name):
                guard names.contains(name) else {
                    let known = names.isEmpty ? "the rules have no fields line" : "fields are " + names.filter { !$0.isEmpty }.joined(separator: ", ")
                    throw KitError.fileLine(path: path, line: line, reason: "%\(FieldKeys.literal(name)) names no field: \(FieldKeys.literal(known))")
                }
            case .number(let number):
                guard number >= 1 else { throw KitError.fileLine(path: path, line: line, reason: "%\(number): columns are numbered from 1") }
            }
        }
        for assignment in assignments + blocks.flatMap(\.assignments) {
            for case .column(let reference) in assignment.template.parts { try check(reference, line: assignment.line) }
        }
        for block in blocks {
            for matcher in block.groups.joined() { if let column = matcher.column { try check(column, line: block.line) } }
        }
    }
}

/// Reads rules files line by line, following includes.
private struct RulesReader {
    var rules: StatementRules
    let load: (String, String) throws -> (text: String, path: String)
    var including: [String] = []

    init(rules: StatementRules, load: @escaping (String, String) throws -> (text: String, path: String)) {
        self.rules = rules
        self.load = load
    }

    mutating func read(text: String, path: String, depth: Int) throws {
        including.append(path)
        defer { including.removeLast() }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
        var index = 0
        func fail(_ reason: String, at line: Int) -> KitError { KitError.fileLine(path: path, line: line, reason: reason) }
        while index < lines.count {
            let raw = lines[index]
            let number = index + 1
            index += 1
            let line = raw.trimmed()
            if line.isEmpty || Self.isComment(line) { continue }
            if raw.first == " " || raw.first == "\t" {
                throw fail("'\(FieldKeys.literal(line))' is indented but follows no if", at: number)
            }
            let (word, value) = Self.split(line)
            if word == "if" || (line.hasPrefix("if") && line.count > 2 && Self.isTableSeparator(line[line.index(line.startIndex, offsetBy: 2)])) {
                if word != "if" {
                    try readTable(lines, &index, header: line, number: number, path: path)
                } else {
                    try readBlock(lines, &index, first: value, number: number, path: path)
                }
                continue
            }
            switch word {
            case "skip":
                guard value.isEmpty || Int(value) != nil, let count = value.isEmpty ? 1 : Int(value), count >= 0 else {
                    throw fail("skip '\(FieldKeys.literal(value))': a number of records, 0 or more", at: number)
                }
                rules.skip = count
            case "fields":
                rules.fieldNames = value.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmed(" \t\"").lowercased()
                }
            case "separator":
                switch value.uppercased() {
                case "TAB", "\\T": rules.separator = UInt8(ascii: "\t")
                case "SPACE": rules.separator = UInt8(ascii: " ")
                default:
                    guard value.utf8.count == 1, let byte = value.utf8.first, byte != UInt8(ascii: "\""), byte < 0x80 else {
                        throw fail("separator '\(FieldKeys.literal(value))': one character such as , ; | or TAB or SPACE", at: number)
                    }
                    rules.separator = byte
                }
            case "date-format":
                do { rules.dateFormat = try DateFormat(value) } catch { throw fail("date-format: \(FieldKeys.literal(error.reason))", at: number) }
            case "decimal-mark":
                guard value == "." || value == "," else { throw fail("decimal-mark '\(FieldKeys.literal(value))': . or ,", at: number) }
                rules.decimalMark = value.utf8.first
            case "newest-first":
                rules.newestFirst = true
            case "include":
                guard depth < 8 else { throw fail("include '\(FieldKeys.literal(value))': includes nest more than 8 deep", at: number) }
                let included: (text: String, path: String)
                do { included = try load(value, path) } catch {
                    throw fail("include '\(FieldKeys.literal(value))': \(FieldKeys.literal("\(error)"))", at: number)
                }
                if including.contains(included.path) {
                    // Itself, or a file that includes this one (a → b → a).
                    let what = included.path == path ? "the file includes itself" : "that file is already being read (a cycle of includes)"
                    throw fail("include '\(FieldKeys.literal(value))': \(what)", at: number)
                }
                try read(text: included.text, path: included.path, depth: depth + 1)
            default:
                rules.assignments.append(try Self.assignment(word, value, number: number, path: path))
            }
        }
    }

    /// An `if` block: matcher lines (not indented), then rules (indented), up to a blank line.
    mutating func readBlock(_ lines: [String], _ index: inout Int, first: String, number: Int, path: String) throws {
        var block = StatementRules.Block(groups: [], assignments: [], line: number, origin: Self.origin(path, number))
        if !first.isEmpty { try Self.addMatcher(first, to: &block, number: number, path: path) }
        while index < lines.count {
            let raw = lines[index]
            let line = raw.trimmed()
            if line.isEmpty { break }
            let lineNumber = index + 1
            if Self.isComment(line) {
                index += 1
                continue
            }
            let indented = raw.first == " " || raw.first == "\t"
            if !indented {
                // Matchers come before the block's rules; a line after them starts the next rule.
                if !block.assignments.isEmpty || block.skipsRecord || block.ends { break }
                try Self.addMatcher(line, to: &block, number: lineNumber, path: path)
                index += 1
                continue
            }
            index += 1
            let (word, value) = Self.split(line)
            switch word {
            case "skip":
                guard value.isEmpty else {
                    throw KitError.fileLine(path: path, line: lineNumber, reason: "skip inside if leaves this record out and takes no number")
                }
                block.skipsRecord = true
            case "end": block.ends = true
            default: block.assignments.append(try Self.assignment(word, value, number: lineNumber, path: path))
            }
        }
        guard !block.groups.isEmpty else { throw KitError.fileLine(path: path, line: number, reason: "if has no matcher") }
        guard !block.assignments.isEmpty || block.skipsRecord || block.ends else {
            throw KitError.fileLine(path: path, line: number, reason: "if has no rules (indent them under the matchers)")
        }
        rules.blocks.append(block)
    }

    /// An `if` table: `if,FIELD,FIELD…` then `MATCHER,VALUE,VALUE…` rows up to a blank line.
    mutating func readTable(_ lines: [String], _ index: inout Int, header: String, number: Int, path: String) throws {
        let separator = header[header.index(header.startIndex, offsetBy: 2)]
        let fields = header.dropFirst(3).split(separator: separator, omittingEmptySubsequences: false).map {
            $0.trimmed().lowercased()
        }
        for field in fields { _ = try Self.assignment(field, "", number: number, path: path) }
        var rows = 0
        while index < lines.count {
            let line = lines[index].trimmed()
            if line.isEmpty { break }
            let lineNumber = index + 1
            index += 1
            if Self.isComment(line) { continue }
            let cells = line.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            guard cells.count == fields.count + 1 else {
                throw KitError.fileLine(
                    path: path, line: lineNumber,
                    reason:
                        "this if-table row has \(cells.count - 1) values for \(fields.count) fields (\(FieldKeys.literal(fields.joined(separator: ", "))))"
                )
            }
            var block = StatementRules.Block(groups: [], assignments: [], line: lineNumber, origin: Self.origin(path, lineNumber))
            try Self.addMatcher(cells[0].trimmed(), to: &block, number: lineNumber, path: path)
            for (field, value) in zip(fields, cells.dropFirst()) {
                block.assignments.append(try Self.assignment(field, value.trimmed(), number: lineNumber, path: path))
            }
            rules.blocks.append(block)
            rows += 1
        }
        if rows == 0 { throw KitError.fileLine(path: path, line: number, reason: "if table has no rows") }
    }

    /// One matcher line: `[&&|&] [!] [%field] REGEX`; `&&` joins it to the matcher before it.
    static func addMatcher(_ text: String, to block: inout StatementRules.Block, number: Int, path: String) throws {
        var rest = Substring(text)
        var joined = false
        if rest.hasPrefix("&&") {
            joined = true
            rest = rest.dropFirst(2)
        } else if rest.hasPrefix("&") {
            joined = true
            rest = rest.dropFirst()
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        var negated = false
        if rest.first == "!" {
            negated = true
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        }
        var column: StatementRules.Reference?
        if rest.first == "%" {
            let name = rest.dropFirst().prefix(while: isNameCharacter)
            if !name.isEmpty {
                column = reference(String(name))
                rest = rest.dropFirst(name.count + 1).drop { $0 == " " || $0 == "\t" }
            }
        }
        guard !rest.isEmpty else { throw KitError.fileLine(path: path, line: number, reason: "'\(FieldKeys.literal(text))' has no pattern") }
        if joined && block.groups.isEmpty {
            throw KitError.fileLine(path: path, line: number, reason: "'\(FieldKeys.literal(text))' joins no matcher before it")
        }
        let pattern: RulePattern
        do { pattern = try RulePattern(String(rest)) } catch {
            throw KitError.fileLine(
                path: path, line: number, reason: "pattern '\(FieldKeys.literal(error.pattern))' does not compile: \(FieldKeys.literal(error.reason))"
            )
        }
        let matcher = StatementRules.Matcher(column: column, pattern: pattern, negated: negated)
        if joined { block.groups[block.groups.count - 1].append(matcher) } else { block.groups.append([matcher]) }
    }

    /// A field assignment `FIELD TEMPLATE`, refused when capital does not read the field.
    static func assignment(_ word: String, _ value: String, number: Int, path: String) throws -> StatementRules.Assignment {
        let field = word.lowercased()
        guard StatementRules.fields.contains(field) else {
            let reason: String
            if StatementRules.unsupported.contains(field) {
                reason = "'\(FieldKeys.literal(field))' is an hledger rule capital does not read; remove it or see docs/import.md"
            } else if field.hasPrefix("amount") || field.hasPrefix("account") || field.hasPrefix("comment") || field.hasPrefix("balance")
                || field.hasPrefix("currency")
            {
                reason =
                    "'\(FieldKeys.literal(field))': capital reads one counterpart per line (account2, amount, comment, balance); numbered postings are not read"
            } else {
                reason = "unknown directive '\(FieldKeys.literal(field))'"
            }
            throw KitError.fileLine(path: path, line: number, reason: reason)
        }
        return StatementRules.Assignment(field: field, template: template(value), line: number)
    }

    /// `text` with `%name` and `%N` as column references.
    static func template(_ text: String) -> StatementRules.Template {
        var parts: [StatementRules.Template.Part] = []
        var literal = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            literal += rest[..<percent]
            let name = rest[rest.index(after: percent)...].prefix(while: isNameCharacter)
            if name.isEmpty {
                literal += "%"
                rest = rest[rest.index(after: percent)...]
                continue
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.column(reference(String(name))))
            rest = rest[name.endIndex...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        return StatementRules.Template(parts: parts)
    }

    static func reference(_ name: String) -> StatementRules.Reference {
        if let number = Int(name) { return .number(number) }
        return .name(name.lowercased())
    }

    static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }

    static func isTableSeparator(_ character: Character) -> Bool {
        !(character.isLetter || character.isNumber || character == " " || character == "\t" || character == "%" || character == "&")
    }

    /// `bank.rules:12`: the file's name without its folder, and the line.
    static func origin(_ path: String, _ line: Int) -> String {
        "\(path.split(separator: "/").last.map(String.init) ?? path):\(line)"
    }

    static func isComment(_ line: String) -> Bool { line.first == "#" || line.first == ";" || line.first == "*" }

    /// The first word and the rest, trimmed.
    static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (line, "") }
        return (String(line[..<space]), line[space...].trimmed())
    }
}
