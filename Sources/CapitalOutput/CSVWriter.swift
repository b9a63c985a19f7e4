import CapitalCore

/// CSV for spreadsheets (`capital export --format csv`): RFC 4180 fields, CRLF line ends, an
/// optional UTF-8 byte order mark, and text a spreadsheet would run as a formula made inert.
///
/// ```
/// date,payee,amount
/// 2025-04-01,"Smith, J.",-1234.50
/// 2025-04-02,"'=cmd|' /C calc'!A0",-5.00
/// ```
///
/// - A field with a comma, a double quote, CR or LF is put in double quotes, its quotes doubled;
///   others are written as they are. Line breaks inside a field are kept.
/// - Records end in CRLF, as RFC 4180 has it (Excel and LibreOffice read LF too).
/// - `bom` starts the text with U+FEFF, which Excel needs to read UTF-8 (without it, it guesses
///   the system's legacy code page and garbles Cyrillic and emoji).
/// - `guardFormulas` puts `'` before a `.text` field starting with `=`, `+`, `-`, `@`, a tab or
///   CR, which Excel and LibreOffice would otherwise evaluate (CSV injection, as OWASP describes
///   it). `.value` fields (dates, amounts, ids, codes capital writes itself) are never changed, so
///   `-1234.50` stays a number.
package struct CSVWriter {
    /// One cell.
    package enum Field {
        /// Text a person typed: payees, notes, names, tags.
        case text(String)
        /// Text capital made: a date, an amount, an id, a code.
        case value(String)
    }

    package var bom = false
    package var guardFormulas = true
    /// CRLF for files (RFC 4180); listings on a terminal end lines in LF.
    package var lineEnd = "\r\n"

    package init(bom: Bool = false, guardFormulas: Bool = true, lineEnd: String = "\r\n") {
        (self.bom, self.guardFormulas, self.lineEnd) = (bom, guardFormulas, lineEnd)
    }

    /// The whole file: the header, then one record per row.
    package func write(header: [String], rows: [[Field]]) -> String {
        var out = TextBytes()
        if bom { out.append("\u{FEFF}") }
        record(header.map(Field.value), into: &out)
        for row in rows { record(row, into: &out) }
        return out.text
    }

    private func record(_ fields: [Field], into out: inout TextBytes) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(byte: UInt8(ascii: ",")) }
            switch field {
            case .value(let text): out.append(csvField: text, guardingFormulas: false)
            case .text(let text): out.append(csvField: text, guardingFormulas: guardFormulas)
            }
        }
        out.append(lineEnd)
    }

    /// One field as written: formulas made inert (for `.text`), then quoted.
    package static func written(_ field: Field) -> String {
        var out = TextBytes()
        CSVWriter().record([field], into: &out)
        return String(decoding: out.bytes.dropLast(2), as: UTF8.self)
    }

    /// The field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote,
    /// CR or LF.
    package static func quoted(_ text: String) -> String { written(.value(text)) }
}
