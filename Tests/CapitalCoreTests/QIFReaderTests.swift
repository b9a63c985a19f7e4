import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

@Suite("QIF reader")
struct QIFReaderTests {
    // MARK: Helpers

    static func fixture(_ name: String) throws -> String { try StatementFixtures.text(name) }
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Day { StatementFixtures.day(year, month, day) }

    /// A bank register of one record with date `date` and amount `amount` (the date on line 2, the amount on line 3).
    static func record(date: String = "1/2/2025", amount: String = "-1.00") -> String { "!Type:Bank\nD\(date)\nT\(amount)\n^\n" }

    /// The one line of a one-record file.
    static func onlyLine(_ text: String, exponent: Int = 2, dayFirst: Bool = false) throws -> StatementLine {
        let statement = try QIFReader.read(text, exponent: exponent, dayFirst: dayFirst)
        try #require(statement.lines.count == 1)
        return statement.lines[0]
    }

    // MARK: Fixtures

    @Test("reads a bank register with a split, transfers and every date form, skipping the account list")
    func readsBankRegister() throws {
        let statement = try QIFReader.read(Self.fixture("splits.qif"), exponent: 2)
        let expected = Statement(
            kind: .bank,
            lines: [
                StatementLine(
                    line: 16, day: Self.day(2025, 1, 2), amountMinor: -123_456, payee: "Landlord LLC", note: "January rent",
                    counterpart: "Housing:Rent"),
                StatementLine(
                    line: 24, day: Self.day(2025, 1, 5), amountMinor: 250_000, payee: "ACME Corp", note: "Salary", counterpart: "Income:Salary"),
                StatementLine(
                    line: 31, day: Self.day(2025, 1, 7), amountMinor: -8740, payee: "Supermarket", note: "Weekly shop", counterpart: "Groceries",
                    splits: [
                        StatementSplit(counterpart: "Groceries", amountMinor: -6215, note: "Food"),
                        StatementSplit(counterpart: "Household", amountMinor: -2000, note: "Cleaning"),
                        StatementSplit(counterpart: "[Savings]", amountMinor: -525),
                    ]),
                StatementLine(line: 46, day: Self.day(2025, 1, 9), amountMinor: -20000, payee: "Transfer to savings", counterpart: "[Savings]"),
                StatementLine(line: 52, day: Self.day(2025, 1, 12), amountMinor: -1500, payee: "Cinema", counterpart: "Entertainment"),
                StatementLine(line: 59, day: Self.day(2025, 1, 15), amountMinor: 99, payee: "Interest"),
                StatementLine(line: 63, day: Self.day(1999, 12, 31), amountMinor: -100, payee: "Millennium party"),
            ])
        #expect(statement == expected)
        // The split amounts add up to the line's amount in the fixture.
        #expect(statement.lines[2].splits.map(\.amountMinor).reduce(0, +) == statement.lines[2].amountMinor)
    }

