import Foundation

/// A brute-force forecast of `samples/household.yaml`, sharing no code with capital's timeline:
/// the posted transactions come from `HouseholdSample`'s line reader, the schedules' occurrences
/// (days and low/expected/high amounts) from `capital schedule show NAME --next 400 --format json`
/// on the imported sample and the loans' payments from `capital loan show NAME --schedule --format json`
/// so that rules are not expanded twice, and everything else is plain loops over every day
/// (the instruments' rules: `HouseholdForecast+Instruments.swift`).
///
/// Rules it encodes, as the forecast issue states them: a day's balance is the end-of-day sum of
/// the chosen accounts; occurrences dated before today count on today; the pessimistic case takes
/// outflows at the high end of a range and inflows at the low end; an event (a transaction or an
/// occurrence) is netted over the chosen accounts, so a transfer between two of them is no flow.
/// What the instruments make before today is part of the opening balance; from today on, their
/// transactions are events like the others, with one amount in both cases.
struct HouseholdForecast: Sendable {
    /// The day the sample's golden outputs are pinned to.
    static let today = "2025-04-01"
    /// `today` plus 12 months: the default horizon of can-spend and when.
    static let defaultHorizon = "2026-04-01"

    enum Case: Sendable { case expected, pessimistic }

    /// One posting of an event into an account, with its amount in each case.
    struct Leg: Sendable {
        var account: String
        var expected: Int64
        var pessimistic: Int64
    }

    struct Event: Sendable {
        var date: String
        var label: String
        var legs: [Leg]
    }

    let sample: HouseholdSample
    /// Account name → kind, and the floors: those written in the sample, and minus its limit
    /// for a card without one.
    let kinds: [String: String]
    let floors: [String: Int64]
    /// Every schedule occurrence from `today` for 400 occurrences each.
    let occurrences: [Event]
    /// Each loan's balance today and payments from today, by `loan show`.
    let loanShows: [LoanShow]
    /// Each loan's every payment, by `loan schedule` with the sample's terms.
    let loanSchedules: [LoanShow]

    /// What `generated(today:tracking:)` made, by its arguments: the same for every call, and
    /// the reference's most costly step.
    let memo = Memo()

    final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var generated: [String: [Event]] = [:]

