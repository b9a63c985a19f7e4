/// Errors name the fields a person filled in by key, never by a front end's spelling of it.
///
/// A message template writes a key in braces — `{limit} '0': must be more than 0`,
/// `moves one occurrence: use {scope} one {at} DATE` — and each front end spells the keys its
/// own way: the command line as flags (`--limit`), a server as JSON field names, a ledger file
/// as the key itself. `description` spells every key as itself. What a person typed goes into a
/// template through `FieldKeys.literal`, so that a value `{hide}` stays that text.
public protocol KeyedError: Error, CustomStringConvertible {
    /// The message with its field keys in braces.
    var template: String { get }
}

extension KeyedError {
    /// The message with every key written as itself: `limit '0': must be more than 0`.
    public var description: String { FieldKeys.spell(template) { $0 } }
}

/// Spelling the `{key}` marks of a message template.
public enum FieldKeys {
    /// `text` with each `{key}` (a key is letters and digits starting with a letter, or such names
    /// and numbers joined by dots for a part of a record: `prepayments.1.amount`) replaced by
    /// `spelling(key)` and each `{{` by `{`; other braces are left as they are.
    ///
    ///     FieldKeys.spell("{dueDay} '40': a due day is 1 to 31") { $0.uppercased() }  // "DUEDAY '40': …"
    /// - Complexity: O(length of the text).
    public static func spell(_ text: String, _ spelling: (String) -> String) -> String {
        scan(text, key: spelling, doubledBrace: "{")
    }

    /// `template` with each `{key}` replaced by `spelling(key)`, a piece of template (another
    /// `{key}`, or text through `literal`), and everything else kept as it is: still a template.
    /// How a record's builder names a part (`{amount}` of the second prepayment becomes
    /// `{prepayments.1.amount}`) and a ledger file names a field by its place.
    ///
    ///     FieldKeys.rekey("{amount} '{{x': not a number") { "{prepayments.1.\($0)}" }
    ///     // "{prepayments.1.amount} '{{x': not a number"
    /// - Complexity: O(length of the text).
    public static func rekey(_ template: String, _ spelling: (String) -> String) -> String {
        scan(template, key: spelling, doubledBrace: "{{")
    }

    /// `text` with each `{key}` replaced by `key(name)` and each `{{` by `doubledBrace`; other
    /// braces are left as they are.
    private static func scan(_ text: String, key: (String) -> String, doubledBrace: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if afterOpen < rest.endIndex, rest[afterOpen] == "{" {
                out += doubledBrace
                rest = rest[rest.index(after: afterOpen)...]
            } else if let close = rest[afterOpen...].firstIndex(of: "}"), isKey(rest[afterOpen..<close]) {
                out += key(String(rest[afterOpen..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return out + rest
    }

    /// `text` to stand for itself in a template: each `{` doubled.
    public static func literal(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        for character in text {
            if character == "{" { out += "{{" } else { out.append(character) }
        }
        return out
    }

    /// A key is letters and digits starting with a letter, or such names and numbers joined by
    /// dots for a part of a record (`prepayments.1.amount`).
    private static func isKey(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        var previousDot = false
        for scalar in text.unicodeScalars {
            if scalar == "." {
                if previousDot { return false }
                previousDot = true
            } else if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                previousDot = false
            } else {
                return false
            }
        }
        return !previousDot
    }
}
