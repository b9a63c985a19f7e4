/// What one currency is worth in the ledger's currency on a day, exact: `value` units of the
/// ledger's currency for `per` units of `currency` (central banks quote some currencies per 10 or
/// per 100). `value` is a decimal of at most 10 significant digits, kept as an integer and a power
/// of ten, never as floating point.
///
/// ```swift
/// let usd = try ExchangeRate.Decimal(parsing: "92.5012")   // 925012 × 10^-4
/// let rate = ExchangeRate(id: "r1", currency: try Currency("USD"), day: day, value: usd, per: 1)
/// rate.convert(100, from: try Currency("USD"), to: try Currency("RUB"))   // 1 USD → 9250 kopecks (92.50, half-even)
/// ```
public struct ExchangeRate: Hashable, Sendable {
    public var id: String
    /// The foreign currency.
    public var currency: Currency
    /// The day the rate holds from (until the next one).
    public var day: Day
    /// Units of the ledger's currency for `per` units of `currency`.
    public var value: Decimal
    /// How many units of `currency` `value` is for: 1 unless a bank quotes per 10 or 100.
    public var per: Int64

    /// `value` units of the ledger's currency for `per` units of `currency`, from `day` on.
    public init(id: String, currency: Currency, day: Day, value: Decimal, per: Int64 = 1) {
        self.id = id
        self.currency = currency
        self.day = day
        self.value = value
        self.per = per
    }

    /// A positive decimal with at most 10 significant digits: `coefficient × 10^-scale`.
    public struct Decimal: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The digits, without the decimal mark: 925012 for 92.5012.
        public let coefficient: Int64
        /// How many of those digits are decimals (0…18).
        public let scale: Int

        /// The most significant digits a rate keeps.
        public static let maximumDigits = 10

        /// `coefficient × 10^-scale`; trailing zero decimals are dropped, so equal values are equal.
        /// - Precondition: `coefficient > 0`, `0 <= scale <= 18`.
        public init(coefficient: Int64, scale: Int) {
            precondition(coefficient > 0 && (0...18).contains(scale), "a rate is positive, with 0 to 18 decimals")
            var coefficient = coefficient
            var scale = scale
            while scale > 0 && coefficient % 10 == 0 {
                coefficient /= 10
                scale -= 1
            }
            self.coefficient = coefficient
            self.scale = scale
        }

