import CapitalCore
import GRDB

/// An exchange rate as a user writes it (`rate set`, a ledger file's `rates:`).
public struct RateInput: Sendable {
    /// The ISO 4217 code of the foreign currency.
    public var currency: String
    public var day: Day
    /// Units of the ledger's currency for `per` units of `currency`: `92.5012`.
    public var rate: String
    public var per: String = "1"

    public init(currency: String, day: Day, rate: String, per: String = "1") {
        self.currency = currency
        self.day = day
        self.rate = rate
        self.per = per
    }
}

/// What a rate import did: rates added, rates that replaced another for the same currency and
/// day, and rates the ledger already had.
public struct RateImportSummary: Sendable, Equatable {
    public var added = 0
    public var replaced = 0
    public var unchanged = 0
    public init() {}
}

extension Store {
    /// The live rates, by currency then day; only `currency`'s and those from `from` through `to` when given.
    public func rates(currency: Currency? = nil, from: Day? = nil, to: Day? = nil) throws(StoreError) -> [ExchangeRate] {
        try read("listing rates") { db in
            var filter = ""
            var arguments: StatementArguments = []
            if let currency {
                filter += " AND currency = ?"
                arguments += [currency.code]
            }
            if let from {
                filter += " AND day >= ?"
                arguments += [from.number]
            }
            if let to {
                filter += " AND day <= ?"
                arguments += [to.number]
            }
            return try Store.fetchRates(db, filter: filter, arguments: arguments)
        }
    }

    /// Sets `currency`'s rate on a day, replacing the one it had that day. Returns the rate and the one it replaced.
    public func setRate(_ input: RateInput) throws(StoreError) -> (rate: ExchangeRate, replaced: ExchangeRate?) {
        try write("setting the rate of \(input.currency)") { db in
            let rate = try Store.buildRate(id: Store.newID(), input, ledger: Store.ledgerCurrency(db, location: location))
            let replaced = try Store.replaceRate(db, with: rate)
            return (rate, replaced)
        }
    }

    /// Removes `currency`'s rates from `from` through `to`; at least one must exist.
    /// - Returns: the rates removed, by day.
    @discardableResult
    public func removeRates(currency: Currency, from: Day, to: Day) throws(StoreError) -> [ExchangeRate] {
        try write("removing rates of \(currency.code)") { db in
            let found = try Store.fetchRates(
                db, filter: " AND currency = ? AND day BETWEEN ? AND ?", arguments: [currency.code, from.number, to.number])
            guard !found.isEmpty else {
                let range = from == to ? "on \(from)" : "from \(from) to \(to)"
                throw StoreError.notFound(what: "rate of \(currency.code)", reference: range, hint: .list("rate"))
            }
            let now = Timestamp.now()
            for rate in found {
                try db.execute(sql: "UPDATE rate SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?", arguments: [now, rate.id])
            }
            return found
        }
    }

    /// Adds rates read from a file in one write: a rate the ledger has for the same currency and
    /// day with the same value stays; with another value it is replaced.
    /// - Throws: `StoreError.invalid` for a rate in the ledger's own currency or two rates for
    ///   one currency and day; nothing is written then.
    public func importRates(_ rates: [ExchangeRate]) throws(StoreError) -> RateImportSummary {
        try write("importing rates") { db in
            let ledger = try Store.ledgerCurrency(db, location: location)
            var seen = Set<RateKey>()
            for rate in rates {
                try Store.checkForeign(rate.currency, ledger: ledger)
                guard seen.insert(RateKey(rate)).inserted else {
                    throw StoreError.invalid(
                        field: fieldKey("rate"), value: "\(rate.currency.code) \(rate.day)", reason: "two rates for one currency and day: which one?")
                }
            }
            var existing: [RateKey: ExchangeRate] = [:]
            for rate in try Store.fetchRates(db) { existing[RateKey(rate)] = rate }
            var summary = RateImportSummary()
            for rate in rates {
                if let old = existing[RateKey(rate)] {
                    if old.value == rate.value && old.per == rate.per {
                        summary.unchanged += 1
                        continue
                    }
                    try Store.deleteRate(db, old.id)
                    summary.replaced += 1
                } else {
                    summary.added += 1
                }
                try Store.insertRate(db, rate)
            }
            return summary
        }
    }

    /// One currency and day.
    struct RateKey: Hashable {
        let currency: String
        let day: Int
        init(_ rate: ExchangeRate) {
            currency = rate.currency.code
            day = rate.day.number
        }
    }

