import Foundation

/// What the sample's instruments add to `HouseholdForecast`, worked out with plain loops over
/// every day and no capital code, except the loans' rows, which come from
/// `capital loan show NAME --schedule --format json` (from today) and `capital loan schedule`
/// (every row, for the days before today) as the schedules' occurrences come from
/// `schedule show` (amortisation is checked against numpy-financial elsewhere).
///
/// The rules, as the instruments issue states them:
/// - **Loans**: the loan account's balance is its schedule's (after the payments before today),
///   whatever was posted to it, the difference against Capital; each payment from today on moves
///   the payment out of the paying account, the interest to the loan's category and the
///   principal to the loan account.
/// - **A revalued asset**: rate year `k` starts `12 k` months after its valuation day; the year's
///   change is its value then (postings plus the changes before) times the rate, rounded half away
///   from zero, posted in twelve monthly parts a month apart from the month after (a twelfth
///   truncated toward zero in months 1–11, the rest in month 12), against Capital; the value never
///   goes below 0.
/// - **A deposit**: from its opening day, each day's end-of-day balance earns
///   `balance × rate / days in that year`; a capitalisation period sums its days exactly and is
///   rounded half up once, credited on the capitalisation day (the opening day of each month,
///   clamped, and maturity) from the interest category; at maturity, after the interest, the
///   whole balance goes to the payout account.
/// - **A card** (full payback, no interest): from the statement before today, each statement's
///   debt is what the card owes at the end of its day; on its due day (from today on) the paying
///   account pays the debt less the real payments to the card since the statement, never more
///   than the card owes then. The flows it sees are the posted ones and, from today, the
///   schedules' occurrences (an occurrence before today on today) at their expected amounts for
///   the expected case and at their pessimistic ones for the pessimistic case: each case pays back
///   its own spending.
extension HouseholdForecast {
    /// A loan as `loan show NAME --schedule --format json` gives it on `today`.
    struct LoanShow: Sendable {
        struct Row: Sendable, Equatable {
            var day: String
            var payment: Int64
            var interest: Int64
            var principal: Int64
            /// What is owed after the payment.
            var balance: Int64
        }
        var name: String
        /// What is owed today: the schedule's balance after the payments before today (positive).
        var balance: Int64
        /// The payments from today on.
        var rows: [Row]
    }

    /// `loan show --schedule` or `loan schedule` JSON (the latter has no balance of today: 0).
    static func loanShow(_ name: String, _ result: CLI.Result) -> LoanShow? {
        guard result.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let list = object["rows"] as? [[String: Any]]
        else { return nil }
        var rows: [LoanShow.Row] = []
        for row in list {
            guard let day = row.string("day"), row.string("kind") == "payment", let payment = row.string("payment").flatMap(minorUnits),
                let interest = row.string("interest").flatMap(minorUnits), let principal = row.string("principal").flatMap(minorUnits),
                let balance = row.string("balance").flatMap(minorUnits)
            else { return nil }
            rows.append(LoanShow.Row(day: day, payment: payment, interest: interest, principal: principal, balance: balance))
        }
        return LoanShow(name: name, balance: object.string("balance").flatMap(minorUnits) ?? 0, rows: rows)
    }

    /// `capital loan schedule` with a loan's terms as the sample writes them.
    static func scheduleArguments(_ loan: HouseholdSample.Instrument) -> [String] {
        var args = [
            "loan", "schedule", "--principal", loan["principal"]!, "--rate", loan["rate"]!, "--term", loan["term"]!, "--start", loan["start"]!,
        ]
        for (key, option) in [("firstPayment", "--first-payment"), ("method", "--method"), ("dayCount", "--day-count"), ("rounding", "--rounding")] {
            if let value = loan[key] { args += [option, value] }
        }
        return args + ["--format", "json"]
    }

    /// What a loan's schedule says is owed at the end of `day`: nothing before the start, the
    /// principal until the first payment, then the balance after the last payment.
    func scheduled(_ loan: HouseholdSample.Instrument, on day: String) -> Int64 {
        guard let start = loan["start"], day >= start else { return 0 }
        return loanSchedules.first { $0.name == loan.account }?.rows.last { $0.day <= day }?.balance ?? loan.amount("principal")!
    }

