/// A synthetic ledger for benchmarks and side-by-side comparisons: deterministic for a seed, with
/// the shape of a real household's, grown to any number of rules.
///
/// - Accounts: `Capital`; `accounts` balance-sheet accounts (debit accounts first, the first of
///   them the default, then cash, a deposit, a credit card and a loan when there are enough);
///   three income and twelve expense categories.
/// - The past: opening balances the day before the year before `start`, and a few hundred
///   posted transactions in that year (spending from the debit and cash accounts).
/// - Rules: `rules` schedules from `start` on, a fixed mix — daily (5 %), working days
///   Monday–Friday (5 %), on the Russian calendar with a business-day adjustment (10 %), weekly
///   (20 %), every two weeks (10 %), monthly (30 %), quarterly (10 %), yearly (10 %); a fifth
///   with an end day, a quarter with a ranged amount; salaries and other income in, spending and
///   transfers out. Each starts within the first year and counts as handled before it.
/// - Instruments (with at least 5 accounts): a mortgage on the loan account paid from the
///   default account, and a credit card paid back in full.
/// - History (`history`, none by default): that many more posted transactions over the years
///   before the past year (`historyYears`), opening balances moved before them; see
///   `SampleLedger+History.swift`. They come from a random stream of their own, so a ledger with
///   history is the one without plus its history.
///
/// ```swift
/// let ledger = try SampleLedger.generate(rules: 1_000, years: 30, seed: 7)
/// ```
public enum SampleLedger {
    /// The bounds `generate` accepts.
    public static let rulesRange = 1...100_000
    public static let yearsRange = 1...100
    public static let accountsRange = 2...1_000
    /// How many posted transactions `history` may add.
    public static let historyRange = 0...10_000_000
    /// The day generated ledgers start on unless told: their "today".
    public static let defaultStart = Day(Day.daysFromCivil(year: 2025, month: 1, day: 1))

    /// - Throws: `SampleLedgerError` for a count outside its range.
    /// - Complexity: O(rules + accounts + a few hundred transactions).
    public static func generate(
        rules: Int, years: Int, accounts accountCount: Int = 8, seed: UInt64 = 1, start: Day = defaultStart, currency: Currency,
        history: Int = 0
    ) throws(SampleLedgerError) -> Ledger {
        guard historyRange.contains(history) else { throw .outOfRange(field: "{history}", value: history, range: historyRange) }
        guard rulesRange.contains(rules) else { throw .outOfRange(field: "{rules}", value: rules, range: rulesRange) }
        guard yearsRange.contains(years) else { throw .outOfRange(field: "{years}", value: years, range: yearsRange) }
        guard accountsRange.contains(accountCount) else { throw .outOfRange(field: "{accounts}", value: accountCount, range: accountsRange) }
        var random = SplitMix64(seed: seed)
        func money(_ minor: Int64) -> Money { Money(minor: minor, currency: currency) }
        func posting(_ account: Account, _ minor: Int64) -> Posting { Posting(accountID: account.id, amount: money(minor)) }

        var accounts = [Account(id: random.uuid(), name: Account.capitalName, kind: .equity, currency: currency)]
        let capital = accounts[0]
        // Balance-sheet accounts: debit accounts, then one each of the other kinds while there is room.
        var kinds: [AccountKind] = [.debit, .cash]
        if accountCount >= 5 { kinds += [.deposit, .creditCard, .loan] }
        while kinds.count < accountCount { kinds.insert(.debit, at: 1) }
        kinds = Array(kinds.prefix(accountCount))
        var sheet: [Account] = []
        var counts: [AccountKind: Int] = [:]
        for kind in kinds {
            counts[kind, default: 0] += 1
            let number = counts[kind]!
            let name: String
            switch kind {
            case .debit: name = "Debit \(number)"
            case .cash: name = number == 1 ? "Cash" : "Cash \(number)"
            case .deposit: name = "Deposit"
            case .creditCard: name = "Credit card"
            default: name = "Mortgage"
            }
            let floor: Int64? = kind == .debit && number == 1 ? 2_000_000 : nil
            sheet.append(Account(id: random.uuid(), name: name, kind: kind, currency: currency, floor: floor))
        }
        let incomes = ["Salary", "Other income", "Interest"].map { Account(id: random.uuid(), name: $0, kind: .income, currency: currency) }
        let expenseNames = [
            "Groceries", "Housing", "Utilities", "Transport", "Health", "Kids", "Eating out", "Entertainment", "Clothing", "Insurance", "Gifts",
            "Loan interest",
        ]
        let expenses = expenseNames.map { Account(id: random.uuid(), name: $0, kind: .expense, currency: currency) }
        accounts += sheet + incomes + expenses
        let spendable = sheet.filter { $0.kind == .debit || $0.kind == .cash }
        let debits = sheet.filter { $0.kind == .debit }
        let everyday = expenses.dropLast()  // not Loan interest

        // The past: opening balances, then a year of spending (and before it the history, when asked).
        let historyFirst = start.advanced(by: -366 - 365 * historyYears(history))
        let opening = history > 0 ? historyFirst.advanced(by: -1) : start.advanced(by: -366)
        var transactions: [Transaction] = []
        for account in sheet where account.kind != .creditCard && account.kind != .loan {
            let minor = Int64(5_000_000 + random.below(50_000_000))
            transactions.append(
                Transaction(id: random.uuid(), day: opening, payee: "Opening balance", postings: [posting(account, minor), posting(capital, -minor)]))
        }
        for _ in 0..<300 {
            let minor = Int64(10_000 + random.below(1_500_000))
            let from = random.pick(spendable)
            let to = random.pick(Array(everyday))
            transactions.append(
                Transaction(
                    id: random.uuid(), day: start.advanced(by: -365 + random.below(365)), payee: "Shop \(1 + random.below(40))",
                    postings: [posting(to, minor), posting(from, -minor)]))
        }
        if history > 0 {
            var past = SplitMix64(seed: seed ^ 0x6869_7374_6f72_7921)  // "history!": a stream of its own
            let accounts = HistoryAccounts(sheet: sheet, incomes: incomes, expenses: Array(everyday), currency: currency)
            transactions += SampleLedger.history(history, from: historyFirst, through: start.advanced(by: -367), accounts, using: &past)
        }
        // By day, in the order made on a day (a month's salary before its spending): a stable sort.
        transactions = transactions.enumerated().sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)

