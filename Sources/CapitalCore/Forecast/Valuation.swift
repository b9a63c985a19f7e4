/// Foreign amounts valued in the ledger's currency day by day, from the ledger's rates laid out
/// as dense per-currency arrays over a window of days, so that valuing a balance is an index, not
/// a search.
///
/// On a day, a currency is worth its last rate on or before that day (after the last rate, that
/// one holds). The pessimistic case values an asset (a balance above zero) at the lowest and a
/// debt at the highest rate from `pessimisticDays` before `today` through the day valued; the
/// optimistic case the other way round. Each account's balance is converted once a day, rounded
/// half to even, so a sum is the sum of its converted accounts.
///
/// ```swift
/// let valuation = Valuation(rates: ledger.rates, currency: rub, today: today, through: horizon)
/// try valuation.value(100_00, in: usd, on: today)   // 1 USD in kopecks at today's rate
/// ```
public struct Valuation: Sendable {
    /// The ledger's currency: what amounts are valued in.
    public let currency: Currency
    public let today: Day
    /// The first day of the window: `today − pessimisticDays + 1`.
    public let first: Day
    /// The last day of the window.
    public let last: Day
    /// How many days before today the pessimistic and optimistic cases look back (90).
    public let pessimisticDays: Int

    /// One currency's rates, in day order, and which of them holds on each day of the window.
    struct Series: Sendable {
        /// A run of the rates given (shared, not copied): index `i` is `rates[rates.startIndex + i]`.
        var rates: ArraySlice<ExchangeRate>
        var factors: [ExchangeRate.Factor]
        /// Per day of the window, the index of the rate that holds (−1 before the first).
        var holding: [Int32]
        /// Per day from today, the lowest and highest rate holding since the look-back began.
        var lowest: [Int32]
        var highest: [Int32]
    }

    let series: [Currency: Series]

    /// The window's length before today for the pessimistic case, by default.
    public static let defaultPessimisticDays = 90

    /// Lays `rates` out from `pessimisticDays` before `today` through `last`.
    /// What-if rates and an assumed path ahead are rates like the others here (`RateAssumptions`
    /// adds them before).
    public init(rates: [ExchangeRate], currency: Currency, today: Day, through last: Day, pessimisticDays: Int = defaultPessimisticDays) {
        self.currency = currency
        self.today = today
        self.last = max(last, today)
        self.pessimisticDays = max(1, pessimisticDays)
        self.first = today.advanced(by: -(self.pessimisticDays - 1))
        // Each currency's rates one run of the array, in day order (as the store keeps them): laid
        // out without copying or hashing a rate; sorted first only when they are not.
        let ordered = Valuation.inRuns(rates) ? rates : rates.sorted { ($0.currency.code, $0.day) < ($1.currency.code, $1.day) }
        var series: [Currency: Series] = [:]
        let days = self.last.number - first.number + 1
        let todayIndex = today.number - first.number
        var start = 0
        while start < ordered.count {
            let foreign = ordered[start].currency
            var end = start + 1
            while end < ordered.count && ordered[end].currency == foreign { end += 1 }
            let sorted = ordered[start..<end]
            let runStart = start
            start = end
            if foreign == currency { continue }
            // What the loops below need, read once in place (no rate copied): each rate's day,
            // factor and order key, the powers of ten looked up once per currency.
            var rateDays = [Int](repeating: 0, count: sorted.count)
            var factors: [ExchangeRate.Factor] = []
            factors.reserveCapacity(sorted.count)
            var keys = [Int128](repeating: 0, count: sorted.count)
            let powers = ExchangeRate.powersOfTen
            let shift = currency.exponent - foreign.exponent
            ordered.withUnsafeBufferPointer { run in
                for i in 0..<sorted.count {
                    let rate = run.baseAddress! + (runStart + i)
                    let coefficient = rate.pointee.value.coefficient
                    let scale = rate.pointee.value.scale
                    let per = rate.pointee.per
                    rateDays[i] = rate.pointee.day.number
                    factors.append(ExchangeRate.Factor(coefficient: coefficient, scale: scale, per: per, shift: shift, powers: powers))
                    let key = Int128(coefficient) * powers[20 - scale]
                    keys[i] = per == 1 ? key : key / Int128(per)
                }
            }
            var holding = [Int32](repeating: -1, count: days)
            var next = 0
            var current: Int32 = -1
            for offset in 0..<days {
                let day = first.number + offset
                while next < rateDays.count && rateDays[next] <= day {
                    current = Int32(next)
                    next += 1
                }
                holding[offset] = current
            }
            // Running extremes from the window's start, read from today on; rates compared by
            // their value per unit, computed once.
            var lowest = [Int32](repeating: -1, count: days - todayIndex)
            var highest = lowest
            var low: Int32 = -1
            var high: Int32 = -1
            for offset in 0..<days {
                let index = holding[offset]
                if index >= 0 {
                    if low < 0 || keys[Int(index)] < keys[Int(low)] { low = index }
                    if high < 0 || keys[Int(high)] < keys[Int(index)] { high = index }
                }
                if offset >= todayIndex {
                    lowest[offset - todayIndex] = low
                    highest[offset - todayIndex] = high
                }
            }
            series[foreign] = Series(rates: sorted, factors: factors, holding: holding, lowest: lowest, highest: highest)
        }
        self.series = series
    }