    /// The last day instruments are worked out to: past every horizon the tests use.
    static let instrumentsThrough = "2026-12-31"

    /// Everything the instruments make, seen from `today`, in no particular order: the loans'
    /// corrections (dated yesterday) and payments, the asset's value changes and the deposit's
    /// interest from their start, the card's paybacks from today, and (unless `tracking` is false)
    /// what bills, fines and budgets expect. Each has one amount for both cases but the card's.
    func generated(today: String, tracking: Bool = true) -> [Event] {
        memo.events("\(today) \(tracking)") { generating(today: today, tracking: tracking) }
    }

    private func generating(today: String, tracking: Bool) -> [Event] {
        var events: [Event] = []
        let yesterday = Self.iso(Self.number(today) - 1)
        let last = Self.instrumentsThrough
        func event(_ date: String, _ label: String, _ legs: [(String, Int64)]) -> Event {
            Event(date: date, label: label, legs: legs.map { Leg(account: $0.0, expected: $0.1, pessimistic: $0.1) })
        }

        for loan in sample.loans {
            guard let show = loanShows.first(where: { $0.name == loan.account }) else { continue }
            let correction =
                -show.balance
                - sample.transactions.filter { $0.date < today }.flatMap(\.postings)
                .filter { $0.account == loan.account }.map(\.amount).reduce(0, +)
            if correction != 0 {
                events.append(event(yesterday, "\(loan.account): balance by its schedule", [(loan.account, correction), ("Capital", -correction)]))
            }
            let category = loan["category"] ?? "Loan interest"
            // Payments after the loan's history (handledThrough, before the shown rows) are open:
            // those whose day has passed are paid today.
            precondition(loan["handledThrough"].map { $0 < Self.today } ?? false, "the sample's loans are handled through March")
            for row in show.rows where row.day <= last {
                events.append(
                    event(
                        max(row.day, today), row.day < today ? "\(loan.account) payment (overdue since \(row.day))" : "\(loan.account) payment",
                        [(loan["payFrom"]!, -row.payment), (category, row.interest), (loan.account, row.principal)]))
            }
        }

        for account in sample.accounts {
            guard let change = account.valueChange, let since = account.valueSince else { continue }
            for (day, amount) in valueChanges(of: account.name, percent: change, since: since, through: last) {
                events.append(event(day, "\(account.name): value change \(change)%", [(account.name, amount), ("Capital", -amount)]))
            }
        }

        for deposit in sample.deposits {
            let category = deposit["category"] ?? "Interest"
            for (day, kind, amount) in depositEvents(deposit, today: today, through: last) {
                if kind == "interest" {
                    events.append(event(day, "\(deposit.account) interest", [(deposit.account, amount), (category, -amount)]))
                } else if let payout = deposit["payout"] {
                    events.append(event(day, "\(deposit.account) paid out", [(payout, amount), (deposit.account, -amount)]))
                }
            }
        }

        if tracking { events += trackingEvents(today: today, through: last) }

        for card in sample.cards {
            let expected = Dictionary(paybacks(card, today: today, through: last, pessimistic: false), uniquingKeysWith: +)
            let pessimistic = Dictionary(paybacks(card, today: today, through: last, pessimistic: true), uniquingKeysWith: +)
            for day in Set(expected.keys).union(pessimistic.keys) {
                let (e, p) = (expected[day] ?? 0, pessimistic[day] ?? 0)
                events.append(
                    Event(
                        date: day, label: "\(card.account) payback",
                        legs: [
                            Leg(account: card.account, expected: e, pessimistic: p), Leg(account: card["payFrom"]!, expected: -e, pessimistic: -p),
                        ]))
            }
        }
        return events
    }

    // MARK: Bills, fines and budgets