        func events(_ key: String, _ make: () -> [Event]) -> [Event] {
            if let known = lock.withLock({ generated[key] }) { return known }
            let made = make()
            lock.withLock { generated[key] = made }
            return made
        }
    }

    static let shared: Result<HouseholdForecast, CLI.TemplateError> = Result { () throws(CLI.TemplateError) in try HouseholdForecast() }

    private init() throws(CLI.TemplateError) {
        let text = String(decoding: FileManager.default.contents(atPath: CLI.samplePath) ?? Data(), as: UTF8.self)
        sample = HouseholdSample(text: text)
        kinds = Dictionary(uniqueKeysWithValues: sample.accounts.map { ($0.name, $0.kind) })
        var floors = Dictionary(uniqueKeysWithValues: sample.accounts.compactMap { account in account.floor.map { (account.name, $0) } })
        for card in sample.cards where floors[card.account] == nil { floors[card.account] = -(card.amount("limit") ?? 0) }
        var names: [String] = []
        var section = ""
        for line in text.split(separator: "\n").map(String.init) {
            if !line.hasPrefix(" ") { section = String(line.prefix { $0 != ":" }) }
            if section == "schedules" && line.hasPrefix("  - name: ") { names.append(HouseholdSample.unquote(String(line.dropFirst(10)))) }
        }
        self.floors = floors
        guard names.count == 22 else { throw CLI.TemplateError(message: "expected 22 schedules in the sample, read \(names.count)") }
        guard sample.loans.count == 3, sample.cards.count == 1, sample.deposits.count == 1 else {
            throw CLI.TemplateError(message: "expected 3 loans, a card and a deposit in the sample")
        }

        let cli: CLI
        do { cli = try CLI.household() } catch { throw CLI.TemplateError(message: "copying the imported sample: \(error)") }
        let found = Mutex([[Event]?](repeating: nil, count: names.count))
        let scheduleNames = names
        let loanNames = sample.loans.map(\.account)
        let scheduleArguments = sample.loans.map(Self.scheduleArguments)
        let shown = Mutex([LoanShow?](repeating: nil, count: 2 * loanNames.count))
        DispatchQueue.concurrentPerform(iterations: names.count + 2 * loanNames.count) { index in
            guard index < scheduleNames.count else {
                let k = index - scheduleNames.count
                let name = loanNames[k % loanNames.count]
                let args =
                    k < loanNames.count
                    ? ["--today", Self.today, "loan", "show", name, "--schedule", "--format", "json"] : scheduleArguments[k - loanNames.count]
                let loan = Self.loanShow(name, cli.run(args))
                shown.withLock { $0[k] = loan }
                return
            }
            let name = scheduleNames[index]
            let args = ["--today", Self.today, "schedule", "show", name, "--next", "400", "--format", "json"]
            let events = Self.events(of: name, cli.run(args))
            found.withLock { $0[index] = events }
        }
        var events: [Event] = []
        for (index, result) in found.withLock({ $0 }).enumerated() {
            guard let result else { throw CLI.TemplateError(message: "schedule show \(names[index]): unreadable output") }
            events += result
        }
        var loans: [LoanShow] = []
        for (index, loan) in shown.withLock({ $0 }).enumerated() {
            guard let loan else { throw CLI.TemplateError(message: "loan show or schedule \(loanNames[index % loanNames.count]): unreadable output") }
            loans.append(loan)
        }
        loanShows = Array(loans.prefix(loanNames.count))
        loanSchedules = Array(loans.dropFirst(loanNames.count))
        occurrences = events
    }

    /// A schedule's occurrences from its `schedule show` JSON. A two-posting schedule moves the
    /// occurrence's amount (its range for the cases); a split keeps its template amounts.
    private static func events(of name: String, _ result: CLI.Result) -> [Event]? {
        guard result.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let postings = object["postings"] as? [[String: Any]], let list = object["occurrences"] as? [[String: Any]]
        else { return nil }
        var template: [(account: String, amount: Int64)] = []
        for posting in postings {
            guard let account = posting.string("account"), let amount = posting.string("amount").flatMap(minorUnits) else { return nil }
            template.append((account, amount))
        }
        var events: [Event] = []
        for occurrence in list {
            guard let date = occurrence.string("date"), let amount = occurrence.string("amount").flatMap(minorUnits),
                let low = occurrence.string("low").flatMap(minorUnits), let high = occurrence.string("high").flatMap(minorUnits)
            else { return nil }
            let legs = template.map { posting -> Leg in
                guard template.count == 2 else { return Leg(account: posting.account, expected: posting.amount, pessimistic: posting.amount) }
                return posting.amount < 0
                    ? Leg(account: posting.account, expected: -amount, pessimistic: -high)
                    : Leg(account: posting.account, expected: amount, pessimistic: low)
            }
            events.append(Event(date: date, label: name, legs: legs))
        }
        return events
    }

    // MARK: Accounts

    /// The answer ladder by kind (DESIGN.md), written out again here.
    static func level(ofKind kind: String) -> Int? {
        switch kind {
        case "cash": 1
        case "debit": 2
        case "credit-card": 3
        case "deposit", "receivable", "payable": 5
        case "fixed-asset", "loan": 6
        default: nil
        }
    }

    /// An account's ladder level: by its kind, except a deposit, which is level 5 when it
    /// matures within a year of today and 6 otherwise.
    func level(of account: HouseholdSample.Account) -> Int? {
        if let deposit = sample.deposits.first(where: { $0.account == account.name }) {
            guard let maturity = deposit["maturity"] else { return 6 }
            return Self.number(maturity) <= Self.number(Self.today) + 365 ? 5 : 6
        }
        return Self.level(ofKind: account.kind)
    }

    /// The accounts a ladder level sums: those joining at that level or below.
    func accounts(level: Int) -> Set<String> {
        Set(sample.accounts.filter { self.level(of: $0).map { $0 <= level } ?? false }.map(\.name))
    }

    func floor(of accounts: Set<String>) -> Int64 { accounts.map { floors[$0] ?? 0 }.reduce(0, +) }

    // MARK: Days

    /// The days from `first` through `last`, as ISO strings.
    static func days(from first: String, through last: String) -> [String] {
        (number(first)...number(last)).map(iso)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    static func number(_ iso: String) -> Int {
        let parts = iso.split(separator: "-").map { Int($0)! }
        let m = parts[1]
        let y = parts[0] - (m <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + parts[2] - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func iso(_ number: Int) -> String {
        let z = number + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// 1 Monday … 7 Sunday (1970-01-01 was a Thursday).
    static func weekday(_ iso: String) -> Int { ((number(iso) % 7) + 7 + 3) % 7 + 1 }

    // MARK: Balances

    /// The balance of `accounts` at the end of each day from `today` through `last`, in roubles:
    /// an account in another currency valued each day (`value(of:on:today:_:)`).
    func balances(of accounts: Set<String>, today: String = today, through last: String, _ forecastCase: Case) -> [Int64] {
        let days = Self.days(from: today, through: last)
        let roubles = self.roubles(accounts)
        var balance = opening(of: roubles, today: today)
        var byDay: [String: Int64] = [:]
        for event in events(of: roubles, today: today, through: last, forecastCase) { byDay[event.date, default: 0] += event.amount }
        let foreign = accounts.subtracting(roubles)
        return days.map { day in
            balance += byDay[day] ?? 0
            return foreign.reduce(balance) { $0 + value(of: $1, on: day, today: today, forecastCase) }
        }
    }

    /// The accounts in roubles, the ledger's currency.
    func roubles(_ accounts: Set<String>) -> Set<String> { accounts.filter { sample.currency(of: $0) == "RUB" } }

    /// An account in another currency at the end of `day`, in roubles. Its balance is what the
    /// file posts (no instrument or schedule of the sample moves one), rounded half to even at
    /// the rate: the day's own when expected; when pessimistic, for a balance above zero the
    /// lowest and below zero the highest rate holding on any day from 89 days before today
    /// through `day` (capital's documented 90-day window).
    func value(of account: String, on day: String, today: String, _ forecastCase: Case) -> Int64 {
        let native = sample.posted(account, through: day)
        let currency = sample.currency(of: account)
        guard native != 0 else { return 0 }
        guard forecastCase == .pessimistic else { return HouseholdSample.value(native, at: sample.rate(of: currency, on: day)!) }
        let held = Self.days(from: Self.iso(Self.number(today) - 89), through: day).compactMap { sample.rate(of: currency, on: $0) }
        func number(_ rate: String) -> Decimal { Decimal(string: rate)! }
        let rate = native > 0 ? held.min { number($0) < number($1) }! : held.max { number($0) < number($1) }!
        return HouseholdSample.value(native, at: rate)
    }

    /// The balance at the end of yesterday: posted transactions before today, and what the
    /// instruments made before today; an account in another currency valued at today's rate.
    func opening(of accounts: Set<String>, today: String = today) -> Int64 {
        let roubles = self.roubles(accounts)
        let posted = sample.transactions.filter { $0.date < today }.flatMap(\.postings).filter { roubles.contains($0.account) }.map(\.amount)
        let made = generated(today: today).filter { $0.date < today }.flatMap(\.legs).filter { roubles.contains($0.account) }.map(\.expected)
        let foreign = accounts.subtracting(roubles).map { account in
            HouseholdSample.value(
                sample.posted(account, through: Self.iso(Self.number(today) - 1)), at: sample.rate(of: sample.currency(of: account), on: today)!)
        }
        return posted.reduce(0, +) + made.reduce(0, +) + foreign.reduce(0, +)
    }

    /// Every event from today through `last`, netted over `accounts` (zero nets left out), an
    /// occurrence dated before today moved to today. Postings into accounts in another currency
    /// are netted per currency and day and valued at that day's rate, one event each.
    func events(of accounts: Set<String>, today: String = today, through last: String, _ forecastCase: Case) -> [(
        date: String, label: String, amount: Int64
    )] {
        var result: [(date: String, label: String, amount: Int64)] = []
        var foreign: [String: Int64] = [:]  // "day currency" → net
        for transaction in sample.transactions where transaction.date >= today && transaction.date <= last {
            for posting in transaction.postings where accounts.contains(posting.account) && sample.currency(of: posting.account) != "RUB" {
                foreign["\(transaction.date) \(sample.currency(of: posting.account))", default: 0] += posting.amount
            }
        }
        for (key, net) in foreign.sorted(by: { $0.key < $1.key }) where net != 0 {
            let parts = key.split(separator: " ").map(String.init)
            result.append((parts[0], "\(parts[1]) at the day's rate", HouseholdSample.value(net, at: sample.rate(of: parts[1], on: parts[0])!)))
        }
        let accounts = roubles(accounts)
        for transaction in sample.transactions where transaction.date >= today && transaction.date <= last {
            let net = transaction.postings.filter { accounts.contains($0.account) }.map(\.amount).reduce(0, +)
            if net != 0 { result.append((transaction.date, transaction.payee, net)) }
        }
        for event in generated(today: today) where event.date >= today && event.date <= last {
            let net = event.legs.filter { accounts.contains($0.account) }.map { forecastCase == .expected ? $0.expected : $0.pessimistic }.reduce(
                0, +)
            if net != 0 { result.append((event.date, event.label, net)) }
        }
        for event in occurrences where event.date <= last {
            let net = event.legs.filter { accounts.contains($0.account) }.map { forecastCase == .expected ? $0.expected : $0.pessimistic }.reduce(
                0, +)
            if net != 0 { result.append((max(event.date, today), event.label, net)) }
        }
        return result
    }

    /// The periods of `forecast --by`: months, Monday-to-Sunday weeks, or days, cut at the ends.
    static func periods(from first: String, through last: String, by: String) -> [(start: String, end: String)] {
        var periods: [(start: String, end: String)] = []
        var start = first
        while start <= last {
            var end: String
            switch by {
            case "day": end = start
            case "week": end = iso(number(start) + 7 - weekday(start))
            default:
                var day = start
                while iso(number(day) + 1).prefix(7) == start.prefix(7) { day = iso(number(day) + 1) }
                end = day
            }
            end = min(end, last)
            periods.append((start, end))
            start = iso(number(end) + 1)
        }
        return periods
    }

    /// One row of `forecast`, worked out from the day balances and the events.
    struct Period: Equatable, CustomStringConvertible {
        var start: String
        var end: String
        var opening: Int64
        var inflow: Int64
        var outflow: Int64
        var closing: Int64
        var min: Int64
        var minDay: String
        /// What rates added beyond the flows (accounts in other currencies): 0 without any.
        var revaluation: Int64 = 0

        var description: String {
            "\(start)…\(end): opening \(opening) in \(inflow) out \(outflow) rates \(revaluation) closing \(closing) min \(min) on \(minDay)"
        }
    }

    func forecast(of accounts: Set<String>, today: String = today, through last: String, by: String, _ forecastCase: Case) -> [Period] {
        let days = Self.days(from: today, through: last)
        let balances = self.balances(of: accounts, today: today, through: last, forecastCase)
        let events = self.events(of: accounts, today: today, through: last, forecastCase)
        var previous = opening(of: accounts, today: today)
        var rows: [Period] = []
        for period in Self.periods(from: today, through: last, by: by) {
            let inside = events.filter { $0.date >= period.start && $0.date <= period.end }.map(\.amount)
            var row = Period(
                start: period.start, end: period.end, opening: previous, inflow: inside.filter { $0 > 0 }.reduce(0, +),
                outflow: inside.filter { $0 < 0 }.reduce(0, +), closing: 0, min: .max, minDay: "")
            for (index, day) in days.enumerated() where day >= period.start && day <= period.end {
                if balances[index] < row.min {
                    row.min = balances[index]
                    row.minDay = day
                }
                row.closing = balances[index]
            }
            row.revaluation = row.closing - row.opening - row.inflow - row.outflow
            rows.append(row)
            previous = row.closing
        }
        return rows
    }

    /// can-spend by brute force: for levels 1–3 that day's `balance − floor`; for levels 4–6 the
    /// best split of a part from the pool (the level less its card, its floors summed) and a part
    /// on the card (its room until the purchase is paid back, then the pool's), found by trying
    /// card parts on a coarse grid and then every minor unit around the best; the binding day is
    /// the pool's lowest day once the split is spent.
    struct Answer: Equatable, CustomStringConvertible {
        var amount: Int64
        var shortfall: Int64
        var bindingDay: String
        var bindingBalance: Int64
        var floor: Int64
        /// The card's part of the split (levels 4–6).
        var card: Int64 = 0
        var description: String { "amount \(amount) (card \(card)) shortfall \(shortfall) binding \(bindingDay) at \(bindingBalance) floor \(floor)" }
    }

    func canSpend(level: Int, on day: String, through last: String = defaultHorizon, _ forecastCase: Case = .pessimistic) -> Answer {
        let days = Self.days(from: Self.today, through: last)
        let first = days.firstIndex(of: day)!
        guard level >= 4 else {
            let accounts = accounts(level: level)
            let floor = floor(of: accounts)
            let balance = self.balances(of: accounts, through: last, forecastCase)[first]
            return Answer(amount: max(0, balance - floor), shortfall: max(0, floor - balance), bindingDay: day, bindingBalance: balance, floor: floor)
        }
        return split(level: level, through: last, forecastCase).answer(at: first)
    }

    /// What the split of levels 4–6 is found from: the pool's headroom and balances, the card's
    /// room, day by day.
    struct Split {
        var days: [String]
        var headroom: [Int64]
        var balances: [Int64]
        var room: [Int64]
        var floor: Int64
        var payback: (Int) -> Int

        func answer(at first: Int) -> Answer {
            let payback = payback(first)
            let before = headroom[first..<min(payback, days.count)].min()!
            let after = headroom[min(payback, days.count - 1)...].min()!
            var best = (total: Int64(0), card: Int64(0))
            if min(before, after) >= 0 {
                let cardRoom = max(0, room[first..<min(payback, days.count)].min()!)
                func consider(_ x: Int64) {
                    guard x >= 0 && x <= cardRoom, min(before, after - x) >= 0 else { return }
                    let total = min(before, after - x) + x
                    // Of the best totals, the one with the least from the pool: the most on the card.
                    if total > best.total || (total == best.total && x > best.card) { best = (total, x) }
                }
                let step = max(1, cardRoom / 1_000)
                for x in stride(from: 0, through: cardRoom, by: Int(step)) { consider(x) }
                consider(cardRoom)
                let coarse = best.card
                for x in (coarse - step)...(coarse + step) { consider(x) }
            }
            // The pool once the split is spent: the card's part from its payback on.
            var lowest = first
            var least = Int64.max
            for index in first..<days.count {
                let left = headroom[index] - (best.total - best.card) - (index >= min(payback, days.count - 1) ? best.card : 0)
                if left < least { (least, lowest) = (left, index) }
            }
            let short = headroom[first...].min()!
            return Answer(
                amount: best.total, shortfall: max(0, -short), bindingDay: days[lowest], bindingBalance: balances[lowest], floor: floor,
                card: best.card)
        }
    }

    func split(level: Int, through last: String, _ forecastCase: Case) -> Split {
        precondition(sample.cards.count == 1, "the reference splits one card")
        let card = sample.cards[0]
        let days = Self.days(from: Self.today, through: last)
        let pool = accounts(level: level).subtracting([card.account])
        let floor = floor(of: pool)
        let balances = self.balances(of: pool, through: last, forecastCase)
        let room = self.balances(of: [card.account], through: last, forecastCase).map { $0 - floors[card.account]! }
        return Split(
            days: days, headroom: balances.map { $0 - floor }, balances: balances, room: room, floor: floor,
            payback: { paybackIndex(card, purchaseOn: $0, days: days) })
    }

    /// The day index a purchase on day index `index` is paid back: the card's statement on or
    /// after it (its day clamped to short months) plus `dueAfter` days.
    func paybackIndex(_ card: HouseholdSample.Instrument, purchaseOn index: Int, days: [String]) -> Int {
        let statementDay = card.number("statementDay")!
        var day = Self.number(days[index])
        while true {
            let iso = Self.iso(day)
            let month = Self.daysIn(month: Int(iso.dropFirst(5).prefix(2))!, year: Int(iso.prefix(4))!)
            if Int(iso.suffix(2))! == min(statementDay, month) { break }
            day += 1
        }
        return day + card.number("dueAfter")! - Self.number(days[0])
    }

    /// when by brute force: the first day from which every day's answer (to the horizon) is at least `amount`.
    func when(_ amount: Int64, level: Int = 4, through last: String = defaultHorizon) -> String? {
        let split = split(level: level, through: last, .pessimistic)
        let days = split.days
        let answers = days.indices.map { split.answer(at: $0).amount }
        for start in days.indices where answers[start...].allSatisfy({ $0 >= amount }) { return days[start] }
        return nil
    }

    // MARK: Amounts as the CLI writes them

    /// Minor units as capital writes them in JSON: `-1234.50`.
    static func decimal(_ minor: Int64) -> String {
        let magnitude = minor.magnitude
        let cents = magnitude % 100
        return (minor < 0 ? "-" : "") + "\(magnitude / 100)." + (cents < 10 ? "0\(cents)" : "\(cents)")
    }

    /// Minor units as capital writes them in tables: `129 730.00`.
    static func grouped(_ minor: Int64) -> String {
        let plain = decimal(minor)
        let digits = Array(plain.drop { $0 == "-" }.prefix { $0 != "." })
        var whole = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { whole += " " }
            whole.append(digit)
        }
        return (minor < 0 ? "-" : "") + whole + "." + plain.suffix(2)
    }
}
