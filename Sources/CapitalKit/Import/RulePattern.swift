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
    /// Behind a pointer, not a stored `var`: threads reading statement records at once match
    /// through it (the C library's `regexec` may be called on one pattern from several threads;
    /// a stored variable passed `inout` would be an exclusive access each time).
    private let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
    /// Whether `compiled` holds a compiled pattern (else `fallback` does).
    private let compiledByC: Bool
    /// Swift's regex engine, for what the C library's cannot compile in its locale: ranges of
    /// letters beyond ASCII (`[а-я]`), which glibc's C.UTF-8 refuses as a collation error.
    private let fallback: Regex<AnyRegexOutput>?

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
        compiled.initialize(to: regex_t())
        let status = regcomp(compiled, source, REG_EXTENDED | REG_ICASE | REG_NOSUB)
        if status == 0 {
            compiledByC = true
            fallback = nil
            return
        }
        var buffer = [CChar](repeating: 0, count: 256)
        regerror(status, compiled, &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        regfree(compiled)
        compiledByC = false
        // REG_ECOLLATE (3 in glibc and BSD's regex.h): the range's ends are no collating elements here.
        guard status == 3, let regex = try? Regex(source) else {
            compiled.deallocate()
            throw RulePatternError(pattern: source, reason: message)
        }
        fallback = regex.ignoresCase()
    }

    deinit {
        if compiledByC { regfree(compiled) }
        compiled.deallocate()
    }

    /// Whether the pattern matches somewhere in `text`; `folded` is `RulePattern.fold(text)`,
    /// computed once per text by the caller when several patterns look at it.
    public func matches(_ text: String, folded: [UInt8]) -> Bool {
        if let alternatives {
            return alternatives.contains { Self.contains(folded, $0) }
        }
        if let fallback { return (try? fallback.firstMatch(in: text)) != nil }
        return regexec(compiled, text, 0, nil, 0) == 0
    }

    /// `text` case-folded for the literal fast path: Unicode lowercase, as UTF-8 bytes.
    public static func fold(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        // Byte by byte for ASCII, Latin-1 letters and Cyrillic (most bank text); anything else
        // through Unicode's lowercase.
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { bytes[index] = byte | 0x20 }
                index += 1
                continue
            }
            guard index + 1 < count else { return Array(text.lowercased().utf8) }
            let next = bytes[index + 1]
            switch byte {
            case 0xC3:  // U+00C0–U+00FF: À–Þ (but ×) fold to à–þ
                if next >= 0x80 && next <= 0x9E && next != 0x97 { bytes[index + 1] = next + 0x20 }
            case 0xD0:  // U+0400–U+043F
                if next >= 0x90 && next <= 0x9F {  // А–П → а–п
                    bytes[index + 1] = next + 0x20
                } else if next >= 0xA0 && next <= 0xAF {  // Р–Я → р–я
                    (bytes[index], bytes[index + 1]) = (0xD1, next - 0x20)
                } else if next >= 0x80 && next <= 0x8F {  // Ѐ–Џ (Ё) → ѐ–џ (ё)
                    (bytes[index], bytes[index + 1]) = (0xD1, next + 0x10)
                }
            case 0xD1:  // U+0440–U+047F: lower case, and some historic letters that are not
                if next >= 0xA0 { return Array(text.lowercased().utf8) }
            case 0xC2:  // U+0080–U+00BF: no letters with case
                break
            case 0xE2:  // U+2000–U+2FFF: punctuation, currency signs, arrows — no case
                if next >= 0x80 && next <= 0x82 {
                    index += 3
                    continue
                }
                return Array(text.lowercased().utf8)
            default:
                return Array(text.lowercased().utf8)
            }
            index += 2
        }
        return bytes
    }

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
        if needle.isEmpty { return true }
        // The C library's memchr finds each candidate first byte, memcmp checks the rest.
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let hayStart = hay.baseAddress, let pinStart = pin.baseAddress else { return false }
                let first = Int32(needle[0])
                var offset = 0
                let last = hay.count - pin.count
                while offset <= last {
                    guard let found = memchr(hayStart + offset, first, last - offset + 1) else { return false }
                    let at = hayStart.distance(to: UnsafeRawPointer(found))
                    if memcmp(hayStart + at, pinStart, pin.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }
}

/// A rules file's regular expression that does not compile.
public struct RulePatternError: Error, Sendable, Equatable {
    public var pattern: String
    /// The C library's message (`Unmatched ( or \(`).
    public var reason: String
}
