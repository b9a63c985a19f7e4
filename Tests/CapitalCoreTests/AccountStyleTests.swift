import Testing

@testable import CapitalCore

@Suite("Account colour and icon")
struct AccountStyleTests {
    /// What is typed, and what is stored: names fold to lower case, hex to lower-case digits.
    static let goodColors: [(String, String)] = [
        ("red", "red"), ("Green", "green"), ("WHITE", "white"), ("bright-blue", "bright-blue"), ("BrightCyan", "bright-cyan"),
        ("bright_black", "bright-black"), ("#FF8800", "#ff8800"), ("#00ff00", "#00ff00"), ("#000000", "#000000"), ("#aBcDeF", "#abcdef"),
    ]

    @Test(arguments: goodColors)
    func colorsAreStoredInOneSpelling(typed: String, stored: String) throws {
        #expect(try Account.checkedColor(typed) == stored)
    }

    @Test func hexColorsKeepTheirChannels() throws {
        #expect(try AccountColor(parsing: "#FF8001") == .rgb(red: 255, green: 128, blue: 1))
        #expect(try AccountColor(parsing: "bright-red") == .named(.brightRed))
        #expect(TerminalColor.red.number == 1 && TerminalColor.brightRed.number == 9 && TerminalColor.brightWhite.number == 15)
    }

    static let badColors: [(String, String)] = [
        ("purpleish", "not a colour"), ("#12345", "six hex digits"), ("#1234567", "six hex digits"), ("#GGGGGG", "six hex digits"),
        ("", "not a colour"), ("#", "six hex digits"), ("123456", "not a colour"), ("bright-", "not a colour"), ("#ＡＢＣＤＥＦ", "six hex digits"),
    ]

    @Test(arguments: badColors)
    func otherColorsAreRefusedNamingTheFieldAndTheValue(text: String, reason: String) {
        #expect {
            try Account.checkedColor(text, field: "--color")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("--color '\(text)': ") && message.contains(reason)
        }
    }

    /// One grapheme each, however many scalars: a flag, a skin tone, a ZWJ sequence, a keycap.
    static let goodIcons = ["🛒", "🇷🇺", "👍🏽", "👩‍💻", "🏳️‍🌈", "1️⃣", "★", "₽", "é"]

    @Test(arguments: goodIcons)
    func oneNonASCIICharacterIsAnIcon(icon: String) throws {
        #expect(try Account.checkedIcon(icon) == icon)
    }

    static let badIcons: [(String, String)] = [
        ("x", "non-ASCII"), ("ab", "exactly one character"), ("🛒🛒", "exactly one character"), ("", "exactly one character"),
        ("👨‍👩‍👧‍👦", "at most 16 bytes"), ("\u{00A0}", "visible"), ("\u{200B}", "visible"), ("\u{0301}", "visible"), ("\u{85}", "visible"),
        ("🛒 ", "exactly one character"),
    ]

    @Test(arguments: badIcons)
    func otherIconsAreRefusedNamingTheFieldAndTheValue(text: String, reason: String) {
        #expect {
            try Account.checkedIcon(text, field: "--icon")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("--icon '\(text)': ") && message.contains(reason)
        }
    }

    @Test func anAccountHasNoColourOrIconUnlessGiven() throws {
        let plain = Account(id: "a", name: "Groceries", kind: .expense, currency: try Currency("RUB"))
        #expect(plain.color == nil && plain.icon == nil && plain.parsedColor == nil)
        let styled = Account(id: "a", name: "Groceries", kind: .expense, currency: try Currency("RUB"), color: "green", icon: "🛒")
        #expect(styled.parsedColor == .named(.green))
    }
}