    /// - **A bill or fine** not fully paid: its rest (total − paid) moves from its paying account
    ///   (else the default account) to its category (else Bills or Fines) on its due day, or
    ///   today when that is past.
    /// - **A monthly budget**: in each month from today's, the limit less what the month's
    ///   schedule occurrences not posted (those before today are open: they count today) put
    ///   into the category at their expected amounts,
    ///   and in today's month less what was posted to it from the 1st through today, is spread
    ///   evenly over the month's days from today (from the 1st in later months), the remainder a
    ///   minor unit a day on the first days; nothing when that is 0 or less.
    func trackingEvents(today: String, through last: String) -> [Event] {
        var events: [Event] = []
        func event(_ date: String, _ label: String, _ legs: [(String, Int64)]) -> Event {
            Event(date: date, label: label, legs: legs.map { Leg(account: $0.0, expected: $0.1, pessimistic: $0.1) })
        }
        for due in sample.dues {
            let rest = due.amount("total")! - (due.amount("paid") ?? 0)
            guard rest > 0 else { continue }
            let category = due["category"] ?? (due["type"] == "bill" ? "Bills" : "Fines")
            events.append(event(max(due["due"]!, today), due["reason"]!, [(due["payFrom"] ?? sample.defaultAccount, -rest), (category, rest)]))
        }
        for budget in sample.budgets {
            precondition((budget["period"] ?? "monthly") == "monthly", "the reference knows monthly budgets")
            let category = budget["category"]!
            let limit = budget.amount("amount")!
            var first = String(max(today, budget["from"]!).prefix(7)) + "-01"
            while first <= last {
                let days = Self.days(from: first, through: Self.iso(Self.number(Self.nextMonth(first)) - 1)).filter { $0 >= today }
                var used: Int64 = 0
                if first <= today {
                    used += sample.transactions.filter { $0.date >= first && $0.date <= today }.flatMap(\.postings)
                        .filter { $0.account == category }.map(\.amount).reduce(0, +)
                }
                // Every occurrence of the month not posted: those before today are open and count today.
                let next = Self.nextMonth(first)
                used += occurrences.filter { $0.date >= first && $0.date < next }.flatMap(\.legs).filter { $0.account == category }.map(\.expected)
                    .reduce(0, +)
                let rest = limit - used
                if rest > 0 {
                    for (index, day) in days.enumerated() {
                        let amount = rest / Int64(days.count) + (Int64(index) < rest % Int64(days.count) ? 1 : 0)
                        if amount > 0 {
                            events.append(
                                event(day, "Budget: \(category)", [(budget["payFrom"] ?? sample.defaultAccount, -amount), (category, amount)]))
                        }
                    }
                }
                first = Self.nextMonth(first)
            }
        }
        return events
    }

    /// The first day of the month after `first`'s.
    static func nextMonth(_ first: String) -> String {
        let parts = first.split(separator: "-").map { Int($0)! }
        let (year, month) = parts[1] == 12 ? (parts[0] + 1, 1) : (parts[0], parts[1] + 1)
        return "\(year)-\(month < 10 ? "0" : "")\(month)-01"
    }

    // MARK: The asset

    /// The monthly changes of a revalued asset's value through `last`.
    func valueChanges(of account: String, percent: String, since: String, through last: String) -> [(day: String, amount: Int64)] {
        let perMillion = Self.perMillion(percent)
        var changes: [(day: String, amount: Int64)] = []
        var generated: Int64 = 0
        var year = 0
        while Self.adding(months: 12 * year + 1, to: since) <= last {
            let base = sample.posted(account, through: Self.adding(months: 12 * year, to: since)) + generated
            // base × rate, rounded half away from zero (millionths, so half is 500 000).
            let magnitude = base <= 0 ? 0 : (base * abs(perMillion) + 500_000) / 1_000_000
            let yearChange = perMillion < 0 ? -min(magnitude, base) : magnitude
            let part = yearChange / 12  // Swift's division truncates toward zero
            for month in 1...12 {
                let day = Self.adding(months: 12 * year + month, to: since)
                guard day <= last else { return changes }
                let value = sample.posted(account, through: day) + generated
                var amount = month == 12 ? yearChange - 11 * part : part
                if value <= 0 { amount = 0 } else if amount < -value { amount = -value }
                guard amount != 0 else { continue }
                generated += amount
                changes.append((day, amount))
            }
            year += 1
        }
        return changes
    }

