/// Text written straight into a reusable UTF-8 byte buffer: amounts, days, integers, CSV fields and
/// JSON strings, with no `String` made per field. The one implementation of capital's plain text
/// forms (`Money.plain`, `Day.iso`, CSV quoting, JSON string quoting), so that a batch writer and
/// a one-off report write the same bytes.
///
/// ```swift
/// var text = TextBytes()
/// text.append(amount: -123_450, exponent: 2)   // -1234.50
/// text.append(byte: UInt8(ascii: ","))
/// text.append(day: Day(20_179))                // 2025-04-01
/// text.append(csvField: "=HYPERLINK(1)")       // '=HYPERLINK(1)
/// ```
public struct TextBytes: Sendable {
    /// The storage: `count` bytes of text, then room to write into without growing.
    @usableFromInline var storage: [UInt8] = []
    /// How many bytes of `storage` are text.
    @usableFromInline var length = 0

    /// How many bytes of text.
    public var count: Int { length }

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) { storage = [UInt8](repeating: 0, count: capacity) }

    /// The text so far, as bytes.
    public var bytes: ArraySlice<UInt8> { storage[..<length] }

    /// The text as a `String`.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its memory for the next batch.
    public mutating func removeAll() { length = 0 }

    /// Calls `body` with room for at least `room` more bytes, at the end of the text; `body` writes
    /// there and returns how many bytes it wrote.
    @inlinable
    public mutating func write(room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if length + room > storage.count { grow(length + room) }
        let start = length
        length += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(needed, 2 * storage.count, 256) - storage.count))
    }

    @inlinable
    public mutating func append(byte: UInt8) {
        write(room: 1) { out in
            out[0] = byte
            return 1
        }
    }

    /// Text as it is, in UTF-8.
    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Bytes as they are.
    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        write(room: bytes.count) { out in
            out.update(from: base, count: bytes.count)
            return bytes.count
        }
    }

    /// A decimal integer: `-42`.
    @inlinable
    public mutating func append(integer value: Int) {
        write(room: 21) { out in
            var at = 0
            if value < 0 {
                out[0] = UInt8(ascii: "-")
                at = 1
            }
            return at + TextBytes.digits(UInt64(value.magnitude), width: 1, into: out + at)
        }
    }

    /// An amount of `minor` units with `exponent` decimals, as `Money.plain` writes it: `-1234.50`,
    /// `1234` with no decimals.
    /// - Complexity: O(digits), no allocation beyond the buffer's growth.
    @inlinable
    public mutating func append(amount minor: Int64, exponent: Int) {
        write(room: 22 + exponent) { out in
            var at = 0
            if minor < 0 {
                out[0] = UInt8(ascii: "-")
                at = 1
            }
            let magnitude = minor.magnitude  // UInt64: safe for Int64.min
            guard exponent > 0 else { return at + TextBytes.digits(magnitude, width: 1, into: out + at) }
            var divisor: UInt64 = 1
            for _ in 0..<exponent { divisor &*= 10 }
            at += TextBytes.digits(magnitude / divisor, width: 1, into: out + at)
            out[at] = UInt8(ascii: ".")
            return at + 1 + TextBytes.digits(magnitude % divisor, width: exponent, into: out + at + 1)
        }
    }

    /// A day as ISO 8601 `YYYY-MM-DD` (`-0044-03-15` before year 0), as `Day.iso` writes it.
    @inlinable
    public mutating func append(day: Day) { append(civil: day.civil) }

    /// A civil date as ISO 8601 `YYYY-MM-DD`, as `CivilDate.iso` writes it.
    @inlinable
    public mutating func append(civil: CivilDate) {
        write(room: 66) { out in
            var at = 0
            /// One part after an optional minus sign.
            func part(_ value: Int, _ width: Int) {
                if value < 0 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                at += TextBytes.digits(UInt64(value.magnitude), width: width, into: out + at)
            }
            part(civil.year, 4)
            out[at] = UInt8(ascii: "-")
            at += 1
            part(civil.month, 2)
            out[at] = UInt8(ascii: "-")
            at += 1
            part(civil.day, 2)
            return at
        }
    }

    /// Writes the decimal digits of `value`, zero-padded to at least `width` (at most 20), at `out`;
    /// returns how many. Two digits at a time, from a table of the pairs 00…99.
    @inlinable
    static func digits(_ value: UInt64, width: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            count += 2
        }
        if rest >= 10 { count += 1 }
        let padding = max(0, min(width, 20) - count)
        for index in 0..<padding { out[index] = UInt8(ascii: "0") }
        let pairs = TextBytes.digitPairs.utf8Start
        var value = value
        var end = padding + count
        while value >= 100 {
            let pair = Int(value % 100) &* 2
            value /= 100
            out[end - 1] = pairs[pair + 1]
            out[end - 2] = pairs[pair]
            end -= 2
        }
        if value >= 10 {
            out[end - 1] = pairs[Int(value) &* 2 + 1]
            out[end - 2] = pairs[Int(value) &* 2]
        } else {
            out[end - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
        }
        return padding + count
    }

    /// "00" to "99", each pair's two digits.
    @inlinable static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// The first bytes that make a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, a tab
    /// or CR.
    public static func startsFormula(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13: return true
        default: return false
        }
    }

    /// A CSV field as RFC 4180 writes it: in double quotes (its quotes doubled) when it holds a
    /// comma, a double quote, CR or LF. With `guardingFormulas` (text a person typed) a field a
    /// spreadsheet would run as a formula gets a `'` first (CSV injection, as OWASP describes it).
    public mutating func append(csvField text: String, guardingFormulas: Bool = true) {
        var text = text
        text.withUTF8 { field in
            let guarded = guardingFormulas && field.first.map(TextBytes.startsFormula) == true
            let quoted = field.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }
            if quoted { append(byte: UInt8(ascii: "\"")) }
            if guarded { append(byte: UInt8(ascii: "'")) }
            if quoted {
                for byte in field {
                    append(byte: byte)
                    if byte == UInt8(ascii: "\"") { append(byte: byte) }
                }
                append(byte: UInt8(ascii: "\""))
            } else {
                append(bytes: field)
            }
        }
    }

    /// A JSON string in double quotes: `"` and `\` escaped, LF, CR and tab as `\n`, `\r`, `\t`,
    /// other control characters, DEL, C1 controls, U+2028, U+2029 and U+FEFF as `\uXXXX` (so that
    /// the text survives JavaScript and editors that would act on them).
    public mutating func append(jsonString text: String) {
        append(byte: UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole; only ASCII controls, `"`, `\`
            // and the lead bytes of C1 (0xC2), U+2028/9 (0xE2) and U+FEFF (0xEF) are looked at.
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escape: [UInt8]?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = [92, 34]
                case UInt8(ascii: "\\"): escape = [92, 92]
                case 10: escape = [92, UInt8(ascii: "n")]
                case 13: escape = [92, UInt8(ascii: "r")]
                case 9: escape = [92, UInt8(ascii: "t")]
                case 0..<0x20, 0x7F: escape = TextBytes.unicodeEscape(UInt32(byte))
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escape = TextBytes.unicodeEscape(UInt32(utf8[index + 1]))
                    width = 2
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = TextBytes.unicodeEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    width = 3
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBB && utf8[index + 2] == 0xBF:
                    escape = TextBytes.unicodeEscape(0xFEFF)
                    width = 3
                default: escape = nil
                }
                if let escape {
                    append(bytes: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    escape.withUnsafeBufferPointer { append(bytes: $0) }
                    index += width
                    start = index
                } else {
                    index += 1
                }
            }
            append(bytes: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// `\u00XX`-style escape of a scalar below U+10000, lowercase hex as `String(radix: 16)` writes it.
    private static func unicodeEscape(_ scalar: UInt32) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return [92, UInt8(ascii: "u")] + [12, 8, 4, 0].map { hex[Int((scalar >> $0) & 0xF)] }
    }
}
