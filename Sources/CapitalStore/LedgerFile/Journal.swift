import CapitalCore

/// An hledger journal of a ledger, such that `hledger register --forecast=TODAY..END -D` shows the
/// daily balances `capital forecast --by day --expected` shows.
///
/// - `commodity` directives fix each currency's decimal mark and digits (`1000.00 RUB`), so no
///   amount reads ambiguously; `account` directives name every account as `ROOT:KIND:NAME`
///   (`assets:debit:VTB Debit`, `liabilities:credit-card:Tinkoff`, `expenses:Groceries`).
/// - `P` directives: every rate, per one unit, so that `hledger balance -X RUB --value=end` values
///   accounts in other currencies as capital does; an exchange's foreign posting carries its cost
///   as an `@@` total price instead of the two postings to Capital that balanced it.
/// - Dated transactions: everything posted; what the instruments, bills, fines and budgets make
///   (a loan account's correction, its payments, card paybacks, deposit interest, value
///   changes), at expected amounts; occurrences due by today and not posted, on today.
/// - Each schedule hledger 1.25 can express exactly becomes a periodic transaction from its first
///   occurrence after today: every N days; every WEEKDAY; every N weeks on Mondays; every Dth day
///   of the month (D ≤ 28); every N months on the 1st; every M/D. hledger then needs the rule to
///   start on its first occurrence (1.25 refuses weekly, monthly or yearly rules starting off a
///   period boundary, and dates some from the period before), and its `to` date is exclusive.
///   Every other schedule — working-day calendars and adjustments, ranged amounts, exceptions,
///   several days a period, days 29–31, occurrences posted in advance — is expanded to dated
///   transactions to the horizon, with a comment saying why.
public enum Journal {
    /// - Parameters:
    ///   - ledger: the stored ledger (`Store.snapshot()`).
    ///   - horizon: the last day (inclusive) dated transactions are written for.
    ///   - header: comment lines to open the journal with (without their `; `): how it was made
    ///     and how to read it, in the front end's words.
    /// - Throws: `InstrumentError` when a loan cannot be laid out.
    public static func write(_ ledger: Ledger, today: Day, horizon: Day, calendars: [String: WorkingDayCalendar], header: [String] = [])
        throws(InstrumentError) -> String
    {
        let forecast = try ledger.forecastLedger(today: today, horizon: horizon, calendars: calendars)
        let names = accountNames(ledger.accounts)
        var out = header.map { "; \($0)\n" }.joined() + (header.isEmpty ? "" : "\n")
        let currencies = Set(ledger.accounts.map(\.currency) + [ledger.currency])
        for currency in currencies.sorted(by: { $0.code < $1.code }) {
            let sample = Money(minor: 1_000 * currency.minorPerMajor, currency: currency).plain
            out += "commodity \(sample) \(currency.code)\n"
        }
        out += "\n"
        for account in ledger.accounts { out += "account \(names[account.id]!)\n" }
        out += "\n"
        // Rates as market prices, per one unit (hledger's -X and --value read them).
        for rate in ledger.rates { out += "P \(rate.day.iso) \(rate.currency.code) \(rate.perUnit) \(ledger.currency.code)\n" }
        if !ledger.rates.isEmpty { out += "\n" }

        // Dated transactions: the forecast ledger's (posted and generated), then what is open today.
        let capital = ledger.accounts.first { $0.kind == .equity && $0.name == Account.capitalName }?.id
        var dated: [(day: Day, text: String)] = forecast.transactions.filter { $0.day <= horizon }.map {
            ($0.day, transaction($0, names, exchangeThrough: capital, ledger: ledger.currency))
        }
        for schedule in ledger.schedules {
            let calendar = calendars[schedule.rule.calendar] ?? .none
            let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
            for occurrence in schedule.openOccurrences(dueBy: today, state: state, calendar: calendar) {
                dated.append((today, entry(today, schedule.name, "due \(occurrence.day), not posted", occurrence.postings, names)))
            }
        }
        // Schedules from tomorrow: periodic where hledger can say it exactly, else dated.
        var periodic = ""
        let tomorrow = today.advanced(by: 1)
        if tomorrow <= horizon {
            for schedule in ledger.schedules {
                let calendar = calendars[schedule.rule.calendar] ?? .none
                let state = ledger.scheduleStates[schedule.id] ?? ScheduleState(handledThrough: schedule.start.advanced(by: -1))
                let ahead = schedule.occurrences(in: DayRange(tomorrow, horizon.advanced(by: 1)), calendar: calendar)
                guard let first = ahead.first else { continue }
                switch periodicRule(schedule, first: first.day, state: state, tomorrow: tomorrow) {
                case .success(let rule):
                    periodic += "~ \(rule)  \(clean(schedule.name))\n" + postings(schedule.postings, names) + "\n"
                case .failure(let reason):
                    for occurrence in ahead where state.isOpen(occurrence.original) {
                        dated.append((occurrence.day, entry(occurrence.day, schedule.name, "expanded: \(reason.text)", occurrence.postings, names)))
                    }
                }
            }
        }
        // Stable order: by day, then as made.
        for item in dated.enumerated().sorted(by: { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }) { out += item.element.text }
        if !periodic.isEmpty { out += "; Schedules hledger can express, from their first occurrence after \(today):\n\n" + periodic }
        return out
    }