        /// Reads `92.5012`, `0,0123` (a decimal comma, as the Bank of Russia writes), `1e-3` is not
        /// accepted: plain digits with at most one decimal mark.
        /// - Throws: `ExchangeRateError` when the text is not a positive decimal of at most 10
        ///   significant digits.
        public init(parsing text: String) throws(ExchangeRateError) {
            let bytes = Array(text.utf8)
            var digits: Int64 = 0
            var significant = 0
            var scale = 0
            var seenMark = false
            var seenDigit = false
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    seenDigit = true
                    if seenMark { scale += 1 }
                    if significant > 0 || byte != UInt8(ascii: "0") {
                        significant += 1
                        if significant > Decimal.maximumDigits { throw .tooManyDigits(text) }
                    }
                    digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "."), UInt8(ascii: ","):
                    if seenMark { throw .notANumber(text) }
                    seenMark = true
                case UInt8(ascii: "-"):
                    throw .notPositive(text)
                default:
                    throw .notANumber(text)
                }
            }
            guard seenDigit else { throw .notANumber(text) }
            guard digits > 0 else { throw .notPositive(text) }
            // Trailing zeros past 18 decimals are the only way to get there: drop them first.
            while scale > 18 && digits % 10 == 0 {
                digits /= 10
                scale -= 1
            }
            guard scale <= 18 else { throw .tooManyDigits(text) }
            self.init(coefficient: digits, scale: scale)
        }

        /// `numerator / denominator` rounded half to even to 10 significant digits (a cross rate
        /// through a third currency, an inverse): nil when both are not positive or the value
        /// rounds to zero at 18 decimals or passes Int64.
        public init?(rounding numerator: Int128, over denominator: Int128) {
            guard numerator > 0, denominator > 0 else { return nil }
            let low = Int128(1_000_000_000)  // 10^(digits − 1)
            let high = low * 10
            var scale = 0
            var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
            var divisor = denominator
            // Too many integer digits: divide further (the rounded value ends in zeros).
            var zeros = 0
            while quotient >= high {
                divisor *= 10
                zeros += 1
                (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: divisor)
            }
            var scaled = numerator
            while quotient < low && scale < 18 {
                scale += 1
                scaled *= 10
                (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: divisor)
            }
            let twice = remainder * 2
            if twice > divisor || (twice == divisor && quotient % 2 != 0) { quotient += 1 }
            for _ in 0..<zeros { quotient *= 10 }
            guard quotient > 0, let coefficient = Int64(exactly: quotient) else { return nil }
            self.init(coefficient: coefficient, scale: scale)
        }

        /// The value as a fraction: `coefficient / 10^scale`.
        public var fraction: (numerator: Int128, denominator: Int128) {
            var denominator: Int128 = 1
            for _ in 0..<scale { denominator *= 10 }
            return (Int128(coefficient), denominator)
        }

        /// `92.5012`, without trailing zeros.
        public var description: String {
            guard scale > 0 else { return String(coefficient) }
            var text = String(coefficient)
            if text.count <= scale { text = String(repeating: "0", count: scale - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
            return text
        }

        /// Compares the values, not the digits (`1.5 < 1.55`).
        public static func < (lhs: Decimal, rhs: Decimal) -> Bool {
            let scale = max(lhs.scale, rhs.scale)
            return lhs.widened(to: scale) < rhs.widened(to: scale)
        }

        /// The coefficient at a larger scale, in 128 bits.
        func widened(to scale: Int) -> Int128 {
            var value = Int128(coefficient)
            for _ in self.scale..<scale { value *= 10 }
            return value
        }
    }

    /// The rate for one unit: `value / per`, exact when it has 10 significant digits or fewer,
    /// else rounded half to even to 10 (`58.7967` per 100 is `0.587967`).
    public var perUnit: Decimal {
        guard per != 1 else { return value }
        let (numerator, denominator) = value.fraction
        return Decimal(rounding: numerator, over: denominator * Int128(per)) ?? value
    }

    /// `amount` minor units of `from` (this rate's currency) in minor units of `to` (the ledger's),
    /// rounded half to even; nil when the result does not fit in Int64.
    /// - Complexity: O(1): one 128-bit multiplication and division.
    public func convert(_ amount: Int64, from: Currency, to: Currency) -> Int64? {
        ExchangeRate.convert(amount, factor: Factor(self, from: from, to: to))
    }

    /// A rate ready to convert minor units: `numerator / denominator` ledger minor units per
    /// foreign minor unit.
    public struct Factor: Hashable, Sendable {
        public let numerator: Int128
        public let denominator: Int128

        /// `rate` from minor units of `from` to minor units of `to`.
        public init(_ rate: ExchangeRate, from: Currency, to: Currency) {
            self.init(
                coefficient: rate.value.coefficient, scale: rate.value.scale, per: rate.per, shift: to.exponent - from.exponent,
                powers: ExchangeRate.powersOfTen)
        }

        /// A rate of `coefficient` × 10^−`scale` per `per` units, between currencies whose minor
        /// units differ by `shift` decimal digits (the target's exponent less the source's);
        /// `powers` is `ExchangeRate.powersOfTen`, passed in by a caller making many.
        init(coefficient: Int64, scale: Int, per: Int64, shift: Int, powers: [Int128]) {
            let numerator = Int128(coefficient) * powers[max(0, shift)]
            let denominator = Int128(per) * powers[scale + max(0, -shift)]
            self.numerator = numerator
            self.denominator = denominator
            if let n = Int64(exactly: numerator), let d = Int64(exactly: denominator), d < Int64.max / 2 {
                small = (n, d)
            } else {
                small = nil
            }
        }

        /// The factor in 64 bits, when both parts fit.
        let small: (numerator: Int64, denominator: Int64)?

        /// Equal parts, whatever the 64-bit copy.
        public static func == (lhs: Factor, rhs: Factor) -> Bool { lhs.numerator == rhs.numerator && lhs.denominator == rhs.denominator }
        /// Hashes the parts.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(numerator)
            hasher.combine(denominator)
        }
    }

    /// 10⁰ … 10²⁴.
    static let powersOfTen: [Int128] = (0...24).reduce(into: [Int128]()) { table, n in table.append(n == 0 ? 1 : table[n - 1] * 10) }

    /// `amount × factor`, rounded half to even; nil past Int64.
    public static func convert(_ amount: Int64, factor: Factor) -> Int64? {
        // Most balances times most rates fit in 64 bits: a hardware division instead of a 128-bit one.
        if let numerator = factor.small?.numerator, let denominator = factor.small?.denominator {
            let (product, overflow) = amount.multipliedReportingOverflow(by: numerator)
            if !overflow {
                var quotient = product / denominator
                let twice = (product % denominator).magnitude * 2
                if twice > denominator.magnitude || (twice == denominator.magnitude && quotient % 2 != 0) {
                    quotient += product < 0 ? -1 : 1
                }
                return quotient
            }
        }
        let (product, overflow) = Int128(amount).multipliedReportingOverflow(by: factor.numerator)
        if overflow { return nil }
        var quotient = product / factor.denominator
        let remainder = product % factor.denominator
        let twice = remainder.magnitude * 2
        let denominator = factor.denominator.magnitude
        if twice > denominator || (twice == denominator && quotient % 2 != 0) {
            quotient += product < 0 ? -1 : 1
        }
        return Int64(exactly: quotient)
    }
}

/// Why a rate could not be read or used.
public enum ExchangeRateError: Error, Equatable, Sendable, CustomStringConvertible {
    case notANumber(String)
    case notPositive(String)
    case tooManyDigits(String)

    public var description: String {
        switch self {
        case .notANumber(let text), .notPositive(let text), .tooManyDigits(let text): "'\(text)': \(reason)".singleLine
        }
    }

    /// Why, without the text.
    public var reason: String {
        switch self {
        case .notANumber: "not a rate: expected a decimal such as 92.5012"
        case .notPositive: "a rate must be above zero"
        case .tooManyDigits: "a rate has at most \(ExchangeRate.Decimal.maximumDigits) significant digits"
        }
    }
}
