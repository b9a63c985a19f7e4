/// An ISO 4217 currency: its three-letter code and the number of decimal digits of its minor unit.
///
/// ```swift
/// let rub = try Currency("RUB")   // exponent 2: 1 rouble = 100 kopecks
/// let yen = try Currency("JPY")   // exponent 0
/// ```
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The upper-case ISO 4217 code, e.g. `RUB`.
    public let code: String
    /// Decimal digits of the minor unit: 2 for RUB, USD, EUR; 0 for JPY; 3 for KWD.
    public let exponent: Int

    /// Looks up an ISO 4217 code (case-insensitive).
    /// - Throws: `MoneyError.unknownCurrency` for a code not in ISO 4217.
    public init(_ code: String) throws(MoneyError) {
        let upper = String(code.uppercased())
        guard let exponent = Currency.exponents[upper] else {
            throw .unknownCurrency(code)
        }
        self.code = upper
        self.exponent = exponent
    }

    public var description: String { code }

    /// `10^exponent`: minor units in one major unit.
    public var minorPerMajor: Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// Every active ISO 4217 code with its minor-unit exponent.
    static let exponents: [String: Int] = {
        var table: [String: Int] = [:]
        let twoDigit = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD \
            CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD \
            GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD \
            MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP \
            PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS \
            TMT TOP TRY TTD TWD TZS UAH USD UZS VES WST XCD YER ZAR ZMW ZWG
            """
        for code in twoDigit.split(separator: " ") { table[String(code)] = 2 }
        for code in ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"] {
            table[code] = 0
        }
        for code in ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"] { table[code] = 3 }
        table["CLF"] = 4
        table["UYW"] = 4
        return table
    }()
}
