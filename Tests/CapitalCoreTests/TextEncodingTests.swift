import CapitalCore
import Testing

@Suite("Text encodings of statements")
struct TextEncodingTests {
    @Test(
        "reads the names users give encodings",
        arguments: [
            ("utf-8", TextEncoding.utf8), ("UTF8", .utf8), (" utf-8 ", .utf8),
            ("windows-1251", .windows1251), ("CP1251", .windows1251), ("1251", .windows1251), ("Windows1251", .windows1251),
            ("windows-1252", .windows1252), ("cp1252", .windows1252), ("1252", .windows1252), ("latin1", .windows1252),
            ("Latin-1", .windows1252), ("ISO-8859-1", .windows1252),
        ] as [(String, TextEncoding)])
    func namesAreRead(name: String, expected: TextEncoding) {
        #expect(TextEncoding(name: name) == expected)
    }

    @Test("refuses names of other encodings", arguments: ["", "utf-16", "koi8-r", "cp866", "1250", "ascii", "utf-8x"])
    func unknownNamesAreNil(name: String) {
        #expect(TextEncoding(name: name) == nil)
    }

    @Test("the raw values are the canonical names and read back")
    func rawValuesReadBack() {
        for encoding in TextEncoding.allCases { #expect(TextEncoding(name: encoding.rawValue) == encoding) }
    }

    @Test("every byte of both code pages decodes as Python's codecs do", arguments: [TextEncoding.windows1251, .windows1252])
    func codePagesMatchPython(encoding: TextEncoding) throws {
        let reference = encoding == .windows1251 ? Self.windows1251Reference : Self.windows1252Reference
        let decoded = try TextEncoding.decode(Array(0...255) as [UInt8], declared: encoding)
        #expect(decoded.encoding == encoding)
        let expected = (0..<128).map { UInt32($0) } + reference
        #expect(decoded.text.unicodeScalars.map(\.value) == expected)
    }

    @Test("decoded text encodes back to the same bytes, undefined bytes aside", arguments: [TextEncoding.windows1251, .windows1252])
    func codePagesRoundTrip(encoding: TextEncoding) throws {
        let table = Self.encoder(for: encoding)
        #expect(table.count == (encoding == .windows1251 ? 127 : 123))  // 1 undefined byte in 1251, 5 in 1252
        let defined = (0...255).map(UInt8.init).filter { $0 < 0x80 || table.values.contains($0) }
        let text = try TextEncoding.decode(defined, declared: encoding).text
        #expect(Self.encode(text, as: encoding) == defined)
    }

    @Test(
        "bytes a code page leaves undefined become U+FFFD",
        arguments: [
            (TextEncoding.windows1251, [0x98] as [UInt8]), (.windows1252, [0x81, 0x8D, 0x8F, 0x90, 0x9D]),
        ])
    func undefinedBytesAreReplaced(encoding: TextEncoding, bytes: [UInt8]) throws {
        for byte in bytes {
            #expect(try TextEncoding.decode([0x61, byte, 0x62], declared: encoding).text == "a\u{FFFD}b")
        }
    }

    @Test("a UTF-8 byte order mark is dropped")
    func byteOrderMarkIsDropped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("Дата;Сумма".utf8)
        #expect(try TextEncoding.decode(bytes, declared: nil) == ("Дата;Сумма", .utf8))
        #expect(try TextEncoding.decode(bytes, declared: .utf8) == ("Дата;Сумма", .utf8))
        #expect(try TextEncoding.decode([0xEF, 0xBB, 0xBF], declared: nil) == ("", .utf8))
    }

