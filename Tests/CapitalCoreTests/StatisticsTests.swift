import CapitalCore
import Testing

/// `Statistics` checked against sums taken here, by brute force: every figure is recomputed by
/// filtering the transactions again for just that figure, with months found by walking the days.
@Suite("Statistics")
struct StatisticsTests {
    static let accounts: [Account] = [
        Account(id: "debit", name: "Debit", kind: .debit, currency: .rub),
        Account(id: "card", name: "Card", kind: .creditCard, currency: .rub),
        Account(id: "loan", name: "Loan", kind: .loan, currency: .rub),
        Account(id: "capital", name: "Capital", kind: .equity, currency: .rub),
        Account(id: "groceries", name: "Groceries", kind: .expense, currency: .rub),
        Account(id: "housing", name: "Housing", kind: .expense, currency: .rub),
        Account(id: "fun", name: "Fun", kind: .expense, currency: .rub),
        Account(id: "gifts", name: "Gifts", kind: .expense, currency: .rub, hidden: true),
        Account(id: "travel", name: "Travel", kind: .expense, currency: .usd),
        Account(id: "salary", name: "Salary", kind: .income, currency: .rub),
        Account(id: "other", name: "Other income", kind: .income, currency: .rub),
    ]
    static let expenseIDs = ["groceries", "housing", "fun", "gifts"]
    static let incomeIDs = ["salary", "other"]
    static let spenderNames = ["", "Anna", "Ivan"]

    static func day(_ iso: String) -> Day { try! Day(iso: iso) }
    static func rub(_ minor: Int64) -> Money { Money(minor: minor, currency: .rub) }

