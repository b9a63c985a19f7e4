import CapitalCore
import Testing

@Suite("IBAN")
struct IBANTests {
    /// Examples published in the SWIFT IBAN registry and on Wikipedia, as printed there.
    static let published = [
        "GB82 WEST 1234 5698 7654 32", "DE89 3704 0044 0532 0130 00", "FR14 2004 1010 0505 0001 3M02 606",
        "RU0204452560040702810412345678901", "NL91ABNA0417164300", "BE68539007547034", "CH9300762011623852957",
        "AD12 0001 2030 2003 5910 0100", "AT61 1904 3002 3457 3201", "BG80 BNBG 9661 1020 3456 78", "BR18 0036 0305 0000 1000 9795 493C 1",
        "BY13 NBRB 3600 9000 0000 2Z00 AB00", "CZ65 0800 0000 1920 0014 5399", "DK50 0040 0440 1162 43", "EE38 2200 2210 2014 5685",
        "ES91 2100 0418 4502 0005 1332", "FI21 1234 5600 0007 85", "GB29 NWBK 6016 1331 9268 19", "GR16 0110 1250 0000 0001 2300 695",
        "HR12 1001 0051 8630 0016 0", "HU42 1177 3016 1111 1018 0000 0000", "IE29 AIBK 9311 5212 3456 78", "IT60 X054 2811 1010 0000 0123 456",
        "KZ86 125K ZT50 0410 0100", "LC55 HEMM 0001 0001 0012 0012 0002 3015", "LI21 0881 0000 2324 013A A", "LT12 1000 0111 0100 1000",
        "MT84 MALT 0110 0001 2345 MTLC AST0 01S", "MU17 BOMM 0101 1010 3030 0200 000M UR", "NO93 8601 1117 947", "PL61 1090 1014 0000 0712 1981 2874",
        "PT50 0002 0123 1234 5678 9015 4", "QA58 DOHB 0000 1234 5678 90AB CDEF G", "SC18 SSCB 1101 0000 0000 0000 1497 USD",
        "SE45 5000 0000 0583 9825 7466", "SK31 1200 0000 1987 4263 7541", "TR33 0006 1005 1978 6457 8413 26", "UA21 3223 1300 0002 6007 2335 6600 1",
        "XK05 1212 0123 4567 8906",
    ]

    @Test("published examples are valid, kept in electronic form and printed in groups of four", arguments: published)
    func publishedExamplesAreValid(_ text: String) throws {
        let iban = try IBAN(validating: text)
        let electronic = text.filter { $0 != " " }
        #expect(iban.electronic == electronic)
        #expect(iban.description == electronic)
        #expect(iban.countryCode == String(electronic.prefix(2)))
        #expect(iban.checkDigits == String(electronic.dropFirst(2).prefix(2)))
        #expect(iban.bban == String(electronic.dropFirst(4)))
        #expect(iban.printed == Self.grouped(electronic))
    }

    @Test("lower case and odd spacing are the same IBAN")
    func lowerCaseAndSpacesNormalised() throws {
        let typed = try IBAN(validating: "  gb82west 1234569876 5432 ")
        #expect(typed == (try IBAN(validating: "GB82WEST12345698765432")))
        #expect(typed.electronic == "GB82WEST12345698765432")
        #expect(typed.printed == "GB82 WEST 1234 5698 7654 32")
    }