    @Test("a byte order mark contradicts a declared Windows code page")
    func byteOrderMarkContradictsCodePage() {
        #expect(throws: StatementError(line: 1, "the file starts with a UTF-8 byte order mark, so it is not windows-1251 text")) {
            try TextEncoding.decode([0xEF, 0xBB, 0xBF, 0x61], declared: .windows1251)
        }
    }

    @Test("valid UTF-8 and plain ASCII are UTF-8", arguments: ["", "date,amount\n2025-03-01,12.50\n", "Überweisung — Привет €"])
    func validUTF8IsUTF8(text: String) throws {
        #expect(try TextEncoding.decode(Array(text.utf8), declared: nil) == (text, .utf8))
    }

    @Test("Russian statement lines are detected as Windows-1251", arguments: Self.russian)
    func russianIsDetected(line: String) throws {
        let bytes = Self.encode(line, as: .windows1251)
        #expect(try TextEncoding.decode(bytes, declared: nil) == (line, .windows1251))
    }

    @Test("German, French and Spanish statement lines are detected as Windows-1252", arguments: Self.western)
    func westernIsDetected(line: String) throws {
        let bytes = Self.encode(line, as: .windows1252)
        #expect(try TextEncoding.decode(bytes, declared: nil) == (line, .windows1252))
    }

    @Test("a whole Russian statement is detected as Windows-1251")
    func russianFileIsDetected() throws {
        let text = "Дата операции;Описание;Сумма;Валюта\r\n" + Self.russian.map { "03.02.2025;\($0);-1 234,56;RUB" }.joined(separator: "\r\n")
        #expect(try TextEncoding.decode(Self.encode(text, as: .windows1251), declared: nil) == (text, .windows1251))
    }

    @Test("a declared code page is used even where detection would choose the other")
    func declaredCodePageWins() throws {
        let bytes = Self.encode("Gebühr", as: .windows1252)
        #expect(try TextEncoding.decode(bytes, declared: .windows1251) == ("Gebьhr", .windows1251))
        let russian = Self.encode("Оплата", as: .windows1251)
        #expect(try TextEncoding.decode(russian, declared: .windows1252) == ("Îïëàòà", .windows1252))
    }

    @Test(
        "bytes that are not UTF-8 are refused with their line and offset when UTF-8 is declared",
        arguments: [
            ([0x61, 0xFF], StatementError(line: 1, "byte 0xFF at offset 1 is not UTF-8 text")),
            (Array("ab\ncd\r\nef\rg".utf8) + [0xC3, 0x28], StatementError(line: 4, "byte 0xC3 at offset 11 is not UTF-8 text")),
            (Array("x\n".utf8) + [0xC0, 0x80], StatementError(line: 2, "byte 0xC0 at offset 2 is not UTF-8 text")),  // overlong
            ([0xED, 0xA0, 0x80], StatementError(line: 1, "byte 0xED at offset 0 is not UTF-8 text")),  // a surrogate
            ([0x61, 0xE2, 0x82], StatementError(line: 1, "byte 0xE2 at offset 1 is not UTF-8 text")),  // cut short
            ([0xF4, 0x90, 0x80, 0x80], StatementError(line: 1, "byte 0xF4 at offset 0 is not UTF-8 text")),  // past U+10FFFF
            ([0xEF, 0xBB, 0xBF, 0x0A, 0x80], StatementError(line: 2, "byte 0x80 at offset 4 is not UTF-8 text")),  // after a BOM
        ] as [([UInt8], StatementError)])
    func invalidUTF8IsRefused(bytes: [UInt8], expected: StatementError) {
        #expect(throws: expected) { try TextEncoding.decode(bytes, declared: .utf8) }
    }

    @Test("a byte order mark followed by bytes that are not UTF-8 is refused")
    func byteOrderMarkThenInvalid() {
        #expect(throws: StatementError(line: 1, "byte 0xE9 at offset 6 is not UTF-8 text")) {
            try TextEncoding.decode([0xEF, 0xBB, 0xBF, 0x43, 0x61, 0x66, 0xE9], declared: nil)
        }
    }

    @Test("UTF-8 is refused exactly when the standard library refuses it, at the first byte no character starts at")
    func validationAgreesWithStandardLibrary() throws {
        var random = SplitMix64(seed: 1251)
        let pieces: [[UInt8]] = [
            [0x61], [0x0A], [0xC3, 0xA9], [0xD0], [0x9F], [0xE2, 0x82, 0xAC], [0xED, 0xA0], [0xF0, 0x9F, 0x9A, 0x97], [0xF4], [0xFF],
        ]
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.next(below: 12) { bytes += pieces[random.next(below: pieces.count)] }
            do {
                _ = try TextEncoding.decode(bytes, declared: .utf8)
                #expect(String(validating: bytes, as: UTF8.self) != nil, "\(bytes)")
                #expect(try TextEncoding.decode(bytes, declared: nil).encoding == .utf8)
            } catch {
                let offset = Int(error.reason.split(separator: " ")[4])!  // "byte 0xFF at offset 3 is not UTF-8 text"
                #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil, "\(bytes)")
                for length in 1...4 where offset + length <= bytes.count {
                    #expect(String(validating: bytes[offset..<(offset + length)], as: UTF8.self) == nil, "\(bytes)")
                }
            }
        }
    }

    @Test(
        "with no run of letters to go by, single-byte text is Windows-1252", arguments: [[0xE2] as [UInt8], [0x31, 0x20, 0xE2, 0x20, 0x32], [0x80]])
    func noEvidenceIsWindows1252(bytes: [UInt8]) throws {
        #expect(try TextEncoding.decode(bytes, declared: nil).encoding == .windows1252)
    }

    @Test("bytes in a collection without contiguous storage decode too")
    func nonContiguousBytes() throws {
        let bytes = Self.encode("Оплата услуг", as: .windows1251)
        #expect(try TextEncoding.decode(bytes.lazy.map { $0 }, declared: nil) == ("Оплата услуг", .windows1251))
    }

    static let russian = [
        "Оплата товаров и услуг. ПЯТЁРОЧКА 1234 МОСКВА RUS",
        "Перевод по номеру телефона +7 916 ***-**-12, Иванов И.И.",
        "Списание: комиссия за обслуживание карты №4276",
        "ООО «Ромашка», ИНН 7701234567, оплата по счёту №15 от 01.02.2025 — без НДС",
        "Зачисление заработной платы за январь",
        "SBOL перевод с карты VISA на карту MIR",
        "Итого",
    ]

    static let western = [
        "Überweisung an Müller GmbH, Gebühr für Kontoführung",
        "Lastschrift: Straßenbahn München — Fahrkarte Größe M",
        "Prélèvement SEPA Électricité de France, échéance février",
        "Carte bancaire: Café de la Gare, Crédit Agricole Île-de-France",
        "RÉÉVALUATION DES FRAIS DE TENUE DE COMPTE",
        "Transferencia recibida: Año nuevo, señor Muñoz — ¿Pago de la cuota?",
        "Compra con tarjeta: Panadería García, Málaga",
        "Café",
        "£12 ½ price “offer”",
    ]

    /// Each defined character of a code page and its byte, from the reference tables.
    static func encoder(for encoding: TextEncoding) -> [Unicode.Scalar: UInt8] {
        let reference = encoding == .windows1251 ? windows1251Reference : windows1252Reference
        var table: [Unicode.Scalar: UInt8] = [:]
        for (offset, value) in reference.enumerated() where value != 0xFFFD { table[Unicode.Scalar(value)!] = UInt8(0x80 + offset) }
        return table
    }

    /// `text` in a code page, by the reference tables (every character must have a byte there).
    static func encode(_ text: String, as encoding: TextEncoding) -> [UInt8] {
        let table = encoder(for: encoding)
        return text.unicodeScalars.map { $0.value < 0x80 ? UInt8($0.value) : table[$0]! }
    }

    // Generated by `python3 Scripts/codepage-tables.py tests`.

    /// Python: bytes(range(0x80, 0x100)).decode('cp1251', errors='replace').
    static let windows1251Reference: [UInt32] = [
        0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
        0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
        0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
        0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
        0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417, 0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F,
        0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427, 0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
        0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, 0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F,
        0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447, 0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F,
    ]

    /// Python: bytes(range(0x80, 0x100)).decode('cp1252', errors='replace').
    static let windows1252Reference: [UInt32] = [
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
