extension String {
    /// Whether `needle` occurs in this text, ASCII letters compared without case. A byte scan:
    /// `String.contains(_:)` on text goes through the string-processing library, hundreds of times
    /// slower, and a ledger file parses thousands of rules and amounts.
    func containsIgnoringASCIICase(_ needle: String) -> Bool {
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard haystack.count >= pattern.count else { return false }
        func folded(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
        outer: for start in 0...(haystack.count - pattern.count) {
            for offset in 0..<pattern.count where folded(haystack[start + offset]) != folded(pattern[offset]) { continue outer }
            return true
        }
        return false
    }

    /// The text split at every occurrence of the ASCII `separator` (empty parts kept), by bytes.
    func split(atASCII separator: String) -> [String] {
        let bytes = Array(utf8)
        let pattern = Array(separator.utf8)
        precondition(!pattern.isEmpty && pattern.allSatisfy { $0 < 0x80 }, "an ASCII separator")
        var parts: [String] = []
        var partStart = 0
        var index = 0
        while index + pattern.count <= bytes.count {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                parts.append(String(decoding: bytes[partStart..<index], as: UTF8.self))
                index += pattern.count
                partStart = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: bytes[partStart...], as: UTF8.self))
        return parts
    }
}
