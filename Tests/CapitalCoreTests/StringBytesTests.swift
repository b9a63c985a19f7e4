import Testing

@testable import CapitalCore

/// The byte-level text helpers the rule and amount readers use, against the standard library's
/// (slower) string processing on random text with multi-byte characters.
@Suite("Text helpers by bytes")
struct StringBytesTests {
    @Test func textHelpersAgreeWithTheStandardLibrary() {
        var random = SplitMix64(seed: 42)
        let alphabet = Array("aF.r.EQ=é.🚗Q".unicodeScalars)
        for _ in 0..<2_000 {
            let length = Int(random.next() % 12)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            #expect(text.split(atASCII: "..") == text.split(separator: "..", omittingEmptySubsequences: false).map(String.init), "\(text)")
            #expect(text.containsIgnoringASCIICase("FREQ=") == text.uppercased().contains("FREQ="), "\(text)")
            #expect(text.containsIgnoringASCIICase("q=") == text.uppercased().contains("Q="), "\(text)")
        }
    }
}
