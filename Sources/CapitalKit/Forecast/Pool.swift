import CapitalCore
import CapitalStore

/// The accounts an answer is about, taken together: a ladder level, one account or one group.
///
/// One home for what availability, scenarios, forecasts and the account screens each turned
/// into indices before: which timeline accounts, the floor they must stay above, and the
/// currency they are summed in.
public struct Pool: Sendable, Equatable {
    /// What the pool stands for.
    public enum Kind: Sendable, Equatable {
        case level(Int)
        case account(id: String, name: String)
        case group(id: String, name: String)
        /// Accounts picked by id (the account and group screens).
        case accounts
    }

    /// What an account pool is for, which decides the words of a refusal.
    public enum Use: Sendable {
        /// Followed by a forecast.
        case forecast
        /// Paid from, by a scenario.
        case payment
    }

    public let kind: Kind
    /// Indices into the timeline's accounts.
    public let indices: [Int]
    /// The sum of the accounts' floors: what the pool must not go below.
    public let floor: Int64
    /// The currency the accounts are summed in.
    public let currency: Currency

    /// A pool of the timeline accounts at `indices`, to stay above `floor`, summed in `currency`.
    public init(kind: Kind, indices: [Int], floor: Int64, currency: Currency) {
        self.kind = kind
        self.indices = indices
        self.floor = floor
        self.currency = currency
    }

    /// `level 4 (forecast)`, `account VTB Debit`, `group Debts`.
    public var title: String {
        switch kind {
        case .level(let level): "level \(level) (\(Ladder.name(level)))"
        case .account(_, let name): "account \(name)"
        case .group(_, let name): "group \(name)"
        case .accounts: "\(indices.count.counted("account"))"
        }
    }

    /// The account's or the group's name; empty for a level.
    public var name: String {
        switch kind {
        case .account(_, let name), .group(_, let name): name
        case .level, .accounts: ""
        }
    }

    /// The ladder level, for a level's pool.
    public var level: Int? {
        if case .level(let level) = kind { return level }
        return nil
    }

    /// The pool's end-of-day balance on every day of the timeline, today first: one account in
    /// its own currency, several summed in the timeline's.
    /// - Complexity: O(accounts × days).
    public func balances(in timeline: Timeline, _ forecastCase: ForecastCase) throws(KitError) -> [Int64] {
        if indices.count == 1 && timeline.accounts[indices[0]].currency == currency {
            return Array(timeline.balances(ofAccountAt: indices[0], forecastCase))
        }
        do { return try timeline.sum(accountsAt: indices, forecastCase) } catch {
            throw .engine(context: "forecast", reason: KitError.template(error))
        }
    }

    /// The pool's balance at the end of yesterday, before today's flows, in its currency.
    public func opening(in timeline: Timeline) throws(KitError) -> Int64 {
        if indices.count == 1 && timeline.accounts[indices[0]].currency == currency { return timeline.opening[indices[0]] }
        do { return try timeline.opening(ofAccountsAt: indices) } catch { throw .engine(context: "forecast", reason: KitError.template(error)) }
    }

    /// Whether accounts in other currencies than the pool's are valued into it.
    public func values(in timeline: Timeline) -> Bool { indices.contains { timeline.accounts[$0].currency != currency } }

    /// Balance less floor, day by day.
    public func headroom(in timeline: Timeline, _ forecastCase: ForecastCase) throws(KitError) -> [Int64] {
        var headroom = try balances(in: timeline, forecastCase)
        for i in headroom.indices {
            let (value, overflow) = headroom[i].subtractingReportingOverflow(floor)
            if overflow { throw .engine(context: "forecast", reason: "\(FieldKeys.literal(title)) overflows") }
            headroom[i] = value
        }
        return headroom
    }
}

