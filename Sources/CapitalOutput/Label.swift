import CapitalCore

/// An account's name as tables show it: its icon before it and, on a colour terminal, the name
/// in its colour. JSON and CSV get the bare name.
package struct Label {
    package var name: String
    package var icon: String?
    package var color: AccountColor?

    package init(name: String, icon: String? = nil, color: AccountColor? = nil) {
        self.name = name
        self.icon = icon
        self.color = color
    }

    package init(_ account: Account) {
        self.init(name: account.name, icon: account.icon, color: account.parsedColor)
    }

    /// `🛒 Groceries`, or the bare name.
    package var plain: String { icon.map { $0 + " " + name } ?? name }

    /// `plain` with the name (not the icon) in its colour when `color` is on.
    package func styled(color enabled: Bool) -> String {
        guard enabled, let color else { return plain }
        return (icon.map { $0 + " " } ?? "") + "\u{1B}[\(color.sgr)m" + name + "\u{1B}[0m"
    }
}

/// Labels of a ledger's accounts by id, for listings that name accounts.
package struct AccountLabels {
    private let byID: [String: Label]

    package init(_ accounts: [Account]) {
        byID = Dictionary(accounts.map { ($0.id, Label($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The account's label; its id when it is not known.
    package subscript(id: String) -> Label { byID[id] ?? Label(name: id) }
}

package extension AccountColor {
    /// The SGR parameters of the colour as a foreground: `31`, `92`, or `38;2;255;136;0`.
    var sgr: String {
        switch self {
        case .named(let color): return String(color.number < 8 ? 30 + color.number : 90 + color.number - 8)
        case .rgb(let red, let green, let blue): return "38;2;\(red);\(green);\(blue)"
        }
    }
}

package extension String {
    /// Terminal columns the text takes: two for an emoji or a wide East Asian character, one for
    /// anything else (combining marks are part of their character). What tables pad by, so a
    /// column with icons stays aligned.
    var displayWidth: Int {
        // Printable ASCII (most cells: dates, amounts, names) is one column a byte.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        return reduce(0) { $0 + $1.displayWidth }
    }
}

package extension Character {
    /// 2 for a character drawn double-width (emoji presentation, an emoji variation selector,
    /// East Asian wide and full-width ranges), else 1.
    var displayWidth: Int {
        guard let first = unicodeScalars.first, !isASCII else { return 1 }
        if first.properties.isEmojiPresentation || unicodeScalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji {
            return 2
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