    /// Whether each currency's rates form one run of `rates`, in day order.
    /// - Complexity: O(rates), reading each rate's currency and day in place (no rate copied).
    static func inRuns(_ rates: [ExchangeRate]) -> Bool {
        var seen: Set<String> = []
        var i = 0
        while i < rates.count {
            let code = rates[i].currency.code
            guard seen.insert(code).inserted else { return false }
            var j = i + 1
            while j < rates.count && rates[j].currency.code == code {
                if rates[j].day <= rates[j - 1].day { return false }
                j += 1
            }
            i = j
        }
        return true
    }

    /// The rate that holds for `foreign` on `day` (the last on or before it), or nil.
    public func rate(_ foreign: Currency, on day: Day) -> ExchangeRate? {
        guard let found = series[foreign] else { return nil }
        if day >= first && day <= last {
            let index = found.holding[day.number - first.number]
            return index < 0 ? nil : found.rate(at: Int(index))
        }
        return found.index(onOrBefore: day).map(found.rate(at:))
    }

    /// `amount` of `foreign` on `day` in the ledger's currency, in `forecastCase`.
    /// - Throws: `ValuationError.missingRate` when a non-zero amount falls on a day before the
    ///   currency's first rate; `.overflow` past Int64.
    /// - Complexity: O(1) inside the window.
    public func value(_ amount: Int64, in foreign: Currency, on day: Day, _ forecastCase: ForecastCase = .expected) throws(ValuationError) -> Int64 {
        if foreign == currency || amount == 0 { return amount }
        guard let found = series[foreign] else { throw .missingRate(currency: foreign, day: day, firstRate: nil) }
        guard let index = found.index(for: amount, on: day, forecastCase, in: self) else {
            throw .missingRate(currency: foreign, day: day, firstRate: found.rates.first?.day)
        }
        guard let converted = ExchangeRate.convert(amount, factor: found.factors[index]) else {
            throw .overflow(currency: foreign, day: day)
        }
        return converted
    }

    /// The rate `value` takes for `amount` of `foreign` on `day` in `forecastCase` (the day's, or
    /// the lowest or highest of the look-back); nil when none holds.
    public func rate(for amount: Int64, in foreign: Currency, on day: Day, _ forecastCase: ForecastCase) -> ExchangeRate? {
        guard let found = series[foreign], let index = found.index(for: amount, on: day, forecastCase, in: self) else { return nil }
        return found.rate(at: index)
    }

