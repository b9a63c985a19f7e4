/// The fields of a scenario as a file or a command line writes them: text, by column. One
/// builder turns them into a `Scenario` for CSV rows, JSON objects and `scenario try` options,
/// so that all three read the same way and fail with the same messages.
///
/// | column | meaning |
/// | --- | --- |
/// | `name` | the scenario's name (default: its row number) |
/// | `price` | the purchase price (required) |
/// | `date` | the purchase day, YYYY-MM-DD (required) |
/// | `down` | the down payment with a loan (default 0) |
/// | `loan_rate`, `loan_term` | a loan for the rest: annual rate in percent, term in months |
/// | `loan_method` | `annuity` (default) or `linear` |
/// | `instalments` | or N interest-free monthly payments from the purchase day |
/// | `monthly_cost`, `yearly_cost` | new recurring costs from `cost_start` (default the purchase day) |
/// | `monthly_income_change` | more (or, negative, less) income each month from `income_start` |
/// | `sale`, `sale_date` | an asset sold: the amount and the day (default the purchase day) |
public enum ScenarioColumn: String, CaseIterable, Sendable {
    case name, price, date, down
    case loanRate = "loan_rate"
    case loanTerm = "loan_term"
    case loanMethod = "loan_method"
    case instalments
    case monthlyCost = "monthly_cost"
    case yearlyCost = "yearly_cost"
    case costStart = "cost_start"
    case incomeChange = "monthly_income_change"
    case incomeStart = "income_start"
    case sale
    case saleDate = "sale_date"

    /// The column whose case is named `key` (`loanRate`): how message templates name columns.
    public static func named(key: String) -> ScenarioColumn? { allCases.first { "\($0)" == key } }

    /// The column's position in `allCases`, without a lookup.
    var ordinal: Int {
        switch self {
        case .name: 0
        case .price: 1
        case .date: 2
        case .down: 3
        case .loanRate: 4
        case .loanTerm: 5
        case .loanMethod: 6
        case .instalments: 7
        case .monthlyCost: 8
        case .yearlyCost: 9
        case .costStart: 10
        case .incomeChange: 11
        case .incomeStart: 12
        case .sale: 13
        case .saleDate: 14
        }
    }
}

/// A scenario input that could not be read: the column (or option), the value and why.
public struct ScenarioFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public var column: String
    public var value: String
    /// Why, naming other columns by key in braces (`{loanRate}`): `reason(_:)` spells them.
    public var reason: String

    /// One line, with any line break in the quoted value escaped; columns named as a file names them.
    public var description: String { "\(column) '\(value)': \(reason { $0.rawValue })".singleLine }

    /// The reason with each column it names spelled by `spelling` (a file's column, an option).
    public func reason(_ spelling: (ScenarioColumn) -> String) -> String {
        FieldKeys.spell(reason) { key in ScenarioColumn.named(key: key).map(spelling) ?? key }
    }
}

