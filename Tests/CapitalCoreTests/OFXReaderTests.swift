import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@Suite("OFX reader")
struct OFXReaderTests {
    // MARK: Helpers

    static func fixture(_ name: String) throws -> String { try StatementFixtures.text(name) }
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Day { StatementFixtures.day(year, month, day) }

    /// An SGML bank statement of account 123 in EUR; `transactions` start on line 12, `ledger` follows on the next line.
    static func bankFile(_ transactions: String, ledger: String = "") -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        <OFX>
        <BANKMSGSRSV1>
        <STMTTRNRS>
        <STMTRS>
        <CURDEF>EUR
        <BANKACCTFROM>
        <ACCTID>123
        </BANKACCTFROM>
        <BANKTRANLIST>
        \(transactions)
        </BANKTRANLIST>
        \(ledger)
        </STMTRS>
        </STMTTRNRS>
        </BANKMSGSRSV1>
        </OFX>
        """
    }

    /// One SGML transaction on four lines.
    static func transaction(posted: String = "20250102", amount: String = "-12.34") -> String {
        "<STMTTRN>\n<DTPOSTED>\(posted)\n<TRNAMT>\(amount)\n</STMTTRN>"
    }

    /// The one line of a one-transaction bank file.
    static func onlyLine(_ text: String, exponent: Int = 2) throws -> StatementLine {
        let statements = try OFXReader.read(text, exponent: exponent)
        try #require(statements.count == 1 && statements[0].lines.count == 1)
        return statements[0].lines[0]
    }

    /// Every leaf written with its close tag (`<NAME>X` → `<NAME>X</NAME>`), line by line.
    static func closingLeaves(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let body = line.hasSuffix("\r") ? line.dropLast() : line[...]
            guard body.hasPrefix("<"), !body.hasPrefix("</"), let close = body.firstIndex(of: ">"),
                body.index(after: close) < body.endIndex
            else { return String(line) }
            let name = body[body.index(after: body.startIndex)..<close]
            return "\(body)</\(name)>" + (line.hasSuffix("\r") ? "\r" : "")
        }.joined(separator: "\n")
    }

    /// Every leaf's close tag removed (`<NAME>X</NAME>` → `<NAME>X`).
    static func unclosingLeaves(_ text: String) -> String {
        var text = text
        for name in [
            "CODE", "SEVERITY", "DTSERVER", "LANGUAGE", "TRNUID", "CURDEF", "BANKID", "ACCTID", "ACCTTYPE", "DTSTART", "DTEND",
            "TRNTYPE", "DTPOSTED", "TRNAMT", "FITID", "NAME", "MEMO", "BALAMT", "DTASOF",
        ] {
            text = text.replacingOccurrences(of: "</\(name)>", with: "")
        }
        return text
    }

    // MARK: Fixtures

    @Test("reads an OFX 1.02 SGML credit-card statement line by line")
    func readsSGMLCardStatement() throws {
        let statements = try OFXReader.read(Self.fixture("card-ofx102.ofx"), exponent: 2)
        let expected = Statement(
            accountNumber: "4111111111111111", kind: .card, currency: "USD",
            lines: [
                StatementLine(
                    line: 41, day: Self.day(2025, 1, 3), amountMinor: -4217, payee: "GROCERY MART #512", note: "POS PURCHASE",
                    externalID: "2025010300001"),
                StatementLine(line: 49, day: Self.day(2025, 1, 4), amountMinor: -350, payee: "COFFEE & CO", externalID: "2025010400002"),
                StatementLine(
                    line: 57, day: Self.day(2025, 1, 7), amountMinor: -12000, payee: "CITY POWER & LIGHT", note: "AUTOPAY",
                    externalID: "2025010700003"),
                StatementLine(line: 65, day: Self.day(2025, 1, 10), amountMinor: 50000, payee: "PAYMENT - THANK YOU", externalID: "2025011000004"),
                StatementLine(
                    line: 72, day: Self.day(2025, 1, 12), amountMinor: 1599, payee: "ONLINE STORE", note: "REFUND <ORDER 7781>",
                    externalID: "2025011200005"),
                StatementLine(line: 80, day: Self.day(2025, 1, 15), amountMinor: -6430, payee: "BOOKSHOP", externalID: "2025011500006"),
                StatementLine(
                    line: 87, day: Self.day(2025, 1, 20), amountMinor: -100_000, payee: "AIRLINE TICKETS", note: "2 ADULTS",
                    externalID: "2025012000007"),
                StatementLine(line: 95, day: Self.day(2025, 1, 28), amountMinor: -99, payee: "APP STORE", externalID: "2025012800008"),
            ],
            closingBalance: StatementBalance(day: Self.day(2025, 1, 31), amountMinor: -123_456))
        #expect(statements == [expected])
    }

    @Test("reads an OFX 2.11 XML file with two bank accounts as two statements in file order")
    func readsXMLBankStatements() throws {
        let statements = try OFXReader.read(Self.fixture("bank-ofx2.ofx"), exponent: 2)
        let current = Statement(
            accountNumber: "DE89370400440532013000", kind: .bank, currency: "EUR",
            lines: [
                StatementLine(
                    line: 26, day: Self.day(2025, 2, 1), amountMinor: 320_000, payee: "ACME GmbH", note: "Salary February", externalID: "CUR-0001"),
                StatementLine(
                    line: 34, day: Self.day(2025, 2, 3), amountMinor: -115_000, payee: "Hausverwaltung Müller & Partner", note: "Rent \"Flat 3\"",
                    externalID: "CUR-0002"),
                StatementLine(line: 42, day: Self.day(2025, 2, 14), amountMinor: -2380, payee: "Café L'Ami", externalID: "CUR-0003"),
                StatementLine(line: 50, day: Self.day(2025, 2, 28), amountMinor: -50000, payee: "To savings", externalID: "CUR-0004"),
            ],
            closingBalance: StatementBalance(day: Self.day(2025, 2, 28), amountMinor: 252_620))
        let savings = Statement(
            accountNumber: "DE02120300000000202051", kind: .bank, currency: "EUR",
            lines: [
                StatementLine(line: 79, day: Self.day(2025, 2, 28), amountMinor: 50000, payee: "From current account", externalID: "SAV-0001"),
                StatementLine(line: 86, day: Self.day(2025, 2, 28), amountMinor: 417, payee: "Interest", note: "Rate 1.25 %", externalID: "SAV-0002"),
            ],
            closingBalance: StatementBalance(day: Self.day(2025, 2, 28), amountMinor: 1_050_417))
        #expect(statements == [current, savings])
    }

    @Test("SGML with unclosed leaves and XML with closed ones read alike", arguments: ["card-ofx102.ofx", "bank-ofx2.ofx"])
    func flavoursReadAlike(name: String) throws {
        let text = try Self.fixture(name)
        let original = try OFXReader.read(text, exponent: 2)
        #expect(try OFXReader.read(Self.closingLeaves(text), exponent: 2) == original)
        #expect(try OFXReader.read(Self.unclosingLeaves(text), exponent: 2) == original)
    }

    @Test("CRLF, LF and lone CR line ends give the same statements and line numbers")
    func lineEndsAlike() throws {
        let crlf = try Self.fixture("card-ofx102.ofx")
        #expect(crlf.utf8.contains(0x0D))
        let lf = crlf.replacingOccurrences(of: "\r\n", with: "\n")
        let cr = lf.replacingOccurrences(of: "\n", with: "\r")
        let expected = try OFXReader.read(crlf, exponent: 2)
        #expect(try OFXReader.read(lf, exponent: 2) == expected)
        #expect(try OFXReader.read(cr, exponent: 2) == expected)
    }

    @Test("tag names are read without regard to case")
    func tagNamesIgnoreCase() throws {
        let text = try Self.fixture("bank-ofx2.ofx")
        var lowered = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" { inTag = false }
            lowered.append(inTag ? Character(character.lowercased()) : character)
        }
        #expect(try OFXReader.read(lowered, exponent: 2) == OFXReader.read(text, exponent: 2))
    }

    @Test("a file with a bank and a card statement gives both, in file order")
    func bankAndCardInOneFile() throws {
        let card = try Self.fixture("card-ofx102.ofx").replacingOccurrences(of: "\r\n", with: "\n")
        let bank = Self.bankFile(Self.transaction())
        let start = try #require(card.range(of: "<CREDITCARDMSGSRSV1>")).lowerBound
        let end = try #require(card.range(of: "</OFX>")).lowerBound
        let cardMessages = card[start..<end]
        let both = bank.replacingOccurrences(of: "</OFX>", with: cardMessages + "</OFX>")
        let statements = try OFXReader.read(both, exponent: 2)
        #expect(statements.map(\.kind) == [.bank, .card])
        #expect(statements.map(\.accountNumber) == ["123", "4111111111111111"])
        #expect(statements.map(\.lines.count) == [1, 8])
    }

    // MARK: Values

    @Test(
        "amounts become minor units without rounding",
        arguments: [
            ("-12.34", 2, -1234), ("12,3", 2, 1230), ("+5", 2, 500), ("-.50", 2, -50), ("7.", 2, 700), ("1.2300", 2, 123), ("0", 2, 0),
            ("-0.00", 2, 0), ("12", 0, 12), ("12.000", 0, 12), ("1.5", 3, 1500), ("92233720368547758.07", 2, Int64.max),
            ("-92233720368547758.07", 2, -Int64.max), (" 42.00 ", 2, 4200),
        ] as [(String, Int, Int64)])
    func amounts(text: String, exponent: Int, minor: Int64) throws {
        #expect(try Self.onlyLine(Self.bankFile(Self.transaction(amount: text)), exponent: exponent).amountMinor == minor)
    }

    @Test(
        "an amount that does not read is refused on its line, quoted",
        arguments: [
            ("12,3x", "is not an amount"), ("", "is not an amount"), ("1 000", "is not an amount"), ("--1", "is not an amount"),
            ("1.2.3", "is not an amount"), ("12e3", "is not an amount"), (".", "is not an amount"), ("$5", "is not an amount"),
            ("1.234", "has more than 2 decimals"), ("0.001", "has more than 2 decimals"), ("92233720368547758.08", "is too large"),
            ("-92233720368547758.08", "is too large"), ("-92233720368547758.09", "is too large"), ("99999999999999999999999", "is too large"),
        ])
    func badAmounts(text: String, reason: String) {
        #expect(throws: StatementError(line: 14, "TRNAMT '\(text)' \(reason)")) {
            try OFXReader.read(Self.bankFile(Self.transaction(amount: text)), exponent: 2)
        }
    }

    @Test("the day is the first eight digits of DTPOSTED; time and zone are ignored")
    func dates() throws {
        for posted in ["20250102", "20250102120000", "20250102235959.999[-12:BIT]", "20250102000000.000[+14]"] {
            #expect(try Self.onlyLine(Self.bankFile(Self.transaction(posted: posted))).day == Self.day(2025, 1, 2))
        }
    }

    @Test(
        "a date that does not read is refused on its line, quoted",
        arguments: [
            ("2025-01-02", "is not a date: expected YYYYMMDD"), ("2025010", "is not a date: expected YYYYMMDD"),
            ("", "is not a date: expected YYYYMMDD"), ("20250230", "is not a calendar date"), ("20251301120000", "is not a calendar date"),
        ])
    func badDates(text: String, reason: String) {
        #expect(throws: StatementError(line: 13, "DTPOSTED '\(text)' \(reason)")) {
            try OFXReader.read(Self.bankFile(Self.transaction(posted: text)), exponent: 2)
        }
    }

    @Test(
        "entities are decoded and values trimmed",
        arguments: [
            ("  A &amp; B  ", "A & B"), ("&lt;x&gt;", "<x>"), ("&quot;q&quot; &apos;a&apos;", "\"q\" 'a'"), ("M&#252;ller", "Müller"),
            ("Caf&#xE9;", "Café"), ("AT&T", "AT&T"), ("&unknown; &#0; &#xZZ;", "&unknown; &#0; &#xZZ;"), ("&amp;amp;", "&amp;"),
        ])
    func entities(raw: String, decoded: String) throws {
        let text = Self.bankFile("<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>1\n<NAME>\(raw)\n<MEMO>\(raw)</MEMO>\n</STMTTRN>")
        let line = try Self.onlyLine(text)
        #expect(line.payee == decoded)
        #expect(line.note == decoded)
    }

    @Test("the payee comes from NAME, else from PAYEE's NAME; a line names its own currency in CURRENCY")
    func payeeAndCurrency() throws {
        let text = Self.bankFile(
            """
            <STMTTRN><DTPOSTED>20250102<TRNAMT>-1<FITID>
            <PAYEE><NAME>Shop<CITY>Town</PAYEE>
            <CURRENCY><CURRATE>1.1<CURSYM>USD</CURRENCY>
            </STMTTRN>
            """)
        let line = try Self.onlyLine(text)
        #expect(line.payee == "Shop")
        #expect(line.currency == "USD")
        #expect(line.externalID == nil)
        #expect(line.note == "")
    }

    @Test("comments, processing instructions, self-closing tags and stray close tags are passed over")
    func markupPassedOver() throws {
        let text = Self.bankFile(
            """
            <!-- a comment with <STMTTRN> inside -->
            <STMTTRN><?pi x?><DTPOSTED>20250102</DTPOSTED><TRNAMT>-1.00</TRNAMT><MEMO/></NAME></STMTTRN>
            """)
        let line = try Self.onlyLine(text)
        #expect(line.line == 13)
        #expect(line.amountMinor == -100)
    }

    @Test("a statement without transactions or balance is still a statement")
    func emptyStatement() throws {
        let text = "<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>RUB</CURDEF></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>"
        #expect(try OFXReader.read(text, exponent: 2) == [Statement(kind: .card, currency: "RUB")])
    }

    // MARK: Errors

    @Test(
        "a file without a bank or card statement is refused",
        arguments: [
            "", "date,amount\n2025-01-02,-5\n", "OFXHEADER:100\n<OFX><SIGNONMSGSRSV1><SONRS></SONRS></SIGNONMSGSRSV1></OFX>",
            "<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>",
        ])
    func noStatement(text: String) {
        #expect(throws: StatementError(line: 0, "no bank or credit-card statement (BANKMSGSRSV1/CREDITCARDMSGSRSV1) in the file")) {
            try OFXReader.read(text, exponent: 2)
        }
    }

    @Test("a tag cut off by the end of the file or by the next tag is refused on its line")
    func truncatedTag() {
        #expect(throws: StatementError(line: 13, "tag '<STMTTRN' has no '>' before the end of the file: the file looks cut short")) {
            try OFXReader.read(Self.bankFile("").components(separatedBy: "</BANKTRANLIST>")[0] + "<STMTTRN", exponent: 2)
        }
        #expect(throws: StatementError(line: 13, "tag '<TRNAMT' has no '>' before the next '<'")) {
            try OFXReader.read(Self.bankFile("<STMTTRN>\n<TRNAMT -5\n<DTPOSTED>20250102\n</STMTTRN>"), exponent: 2)
        }
        #expect(throws: StatementError(line: 1, "'<!--' is never closed by '-->': the file looks cut short")) {
            try OFXReader.read("<!-- <OFX>", exponent: 2)
        }
    }

    @Test("a file cut in the middle is refused, naming the aggregate left open")
    func cutInTheMiddle() throws {
        let text = try Self.fixture("card-ofx102.ofx")
        let lines = text.components(separatedBy: "\r\n")
        // Cut after the DTPOSTED of the transaction on line 57.
        let cut = lines[..<59].joined(separator: "\r\n")
        #expect(throws: StatementError(line: 59, "the file ends inside <STMTTRN> opened on line 57: it looks cut short")) {
            try OFXReader.read(cut, exponent: 2)
        }
        // Cut between two transactions.
        #expect(throws: StatementError(line: 64, "the file ends inside <BANKTRANLIST> opened on line 38: it looks cut short")) {
            try OFXReader.read(lines[..<64].joined(separator: "\r\n") + "\r\n", exponent: 2)
        }
    }

    @Test("a transaction without DTPOSTED or TRNAMT is refused on the line of its STMTTRN")
    func missingFields() {
        #expect(throws: StatementError(line: 12, "STMTTRN has no DTPOSTED")) {
            try OFXReader.read(Self.bankFile("<STMTTRN>\n<TRNAMT>-1\n</STMTTRN>"), exponent: 2)
        }
        #expect(throws: StatementError(line: 12, "STMTTRN has no TRNAMT")) {
            try OFXReader.read(Self.bankFile("<STMTTRN>\n<DTPOSTED>20250102\n<MEMO>x\n</STMTTRN>"), exponent: 2)
        }
        #expect(throws: StatementError(line: 14, "BALAMT '5x' is not an amount")) {
            try OFXReader.read(Self.bankFile("", ledger: "<LEDGERBAL><BALAMT>5x<DTASOF>20250101</LEDGERBAL>"), exponent: 2)
        }
    }

    // MARK: Files written by others (issue 51)

    @Test("a file without its header, SGML or XML, is read from its <OFX>")
    func headerless() throws {
        let sgml = Self.bankFile(Self.transaction()).components(separatedBy: "\n").dropFirst(2).joined(separator: "\n")
        #expect(OFXReader.looksLikeOFX(sgml))
        #expect(try Self.onlyLine(sgml).amountMinor == -1234)
        let xml = Self.closingLeaves(sgml)
        #expect(OFXReader.looksLikeOFX(xml))
        #expect(try Self.onlyLine(xml).amountMinor == -1234)
    }

    @Test(
        "an empty or missing BALAMT or DTASOF leaves the statement without a closing balance, its lines read",
        arguments: [
            ("<LEDGERBAL><BALAMT><DTASOF>20250131</LEDGERBAL>", "LEDGERBAL has an empty BALAMT"),
            ("<LEDGERBAL><BALAMT>5.00<DTASOF></LEDGERBAL>", "LEDGERBAL has an empty DTASOF"),
            ("<LEDGERBAL><BALAMT></BALAMT><DTASOF></DTASOF></LEDGERBAL>", "LEDGERBAL has an empty BALAMT and an empty DTASOF"),
            ("<LEDGERBAL><BALAMT>5</LEDGERBAL>", "LEDGERBAL has no DTASOF"),
        ])
    func unusableBalance(ledger: String, reason: String) throws {
        let statement = try #require(try OFXReader.read(Self.bankFile(Self.transaction(), ledger: ledger), exponent: 2).first)
        #expect(statement.lines.count == 1)
        #expect(statement.closingBalance == nil)
        #expect(statement.unusableBalance == StatementError(line: 17, reason))
        // A balance that is there and does not read is still refused.
        #expect(throws: StatementError(line: 17, "DTASOF '2025' is not a date: expected YYYYMMDD")) {
            try OFXReader.read(Self.bankFile(Self.transaction(), ledger: "<LEDGERBAL><BALAMT>5<DTASOF>2025</LEDGERBAL>"), exponent: 2)
        }
    }

    @Test("CDATA sections are read as text, as written")
    func cdata() throws {
        let line = try Self.onlyLine(
            Self.bankFile(
                "<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>-5.00\n<NAME><![CDATA[EFTPOS WDL ALDI]]>\n<MEMO><![CDATA[a <b> &amp; c]]></MEMO>\n</STMTTRN>")
        )
        #expect(line.payee == "EFTPOS WDL ALDI")
        #expect(line.note == "a <b> &amp; c")
        let mixed = try Self.onlyLine(
            Self.bankFile("<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>-5.00\n<NAME>Caf&eacute; &amp; <![CDATA[Bar]]>\n</STMTTRN>"))
        #expect(mixed.payee == "Caf&eacute; & Bar")
        #expect(throws: StatementError(line: 15, "'<![CDATA[' is never closed by ']]>': the file looks cut short")) {
            try OFXReader.read(Self.bankFile("<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>-5.00\n<NAME><![CDATA[EFTPOS\n</STMTTRN>"), exponent: 2)
        }
    }

    @Test("an aggregate closed only by the close tag of the one around it is refused on its line")
    func unclosedAggregate() {
        let text = Self.bankFile(Self.transaction()).replacingOccurrences(of: "</BANKTRANLIST>\n", with: "")
        #expect(throws: StatementError(line: 11, "<BANKTRANLIST> is never closed: </STMTRS> on line 17 closes the <STMTRS> around it")) {
            try OFXReader.read(text, exponent: 2)
        }
        let transaction = Self.bankFile("<STMTTRN>\n<DTPOSTED>20250102\n<TRNAMT>-1\n" + Self.transaction())
        #expect(throws: StatementError(line: 12, "<STMTTRN> is never closed: </BANKTRANLIST> on line 19 closes the <BANKTRANLIST> around it")) {
            try OFXReader.read(transaction, exponent: 2)
        }
    }

    @Test("an exponent outside 0 to 18 is refused")
    func badExponent() {
        #expect(throws: StatementError(line: 0, "exponent 19 is not 0 to 18")) { try OFXReader.read("", exponent: 19) }
    }

    // MARK: Recognition

    @Test(
        "recognises OFX 1.x and 2.x headers",
        arguments: [
            ("OFXHEADER:100\nDATA:OFXSGML", true), ("\u{FEFF}\r\n  OFXHEADER:100", true), ("ofxheader:100", true),
            ("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>", true), ("<?xml version=\"1.0\"?><OFX>", true),
            ("<?xml version=\"1.0\"?>\n<html>", false), ("<OFX>", true),
            ("\r\n<ofx>\r\n<SIGNONMSGSRSV1>", true), ("<OFXHEADER", false), ("<OFX-like>", false), ("!Type:Bank", false), ("date,amount", false),
            ("", false),
            ("<?xml version=\"1.0\"", false),
        ])
    func recognition(text: String, isOFX: Bool) {
        #expect(OFXReader.looksLikeOFX(text) == isOFX)
    }

    // MARK: Hostile input

    @Test("mutated fixtures give statements or one-line errors, never a trap, in bounded time")
    func hostileInput() throws {
        let seeds = try [Self.fixture("card-ofx102.ofx"), Self.fixture("bank-ofx2.ofx")]
        let pieces = [
            "<", ">", "</", "<STMTTRN>", "</STMTTRN>", "</BANKTRANLIST>", "<TRNAMT>", "<DTPOSTED>", "&amp;", "&#x1F600;", "&#0;", "&#99999999;",
            "\r\n", "\r", "<!--", "<?", "</OFX>", ",", "-", "99999999999999999999", "\u{0}", "\u{2028}",
        ]
        StatementFixtures.hostile(seed: 0x0F_C0, seeds: seeds, pieces: pieces, span: 60) { text, _ throws(StatementError) in
            _ = try OFXReader.read(text, exponent: 2)
        }
    }

    @Test("deep and long inputs are read in linear time")
    func deepInput() {
        let depth = 20_000
        let unclosed = "<OFX>" + String(repeating: "<X>", count: depth) + String(repeating: "</Y>", count: depth) + "</OFX>"
        let comments = String(repeating: "<!-- c --><?pi?>", count: depth)
        let clock = ContinuousClock()
        for text in [unclosed, comments] {
            let elapsed = clock.measure { #expect(throws: StatementError.self) { try OFXReader.read(text, exponent: 2) } }
            #expect(elapsed < .seconds(2))
        }
    }
}
