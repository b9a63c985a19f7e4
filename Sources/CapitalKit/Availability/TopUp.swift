import CapitalCore

/// What restores an answer whose pool is short: money moved into the pool, from accounts outside
/// the level, by the first day the pool goes below its floor.
public struct TopUp: Sendable, Equatable {
    /// One move: `amount` from `from` to `to`, by `by`.
    public struct Move: Sendable, Equatable {
        public var from: String
        public var to: String
        public var amount: Int64
        public var by: Day
    }

    /// The smallest total that restores the answer: the pool's shortfall.
    public var amount: Int64
    /// The first day the pool is below its floor: the money must be there by then.
    public var by: Day
    /// The moves that make it up, largest room first; empty when no account outside the level can pay.
    public var moves: [Move]
    /// What the moves leave missing (0 when they cover it all).
    public var uncovered: Int64

    /// In words every front end shows: `To restore it: move 23 139.37 from Savings to VTB Debit
    /// by 2027-01-28.`, or what nothing outside the level can cover.
    public func sentence(_ shown: (Int64) -> String) -> String {
        guard !moves.isEmpty else {
            return "To restore it: \(shown(amount)) is needed by \(by), and no cash or debit account outside the level can give it."
        }
        let all = moves.map { "move \(shown($0.amount)) from \($0.from) to \($0.to)" }.joined(separator: " and ")
        let rest = uncovered > 0 ? "; \(shown(uncovered)) more is needed, from outside the ledger" : ""
        return "To restore it: \(all) by \(by)\(rest)."
    }
}

extension Projection {
    /// The smallest top-up that restores `answer` (at a forecast level, with a shortfall): the
    /// shortfall, by the first day from the asked day on that the pool is below its floor, taken
    /// from cash and debit accounts in the ledger's currency outside the level (savings at a
    /// higher level, say), each no more than it can give from that day to the horizon without
    /// going below its own floor, the roomiest first; moved to the account the pool's part is
    /// paid from. Deposits, receivables and assets pay out only as their terms say (their payouts
    /// are in the forecast already), so they are not asked. Nil when nothing is short.
    /// - Complexity: O(accounts × days).
    public func topUp(for answer: Availability.Answer, _ availability: Availability) -> TopUp? {
        guard answer.shortfall > 0, Ladder.isForecast(availability.level),
            let start = timeline.index(of: answer.day),
            let deadline = availability.headroom[start...].firstIndex(where: { $0 < 0 })
        else { return nil }
        let pool = Set(availability.accounts)
        let target = answer.parts.first { !$0.isCard }?.account ?? availability.accounts.first
        var rooms: [(account: Int, room: Int64)] = []
        for (index, account) in timeline.accounts.enumerated()
        where !pool.contains(index) && (account.kind == .cash || account.kind == .debit) && account.currency == currency
            && !availability.cards.contains(where: { $0.account == index })
        {
            let series = timeline.balances(ofAccountAt: index, availability.forecastCase)
            let lowest = series[(series.startIndex + deadline)...].min() ?? 0
            let room = saturatingSum(lowest, -(account.floor ?? 0))
            if room > 0 { rooms.append((index, room)) }
        }
        rooms.sort { ($0.room, -$0.account) > ($1.room, -$1.account) }
        var left = answer.shortfall
        var moves: [TopUp.Move] = []
        let by = timeline.day(deadline)
        for candidate in rooms where left > 0 {
            let amount = min(left, candidate.room)
            moves.append(
                .init(
                    from: timeline.accounts[candidate.account].name, to: target.map { timeline.accounts[$0].name } ?? "", amount: amount, by: by))
            left -= amount
        }
        return TopUp(amount: answer.shortfall, by: by, moves: moves, uncovered: left)
    }
}