    @Test("the registry has 89 countries, with their lengths")
    func registryLengths() {
        #expect(IBAN.lengths.count == 89)
        let some = ["DE": 22, "GB": 22, "FR": 27, "RU": 33, "NO": 15, "LC": 32, "MT": 31, "BE": 16, "HN": 28, "YE": 30]
        for (country, length) in some { #expect(IBAN.lengths[country] == length, "\(country)") }
        #expect(IBAN.lengths.values.allSatisfy { (15...34).contains($0) })
    }

    // MARK: Invalid

    @Test("an empty text or only spaces")
    func empty() {
        #expect(throws: IBANError.empty) { try IBAN(validating: "") }
        #expect(throws: IBANError.empty) { try IBAN(validating: "    ") }
        #expect(IBANError.empty.description == "an IBAN cannot be empty")
    }

    @Test("one changed digit is caught, and the message gives the right check digits")
    func oneChangedDigit() throws {
        // DE89 3704 0044 0532 0130 00 with its last digit 0 → 1.
        let error = #expect(throws: IBANError.self) { try IBAN(validating: "DE89 3704 0044 0532 0130 01") }
        let expected = Self.referenceCheckDigits("DE", "370400440532013001")
        #expect(error == .wrongCheckDigits(given: "89", expected: expected))
        #expect(error?.description == "the check digits are 89, but the rest of the IBAN makes them \(expected): a character is mistyped somewhere")
    }

    @Test(
        "every pair of swapped adjacent different digits is caught",
        arguments: ["DE89370400440532013000", "GB82WEST12345698765432", "NL91ABNA0417164300"])
    func swappedAdjacentDigits(_ valid: String) {
        var characters = Array(valid)
        var tried = 0
        for i in 4..<(characters.count - 1) where characters[i] != characters[i + 1] && characters[i].isNumber && characters[i + 1].isNumber {
            characters.swapAt(i, i + 1)
            #expect(throws: IBANError.self, "swap at \(i)") { try IBAN(validating: String(characters)) }
            characters.swapAt(i, i + 1)
            tried += 1
        }
        #expect(tried > 3)
    }

    @Test("a wrong length says the country's length and this one's")
    func wrongLength() {
        let short = #expect(throws: IBANError.self) { try IBAN(validating: "DE89 3704 0044 0532 0130 0") }
        #expect(short == .wrongLength(country: "DE", expected: 22, actual: 21))
        #expect(short?.description == "DE IBANs have 22 characters, this one has 21")
        #expect(throws: IBANError.wrongLength(country: "NL", expected: 18, actual: 19)) { try IBAN(validating: "NL91ABNA04171643001") }
        #expect(throws: IBANError.wrongLength(country: "GB", expected: 22, actual: 2)) { try IBAN(validating: "gb") }
    }

    @Test("an unknown country code", arguments: [("XX89370400440532013000", "XX"), ("US12345678", "US"), ("1289370400", "12"), ("D", "D")])
    func unknownCountry(_ text: String, _ code: String) {
        let error = #expect(throws: IBANError.self) { try IBAN(validating: text) }
        #expect(error == .unknownCountry(code))
        #expect(error?.description.contains("'\(code)' is not a country code in the IBAN registry") == true)
    }

    @Test(
        "a character that is not a letter or digit is named with its position",
        arguments: [
            ("DE89-3704-0044-0532-0130-00", "-", 5), ("DE89 3704 0044 0532 0130 0é", "é", 27), ("DE89_370400440532013000", "_", 5),
            ("DE8937040044053201300.", ".", 22),
        ])
    func badCharacter(_ text: String, _ character: String, _ position: Int) {
        let error = #expect(throws: IBANError.self) { try IBAN(validating: text) }
        #expect(error == .invalidCharacter(Character(character), position: position))
        #expect(error?.description.hasPrefix("'\(character)' at position \(position) is not a letter or a digit") == true)
    }

    @Test("check digits must be digits")
    func checkDigitsNotDigits() {
        let error = #expect(throws: IBANError.self) { try IBAN(validating: "DEAB370400440532013000") }
        #expect(error == .checkDigitsNotDigits("AB"))
        #expect(error?.description.contains("'AB'") == true)
    }

    @Test("check digits 99, 00 and 01 are refused even where mod 97 would pass", arguments: [("99", "02"), ("00", "97"), ("01", "98")])
    func checkDigitsOutOfRange(_ given: String, _ right: String) throws {
        // A BBAN whose check digits are `right`: `given` is `right` ± 97, so the rearranged number is 1 mod 97 with it too.
        var bban = 100_000_000_000_000_000
        while Self.referenceCheckDigits("DE", String(bban)) != right { bban += 1 }
        _ = try IBAN(validating: "DE" + right + String(bban))
        #expect(throws: IBANError.wrongCheckDigits(given: given, expected: right)) { try IBAN(validating: "DE" + given + String(bban)) }
    }

    // MARK: Property

    /// Countries and lengths for the property test, written here from the registry.
    static let sampleLengths: [(String, Int)] = [
        ("DE", 22), ("GB", 22), ("FR", 27), ("RU", 33), ("NL", 18), ("NO", 15), ("MT", 31), ("LC", 32), ("BR", 29),
    ]

    @Test("random BBANs with check digits computed here are valid, and any one changed digit or letter makes them invalid")
    func randomBBANs() throws {
        var random = SplitMix64(seed: 13616)
        let digits = Array("0123456789")
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for _ in 0..<2_000 {
            let (country, length) = Self.sampleLengths.randomElement(using: &random)!
            let bban = String(
                (0..<(length - 4)).map { _ in
                    Int.random(in: 0..<4, using: &random) == 0 ? letters.randomElement(using: &random)! : digits.randomElement(using: &random)!
                })
            let check = Self.referenceCheckDigits(country, bban)
            let text = country + check + bban
            let iban = try IBAN(validating: text)
            #expect(iban.electronic == text)
            #expect(IBAN.checkDigits(country: country, bban: bban) == check)

            // One character after the country code changed to another of its kind: a digit to another digit
            // changes the number by d·10^k, a letter to another letter by d·10^k with |d| < 26; 97 is prime and
            // divides neither.
            var changed = Array(text)
            let position = Int.random(in: 2..<length, using: &random)
            let pool = changed[position].isNumber ? digits : letters
            var replacement = changed[position]
            while replacement == changed[position] { replacement = pool.randomElement(using: &random)! }
            changed[position] = replacement
            #expect(throws: IBANError.self, "\(String(changed)) from \(text)") { try IBAN(validating: String(changed)) }
        }
    }

    // MARK: Independent reference

    /// Check digits the way a Python one-liner computes them: move the country code and "00" to the
    /// end, spell letters as two-digit numbers (A = 10 … Z = 35), then reduce the long digit string
    /// mod 97 nine digits at a time, each chunk prefixed by the remainder so far.
    static func referenceCheckDigits(_ country: String, _ bban: String) -> String {
        var numeric = ""
        for character in bban + country + "00" {
            if let digit = character.wholeNumberValue, character.isASCII {
                numeric += String(digit)
            } else {
                numeric += String(Int(character.asciiValue!) - Int(Character("A").asciiValue!) + 10)
            }
        }
        var remainder = ""
        var rest = Substring(numeric)
        while !rest.isEmpty {
            let chunk = remainder + rest.prefix(9)
            rest = rest.dropFirst(9)
            remainder = String(Int(chunk)! % 97)
        }
        let value = 98 - (Int(remainder) ?? 0)
        return value < 10 ? "0\(value)" : "\(value)"
    }

    static func grouped(_ electronic: String) -> String {
        var groups: [String] = []
        var rest = Substring(electronic)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }
}
