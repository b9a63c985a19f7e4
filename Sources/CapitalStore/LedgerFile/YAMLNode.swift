import CYaml

/// A node of a ledger file (YAML, or JSON read as YAML) as the reader reads it: every scalar as
/// text (capital parses its own numbers and dates), a mapping's pairs in file order, each node with
/// the line it starts on. An alias stands for a copy of its anchor's node.
enum YAMLNode {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(List)

    struct Scalar {
        var string: String
        /// Written without quotes or block indicators: only such a scalar can mean null.
        var isPlain: Bool
        var line: Int
    }

    struct Mapping {
        var pairs: [Pair]
        var line: Int
    }

    struct Pair {
        var key: YAMLNode
        var value: YAMLNode
    }

    struct List {
        var items: [YAMLNode]
        var line: Int
    }

    /// The 1-based line the node starts on.
    var line: Int {
        switch self {
        case .scalar(let scalar): scalar.line
        case .mapping(let mapping): mapping.line
        case .sequence(let sequence): sequence.line
        }
    }

    /// A mapping's entries by text key, looked up by a walk: a ledger file's mappings have a handful
    /// of keys, for which a walk costs less than hashing.
    struct Fields {
        var pairs: [(key: String, value: YAMLNode)] = []

        subscript(key: String) -> YAMLNode? {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
    }
}

/// libyaml's events over a text, composed into `YAMLNode`s one node at a time, so that a reader can
/// take a long list item by item instead of holding the whole file's tree. A text in the plain
/// block shape capital writes is read by `YAMLBlockScanner` instead, which gives the same events
/// several times faster.
///
/// Syntax errors are `LedgerFileError`s at `file:LINE: syntax`, worded as libyaml words them.
/// - Complexity: O(n) in the text's length; memory is the node being composed plus anchored nodes.
final class YAMLEvents {
    private var parser = yaml_parser_t()
    private var event = yaml_event_t()
    private var anchors: [String: YAMLNode] = [:]
    private let file: String
    /// "YAML" or "JSON", for messages.
    private let language: String
    /// The text, for a reader error's line.
    private let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the fast reader reads the text; the reader, its current event and how far it has
    /// read, held behind a pointer: a class's stored variable pays a dynamic exclusivity check on
    /// each change (2 % of reading a large file, one change or more per event), memory a pointer
    /// holds does not. Only this object reaches them, on one thread at a time.
    let isBlock: Bool
    private let state: UnsafeMutablePointer<BlockState>

    private struct BlockState {
        var scanner: YAMLBlockScanner
        var event = YAMLBlockScanner.Event(kind: .streamStart, line: 1)
        var progress = ReadProgress(release: nil)
    }

    private var blockEvent: YAMLBlockScanner.Event { state.pointee.event }

    private init(bytes: UnsafeBufferPointer<UInt8>, file: String, language: String, block: Bool) {
        self.bytes = bytes
        self.file = file
        self.language = language
        isBlock = block
        state = .allocate(capacity: 1)
        state.initialize(to: BlockState(scanner: YAMLBlockScanner(bytes)))
        yaml_parser_initialize(&parser)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
    }

