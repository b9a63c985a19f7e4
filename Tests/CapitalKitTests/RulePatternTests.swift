import CapitalKit
import Testing

/// The rules' patterns: case-folding as Unicode lowercases, and the literal fast path giving
/// the C library's regex answers.
@Suite("Kit: rule patterns")
struct RulePatternTests {
    /// Every scalar of Latin-1, Latin Extended, Cyrillic and general punctuation, alone and
    /// between ASCII letters: the byte-wise fold equals Unicode's lowercase.
    @Test func foldingIsUnicodeLowercase() {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x400...0x4FF, 0x2000...0x20CF]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                for text in [String(Character(scalar)), "Ab\(Character(scalar))Z", "ПЯТЁ\(Character(scalar))рочка"] {
                    #expect(RulePattern.fold(text) == Array(text.lowercased().utf8), "U+\(String(value, radix: 16)) in \(text)")
                }
            }
        }
    }

    @Test(
        "plain words, alternatives and anchors match as the regex engine does",
        arguments: [
            ("REWE|EDEKA|LIDL", "Kartenzahlung REWE Markt"), ("rewe|edeka", "EDEKA Weiß"), ("^atm", "ATM withdrawal"), ("^atm", "an ATM"),
            ("fee$", "Monthly FEE"), ("fee$", "fees"), ("^exact$", "EXACT"), ("^exact$", "exactly"), ("пятёрочка", "ПЯТЁРОЧКА 4411"),
            ("пятёрочка", "ПЯТЕРОЧКА"), ("café", "CAFÉ CRÈME"), ("müller", "MÜLLER & SÖHNE"), ("a b", "A  B"), ("x,y", "X,Y"),
            ("zz", "nothing here"),
        ])
    func literalsAgreeWithRegex(_ pattern: String, _ text: String) throws {
        let fast = try RulePattern(pattern)
        // The same pattern made non-literal (a group around it) goes to regexec.
        let slow = try RulePattern("(" + pattern + ")")
        #expect(fast.matches(text, folded: RulePattern.fold(text)) == slow.matches(text, folded: RulePattern.fold(text)))
    }

    @Test func regexesAreCaseInsensitiveBeyondASCII() throws {
        let pattern = try RulePattern("^(зарплата|аванс) ооо")
        #expect(pattern.matches("ЗАРПЛАТА ООО Ромашка", folded: RulePattern.fold("ЗАРПЛАТА ООО Ромашка")))
        #expect(!pattern.matches("Перевод ЗАРПЛАТА ООО", folded: RulePattern.fold("Перевод ЗАРПЛАТА ООО")))
        #expect(try RulePattern("[а-я]+ такси").matches("ЯНДЕКС ТАКСИ", folded: []))
    }

    @Test func aPatternThatDoesNotCompileIsAnError() {
        #expect(throws: RulePatternError.self) { try RulePattern("(abc") }
        #expect(throws: RulePatternError.self) { try RulePattern("a{2,1}") }
    }
}
