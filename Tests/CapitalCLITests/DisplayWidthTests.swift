import CapitalCore
import Testing

@testable import capital

/// Table columns are padded by display width: printable ASCII by its byte count (the fast path),
/// anything else character by character.
@Suite("CLI: display width")
struct DisplayWidthTests {
    @Test("the byte count of printable ASCII is the sum of its characters' widths; other text is counted by character")
    func widths() {
        var random = SplitMix64(seed: 9)
        let pieces = ["a", "Z", " ", "~", "1", "\r\n", "\t", "é", "🚗", "字", "e\u{301}", "❤️", "-"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<random.next(below: 10) { text += pieces[random.next(below: pieces.count)] }
            #expect(text.displayWidth == text.reduce(0) { $0 + $1.displayWidth }, "\(text.debugDescription)")
        }
        #expect("2025-04-01".displayWidth == 10)
        #expect("🚗 Car".displayWidth == 6)
        #expect("字字".displayWidth == 4)
    }
}
