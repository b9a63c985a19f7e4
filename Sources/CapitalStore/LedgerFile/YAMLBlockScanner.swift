import CYaml

/// A reader of the plain block YAML that capital writes, several times faster than libyaml: it
/// gives the same events libyaml gives (the same scalars, styles and lines), and declines anything
/// outside that shape, so that a file it declines is read by libyaml as before. It never reports a
/// syntax error: that is libyaml's to word.
///
/// What it takes, line by line (spaces for indentation, `\n` line ends):
/// - blank lines and comment lines; a comment after a value (` # …`);
/// - `key: value`, `key:` (a nested block on the lines below, more indented, or an empty value),
///   `- value` and `- key: value` (a mapping in a sequence item), keys of letters, digits and `_`;
/// - values: plain scalars on one line (no `: `, no tab, not starting with an indicator but `-`
///   before a non-space), double-quoted scalars on one line with their escapes, flow sequences of
///   such scalars on one line (`[a, "b"]`, `[]`) and flow mappings of them (`{key: a, k: "b"}`).
///
/// It declines: other indicators (anchors, aliases, tags, block scalars, single quotes, `?`),
/// flow collections inside flow collections, scalars over several lines, a sequence as indented as its key, directives and
/// document markers, tabs and carriage returns anywhere, characters libyaml does not take or reads
/// as line breaks (C0 and C1 controls, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF), a root that is not
/// a block mapping or sequence, nesting past 100 levels.
///
/// `YAMLComposerTests` holds it to libyaml: on the sample, the small ledgers and seeded mutations
/// of them, both read the same tree (text, plainness and line of every node), or it declines.
/// - Complexity: O(n) in the text's length; memory is one line's events.
struct YAMLBlockScanner {
    enum Kind {
        case streamStart, documentStart, mappingStart, mappingEnd, sequenceStart, sequenceEnd, scalar, documentEnd, streamEnd

        /// libyaml's event type for the kind.
        var eventType: yaml_event_type_t {
            switch self {
            case .streamStart: YAML_STREAM_START_EVENT
            case .documentStart: YAML_DOCUMENT_START_EVENT
            case .mappingStart: YAML_MAPPING_START_EVENT
            case .mappingEnd: YAML_MAPPING_END_EVENT
            case .sequenceStart: YAML_SEQUENCE_START_EVENT
            case .sequenceEnd: YAML_SEQUENCE_END_EVENT
            case .scalar: YAML_SCALAR_EVENT
            case .documentEnd: YAML_DOCUMENT_END_EVENT
            case .streamEnd: YAML_STREAM_END_EVENT
            }
        }
    }

    struct Event {
        var kind: Kind
        /// The 1-based line the event starts on, as libyaml gives it.
        var line: Int
        /// A scalar's bytes (inside the quotes of a quoted one).
        var start = 0
        var end = 0
        var isPlain = true
        /// A double-quoted scalar with a backslash: its text is its escapes undone.
        var isEscaped = false
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafePointer<UInt8>
    /// Where the next line starts, and its number.
    private var position = 0
    private var lineNumber = 1
    /// The open block collections, innermost last: a mapping or a sequence and its indentation.
    private var open: [(isMapping: Bool, indent: Int)] = []
    /// The line of the last key read when it had no value on its line: the next line may open
    /// its block, else its value is empty (a plain empty scalar on the key's line, as libyaml has it).
    private var pendingValue: Int?
    private var queue: [Event] = []
    private var head = 0
    private var state = State.start
    private enum State { case start, body, ended }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // An empty buffer may have no address: one that is never read stands in.
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
    }

    /// Whether the scanner reads the whole of `bytes` (a first pass: nothing is kept). `release` is
    /// told every few megabytes how far it has read.
    static func accepts(_ bytes: UnsafeBufferPointer<UInt8>, release: ((Int) -> Void)? = nil) -> Bool {
        var scanner = YAMLBlockScanner(bytes)
        var progress = ReadProgress(release: release)
        while let event = scanner.next() {
            if event.kind == .streamEnd { return true }
            progress.reached(scanner.position)
        }
        return false
    }

    /// How far the scanner has read.
    var offset: Int { position }

