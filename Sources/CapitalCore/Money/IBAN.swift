/// An International Bank Account Number (ISO 13616), checked: a country code from the SWIFT IBAN
/// registry, the length that country's IBANs have, and check digits that match the rest.
///
/// Input may be typed as printed, in groups with spaces, and in lower case; the value keeps the
/// electronic form (upper case, no spaces), which is its `description`.
/// ```swift
/// let iban = try IBAN(validating: "de89 3704 0044 0532 0130 00")
/// iban.electronic    // "DE89370400440532013000"
/// iban.printed       // "DE89 3704 0044 0532 0130 00"
/// try IBAN(validating: "DE89 3704 0044 0532 0130 01")
/// // throws: the check digits are 89, but the rest of the IBAN makes them 62
/// ```
public struct IBAN: Hashable, Sendable, CustomStringConvertible {
    /// Upper case letters and digits, no spaces: `DE89370400440532013000`.
    public let electronic: String

    /// Checks `text` and keeps its electronic form.
    ///
    /// Spaces are ignored anywhere; lower case letters count as upper case. The checks, in order:
    /// something is there; every other character is an ASCII letter or digit; the first two are a
    /// country code in the registry (`IBAN.lengths`); the length is that country's; the two
    /// after it are digits; and they equal `98 − (the IBAN rearranged, with "00" as check digits,
    /// mod 97)`. That last check is the ISO 7064 MOD 97-10 rule (the rearranged number mod 97 is 1)
    /// with the check digits held to 02…98, as ISO 13616 assigns them: `99` would pass mod 97
    /// where `02` is right, and is refused.
    /// - Throws: `IBANError`, naming what is wrong.
    /// - Complexity: O(n) in the length of `text`.
    public init(validating text: String) throws(IBANError) {
        var characters: [Character] = []
        characters.reserveCapacity(34)
        for (offset, character) in text.enumerated() {
            if character == " " { continue }
            guard character.isASCII, character.isLetter || character.isNumber else {
                throw .invalidCharacter(character, position: offset + 1)
            }
            characters.append(Character(character.uppercased()))
        }
        guard !characters.isEmpty else { throw .empty }
        let country = String(characters.prefix(2))
        guard characters.count >= 2, let length = IBAN.lengths[country] else { throw .unknownCountry(country) }
        guard characters.count == length else { throw .wrongLength(country: country, expected: length, actual: characters.count) }
        let given = String(characters[2..<4])
        guard characters[2].isNumber, characters[3].isNumber else { throw .checkDigitsNotDigits(given) }
        let expected = IBAN.checkDigits(country: country, bban: String(characters[4...]))
        guard given == expected else { throw .wrongCheckDigits(given: given, expected: expected) }
        electronic = String(characters)
    }

    /// The two-letter country code: `DE`.
    public var countryCode: String { String(electronic.prefix(2)) }

    /// The two check digits: `89`.
    public var checkDigits: String { String(electronic.dropFirst(2).prefix(2)) }

    /// The basic bank account number, the country's own part after the check digits.
    public var bban: String { String(electronic.dropFirst(4)) }

    /// The paper form: groups of four separated by spaces, `DE89 3704 0044 0532 0130 00`.
    public var printed: String {
        var out = ""
        for (index, character) in electronic.enumerated() {
            if index > 0 && index % 4 == 0 { out.append(" ") }
            out.append(character)
        }
        return out
    }

    /// The electronic form.
    public var description: String { electronic }

    /// The check digits that make `country` + digits + `bban` valid: `98 − (bban + country + "00"
    /// mod 97)`, two digits, `02` to `98`. The number is read piecewise, a character at a time
    /// (digits as themselves, letters A = 10 … Z = 35), its remainder kept below 97, so no big
    /// integers are needed.
    ///
    /// `country` and `bban` are expected in upper case letters and digits; other characters count
    /// as 0.
    /// - Complexity: O(n).
    public static func checkDigits(country: String, bban: String) -> String {
        let remainder = mod97(bban + country + "00")
        let digits = 98 - remainder
        return digits < 10 ? "0" + String(digits) : String(digits)
    }

    /// The rearranged number mod 97: each digit shifts the remainder one decimal place, each letter
    /// (two decimal digits, 10…35) two.
    static func mod97(_ text: String) -> Int {
        var remainder = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 48 && value <= 57 {
                remainder = (remainder * 10 + Int(value - 48)) % 97
            } else if value >= 65 && value <= 90 {
                remainder = (remainder * 100 + Int(value - 55)) % 97
            } else {
                remainder = (remainder * 10) % 97
            }
        }
        return remainder
    }

    /// IBAN lengths by country code, from the SWIFT IBAN registry (release 99, 2025: 89 countries).
    /// Territories that use another country's code (Åland with FI, the French overseas departments
    /// with FR, Jersey, Guernsey and the Isle of Man with GB) are not listed apart.
    public static let lengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
        "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
        "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
        "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
        "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
        "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
        "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
        "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
        "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
    ]
}

/// Why text is not a valid IBAN.
public enum IBANError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but spaces.
    case empty
    /// A character that is neither an ASCII letter nor a digit, at its 1-based position in the text
    /// as given (spaces counted).
    case invalidCharacter(Character, position: Int)
    /// The first two characters are not a country code in the IBAN registry.
    case unknownCountry(String)
    /// The IBAN (without spaces) is not as long as its country's.
    case wrongLength(country: String, expected: Int, actual: Int)
    /// The two characters after the country code are not digits.
    case checkDigitsNotDigits(String)
    /// The check digits do not match the rest: a typing error somewhere.
    case wrongCheckDigits(given: String, expected: String)

    /// One line, with a line break in the input (`\r\n` is one character) escaped.
    public var description: String { message.singleLine }

    private var message: String {
        switch self {
        case .empty:
            return "an IBAN cannot be empty"
        case .invalidCharacter(let character, let position):
            return "'\(character)' at position \(position) is not a letter or a digit; an IBAN has only letters A-Z and digits (spaces are ignored)"
        case .unknownCountry(let code):
            return "'\(code)' is not a country code in the IBAN registry; an IBAN starts with one, such as DE or GB"
        case .wrongLength(let country, let expected, let actual):
            return "\(country) IBANs have \(expected) characters, this one has \(actual)"
        case .checkDigitsNotDigits(let given):
            return "the check digits after the country code must be two digits, not '\(given)'"
        case .wrongCheckDigits(let given, let expected):
            return "the check digits are \(given), but the rest of the IBAN makes them \(expected): a character is mistyped somewhere"
        }
    }
}