    static func buildRate(id: String, _ input: RateInput, ledger: Currency) throws -> ExchangeRate {
        let f = fieldKey
        let currency: Currency
        do { currency = try Currency(input.currency) } catch {
            throw StoreError.malformed(field: f("currency"), value: input.currency, reason: "not an ISO 4217 currency code")
        }
        try checkForeign(currency, ledger: ledger)
        let value: ExchangeRate.Decimal
        do { value = try ExchangeRate.Decimal(parsing: input.rate) } catch {
            throw StoreError.malformed(field: f("rate"), value: input.rate, reason: error.reason)
        }
        guard let per = Int64(input.per), per > 0 else {
            throw StoreError.malformed(field: f("per"), value: input.per, reason: "the units a rate is for are a whole number above 0")
        }
        return ExchangeRate(id: id, currency: currency, day: input.day, value: value, per: per)
    }

    /// Refuses a rate for the ledger's own currency.
    static func checkForeign(_ currency: Currency, ledger: Currency) throws(StoreError) {
        guard currency != ledger else {
            throw StoreError.invalid(
                field: fieldKey("currency"), value: currency.code, reason: "it is the ledger's own currency: rates value other currencies in it")
        }
    }

    /// Inserts `rate`, soft-deleting the live rate of its currency and day. Returns the one deleted.
    static func replaceRate(_ db: Database, with rate: ExchangeRate) throws -> ExchangeRate? {
        let replaced = try fetchRates(db, filter: " AND currency = ? AND day = ?", arguments: [rate.currency.code, rate.day.number]).first
        if let replaced { try deleteRate(db, replaced.id) }
        try insertRate(db, rate)
        return replaced
    }

    static func deleteRate(_ db: Database, _ id: String) throws {
        try db.execute(sql: "UPDATE rate SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?", arguments: [Timestamp.now(), id])
    }

    static func insertRate(_ db: Database, _ rate: ExchangeRate) throws {
        let now = Timestamp.now()
        try db.cachedStatement(
            sql: "INSERT INTO rate(id, createdAt, updatedAt, currency, day, coefficient, scale, per) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .execute(arguments: [rate.id, now, now, rate.currency.code, rate.day.number, rate.value.coefficient, rate.value.scale, rate.per])
    }

    /// Live rates by currency then day (or in `order`), the first `limit` of them when given.
    static func fetchRates(
        _ db: Database, filter: String = "", arguments: StatementArguments = [], order: String = "currency, day", limit: Int? = nil
    ) throws -> [ExchangeRate] {
        var rates: [ExchangeRate] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql:
                    "SELECT id, currency, day, coefficient, scale, per FROM rate WHERE deleted = 0\(filter) ORDER BY \(order)\(limit.map { " LIMIT \($0)" } ?? "")"
            ),
            arguments: arguments)
        while let row = try rows.next() {
            let code: String = row[1]
            let coefficient: Int64 = row[3]
            let scale: Int = row[4]
            let per: Int64 = row[5]
            guard let currency = try? Currency(code), coefficient > 0, (0...18).contains(scale), per > 0 else {
                throw StoreError.unreadable(path: nil, field: "rate", value: "\(code) \(coefficient)e-\(scale)/\(per)", reason: "not a rate")
            }
            rates.append(
                ExchangeRate(
                    id: row[0], currency: currency, day: Day(row[2] as Int), value: ExchangeRate.Decimal(coefficient: coefficient, scale: scale),
                    per: per))
        }
        return rates
    }
}

extension Store {
    /// What valuing `currencies` from `first` on needs: each one's rates from `first`, and the
    /// last one before it (which holds on `first` when none falls on it), by currency then day.
    /// - Complexity: O(currencies × log rates + the rates from `first`): a history of rates
    ///   before the window costs an index seek per currency, not a row each.
    static func fetchRates(_ db: Database, of currencies: Set<Currency>, from first: Day) throws -> [ExchangeRate] {
        var rates: [ExchangeRate] = []
        for currency in currencies.sorted(by: { $0.code < $1.code }) {
            rates += try fetchRates(
                db, filter: " AND currency = ? AND day < ?", arguments: [currency.code, first.number], order: "day DESC", limit: 1)
            rates += try fetchRates(db, filter: " AND currency = ? AND day >= ?", arguments: [currency.code, first.number], order: "day")
        }
        return rates
    }
}

extension Store {
    /// Adds `input` (an exchange's postings) and, when given, sets `rate` as its currency's rate on
    /// its day, in one write. Returns the transaction and the rate `rate` replaced.
    public func addExchange(_ input: TransactionInput, rate: ExchangeRate?) throws(StoreError) -> (Transaction, ExchangeRate?) {
        try write("adding an exchange") { db in
            let accounts = AccountIndex(try Store.fetchAccounts(db))
            let transaction = try Store.build(accounts, id: Store.newID(), input)
            try Store.insertTransaction(db, transaction, accounts)
            try Store.checkBalancesFit(db, accountIDs: Set(transaction.postings.map(\.accountID)))
            var replaced: ExchangeRate?
            if let rate {
                try Store.checkForeign(rate.currency, ledger: Store.ledgerCurrency(db, location: location))
                replaced = try Store.replaceRate(db, with: rate)
            }
            return (transaction, replaced)
        }
    }
}