    /// The next event; nil where the text leaves the shape the scanner takes.
    mutating func next() -> Event? {
        while head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
            guard fill() else { return nil }
        }
        head += 1
        return queue[head - 1]
    }

    /// The text of a scalar event of the scanner over `bytes` (static: the scanner is not copied
    /// to read it).
    static func text(_ event: Event, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard event.end > event.start, let base = bytes.baseAddress.map(UnsafePointer.init) else { return "" }
        let range = UnsafeBufferPointer(start: base + event.start, count: event.end - event.start)
        guard event.isEscaped else { return String(decoding: range, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = event.start
        while index < event.end {
            let byte = base[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let (scalar, length) = Self.escape(base, at: index, end: event.end)!
            if let scalar { out.append(contentsOf: String(scalar).utf8) }
            index += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Lines

    /// Reads lines until one gives events; false to decline.
    private mutating func fill() -> Bool {
        switch state {
        case .start:
            queue.append(Event(kind: .streamStart, line: 1))
            state = .body
            return true
        case .ended:
            return false
        case .body:
            break
        }
        while position < bytes.count {
            let start = position
            let end =
                memchr(base + start, 0x0A, bytes.count - start).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base }
                ?? bytes.count
            let line = lineNumber
            position = end < bytes.count ? end + 1 : end
            lineNumber += 1
            guard Self.isClean(base, start, end) else { return false }
            var indent = start
            while indent < end, base[indent] == UInt8(ascii: " ") { indent += 1 }
            if indent == end || base[indent] == UInt8(ascii: "#") { continue }
            guard take(line: line, indent: indent - start, content: indent, end: end) else { return false }
            if head < queue.count { return true }
        }
        // The end of the text: an empty value, every block closed, the document and the stream,
        // on the line after the last (libyaml ends a last line without a line break first).
        let last = lineNumber
        if open.isEmpty {
            queue.append(Event(kind: .streamEnd, line: last))
        } else {
            if let key = pendingValue { queue.append(Event(kind: .scalar, line: key)) }
            close(to: -1, line: last)
            queue.append(Event(kind: .documentEnd, line: last))
            queue.append(Event(kind: .streamEnd, line: last))
        }
        pendingValue = nil
        state = .ended
        return true
    }

    /// Whether a line holds only characters the scanner takes: printable, no tab or carriage
    /// return, none that libyaml reads as a line break or refuses (the text is valid UTF-8).
    private static func isClean(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            let byte = base[index]
            if byte >= 0x20 && byte < 0x7F {
                index += 1
                continue
            }
            switch byte {
            case 0xC2:
                // C1 controls and NEL.
                guard index + 1 < end, base[index + 1] >= 0xA0 else { return false }
            case 0xE2:
                // U+2028, U+2029: line breaks to libyaml.
                if index + 2 < end, base[index + 1] == 0x80, base[index + 2] == 0xA8 || base[index + 2] == 0xA9 { return false }
            case 0xEF:
                // U+FEFF, U+FFFE, U+FFFF.
                if index + 2 < end, base[index + 1] == 0xBB, base[index + 2] == 0xBF { return false }
                if index + 2 < end, base[index + 1] == 0xBF, base[index + 2] >= 0xBE { return false }
            default:
                guard byte >= 0x80 else { return false }
            }
            index += 1
        }
        return true
    }

    /// One line with content: `indent` spaces, its content from `content` to `end`.
    private mutating func take(line: Int, indent: Int, content: Int, end: Int) -> Bool {
        if open.isEmpty {
            // The root: a block mapping or sequence at the first column.
            guard indent == 0 else { return false }
            queue.append(Event(kind: .documentStart, line: line))
            return opening(line: line, indent: indent, content: content, end: end)
        }
        if let key = pendingValue {
            pendingValue = nil
            if indent > open[open.count - 1].indent { return opening(line: line, indent: indent, content: content, end: end) }
            queue.append(Event(kind: .scalar, line: key))
        }
        close(to: indent, line: line)
        guard let top = open.last, top.indent == indent else { return false }
        if top.isMapping {
            guard !isEntry(content, end) else { return false }
            return keyAndValue(line: line, content: content, end: end)
        }
        guard isEntry(content, end) else { return false }
        return entry(line: line, indent: indent, content: content, end: end)
    }

    /// A block collection opened by this line: a sequence when it is an entry, else a mapping.
    private mutating func opening(line: Int, indent: Int, content: Int, end: Int) -> Bool {
        guard open.count < 100 else { return false }
        if isEntry(content, end) {
            open.append((false, indent))
            queue.append(Event(kind: .sequenceStart, line: line))
            return entry(line: line, indent: indent, content: content, end: end)
        }
        open.append((true, indent))
        queue.append(Event(kind: .mappingStart, line: line))
        return keyAndValue(line: line, content: content, end: end)
    }

    /// Closes the blocks more indented than `indent`.
    private mutating func close(to indent: Int, line: Int) {
        while let top = open.last, top.indent > indent {
            open.removeLast()
            queue.append(Event(kind: top.isMapping ? .mappingEnd : .sequenceEnd, line: line))
        }
    }

    /// `- ` (or `-` ending the line): a sequence entry.
    private func isEntry(_ content: Int, _ end: Int) -> Bool {
        base[content] == UInt8(ascii: "-") && (content + 1 == end || base[content + 1] == UInt8(ascii: " "))
    }

    /// A sequence entry: `- key: …` opens a mapping at the key's column; `- value` is a scalar or
    /// flow sequence.
    private mutating func entry(line: Int, indent: Int, content: Int, end: Int) -> Bool {
        var value = content + 1
        while value < end, base[value] == UInt8(ascii: " ") { value += 1 }
        guard value < end, base[value] != UInt8(ascii: "#"), !isEntry(value, end) else { return false }
        if keyEnd(value, end) != nil {
            guard open.count < 100 else { return false }
            open.append((true, indent + value - content))
            queue.append(Event(kind: .mappingStart, line: line))
            return keyAndValue(line: line, content: value, end: end)
        }
        return self.value(line: line, at: value, end: end)
    }

    /// Where a key (letters, digits, `_`) followed by `:` and a space or the line's end ends.
    private func keyEnd(_ start: Int, _ end: Int) -> Int? {
        var index = start
        while index < end, index - start < 128 {
            let byte = base[index]
            if byte == UInt8(ascii: ":") {
                guard index > start, index + 1 == end || base[index + 1] == UInt8(ascii: " ") else { return nil }
                return index
            }
            guard Self.isKeyByte(byte) else { return nil }
            index += 1
        }
        return nil
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// `key: value` or `key:` (the value on the lines below, or empty).
    private mutating func keyAndValue(line: Int, content: Int, end: Int) -> Bool {
        guard let colon = keyEnd(content, end) else { return false }
        queue.append(Event(kind: .scalar, line: line, start: content, end: colon))
        var value = colon + 1
        while value < end, base[value] == UInt8(ascii: " ") { value += 1 }
        if value == end || base[value] == UInt8(ascii: "#") {
            pendingValue = line
            return true
        }
        guard !isEntry(value, end) else { return false }
        return self.value(line: line, at: value, end: end)
    }

    /// A value on a line: a double-quoted scalar, a flow sequence or a plain scalar, then nothing
    /// but a comment.
    private mutating func value(line: Int, at start: Int, end: Int) -> Bool {
        let rest: Int
        switch base[start] {
        case UInt8(ascii: "\""):
            guard let (event, after) = quoted(line: line, at: start, end: end) else { return false }
            queue.append(event)
            rest = after
        case UInt8(ascii: "["):
            guard let after = flowSequence(line: line, at: start, end: end) else { return false }
            rest = after
        case UInt8(ascii: "{"):
            guard let after = flowMapping(line: line, at: start, end: end) else { return false }
            rest = after
        default:
            guard Self.startsPlain(base, start, end) else { return false }
            var index = start
            var last = start  // one past the last byte that is not a space
            while index < end {
                let byte = base[index]
                if byte == UInt8(ascii: " ") {
                    if index + 1 < end, base[index + 1] == UInt8(ascii: "#") { break }
                } else {
                    if byte == UInt8(ascii: ":"), index + 1 == end || base[index + 1] == UInt8(ascii: " ") { return false }
                    last = index + 1
                }
                index += 1
            }
            queue.append(Event(kind: .scalar, line: line, start: start, end: last))
            return true
        }
        return isComment(rest, end)
    }

    /// Nothing but spaces from `start`, or spaces and then a comment.
    private func isComment(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end, base[index] == UInt8(ascii: " ") { index += 1 }
        return index == end || (index > start && base[index] == UInt8(ascii: "#"))
    }

    /// Whether a plain scalar may start here (block context): not an indicator, but `-` before
    /// something other than a space.
    private static func startsPlain(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        switch base[start] {
        case UInt8(ascii: "-"): return start + 1 < end && base[start + 1] != UInt8(ascii: " ")
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
            return false
        default: return true
        }
    }

    /// A double-quoted scalar ending on its line; the event and where the text after it starts.
    private func quoted(line: Int, at start: Int, end: Int) -> (Event, Int)? {
        var index = start + 1
        var escaped = false
        while index < end {
            switch base[index] {
            case UInt8(ascii: "\""):
                return (Event(kind: .scalar, line: line, start: start + 1, end: index, isPlain: false, isEscaped: escaped), index + 1)
            case UInt8(ascii: "\\"):
                guard let (_, length) = Self.escape(base, at: index, end: end) else { return nil }
                escaped = true
                index += length
            default:
                index += 1
            }
        }
        return nil
    }

    /// The escape at `index` (a backslash) in a double-quoted scalar: the character it stands for
    /// and its length; nil for one libyaml refuses or one that breaks the line (`\` at its end).
    private static func escape(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> (Unicode.Scalar?, Int)? {
        guard index + 1 < end else { return nil }
        let simple: UInt32
        switch base[index + 1] {
        case UInt8(ascii: "0"): simple = 0
        case UInt8(ascii: "a"): simple = 7
        case UInt8(ascii: "b"): simple = 8
        case UInt8(ascii: "t"): simple = 9
        case UInt8(ascii: "n"): simple = 10
        case UInt8(ascii: "v"): simple = 11
        case UInt8(ascii: "f"): simple = 12
        case UInt8(ascii: "r"): simple = 13
        case UInt8(ascii: "e"): simple = 0x1B
        case UInt8(ascii: " "): simple = 0x20
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "N"): simple = 0x85
        case UInt8(ascii: "_"): simple = 0xA0
        case UInt8(ascii: "L"): simple = 0x2028
        case UInt8(ascii: "P"): simple = 0x2029
        case UInt8(ascii: "x"): return hexEscape(base, at: index, digits: 2, end: end)
        case UInt8(ascii: "u"): return hexEscape(base, at: index, digits: 4, end: end)
        case UInt8(ascii: "U"): return hexEscape(base, at: index, digits: 8, end: end)
        default: return nil
        }
        return (Unicode.Scalar(simple)!, 2)
    }

    private static func hexEscape(_ base: UnsafePointer<UInt8>, at index: Int, digits: Int, end: Int) -> (Unicode.Scalar?, Int)? {
        guard index + 2 + digits <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<digits {
            let byte = base[index + 2 + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, 2 + digits)
    }

    /// `[a, "b"]` or `[]` on one line: the sequence's events; where the text after it starts.
    private mutating func flowSequence(line: Int, at start: Int, end: Int) -> Int? {
        queue.append(Event(kind: .sequenceStart, line: line))
        guard let after = flowItems(line: line, at: start + 1, end: end, closing: UInt8(ascii: "]"), pairs: false) else { return nil }
        queue.append(Event(kind: .sequenceEnd, line: line))
        return after
    }

    /// `{key: value, key: "value"}` or `{}` on one line: the mapping's events; where the text after
    /// it starts.
    private mutating func flowMapping(line: Int, at start: Int, end: Int) -> Int? {
        queue.append(Event(kind: .mappingStart, line: line))
        guard let after = flowItems(line: line, at: start + 1, end: end, closing: UInt8(ascii: "}"), pairs: true) else { return nil }
        queue.append(Event(kind: .mappingEnd, line: line))
        return after
    }

    /// A flow collection's items from `start` to its `closing` bracket: scalars, or with `pairs`
    /// `key: scalar` pairs; where the text after the bracket starts.
    private mutating func flowItems(line: Int, at start: Int, end: Int, closing: UInt8, pairs: Bool) -> Int? {
        var index = start
        var first = true
        while true {
            while index < end, base[index] == UInt8(ascii: " ") { index += 1 }
            guard index < end else { return nil }
            if base[index] == closing {
                guard first else { return nil }  // `[a, ]`: declined
                break
            }
            if pairs {
                guard let colon = keyEnd(index, end), colon + 1 < end else { return nil }
                queue.append(Event(kind: .scalar, line: line, start: index, end: colon))
                index = colon + 1
                while index < end, base[index] == UInt8(ascii: " ") { index += 1 }
                guard index < end, base[index] != UInt8(ascii: ","), base[index] != closing else { return nil }
            }
            guard let after = flowScalar(line: line, at: index, end: end) else { return nil }
            index = after
            first = false
            while index < end, base[index] == UInt8(ascii: " ") { index += 1 }
            guard index < end else { return nil }
            if base[index] == closing { break }
            guard base[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
        return index + 1
    }

    /// A scalar inside a flow collection: double-quoted, or plain up to a `,` or a closing bracket
    /// (none of `:#[]{}` in it); where the text after it starts.
    private mutating func flowScalar(line: Int, at start: Int, end: Int) -> Int? {
        if base[start] == UInt8(ascii: "\"") {
            guard let (event, after) = quoted(line: line, at: start, end: end) else { return nil }
            queue.append(event)
            return after
        }
        guard Self.startsPlain(base, start, end) else { return nil }
        var index = start
        var last = start
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { break }
            switch byte {
            case UInt8(ascii: ":"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "{"): return nil
            case UInt8(ascii: " "): break
            default: last = index + 1
            }
            index += 1
        }
        queue.append(Event(kind: .scalar, line: line, start: start, end: last))
        return index
    }
}
