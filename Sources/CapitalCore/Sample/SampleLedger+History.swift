/// The accounts a generated history moves money between.
struct HistoryAccounts {
    let debits: [Account]
    let cash: Account?
    let deposit: Account?
    let card: Account?
    let salary: Account
    let otherIncome: Account
    /// Everyday expense categories by name (Groceries, Eating out, Transport, Utilities, …).
    let expenses: [String: Account]
    let allExpenses: [Account]
    let currency: Currency

    init(sheet: [Account], incomes: [Account], expenses: [Account], currency: Currency) {
        debits = sheet.filter { $0.kind == .debit }
        cash = sheet.first { $0.kind == .cash }
        deposit = sheet.first { $0.kind == .deposit }
        card = sheet.first { $0.kind == .creditCard }
        salary = incomes[0]
        otherIncome = incomes[1]
        self.expenses = Dictionary(expenses.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        allExpenses = expenses
        self.currency = currency
    }
}

extension SampleLedger {
    /// How many years a history of `count` transactions spreads over: about ten thousand a year,
    /// from one year to thirty (a million transactions: thirty years, about 90 a day).
    static func historyYears(_ count: Int) -> Int { count <= 0 ? 0 : min(30, max(1, (count + 9_999) / 10_000)) }

    /// `count` posted transactions from `first` through `last`, in day order, as a household (or a
    /// small business) records them: groceries (30 %), cafés (20 %), card purchases (15 %), fuel
    /// (8 %), bills (7 %), transfers to the deposit (5 %) and other spending (15 %), a quarter of
    /// the cash-like ones paid in cash; each month the card paid back in full on the 28th, cash
    /// drawn on the 2nd for what the month pays in cash, and two salaries (on the 1st and the
    /// 15th) that cover the month with a few per cent to spare, so
    /// that balances stay those of a household that lives within its means. Several spenders,
    /// some transactions tagged; two postings each, balanced.
    /// - Complexity: O(count).
    static func history(
        _ count: Int, from first: Day, through last: Day, _ accounts: HistoryAccounts, using random: inout SplitMix64
    ) -> [Transaction] {
        guard count > 0, first <= last else { return [] }
        let days = last.number - first.number + 1
        let spenders = ["Anna", "Ivan", "Masha", ""]
        let tagSets: [[String]] = [[], [], [], [], ["family"], ["work"], ["kids"], ["vacation"], ["family", "kids"]]
        let cafes = ["Coffee House", "Shokoladnitsa", "Teremok", "Vkusno i tochka", "Cafe Pushkin", "Starbucks"]
        let shops = ["Pyaterochka", "Perekrestok", "Magnit", "VkusVill", "Azbuka Vkusa", "Lenta"]
        let stations = ["Lukoil", "Gazprom", "Rosneft", "Shell"]
        let bills = ["Mosenergosbyt", "MGTS", "MosOblEIRTs", "Beeline"]
        func money(_ minor: Int64) -> Money { Money(minor: minor, currency: accounts.currency) }
        func move(_ day: Day, _ payee: String, _ minor: Int64, from: Account, to: Account, random: inout SplitMix64) -> Transaction {
            Transaction(
                id: random.uuid(), day: day, payee: payee, spender: random.pick(spenders), tags: random.pick(tagSets),
                postings: [Posting(accountID: to.id, amount: money(minor)), Posting(accountID: from.id, amount: money(-minor))])
        }
        let main = accounts.debits[0]
        let expense = { (name: String) in accounts.expenses[name] ?? accounts.allExpenses[0] }
        // The months, and what each month's own transactions need: two salaries, a card payback, cash drawn.
        var months: [Day] = []
        var month = first.startOfMonth
        while month <= last {
            months.append(month)
            month = month.addingMonths(1)
        }
        func monthIndex(_ day: Day) -> Int {
            let a = day.civil
            let b = first.civil
            return (a.year - b.year) * 12 + a.month - b.month
        }
        let perMonth = 2 + (accounts.card == nil ? 0 : 1) + (accounts.cash == nil ? 0 : 1)
        let monthly = min(months.count, count / (perMonth + 1))
        var everydays: [Transaction] = []
        everydays.reserveCapacity(count)
        var mainOut = [Int64](repeating: 0, count: months.count)
        var cashOut = mainOut
        var cardOut = mainOut
        let everyday = count - monthly * perMonth
        for _ in 0..<everyday {
            let day = first.advanced(by: random.below(days))
            let index = monthIndex(day)
            let inCash = accounts.cash != nil && random.below(4) == 0
            let from = inCash ? accounts.cash! : main
            let roll = random.below(100)
            /// A payee, an amount (at least `low`, up to `spread` more) and the accounts.
            func spending(_ payees: [String], _ low: Int, _ spread: Int, from: Account, to: Account) -> (String, Int64, Account, Account) {
                let minor = Int64(low + random.below(spread))
                return (random.pick(payees), minor, from, to)
            }
            let (payee, minor, source, target): (String, Int64, Account, Account)
            switch roll {
            case 0..<30: (payee, minor, source, target) = spending(shops, 30_000, 800_000, from: from, to: expense("Groceries"))
            case 30..<50: (payee, minor, source, target) = spending(cafes, 20_000, 300_000, from: from, to: expense("Eating out"))
            case 50..<65 where accounts.card != nil:
                let what = random.pick(accounts.allExpenses)
                (payee, minor, source, target) = spending(["Card: \(what.name)"], 50_000, 2_000_000, from: accounts.card!, to: what)
            case 65..<73: (payee, minor, source, target) = spending(stations, 150_000, 350_000, from: main, to: expense("Transport"))
            case 73..<80: (payee, minor, source, target) = spending(bills, 100_000, 900_000, from: main, to: expense("Utilities"))
            case 80..<85 where accounts.deposit != nil:
                (payee, minor, source, target) = ("To savings", Int64(100_000 * (1 + random.below(10))), main, accounts.deposit!)
            default:
                let what = random.pick(accounts.allExpenses)
                (payee, minor, source, target) = spending([what.name], 10_000, 1_500_000, from: from, to: what)
            }
            everydays.append(move(day, payee, minor, from: source, to: target, random: &random))
            if source.id == accounts.card?.id {
                cardOut[index] += minor
            } else if source.id == main.id {
                mainOut[index] += minor
            } else {
                cashOut[index] += minor
            }
        }
        // The monthly ones first: on a day they share, the salary comes before the spending.
        var transactions: [Transaction] = []
        transactions.reserveCapacity(count)
        // The monthly ones, for the months the count leaves room for (the latest first).
        for index in months.indices.suffix(monthly) {
            let start = months[index]
            func inside(_ offset: Int) -> Day { min(max(start.advanced(by: offset), first), last) }
            var needed = mainOut[index]
            if let card = accounts.card {
                let payback = max(cardOut[index], 100)
                transactions.append(move(inside(27), "Card payback", payback, from: main, to: card, random: &random))
                needed += payback
            }
            if let cash = accounts.cash {
                let drawn = max(cashOut[index], 100)
                transactions.append(move(inside(1), "ATM", drawn, from: main, to: cash, random: &random))
                needed += drawn
            }
            // Salaries cover the month with 2–10 % to spare: 70 % on its first day, 30 % on the 15th.
            let income = needed + needed * Int64(2 + random.below(9)) / 100 + 100
            transactions.append(move(inside(0), "Salary Anna", income * 7 / 10, from: accounts.salary, to: main, random: &random))
            transactions.append(move(inside(14), "Salary Ivan", income - income * 7 / 10, from: accounts.salary, to: main, random: &random))
        }
        return transactions + everydays
    }
}
