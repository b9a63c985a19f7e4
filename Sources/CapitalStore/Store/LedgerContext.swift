import CapitalCore
import GRDB

/// What building a record (a schedule, a loan, a card, a deposit, a due, a budget) needs to know
/// of the ledger it joins, and the one thing it may add to it: a missing account or category.
///
/// Two ledgers answer: the database (a command that adds one record), and a `LedgerDraft` (a
/// ledger file resolved in memory, for `-f` and for an import), so both check a record the same
/// way and fail with the same words.
protocol LedgerContext {
    /// A setting (`currency`, `calendar`, `defaultAccount`), or nil when unset.
    func recordSetting(_ key: String) throws -> String?
    /// The live accounts, by name and id.
    func accountIndex() throws -> AccountIndex
    /// The days a ledger adds to a shipped calendar (holidays and extra working days).
    func calendarDays(of calendar: String) throws -> (holidays: [Day], workdays: [Day])
    /// Whether a live instrument of `table` (loan, card, deposit) other than `id` sits on the account.
    func instrumentExists(in table: String, onAccount accountID: String, except id: String) throws -> Bool
    /// Adds an account the record needs (its category, its own account).
    func addAccount(_ account: Account) throws
}

extension Database: LedgerContext {
    func recordSetting(_ key: String) throws -> String? { try Store.setting(self, key) }

    func accountIndex() throws -> AccountIndex { AccountIndex(try Store.fetchAccounts(self)) }

    func calendarDays(of calendar: String) throws -> (holidays: [Day], workdays: [Day]) {
        var holidays: [Day] = []
        var workdays: [Day] = []
        for row in try Row.fetchAll(
            cachedStatement(sql: "SELECT day, kind FROM calendarDay WHERE calendar = ? COLLATE NOCASE"), arguments: [calendar])
        {
            if (row["kind"] as String) == "holiday" { holidays.append(Day(row["day"])) } else { workdays.append(Day(row["day"])) }
        }
        return (holidays, workdays)
    }

    func instrumentExists(in table: String, onAccount accountID: String, except id: String) throws -> Bool {
        try String.fetchOne(
            cachedStatement(sql: "SELECT id FROM \(table) WHERE deleted = 0 AND accountId = ? AND id <> ?"), arguments: [accountID, id]) != nil
    }

    func addAccount(_ account: Account) throws { try Store.insertAccount(self, account) }
}