    // MARK: The deposit

    /// Flows into `account` by day: posted transactions, and from `today` the schedules'
    /// occurrences at their expected amounts (one before today on today).
    func flows(into account: String, today: String, pessimistic: Bool = false) -> [String: [Int64]] {
        var flows: [String: [Int64]] = [:]
        for transaction in sample.transactions {
            let net = transaction.postings.filter { $0.account == account }.map(\.amount).reduce(0, +)
            if net != 0 { flows[transaction.date, default: []].append(net) }
        }
        for occurrence in occurrences {
            let net = occurrence.legs.filter { $0.account == account }.map(pessimistic ? \.pessimistic : \.expected).reduce(0, +)
            if net != 0 { flows[max(occurrence.date, today), default: []].append(net) }
        }
        return flows
    }

    /// A deposit's interest credits and its payout, from its opening through `last`.
    func depositEvents(_ deposit: HouseholdSample.Instrument, today: String, through last: String) -> [(day: String, kind: String, amount: Int64)] {
        guard let opened = deposit["opened"], let rate = deposit["rate"] else { return [] }
        let maturity = deposit["maturity"]
        let flows = flows(into: deposit.account, today: today)
        let perMillion = Self.perMillion(rate)
        let step = ["monthly": 1, "quarterly": 3][deposit["capitalisation"] ?? "monthly"]
        /// The `k`th capitalisation day from 1: counted from the opening each time, cut at maturity.
        func capitalisation(_ k: Int) -> String {
            guard let step else { return maturity! }
            let day = Self.adding(months: step * k, to: opened)
            return maturity.map { min(day, $0) } ?? day
        }

        var events: [(day: String, kind: String, amount: Int64)] = []
        // Flows up to the opening day make up the opening balance.
        var balance = flows.filter { $0.key <= opened }.flatMap(\.value).reduce(0, +)
        // Σ balance × rate × weight over 10^6 × 365 × 366: a day of a 365-day year weighs 366.
        var accrued: Int64 = 0
        let denominator: Int64 = 1_000_000 * 365 * 366
        var k = 1
        for number in Self.number(opened)...Self.number(min(maturity ?? last, last)) {
            let day = Self.iso(number)
            if day > opened { balance += flows[day, default: []].reduce(0, +) }
            if day == capitalisation(k) {
                let interest = (accrued + denominator / 2) / denominator
                if interest > 0 {
                    balance += interest
                    events.append((day, "interest", interest))
                }
                if day == maturity {
                    if balance > 0 { events.append((day, "payout", balance)) }
                    return events
                }
                accrued = 0
                k += 1
            }
            let weight: Int64 = Self.daysInYear(day) == 365 ? 366 : 365
            accrued += max(balance, 0) * perMillion * weight
        }
        return events
    }

    // MARK: The card

