import Testing

@testable import CapitalCore

/// `SampleLedger.generate(…, history:)`: posted transactions over the years before the sample's
/// past year, balanced, deterministic, of a household's mix, living within its means.
@Suite("SampleLedger: history")
struct SampleHistoryTests {
    static let rub = try! Currency("RUB")

    @Test func theHistoryIsAddedAndNothingElseChanges() throws {
        let plain = try SampleLedger.generate(rules: 30, years: 2, currency: Self.rub)
        let grown = try SampleLedger.generate(rules: 30, years: 2, currency: Self.rub, history: 25_000)
        #expect(grown.transactions.count == plain.transactions.count + 25_000)
        #expect(grown.schedules == plain.schedules && grown.accounts == plain.accounts && grown.loans == plain.loans && grown.cards == plain.cards)
        // The past year's transactions are the same; the opening balances move before the history.
        let past = { (ledger: Ledger) in ledger.transactions.filter { $0.payee.hasPrefix("Shop ") } }
        #expect(past(grown).map(\.id) == past(plain).map(\.id) && past(grown).map(\.day) == past(plain).map(\.day))
        let years = SampleLedger.historyYears(25_000)
        #expect(years == 3)
        let first = SampleLedger.defaultStart.advanced(by: -366 - 365 * years)
        let history = grown.transactions.filter { !$0.payee.hasPrefix("Shop ") && $0.payee != "Opening balance" }
        #expect(history.count == 25_000)
        #expect(history.allSatisfy { $0.day >= first && $0.day <= SampleLedger.defaultStart.advanced(by: -367) })
        #expect(grown.transactions.filter { $0.payee == "Opening balance" }.allSatisfy { $0.day == first.advanced(by: -1) })
        // Deterministic, and another seed gives another history.
        let again = try SampleLedger.generate(rules: 30, years: 2, currency: Self.rub, history: 25_000).transactions
        #expect(again.count == grown.transactions.count && zip(again, grown.transactions).allSatisfy { $0 == $1 })
        let other = try SampleLedger.generate(rules: 30, years: 2, seed: 2, currency: Self.rub, history: 25_000).transactions
        #expect(other.map(\.id) != grown.transactions.map(\.id))
    }

    @Test func itIsAHouseholdsMixAndItBalances() throws {
        let ledger = try SampleLedger.generate(rules: 10, years: 1, currency: Self.rub, history: 40_000)
        let history = ledger.transactions.filter { !$0.payee.hasPrefix("Shop ") && $0.payee != "Opening balance" }
        for transaction in history {
            #expect(transaction.postings.count == 2 && transaction.postings[0].amount.minor == -transaction.postings[1].amount.minor)
            #expect(transaction.postings[0].amount.minor > 0 && transaction.postings[0].accountID != transaction.postings[1].accountID)
        }
        let names = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.name) })
        let into = Dictionary(grouping: history) { names[$0.postings[0].accountID] ?? "" }.mapValues(\.count)
        for category in ["Groceries", "Eating out", "Transport", "Utilities", "Deposit"] {
            #expect(into[category, default: 0] > 1_000, "\(category): \(into[category, default: 0])")
        }
        // Each month: the card paid back, cash drawn, two salaries.
        let months = 12 * SampleLedger.historyYears(40_000)
        #expect(into["Credit card"] == months && into["Cash"] == months && into["Debit 1"] == 2 * months)
        let payees = Set(history.map(\.payee))
        for payee in ["Salary Anna", "Salary Ivan", "Card payback", "ATM", "To savings", "Pyaterochka", "Lukoil", "Coffee House"] {
            #expect(payees.contains(payee), "no \(payee)")
        }
        #expect(Set(history.map(\.spender)).count >= 3)
        #expect(history.contains { $0.tags.contains("kids") })
        // Within its means: the main account ends above where it started, the card is paid back
        // in full each month, and within a month the main account dips below zero by at most a
        // tenth of what a month takes out of it.
        var balances: [String: Int64] = [:]
        var lowestMain = Int64.max
        var mainOut: Int64 = 0
        let main = try #require(ledger.accounts.first { $0.name == "Debit 1" })
        let card = try #require(ledger.accounts.first { $0.name == "Credit card" })
        for transaction in ledger.transactions where transaction.day < SampleLedger.defaultStart.advanced(by: -366) {
            for posting in transaction.postings {
                balances[posting.accountID, default: 0] += posting.amount.minor
                if posting.accountID == main.id && posting.amount.minor < 0 { mainOut -= posting.amount.minor }
            }
            lowestMain = min(lowestMain, balances[main.id, default: 0])
        }
        let opening =
            ledger.transactions.first { $0.payee == "Opening balance" && $0.postings[0].accountID == main.id }?.postings[0].amount.minor ?? 0
        #expect(balances[main.id, default: 0] > opening)
        #expect(balances[card.id, default: 0] == 0, "the card is paid back in full each month")
        #expect(lowestMain > -(mainOut / Int64(months)) / 10, "Debit 1 dips to \(lowestMain), a month takes \(mainOut / Int64(months)) out")
    }

    @Test func theCountIsChecked() {
        #expect(throws: SampleLedgerError.outOfRange(field: "{history}", value: -1, range: SampleLedger.historyRange)) {
            try SampleLedger.generate(rules: 1, years: 1, currency: Self.rub, history: -1)
        }
        #expect(throws: SampleLedgerError.self) { try SampleLedger.generate(rules: 1, years: 1, currency: Self.rub, history: 10_000_001) }
    }
}
