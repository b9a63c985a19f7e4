import CapitalCore
import Testing

@testable import CapitalStore

/// The resolver's table of transaction ids (`IDLines`) and its one-pass reading of an id
/// (`UUIDKey.bits`), held to the plain ways they replace: a `Dictionary` of the lines, and
/// `StableID.isUUID` with `lowercased()`.
@Suite("Import: the ids a file has used")
struct IDLinesTests {
    /// A UUID's text from its bits, each letter upper case when `upper`.
    static func text(_ high: UInt64, _ low: UInt64, upper: Bool) -> String {
        let digits = String(high, radix: 16, uppercase: upper).leftPadded(16) + String(low, radix: 16, uppercase: upper).leftPadded(16)
        let characters = Array(digits)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    @Test(arguments: 0..<20)
    func theTableAnswersAsADictionaryDoes(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var table = IDLines()
        var reference: [UUIDKey: Int] = [:]
        // Up to 5 000 ids (the table grows from 1 024 slots), a third of them seen before, some
        // differing from another in one half only, and some ids that are not UUIDs.
        var seen: [UUIDKey] = []
        for line in 1...Int.random(in: 1...5_000, using: &random) {
            let key: UUIDKey
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2 where !seen.isEmpty: key = seen.randomElement(using: &random)!
            case 3 where !seen.isEmpty:
                guard case .bits(let high, _) = seen.randomElement(using: &random)! else { continue }
                key = .bits(high, random.next())
            case 4: key = .text("id-\(Int.random(in: 0..<300, using: &random))")
            default: key = .bits(random.next(), random.next())
            }
            seen.append(key)
            let first = reference[key]
            if first == nil { reference[key] = line }
            #expect(table.insert(key, line: line) == first)
        }
    }

    @Test(arguments: 0..<20)
    func anIDIsReadInOnePassAsTheCheckAndTheLowerCaseRead(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        for _ in 0..<500 {
            let (high, low) = (random.next(), random.next())
            var text = Self.text(high, low, upper: Bool.random(using: &random))
            // Spoil some: a character changed, one dropped or added.
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                var characters = Array(text)
                characters[Int.random(in: 0..<36, using: &random)] = ["g", "-", "x", " ", "é", "0", "A"].randomElement(using: &random)!
                text = String(characters)
            case 1: text.removeLast()
            case 2: text += "0"
            default: break
            }
            let bits = UUIDKey.bits(text)
            #expect((bits != nil) == StableID.isUUID(text), "\(text)")
            guard let bits else { continue }
            #expect(bits.isLowerCase == (text == text.lowercased()), "\(text)")
            // The bits the text was written from, unless a spoilt character was still a hex digit.
            if text.lowercased() == Self.text(high, low, upper: false) { #expect(bits.high == high && bits.low == low, "\(text)") }
            #expect(UUIDKey(text.lowercased()) == .bits(bits.high, bits.low), "\(text)")
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