    /// `balances` of an account in `foreign`, one a day from `start`, in the ledger's currency.
    /// - Complexity: O(days): the currency's series is found once, then each day is an index.
    public func values(_ balances: ArraySlice<Int64>, in foreign: Currency, from start: Day, _ forecastCase: ForecastCase) throws(ValuationError)
        -> [Int64]
    {
        var out = [Int64](repeating: 0, count: balances.count)
        guard foreign != currency else { return Array(balances) }
        guard let found = series[foreign] else {
            if let index = balances.firstIndex(where: { $0 != 0 }) {
                throw .missingRate(currency: foreign, day: start.advanced(by: index - balances.startIndex), firstRate: nil)
            }
            return out
        }
        // Inside the window from today on, each day's rate is an index into the dense arrays.
        guard start >= today, start.advanced(by: balances.count - 1) <= last else {
            var day = start
            for (i, balance) in balances.enumerated() {
                out[i] = try value(balance, in: foreign, on: day, forecastCase)
                day = day.advanced(by: 1)
            }
            return out
        }
        let holdingOffset = start.number - first.number
        let extremeOffset = start.number - today.number
        let factors = found.factors
        try found.holding.withUnsafeBufferPointer { holding throws(ValuationError) in
            var i = 0
            for balance in balances {
                if balance != 0 {
                    let index: Int32
                    if forecastCase == .expected {
                        index = holding[holdingOffset + i]
                    } else {
                        let wantsLow = (balance > 0) == (forecastCase == .pessimistic)
                        index = (wantsLow ? found.lowest : found.highest)[extremeOffset + i]
                    }
                    let day = start.advanced(by: i)
                    guard index >= 0 else { throw .missingRate(currency: foreign, day: day, firstRate: found.rates.first?.day) }
                    guard let converted = ExchangeRate.convert(balance, factor: factors[Int(index)]) else {
                        throw .overflow(currency: foreign, day: day)
                    }
                    out[i] = converted
                }
                i += 1
            }
        }
        return out
    }

    /// The currencies with rates.
    public var currencies: [Currency] { series.keys.sorted { $0.code < $1.code } }
}

extension Valuation.Series {
    /// The index of the rate valuing `amount` on `day` in `forecastCase`; nil when none holds.
    func index(for amount: Int64, on day: Day, _ forecastCase: ForecastCase, in valuation: Valuation) -> Int? {
        let index: Int32
        if forecastCase != .expected && day >= valuation.today && day <= valuation.last {
            let wantsLow = (amount >= 0) == (forecastCase == .pessimistic)
            index = (wantsLow ? lowest : highest)[day.number - valuation.today.number]
        } else if day >= valuation.first && day <= valuation.last {
            index = holding[day.number - valuation.first.number]
        } else {
            return self.index(onOrBefore: day)
        }
        return index < 0 ? nil : Int(index)
    }

    /// The index of the last rate on or before `day` (a binary search), nil before the first.
    func index(onOrBefore day: Day) -> Int? {
        var low = 0
        var high = rates.count
        while low < high {
            let middle = (low + high) / 2
            if rate(at: middle).day <= day { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The rate at index `i` of the run.
    func rate(at i: Int) -> ExchangeRate { rates[rates.startIndex + i] }
}

/// Why an amount could not be valued in the ledger's currency.
public enum ValuationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No rate of `currency` holds on `day`; `firstRate` is its first, if any.
    case missingRate(currency: Currency, day: Day, firstRate: Day?)
    case overflow(currency: Currency, day: Day)

    public var description: String {
        switch self {
        case .missingRate(let currency, let day, let first?):
            "no rate of \(currency.code) on \(day): its first rate is on \(first)"
        case .missingRate(let currency, let day, nil):
            "no rate of \(currency.code) on \(day): the ledger has none"
        case .overflow(let currency, let day):
            "\(currency.code) on \(day): its value overflows the largest amount capital can hold"
        }
    }
}
