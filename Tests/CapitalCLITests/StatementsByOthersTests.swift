import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

/// Issue 51, "Statements written by others": files from other programs' test suites that capital
/// refused or misread, each read as the reference readers read it, or refused by file and line
/// (exit 64) with the database as it was.
@Suite("CLI: statements written by others")
struct StatementsByOthersTests {
    static func ledger(_ currency: String = "EUR", account: String = "Giro", kind: String = "debit") throws -> CLI {
        try StatementImportTests.ledger(currency, account: account, kind: kind)
    }

    /// Writes `text` to `name` in the CLI's folder and returns its path.
    static func file(_ cli: CLI, _ name: String, _ text: String) throws -> String {
        try text.write(toFile: cli.path(name), atomically: true, encoding: .utf8)
        return cli.path(name)
    }

    /// Runs a command that must be refused as malformed input: exit 64, one line, nothing changed.
    @discardableResult
    static func malformed(_ cli: CLI, _ args: [String], mentioning: [String], sourceLocation: SourceLocation = #_sourceLocation) -> CLI.Result {
        let result = cli.fails(args, mentioning: mentioning, sourceLocation: sourceLocation)
        #expect(result.status == 64, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    // MARK: 1. Day-first QIF dates

    @Test func aQIFFileWhoseDatesReadOnlyDayFirstIsReadDayFirst() throws {
        let cli = try Self.ledger()
        let qif = try Self.file(cli, "uk.qif", "!Type:Bank\nD01/12/2010\nT-5.00\nPShop\n^\nD29/12/10\nT-7.00\nPCafe\n^\n")
        let rows = try StatementImportTests.lines(try cli.json(["import", qif, "--account", "Giro", "--create-missing"]))
        #expect(rows.map { $0.string("date") } == ["2010-12-01", "2010-12-29"])
        let us = try Self.file(cli, "us.qif", "!Type:Bank\nD01/12/2011\nT-5.00\nPShop\n^\nD12/29/2011\nT-7.00\nPCafe\n^\n")
        let read = try StatementImportTests.lines(try cli.json(["import", us, "--account", "Giro", "--dry-run"]))
        #expect(read.map { $0.string("date") } == ["2011-01-12", "2011-12-29"])
    }

    @Test func aQIFFileWhoseDatesStayAmbiguousIsRefusedNamingTheOptions() throws {
        let cli = try Self.ledger()
        let qif = try Self.file(cli, "both.qif", "!Type:Bank\nD01/02/2025\nT-5.00\nPShop\n^\nD03/04/2025\nT-7.00\n^\n")
        Self.malformed(
            cli, ["import", qif, "--account", "Giro"],
            mentioning: ["both.qif:2", "date '01/02/2025' reads month first and day first", "--day-first", "--month-first"])
        let dayFirst = try StatementImportTests.lines(try cli.json(["import", qif, "--account", "Giro", "--day-first", "--dry-run"]))
        #expect(dayFirst.map { $0.string("date") } == ["2025-02-01", "2025-04-03"])
        let monthFirst = try StatementImportTests.lines(try cli.json(["import", qif, "--account", "Giro", "--month-first", "--dry-run"]))
        #expect(monthFirst.map { $0.string("date") } == ["2025-01-02", "2025-03-04"])
        Self.malformed(
            cli, ["import", qif, "--account", "Giro", "--day-first", "--month-first"], mentioning: ["--day-first or --month-first, not both"])
        let mixed = try Self.file(cli, "mixed.qif", "!Type:Bank\nD29/12/2010\nT-5.00\n^\nD12/29/2010\nT-7.00\n^\n")
        Self.malformed(cli, ["import", mixed, "--account", "Giro"], mentioning: ["mixed.qif:5", "not in one order"])
        cli.fails(
            ["import", StatementImportTests.fixture("eurobank.csv"), "--account", "Giro", "--month-first"],
            mentioning: ["--month-first reads QIF dates; the statement is CSV"])
    }

    // MARK: 2. OFX without a header

    @Test func anOFXFileWithoutItsHeaderIsToldByItsContent() throws {
        let cli = try Self.ledger()
        for (name, body) in [("sgml.ofx", Self.sgml(ledger: "")), ("xml.txt", Self.xml)] {
            let path = try Self.file(cli, name, body)
            let object = try cli.json(["import", path, "--account", "Giro", "--dry-run"])
            #expect(try StatementImportTests.summary(object)["format"] as? String == "ofx", "\(name)")
            #expect(try StatementImportTests.lines(object).first?.string("payee") == "EFTPOS WDL ALDI", "\(name)")
        }
    }

    /// A bank statement of account 123 in EUR, from `<OFX>` on (no header); its one transaction's
    /// payee in CDATA; `ledger` after the transaction list.
    static func sgml(ledger: String, list: String = "</BANKTRANLIST>\n") -> String {
        "<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n<CURDEF>EUR\n<BANKACCTFROM>\n<ACCTID>123\n</BANKACCTFROM>\n<BANKTRANLIST>\n"
            + "<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>-12.34\n<FITID>A1\n<NAME><![CDATA[EFTPOS WDL ALDI]]>\n</STMTTRN>\n"
            + list + ledger + "\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n"
    }

    /// An OFX 1.x header of two lines.
    static let header = "OFXHEADER:100\nDATA:OFXSGML\n"

    static let xml = """
        <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKACCTFROM><ACCTID>123</ACCTID></BANKACCTFROM>
        <BANKTRANLIST><STMTTRN><DTPOSTED>20250102</DTPOSTED><TRNAMT>-12.34</TRNAMT><FITID>A1</FITID>
        <NAME><![CDATA[EFTPOS WDL ALDI]]></NAME></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
        """

    // MARK: 3. An empty closing balance

    @Test func anEmptyClosingBalanceImportsTheLinesAndSaysSo() throws {
        let cli = try Self.ledger()
        let path = try Self.file(cli, "empty.ofx", Self.header + Self.sgml(ledger: "<LEDGERBAL>\n<BALAMT>\n<DTASOF>20250131\n</LEDGERBAL>"))
        let result = cli.run(["import", path, "--account", "Giro", "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr
                == "capital: warning: \(path):19: LEDGERBAL has an empty BALAMT: the statement gives no usable closing balance; "
                + "its lines are imported without the balance check\n")
        let summary = try StatementImportTests.summary(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
        #expect(summary["balance"] is NSNull)
        #expect(summary["written"] as? Bool == true)
        #expect(try ExpectedFlowTests.balances(cli, today: "2025-02-01")["Giro"] == -12_34)
        // A balance there that does not read is still refused, by line, and nothing is written.
        let bad = try Self.file(cli, "bad.ofx", Self.header + Self.sgml(ledger: "<LEDGERBAL>\n<BALAMT>12x\n<DTASOF>20250131\n</LEDGERBAL>"))
        Self.malformed(cli, ["import", bad, "--account", "Giro"], mentioning: ["bad.ofx:20", "BALAMT '12x' is not an amount"])
    }

    // MARK: 5. An unclosed transaction list

    @Test func anUnclosedTransactionListIsRefusedByFileAndLine() throws {
        let cli = try Self.ledger()
        let path = try Self.file(cli, "open.ofx", Self.header + Self.sgml(ledger: "", list: ""))
        Self.malformed(
            cli, ["import", path, "--account", "Giro"],
            mentioning: ["open.ofx:11", "<BANKTRANLIST> is never closed", "</STMTRS> on line 19"])
    }

    // MARK: 6. A QIF split amount written =746.36

    @Test func aQIFSplitAmountWrittenWithEqualsIsItsAmount() throws {
        let cli = try Self.ledger("USD", account: "Checking")
        let good = try Self.file(
            cli, "good.qif", "!Type:Bank\nD6/21/94\nT-1,000.00\nPBank Of Mortgage\nSMortgage\n$-253.64\nSMort Int\n$=-746.36\n^\n")
        let rows = try StatementImportTests.lines(try cli.json(["import", good, "--account", "Checking", "--create-missing"]))
        #expect(rows.first?.string("counterpart") == "Mortgage, Mort Int")
        // The specification's own example: its parts (-253.64 and 746.36) do not add up to the line.
        let spec = try Self.file(
            cli, "spec.qif", "!Type:Bank\nD6/22/94\nT-1,000.00\nPBank Of Mortgage\nSMortgage\n$-253.64\nSMort Int\n$=746.36\n^\n")
        Self.malformed(
            cli, ["import", spec, "--account", "Checking", "--create-missing"],
            mentioning: ["spec.qif:2", "the splits add up to 492.72, the line to -1000.00"])
        let bad = try Self.file(cli, "bad.qif", "!Type:Bank\nD6/ 2/94\nT-1.00\nSMortgage\n$==1\n^\n")
        Self.malformed(cli, ["import", bad, "--account", "Checking", "--create-missing"], mentioning: ["bad.qif:5", "$ '==1' is not an amount"])
    }

    // MARK: 7 and 8. hledger's rules

    @Test func linesWithJustABalanceImportTheChangeFromTheBalanceBefore() throws {
        let cli = try Self.ledger()
        cli.ok(["category", "add", "Opening", "--income"])
        cli.ok(["earn", "40", "Opening", "--to", "Giro", "--on", "2018-10-01"])
        let rules = try Self.file(
            cli, "assets.rules",
            "fields date,bal\n\nbalance EUR %bal\ndate-format %Y-%m-%d\ndescription Assets Update\naccount1 assets\naccount2 income\n")
        let csv = try Self.file(cli, "assets.csv", "2018-10-15,100\n2018-10-16,200\n2018-10-17,300\n")
        let args = ["import", csv, "--account", "Giro", "--rules", rules, "--create-missing"]
        let object = try cli.json(args)
        #expect(try StatementImportTests.lines(object).map { $0.string("amount") } == ["60.00", "100.00", "100.00"])
        let balance = try #require(try StatementImportTests.summary(object)["balance"] as? [String: Any])
        #expect(balance.string("difference") == "0.00")
        #expect(try ExpectedFlowTests.balances(cli, today: "2018-10-31")["Giro"] == 300_00)
        // Again: the same lines, each a duplicate.
        let before = cli.state()
        #expect(try StatementImportTests.summary(try cli.json(args))["duplicate"] as? Int == 3)
        #expect(cli.state() == before)
        // A line with neither is refused by line.
        let none = try Self.file(cli, "none.csv", "2018-11-15,\n")
        Self.malformed(cli, ["import", none, "--account", "Giro", "--rules", rules], mentioning: ["none.csv:1", "balance 'EUR' is not a number"])
    }

    @Test func footersLeftOutByIfBlocksAreNotRecords() throws {
        let cli = try Self.ledger("RUB", account: "Сбер")
        let rules = try Self.file(cli, "ru.rules", RussianBankExport.rules)
        let csv = try Self.file(cli, "ru.csv", RussianBankExport.csv)
        let rows = try StatementImportTests.lines(try cli.json(["import", csv, "--account", "Сбер", "--rules", rules]))
        #expect(rows.map { $0.string("amount") } == ["-1234.50", "180000.00"])
        let footer = try Self.file(cli, "footer.csv", RussianBankExport.csv.replacingOccurrences(of: "Итого списаний", with: "Всего"))
        Self.malformed(
            cli, ["import", footer, "--account", "Сбер", "--rules", rules],
            mentioning: ["footer.csv:5", "the record has 2 fields and fields names 3"])
    }

    // MARK: 9. A transfer between two imported accounts

    /// Bank 50 000 and a card spent 12 000; a transfer of 12 000 from the bank to the card entered by hand.
    static func bankAndCard() throws -> CLI {
        let cli = try Self.ledger(account: "Bank")
        cli.ok(["account", "add", "Card", "--kind", "credit-card"])
        cli.ok(["category", "add", "Opening", "--income"])
        cli.ok(["earn", "50000", "Opening", "--to", "Bank", "--on", "2025-03-01"])
        cli.ok(["spend", "12000", "Groceries", "--from", "Card", "--on", "2025-03-02"])
        cli.ok(["transfer", "12000", "--from", "Bank", "--to", "Card", "--on", "2025-03-10"])
        return cli
    }

    static func importing(_ cli: CLI, _ name: String, csv: String, rules: String) throws -> [String] {
        let path = try Self.file(cli, name + ".csv", csv)
        _ = try Self.file(cli, name + ".rules", rules)
        return ["import", path, "--account", name.hasPrefix("bank") ? "Bank" : "Card"]
    }

    @Test func aTransferTheOtherStatementLinkedIsMatchedNotAddedAgain() throws {
        let cli = try Self.bankAndCard()
        let bank = try Self.importing(
            cli, "bank", csv: "2025-03-10,Card payment,-12000.00\n",
            rules: "fields date, description, amount\nif Card payment\n account2 assets:card\n")
        #expect(try StatementImportTests.lines(try cli.json(bank)).first?.string("status")?.hasPrefix("matches tx ") == true)
        let card = try Self.importing(
            cli, "card", csv: "2025-03-11,Payment received,12000.00\n",
            rules: "fields date, description, amount\nif Payment received\n account2 assets:bank\n")
        let before = cli.state()
        let rows = try StatementImportTests.lines(try cli.json(card))
        #expect(rows.first?.string("status")?.hasPrefix("matches tx ") == true, "\(rows)")
        #expect(rows.first?.string("counterpart") == "Bank")
        #expect(cli.state() == before)
        let balances = try ExpectedFlowTests.balances(cli, today: "2025-03-31")
        #expect(balances["Bank"] == 38_000_00)
        #expect(balances["Card"] == 0)
        // Again: still the one transfer.
        #expect(try StatementImportTests.lines(try cli.json(card)).first?.string("status")?.hasPrefix("matches tx ") == true)
        #expect(cli.state() == before)
    }

    @Test func aCardLineWithoutACounterpartMatchesTheTransferTooButACategoryOrAnotherAmountDoesNot() throws {
        let cli = try Self.bankAndCard()
        let bank = try Self.importing(cli, "bank", csv: "2025-03-10,Card payment,-12000.00\n", rules: "fields date, description, amount\n")
        cli.ok(bank)
        let plain = try Self.importing(cli, "card", csv: "2025-03-12,Payment received,12000.00\n", rules: "fields date, description, amount\n")
        #expect(try StatementImportTests.lines(try cli.json(plain + ["--dry-run"])).first?.string("status")?.hasPrefix("matches tx ") == true)
        // A counterpart that is not the bank, another amount or another week: a line of its own.
        let other = try Self.importing(
            cli, "card2",
            csv: "2025-03-11,Refund,12000.00\n2025-03-11,Payment received,11000.00\n2025-03-20,Payment received,12000.00\n",
            rules: "fields date, description, amount\nif Refund\n account2 income:refunds\n")
        let rows = try StatementImportTests.lines(try cli.json(other + ["--dry-run", "--create-missing"]))
        #expect(rows.map { $0.string("status") } == ["new", "uncategorised", "uncategorised"])
        // --keep-both adds it anyway.
        #expect(try StatementImportTests.lines(try cli.json(plain + ["--dry-run", "--keep-both"])).first?.string("status") == "uncategorised")
    }

    // MARK: 10. A card's statement into a debit account

    @Test func aCreditCardStatementIntoAnotherKindOfAccountIsRefused() throws {
        let cli = try Self.ledger("USD", account: "Checking")
        Self.malformed(
            cli, ["import", StatementImportTests.fixture("card-ofx102.ofx"), "--account", "Checking"],
            mentioning: ["--account 'Checking'", "it is a debit account", "credit-card statement (CREDITCARDMSGSRSV1)"])
        let qif = try Self.file(cli, "card.qif", "!Type:CCard\nD3/15'25\nT-45.00\nPFuel\n^\n")
        Self.malformed(cli, ["import", qif, "--account", "Checking"], mentioning: ["it is a debit account", "!Type:CCard"])
        cli.ok(["account", "add", "Visa", "--kind", "credit-card"])
        #expect(try StatementImportTests.lines(try cli.json(["import", qif, "--account", "Visa"])).count == 1)
    }
}
