import CapitalCore
import CapitalStore

/// What an answer assumes about rates beyond what the ledger knows: a what-if rate per currency
/// from tomorrow on (`USD=95`), an assumed path of rates after each currency's last known one (a
/// rate file), and how far back the pessimistic case looks for its lowest and highest rates.
public struct RateAssumptions: Sendable, Equatable {
    /// Per currency, the rate every day after today takes instead of the ledger's.
    public var whatIf: [Currency: ExchangeRate.Decimal] = [:]
    /// Rates after each currency's last known one, and the file they came from.
    public var ahead: [ExchangeRate] = []
    public var aheadPath = ""
    /// Days up to today the pessimistic case looks back (`Valuation.defaultPessimisticDays`).
    public var lookBack = Valuation.defaultPessimisticDays

    /// Nothing assumed: the ledger's rates, the default look-back.
    public init() {}

    /// Reads what-if rates `CODE=RATE` (`USD=95`, `THB=2.504`: per one unit).
    /// - Throws: `KitError.invalid(.rate)` naming the text and why.
    public mutating func add(whatIf texts: [String], ledger: Currency) throws(KitError) {
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw .invalid(.rate, value: text, reason: "expected CODE=RATE, such as USD=95") }
            guard let currency = try? Currency(parts[0]) else {
                throw .invalid(.rate, value: text, reason: "'\(parts[0])' is not an ISO 4217 currency code")
            }
            guard currency != ledger else { throw .invalid(.rate, value: text, reason: "\(ledger.code) is the ledger's own currency") }
            guard whatIf[currency] == nil else { throw .invalid(.rate, value: text, reason: "a second rate for \(currency.code): which one?") }
            do { whatIf[currency] = try ExchangeRate.Decimal(parsing: parts[1]) } catch {
                throw .invalid(.rate, value: text, reason: error.reason)
            }
        }
    }

    /// Reads the assumed path of rates from a rate file (any format `RateFile` reads).
    public mutating func readAhead(_ path: String, ledger: Currency) throws {
        ahead = try RateFile.read(path, ledger: ledger, field: .ratesAhead).rates
        aheadPath = path
    }

    /// Sets the pessimistic look-back: 1 to 3 660 days.
    public mutating func setLookBack(_ days: Int) throws(KitError) {
        guard (1...3_660).contains(days) else {
            throw .invalid(.fxWindow, value: String(days), reason: "the days looked back for the lowest and highest rates are 1 to 3660")
        }
        lookBack = days
    }

    /// The ledger's rates with these assumptions: the file's rates after each currency's last
    /// known one, then the what-if rates from tomorrow on in place of any later ones.
    /// - Throws: `KitError.invalid(.ratesAhead)` for an assumed rate on or before its currency's
    ///   last known one (the ledger's word stands there).
    public func applied(to rates: [ExchangeRate], today: Day) throws(KitError) -> [ExchangeRate] {
        guard !whatIf.isEmpty || !ahead.isEmpty else { return rates }
        var last: [Currency: Day] = [:]
        for rate in rates { last[rate.currency] = max(last[rate.currency] ?? rate.day, rate.day) }
        var result = rates
        for rate in ahead {
            if let known = last[rate.currency], rate.day <= known {
                throw .invalid(
                    .ratesAhead, value: aheadPath,
                    reason:
                        "\(rate.currency.code) on \(rate.day) is not after the ledger's last rate of it (\(known)): the path ahead starts after it")
            }
            result.append(rate)
        }
        let tomorrow = today.advanced(by: 1)
        for (currency, value) in whatIf {
            result.removeAll { $0.currency == currency && $0.day >= tomorrow }
            result.append(ExchangeRate(id: "what-if", currency: currency, day: tomorrow, value: value))
        }
        return result
    }
}

/// A rate an answer used that is older than a week: its currency's last known rate on or before today.
public struct StaleRate: Sendable, Equatable {
    public var rate: ExchangeRate
    /// Days from the rate's day to today.
    public var age: Int

    /// How old a rate may be before an answer says so.
    public static let maximumAge = 7

    /// The rate in the words every front end shows: "USD at 84.2743 of 2025-03-28 (12 days old)".
    public var named: String { "\(rate.currency.code) at \(rate.perUnit.description) of \(rate.day.iso) (\(age) days old)" }
}

extension StaleRate {
    /// `rate`, the one holding on `day`, when it is older than `maximumAge` days there; else nil.
    init?(_ rate: ExchangeRate?, on day: Day) {
        guard let rate, day.number - rate.day.number > StaleRate.maximumAge else { return nil }
        self.init(rate: rate, age: day.number - rate.day.number)
    }
}

extension Projection {
    /// The rates older than a week that value today's balances of the accounts in other
    /// currencies (those holding anything on some day of the window), by currency.
    public var staleRates: [StaleRate] {
        guard let valuation = timeline.valuation else { return [] }
        var currencies = Set<Currency>()
        for (index, account) in timeline.accounts.enumerated() where account.currency != timeline.currency {
            if timeline.balances(ofAccountAt: index).contains(where: { $0 != 0 }) { currencies.insert(account.currency) }
        }
        return currencies.sorted { $0.code < $1.code }.compactMap { StaleRate(valuation.rate($0, on: today), on: today) }
    }
}
