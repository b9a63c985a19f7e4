/// OFX 1.x (SGML, leaf tags unclosed) and 2.x (XML) bank and credit-card statements.
///
/// Both flavours are read by one tolerant tree builder: an element followed by text is a leaf
/// (its close tag, when present, is consumed), an element followed by a tag is an aggregate, and an
/// aggregate closed implicitly by an outer close tag (an SGML leaf left empty) hands its would-be
/// children back to its parent — unless it is one of a statement's aggregates (`BANKTRANLIST`,
/// `STMTTRN`, …), which are always closed: one closed only by its parent's close tag is refused.
/// Tag names are case-insensitive; `&amp; &lt; &gt; &quot; &apos;` and numeric character
/// references are decoded in values, which are trimmed; `<![CDATA[…]]>` text is read as written.
/// A file may start at its `<OFX>` tag, without a header.
///
/// Each `STMTRS` (bank) or `CCSTMTRS` (card) becomes a `Statement`: `ACCTID` of `BANKACCTFROM` or
/// `CCACCTFROM`, `CURDEF`, the `STMTTRN`s of `BANKTRANLIST` and the `LEDGERBAL`. A transaction's
/// day is the first eight digits of `DTPOSTED` (`YYYYMMDD`; the time and zone are ignored), its
/// amount `TRNAMT` as signed in the file, its payee `NAME` (or `PAYEE`'s `NAME`), its note `MEMO`,
/// its external id `FITID`, its currency `CURRENCY`'s `CURSYM` when it names one.
/// ```swift
/// let statements = try OFXReader.read(text, exponent: 2)
/// statements[0].lines[0].amountMinor   // -1234 for <TRNAMT>-12.34
/// ```
public enum OFXReader {
    /// Every statement in the file (several STMTTRNRS/CCSTMTTRNRS, in file order).
    /// `exponent`: decimal digits of the account currency (2 for RUB/EUR/USD) used to turn TRNAMT/BALAMT into minor units.
    /// - Throws: `StatementError` for a file cut short (a tag without `>`, an aggregate never
    ///   closed), no statement, a transaction without `DTPOSTED` or `TRNAMT`, a date or an amount
    ///   that does not read.
    /// - Complexity: O(n) in the length of the text for well-formed files.
    public static func read(_ text: String, exponent: Int) throws(StatementError) -> [Statement] {
        guard (0...18).contains(exponent) else { throw StatementError(line: 0, "exponent \(exponent) is not 0 to 18") }
        let document = try Document(Array(text.utf8))
        var statements: [Statement] = []
        for index in document.elements.indices {
            switch document.elements[index].name {
            case "STMTRS": statements.append(try statement(index, kind: .bank, in: document, exponent: exponent))
            case "CCSTMTRS": statements.append(try statement(index, kind: .card, in: document, exponent: exponent))
            default: continue
            }
        }
        guard !statements.isEmpty else {
            throw StatementError(line: 0, "no bank or credit-card statement (BANKMSGSRSV1/CREDITCARDMSGSRSV1) in the file")
        }
        return statements
    }

    /// True when the text starts (after whitespace/BOM) like an OFX file: `OFXHEADER:`, an
    /// `<OFX>` tag (a file without its header, SGML or XML), or `<?xml` followed by `<?OFX` or an `<OFX>` tag.
    public static func looksLikeOFX(_ text: String) -> Bool {
        var bytes = Substring(text.unicodeScalars.drop { $0 == "\u{FEFF}" || $0.properties.isWhitespace }).utf8[...]
        if startsIgnoringCase(bytes, "OFXHEADER:") || startsIgnoringCase(bytes, "<OFX>") { return true }
        guard startsIgnoringCase(bytes, "<?xml") else { return false }
        while let first = bytes.first, first != UInt8(ascii: ">") { bytes = bytes.dropFirst() }
        bytes = bytes.dropFirst().drop(while: isSpace)
        return startsIgnoringCase(bytes, "<?OFX") || startsIgnoringCase(bytes, "<OFX>")
    }

