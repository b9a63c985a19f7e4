/// The colour a category (or any account) is drawn in: one of the sixteen terminal colours, or
/// any colour as `#RRGGBB`.
///
/// ```swift
/// try AccountColor(parsing: "Bright-Green").description   // "bright-green"
/// try AccountColor(parsing: "#FF8800").description        // "#ff8800"
/// try AccountColor(parsing: "purpleish")                  // throws: not a colour name or #RRGGBB
/// ```
public enum AccountColor: Hashable, Sendable, CustomStringConvertible {
    case named(TerminalColor)
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// Reads a colour name (case-insensitive, `bright-red` or `brightred`) or `#RRGGBB`
    /// (hexadecimal, either case).
    /// - Throws: `AccountStyleError` naming `field`, the text and what a colour looks like.
    public init(parsing text: String, field: String = "{color}") throws(AccountStyleError) {
        let lower = text.lowercased()
        if lower.hasPrefix("#") {
            let digits = lower.dropFirst()
            guard digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII), let value = UInt32(digits, radix: 16) else {
                throw .invalid(field: field, value: text, reason: "a colour in hex is # and six hex digits, such as #ff8800")
            }
            self = .rgb(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
            return
        }
        let squeezed = lower.replacing("_", with: "-")
        if let color = TerminalColor(rawValue: squeezed)
            ?? TerminalColor.allCases.first(where: { $0.rawValue.replacing("-", with: "") == squeezed })
        {
            self = .named(color)
            return
        }
        throw .invalid(field: field, value: text, reason: "not a colour; expected #RRGGBB or one of \(TerminalColor.names)")
    }

    /// The canonical text, stored and written to ledger files: `red`, `bright-blue`, `#ff8800`.
    public var description: String {
        switch self {
        case .named(let color): return color.rawValue
        case .rgb(let red, let green, let blue): return "#" + [red, green, blue].map(AccountColor.hex).joined()
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }
}

/// The sixteen colours every terminal has, by their usual names.
public enum TerminalColor: String, CaseIterable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack = "bright-black", brightRed = "bright-red", brightGreen = "bright-green", brightYellow = "bright-yellow"
    case brightBlue = "bright-blue", brightMagenta = "bright-magenta", brightCyan = "bright-cyan", brightWhite = "bright-white"

    /// 0…7 for the eight base colours, 8…15 for the bright ones: the ANSI colour number.
    public var number: Int { TerminalColor.allCases.firstIndex(of: self)! }

    /// The names, listed for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Why a colour or an icon was refused.
public typealias AccountStyleError = FieldError

extension Account {
    /// The most UTF-8 bytes an icon may take: enough for a flag, a skin tone or a short ZWJ
    /// sequence (🏳️‍🌈 is 14), not for a paragraph hidden in one "character".
    public static let maximumIconBytes = 16

    /// The colour, parsed; nil when there is none (or the stored text is not a colour).
    public var parsedColor: AccountColor? { color.flatMap { try? AccountColor(parsing: $0) } }

    /// Checks a colour and returns its canonical spelling (`#FF8800` → `#ff8800`).
    /// - Throws: `AccountStyleError` for anything but a terminal colour name or `#RRGGBB`.
    public static func checkedColor(_ text: String, field: String = "{color}") throws(AccountStyleError) -> String {
        try AccountColor(parsing: text, field: field).description
    }

    /// Checks an icon: exactly one character (one grapheme: 🛒, 🇷🇺, 👩‍💻 all count as one) that is
    /// not ASCII — an emoji or another symbol — at most `maximumIconBytes` long, and visible:
    /// not a space, a control or format character, or a mark standing alone.
    /// - Returns: the icon as given.
    /// - Throws: `AccountStyleError` naming `field`, the text and why.
    public static func checkedIcon(_ text: String, field: String = "{icon}") throws(AccountStyleError) -> String {
        guard text.count == 1, let scalar = text.unicodeScalars.first else {
            throw .invalid(field: field, value: text, reason: "an icon is exactly one character (an emoji); this is \(text.count)")
        }
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw .invalid(field: field, value: text, reason: "an icon is an emoji or another non-ASCII symbol, not a plain letter, digit or sign")
        }
        guard text.utf8.count <= maximumIconBytes else {
            throw .invalid(field: field, value: text, reason: "an icon is at most \(maximumIconBytes) bytes of UTF-8; this one is \(text.utf8.count)")
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark, .spacingMark, .enclosingMark, .surrogate:
            throw .invalid(field: field, value: text, reason: "an icon must be visible: not a space, a control or format character, or a lone mark")
        default:
            return text
        }
    }
}
