/// Text made safe for HTML and SVG, written so that the page is also well-formed XML: the five
/// characters with a meaning in markup become entities, and characters XML forbids are dropped.
package enum HTML {
    /// `text` as element content or an attribute value (quoted with `"`).
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // XML 1.0 allows no other C0 control, no lone surrogate (Swift has none) and not U+FFFE/U+FFFF.
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An element with attributes (nil values left out) around already-escaped `content`.
    package static func element(_ name: String, _ attributes: [(String, String?)] = [], _ content: String) -> String {
        "<\(name)\(attributeText(attributes))>\(content)</\(name)>"
    }

    /// An element with no content, closed XML-style (`<rect … />`).
    package static func empty(_ name: String, _ attributes: [(String, String?)]) -> String {
        "<\(name)\(attributeText(attributes))/>"
    }

    private static func attributeText(_ attributes: [(String, String?)]) -> String {
        var text = ""
        for (name, value) in attributes {
            guard let value else { continue }
            text += " \(name)=\"\(escape(value))\""
        }
        return text
    }
}