    /// Quicken exports every account to one file, each register after an `!Account` block naming
    /// it; a statement is one account's lines, so a second account's records are refused (they
    /// were read into the one account imported). One account named twice, or registers with no
    /// `!Account` at all, are one account's.
    @Test("records of a second account's register are refused, naming both")
    func severalAccountsAreRefused() throws {
        let two = "!Account\nNChecking\nTBank\n^\n!Type:Bank\nD1/2/2025\nT-5.00\n^\n!Account\nNSavings\nTBank\n^\n!Type:Bank\nD1/3/2025\nT7.00\n^\n"
        #expect(
            throws: StatementError(
                line: 14,
                "the file holds the registers of several accounts ('Checking', then 'Savings'): "
                    + "capital imports one account's lines at a time; export each account on its own")
        ) { try QIFReader.read(two, exponent: 2) }
        let again = two.replacingOccurrences(of: "NSavings", with: "NChecking")
        #expect(try QIFReader.read(again, exponent: 2).lines.count == 2)
        // An account list with no records of the other account, or none named at all, is fine.
        let listed = "!Account\nNSavings\nTBank\n^\n!Account\nNChecking\nTBank\n^\n!Type:Bank\nD1/2/2025\nT-5.00\n^\n"
        #expect(try QIFReader.read(listed, exponent: 2).lines.count == 1)
        #expect(try QIFReader.read(Self.record() + Self.record(date: "1/3/2025"), exponent: 2).lines.count == 2)
    }

    @Test("reads a credit-card register with CRLF line ends")
    func readsCardRegister() throws {
        let text = try Self.fixture("card.qif")
        #expect(text.utf8.contains(0x0D))
        let expected = Statement(
            kind: .card,
            lines: [
                StatementLine(line: 2, day: Self.day(2025, 3, 1), amountMinor: -4500, payee: "Fuel Station", counterpart: "Car:Fuel"),
                StatementLine(line: 7, day: Self.day(2025, 3, 3), amountMinor: 30000, payee: "Payment - thank you", counterpart: "[Checking]"),
            ])
        #expect(try QIFReader.read(text, exponent: 2) == expected)
        #expect(try QIFReader.read(text.replacingOccurrences(of: "\r\n", with: "\n"), exponent: 2) == expected)
        #expect(try QIFReader.read(text.replacingOccurrences(of: "\r\n", with: "\r"), exponent: 2) == expected)
    }

    // MARK: Dates

    @Test(
        "dates read month first, in Quicken's forms and ISO",
        arguments: [
            ("1/ 2'25", 2025, 1, 2), ("01/02/2025", 2025, 1, 2), ("1/2/25", 2025, 1, 2), ("01/02'2025", 2025, 1, 2), ("1-2-2025", 2025, 1, 2),
            ("2025-01-02", 2025, 1, 2), ("2025-1-2", 2025, 1, 2), ("1.2.2025", 2025, 1, 2), ("12/31' 5", 2005, 12, 31),
            (" 1 / 2 / 2025 ", 2025, 1, 2),
            ("12/31/99", 1999, 12, 31), ("1/2/69", 2069, 1, 2), ("1/2/70", 1970, 1, 2), ("1/2'70", 2070, 1, 2), ("2/29'24", 2024, 2, 29),
        ])
    func monthFirstDates(text: String, year: Int, month: Int, day: Int) throws {
        #expect(try Self.onlyLine(Self.record(date: text)).day == Self.day(year, month, day))
    }

    @Test(
        "dates read day first with dayFirst, ISO dates unchanged",
        arguments: [
            ("02/01/2025", 2025, 1, 2), ("2/ 1'25", 2025, 1, 2), ("31.12.2024", 2024, 12, 31), ("2025-01-02", 2025, 1, 2), ("13/1/25", 2025, 1, 13),
        ])
    func dayFirstDates(text: String, year: Int, month: Int, day: Int) throws {
        #expect(try Self.onlyLine(Self.record(date: text), dayFirst: true).day == Self.day(year, month, day))
    }

    @Test(
        "a date that does not read is refused on its line, quoted",
        arguments: [
            ("13/40/2025", false, "is not a calendar date (read month first)"), ("2/30/2025", false, "is not a calendar date (read month first)"),
            ("12/31/2025", true, "is not a calendar date (read day first)"), ("2025-13-01", false, "is not a calendar date (read year first)"),
            ("", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("1/2", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("1/2/3/4", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("Jan 2 2025", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("1/2/225", true, "is not a date: expected D/M/YY, D/M'YY, D/M/YYYY or YYYY-MM-DD"),
            ("123/1/2025", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("1//2/2025", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
            ("2025-001-02", false, "is not a date: expected M/D/YY, M/D'YY, M/D/YYYY or YYYY-MM-DD"),
        ])
    func badDates(text: String, dayFirst: Bool, reason: String) {
        #expect(throws: StatementError(line: 2, "date '\(text)' \(reason)")) {
            try QIFReader.read(Self.record(date: text), exponent: 2, dayFirst: dayFirst)
        }
    }

    // MARK: Dates told by the file (issue 51)

    /// Two records dated `first` (line 2) and `second` (line 6).
    static func twoRecords(_ first: String, _ second: String) -> String {
        "!Type:Bank\nD\(first)\nT-1.00\n^\nPShop\nD\(second)\nT-2.00\n^\n"
    }

    @Test(
        "a date that reads only day first makes the whole file day first",
        arguments: [("29/12/10", 2010), ("29/12/2010", 2010), ("29.12.2010", 2010), ("29/12'10", 2010)])
    func oneDayFirstDateTellsTheFile(text: String, year: Int) throws {
        let statement = try QIFReader.read(Self.twoRecords("01/02/2010", text), exponent: 2, dates: .fromFile)
        #expect(statement.lines.map(\.day) == [Self.day(2010, 2, 1), Self.day(year, 12, 29)])
    }

    @Test("a date that reads only month first makes the whole file month first")
    func oneMonthFirstDateTellsTheFile() throws {
        let statement = try QIFReader.read(Self.twoRecords("01/02/2010", "12/29/2010"), exponent: 2, dates: .fromFile)
        #expect(statement.lines.map(\.day) == [Self.day(2010, 1, 2), Self.day(2010, 12, 29)])
        // Dates that read the same either way, and ISO dates, need no telling: month first.
        let same = try QIFReader.read(Self.twoRecords("5/5/25", "2025-01-02"), exponent: 2, dates: .fromFile)
        #expect(same.lines.map(\.day) == [Self.day(2025, 5, 5), Self.day(2025, 1, 2)])
    }

    @Test("a file whose dates stay ambiguous, or mix the orders, is refused on its line")
    func ambiguousDatesAreRefused() throws {
        var ambiguous = StatementError(line: 2, "date '01/02/2010' reads month first and day first, and no date of the file reads only one way")
        ambiguous.needsDateOrder = true
        #expect(throws: ambiguous) { try QIFReader.read(Self.twoRecords("01/02/2010", "03/04/2010"), exponent: 2, dates: .fromFile) }
        #expect(
            throws: StatementError(
                line: 6,
                "date '12/29/2010' reads only month first, and date '29/12/2010' on line 2 only day first: the file's dates are not in one order")
        ) { try QIFReader.read(Self.twoRecords("29/12/2010", "12/29/2010"), exponent: 2, dates: .fromFile) }
        // Told the order, the file is read so, and a date of the other order is not a date.
        #expect(try QIFReader.read(Self.twoRecords("01/02/2010", "03/04/2010"), exponent: 2, dates: .dayFirst).lines[0].day == Self.day(2010, 2, 1))
        #expect(throws: StatementError(line: 6, "date '29/12/2010' is not a calendar date (read month first)")) {
            try QIFReader.read(Self.twoRecords("01/02/2010", "29/12/2010"), exponent: 2, dates: .monthFirst)
        }
        #expect(throws: StatementError(line: 2, "date '31/31/2010' is not a calendar date (read month first)")) {
            try QIFReader.read(Self.twoRecords("31/31/2010", "5/5/2010"), exponent: 2, dates: .fromFile)
        }
    }

    // MARK: Amounts

    /// The QIF specification's own example writes its second split amount `$=746.36`: read as
    /// the number after `=`, as the Ruby qif gem reads it.
    @Test("a split amount written =746.36 is the amount 746.36")
    func splitAmountWithEquals() throws {
        let text = "!Type:Bank\nD6/ 1/94\nT-1,000.00\nN1005\nPBank Of Mortgage\nL[linda]\nS[linda]\n$-253.64\nSMort Int\n$=746.36\n^\n"
        let line = try Self.onlyLine(text)
        #expect(line.splits.map(\.amountMinor) == [-25364, 74636])
        #expect(try Self.onlyLine("!Type:Bank\nD6/ 1/94\nT-10.00\nSA\n$=-10.00\n^\n").splits.map(\.amountMinor) == [-1000])
        // `=` alone, twice, or in T is not an amount.
        #expect(throws: StatementError(line: 5, "$ '=' is not an amount")) { try QIFReader.read("!Type:Bank\nD1/2/25\nT-1\nSA\n$=\n^", exponent: 2) }
        #expect(throws: StatementError(line: 5, "$ '==1' is not an amount")) {
            try QIFReader.read("!Type:Bank\nD1/2/25\nT-1\nSA\n$==1\n^", exponent: 2)
        }
        #expect(throws: StatementError(line: 3, "T '=1' is not an amount")) { try QIFReader.read("!Type:Bank\nD1/2/25\nT=1\n^", exponent: 2) }
    }

    @Test(
        "amounts take the last mark before 1 to exponent digits as the decimal mark, the other as thousands",
        arguments: [
            ("-1,234.56", 2, -123_456), ("1.234,56", 2, 123_456), ("1,234", 2, 123_400), ("1.234", 2, 123_400), ("12,5", 2, 1250), ("12.5", 2, 1250),
            ("1,234,567.89", 2, 123_456_789), ("1.234.567,89", 2, 123_456_789), (".99", 2, 99), ("+5", 2, 500), ("0", 2, 0), ("1234", 2, 123_400),
            ("1.234", 3, 1234), ("1,234.567", 3, 1_234_567), ("12", 0, 12), ("1,000", 0, 1000), ("92,233,720,368,547,758.07", 2, Int64.max),
            ("-92233720368547758.07", 2, -Int64.max),
        ] as [(String, Int, Int64)])
    func amounts(text: String, exponent: Int, minor: Int64) throws {
        #expect(try Self.onlyLine(Self.record(amount: text), exponent: exponent).amountMinor == minor)
    }

    @Test(
        "an amount that does not read is refused on its line, quoted",
        arguments: [
            ("1,23,456.00", "is not an amount"), ("12.", "is not an amount"), ("1.2.3", "is not an amount"), ("abc", "is not an amount"),
            ("", "is not an amount"), ("-", "is not an amount"), ("1 234.00", "is not an amount"), ("1,234.5,6", "is not an amount"),
            ("$5", "is not an amount"), ("1.50000", "is not an amount"), ("92233720368547758.08", "is too large"),
            ("-92233720368547758.08", "is too large"),
            ("99999999999999999999", "is too large"),
        ])
    func badAmounts(text: String, reason: String) {
        #expect(throws: StatementError(line: 3, "T '\(text)' \(reason)")) { try QIFReader.read(Self.record(amount: text), exponent: 2) }
    }

    @Test("with exponent 0 a decimal mark is refused")
    func noDecimals() {
        #expect(throws: StatementError(line: 3, "T '12.5' is not an amount")) { try QIFReader.read(Self.record(amount: "12.5"), exponent: 0) }
    }

    @Test("T is the amount; U is read only when there is no T")
    func amountFields() throws {
        #expect(try Self.onlyLine("!Type:Bank\nD1/2/25\nU-9.99\nT-1.00\n^").amountMinor == -100)
        #expect(try Self.onlyLine("!Type:Bank\nD1/2/25\nU-9.99\n^").amountMinor == -999)
        #expect(throws: StatementError(line: 3, "U '9x' is not an amount")) { try QIFReader.read("!Type:Bank\nD1/2/25\nU9x\n^", exponent: 2) }
    }

    // MARK: Records and sections

    @Test("a record ends at ^, at the next header or at the end of the file; blank lines are passed over")
    func recordEnds() throws {
        let text = "!Type:Bank\n\nD1/2/25\nT1\n\n^\nD1/3/25\nT2\n!Type:Cash\nD1/4/25\nT3"
        let statement = try QIFReader.read(text, exponent: 2)
        #expect(statement.lines.map(\.amountMinor) == [100, 200, 300])
        #expect(statement.lines.map(\.line) == [3, 7, 10])
    }

    @Test("N, C, A and unknown codes are ignored; an empty L is no counterpart; a split without S has no category")
    func ignoredFields() throws {
        let line = try Self.onlyLine("!Type:Bank\nN1042\nCX\nAStreet 1\nFz\nD1/2/25\nT-3\nL\n$-3\nEpart\n^")
        #expect(line.line == 2)
        #expect(line.note == "")
        #expect(line.counterpart == nil)
        #expect(line.splits == [StatementSplit(counterpart: "", amountMinor: -300, note: "part")])
    }

    @Test("every register type is read, the kind is the first one's; lists, accounts and options are skipped")
    func sections() throws {
        let text = """
            !Option:AutoSwitch
            !Type:Cat
            NFood
            E
            ^
            !Type:Class
            NWork
            ^
            !Clear:AutoSwitch
            !type:ccard
            D1/1/25
            T-1
            ^
            !Type:Bank
            D1/2/25
            T-2
            ^
            !Type:Cash
            D1/3/25
            T-3
            ^
            !Type:Oth A
            D1/4/25
            T-4
            ^
            !Type:Oth L
            D1/5/25
            T-5
            ^
            """
        let statement = try QIFReader.read(text, exponent: 2)
        #expect(statement.kind == .card)
        #expect(statement.lines.map(\.amountMinor) == [-100, -200, -300, -400, -500])
        #expect(try QIFReader.read("!Type:Bank\n", exponent: 2) == Statement(kind: .bank))
    }

    @Test("an unknown section is refused, naming it and what capital reads", arguments: ["Invst", "Foo", "Memorized", "Prices"])
    func unknownSection(type: String) {
        #expect(throws: StatementError(line: 5, "unknown QIF section !Type:\(type); capital reads Bank, CCard, Cash, Oth A, Oth L")) {
            try QIFReader.read("!Type:Bank\nD1/2/25\nT1\n^\n!Type:\(type)\nD1/2/25\n^\n", exponent: 2)
        }
    }

    @Test("a record without a date or an amount, a split without an amount, an unknown header are refused on their line")
    func recordErrors() {
        #expect(throws: StatementError(line: 2, "the record has no date (D)")) { try QIFReader.read("!Type:Bank\nPShop\nT-1\n^", exponent: 2) }
        #expect(throws: StatementError(line: 2, "the record has no amount (T)")) { try QIFReader.read("!Type:Bank\nD1/2/25\nPShop\n^", exponent: 2) }
        #expect(throws: StatementError(line: 4, "the split 'Food' has no amount ($)")) {
            try QIFReader.read("!Type:Bank\nD1/2/25\nT-1\nSFood\nEbread\n^", exponent: 2)
        }
        #expect(throws: StatementError(line: 5, "unknown QIF header '!Foo'")) {
            try QIFReader.read("!Type:Bank\nD1/2/25\nT-1\n^\n!Foo\n", exponent: 2)
        }
        #expect(throws: StatementError(line: 1, "'D1/2/25' comes before any !Type: section")) { try QIFReader.read("D1/2/25\nT-1\n^", exponent: 2) }
        #expect(throws: StatementError(line: 0, "exponent -1 is not 0 to 18")) { try QIFReader.read("", exponent: -1) }
    }

    @Test("a file without a register is refused", arguments: ["", "\n\n", "!Account\nNChecking\nTBank\n^\n", "!Type:Cat\nNFood\n^\n"])
    func noRegister(text: String) {
        #expect(
            throws: StatementError(
                line: 0, "no bank, card or cash section (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A, !Type:Oth L) in the file")
        ) { try QIFReader.read(text, exponent: 2) }
    }

    // MARK: Recognition

    @Test(
        "recognises QIF by its first non-blank line",
        arguments: [
            ("!Type:Bank\n", true), ("\u{FEFF}\r\n\n  !Type:CCard", true), ("!type:cash", true), ("!Account\nNChecking", true),
            ("!Option:AutoSwitch\n!Account", true), ("D1/2/25\n!Type:Bank", false), ("OFXHEADER:100", false), ("", false), ("!Typ", false),
        ])
    func recognition(text: String, isQIF: Bool) {
        #expect(QIFReader.looksLikeQIF(text) == isQIF)
    }

    // MARK: Hostile input

    @Test("mutated fixtures give statements or one-line errors, never a trap, in bounded time")
    func hostileInput() throws {
        let seeds = try [Self.fixture("splits.qif"), Self.fixture("card.qif")]
        let pieces = [
            "\n^\n", "\n!Type:Bank\n", "\n!Type:Invst\n", "\n!Account\n", "\nD", "\nT", "\nS", "\n$", "'", "/", ",", ".", "-", "\r\n", "\r",
            "99999999999999999999", "\u{0}", "\u{2028}", "[", "]",
        ]
        StatementFixtures.hostile(seed: 0x0F_C1, seeds: seeds, pieces: pieces, span: 30) { text, hostile throws(StatementError) in
            _ = try QIFReader.read(text, exponent: 2, dayFirst: hostile.below(2) == 0)
        }
    }
}