    // MARK: Statements

    private static func statement(_ index: Int, kind: Statement.Kind, in document: Document, exponent: Int) throws(StatementError) -> Statement {
        var statement = Statement(kind: kind)
        statement.currency = document.leaf("CURDEF", in: index).flatMap { $0.text.isEmpty ? nil : $0.text }
        if let from = document.child("BANKACCTFROM", of: index) ?? document.child("CCACCTFROM", of: index),
            let account = document.leaf("ACCTID", in: from), !account.text.isEmpty
        {
            statement.accountNumber = account.text
        }
        if let list = document.child("BANKTRANLIST", of: index) {
            for item in document.elements[list].children where document.elements[item].name == "STMTTRN" {
                statement.lines.append(try transaction(item, in: document, exponent: exponent))
            }
        }
        if let ledger = document.child("LEDGERBAL", of: index) {
            let line = document.elements[ledger].line
            let amount = document.leaf("BALAMT", in: ledger)
            let asOf = document.leaf("DTASOF", in: ledger)
            // An empty (or absent) figure is a balance the bank did not give: the lines still count.
            if let amount, let asOf, !amount.text.isEmpty, !asOf.text.isEmpty {
                statement.closingBalance = StatementBalance(
                    day: try day("DTASOF", asOf), amountMinor: try amountMinor("BALAMT", amount, exponent: exponent))
            } else {
                let missing = [("BALAMT", amount), ("DTASOF", asOf)].filter { $0.1?.text.isEmpty ?? true }.map {
                    $0.1 == nil ? "no \($0.0)" : "an empty \($0.0)"
                }
                statement.unusableBalance = StatementError(line: line, "LEDGERBAL has \(missing.joined(separator: " and "))")
            }
        }
        return statement
    }

    private static func transaction(_ index: Int, in document: Document, exponent: Int) throws(StatementError) -> StatementLine {
        let line = document.elements[index].line
        guard let posted = document.leaf("DTPOSTED", in: index) else { throw StatementError(line: line, "STMTTRN has no DTPOSTED") }
        guard let amount = document.leaf("TRNAMT", in: index) else { throw StatementError(line: line, "STMTTRN has no TRNAMT") }
        let payee = document.leaf("NAME", in: index) ?? document.child("PAYEE", of: index).flatMap { document.leaf("NAME", in: $0) }
        let fitid = document.leaf("FITID", in: index)?.text ?? ""
        let currency = document.child("CURRENCY", of: index).flatMap { document.leaf("CURSYM", in: $0) }?.text ?? ""
        return StatementLine(
            line: line, day: try day("DTPOSTED", posted), amountMinor: try amountMinor("TRNAMT", amount, exponent: exponent),
            currency: currency.isEmpty ? nil : currency, payee: payee?.text ?? "", note: document.leaf("MEMO", in: index)?.text ?? "",
            externalID: fitid.isEmpty ? nil : fitid)
    }

