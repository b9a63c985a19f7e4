import CapitalCore
import Foundation
import Testing

/// `TextBytes`, the one writer of amounts, days, CSV fields and JSON strings, against references
/// that work another way: Foundation's `String(format:)` and `JSONSerialization`, a CSV reader
/// written here from RFC 4180, and digits placed by string slicing rather than division.
@Suite("TextBytes")
struct TextBytesTests {
    /// The plain amount by slicing the magnitude's decimal digits.
    static func referenceAmount(_ minor: Int64, _ exponent: Int) -> String {
        let digits = String(minor.magnitude)
        let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -exponent)
        let text = exponent == 0 ? padded : padded[..<split] + "." + padded[split...]
        return (minor < 0 ? "-" : "") + text
    }

    @Test func amountsAreWrittenAsTheDigitsSay() {
        var random = SplitMix64(seed: 7)
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, -100, 12_345, .max, .min, .min + 1]
        for _ in 0..<20_000 {
            let magnitude = Int64(bitPattern: random.next()) >> Int64(random.next(below: 63))
            values.append(magnitude)
        }
        for value in values {
            for exponent in 0...4 {
                var text = TextBytes()
                text.append(amount: value, exponent: exponent)
                #expect(text.text == Self.referenceAmount(value, exponent), "\(value) e\(exponent)")
                #expect(Money.format(minor: value, exponent: exponent, grouping: nil) == text.text)
            }
        }
        #expect(Money.format(minor: -123_456_789, exponent: 2, grouping: " ") == "-1 234 567.89")
        #expect(Money.format(minor: 999, exponent: 0, grouping: " ") == "999")
        #expect(Money.format(minor: 1_000, exponent: 0, grouping: ",") == "1,000")
    }

    @Test func daysAreISODatesAsFormatPrintsThem() {
        var days = Array(stride(from: -800_000, through: 3_000_000, by: 997))
        days += [0, -1, 20_179, -719_528, -719_529, 2_932_896, 2_932_897]
        for number in days {
            let civil = Day(number).civil
            let expected =
                civil.year < 0
                ? String(format: "-%04d-%02d-%02d", -civil.year, civil.month, civil.day)
                : String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
            var text = TextBytes()
            text.append(day: Day(number))
            #expect(text.text == expected)
            #expect(Day(number).iso == expected)
        }
        #expect(Day(0).iso == "1970-01-01")
    }

    static let awkward = [
        "", "plain", "a,b", "say \"hi\"", "cr\rlf\n", "=SUM(A1)", "+7", "-5", "@x", "\tTab", "\rCR", "Ёлка 🎄", "back\\slash", "nul\u{0}",
        "del\u{7F}", "nel\u{85}", "c1\u{9F}end", "ls\u{2028}ps\u{2029}", "bom\u{FEFF}", "\u{1F}", "é\u{301}",
    ]

    /// Reads one CSV record of RFC 4180 (quoted fields with doubled quotes).
    static func readCSV(_ text: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let char = chars.popFirst() {
            if quoted {
                if char == "\"" {
                    if chars.first == "\"" {
                        field.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(char)
                }
            } else if char == "\"" {
                quoted = true
            } else if char == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(char)
            }
        }
        return fields + [field]
    }

    @Test(arguments: awkward)
    func csvFieldsReadBackAsWrittenWithFormulasMadeInert(text: String) {
        for guarding in [true, false] {
            var out = TextBytes()
            out.append(csvField: text, guardingFormulas: guarding)
            out.append(byte: UInt8(ascii: ","))
            out.append(csvField: text, guardingFormulas: guarding)
            let formula = guarding && text.utf8.first.map(TextBytes.startsFormula) == true
            let expected = (formula ? "'" : "") + text
            #expect(Self.readCSV(out.text) == [expected, expected], "\(out.text.debugDescription)")
            // Quoted exactly when a separator, quote or line break is inside.
            #expect(out.text.hasPrefix("\"") == text.contains { ",\"\r\n".unicodeScalars.contains($0.unicodeScalars.first!) })
        }
    }

    @Test(arguments: awkward)
    func jsonStringsDecodeToTheTextAndHideNothingRaw(text: String) throws {
        var out = TextBytes()
        out.append(jsonString: text)
        let decoded = try JSONSerialization.jsonObject(with: Data(out.bytes), options: [.fragmentsAllowed]) as? String
        #expect(decoded == text)
        // No control character, DEL, C1 control, line or paragraph separator or BOM is left raw.
        let raw = out.text.unicodeScalars.filter {
            $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || [0x2028, 0x2029, 0xFEFF].contains($0.value)
        }
        #expect(raw.isEmpty, "\(out.text.debugDescription)")
    }

    @Test func jsonEscapesAreLowercaseFourDigitHex() {
        var out = TextBytes()
        out.append(jsonString: "\u{1}\u{7F}\u{85}\u{2028}\u{FEFF}\"\\\n\r\t")
        #expect(out.text == #""\u0001\u007f\u0085\u2028\ufeff\"\\\n\r\t""#)
    }

    @Test func integersAndTextAppendAsTheyAre() {
        var out = TextBytes(capacity: 4)
        out.append(integer: -42)
        out.append(byte: UInt8(ascii: " "))
        out.append(integer: Int.min)
        out.append(" ✓")
        #expect(out.text == "-42 \(Int.min) ✓")
        out.removeAll()
        #expect(out.bytes.isEmpty)
    }
}