    /// Why a schedule is not a periodic transaction.
    struct NotPeriodic: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// The periodic expression (`every 25th day of month from 2025-04-25 to 2026-01-01`) of a
    /// schedule whose first occurrence from tomorrow is `first`, or why there is none.
    static func periodicRule(_ schedule: Schedule, first: Day, state: ScheduleState, tomorrow: Day) -> Result<String, NotPeriodic> {
        let rule = schedule.rule.recurrence
        guard schedule.rule.setParts.isEmpty else { return .failure(NotPeriodic("a rule set (RDATE, EXDATE, EXRULE)")) }
        guard schedule.rule.adjustment == .none else { return .failure(NotPeriodic("a business-day adjustment")) }
        guard schedule.amount == nil || schedule.amount!.low == schedule.amount!.high else { return .failure(NotPeriodic("a ranged amount")) }
        guard !schedule.exceptions.contains(where: { $0.original >= tomorrow || ($0.movedTo ?? $0.original) >= tomorrow }) else {
            return .failure(NotPeriodic("exceptions"))
        }
        guard state.handledThrough < tomorrow, !state.posted.contains(where: { $0 >= tomorrow }) else {
            return .failure(NotPeriodic("occurrences posted in advance"))
        }
        guard rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.bySetPos.isEmpty else {
            return .failure(NotPeriodic("a rule hledger has no words for"))
        }
        let civil = first.civil
        func ordinal(_ n: Int) -> String {
            let suffix = (11...13).contains(n % 100) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th"
            return "\(n)\(suffix)"
        }
        let period: String
        switch rule.frequency {
        case .daily:
            guard rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byMonth.isEmpty else {
                return .failure(NotPeriodic("a daily rule with BY parts"))
            }
            period = rule.interval == 1 ? "daily" : "every \(rule.interval) days"
        case .weekly:
            guard rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.byDay.count <= 1, rule.byDay.first?.ordinal == nil else {
                return .failure(NotPeriodic("several days a week"))
            }
            if rule.interval == 1 {
                let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
                period = "every \(names[first.weekday.rawValue - 1])"
            } else {
                guard first.weekday == .monday else { return .failure(NotPeriodic("every \(rule.interval) weeks off a Monday")) }
                period = "every \(rule.interval) weeks"
            }
        case .monthly:
            guard rule.byDay.isEmpty, rule.byMonth.isEmpty, rule.byMonthDay.count <= 1 else { return .failure(NotPeriodic("several days a month")) }
            guard civil.day <= 28, rule.byMonthDay.allSatisfy({ $0 == civil.day }) else {
                return .failure(NotPeriodic("a day of the month past the 28th"))
            }
            if rule.interval == 1 {
                period = "every \(ordinal(civil.day)) day of month"
            } else {
                guard civil.day == 1 else { return .failure(NotPeriodic("every \(rule.interval) months off the 1st")) }
                period = "every \(rule.interval) months"
            }
        case .yearly:
            guard rule.interval == 1, rule.byDay.isEmpty, rule.byMonth.count <= 1, rule.byMonthDay.count <= 1 else {
                return .failure(NotPeriodic("a yearly rule with several days"))
            }
            guard civil.day <= 28 else { return .failure(NotPeriodic("a day of the month past the 28th")) }
            period = "every \(civil.month)/\(civil.day)"
        }
        // The last occurrence: the schedule's end, UNTIL, or COUNT's last.
        var last: Day? = schedule.end
        if let until = rule.until { last = min(last ?? until, until) }
        // COUNT would need its last occurrence worked out; the schedule is expanded instead.
        if rule.count != nil { return .failure(NotPeriodic("a count")) }
        return .success("\(period) from \(first.iso)" + (last.map { " to \($0.advanced(by: 1).iso)" } ?? ""))
    }