extension Projection {
    /// A ladder level's accounts (every currency's, valued in the ledger's) and their summed floors.
    /// - Throws: `KitError` naming `level` when it is not 1 to 6, or when a floor cannot be valued.
    public func pool(level: Int) throws(KitError) -> Pool {
        try Pool.check(level: level)
        let indices: [Int]
        let floor: Int64
        do { (indices, floor) = try timeline.levelAccounts(level) } catch {
            throw .engine(context: "level \(level)", reason: KitError.template(error))
        }
        return Pool(kind: .level(level), indices: indices, floor: floor, currency: timeline.currency)
    }

    /// One balance-sheet account, found by name or id prefix, with its floor: forecast in its own
    /// currency; paid from only in the ledger's.
    /// - Parameter field: the request's field the name came in, for the error.
    public func pool(account reference: String, for use: Pool.Use, field: KitError.Field) throws -> Pool {
        let found = try paymentAccount(reference, for: use, field: field)
        guard let index = timeline.accounts.firstIndex(where: { $0.id == found.id }) else {
            let reason =
                use == .forecast ? "forecasts follow balance-sheet accounts" : "pay from a balance account"
            throw KitError.invalid(field, value: reference, reason: "it is \(found.kind.withArticle) account; \(reason)")
        }
        guard found.currency == timeline.currency || use == .forecast else {
            throw KitError.invalid(
                field, value: reference,
                reason: "it holds \(found.currency.code); \(use == .forecast ? "forecasts" : "scenarios") are in \(timeline.currency.code)")
        }
        return Pool(kind: .account(id: found.id, name: found.name), indices: [index], floor: found.floor ?? 0, currency: found.currency)
    }

    /// The account `reference` names; for a payment, a name that is none is bad input, with the
    /// names it may have meant.
    private func paymentAccount(_ reference: String, for use: Pool.Use, field: KitError.Field) throws -> Account {
        let looked: Result<Account, StoreError> = Result { () throws(StoreError) in try store.account(reference) }
        switch looked {
        case .success(let account):
            return account
        case .failure(.notFound(_, _, let hint)) where use == .payment:
            throw KitError.invalid(field, value: reference, reason: "no such account" + (hint.map { "; \($0.plain)" } ?? ""))
        case .failure(let error):
            throw error
        }
    }

    /// A group's balance-sheet accounts, every currency's valued in the ledger's.
    public func pool(group reference: String) throws -> Pool {
        let found = try store.group(reference)
        let members = found.accountIDs.compactMap { id in timeline.accounts.firstIndex { $0.id == id } }
        guard !members.isEmpty else {
            throw KitError.invalid(
                .group, value: reference,
                reason: found.type == .profitAndLoss
                    ? "it is a profit-and-loss group; forecasts follow balance-sheet accounts"
                    : "it has no balance-sheet accounts to forecast")
        }
        let floor: Int64
        do { floor = try timeline.floor(ofAccountsAt: members) } catch {
            throw KitError.engine(context: "group '\(FieldKeys.literal(found.name))'", reason: KitError.template(error))
        }
        return Pool(kind: .group(id: found.id, name: found.name), indices: members, floor: floor, currency: timeline.currency)
    }

    /// Accounts by id, for the account and group screens: one account in its own currency;
    /// several summed in the ledger's currency. Nil when none is on the timeline.
    public func pool(accountIDs ids: [String]) -> Pool? {
        let indices = ids.compactMap { id in timeline.accounts.firstIndex { $0.id == id } }
        let currency = ids.count == 1 && indices.count == 1 ? timeline.accounts[indices[0]].currency : timeline.currency
        guard !indices.isEmpty else { return nil }
        return Pool(kind: .accounts, indices: indices, floor: 0, currency: currency)
    }
}

extension Pool {
    /// Refuses a level off the ladder.
    public static func check(level: Int) throws(KitError) {
        guard Ladder.levels.contains(level) else {
            throw .invalid(.level, value: String(level), reason: "the answer ladder has levels 1 (cash) to 6 (net)")
        }
    }
}
