import CapitalCore
import CapitalStore

/// Money changing currency between two balance accounts: `amount` of one account's currency on
/// one side, and on the other side what was paid or received, given as that amount (`paid`) or
/// as a rate per unit (`rate`).
///
/// Recorded as one transaction of four postings that balance per currency through `Capital`
/// (the ledger's equity account, the one account that holds several currencies): `amount` into
/// or out of its account and the opposite into `Capital`, the other side likewise. When one side
/// is in the ledger's currency, the rate the exchange implies becomes its day's rate of the other
/// currency (`recordsRate`), rounded to 10 significant digits.
public struct ExchangeEntry: Sendable {
    /// The amount on the side of `currency`, as written.
    public var amount: String
    /// The currency of `amount`: one of the two accounts holds it.
    public var currency: String
    public var from: String
    public var to: String
    /// The other side's amount, as written; or
    public var paid: String?
    /// the other side's units per unit of `currency`.
    public var rate: String?
    public var day: Day
    public var payee = ""
    public var note = ""
    public var spender = ""
    public var tags: [String] = []
    /// Whether the implied rate becomes the day's rate.
    public var recordsRate = true
    /// Whether both sides must be balance accounts (an `exchange`), or one may be a category (a
    /// quick entry spending or earning across currencies).
    public var betweenBalanceAccounts = true

    /// `amount` of `currency` between `from` and `to` on `day`; the other side still to say.
    public init(amount: String, currency: String, from: String, to: String, day: Day) {
        self.amount = amount
        self.currency = currency
        self.from = from
        self.to = to
        self.day = day
    }
}

/// What an exchange recorded.
public struct ExchangeRecord: Sendable {
    public var transaction: Transaction
    public var from: Account
    public var to: Account
    /// What left `from` and what reached `to`.
    public var sent: Money
    public var received: Money
    /// The day's rate it set, and the one that replaced; nil when it set none.
    public var rate: ExchangeRate?
    public var replaced: ExchangeRate?
}

extension Store {
    /// Records an exchange (`ExchangeEntry`).
    /// - Throws: `KitError` naming the field at fault: an amount that is not one of its currency
    ///   (too many decimals for it included) or not above zero, a currency neither account holds,
    ///   two accounts of one currency, `paid` and `rate` both or neither, a rate that is not one.
    public func record(_ entry: ExchangeEntry) throws -> ExchangeRecord {
        let from = try account(entry.from)
        let to = try account(entry.to)
        for (account, field) in [(from, KitError.Field.from), (to, .to)]
        where account.kind == .equity || (entry.betweenBalanceAccounts && !account.kind.isBalanceSheet) {
            throw KitError.invalid(
                field, value: account.name, reason: "it is \(account.kind.withArticle) account; an exchange is between balance accounts")
        }
        guard from.currency != to.currency else {
            throw KitError.invalid(
                .to, value: to.name, reason: "it holds \(to.currency.code) as {from} does: money in one currency moves by a transfer",
                remedy: .transferBetweenAccounts)
        }
        let currency: Currency
        do { currency = try Currency(entry.currency) } catch {
            throw KitError.invalid(.currency, value: entry.currency, reason: "not an ISO 4217 currency code")
        }
        guard currency == from.currency || currency == to.currency else {
            throw KitError.invalid(
                .currency, value: entry.currency,
                reason: "neither account holds it: {from} holds \(from.currency.code), {to} \(to.currency.code)")
        }
        let other = currency == from.currency ? to : from
        let amount = try Self.positive(entry.amount, currency, field: .amount)
        let otherAmount: Money
        var given: ExchangeRate.Decimal?
        switch (entry.paid, entry.rate) {
        case (let paid?, nil):
            otherAmount = try Self.positive(paid, other.currency, field: .paid)
        case (nil, let text?):
            let rate: ExchangeRate.Decimal
            do { rate = try ExchangeRate.Decimal(parsing: text) } catch { throw KitError.invalid(.rate, value: text, reason: error.reason) }
            given = rate
            // other minor = amount minor × rate × 10^(other exponent − currency exponent), half to even.
            let factor = ExchangeRate.Factor(
                ExchangeRate(id: "", currency: currency, day: entry.day, value: rate), from: currency, to: other.currency)
            guard let minor = ExchangeRate.convert(amount.minor, factor: factor), minor > 0 else {
                throw KitError.invalid(.rate, value: text, reason: "\(amount.plain) \(currency.code) at it is no amount of \(other.currency.code)")
            }
            otherAmount = Money(minor: minor, currency: other.currency)
        case (nil, nil):
            throw KitError.missing(.paid, reason: "give {paid} (what the other side came to) or {rate} (its units per unit of the currency)")
        case (_?, _?):
            throw KitError.invalid(.rate, value: entry.rate ?? "", reason: "", remedy: .oneOf([.paid, .rate]))
        }
        let sent = currency == from.currency ? amount : otherAmount
        let received = currency == from.currency ? otherAmount : amount
        // The implied rate, when one side is the ledger's currency.
        let ledger = try self.currency()
        var rate: ExchangeRate?
        if entry.recordsRate, from.currency == ledger || to.currency == ledger {
            let (local, foreign) = from.currency == ledger ? (sent, received) : (received, sent)
            // A rate given is the rate, not what its rounded amount implies.
            var (numerator, denominator) = given.map { $0.fraction } ?? (Int128(local.minor), Int128(foreign.minor))
            if given == nil {
                // ledger units per foreign unit = local minor / 10^le ÷ (foreign minor / 10^fe)
                for _ in 0..<foreign.currency.exponent { numerator *= 10 }
                for _ in 0..<local.currency.exponent { denominator *= 10 }
            } else if currency == ledger {
                // Given as foreign units per ledger unit: its inverse.
                (numerator, denominator) = (denominator, numerator)
            }
            if let value = ExchangeRate.Decimal(rounding: numerator, over: denominator) {
                rate = ExchangeRate(id: Store.newID(), currency: foreign.currency, day: entry.day, value: value)
            }
        }
        let capital = try self.account(Account.capitalName)
        let input = TransactionInput(
            day: entry.day, payee: entry.payee, note: entry.note, spender: entry.spender, tags: entry.tags,
            postings: [
                PostingInput(account: to.id, amount: received.plain, field: "{amount}"),
                PostingInput(account: capital.id, amount: try received.negated().plain, currency: received.currency.code, field: "{amount}"),
                PostingInput(account: capital.id, amount: sent.plain, currency: sent.currency.code, field: "{amount}"),
                PostingInput(account: from.id, amount: try sent.negated().plain, field: "{amount}"),
            ])
        let (transaction, replaced) = try addExchange(input, rate: rate)
        return ExchangeRecord(transaction: transaction, from: from, to: to, sent: sent, received: received, rate: rate, replaced: replaced)
    }

    /// `text` as an amount of `currency` above zero.
    static func positive(_ text: String, _ currency: Currency, field: KitError.Field) throws(KitError) -> Money {
        let money: Money
        do { money = try Money(parsing: text, currency: currency) } catch { throw .invalid(field, value: text, reason: "\(error)") }
        guard money.minor > 0 else { throw .invalid(field, value: text, reason: "must be more than zero") }
        return money
    }
}
