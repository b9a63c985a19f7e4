#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rules file's regular expression, as hledger reads it: POSIX extended syntax, case-insensitive,
/// matching anywhere in the text unless anchored.
///
/// Compiled once per rules file. Most patterns bank rules hold are words and alternatives of words
/// (`REWE|EDEKA|LIDL`, `^ATM`); those are matched as case-folded substrings without the regex
/// engine, which is many times faster. The rest go to the C library's `regcomp`/`regexec`
/// (`REG_EXTENDED | REG_ICASE`) in a UTF-8 character locale, so that `[а-я]` and case folding
/// work on Cyrillic and accented letters.
public final class RulePattern: @unchecked Sendable {
    /// The pattern as written.
    public let source: String
    private let alternatives: [Literal]?
    private var compiled: regex_t

    /// A literal alternative: its case-folded text and whether it is anchored at the start or end.
    private struct Literal {
        var text: [UInt8]
        var atStart: Bool
        var atEnd: Bool
    }

    /// Compiles `source`; the error is the C library's own message.
    public init(_ source: String) throws(RulePatternError) {
        self.source = source
        Self.useUTF8Characters
        alternatives = Self.literals(source)
        compiled = regex_t()
        let status = regcomp(&compiled, source, REG_EXTENDED | REG_ICASE | REG_NOSUB)
        if status != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(status, &compiled, &buffer, buffer.count)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            regfree(&compiled)
            throw RulePatternError(pattern: source, reason: message)
        }
    }

    deinit { regfree(&compiled) }

    /// Whether the pattern matches somewhere in `text`; `folded` is `RulePattern.fold(text)`,
    /// computed once per text by the caller when several patterns look at it.
    public func matches(_ text: String, folded: [UInt8]) -> Bool {
        if let alternatives {
            return alternatives.contains { Self.contains(folded, $0) }
        }
        return regexec(&compiled, text, 0, nil, 0) == 0
    }

    /// `text` case-folded for the literal fast path: Unicode lowercase, as UTF-8 bytes.
    public static func fold(_ text: String) -> [UInt8] { Array(text.lowercased().utf8) }

    /// `LC_CTYPE` set to UTF-8 once per process (the rest of the locale is left alone): the C
    /// library's regex then reads characters, not bytes, and folds case beyond ASCII.
    private static let useUTF8Characters: Void = {
        if setlocale(LC_CTYPE, "C.UTF-8") == nil { _ = setlocale(LC_CTYPE, "en_US.UTF-8") }
    }()

    /// The alternatives of a pattern made only of plain text (letters, digits, spaces and
    /// punctuation without a meaning in extended regular expressions), optionally anchored; nil
    /// for any other pattern.
    private static func literals(_ source: String) -> [Literal]? {
        var result: [Literal] = []
        for part in source.split(separator: "|", omittingEmptySubsequences: false) {
            var text = Substring(part)
            let atStart = text.first == "^"
            if atStart { text = text.dropFirst() }
            let atEnd = text.last == "$"
            if atEnd { text = text.dropLast() }
            if text.isEmpty || text.contains(where: { "\\.[]()*+?{}^$".contains($0) }) { return nil }
            result.append(Literal(text: fold(String(text)), atStart: atStart, atEnd: atEnd))
        }
        return result.isEmpty ? nil : result
    }

    /// Whether `haystack` holds `literal` where its anchors allow.
    private static func contains(_ haystack: [UInt8], _ literal: Literal) -> Bool {
        let needle = literal.text
        if needle.count > haystack.count { return false }
        if literal.atStart { return haystack.starts(with: needle) && (!literal.atEnd || haystack.count == needle.count) }
        if literal.atEnd { return haystack.suffix(needle.count).elementsEqual(needle) }
        guard let first = needle.first else { return true }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count && haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}

/// A rules file's regular expression that does not compile.
public struct RulePatternError: Error, Sendable, Equatable {
    public var pattern: String
    /// The C library's message (`Unmatched ( or \(`).
    public var reason: String
}
