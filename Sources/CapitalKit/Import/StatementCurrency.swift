/// What a currency sign or code printed in a statement stands for: `€`, `EUR`, `руб.`, `$` (any of
/// the dollars and pesos written so), `¥` (yen or yuan).
enum StatementCurrency {
    /// The ISO 4217 codes `mark` may stand for: itself for three letters, the currencies written
    /// with a sign for a sign capital knows, nil for one it does not (which then names no currency
    /// that could be checked).
    static func codes(_ mark: String) -> Set<String>? {
        var key = mark.uppercased()
        while key.hasSuffix(".") { key.removeLast() }
        if let known = signs[key] { return known }
        if key.unicodeScalars.count == 3, key.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) { return [key] }
        return nil
    }

    /// Whether `mark` may be the currency `code` (a sign capital does not know may).
    static func matches(_ mark: String, _ code: String) -> Bool { codes(mark)?.contains(code) ?? true }

    /// Whether two marks may name one currency.
    static func agree(_ one: String, _ other: String) -> Bool {
        guard let first = codes(one), let second = codes(other) else { return true }
        return !first.isDisjoint(with: second)
    }

    private static let dollars: Set = ["USD", "CAD", "AUD", "NZD", "HKD", "SGD", "TWD", "MXN", "ARS", "CLP", "COP", "UYU"]
    private static let rupees: Set = ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"]

    /// Signs and local abbreviations (upper case, without dots) and the currencies they write.
    private static let signs: [String: Set<String>] = [
        "$": dollars, "US$": ["USD"], "C$": ["CAD"], "CA$": ["CAD"], "A$": ["AUD"], "AU$": ["AUD"], "NZ$": ["NZD"], "HK$": ["HKD"],
        "S$": ["SGD"], "R$": ["BRL"], "€": ["EUR"], "£": ["GBP"], "₽": ["RUB"], "РУБ": ["RUB"], "Р": ["RUB"], "RUR": ["RUB", "RUR"],
        "¥": ["JPY", "CNY"], "円": ["JPY"], "元": ["CNY"], "₹": ["INR"], "RS": rupees, "₨": rupees, "₴": ["UAH"], "ГРН": ["UAH"],
        "₸": ["KZT"], "₺": ["TRY"], "TL": ["TRY"], "₩": ["KRW"], "₪": ["ILS"], "ZŁ": ["PLN"], "KČ": ["CZK"], "FT": ["HUF"],
        "ЛВ": ["BGN"], "KR": ["SEK", "NOK", "DKK", "ISK"], "FR": ["CHF"], "LEI": ["RON", "MDL"], "฿": ["THB"], "₫": ["VND"],
        "₦": ["NGN"], "₱": ["PHP"], "₾": ["GEL"], "₼": ["AZN"], "₡": ["CRC"], "₲": ["PYG"], "₮": ["MNT"], "₭": ["LAK"],
    ]
}