    /// A random ledger: spending, refunds, salaries and their corrections, split purchases, loan
    /// payments, transfers, salary with a deduction, and dollar spending, over 2024–2025.
    static func randomTransactions(_ random: inout SplitMix64, count: Int) -> [Transaction] {
        let first = day("2024-01-01").number
        var transactions: [Transaction] = []
        for index in 0..<count {
            let day = Day(first + Int.random(in: 0..<731, using: &random))
            let spender = spenderNames.randomElement(using: &random)!
            let a = Int64.random(in: 1...500_000, using: &random)
            let b = Int64.random(in: 1...200_000, using: &random)
            let pay = ["debit", "card"].randomElement(using: &random)!
            let expense = expenseIDs.randomElement(using: &random)!
            let income = incomeIDs.randomElement(using: &random)!
            let postings: [Posting]
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1, 2: postings = [Posting(accountID: expense, amount: rub(a)), Posting(accountID: pay, amount: rub(-a))]
            case 3: postings = [Posting(accountID: expense, amount: rub(-b)), Posting(accountID: pay, amount: rub(b))]  // a refund
            case 4: postings = [Posting(accountID: "debit", amount: rub(a)), Posting(accountID: income, amount: rub(-a))]
            case 5: postings = [Posting(accountID: income, amount: rub(b)), Posting(accountID: "debit", amount: rub(-b))]  // a correction
            case 6:
                postings = [
                    Posting(accountID: "groceries", amount: rub(a)), Posting(accountID: "fun", amount: rub(b)),
                    Posting(accountID: pay, amount: rub(-a - b)),
                ]
            case 7:
                postings = [
                    Posting(accountID: "housing", amount: rub(a)), Posting(accountID: "loan", amount: rub(b)),
                    Posting(accountID: "debit", amount: rub(-a - b)),
                ]
            case 8:
                // Salary with a deduction to groceries (a mixed transaction), or a transfer.
                postings =
                    Bool.random(using: &random)
                    ? [
                        Posting(accountID: "salary", amount: rub(-a - b)), Posting(accountID: "groceries", amount: rub(b)),
                        Posting(accountID: "debit", amount: rub(a)),
                    ]
                    : [Posting(accountID: "card", amount: rub(a)), Posting(accountID: "debit", amount: rub(-a))]
            default:
                postings = [
                    Posting(accountID: "travel", amount: Money(minor: b, currency: .usd)),
                    Posting(accountID: "capital", amount: Money(minor: -b, currency: .usd)),
                ]
            }
            transactions.append(Transaction(id: "t\(index)", day: day, spender: spender, postings: postings))
        }
        return transactions.sorted { $0.day < $1.day }
    }

    // MARK: Reference, computed here

    struct Reference {
        var transactions: [Transaction]
        var from: Day
        var to: Day
        var today: Day
        var accountID: String?

        func passes(_ t: Transaction) -> Bool { accountID.map { id in t.postings.contains { $0.accountID == id } } ?? true }
        func inRange(_ t: Transaction) -> Bool { t.day >= from && t.day <= to && passes(t) }

        /// What a posting to `id` means: spending as posted, income negated.
        func sign(_ id: String) -> Int64 { StatisticsTests.incomeIDs.contains(id) ? -1 : 1 }

        func amount(_ id: String, where keep: (Transaction) -> Bool) -> Int64 {
            var sum: Int64 = 0
            for t in transactions where keep(t) && passes(t) {
                for p in t.postings where p.accountID == id && p.amount.currency == .rub { sum += sign(id) * p.amount.minor }
            }
            return sum
        }

        func total(_ ids: [String], where keep: (Transaction) -> Bool) -> Int64 { ids.map { amount($0, where: keep) }.reduce(0, +) }

        func count(_ ids: [String], where keep: (Transaction) -> Bool) -> Int {
            transactions.filter { t in keep(t) && passes(t) && t.postings.contains { ids.contains($0.accountID) && $0.amount.currency == .rub } }
                .count
        }

        /// `YYYY-MM` of every day in the range, in order, once each.
        var months: [String] {
            var result: [String] = []
            for day in stride(from: from, through: to, by: 1) where result.last != String(day.iso.prefix(7)) {
                result.append(String(day.iso.prefix(7)))
            }
            return result
        }

        func month(_ day: Day) -> String { String(day.iso.prefix(7)) }

        /// Months wholly inside the range (its first in-range day is the 1st and the day after its
        /// last is in another month) and before today's month.
        var fullMonthsBeforeToday: [String] {
            months.filter { m in
                let days = stride(from: from, through: to, by: 1).filter { month($0) == m }
                return days.first!.civil.day == 1 && month(days.last!.advanced(by: 1)) != m && m < month(today)
            }
        }
    }

    /// Rounded half up, halves away from zero, for a positive divisor.
    static func halfUp(_ value: Int64, _ divisor: Int64) -> Int64 {
        let magnitude = (2 * abs(value) + divisor) / (2 * divisor)
        return value < 0 ? -magnitude : magnitude
    }

    static func share(_ part: Int64, _ whole: Int64) -> Int64? {
        whole == 0 ? nil : whole > 0 ? halfUp(part * 10_000, whole) : halfUp(-part * 10_000, -whole)
    }

    /// Every figure of `stats` against the reference.
    static func check(_ stats: Statistics, _ ref: Reference) {
        let months = ref.months
        #expect(stats.months == months.count)
        for (kind, ids, breakdown) in [(AccountKind.expense, expenseIDs, stats.expense), (.income, incomeIDs, stats.income)] {
            let total = ref.total(ids, where: ref.inRange)
            #expect(breakdown.kind == kind)
            #expect(breakdown.total == total, "\(kind) total")
            #expect(breakdown.transactions == ref.count(ids, where: ref.inRange), "\(kind) count")
            #expect(breakdown.monthlyAverage == halfUp(total, Int64(months.count)))
            let present = ids.filter { ref.count([$0], where: ref.inRange) > 0 }
            #expect(Set(breakdown.categories.map(\.accountID)) == Set(present), "\(kind) categories")
            for row in breakdown.categories {
                let amount = ref.amount(row.accountID, where: ref.inRange)
                #expect(row.amount == amount, "\(row.name)")
                #expect(row.share == share(amount, total), "\(row.name) share")
                #expect(row.transactions == ref.count([row.accountID], where: ref.inRange), "\(row.name) count")
                #expect(row.monthlyAverage == halfUp(amount, Int64(months.count)), "\(row.name) average")
            }
            #expect(breakdown.categories.map(\.amount).reduce(0, +) == total)
            #expect(zip(breakdown.categories, breakdown.categories.dropFirst()).allSatisfy { $0.amount >= $1.amount })
            if total != 0 {
                let shares = breakdown.categories.compactMap(\.share).reduce(0, +)
                #expect(abs(shares - 10_000) * 2 <= Int64(breakdown.categories.count), "\(kind) shares sum to \(shares)")
            }
        }
        #expect(stats.net == stats.income.total - stats.expense.total)
        #expect(stats.netMonthlyAverage == halfUp(stats.net, Int64(months.count)))
        #expect(stats.transactions == ref.count(expenseIDs + incomeIDs, where: ref.inRange))

        // The trend: every month, sums per month.
        #expect(stats.trend.map { ref.month($0.month) } == months)
        for flows in stats.trend {
            let inMonth: (Transaction) -> Bool = { ref.inRange($0) && ref.month($0.day) == ref.month(flows.month) }
            #expect(flows.expense == ref.total(expenseIDs, where: inMonth), "\(flows.month) expense")
            #expect(flows.income == ref.total(incomeIDs, where: inMonth), "\(flows.month) income")
            #expect(flows.net == flows.income - flows.expense)
            #expect(flows.transactions == ref.count(expenseIDs + incomeIDs, where: inMonth))
            #expect(flows.first == max(flows.month, ref.from) && flows.last == min(flows.month.endOfMonth, ref.to))
        }
        #expect(stats.trend.map(\.expense).reduce(0, +) == stats.expense.total)
        #expect(stats.trend.map(\.income).reduce(0, +) == stats.income.total)

        // Spenders.
        let spenders = spenderNames.filter { name in ref.count(expenseIDs + incomeIDs, where: { ref.inRange($0) && $0.spender == name }) > 0 }
        #expect(Set(stats.spenders.map(\.spender)) == Set(spenders))
        for row in stats.spenders {
            let by: (Transaction) -> Bool = { ref.inRange($0) && $0.spender == row.spender }
            #expect(row.expense == ref.total(expenseIDs, where: by), "\(row.spender) expense")
            #expect(row.income == ref.total(incomeIDs, where: by), "\(row.spender) income")
            #expect(row.net == row.income - row.expense)
            #expect(row.expenseShare == share(row.expense, stats.expense.total))
            #expect(row.transactions == ref.count(expenseIDs + incomeIDs, where: by))
        }
        #expect(stats.spenders.map(\.expense).reduce(0, +) == stats.expense.total)

        // This month to date, last month, the average of the full months before.
        let thisMonth = ref.month(ref.today)
        let lastMonth = ref.month(ref.today.startOfMonth.advanced(by: -1))
        let full = ref.fullMonthsBeforeToday
        #expect(stats.comparison.averagedMonths == full.count)
        func figures(_ ids: [String]) -> (Int64, Int64, Int64?) {
            let this = ref.total(ids, where: { ref.month($0.day) == thisMonth && $0.day <= ref.today })
            let last = ref.total(ids, where: { ref.month($0.day) == lastMonth })
            let sum = ref.total(ids, where: { $0.day >= ref.from && $0.day <= ref.to && full.contains(ref.month($0.day)) })
            return (this, last, full.isEmpty ? nil : halfUp(sum, Int64(full.count)))
        }
        for row in stats.comparison.categories {
            let (this, last, average) = figures([row.accountID])
            #expect(row.figures.thisMonth == this, "\(row.name) this month")
            #expect(row.figures.lastMonth == last, "\(row.name) last month")
            #expect(row.figures.average == average, "\(row.name) average")
            #expect(row.figures.changeFromLastMonth == this - last)
            #expect(row.figures.changeFromAverage == average.map { this - $0 })
        }
        let compared = expenseIDs.filter { id in
            let (this, last, average) = figures([id])
            return this != 0 || last != 0 || (average ?? 0) != 0
        }
        #expect(Set(compared).isSubset(of: Set(stats.comparison.categories.map(\.accountID))))
        let (this, last, average) = figures(expenseIDs)
        #expect(stats.comparison.total.thisMonth == this)
        #expect(stats.comparison.total.lastMonth == last)
        #expect(stats.comparison.total.average == average)

        // Dollar postings are left out and counted.
        let dollars = ref.transactions.filter(ref.inRange).flatMap(\.postings).filter { $0.accountID == "travel" }.count
        #expect(stats.leftOut == (dollars == 0 ? [:] : ["USD": dollars]))
    }

    // MARK: Tests

    @Test("random ledgers: every sum, share, count, average and comparison equals the transactions' own", arguments: 1...40)
    func randomLedgers(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let transactions = Self.randomTransactions(&random, count: Int.random(in: 0...400, using: &random))
        let from = Day(Self.day("2024-01-01").number + Int.random(in: -40..<560, using: &random))
        let to = from.advanced(by: Int.random(in: 0..<500, using: &random))
        let today = Day(to.number + Int.random(in: -60...60, using: &random))
        let stats = try Statistics(
            transactions: transactions.shuffled(using: &random), accounts: Self.accounts, currency: .rub, range: DayRange(through: to, from: from),
            today: today)
        Self.check(stats, Reference(transactions: transactions, from: from, to: to, today: today))
    }

    @Test("with an account, only transactions touching it count", arguments: ["debit", "card", "loan", "groceries"])
    func accountFilter(account: String) throws {
        var random = SplitMix64(seed: 97)
        let transactions = Self.randomTransactions(&random, count: 300)
        let (from, to, today) = (Self.day("2024-04-13"), Self.day("2025-06-30"), Self.day("2025-05-20"))
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub, range: DayRange(through: to, from: from), today: today,
            accountID: account)
        #expect(stats.accountID == account)
        Self.check(stats, Reference(transactions: transactions, from: from, to: to, today: today, accountID: account))
        let unfiltered = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub, range: DayRange(through: to, from: from), today: today)
        #expect(stats.expense.transactions < unfiltered.expense.transactions)
    }

    /// Issue 17, case 12: 12 000 of groceries in a ledger a month old averaged "1 000 a month"
    /// over a year it holds nothing of.
    @Test("a ledger younger than the range averages over the months it covers")
    func averagesCoverTheRecordedMonthsOnly() throws {
        let transactions = [
            Transaction(
                id: "a", day: Self.day("2025-03-05"),
                postings: [.init(accountID: "groceries", amount: Self.rub(1_200_000)), .init(accountID: "debit", amount: Self.rub(-1_200_000))])
        ]
        let today = Self.day("2025-03-20")
        let year = DayRange(through: today, from: today.startOfMonth.addingMonths(-11))
        let stats = try Statistics(transactions: transactions, accounts: Self.accounts, currency: .rub, range: year, today: today)
        #expect(stats.months == 1)
        #expect(stats.recordsFrom == Self.day("2025-03-01"))
        #expect(stats.expense.monthlyAverage == 1_200_000)
        #expect(stats.expense.categories.first?.monthlyAverage == 1_200_000)
        #expect(stats.trend.count == 12, "the trend still shows every month of the range")
        #expect(stats.comparison.averagedMonths == 0, "no full month before this one holds records")
        // Records from before the range: the range's own months count, as before.
        let older =
            transactions + [
                Transaction(
                    id: "b", day: Self.day("2023-01-10"),
                    postings: [.init(accountID: "fun", amount: Self.rub(100)), .init(accountID: "debit", amount: Self.rub(-100))])
            ]
        let whole = try Statistics(transactions: older, accounts: Self.accounts, currency: .rub, range: year, today: today)
        #expect(whole.months == 12 && whole.recordsFrom == nil)
        #expect(whole.expense.monthlyAverage == 100_000)
    }

    @Test("a refund reduces spending; a category refunded in full stays with 0")
    func refundsReduceSpending() throws {
        let transactions = [
            Transaction(
                id: "a", day: Self.day("2025-03-02"),
                postings: [.init(accountID: "fun", amount: Self.rub(100_000)), .init(accountID: "card", amount: Self.rub(-100_000))]),
            Transaction(
                id: "b", day: Self.day("2025-03-09"),
                postings: [.init(accountID: "fun", amount: Self.rub(-30_000)), .init(accountID: "card", amount: Self.rub(30_000))]),
            Transaction(
                id: "c", day: Self.day("2025-03-10"),
                postings: [.init(accountID: "gifts", amount: Self.rub(5_000)), .init(accountID: "card", amount: Self.rub(-5_000))]),
            Transaction(
                id: "d", day: Self.day("2025-03-11"),
                postings: [.init(accountID: "gifts", amount: Self.rub(-5_000)), .init(accountID: "card", amount: Self.rub(5_000))]),
        ]
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-03-01")),
            today: Self.day("2025-03-31"))
        #expect(stats.expense.categories.map(\.name) == ["Fun", "Gifts"])
        #expect(stats.expense.categories.map(\.amount) == [70_000, 0])
        #expect(stats.expense.categories.map(\.transactions) == [2, 2])
        #expect(stats.expense.categories.map(\.share) == [10_000, 0])
        #expect(stats.expense.total == 70_000)
        #expect(stats.comparison.total.thisMonth == 70_000)
    }

    @Test("months without transactions are in the trend at zero; partial months count in the average")
    func emptyMonthsAppear() throws {
        let transactions = [
            Transaction(
                id: "a", day: Self.day("2025-01-20"),
                postings: [.init(accountID: "debit", amount: Self.rub(300_000)), .init(accountID: "salary", amount: Self.rub(-300_000))]),
            Transaction(
                id: "b", day: Self.day("2025-04-02"),
                postings: [.init(accountID: "housing", amount: Self.rub(99_999)), .init(accountID: "debit", amount: Self.rub(-99_999))]),
        ]
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-04-10"), from: Self.day("2025-01-15")),
            today: Self.day("2025-04-10"))
        #expect(stats.trend.map(\.month.iso) == ["2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01"])
        #expect(stats.trend.map(\.income) == [300_000, 0, 0, 0])
        #expect(stats.trend.map(\.expense) == [0, 0, 0, 99_999])
        #expect(stats.trend.map(\.net) == [300_000, 0, 0, -99_999])
        #expect(stats.trend.map(\.transactions) == [1, 0, 0, 1])
        #expect(stats.trend.first?.first.iso == "2025-01-15" && stats.trend.last?.last.iso == "2025-04-10")
        #expect(stats.months == 4)
        // 99 999 / 4 = 24 999.75 → 25 000; 300 000 / 4 = 75 000.
        #expect(stats.expense.categories.first?.monthlyAverage == 25_000)
        #expect(stats.income.monthlyAverage == 75_000)
        // January is partial, April is this month: February and March are the full months before.
        #expect(stats.comparison.averagedMonths == 2)
        #expect(stats.comparison.averaged == DayRange(Self.day("2025-02-01"), Self.day("2025-04-01")))
        #expect(stats.comparison.total == (try ComparisonFigures(thisMonth: 99_999, lastMonth: 0, average: 0)))
    }

    @Test("this month counts through today only; last month is whole even before the range")
    func comparisonWindows() throws {
        func spend(_ id: String, _ iso: String, _ amount: Int64) -> Transaction {
            Transaction(
                id: id, day: Self.day(iso),
                postings: [.init(accountID: "groceries", amount: Self.rub(amount)), .init(accountID: "debit", amount: Self.rub(-amount))])
        }
        let transactions = [
            spend("a", "2025-02-28", 1_000), spend("b", "2025-03-01", 2_000), spend("c", "2025-03-31", 3_000), spend("d", "2025-04-01", 4_000),
            spend("e", "2025-04-10", 5_000), spend("f", "2025-04-11", 6_000),
        ]
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-04-30"), from: Self.day("2025-03-15")),
            today: Self.day("2025-04-10"))
        let groceries = try #require(stats.comparison.categories.first)
        #expect(groceries.figures.thisMonth == 9_000)
        #expect(groceries.figures.lastMonth == 5_000)
        #expect(groceries.figures.average == nil)
        #expect(groceries.figures.changeFromLastMonth == 4_000)
        #expect(stats.expense.total == 3_000 + 4_000 + 5_000 + 6_000)
    }

    @Test("a range ending on a month's last day averages that month too; today after the range still compares")
    func averageOverWholeRange() throws {
        func spend(_ iso: String, _ amount: Int64) -> Transaction {
            Transaction(
                id: iso, day: Self.day(iso),
                postings: [.init(accountID: "fun", amount: Self.rub(amount)), .init(accountID: "card", amount: Self.rub(-amount))])
        }
        let transactions = [spend("2025-01-05", 100), spend("2025-02-05", 200), spend("2025-03-31", 401), spend("2025-05-01", 50)]
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-01-01")),
            today: Self.day("2025-05-10"))
        #expect(stats.comparison.averagedMonths == 3)
        // (100 + 200 + 401) / 3 = 233.67 → 234.
        #expect(stats.comparison.total == (try ComparisonFigures(thisMonth: 50, lastMonth: 0, average: 234)))
        #expect(stats.expense.total == 701)
    }

    @Test("hidden categories count; dollar spending is left out and counted")
    func hiddenAndOtherCurrencies() throws {
        let transactions = [
            Transaction(
                id: "a", day: Self.day("2025-03-02"),
                postings: [.init(accountID: "gifts", amount: Self.rub(1_000)), .init(accountID: "debit", amount: Self.rub(-1_000))]),
            Transaction(
                id: "b", day: Self.day("2025-03-03"),
                postings: [
                    .init(accountID: "travel", amount: Money(minor: 5_000, currency: .usd)),
                    .init(accountID: "capital", amount: Money(minor: -5_000, currency: .usd)),
                ]),
        ]
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-03-01")),
            today: Self.day("2025-03-31"))
        #expect(stats.expense.categories.map(\.name) == ["Gifts"])
        #expect(stats.leftOut == ["USD": 1])
    }

    @Test("shares of equal thirds round to 3 333 each and sum to 9 999")
    func thirds() throws {
        let transactions = ["groceries", "housing", "fun"].enumerated().map { index, id in
            Transaction(
                id: "t\(index)", day: Self.day("2025-03-02"),
                postings: [.init(accountID: id, amount: Self.rub(1)), .init(accountID: "debit", amount: Self.rub(-1))])
        }
        let stats = try Statistics(
            transactions: transactions, accounts: Self.accounts, currency: .rub,
            range: DayRange(through: Self.day("2025-03-31"), from: Self.day("2025-03-01")),
            today: Self.day("2025-03-31"))
        #expect(stats.expense.categories.map(\.share) == [3_333, 3_333, 3_333])
        #expect(stats.expense.categories.map(\.name) == ["Fun", "Groceries", "Housing"])
    }

    @Test("basis points and averages round half up, halves away from zero")
    func rounding() {
        #expect(BasisPoints.share(1, of: 3) == 3_333)
        #expect(BasisPoints.share(2, of: 3) == 6_667)
        #expect(BasisPoints.share(1, of: 8) == 1_250)
        #expect(BasisPoints.share(1, of: 20_000) == 1)
        #expect(BasisPoints.share(-1, of: 20_000) == -1)
        #expect(BasisPoints.share(1, of: 20_001) == 0)
        #expect(BasisPoints.share(5, of: 0) == nil)
        #expect(BasisPoints.share(Int64.max / 2, of: Int64.max) == 5_000)
        #expect(BasisPoints.share(Int64.max, of: 1) == nil)
        #expect(BasisPoints.average(5, over: 2) == 3)
        #expect(BasisPoints.average(-5, over: 2) == -3)
        #expect(BasisPoints.average(7, over: 3) == 2)
        #expect(BasisPoints.average(7, over: 0) == nil)
    }
}
