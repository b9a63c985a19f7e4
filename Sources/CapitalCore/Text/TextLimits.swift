/// What a name or a free text typed in, read from a file or sent to the server may hold: no
/// control characters (a TAB or a line break breaks every table and CSV row it is printed in; a
/// note may have line breaks), and at most so many characters. The store checks every name and text against these on the way in.
/// ```swift
/// TextLimits.problem(in: "Food\tand drink", limit: TextLimits.name)   // "a control character (U+0009)"
/// ```
public enum TextLimits {
    /// The most characters a name may have: an account, category, group, schedule, tag, payee or
    /// spender.
    public static let name = 200
    /// The most characters a free text may have: a note, a due's reason.
    public static let text = 2000

    /// Whether `scalar` is a control character: C0 (U+0000–U+001F: TAB, line feed, carriage
    /// return, escape…), DEL (U+007F) or C1 (U+0080–U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// What is wrong with `text` as a name or text of at most `limit` characters, in words
    /// (`a control character (U+0009)`, `201 characters, more than 200`), or nil when nothing is.
    /// With `lineBreaks` (a note: a bank's memo often spans lines) line feeds and carriage returns
    /// are allowed; every other control character is refused all the same.
    /// - Complexity: O(n) in the text's length; printable ASCII text within the limit is one pass
    ///   over its bytes.
    public static func problem(in text: String, limit: Int, lineBreaks: Bool = false) -> String? {
        let bytes = text.utf8
        if bytes.count <= limit, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        let refused = { (scalar: Unicode.Scalar) in isControl(scalar) && !(lineBreaks && (scalar == "\n" || scalar == "\r")) }
        if let control = text.unicodeScalars.first(where: refused) {
            return "a control character (U+\(hex(control.value)))"
        }
        let count = text.count
        return count > limit ? "\(count) characters, more than \(limit)" : nil
    }

    /// `0009`: four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).reversed().map { digits[Int((value >> (UInt32($0) * 4)) & 0xF)] })
    }
}
