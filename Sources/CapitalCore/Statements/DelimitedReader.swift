/// One record of a delimited (CSV) file: its fields, and the line of the file where it starts.
public struct DelimitedRecord: Sendable, Equatable {
    /// The 1-based line where the record starts (a quoted line break makes a record span lines).
    public var line: Int
    /// The fields, unquoted, in file order; spaces around unquoted fields are kept.
    public var fields: [String]

    /// A record as given.
    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// Reads RFC 4180 delimited text one record at a time, over the text's UTF-8 bytes.
///
/// CRLF, LF and a lone CR end lines; blank lines (empty, or only spaces and tabs that are not the
/// separator) are skipped. A field that starts with `"` (after spaces, which are then dropped) is quoted:
/// it may hold separators, doubled quotes (`""` is `"`) and line breaks, and spaces may follow its closing
/// quote. A `"` inside an unquoted field is kept as it is.
/// ```swift
/// var reader = DelimitedReader(text: "date;amount\n2025-03-01;\"1 234,50\"\n", separator: UInt8(ascii: ";"))
/// try reader.next()   // line 1: ["date", "amount"]
/// try reader.next()   // line 2: ["2025-03-01", "1 234,50"]
/// try reader.next()   // nil
/// ```
/// - Complexity: each call O(n) in the bytes of the record it reads; a whole file O(n).
public struct DelimitedReader: Sendable {
    private let bytes: [UInt8]
    private let separator: UInt8
    private let maxRecordBytes: Int
    private var position = 0
    private var line = 1
    private var fieldCount = 8
    private var scratch: [UInt8] = []

    /// A reader of `text` whose fields are split by `separator` (`,` `;` TAB `|` …, any ASCII byte but a quote or
    /// a line break). A record longer than `maxRecordBytes` bytes is an error, which bounds the work a
    /// damaged file (an unclosed quote, a binary file) can cause.
    public init(text: String, separator: UInt8 = UInt8(ascii: ","), maxRecordBytes: Int = 1 << 20) {
        precondition(separator < 0x80 && separator != 0x22 && separator != 0x0A && separator != 0x0D, "an ASCII separator")
        precondition(maxRecordBytes > 0, "a positive record limit")
        self.bytes = Array(text.utf8)
        self.separator = separator
        self.maxRecordBytes = maxRecordBytes
    }

    /// The next record, nil at the end of the text.
    /// - Throws: `StatementError` at the record's line for a record longer than `maxRecordBytes`, at the line of
    ///   the opening quote for a quoted field never closed, and for text after a closing quote (`"ab"c`).
    ///   After an error the reader is at the end.
    public mutating func next() throws(StatementError) -> DelimitedRecord? {
        var cursor = Cursor(
            position: position, line: line, separator: separator, maxRecordBytes: maxRecordBytes, fieldCount: fieldCount,
            scratch: scratch)
        defer {
            position = cursor.position
            line = cursor.line
            fieldCount = cursor.fieldCount
            scratch = cursor.scratch
        }
        let result: Result<DelimitedRecord?, StatementError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(StatementError) in try cursor.record(in: buffer) }
        }
        if case .failure = result { cursor.position = bytes.count }
        return try result.get()
    }
}

