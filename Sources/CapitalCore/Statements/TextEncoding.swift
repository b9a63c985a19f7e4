/// The encodings bank statements come in.
///
/// ```swift
/// TextEncoding(name: "CP1251")                                    // .windows1251
/// try TextEncoding.decode([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], declared: nil)
///                                                                 // ("Привет", .windows1251)
/// ```
public enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8, with or without a byte order mark: what current banks and spreadsheets export.
    case utf8 = "utf-8"
    /// Windows-1251 (CP1251), Cyrillic: older Russian, Ukrainian and Belarusian bank exports.
    case windows1251 = "windows-1251"
    /// Windows-1252 (CP1252), Western European, read also for Latin-1.
    case windows1252 = "windows-1252"

    /// The encoding a user names: `utf-8`/`utf8`; `windows-1251`/`cp1251`/`1251`;
    /// `windows-1252`/`cp1252`/`1252`/`latin1`/`latin-1`/`iso-8859-1` (ASCII case ignored, surrounding spaces too);
    /// nil for any other name. Latin-1 is read as Windows-1252, its superset in practice (as WHATWG does).
    public init?(name: String) {
        var key: [UInt8] = []
        for byte in name.utf8 where byte != 0x20 && byte != 0x09 {
            key.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        switch String(decoding: key, as: UTF8.self) {
        case "utf-8", "utf8": self = .utf8
        case "windows-1251", "windows1251", "cp1251", "1251": self = .windows1251
        case "windows-1252", "windows1252", "cp1252", "1252", "latin1", "latin-1", "iso-8859-1", "iso8859-1": self = .windows1252
        default: return nil
        }
    }

    /// Decodes the bytes of a statement file to text.
    ///
    /// A leading UTF-8 byte order mark is dropped. With `declared` nil the encoding is detected:
    /// - Bytes that are valid UTF-8 are UTF-8 (pure ASCII included).
    /// - Otherwise the text is Windows-1251 when it looks Cyrillic, else Windows-1252. Both code pages put
    ///   letters at 0xC0–0xFF, so the byte range alone cannot tell them apart; how the letters sit can.
    ///   Russian words are runs of such bytes (`Оплата` is six in a row), while an accented Latin letter
    ///   sits between ASCII letters (`Gebühr`, `café`, `año`). The text is Windows-1251 when letters (0xC0–0xFF,
    ///   and Ё/ё at 0xA8/0xB8) are at least half of its non-ASCII bytes *and* pairs of adjacent such letters
    ///   outnumber the places where such a letter touches an ASCII letter.
    ///
    /// With `declared` set, that encoding is used; a UTF-8 byte order mark contradicts a declared Windows
    /// code page and is an error. Bytes a code page leaves undefined (0x98 in 1251; 0x81, 0x8D, 0x8F, 0x90
    /// and 0x9D in 1252) decode to U+FFFD, as Python's `errors='replace'` does: a stray byte shows in the
    /// text rather than refusing a whole statement.
    /// - Throws: `StatementError` naming the line and byte offset of the first byte that is not UTF-8
    ///   when `declared` is `.utf8` (or a byte order mark says UTF-8).
    /// - Complexity: O(n); about a millisecond per megabyte.
    public static func decode(_ bytes: some Collection<UInt8>, declared: TextEncoding?) throws(StatementError) -> (
        text: String, encoding: TextEncoding
    ) {
        let result: Result<(text: String, encoding: TextEncoding), StatementError>? = bytes.withContiguousStorageIfAvailable {
            buffer in Result { () throws(StatementError) in try decode(buffer: buffer, declared: declared) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { (buffer) throws(StatementError) in try decode(buffer: buffer, declared: declared) }
    }

    private static func decode(buffer whole: UnsafeBufferPointer<UInt8>, declared: TextEncoding?) throws(StatementError) -> (
        text: String, encoding: TextEncoding
    ) {
        let hasBOM = whole.count >= 3 && whole[0] == 0xEF && whole[1] == 0xBB && whole[2] == 0xBF
        let bytes = UnsafeBufferPointer(rebasing: whole[(hasBOM ? 3 : 0)...])
        let encoding: TextEncoding
        switch declared {
        case .utf8?:
            encoding = .utf8
        case let page?:
            if hasBOM { throw StatementError(line: 1, "the file starts with a UTF-8 byte order mark, so it is not \(page.rawValue) text") }
            encoding = page
        case nil:
            if hasBOM {
                encoding = .utf8
            } else if let text = String(validating: bytes, as: UTF8.self) {
                return (text, .utf8)
            } else {
                encoding = looksCyrillic(bytes) ? .windows1251 : .windows1252
            }
        }
        switch encoding {
        case .utf8:
            // The standard library's validation is the fast one; ours finds where the text goes wrong.
            if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8) }
            let offset = firstInvalidUTF8(bytes) ?? 0
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            throw StatementError(
                line: lineNumber(of: offset, in: bytes),
                "byte 0x\(byte.count == 1 ? "0" : "")\(byte) at offset \(offset + (hasBOM ? 3 : 0)) is not UTF-8 text")
        case .windows1251:
            return (windows1251Table.withUnsafeBufferPointer { decodeSingleByte(bytes, table: $0) }, .windows1251)
        case .windows1252:
            return (windows1252Table.withUnsafeBufferPointer { decodeSingleByte(bytes, table: $0) }, .windows1252)
        }
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence, nil when there is none.
    public static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time.
            while index + 8 <= count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return index }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// The 1-based line of the byte at `offset`: CRLF, LF and a lone CR end lines.
    private static func lineNumber(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        var index = 0
        while index < offset {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) { line += 1 }
            index += 1
        }
        return line
    }

    /// Whether single-byte text reads as Windows-1251 Cyrillic rather than Windows-1252 Latin (see `decode`).
    private static func looksCyrillic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Each byte's class: 0 other ASCII, 1 ASCII letter, 2 a Cyrillic letter in 1251, 3 other non-ASCII.
        var classes = [UInt8](repeating: 0, count: 256)
        for byte in 0x41...0x5A { classes[byte] = 1; classes[byte + 0x20] = 1 }
        for byte in 0x80...0xFF { classes[byte] = byte >= 0xC0 || byte == 0xA8 || byte == 0xB8 ? 2 : 3 }
        // Counts indexed by (previous class) * 4 + (class).
        var pairs = [Int](repeating: 0, count: 16)
        classes.withUnsafeBufferPointer { classes in
            pairs.withUnsafeMutableBufferPointer { pairs in
                var previous = 0
                for byte in bytes {
                    let current = Int(classes[Int(byte)])
                    pairs[previous &* 4 &+ current] &+= 1
                    previous = current
                }
            }
        }
        let letters = (0..<4).reduce(0) { $0 + pairs[$1 * 4 + 2] }
        let nonASCII = letters + (0..<4).reduce(0) { $0 + pairs[$1 * 4 + 3] }
        let letterPairs = pairs[2 * 4 + 2]
        let touchingASCII = pairs[1 * 4 + 2] + pairs[2 * 4 + 1]
        return letters * 2 >= nonASCII && letterPairs > touchingASCII
    }

    /// Single-byte text as a `String`: ASCII as it is, 0x80–0xFF through `table`, written as UTF-8 straight
    /// into the string's storage after a first pass that measures it.
    private static func decodeSingleByte(_ bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt16>) -> String {
        // Each byte's UTF-8 form: its length in the low byte, then up to three bytes.
        var forms = [UInt32](repeating: 0, count: 256)
        for byte in 0..<0x80 { forms[byte] = UInt32(byte) << 8 | 1 }
        for byte in 0x80..<0x100 {
            let scalar = UInt32(table[byte - 0x80])
            if scalar < 0x800 {
                forms[byte] = (0xC0 | scalar >> 6) << 8 | (0x80 | scalar & 0x3F) << 16 | 2
            } else {
                forms[byte] = (0xE0 | scalar >> 12) << 8 | (0x80 | scalar >> 6 & 0x3F) << 16 | (0x80 | scalar & 0x3F) << 24 | 3
            }
        }
        return forms.withUnsafeBufferPointer { forms in
            var length = 0
            for byte in bytes { length &+= Int(forms[Int(byte)] & 0xFF) }
            guard length > 0 else { return "" }
            // Each byte's form is stored as four bytes and the pointer moved on by its length: three bytes of room past the end.
            return String(unsafeUninitializedCapacity: length + 3) { out in
                var at = UnsafeMutableRawPointer(out.baseAddress!)
                for byte in bytes {
                    let form = forms[Int(byte)]
                    at.storeBytes(of: (form >> 8).littleEndian, as: UInt32.self)
                    at += Int(form & 0xFF)
                }
                return at - UnsafeMutableRawPointer(out.baseAddress!)
            }
        }
    }

    // Generated by Scripts/codepage-tables.py from Python's codecs; do not edit by hand.

    /// Bytes 0x80-0xFF of cp1251 (Python's codec; undefined bytes are U+FFFD).
    private static let windows1251Table: [UInt16] = [
        0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
        0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
        0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
        0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
        0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417, 0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F,
        0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427, 0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
        0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, 0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F,
        0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447, 0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F,
    ]

    /// Bytes 0x80-0xFF of cp1252 (Python's codec; undefined bytes are U+FFFD).
    private static let windows1252Table: [UInt16] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
        0x00A0, 0x00A1, 0x00A2, 0x00A3, 0x00A4, 0x00A5, 0x00A6, 0x00A7, 0x00A8, 0x00A9, 0x00AA, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x00AF,
        0x00B0, 0x00B1, 0x00B2, 0x00B3, 0x00B4, 0x00B5, 0x00B6, 0x00B7, 0x00B8, 0x00B9, 0x00BA, 0x00BB, 0x00BC, 0x00BD, 0x00BE, 0x00BF,
        0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C6, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D7, 0x00D8, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00DF,
        0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E6, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB, 0x00EC, 0x00ED, 0x00EE, 0x00EF,
        0x00F0, 0x00F1, 0x00F2, 0x00F3, 0x00F4, 0x00F5, 0x00F6, 0x00F7, 0x00F8, 0x00F9, 0x00FA, 0x00FB, 0x00FC, 0x00FD, 0x00FE, 0x00FF,
    ]
}
