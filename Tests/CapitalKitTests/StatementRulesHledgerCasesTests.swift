import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalKit

/// Rules that hledger 1.25 reads and capital refused (issue 51): lines that give a balance and no
/// amount (hledger's csv.test "Lines with just balance, no amount"), and footers of another shape
/// left out by an `if` block's `skip` or `end`.
@Suite("Kit: rules hledger 1.25 reads")
struct StatementRulesHledgerCasesTests {
    static func read(_ rules: String, _ csv: String, exponent: Int = 2) throws -> RulesReading {
        let parsed = try StatementRules(text: rules, path: "bank.rules") { _, _ in throw KitError.refused(reason: "no includes") }
        return try parsed.read(csv, exponent: exponent, separator: UInt8(ascii: ","), path: "bank.csv")
    }

    /// hledger's csv.test case 19, its rules as written there: each line is a balance assignment,
    /// whose amount hledger infers as the change from the balance before it.
    static let balanceOnly = """
        fields date,bal

        balance EUR %bal
        date-format %Y-%m-%d
        description Assets Update
        account1 assets
        account2 income
        """

    @Test func linesWithJustABalanceTakeTheChangeFromTheBalanceBefore() throws {
        let reading = try Self.read(Self.balanceOnly, "2018-10-15,100\n2018-10-16,200\n2018-10-17,300\n")
        var statement = reading.statement
        #expect(statement.lines.allSatisfy { $0.amountFromBalance })
        #expect(statement.lines.map(\.balanceMinor) == [100_00, 200_00, 300_00])
        try statement.settleAmountsFromBalances(opening: 0)
        #expect(statement.lines.map(\.amountMinor) == [100_00, 100_00, 100_00])
        #expect(!statement.lines.contains { $0.amountFromBalance })
        // From a recorded balance of 40 before the statement, the first line moves 60.
        var fromForty = reading.statement
        try fromForty.settleAmountsFromBalances(opening: 40_00)
        #expect(fromForty.lines.map(\.amountMinor) == [60_00, 100_00, 100_00])
    }

    @Test func aBalanceOnlyLineAfterLinesWithAmountsCountsFromTheirRunningBalance() throws {
        let rules = "fields date, amount, bal\nbalance %bal\n"
        // Line 2 has an amount and no balance: the running balance is 100 + 5.
        var statement = try Self.read(rules, "2025-01-01,,100\n2025-01-02,5,\n2025-01-03,,90\n").statement
        try statement.settleAmountsFromBalances(opening: 0)
        #expect(statement.lines.map(\.amountMinor) == [100_00, 5_00, -15_00])
    }

    @Test func aLineWithNeitherAmountNorBalanceIsStillRefused() {
        #expect(throws: KitError.fileLine(path: "bank.csv", line: 2, reason: "no amount: the amount columns are empty")) {
            try Self.read("fields date, amount, bal\nbalance %bal\n", "2025-01-01,,100\n2025-01-02,,\n")
        }
        let bad = #expect(throws: KitError.self) { try Self.read("fields date, amount, bal\nbalance %bal\n", "2025-01-01,,10x\n") }
        #expect(bad.map { "\($0)" }?.contains("balance '10x'") == true, "\(String(describing: bad))")
    }

    /// A Russian bank's export ends with totals of two fields; hledger 1.25 leaves them out by
    /// `if ^Итого` + `skip`, and stops at `Исходящий остаток` by `end`, before any shape check.
    static let footers = RussianBankExport.rules
    static let russian = RussianBankExport.csv

    @Test func footersOfAnotherShapeAreLeftOutBySkipAndEndInIfBlocks() throws {
        let reading = try Self.read(Self.footers, Self.russian)
        #expect(reading.statement.lines.map(\.payee) == ["ПЯТЁРОЧКА", "ЗАРПЛАТА"])
        #expect(reading.statement.lines.map(\.amountMinor) == [-1234_50, 180_000_00])
        #expect(reading.skipped == 2)
    }

    @Test func aRecordOfAnotherShapeNoIfLeavesOutIsStillRefused() {
        let footer = Self.russian.replacingOccurrences(of: "Итого списаний", with: "Всего списаний")
        #expect(
            throws: KitError.fileLine(path: "bank.csv", line: 5, reason: "the record has 2 fields and fields names 3: Всего списаний,1234,50")
        ) { try Self.read(Self.footers, footer) }
        // Only skip and end are decided for it: a block that assigns is not a way past the check.
        let assigning = Self.footers + "\n\nif ^Всего\n  comment total\n"
        #expect(throws: KitError.self) { try Self.read(assigning, footer) }
    }
}