    /// The day of an OFX date-time: its first eight characters as `YYYYMMDD`, the rest (time, zone) ignored.
    private static func day(_ tag: String, _ leaf: Document.Leaf) throws(StatementError) -> Day {
        let digits = Array(leaf.text.utf8.prefix(8))
        guard digits.count == 8, digits.allSatisfy(isDigit) else {
            throw StatementError(line: leaf.line, "\(tag) '\(leaf.text)' is not a date: expected YYYYMMDD")
        }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        do {
            return try Day(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        } catch {
            throw StatementError(line: leaf.line, "\(tag) '\(leaf.text)' is not a calendar date")
        }
    }

    /// `[+-]digits[.|,digits]` as minor units: more fraction digits than `exponent` only when the
    /// extra ones are zeros, and nothing beyond Int64.
    private static func amountMinor(_ tag: String, _ leaf: Document.Leaf, exponent: Int) throws(StatementError) -> Int64 {
        var notAmount: StatementError { StatementError(line: leaf.line, "\(tag) '\(leaf.text)' is not an amount") }
        var tooLarge: StatementError { StatementError(line: leaf.line, "\(tag) '\(leaf.text)' is too large") }
        var bytes = leaf.text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let whole = bytes.prefix(while: isDigit)
        var fraction = bytes.dropFirst(whole.count)
        if let mark = fraction.first {
            guard mark == UInt8(ascii: ".") || mark == UInt8(ascii: ",") else { throw notAmount }
            fraction = fraction.dropFirst()
        }
        guard fraction.allSatisfy(isDigit), !(whole.isEmpty && fraction.isEmpty) else { throw notAmount }
        guard fraction.dropFirst(exponent).allSatisfy({ $0 == UInt8(ascii: "0") }) else {
            throw StatementError(line: leaf.line, "\(tag) '\(leaf.text)' has more than \(exponent) decimals")
        }
        var magnitude: UInt64 = 0
        func shift(in digit: UInt8) throws(StatementError) {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, overflowPlus) = times.addingReportingOverflow(UInt64(digit &- 0x30))
            guard !overflowTimes, !overflowPlus else { throw tooLarge }
            magnitude = plus
        }
        for digit in whole { try shift(in: digit) }
        for digit in fraction.prefix(exponent) { try shift(in: digit) }
        for _ in fraction.count..<max(fraction.count, exponent) { try shift(in: UInt8(ascii: "0")) }
        // Not Int64.min: every amount must be negatable (a statement line's counterpart is its negation).
        guard magnitude <= UInt64(Int64.max) else { throw tooLarge }
        return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private static func startsIgnoringCase(_ bytes: Substring.UTF8View.SubSequence, _ prefix: String) -> Bool {
        bytes.starts(with: prefix.utf8) { upper($0) == upper($1) }
    }

    private static func upper(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
}

extension OFXReader {
    /// The elements of an OFX file, SGML or XML, in document order (an element's index is its
    /// place among the open tags), with their values and children.
    private struct Document {
        struct Element {
            /// Upper case.
            var name: String
            /// The 1-based line of the element's `<`.
            var line: Int
            /// The decoded, trimmed text of a leaf; nil for an aggregate (and an empty leaf).
            var value: String?
            var children: [Int] = []
        }

        /// A leaf's text and line.
        struct Leaf {
            var text: String
            var line: Int
        }

        private(set) var elements: [Element] = []

        init(_ bytes: [UInt8]) throws(StatementError) {
            var scanner = Scanner(bytes: bytes)
            var elements: [Element] = []
            var open: [Int] = []
            var openCount: [String: Int] = [:]
            var pending: Token?
            func next() throws(StatementError) -> Token? {
                if let token = pending {
                    pending = nil
                    return token
                }
                return try scanner.next()
            }
            while let token = try next() {
                switch token {
                case .text, .cdata:
                    continue  // outside any leaf: the SGML header, text between aggregates
                case .close(let name, let line):
                    guard openCount[name, default: 0] > 0, let position = open.lastIndex(where: { elements[$0].name == name }) else {
                        continue  // a stray close tag
                    }
                    // An aggregate is always closed: one left open is a file written wrong, whose
                    // lines would otherwise be read as its parent's (or not at all).
                    if let unclosed = open[(position + 1)...].first(where: { Self.aggregates.contains(elements[$0].name) }) {
                        throw StatementError(
                            line: elements[unclosed].line,
                            "<\(elements[unclosed].name)> is never closed: </\(name)> on line \(line) closes the <\(name)> around it")
                    }
                    // Elements left open inside are SGML leaves without a value: what they seemed to
                    // hold are their siblings, children of the element closed here, in file order.
                    for level in (position + 1)..<open.count {
                        elements[open[position]].children += elements[open[level]].children
                        elements[open[level]].children = []
                    }
                    for closed in open[position...] { openCount[elements[closed].name, default: 1] -= 1 }
                    open.removeSubrange(position...)
                case .open(let name, let line, let selfClosing):
                    let index = elements.count
                    elements.append(Element(name: name, line: line, value: selfClosing ? "" : nil))
                    if let parent = open.last { elements[parent].children.append(index) }
                    if selfClosing { continue }
                    var following = try next()
                    // The text up to the next tag: plain text (entities decoded) and CDATA sections (as written).
                    var pieces: [Token] = []
                    while let token = following, token.isText {
                        pieces.append(token)
                        following = try next()
                    }
                    if let value = Self.value(pieces) {
                        elements[index].value = value
                        if case .close(name, _)? = following { following = nil }  // XML, or SGML written closed
                        pending = following
                        continue
                    }
                    pending = following
                    open.append(index)
                    openCount[name, default: 0] += 1
                }
            }
            if let innermost = open.last {
                let unclosed = open.last { !elements[$0].children.isEmpty } ?? innermost
                let endsWithBreak = bytes.last == 0x0A || bytes.last == 0x0D
                throw StatementError(
                    line: scanner.line - (endsWithBreak ? 1 : 0),
                    "the file ends inside <\(elements[unclosed].name)> opened on line \(elements[unclosed].line): it looks cut short")
            }
            self.elements = elements
        }

        /// The aggregates of a statement: each is closed by its own close tag, never implicitly.
        static let aggregates: Set<String> = [
            "BANKMSGSRSV1", "CREDITCARDMSGSRSV1", "STMTTRNRS", "CCSTMTTRNRS", "STMTRS", "CCSTMTRS", "BANKACCTFROM", "CCACCTFROM",
            "BANKTRANLIST", "STMTTRN", "LEDGERBAL", "AVAILBAL",
        ]

        /// The trimmed text of a run of text and CDATA tokens; nil when there is none.
        private static func value(_ pieces: [Token]) -> String? {
            if pieces.count == 1, case .text(let raw) = pieces[0] {
                let text = trimmed(raw)
                return text.isEmpty ? nil : decoded(text)
            }
            var bytes: [UInt8] = []
            for piece in pieces {
                switch piece {
                case .text(let raw): bytes += decoded(raw).utf8
                case .cdata(let raw): bytes += raw
                case .open, .close: continue
                }
            }
            let text = trimmed(bytes[...])
            return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
        }

        /// The first child of `index` named `name`.
        func child(_ name: String, of index: Int) -> Int? { elements[index].children.first { elements[$0].name == name } }

        /// The text of the first child of `index` named `name` ("" when it is empty).
        func leaf(_ name: String, in index: Int) -> Leaf? {
            child(name, of: index).map { Leaf(text: elements[$0].value ?? "", line: elements[$0].line) }
        }

        private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            guard let first = bytes.firstIndex(where: { !OFXReader.isSpace($0) }),
                let last = bytes.lastIndex(where: { !OFXReader.isSpace($0) })
            else { return [] }
            return bytes[first...last]
        }

        /// The text with `&amp; &lt; &gt; &quot; &apos;` and `&#NN;`/`&#xHH;` decoded; any other `&` kept as it is.
        private static func decoded(_ bytes: ArraySlice<UInt8>) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = bytes.startIndex
            while index < bytes.endIndex {
                if bytes[index] == UInt8(ascii: "&"),
                    let end = bytes[index..<min(bytes.endIndex, index + 12)].firstIndex(of: UInt8(ascii: ";")),
                    let scalar = entity(bytes[(index + 1)..<end])
                {
                    UTF8.encode(scalar) { out.append($0) }
                    index = end + 1
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        private static func entity(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
            switch String(decoding: name, as: UTF8.self) {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                guard name.first == UInt8(ascii: "#") else { return nil }
                let hex = name.dropFirst().first.map { $0 | 0x20 } == UInt8(ascii: "x")
                let digits = name.dropFirst(hex ? 2 : 1)
                guard let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10), value != 0 else { return nil }
                return Unicode.Scalar(value)
            }
        }
    }

    private enum Token {
        /// An open tag, its name upper case; `<TAG/>` is self-closing.
        case open(String, line: Int, selfClosing: Bool)
        /// A close tag, its name upper case, and the line of its `<`.
        case close(String, line: Int)
        /// The bytes between two tags, as they are.
        case text(ArraySlice<UInt8>)
        /// The text of a `<![CDATA[…]]>` section, as it is (no entities).
        case cdata(ArraySlice<UInt8>)

        var isText: Bool {
            switch self {
            case .text, .cdata: true
            case .open, .close: false
            }
        }
    }

    /// Tags and text, with processing instructions (`<?xml ?>`, `<?OFX ?>`), comments and
    /// declarations skipped. A `<` followed by anything but a letter, `/`, `?` or `!` is text.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// The 1-based line of `index`: LF, CRLF and a lone CR each end a line.
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        static let cdataStart = Array("<![CDATA[".utf8)
        static let cdataEnd = Array("]]>".utf8)

        mutating func next() throws(StatementError) -> Token? {
            while index < bytes.count {
                let start = index
                let startLine = line
                guard startsMarkup(at: index) else {
                    var end = index + 1
                    while end < bytes.count, !startsMarkup(at: end) { end += 1 }
                    advance(to: end)
                    return .text(bytes[start..<end])
                }
                let kind = bytes[index + 1]
                if bytes[index...].starts(with: Self.cdataStart) {
                    guard let end = find(Self.cdataEnd, from: index + Self.cdataStart.count) else {
                        throw StatementError(line: startLine, "'<![CDATA[' is never closed by ']]>': the file looks cut short")
                    }
                    advance(to: end + Self.cdataEnd.count)
                    return .cdata(bytes[(start + Self.cdataStart.count)..<end])
                }
                if kind == UInt8(ascii: "!") || kind == UInt8(ascii: "?") {
                    let comment = bytes[index...].starts(with: "<!--".utf8)
                    let terminator = Array((comment ? "-->" : ">").utf8)
                    guard let end = find(terminator, from: index + 2) else {
                        throw StatementError(
                            line: startLine, "'\(shown(start))' is never closed by '\(comment ? "-->" : ">")': the file looks cut short")
                    }
                    advance(to: end + terminator.count)
                    continue
                }
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "<") { end += 1 }
                guard end < bytes.count, bytes[end] == UInt8(ascii: ">") else {
                    let place = end < bytes.count ? "before the next '<'" : "before the end of the file: the file looks cut short"
                    throw StatementError(line: startLine, "tag '\(shown(start))' has no '>' \(place)")
                }
                var inside = bytes[(index + 1)..<end]
                advance(to: end + 1)
                let closing = inside.first == UInt8(ascii: "/")
                if closing { inside = inside.dropFirst() }
                let selfClosing = !closing && inside.last == UInt8(ascii: "/")
                let name = inside.prefix { !OFXReader.isSpace($0) && $0 != UInt8(ascii: "/") }
                guard !name.isEmpty else { continue }  // `</>`
                let upper = String(decoding: name.map(OFXReader.upper), as: UTF8.self)
                return closing ? .close(upper, line: startLine) : .open(upper, line: startLine, selfClosing: selfClosing)
            }
            return nil
        }

        /// Whether a tag, a closing tag, a processing instruction or a comment starts at `at`.
        private func startsMarkup(at: Int) -> Bool {
            guard bytes[at] == UInt8(ascii: "<"), at + 1 < bytes.count else { return false }
            let next = bytes[at + 1]
            return (0x61...0x7A).contains(next | 0x20) || next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "!")
        }

        private mutating func advance(to end: Int) {
            while index < end {
                if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) { line += 1 }
                index += 1
            }
        }

        private func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
            return (start...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
        }

        /// The markup at `start` up to the first space or `<` after it, at most 40 bytes, for a message.
        private func shown(_ start: Int) -> String {
            var end = start + 1
            while end < min(bytes.count, start + 40), !OFXReader.isSpace(bytes[end]), bytes[end] != UInt8(ascii: "<") { end += 1 }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }
}
