/// Reads a snapshot's JSON (`SyncWire.Snapshot`: `{"head": N, "entries": [[7 strings or the
/// last null], …]}`) entry by entry, straight from its bytes: a join's 100 000 entries never
/// become a tree of JSON values. Strict: whitespace anywhere JSON allows it, the two keys in any
/// order, each once, nothing else; strings with every JSON escape, valid UTF-8.
struct SnapshotReader {
    /// Why the bytes are not a snapshot.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Calls `entry` with each entry in order; returns the head.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, entry: (SnapshotEntry) throws -> Void) throws -> Int64 {
        var reader = SnapshotReader(bytes)
        var head: Int64?
        var sawEntries = false
        try reader.expect(UInt8(ascii: "{"))
        repeat {
            switch try reader.string() {
            case "head" where head == nil:
                try reader.expect(UInt8(ascii: ":"))
                head = try reader.integer()
            case "entries" where !sawEntries:
                try reader.expect(UInt8(ascii: ":"))
                sawEntries = true
                try reader.expect(UInt8(ascii: "["))
                if try !reader.skip(UInt8(ascii: "]")) {
                    repeat { try entry(try reader.entry()) } while try reader.skip(UInt8(ascii: ","))
                    try reader.expect(UInt8(ascii: "]"))
                }
            case let key: throw Malformed(description: "the key \"\(key)\" is not head or entries, or comes twice")
            }
        } while try reader.skip(UInt8(ascii: ","))
        try reader.expect(UInt8(ascii: "}"))
        reader.whitespace()
        guard reader.at == bytes.count else { throw Malformed(description: "something follows the snapshot at byte \(reader.at)") }
        guard let head, sawEntries else { throw Malformed(description: "it needs a head and entries") }
        return head
    }

    private mutating func entry() throws -> SnapshotEntry {
        try expect(UInt8(ascii: "["))
        var fields: [String] = []
        for _ in 0..<6 {
            fields.append(try string())
            try expect(UInt8(ascii: ","))
        }
        let base = try skipNull() ? nil : try string()
        try expect(UInt8(ascii: "]"))
        return SnapshotEntry(
            entity: fields[0], record: fields[1], group: fields[2], value: fields[3], hlc: fields[4], device: fields[5], base: base)
    }

    // MARK: Tokens

    private mutating func whitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    private func malformed(_ what: String) -> Malformed {
        Malformed(description: "\(what) at byte \(at)")
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard try skip(byte) else { throw malformed("expected \(Character(Unicode.Scalar(byte)))") }
    }

    /// Skips `byte` (after whitespace) when it is next.
    private mutating func skip(_ byte: UInt8) throws -> Bool {
        whitespace()
        guard at < bytes.count else { throw malformed("the snapshot ends early") }
        guard bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipNull() throws -> Bool {
        whitespace()
        guard bytes.count - at >= 4, Array(bytes[at..<at + 4]) == Array("null".utf8) else { return false }
        at += 4
        return true
    }

    private mutating func integer() throws -> Int64 {
        whitespace()
        let start = at
        if at < bytes.count && bytes[at] == UInt8(ascii: "-") { at += 1 }
        while at < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
        guard let value = Int64(String(decoding: bytes[start..<at], as: UTF8.self)) else { throw malformed("expected a whole number") }
        return value
    }

    /// A JSON string: bytes up to the closing quote, copied in one piece when they hold no escape.
    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count && bytes[at] != UInt8(ascii: "\"") && bytes[at] != UInt8(ascii: "\\") && bytes[at] >= 0x20 { at += 1 }
        guard at < bytes.count else { throw malformed("a string does not end") }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return try text(bytes[start..<at - 1])
        }
        var unescaped = Array(bytes[start..<at])
        while true {
            guard at < bytes.count else { throw malformed("a string does not end") }
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return try text(unescaped[...])
            case UInt8(ascii: "\\"): try escape(into: &unescaped)
            case ..<0x20: throw malformed("a control character in a string")
            default: unescaped.append(byte)
            }
        }
    }

    private func text(_ utf8: some Collection<UInt8>) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw malformed("a string is not UTF-8") }
        return text
    }

    private mutating func escape(into unescaped: inout [UInt8]) throws {
        guard at < bytes.count else { throw malformed("a string does not end") }
        let byte = bytes[at]
        at += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"): try unicode(into: &unescaped)
        default: throw malformed("an unknown escape")
        }
    }

    /// A `\u` escape's character (a surrogate pair's two escapes making one).
    private mutating func unicode(into unescaped: inout [UInt8]) throws {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw malformed("half a surrogate pair")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw malformed("half a surrogate pair") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let character = Unicode.Scalar(scalar) else { throw malformed("half a surrogate pair") }
        unescaped.append(contentsOf: Array(String(Character(character)).utf8))
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - at >= 4, bytes[at..<at + 4].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
            let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
        else {
            throw malformed("a \\u escape needs four hexadecimal digits")
        }
        at += 4
        return value
    }
}