extension DelimitedReader {
    /// The reading state of a `DelimitedReader`, apart from its bytes (so that the bytes can be read through a
    /// pointer while the state changes).
    fileprivate struct Cursor {
        var position: Int
        var line: Int
        let separator: UInt8
        let maxRecordBytes: Int
        var fieldCount: Int
        var scratch: [UInt8]

        private static let quote = UInt8(ascii: "\"")
        private static let lf: UInt8 = 0x0A
        private static let cr: UInt8 = 0x0D

        private func isBlank(_ byte: UInt8) -> Bool { (byte == 0x20 || byte == 0x09) && byte != separator }

        mutating func record(in bytes: UnsafeBufferPointer<UInt8>) throws(StatementError) -> DelimitedRecord? {
            let count = bytes.count
            // Skip blank lines.
            while true {
                var index = position
                while index < count && isBlank(bytes[index]) { index += 1 }
                if index == count {
                    position = count
                    return nil
                }
                guard bytes[index] == Self.lf || bytes[index] == Self.cr else { break }
                position = index + (bytes[index] == Self.cr && index + 1 < count && bytes[index + 1] == Self.lf ? 2 : 1)
                line += 1
            }
            let start = position
            let startLine = line
            let limit = min(count, start + maxRecordBytes + 1)  // scanning stops here: one byte past the limit is enough
            var fields: [String] = []
            fields.reserveCapacity(fieldCount)
            var index = start
            while true {
                let fieldStart = index
                var open = index
                while open < limit && bytes[open] == 0x20 && separator != 0x20 { open += 1 }
                if open < limit && bytes[open] == Self.quote {
                    let openLine = line
                    index = open + 1
                    var segment = index
                    var contiguous = true  // no doubled quote yet: the field is one slice of the input
                    scratch.removeAll(keepingCapacity: true)
                    while true {
                        while index < limit {
                            let byte = bytes[index]
                            if byte == Self.quote || byte == Self.lf || byte == Self.cr { break }
                            index += 1
                        }
                        guard index < limit else {
                            if index == count { throw StatementError(line: openLine, "a quoted field opened here is never closed") }
                            throw tooLong(bytes, start: start, startLine: startLine)
                        }
                        let byte = bytes[index]
                        if byte == Self.quote {
                            if index + 1 < limit && bytes[index + 1] == Self.quote {
                                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment...index]))
                                contiguous = false
                                index += 2
                                segment = index
                                continue
                            }
                            break
                        }
                        // A line break inside the quotes.
                        index += byte == Self.cr && index + 1 < count && bytes[index + 1] == Self.lf ? 2 : 1
                        line += 1
                    }
                    if contiguous {
                        fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[segment..<index]), as: UTF8.self))
                    } else {
                        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment..<index]))
                        fields.append(String(decoding: scratch, as: UTF8.self))
                    }
                    index += 1
                    while index < limit && bytes[index] == 0x20 && separator != 0x20 { index += 1 }
                    if index < count && bytes[index] != separator && bytes[index] != Self.lf && bytes[index] != Self.cr {
                        if index >= limit { throw tooLong(bytes, start: start, startLine: startLine) }
                        var end = index + 1
                        while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
                        throw StatementError(line: line, "text after a closing quote: '\(excerpt(bytes, from: open, to: end))'")
                    }
                } else {
                    while index < limit {
                        let byte = bytes[index]
                        if byte == separator || byte == Self.lf || byte == Self.cr { break }
                        index += 1
                    }
                    if index == limit && limit < count { throw tooLong(bytes, start: start, startLine: startLine) }
                    fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[fieldStart..<index]), as: UTF8.self))
                }
                if index - start > maxRecordBytes { throw tooLong(bytes, start: start, startLine: startLine) }
                if index < count && bytes[index] == separator {
                    index += 1
                    continue
                }
                if index < count {  // a line break
                    index += bytes[index] == Self.cr && index + 1 < count && bytes[index + 1] == Self.lf ? 2 : 1
                    line += 1
                }
                break
            }
            position = index
            fieldCount = fields.count
            return DelimitedRecord(line: startLine, fields: fields)
        }

        private func tooLong(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, startLine: Int) -> StatementError {
            let size: String
            if maxRecordBytes % (1 << 20) == 0 {
                size = "\(maxRecordBytes >> 20) MB"
            } else if maxRecordBytes % (1 << 10) == 0 {
                size = "\(maxRecordBytes >> 10) KB"
            } else {
                size = "\(maxRecordBytes) bytes"
            }
            return StatementError(line: startLine, "a record of more than \(size): '\(excerpt(bytes, from: start, to: bytes.count))…'")
        }

        /// The text of `start..<end`, at most its first line and about 40 bytes of it, cut on a character boundary.
        private func excerpt(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
            var stop = start
            while stop < end && stop - start < 40 && bytes[stop] != Self.lf && bytes[stop] != Self.cr { stop += 1 }
            while stop < end && stop > start && bytes[stop] & 0xC0 == 0x80 { stop -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
        }
    }
}