    /// hledger account names: `ROOT:KIND:NAME` for balance-sheet accounts, `ROOT:NAME` for
    /// categories and equity; colons and runs of spaces in names become single `-` and spaces.
    static func accountNames(_ accounts: [Account]) -> [String: String] {
        var result: [String: String] = [:]
        var taken: Set<String> = []
        for account in accounts {
            let root: String
            switch account.kind {
            case .cash, .debit, .deposit, .receivable, .fixedAsset: root = "assets:\(account.kind.rawValue)"
            case .creditCard, .loan, .payable: root = "liabilities:\(account.kind.rawValue)"
            case .income: root = "income"
            case .expense: root = "expenses"
            case .equity: root = "equity"
            }
            var name = "\(root):\(clean(account.name).replacingColons())"
            if taken.contains(name) { name += " (\(account.id.prefix(8)))" }
            taken.insert(name)
            result[account.id] = name
        }
        return result
    }

    /// Text on one line with single spaces: two spaces end an account name or a description in
    /// a journal, a line break ends the entry.
    static func clean(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static func transaction(_ transaction: Transaction, _ names: [String: String], exchangeThrough capital: String? = nil, ledger: Currency? = nil)
        -> String
    {
        var comment = transaction.note
        if !transaction.tags.isEmpty { comment += (comment.isEmpty ? "" : " ") + transaction.tags.map { "\($0):" }.joined(separator: ", ") }
        if let capital, let ledger, let priced = exchange(transaction, capital: capital, ledger: ledger, names) {
            var text = transaction.day.iso + (transaction.payee.isEmpty ? "" : " " + clean(transaction.payee))
            if !comment.isEmpty { text += "  ; " + clean(comment) }
            return text + "\n" + priced + "\n"
        }
        return entry(transaction.day, transaction.payee, comment, transaction.postings, names)
    }

    /// An exchange (`capital exchange`, a quick entry across currencies, `tx add` with a price)
    /// the hledger way: the posting in the other currency carries its cost in the ledger's as an
    /// `@@` total price, and the two postings to Capital that balanced it per currency are left out.
    /// Nil for any other transaction (Capital's postings are then written as they are).
    static func exchange(_ transaction: Transaction, capital: String, ledger: Currency, _ names: [String: String]) -> String? {
        let own = transaction.postings.filter { $0.accountID == capital }
        let rest = transaction.postings.filter { $0.accountID != capital }
        guard own.count == 2, let cost = own.first(where: { $0.amount.currency == ledger }),
            let foreign = own.first(where: { $0.amount.currency != ledger }),
            case let bought = rest.filter({ $0.amount.currency == foreign.amount.currency }), bought.count == 1,
            bought[0].amount.minor == -foreign.amount.minor,
            rest.allSatisfy({ $0.amount.currency == ledger || $0.amount.currency == foreign.amount.currency }),
            cost.amount.minor != 0
        else { return nil }
        let price = Money(minor: abs(cost.amount.minor), currency: ledger)
        return rest.map { posting in
            let line = "    \(names[posting.accountID] ?? posting.accountID)  \(posting.amount.plain) \(posting.amount.currency.code)"
            return line + (posting.amount.currency == ledger ? "" : " @@ \(price.plain) \(ledger.code)") + "\n"
        }.joined()
    }

    static func entry(_ day: Day, _ description: String, _ comment: String, _ lines: [Posting], _ names: [String: String]) -> String {
        var text = day.iso + (description.isEmpty ? "" : " " + clean(description))
        if !comment.isEmpty { text += "  ; " + clean(comment) }
        return text + "\n" + postings(lines, names) + "\n"
    }

    static func postings(_ lines: [Posting], _ names: [String: String]) -> String {
        lines.map { "    \(names[$0.accountID] ?? $0.accountID)  \($0.amount.plain) \($0.amount.currency.code)\n" }.joined()
    }
}

extension String {
    /// `:` separates account levels in a journal.
    fileprivate func replacingColons() -> String { split(separator: ":", omittingEmptySubsequences: false).joined(separator: "-") }
}
