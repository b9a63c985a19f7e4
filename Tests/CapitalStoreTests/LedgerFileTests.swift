import CapitalCore
import Foundation
import Testing

@testable import CapitalStore

@Suite("Ledger files: reading and writing")
struct LedgerFileTests {
    @Test(arguments: LedgerFileFormat.allCases)
    func exportImportExportIsByteIdenticalOnTheSample(format: LedgerFileFormat) throws {
        let first = try #require(Sample.householdExports[format])
        let copy = try Store.inMemory()
        try copy.importDocument(try LedgerFile.parse(first, file: "export.\(format.rawValue)"))
        let second = try copy.export(format: format)
        #expect(second == first)
    }

    @Test func yamlAndJSONExportsDescribeTheSameLedger() throws {
        let json = try #require(Sample.householdExports[.json])
        let fromJSON = try Store.inMemory()
        try fromJSON.importDocument(try LedgerFile.parse(json, file: "export.json"))
        #expect(try fromJSON.export(format: .yaml) == Sample.householdExports[.yaml])
    }

    @Test func sampleHoldsTheSeedHousehold() throws {
        let ledger = try Store.household().snapshot()
        #expect(ledger.currency == .rub)
        #expect(ledger.accounts.count == 36)
        #expect(ledger.groups.map(\.name) == ["Everyday money", "Debts", "Children", "Car"])
        #expect(ledger.transactions.count == 141)
        // Dollar savings and a euro card, and the two currencies' rates of the quarter.
        #expect(ledger.accounts.filter { $0.currency != .rub }.map { "\($0.name) \($0.currency.code)" } == ["Savings USD USD", "Euro Card EUR"])
        #expect(Set(ledger.rates.map(\.currency.code)) == ["USD", "EUR"])
        #expect(ledger.loans.count == 3 && ledger.cards.count == 1 && ledger.deposits.count == 1)
        // The mortgage payment is split as the loan's schedule splits it: interest to Loan
        // interest, principal to the loan, the whole payment from the debit account.
        let names = Dictionary(uniqueKeysWithValues: ledger.accounts.map { ($0.id, $0.name) })
        let mortgage = try #require(ledger.transactions.first { $0.payee == "Sberbank" })
        let loan = try #require(ledger.loans.first { names[$0.accountID] == "Mortgage" })
        let row = try #require(try loan.schedule().rows.first { $0.day == mortgage.day })
        #expect(
            mortgage.postings.map { "\(names[$0.accountID]!)=\($0.amount.minor)" } == [
                "Loan interest=\(row.interest)", "Mortgage=\(row.principal)", "VTB Debit=\(-row.payment)",
            ])
        #expect((65_000_00...75_000_00).contains(row.payment), "about 70 000 a month")
    }

    @Test func exportStartsWithItsFormatVersionAndCurrency() throws {
        let yaml = try Store.initialized().export(format: .yaml)
        #expect(
            yaml.hasPrefix(
                "# capital ledger file: see docs/ledger-format.md\ncapital: 1\ncurrency: RUB\naccounts:\n  - name: Capital\n    kind: equity\n"))
        let json = try Store.initialized().export(format: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["capital"] as? Int == 1)
        #expect(object["currency"] as? String == "RUB")
        #expect((object["accounts"] as? [Any])?.count == 16)
    }

    /// Names and notes that YAML would read as something else unless quoted.
    static let awkwardTexts = [
        "yes", "No", "null", "~", "123", "-5", "1.5", "2025-01-01", "- dash", "a: b", "#hash", "ends with colon:",
        "quote \"inside\"", "'single'", "[bracket]", "{brace}", "comma, inside", "Ёлка и ☃", "back\\slash", "@at", "%percent",
        "*star", "&amp", "!bang", "|pipe", ">fold", "`tick",
    ]

    @Test(arguments: awkwardTexts)
    func awkwardNamesAndNotesSurviveTheRoundTrip(text: String) throws {
        for format in LedgerFileFormat.allCases {
            let store = try Store.initialized()
            try store.addAccount(name: text, kind: .cash, currency: nil, note: text + "\nsecond line")
            try store.addGroup(name: text, type: .cashFlow, accounts: [text])
            try store.addTransaction(
                TransactionInput(
                    day: try Day(iso: "2025-01-02"), payee: text, note: text, spender: text, tags: text.contains(",") ? [] : [text],
                    postings: [
                        PostingInput(account: text, amount: "5", note: text, field: "p"), PostingInput(account: "Capital", amount: nil, field: "q"),
                    ]))
            let exported = try store.export(format: format)
            let copy = try Store.inMemory()
            try copy.importDocument(try LedgerFile.parse(exported, file: "awkward.\(format.rawValue)"))
            #expect(try copy.export(format: format) == exported, "\(format)")
            let account = try copy.account(text)
            #expect(account.note == text + "\nsecond line")
            let t = try #require(try copy.snapshot().transactions.first)
            #expect(t.payee == text && t.note == text && t.spender == text && t.postings[0].note == text)
        }
    }

    @Test func amountsAreReadAsTextNeverAsFloatingPoint() throws {
        let text = """
            capital: 1
            currency: RUB
            accounts:
              - name: A
                kind: debit
              - name: B
                kind: expense
            transactions:
              - date: 2025-01-01
                amount: 0.10
                from: A
                to: B
              - date: 2025-01-02
                amount: 92233720368547757.97
                from: A
                to: B
            """
        let store = try Store.inMemory()
        try store.importDocument(try LedgerFile.parse(text, file: "precise.yaml"))
        let amounts = try store.snapshot().transactions.map(\.amount)
        #expect(amounts == [10, Int64.max - 10])  // far past a Double's 2^53 exact integers
    }

    @Test func shorthandMovesTheAmountFromOneAccountToTheOther() throws {
        let text = """
            capital: 1
            currency: RUB
            accounts:
              - {name: VTB Debit, kind: debit}
              - {name: Groceries, kind: expense}
            transactions:
              - {date: 2025-01-07, amount: "6 500", from: VTB Debit, to: Groceries}
            """
        let store = try Store.inMemory()
        try store.importDocument(try LedgerFile.parse(text, file: "short.yaml"))
        #expect(try store.balancesByName() == ["Capital": 0, "VTB Debit": -6_500_00, "Groceries": 6_500_00])
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var file: String
        var text: String
        /// What the one-line message must mention: the file, the line or path, the field and why.
        var mentions: [String]
    }

    static let header = "capital: 1\ncurrency: RUB\n"
    static let twoAccounts = header + "accounts:\n  - name: A\n    kind: debit\n  - name: B\n    kind: expense\n"

    /// Mistakes the parser catches before anything touches a store.
    static let unreadable: [BadFile] = [
        BadFile(
            testDescription: "accounts is a number", file: "type.yaml", text: header + "accounts: 5\n",
            mentions: ["type.yaml:3", "accounts", "expected a list", "'5'"]),
        BadFile(
            testDescription: "kind is a list", file: "kind.yaml", text: header + "accounts:\n  - name: A\n    kind: [x]\n",
            mentions: ["kind.yaml:5", "accounts[0].kind", "expected text", "a list"]),
        BadFile(
            testDescription: "unknown kind", file: "kind2.yaml", text: header + "accounts:\n  - name: A\n    kind: piggy\n",
            mentions: ["kind2.yaml:5", "accounts[0].kind", "'piggy'", "not an account kind"]),
        BadFile(
            testDescription: "transaction without date", file: "nodate.yaml",
            text: twoAccounts + "transactions:\n  - payee: Shop\n    amount: 5\n    from: A\n    to: B\n",
            mentions: ["nodate.yaml:9", "transactions[0].date", "missing required field"]),
        BadFile(
            testDescription: "account without kind", file: "nokind.yaml", text: header + "accounts:\n  - name: A\n",
            mentions: ["nokind.yaml:4", "accounts[0].kind", "missing required field"]),
        BadFile(
            testDescription: "bad date", file: "date.yaml",
            text: twoAccounts + "transactions:\n  - date: 2025-02-30\n    amount: 5\n    from: A\n    to: B\n",
            mentions: ["date.yaml:9", "transactions[0].date", "2025-02-30"]),
        BadFile(
            testDescription: "unknown field", file: "field.yaml", text: header + "accounts:\n  - name: A\n    kind: debit\n    colour: red\n",
            mentions: ["field.yaml:6", "accounts[0].colour", "unknown field"]),
        BadFile(
            testDescription: "JSON wrong type", file: "type.json",
            text: "{\n  \"capital\": 1,\n  \"currency\": \"RUB\",\n  \"accounts\": [\n    {\"name\": \"A\", \"kind\": [\"x\"]}\n  ]\n}\n",
            mentions: ["type.json", "accounts[0].kind", "expected text"]),
        BadFile(
            testDescription: "JSON missing date", file: "nodate.json",
            text: """
                {
                  "capital": 1,
                  "currency": "RUB",
                  "accounts": [{"name": "A", "kind": "debit"}, {"name": "B", "kind": "expense"}],
                  "transactions": [{"amount": "5", "from": "A", "to": "B"}]
                }
                """,
            mentions: ["nodate.json", "transactions[0].date", "missing required field"]),
        BadFile(
            testDescription: "JSON syntax", file: "syntax.json", text: "{\n  \"capital\": 1,\n  \"currency\": \"RUB\"\n  \"accounts\": []\n}\n",
            mentions: ["syntax.json", "not valid JSON"]),
    ]

    @Test(arguments: unreadable)
    func unreadableFileNamesFileLineOrPathAndReason(_ bad: BadFile) throws {
        let error = #expect(throws: LedgerFileError.self) { try LedgerFile.parse(bad.text, file: bad.file) }
        let message = error.map { "\($0)" } ?? ""
        for part in bad.mentions {
            #expect(message.contains(part), "\(message)")
        }
        #expect(!message.contains("\n"))
    }

    @Test func missingFileIsNamed() throws {
        let error = #expect(throws: LedgerFileError.self) { try LedgerFile.read(path: "/nonexistent/ledger.yaml") }
        #expect(error?.description.contains("/nonexistent/ledger.yaml") == true)
        #expect(error?.description.contains("does not exist") == true)
    }

    /// A record's builder names fields by key; the file names them by their places, a part of a
    /// record (a loan's prepayment) at its own line.
    @Test(
        arguments: [
            (
                "loans",
                "loans:\n  - account: Car\n    payFrom: Bank\n    principal: 1000\n    rate: 5\n    term: 12\n    start: 2025-01-01\n    prepayments:\n      - date: 2025-03-01\n        amount: 10\n      - date: 2025-04-01\n        amount: 0\n",
                "t.yaml:18: loans[0].prepayments[1].amount '0': must be more than 0"
            ),
            (
                "loans",
                "loans:\n  - account: Car\n    payFrom: Bank\n    principal: 1000\n    rate: 5\n    term: 12\n    start: 2025-01-01\n    prepayments:\n      - date: 2024-03-01\n        amount: 10\n",
                "t.yaml:16: loans[0].prepayments[0].date '2024-03-01': the loan starts on 2025-01-01"
            ),
            (
                "cards", "cards:\n  - account: Card\n    payFrom: Bank\n    limit: 100\n    statementDay: 5\n    dueDay: 25\n    dueAfter: 3\n",
                "t.yaml:9: cards[0].dueDay '25': give a due day or cards[0].dueAfter, not both"
            ),
            (
                "dues", "dues:\n  - type: bill\n    total: 100\n    reason: tax\n    due: 2025-01-01\n    paid: 200\n",
                "t.yaml:9: dues[0].paid '200.00': is more than the total 100.00"
            ),
            (
                "schedules",
                "schedules:\n  - name: Pay\n    rule: monthly on 45\n    start: 2025-01-01\n    amount: 10\n    from: Bank\n    to: Food\n",
                "t.yaml:9: schedules[0].rule 'monthly on 45'"
            ),
            (
                "budgets", "budgets:\n  - category: Food\n    amount: 0\n    from: 2025-01-01\n",
                "t.yaml:9: budgets[0].amount '0': must be more than 0"
            ),
            (
                "schedules",
                "schedules:\n  - name: Pay\n    rule: monthly on 5\n    start: 2025-01-01\n    postings:\n      - account: Bank\n      - account: Food\n",
                "t.yaml:14: schedules[0].postings[1] 'Food': only one posting may leave out its amount (t.yaml:13: schedules[0].postings[0] already does)"
            ),
            (
                "loans",
                "loans:\n  - account: Car\n    payFrom: Bank\n    principal: 1000\n    rate: 5\n    term: 12\n    start: 2025-01-01\n    prepayments:\n      - date: 2025-03-01\n        amount: 10\n      - date: 2025-04-01\n        amount: 5000\n",
                "t.yaml:18: loans[0].prepayments[1].amount '5 000.00': not less than the"
            ),
        ])
    func recordErrorsNameTheirFieldsByPlace(section: String, text: String, expected: String) throws {
        let head = "capital: 1\ncurrency: RUB\naccounts:\n  - name: Bank\n    kind: debit\n  - name: Food\n    kind: expense\n"
        let document = try LedgerFile.parse(head + text, file: "t.yaml")
        #expect(throws: StoreError.self) { try document.resolve() }
        do { _ = try document.resolve() } catch {
            #expect("\(error)".hasPrefix(expected), "\(section): \(error)")
        }
    }
}
