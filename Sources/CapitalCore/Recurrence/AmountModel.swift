/// How much a scheduled occurrence is: a fixed amount, or a range `LO..HI` with an expected value
/// (the midpoint unless given). Minor units, never negative.
///
/// The forecast uses `expected`; availability answers use the pessimistic end (outflows at `high`,
/// inflows at `low`).
public struct AmountModel: Hashable, Sendable {
    public var low: Int64
    public var high: Int64
    public var expected: Int64

    /// A fixed amount.
    public init(fixed: Int64) {
        low = fixed
        high = fixed
        expected = fixed
    }

    /// A range; `expected` defaults to the midpoint, rounded down to the minor unit.
    /// - Throws: `AmountModelError` when `low > high` or `expected` lies outside the range.
    public init(low: Int64, high: Int64, expected: Int64? = nil) throws(AmountModelError) {
        guard low <= high else { throw .reversed("\(low)..\(high) (minor units)") }
        let midpoint = low + (high - low) / 2
        let value = expected ?? midpoint
        guard value >= low && value <= high else { throw .expectedOutside(expected: value, low: low, high: high) }
        self.low = low
        self.high = high
        self.expected = value
    }

    public var isFixed: Bool { low == high }

    /// Parses `500`, `250..500` (or `250-500` is refused: `-` is a sign) in a currency with `exponent`.
    /// - Throws: `AmountModelError` for `500..250`, a bad number, or a negative bound.
    public static func parse(_ text: String, expected: String? = nil, exponent: Int, code: String) throws(AmountModelError) -> AmountModel {
        func number(_ part: String) throws(AmountModelError) -> Int64 {
            do {
                let value = try Money.parseMinor(part, exponent: exponent, code: code)
                guard value >= 0 else { throw AmountModelError.negative(part) }
                return value
            } catch let error as AmountModelError {
                throw error
            } catch let error as MoneyError {
                throw .money(error)
            } catch {
                throw .money(.notANumber(part, reason: "\(error)"))
            }
        }
        let expectedMinor = try expected.map { (text: String) throws(AmountModelError) -> Int64 in try number(text) }
        let parts = text.split(atASCII: "..")
        switch parts.count {
        case 1:
            let value = try number(parts[0])
            if let expectedMinor, expectedMinor != value { throw .expectedOutside(expected: expectedMinor, low: value, high: value) }
            return AmountModel(fixed: value)
        case 2:
            let low = try number(parts[0])
            let high = try number(parts[1])
            guard low <= high else { throw .reversed(text) }
            return try AmountModel(low: low, high: high, expected: expectedMinor)
        default:
            throw .money(.notANumber(text, reason: "expected AMOUNT or LOW..HIGH"))
        }
    }

    /// `500.00` or `250.00..500.00` in a currency with `exponent`.
    public func text(exponent: Int) -> String {
        let low = Money.format(minor: self.low, exponent: exponent, grouping: nil)
        return isFixed ? low : low + ".." + Money.format(minor: high, exponent: exponent, grouping: nil)
    }
}

/// Why an amount model was refused.
public enum AmountModelError: Error, Equatable, Sendable, CustomStringConvertible {
    case reversed(String)
    case expectedOutside(expected: Int64, low: Int64, high: Int64)
    case negative(String)
    case money(MoneyError)

    public var description: String {
        switch self {
        case .reversed(let text):
            return "'\(text)': the range starts above its end; write LOW..HIGH"
        case .expectedOutside(let expected, let low, let high):
            return "the expected value lies outside the range (\(expected) not in \(low)..\(high) minor units)"
        case .negative(let text):
            return "'\(text)' is negative; a schedule's amount is positive and its postings say which way it flows"
        case .money(let error):
            return error.description
        }
    }
}
