import CapitalCore
import Testing

@testable import CapitalStore

/// The fast paths of two checks every imported row goes through, against the plain definitions
/// they replaced: a UUID is 8-4-4-4-12 ASCII hex digits; a name is not blank, does not start or
/// end with whitespace, and has no line break or '='.
@Suite("Ledger files: id and name checks")
struct NameAndIDCheckTests {
    static func referenceIsUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }

    @Test("a UUID is 8-4-4-4-12 hex digits, either case; nothing else is")
    func uuids() {
        let good = ["00000000-0000-4000-8000-000000000000", "6F9619FF-8B86-D011-B42D-00C04FC964FF", "6f9619ff-8b86-d011-b42d-00c04fc964ff"]
        for text in good { #expect(StableID.isUUID(text), "\(text)") }
        let bad = [
            "", "-", "6f9619ff8b86d011b42d00c04fc964ff", "6f9619ff-8b86-d011-b42d-00c04fc964f", "6f9619ff-8b86-d011-b42d-00c04fc964fff",
            "6f9619fg-8b86-d011-b42d-00c04fc964ff", "6f9619ff-8b86-d011-b42d_00c04fc964ff", "6f9619ff-8b86-d011-b42d-00c04fc964f\u{FF10}",
            " 6f9619ff-8b86-d011-b42d-00c04fc964ff", "6f9619ff-8b86-d011-b42d-00c04fc964ff\n", "6f9619ff--8b86-d011-b42d-00c04fc964f",
        ]
        for text in bad { #expect(!StableID.isUUID(text), "\(text)") }
        // Mutations of a good one: the fast check agrees with the plain definition.
        var random = SplitMix64(seed: 36)
        let alphabet = Array("0123456789abcdefABCDEFgG-_ xé\u{FF10}")
        for _ in 0..<20_000 {
            var characters = Array(good[random.next(below: good.count)])
            for _ in 0...random.next(below: 3) {
                switch random.next(below: 3) {
                case 0 where !characters.isEmpty: characters[random.next(below: characters.count)] = alphabet[random.next(below: alphabet.count)]
                case 1 where !characters.isEmpty: characters.remove(at: random.next(below: characters.count))
                default: characters.insert(alphabet[random.next(below: alphabet.count)], at: random.next(below: characters.count + 1))
                }
            }
            let text = String(characters)
            #expect(StableID.isUUID(text) == Self.referenceIsUUID(text), "\(text.debugDescription)")
        }
    }

    @Test("names: the ASCII fast path accepts and refuses as the full check does")
    func names() {
        func accepted(_ name: String) -> Bool { (try? Store.validateName(name, field: "name")) != nil }
        for name in ["Debit 1", "A", "Rent (flat 2)", "Café", "Карта", "a\u{00A0}b", "x-y_z.1"] { #expect(accepted(name), "\(name)") }
        for name in ["", " ", "  ", " Debit", "Debit ", "a=b", "=", "a\nb", "a\rb", "\tDebit", "Debit\t", "\u{00A0}Debit", "a\u{2028}b"] {
            #expect(!accepted(name), "\(name.debugDescription)")
        }
    }
}