    deinit {
        yaml_event_delete(&event)
        yaml_parser_delete(&parser)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` over the events of the UTF-8 text in `bytes`; the events must not escape it.
    /// `release`, when given, is told every few megabytes how far the bytes have been read (libyaml
    /// copies what it reads into a buffer of its own), so that what lies before may be let go.
    /// `block`: whether `YAMLBlockScanner` takes the text, when the caller has asked it (else it is
    /// asked here, in a first pass over the text).
    static func reading<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, language: String, release: ((Int) -> Void)? = nil, block: Bool? = nil,
        _ body: (YAMLEvents) throws(LedgerFileError) -> T
    ) throws(LedgerFileError) -> T {
        let block = block ?? (language == "YAML" && YAMLBlockScanner.accepts(bytes))
        let events = YAMLEvents(bytes: bytes, file: file, language: language, block: block)
        events.state.pointee.progress = ReadProgress(release: release)
        return try body(events)
    }

    /// The type of the current event.
    var type: yaml_event_type_t { isBlock ? blockEvent.kind.eventType : event.type }

    /// Moves to the next event.
    func advance() throws(LedgerFileError) {
        if isBlock {
            // The first pass took the whole text: there is a next event.
            guard let next = state.pointee.scanner.next() else { preconditionFailure("YAMLBlockScanner declined a text it had taken") }
            state.pointee.event = next
            state.pointee.progress.reached(state.pointee.scanner.offset)
            return
        }
        yaml_event_delete(&event)
        guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError() }
        if let start = parser.input.string.start, let current = parser.input.string.current { state.pointee.progress.reached(current - start) }
    }

    /// Moves past the stream's and the document's start to the root node's first event; false when
    /// the stream holds no document.
    func root() throws(LedgerFileError) -> Bool {
        try advance()  // the stream's start
        try advance()
        guard type == YAML_DOCUMENT_START_EVENT else { return false }
        try advance()
        return true
    }

    /// After the root node: the document's end, and no second document.
    func finish() throws(LedgerFileError) {
        try advance()  // the document's end
        try advance()
        guard type == YAML_STREAM_END_EVENT else {
            throw fail(line(event.start_mark), "expected a single document in the stream but found another document")
        }
    }

    /// The line of the current event.
    var line: Int { isBlock ? blockEvent.line : line(event.start_mark) }

    /// The whole node starting at the current event; the current event is then its last.
    func node() throws(LedgerFileError) -> YAMLNode {
        switch type {
        case YAML_SCALAR_EVENT where isBlock:
            return .scalar(.init(string: YAMLBlockScanner.text(blockEvent, in: bytes), isPlain: blockEvent.isPlain, line: blockEvent.line))
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let node = YAMLNode.scalar(
                .init(
                    string: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
                    isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, line: line))
            anchor(scalar.anchor, node)
            return node
        case YAML_ALIAS_EVENT:
            guard let name = event.data.alias.anchor.map({ String(cString: $0) }), let node = anchors[name] else {
                throw fail(line, "found undefined alias")
            }
            return node
        case YAML_SEQUENCE_START_EVENT:
            let anchor = isBlock ? nil : name(event.data.sequence_start.anchor)
            var sequence = YAMLNode.List(items: [], line: line)
            try items { (node) throws(LedgerFileError) in sequence.items.append(node) }
            let node = YAMLNode.sequence(sequence)
            if let anchor { anchors[anchor] = node }
            return node
        case YAML_MAPPING_START_EVENT:
            let anchor = isBlock ? nil : name(event.data.mapping_start.anchor)
            var mapping = YAMLNode.Mapping(pairs: [], line: line)
            try pairs { (key, value) throws(LedgerFileError) in mapping.pairs.append(.init(key: key, value: try value())) }
            let node = YAMLNode.mapping(mapping)
            if let anchor { anchors[anchor] = node }
            return node
        default:
            throw fail(line, "unexpected event \(type.rawValue)")
        }
    }

    /// Each item of the sequence starting at the current event, composed and handed over one at a
    /// time; the current event is then the sequence's end.
    func items(_ each: (YAMLNode) throws(LedgerFileError) -> Void) throws(LedgerFileError) {
        while true {
            try advance()
            if type == YAML_SEQUENCE_END_EVENT { return }
            try each(try node())
        }
    }

    /// Each pair of the mapping starting at the current event: its key composed, its value left
    /// for `each` to compose (`value()`) or to take apart itself from the current event (which is
    /// then the value's first). The current event is then the mapping's end. Keys that appear
    /// twice are refused as libyaml-based readers refuse them.
    func pairs(_ each: (YAMLNode, _ value: () throws(LedgerFileError) -> YAMLNode) throws(LedgerFileError) -> Void) throws(LedgerFileError) {
        var keys: [(text: String, line: Int)] = []
        var duplicates: [(text: String, line: Int)] = []
        while true {
            try advance()
            if type == YAML_MAPPING_END_EVENT { break }
            let key = try node()
            if case .scalar(let scalar) = key {
                if keys.contains(where: { $0.text == scalar.string }) {
                    if !duplicates.contains(where: { $0.text == scalar.string }) { duplicates.append((scalar.string, scalar.line)) }
                } else {
                    keys.append((scalar.string, scalar.line))
                }
            }
            try advance()
            try each(key) { () throws(LedgerFileError) in try node() }
        }
        if !duplicates.isEmpty {
            let sorted = duplicates.sorted { $0.text < $1.text }
            throw fail(
                keys.first { $0.text == sorted[0].text }?.line, "duplicate keys \(sorted.map(\.text).joined(separator: ", "))")
        }
    }

    private func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: $0) }
    }

    private func anchor(_ anchor: UnsafeMutablePointer<yaml_char_t>?, _ node: YAMLNode) {
        if let anchor { anchors[String(cString: anchor)] = node }
    }

    private func line(_ mark: yaml_mark_t) -> Int { Int(mark.line) + 1 }

    private func fail(_ line: Int?, _ problem: String) -> LedgerFileError {
        LedgerFileError(FileLocation(file: file, line: line, path: "syntax"), "not valid \(language): \(problem)")
    }

    /// libyaml's error, in its own words (its depth limit's words name its C API: said plainly).
    private func syntaxError() -> LedgerFileError {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return fail(nil, "out of memory")
        case YAML_READER_ERROR:
            let offset = min(parser.problem_offset, bytes.count)
            return fail(1 + bytes[..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, problem)
        default:
            if problem.hasPrefix("Maximum nesting level") {
                return fail(line(parser.problem_mark), "lists and mappings nest more than 1000 levels deep")
            }
            let context = parser.context.map { String(cString: $0) } ?? ""
            return fail(line(parser.problem_mark), [context, problem].filter { !$0.isEmpty }.joined(separator: " "))
        }
    }
}

/// How far a reader has read its bytes, told to `release` every few megabytes so that what lies
/// before may be let go.
struct ReadProgress {
    let release: ((Int) -> Void)?
    private var releasedAt = 0
    private static let every = 4 << 20

    init(release: ((Int) -> Void)?) { self.release = release }

    mutating func reached(_ offset: Int) {
        guard let release, offset - releasedAt >= Self.every else { return }
        releasedAt = offset
        release(offset)
    }
}