    /// A card's paybacks (full statement balance) on the due days from `today` through `last`.
    func paybacks(_ card: HouseholdSample.Instrument, today: String, through last: String, pessimistic: Bool) -> [(day: String, amount: Int64)] {
        guard let statementDay = card.number("statementDay") else { return [] }
        precondition(
            card["payback"] ?? "full" == "full" && (card["rate"] ?? "0") == "0" && card["dueAfter"] != nil,
            "the reference pays statements in full, without interest, a number of days after the statement")
        let yesterday = Self.iso(Self.number(today) - 1)
        func statement(inMonthOf day: String) -> String {
            let prefix = String(day.prefix(8))
            let days = Self.daysIn(month: Int(day.dropFirst(5).prefix(2))!, year: Int(day.prefix(4))!)
            let d = min(statementDay, days)
            return prefix + (d < 10 ? "0\(d)" : "\(d)")
        }
        let dueAfter = card.number("dueAfter")!  // the sample's card: due a number of days after the statement
        func due(_ statement: String) -> String { Self.iso(Self.number(statement) + dueAfter) }
        // The latest statement on or before yesterday.
        var first = statement(inMonthOf: yesterday)
        if first > yesterday { first = statement(inMonthOf: Self.adding(months: -1, to: String(yesterday.prefix(8)) + "01")) }

        // Real flows: posted ones before today, and from today posted ones and occurrences.
        let flows = flows(into: card.account, today: today, pessimistic: pessimistic)
        var balance = sample.posted(card.account, through: first)
        var debts: [String: Int64] = [:]  // statement day → debt
        var credits: [String: Int64] = [:]  // statement day → payments since it, to its due day
        var open: [String] = [first]  // statements whose due day is not past
        debts[first] = max(0, -balance)
        var paid: [(day: String, amount: Int64)] = []
        for number in (Self.number(first) + 1)...Self.number(last) {
            let day = Self.iso(number)
            for amount in flows[day, default: []] {
                balance += amount
                for s in open where day <= due(s) && amount > 0 { credits[s, default: 0] += amount }
            }
            if day == statement(inMonthOf: day) {
                debts[day] = max(0, -balance)
                open.append(day)
            }
            for s in open where due(s) == day && day >= today {
                let payback = min(max(0, debts[s]! - credits[s, default: 0]), max(0, -balance))
                if payback > 0 {
                    balance += payback
                    paid.append((day, payback))
                }
            }
            open.removeAll { due($0) <= day }
        }
        return paid
    }

    // MARK: Balances on a day, as `balance --on DAY` shows them

    /// Every account's balance at the end of `day` as capital shows it on `today`: the posted
    /// transactions and what the instruments compute up to that day (deposit interest, value
    /// changes), never what is only expected (loan payments, card paybacks, bills, fines,
    /// budgets); a loan account at its schedule's balance through its history (handledThrough, by
    /// `loan schedule`), then at the history's end plus what was posted to it since, the
    /// difference against Capital.
    func balances(on day: String, today: String = today) -> [String: Int64] {
        var result = sample.balances(through: day)
        for event in generated(today: today, tracking: false)
        where event.date <= day && !event.label.hasSuffix("balance by its schedule") && !event.label.contains(" payment")
            && !event.label.hasSuffix(" payback")
        {
            for leg in event.legs { result[leg.account, default: 0] += leg.expected }
        }
        for loan in sample.loans {
            guard let show = loanShows.first(where: { $0.name == loan.account }), let handled = loan["handledThrough"] else { continue }
            let postedSince = sample.transactions.filter { $0.date > handled && $0.date <= day }.flatMap(\.postings)
                .filter { $0.account == loan.account }.map(\.amount).reduce(0, +)
            let target = day <= handled ? -scheduled(loan, on: day) : -show.balance + postedSince
            let correction = target - result[loan.account, default: 0]
            result[loan.account] = target
            result["Capital", default: 0] -= correction
        }
        return result
    }

    // MARK: Days and rates

    /// `iso` plus `months` months, the day of the month clamped to the month's end.
    static func adding(months: Int, to iso: String) -> String {
        let parts = iso.split(separator: "-").map { Int($0)! }
        let index = parts[0] * 12 + parts[1] - 1 + months
        let (year, month) = (index / 12, index % 12 + 1)
        let day = min(parts[2], daysIn(month: month, year: year))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    static func daysInYear(_ iso: String) -> Int { isLeap(Int(iso.prefix(4))!) ? 366 : 365 }

    /// A percentage as written in the sample (`16`, `-15`, `7.75`) in millionths.
    static func perMillion(_ percent: String) -> Int64 {
        let negative = percent.hasPrefix("-")
        let digits = percent.drop { $0 == "-" || $0 == "+" }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) + String(repeating: "0", count: 4 - parts[1].count) : "0"
        let value = Int64(parts[0])! * 10_000 + Int64(fraction)!
        return negative ? -value : value
    }
}
