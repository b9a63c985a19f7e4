/// An amount of money: an integer count of minor units (kopecks, cents) in one currency.
///
/// Never a floating-point number. Arithmetic is checked: an overflow is an error, not a crash.
/// ```swift
/// let rub = try Currency("RUB")
/// let price = try Money(parsing: "1 234,50", currency: rub)   // 123450 kopecks
/// price.formatted()          // "1 234.50"
/// price.plain                // "1234.50"
/// ```
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// Signed count of minor units.
    public var minor: Int64
    public var currency: Currency

    /// `minor` units (kopecks, cents) of `currency`.
    public init(minor: Int64, currency: Currency) {
        self.minor = minor
        self.currency = currency
    }

    /// Nothing, in `currency`.
    public static func zero(_ currency: Currency) -> Money { Money(minor: 0, currency: currency) }

    public var isZero: Bool { minor == 0 }
    public var isNegative: Bool { minor < 0 }

    /// `self + other`, or an error on overflow or a different currency.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency.code, other.currency.code) }
        let (sum, overflow) = minor.addingReportingOverflow(other.minor)
        if overflow { throw .overflow("\(plain) + \(other.plain) \(currency.code)") }
        return Money(minor: sum, currency: currency)
    }

    /// `self - other`, or an error on overflow or a different currency.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency.code, other.currency.code) }
        let (difference, overflow) = minor.subtractingReportingOverflow(other.minor)
        if overflow { throw .overflow("\(plain) - \(other.plain) \(currency.code)") }
        return Money(minor: difference, currency: currency)
    }

    /// `-self`, or an error for the one value whose negation does not fit.
    public func negated() throws(MoneyError) -> Money {
        guard minor != .min else { throw .overflow("-(\(plain)) \(currency.code)") }
        return Money(minor: -minor, currency: currency)
    }

    /// `self * factor`, or an error on overflow.
    public func multiplied(by factor: Int64) throws(MoneyError) -> Money {
        let (product, overflow) = minor.multipliedReportingOverflow(by: factor)
        if overflow { throw .overflow("\(plain) × \(factor) \(currency.code)") }
        return Money(minor: product, currency: currency)
    }

    public var description: String { "\(plain) \(currency.code)" }
}

/// Checked sum of minor units: the building block for balances.
@inlinable
public func checkedSum(_ a: Int64, _ b: Int64) throws(MoneyError) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { throw .overflow("a balance") }
    return sum
}
