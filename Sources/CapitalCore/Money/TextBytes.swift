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

    /// Calls `body` with a cursor at the end of the text and room for at least `room` more bytes
    /// (what `Cursor`'s methods say they may need), then keeps what it wrote: a whole record can
    /// be written through one pointer.
    @inlinable
    public mutating func write(room: Int, _ body: (inout Cursor) -> Void) {
        if length + room > storage.count { grow(length + room) }
        let start = length
        length += storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = Cursor(buffer.baseAddress! + start)
            body(&cursor)
            return cursor.written
        }
    }

    /// Moves the text into storage of at least `needed` bytes (twice the old size at least), with
    /// one fill and one copy (growing by appending elements one by one is slow in debug builds).
    @usableFromInline mutating func grow(_ needed: Int) {
        var bigger = [UInt8](repeating: 0, count: max(needed, 2 * storage.count, 64))
        let length = length
        if length > 0 {
            bigger.withUnsafeMutableBufferPointer { to in
                storage.withUnsafeBufferPointer { from in to.baseAddress!.update(from: from.baseAddress!, count: length) }
            }
        }
        storage = bigger
    }

    /// Where the next byte goes, inside room a `write(room:)` made; each method says how much room
    /// it needs at most.
    public struct Cursor {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        /// How many bytes are written.
        @usableFromInline var at = 0

        /// How many bytes are written.
        public var written: Int { at }

        @usableFromInline init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

        /// One byte (room 1).
        @inlinable
        public mutating func put(_ byte: UInt8) {
            base[at] = byte
            at += 1
        }

        /// Bytes as they are (room: their count).
        @inlinable
        public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let from = bytes.baseAddress else { return }
            (base + at).update(from: from, count: bytes.count)
            at += bytes.count
        }

        /// A literal (room: its UTF-8 count).
        @inlinable
        public mutating func put(_ text: StaticString) {
            put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// A decimal integer: `-42` (room 20).
        @inlinable
        public mutating func put(integer value: Int) {
            if value < 0 { put(UInt8(ascii: "-")) }
            digits(UInt64(value.magnitude), width: 1)
        }

        /// An amount of `minor` units with `exponent` decimals, as `Money.plain` writes it:
        /// `-1234.50`, `1234` with no decimals (room 22 + exponent).
        @inlinable
        public mutating func put(amount minor: Int64, exponent: Int) {
            if minor < 0 { put(UInt8(ascii: "-")) }
            let magnitude = minor.magnitude  // UInt64: safe for Int64.min
            guard exponent > 0 else { return digits(magnitude, width: 1) }
            var divisor: UInt64 = 1
            for _ in 0..<exponent { divisor &*= 10 }
            digits(magnitude / divisor, width: 1)
            put(UInt8(ascii: "."))
            digits(magnitude % divisor, width: exponent)
        }

        /// A civil date as ISO 8601 `YYYY-MM-DD` (`-0044-03-15` before year 0) (room 66).
        @inlinable
        public mutating func put(civil: CivilDate) {
            part(civil.year, 4)
            put(UInt8(ascii: "-"))
            part(civil.month, 2)
            put(UInt8(ascii: "-"))
            part(civil.day, 2)
        }

        @inlinable
        mutating func part(_ value: Int, _ width: Int) {
            if value < 0 { put(UInt8(ascii: "-")) }
            digits(UInt64(value.magnitude), width: width)
        }

        /// The decimal digits of `value`, zero-padded to at least `width` (at most 20): two digits
        /// at a time, from a table of the pairs 00…99.
        @inlinable
        mutating func digits(_ value: UInt64, width: Int) {
            var count = 1
            var rest = value
            while rest >= 100 {
                rest /= 100
                count += 2
            }
            if rest >= 10 { count += 1 }
            let padding = max(0, min(width, 20) - count)
            for index in 0..<padding { base[at + index] = UInt8(ascii: "0") }
            let pairs = TextBytes.digitPairs.utf8Start
            var value = value
            var end = at + padding + count
            at = end
            while value >= 100 {
                let pair = Int(value % 100) &* 2
                value /= 100
                base[end - 1] = pairs[pair + 1]
                base[end - 2] = pairs[pair]
                end -= 2
            }
            if value >= 10 {
                base[end - 1] = pairs[Int(value) &* 2 + 1]
                base[end - 2] = pairs[Int(value) &* 2]
            } else {
                base[end - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            }
        }

        /// A CSV field as RFC 4180 writes it: in double quotes (its quotes doubled) when it holds a
        /// comma, a double quote, CR or LF; with `guardingFormulas` (text a person typed) a field a
        /// spreadsheet would run as a formula gets a `'` first (room 2 × count + 3).
        @inlinable
        public mutating func put(csvField field: UnsafeBufferPointer<UInt8>, guardingFormulas: Bool) {
            let guarded = guardingFormulas && field.first.map(TextBytes.startsFormula) == true
            var quoted = false
            for byte in field where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 13 || byte == 10 {
                quoted = true
                break
            }
            if quoted { put(UInt8(ascii: "\"")) }
            if guarded { put(UInt8(ascii: "'")) }
            if quoted {
                for byte in field {
                    put(byte)
                    if byte == UInt8(ascii: "\"") { put(byte) }
                }
                put(UInt8(ascii: "\""))
            } else {
                put(field)
            }
        }

        /// A JSON string in double quotes: `"` and `\` escaped, LF, CR and tab as `\n`, `\r`, `\t`,
        /// other control characters, DEL, C1 controls, U+2028, U+2029 and U+FEFF as `\uXXXX` (so
        /// that the text survives JavaScript and editors that would act on them) (room 6 × count + 2).
        public mutating func put(jsonString utf8: UnsafeBufferPointer<UInt8>) {
            put(UInt8(ascii: "\""))
            // Runs of bytes that need no escape are copied whole; only ASCII controls, `"`, `\`
            // and the lead bytes of C1 (0xC2), U+2028/9 (0xE2) and U+FEFF (0xEF) are looked at.
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var escape: UInt32?
                var letter: UInt8?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): letter = byte
                case 10: letter = UInt8(ascii: "n")
                case 13: letter = UInt8(ascii: "r")
                case 9: letter = UInt8(ascii: "t")
                case 0..<0x20, 0x7F: escape = UInt32(byte)
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escape = UInt32(utf8[index + 1])
                    width = 2
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029
                    width = 3
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBB && utf8[index + 2] == 0xBF:
                    escape = 0xFEFF
                    width = 3
                default: break
                }
                guard letter != nil || escape != nil else {
                    index += 1
                    continue
                }
                put(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                put(UInt8(ascii: "\\"))
                if let letter { put(letter) }
                if let escape {
                    // Lowercase hex, four digits, as `String(radix: 16)` pads it.
                    put(UInt8(ascii: "u"))
                    for shift in [12, 8, 4, 0] as [UInt32] {
                        let digit = UInt8((escape >> shift) & 0xF)
                        put(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
                    }
                }
                index += width
                start = index
            }
            put(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
            put(UInt8(ascii: "\""))
        }
    }

    /// Appends one byte.
    @inlinable
    public mutating func append(byte: UInt8) { write(room: 1) { $0.put(byte) } }

    /// Text as it is, in UTF-8.
    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Bytes as they are.
    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) { write(room: bytes.count) { $0.put(bytes) } }

    /// A decimal integer: `-42`.
    @inlinable
    public mutating func append(integer value: Int) { write(room: 21) { $0.put(integer: value) } }

    /// An amount of `minor` units with `exponent` decimals, as `Money.plain` writes it: `-1234.50`,
    /// `1234` with no decimals.
    /// - Complexity: O(digits), no allocation beyond the buffer's growth.
    @inlinable
    public mutating func append(amount minor: Int64, exponent: Int) { write(room: 22 + exponent) { $0.put(amount: minor, exponent: exponent) } }

    /// A day as ISO 8601 `YYYY-MM-DD` (`-0044-03-15` before year 0), as `Day.iso` writes it.
    @inlinable
    public mutating func append(day: Day) { append(civil: day.civil) }

    /// A civil date as ISO 8601 `YYYY-MM-DD`, as `CivilDate.iso` writes it.
    @inlinable
    public mutating func append(civil: CivilDate) { write(room: 66) { $0.put(civil: civil) } }

    /// "00" to "99", each pair's two digits.
    @inlinable static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// The first bytes that make a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, a tab
    /// or CR.
    @inlinable
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
        text.withUTF8 { field in write(room: 2 * field.count + 3) { $0.put(csvField: field, guardingFormulas: guardingFormulas) } }
    }

    /// A JSON string in double quotes (`Cursor.put(jsonString:)` says what is escaped).
    public mutating func append(jsonString text: String) {
        var text = text
        text.withUTF8 { utf8 in write(room: 6 * utf8.count + 2) { $0.put(jsonString: utf8) } }
    }
}