        // Rules.
        var schedules: [Schedule] = []
        var states: [String: ScheduleState] = [:]
        let horizonEnd = start.addingMonths(12 * years)
        for index in 0..<rules {
            let slot = index % 20
            let ruleStart = start.advanced(by: random.below(365))
            var rule: Rule
            let text: String
            switch slot {
            case 0: text = "FREQ=DAILY"
            case 1: text = "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"
            case 2, 3:
                text =
                    ["FREQ=MONTHLY;BYMONTHDAY=10", "FREQ=MONTHLY;BYMONTHDAY=25", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=WEEKLY;BYDAY=FR"][
                        random.below(4)]
            case 4...7: text = "FREQ=WEEKLY;BYDAY=\(["MO", "TU", "WE", "TH", "FR", "SA", "SU"][random.below(7)])"
            case 8, 9: text = "FREQ=WEEKLY;INTERVAL=2;BYDAY=\(["MO", "WE", "FR"][random.below(3)])"
            case 10...15: text = "FREQ=MONTHLY;BYMONTHDAY=\(1 + random.below(28))"
            case 16, 17: text = "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=\(1 + random.below(28))"
            default: text = "FREQ=YEARLY;BYMONTH=\(1 + random.below(12));BYMONTHDAY=\(1 + random.below(28))"
            }
            do {
                rule = Rule(recurrence: try Recurrence(rrule: text), calendar: Rule.ledgerCalendar)
            } catch {
                preconditionFailure("a generated rule does not parse: \(text)")
            }
            if slot == 2 || slot == 3 {
                rule.calendar = "RU"
                rule.adjustment = [.preceding, .following, .modifiedFollowing][random.below(3)]
            }
            // Salaries monthly, other income now and then; the rest spending and some transfers.
            let minor: Int64
            let postings: [Posting]
            switch (slot, index % 9) {
            case (10...15, 0), (10...15, 5):
                minor = Int64(5_000_000 + random.below(15_000_000))
                postings = [posting(random.pick(debits), minor), posting(incomes[0], -minor)]
            case (16...19, 1):
                minor = Int64(1_000_000 + random.below(10_000_000))
                postings = [posting(random.pick(debits), minor), posting(incomes[1], -minor)]
            case (_, 2) where spendable.count > 1:
                minor = Int64(100_000 + random.below(2_000_000))
                let from = random.pick(spendable)
                let to = random.pick(spendable.filter { $0.id != from.id })
                postings = [posting(to, minor), posting(from, -minor)]
            default:
                // Daily rules spend little, yearly ones much.
                let scale: Int64 = slot <= 1 ? 1 : slot <= 9 ? 5 : slot <= 15 ? 20 : 60
                minor = Int64(1_000 + random.below(50_000)) * scale
                postings = [posting(random.pick(Array(everyday)), minor), posting(random.pick(spendable), -minor)]
            }
            var model: AmountModel?
            var expected = minor
            if index % 4 == 3 {
                do { model = try AmountModel(low: minor * 8 / 10, high: minor * 12 / 10) } catch { preconditionFailure("\(error)") }
                expected = model!.expected
            }
            let scaled = postings.map { Posting(accountID: $0.accountID, amount: money($0.amount.minor > 0 ? expected : -expected)) }
            let end: Day? = index % 5 == 4 ? ruleStart.advanced(by: 180 + random.below(max(1, horizonEnd.number - ruleStart.number - 180))) : nil
            let schedule = Schedule(
                id: random.uuid(), name: "Rule \(index + 1)", postings: scaled, amount: model, rule: rule, start: ruleStart, end: end)
            states[schedule.id] = ScheduleState(handledThrough: start.advanced(by: -1))
            schedules.append(schedule)
        }

