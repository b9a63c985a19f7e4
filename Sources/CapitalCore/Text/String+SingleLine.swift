extension String {
    /// This text on one line: line breaks, tabs and other control characters are written as
    /// escapes, as are the Unicode line and paragraph separators, so that an error message quoting
    /// what a user typed (a YAML block scalar, a pasted IBAN) stays one line on a terminal.
    /// ```swift
    /// "monthly\non 5".singleLine      // "monthly\\non 5"
    /// "DE89\r\n3704".singleLine       // "DE89\\r\\n3704"
    /// "\u{1B}[31m".singleLine         // "\\u{1B}[31m"
    /// ```
    /// - Complexity: O(n); text without such characters is returned as it is.
    public var singleLine: String {
        guard unicodeScalars.contains(where: \.isEscapedOnOneLine) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard scalar.isEscapedOnOneLine else {
                out.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            default: out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            }
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// A control character (C0, DEL, C1) or a line or paragraph separator: what `singleLine` escapes.
    var isEscapedOnOneLine: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