extension Scenario {
    /// Builds a scenario from its fields (UTF-8 bytes, no surrounding spaces) in a currency with
    /// `exponent` decimals.
    /// - Parameter field: the field of a column, nil or empty when absent.
    /// - Throws: `ScenarioFieldError` naming the column, its value and why.
    public static func from(
        exponent: Int, _ field: (ScenarioColumn) -> ArraySlice<UInt8>?
    ) throws(ScenarioFieldError) -> Scenario {
        // One contiguous copy of the fields, read through pointers like a CSV line.
        var bytes: [UInt8] = []
        var ranges = [Range<Int>?](repeating: nil, count: ScenarioColumn.allCases.count)
        for column in ScenarioColumn.allCases {
            guard let value = field(column) else { continue }
            ranges[column.ordinal] = bytes.count..<bytes.count + value.count
            bytes += value
        }
        let result: Result<Scenario, ScenarioFieldError> = bytes.withUnsafeBufferPointer { base in
            do throws(ScenarioFieldError) {
                return .success(
                    try from(exponent: exponent) { column in ranges[column.ordinal].map { UnsafeBufferPointer(rebasing: base[$0]) } })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The same, with each field as bytes in memory the caller keeps alive for the call.
    static func from(
        exponent: Int, _ field: (ScenarioColumn) -> UnsafeBufferPointer<UInt8>?
    ) throws(ScenarioFieldError) -> Scenario {
        func text(_ column: ScenarioColumn) -> UnsafeBufferPointer<UInt8>? {
            guard let value = field(column), !value.isEmpty else { return nil }
            return value
        }
        func fail(_ column: ScenarioColumn, _ reason: String) -> ScenarioFieldError {
            ScenarioFieldError(column: column.rawValue, value: field(column).map { String(decoding: $0, as: UTF8.self) } ?? "", reason: reason)
        }
        func amount(_ column: ScenarioColumn, signed: Bool = false) throws(ScenarioFieldError) -> Int64? {
            guard let bytes = text(column) else { return nil }
            if !signed && bytes.first == UInt8(ascii: "-") { throw fail(column, "must be more than 0") }
            guard let value = ScenarioFields.minor(bytes, exponent: exponent, signed: signed) else {
                throw fail(column, "not an amount: digits with at most \(exponent) decimals, up to 10^15 minor units")
            }
            return value
        }
        func day(_ column: ScenarioColumn) throws(ScenarioFieldError) -> Day? {
            guard let bytes = text(column) else { return nil }
            guard let day = ScenarioFields.day(bytes) else { throw fail(column, "not a date YYYY-MM-DD") }
            guard Day.inputYears.contains(day.civil.year) else {
                throw fail(column, "the year must be \(Day.inputYears.lowerBound) to \(Day.inputYears.upperBound)")
            }
            return day
        }
        func count(_ column: ScenarioColumn) throws(ScenarioFieldError) -> Int? {
            guard let bytes = text(column) else { return nil }
            guard bytes.count <= 6, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw fail(column, "not a whole number") }
            return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        guard let price = try amount(.price) else { throw fail(.price, "missing: every scenario has a price") }
        guard let purchase = try day(.date) else { throw fail(.date, "missing: every scenario has a purchase date") }
        let down = try amount(.down)
        let term = try count(.loanTerm)
        let instalments = try count(.instalments)
        var financing = ScenarioFinancing.cash
        if let rateBytes = text(.loanRate) {
            let rate: Rate
            if let fast = ScenarioFields.rate(rateBytes) {
                rate = fast
            } else {
                // The slow path, for its message.
                do { rate = try Rate(parsing: String(decoding: rateBytes, as: UTF8.self)) } catch .invalidRate(_, let reason) {
                    throw fail(.loanRate, reason)
                } catch { throw fail(.loanRate, "\(error)") }
            }
            guard let term else { throw fail(.loanTerm, "a loan needs its term in months ({loanRate} is given)") }
            guard instalments == nil else { throw fail(.instalments, "give a loan or instalments, not both") }
            var method = LoanMethod.annuity
            if let bytes = text(.loanMethod) {
                guard let parsed = LoanMethod(rawValue: String(decoding: bytes, as: UTF8.self)) else {
                    throw fail(.loanMethod, "expected annuity or linear")
                }
                method = parsed
            }
            financing = .loan(ScenarioLoan(downPayment: down ?? 0, rate: rate, term: term, method: method))
        } else if term != nil {
            throw fail(.loanRate, "a loan needs its rate ({loanTerm} is given)")
        } else if let instalments {
            financing = .instalments(count: instalments)
        } else if down != nil {
            throw fail(.down, "a down payment goes with a loan ({loanRate} and {loanTerm})")
        }
        let monthly = try amount(.monthlyCost)
        let yearly = try amount(.yearlyCost)
        // A start or a date without what it is of would be passed over: refused, as a down
        // payment without a loan is.
        if monthly == nil && yearly == nil, try day(.costStart) != nil {
            throw fail(.costStart, "a cost start goes with a cost ({monthlyCost} or {yearlyCost})")
        }
        if try amount(.incomeChange, signed: true) == nil, try day(.incomeStart) != nil {
            throw fail(.incomeStart, "an income start goes with an income change ({incomeChange})")
        }
        if try amount(.sale) == nil, try day(.saleDate) != nil { throw fail(.saleDate, "a sale date goes with a sale ({sale})") }
        let costStart = try day(.costStart) ?? purchase
        var costs: [RecurringChange] = []
        if monthly != nil || yearly != nil { costs.reserveCapacity(2) }  // one allocation for both
        if let monthly { costs.append(RecurringChange(amount: monthly, period: .monthly, start: costStart)) }
        if let yearly { costs.append(RecurringChange(amount: yearly, period: .yearly, start: costStart)) }
        var income: [RecurringChange] = []
        if let change = try amount(.incomeChange, signed: true) {
            income.append(RecurringChange(amount: change, period: .monthly, start: try day(.incomeStart) ?? purchase))
        }
        let sale = try amount(.sale).map { AssetSale(day: purchase, amount: $0) }
        var scenario: Scenario
        do {
            scenario = try Scenario(price: price, day: purchase, financing: financing, costs: costs, incomeChanges: income, sale: sale)
        } catch .invalid(let part, let value, let reason) {
            let column: ScenarioColumn =
                switch part {
                case "price": .price
                case "down payment": .down
                case "loan term": .loanTerm
                case "loan rate": .loanRate
                case "instalments": .instalments
                case "cost", "cost end": field(.monthlyCost).map { !$0.isEmpty } == true ? .monthlyCost : .yearlyCost
                case "income change", "income change end": .incomeChange
                case "sale": .sale
                default: .price
                }
            // Amounts in the reason are minor units: name the price as it was written instead.
            let price = field(.price).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let written = reason.hasPrefix("is above the price") ? "is above the price \(price)" : reason
            throw ScenarioFieldError(
                column: column.rawValue, value: field(column).map { String(decoding: $0, as: UTF8.self) } ?? value, reason: written)
        } catch {
            throw fail(.price, "\(error)")
        }
        if scenario.sale != nil, let saleDay = try day(.saleDate) { scenario.sale!.day = saleDay }
        return scenario
    }
}

/// Byte-level readers for scenario fields: fast enough for millions of rows.
enum ScenarioFields {
    /// `14`, `15.9`, `0.0001` percent as a rate (at most four decimals, 0 to 1000 %); nil otherwise.
    static func rate(_ bytes: UnsafeBufferPointer<UInt8>) -> Rate? {
        var value: Int64 = 0
        var decimals = -1
        var digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard decimals < 0, digits > 0 else { return nil }
                decimals = 0
                continue
            }
            guard byte >= 48 && byte <= 57, digits < 12 else { return nil }
            if decimals >= 0 { decimals += 1 }
            guard decimals <= 4 else { return nil }
            value = value * 10 + Int64(byte - 48)
            digits += 1
        }
        guard digits > 0, decimals != 0 else { return nil }
        for _ in max(decimals, 0)..<4 { value *= 10 }
        guard value <= Rate.maximum.perMillion else { return nil }
        return Rate(perMillion: value)
    }

    /// `1500000`, `1500000.5`, `-4000` (with `signed`) as minor units of a currency with
    /// `exponent` decimals; nil if malformed, with too many decimals, or past 10^15 units.
    static func minor(_ bytes: UnsafeBufferPointer<UInt8>, exponent: Int, signed: Bool) -> Int64? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            guard signed else { return nil }
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        var decimals = -1
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard decimals < 0, digits > 0 else { return nil }
                decimals = 0
                continue
            }
            guard byte >= 48 && byte <= 57 else { return nil }
            if decimals >= 0 { decimals += 1 }
            guard decimals <= exponent else { return nil }
            digits += 1
            guard digits <= 18 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        guard digits > 0, decimals != 0 else { return nil }
        // Eighteen digits scaled to minor units can pass Int64 (999999999999999999 in RUB): a
        // value that does is past the maximum, not a trap.
        for _ in max(decimals, 0)..<exponent {
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = scaled
        }
        guard value <= Scenario.maximumAmount else { return nil }
        return negative ? -value : value
    }

    /// `YYYY-MM-DD` as a day; nil if malformed or not a real date.
    static func day(_ bytes: UnsafeBufferPointer<UInt8>) -> Day? {
        guard bytes.count == 10 else { return nil }
        let base = bytes.startIndex
        guard bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let byte = bytes[base + i]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            day >= 1, day <= Day.daysIn(month: month, year: year)
        else { return nil }
        return Day(Day.daysFromCivil(year: year, month: month, day: day))
    }
}