        var ledger = Ledger(currency: currency, accounts: accounts, groups: [], transactions: transactions, schedules: schedules)
        ledger.scheduleStates = states
        ledger.defaultAccountID = debits[0].id

        // Instruments: a mortgage and a card, when those accounts exist.
        if let loanAccount = sheet.first(where: { $0.kind == .loan }) {
            do {
                let terms = try Loan(
                    principal: 600_000_000, rate: try Rate(parsing: "11.5"), term: min(360, 12 * years + 120), start: start.addingMonths(-24))
                ledger.loans = [
                    LedgerLoan(
                        id: random.uuid(), accountID: loanAccount.id, payFromID: debits[0].id, interestCategoryID: expenses.last!.id, terms: terms)
                ]
            } catch {
                preconditionFailure("the sample mortgage: \(error)")
            }
        }
        if let cardAccount = sheet.first(where: { $0.kind == .creditCard }) {
            do {
                let terms = try CreditCard(
                    limit: 30_000_000, statementDay: 25, due: .daysAfterStatement(20), payback: .full, rate: try Rate(parsing: "0"))
                ledger.cards = [
                    LedgerCard(
                        id: random.uuid(), accountID: cardAccount.id, payFromID: debits[0].id, interestCategoryID: expenses.last!.id, terms: terms)
                ]
            } catch {
                preconditionFailure("the sample card: \(error)")
            }
        }
        return ledger
    }
}

/// Why a sample ledger was not generated.
public enum SampleLedgerError: KeyedError, Equatable, Sendable {
    case outOfRange(field: String, value: Int, range: ClosedRange<Int>)

    /// The message, its field keys in braces.
    public var template: String {
        switch self {
        case .outOfRange(let field, let value, let range): "\(field) '\(value)': must be \(range.lowerBound) to \(range.upperBound)"
        }
    }
}

extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { next(below: bound) }

    mutating func pick<T>(_ items: [T]) -> T { items[next(below: items.count)] }

    /// A random (version 4 shaped) UUID in text.
    mutating func uuid() -> String {
        // 32 hex digits, one draw each, with dashes after the 8th, 12th, 16th and 20th.
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            for index in 0..<32 {
                if index == 8 || index == 12 || index == 16 || index == 20 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                buffer[at] = digits.utf8Start[Int(next() & 15)]
                at += 1
            }
            return at
        }
    }
}
