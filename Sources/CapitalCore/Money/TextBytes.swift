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
    /// The text so far.
    public var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The text as a `String`.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the buffer, keeping its memory for the next batch.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    public mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Text as it is, in UTF-8.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A decimal integer: `-42`.
    public mutating func append(integer value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), width: 1)
    }

    /// An amount of `minor` units with `exponent` decimals, as `Money.plain` writes it: `-1234.50`,
    /// `1234` with no decimals.
    /// - Complexity: O(digits), no allocation beyond the buffer's growth.
    public mutating func append(amount minor: Int64, exponent: Int) {
        if minor < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = minor.magnitude  // UInt64: safe for Int64.min
        guard exponent > 0 else { return appendDigits(magnitude, width: 1) }
        var divisor: UInt64 = 1
        for _ in 0..<exponent { divisor &*= 10 }
        appendDigits(magnitude / divisor, width: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(magnitude % divisor, width: exponent)
    }

    /// A day as ISO 8601 `YYYY-MM-DD` (`-0044-03-15` before year 0), as `Day.iso` writes it.
    public mutating func append(day: Day) { append(civil: day.civil) }

    /// A civil date as ISO 8601 `YYYY-MM-DD`, as `CivilDate.iso` writes it.
    public mutating func append(civil: CivilDate) {
        if civil.year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(civil.year.magnitude), width: 4)
        bytes.append(UInt8(ascii: "-"))
        if civil.month < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(civil.month.magnitude), width: 2)
        bytes.append(UInt8(ascii: "-"))
        if civil.day < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(civil.day.magnitude), width: 2)
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
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            if guarded { bytes.append(UInt8(ascii: "'")) }
            if quoted {
                for byte in field {
                    bytes.append(byte)
                    if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                }
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes.append(contentsOf: field)
            }
        }
    }

    /// A JSON string in double quotes: `"` and `\` escaped, LF, CR and tab as `\n`, `\r`, `\t`,
    /// other control characters, DEL, C1 controls, U+2028, U+2029 and U+FEFF as `\uXXXX` (so that
    /// the text survives JavaScript and editors that would act on them).
    public mutating func append(jsonString text: String) {
        bytes.append(UInt8(ascii: "\""))
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
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    bytes.append(contentsOf: escape)
                    index += width
                    start = index
                } else {
                    index += 1
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u00XX`-style escape of a scalar below U+10000, lowercase hex as `String(radix: 16)` writes it.
    private static func unicodeEscape(_ scalar: UInt32) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return [92, UInt8(ascii: "u")] + [12, 8, 4, 0].map { hex[Int((scalar >> $0) & 0xF)] }
    }

    /// The decimal digits of `value`, zero-padded to at least `width`.
    private mutating func appendDigits(_ value: UInt64, width: Int) {
        // 20 digits hold UInt64.max.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var value = value
            var count = 0
            repeat {
                scratch[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            while count < width && count < 20 {
                scratch[19 - count] = UInt8(ascii: "0")
                count += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[(20 - count)...]))
        }
    }
}
