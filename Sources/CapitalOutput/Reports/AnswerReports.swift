import CapitalCore
import CapitalKit

package extension Report {
    /// `can-spend`: a row per level; one level's answer in words (and its why) instead of the
    /// table, or with `allLevels` each level's why below it.
    static func canSpend(
        _ answers: [CanSpendAnswer], on day: Day, _ projection: Projection, allLevels: Bool, _ forecastCase: ForecastCase, _ options: RenderOptions
    ) -> Report {
        let money = projection.money
        let columns = [
            Column("level", "Level", numeric: true), Column("name", "Name"), Column("on", "On"), Column("amount", "Can spend", numeric: true),
            Column("bindingDay", "Binding day"), Column("bindingBalance", "Balance there", numeric: true), Column("floor", "Floor", numeric: true),
            Column("shortfall", "Shortfall", numeric: true, tableHidden: true), Column("payWith", "Pay with", tableHidden: true),
        ]
        var rows: [[Cell]] = []
        var objects: [JSON] = []
        var explanations: [String] = []
        for item in answers {
            let (level, answer) = (item.level, item.answer)
            let row: [Cell] = [
                .int(level), .text(Ladder.name(level)), .day(day), .money(money(answer.amount)), .day(answer.bindingDay),
                .money(money(answer.bindingBalance)), .money(money(item.floor)), .money(money(answer.shortfall)),
                .text(payWith(item, projection, plain: true)),
            ]
            rows.append(row)
            var fields = zip(columns, row).filter { $0.0.key != "payWith" }.map { ($0.key, jsonValue($1)) }
            if !answer.parts.isEmpty {
                fields.append(("split", .array(answer.parts.map { json($0, projection) })))
            }
            if Ladder.isForecast(level) { fields.append(("topUp", item.topUp.map { json($0, money) } ?? .null)) }
            if let why = item.why {
                let text =
                    sentence(item, why, on: day, options.shown(money)) + currencySentence(why, projection, options)
                    + cardSentence(answer, projection, on: day)
                explanations.append("level \(level) (\(Ladder.name(level))): \(text)")
                fields.append(("drivers", .array(why.drivers.map { json($0, money) })))
                fields.append(("relief", why.relief.map { json($0, money) } ?? .null))
                fields.append(
                    (
                        "currencies",
                        .array(
                            why.currencies.map { effect in
                                .object([
                                    ("account", .string(effect.account)), ("balance", .string(effect.balance.plain)),
                                    ("currency", .string(effect.balance.currency.code)), ("rate", .string(effect.rate.perUnit.description)),
                                    ("rateDay", .string(effect.rate.day.iso)), ("value", .string(money(effect.value).plain)),
                                ])
                            })
                    ))
                fields.append(("why", .string(text)))
            }
            objects.append(.object(fields))
        }
        var report = Report([Section(name: "levels", columns: columns, rows: rows)])
        report.json = allLevels ? .array(objects) : objects.first ?? .null
        if !allLevels, let item = answers.first {
            let amounts = forecastCase == .expected ? "expected" : "pessimistic"
            let shown = options.shown(money(item.answer.amount))
            let pay = payWith(item, projection, plain: false, options)
            report.headline =
                ["You can spend \(shown) on \(day) (level \(item.level), \(Ladder.name(item.level)), \(amounts) amounts, to \(projection.horizon))."]
                + (pay.isEmpty ? [] : ["Pay with: \(pay)."])
                + (item.topUp.map { [$0.sentence(options.shown(money))] } ?? [])
                + explanations.map { $0.replacingOccurrences(of: "level \(item.level) (\(Ladder.name(item.level))): ", with: "Why: ") }
            report.headlineOnly = true
        } else {
            report.footer =
                answers.compactMap { item in
                    let pay = payWith(item, projection, plain: false, options)
                    return item.answer.parts.count > 1 && !pay.isEmpty ? "level \(item.level) (\(Ladder.name(item.level))) pays with: \(pay)" : nil
                }
                + answers.compactMap { item in
                    item.topUp.map { "level \(item.level) (\(Ladder.name(item.level))): " + $0.sentence(options.shown(money)) }
                } + explanations
        }
        return report
    }

    /// How to pay an answer, in words (`CanSpendAnswer.payWith`); `plain`: amounts as CSV writes
    /// them, each part `account amount`, joined by `; `.
    static func payWith(_ item: CanSpendAnswer, _ projection: Projection, plain: Bool, _ options: RenderOptions = RenderOptions()) -> String {
        guard plain else { return item.payWith(options.shown(projection.money)) }
        return zip(item.answer.parts, item.payers).filter { $0.0.amount > 0 }.map { "\($1) \(projection.money($0.amount).plain)" }
            .joined(separator: "; ")
    }

    /// A top-up as JSON: `{"amount", "by", "moves": [{"from", "to", "amount", "by"}], "uncovered"}`.
    private static func json(_ topUp: TopUp, _ money: (Int64) -> Money) -> JSON {
        .object([
            ("amount", .string(money(topUp.amount).plain)), ("by", .string(topUp.by.iso)),
            (
                "moves",
                .array(
                    topUp.moves.map {
                        .object([
                            ("from", .string($0.from)), ("to", .string($0.to)), ("amount", .string(money($0.amount).plain)),
                            ("by", .string($0.by.iso)),
                        ])
                    })
            ),
            ("uncovered", .string(money(topUp.uncovered).plain)),
        ])
    }

    /// One part of a split as JSON: `{"account", "amount", "kind", "binds", "bindingDay", "payback"}`.
    private static func json(_ part: SpendPart, _ projection: Projection) -> JSON {
        let accounts = projection.timeline.accounts
        let name = accounts.indices.contains(part.account) ? accounts[part.account].name : ""
        let (binds, day) = bindingWords(part.binding)
        return .object([
            ("account", .string(name)), ("amount", .string(projection.money(part.amount).plain)), ("kind", .string(part.isCard ? "card" : "pool")),
            ("binds", .string(part.outsidePool ? (binds == "payback" ? "paying-account" : binds == "limit" ? "limit-alone" : binds) : binds)),
            ("bindingDay", day.map { .string($0.iso) } ?? .null),
            ("payback", part.payback.map { .string($0.iso) } ?? .null),
        ])
    }

    /// A binding's key in JSON and its day.
    private static func bindingWords(_ binding: SpendPart.Binding) -> (String, Day?) {
        switch binding {
        case .pool(let day): ("pool", day)
        case .limit(let day): ("limit", day)
        case .payback(let day): ("payback", day)
        case .overLimit(let day): ("over-limit", day)
        case .repayments(let day): ("repayments", day)
        case .notCounted: ("not-counted", nil)
        }
    }

    /// What binds each card's part, in words, after the pool's why.
    /// A pool short already binds every card too: the why's own words say so, and the cards say nothing.
    private static func cardSentence(_ answer: Availability.Answer, _ projection: Projection, on day: Day) -> String {
        let accounts = projection.timeline.accounts
        let horizon = projection.horizon
        let cards = answer.parts.filter { part in
            guard part.isCard, accounts.indices.contains(part.account) else { return false }
            if case .pool = part.binding { return false }
            return true
        }
        guard !cards.isEmpty else { return "" }
        /// `on 2025-05-15`, or for a payback after the horizon what it is counted as.
        func paid(_ part: SpendPart) -> String {
            guard let payback = part.payback else { return "" }
            return payback > horizon ? "on \(payback), after the horizon (counted on its last day)" : "on \(payback)"
        }
        return "; "
            + cards.map { part in
                let name = accounts[part.account].name
                switch part.binding {
                case .limit(let limitDay) where part.outsidePool:
                    return "\(name) is paid back from outside the level: its limit binds on \(limitDay)"
                case .payback where part.outsidePool:
                    return "\(name) is paid back from outside the level: what its paying account can pay after its payback \(paid(part)) binds"
                case .limit(let limitDay):
                    return "\(name): its limit binds on \(limitDay), before its payback \(paid(part))"
                case .payback:
                    return "\(name): paid back \(paid(part)), when the pool pays for it"
                case .overLimit(let overDay):
                    return "\(name) is over its limit on \(overDay): nothing more fits on it"
                case .repayments(let poolDay):
                    return "\(name) is paid back by its minimum or fixed amount, first \(paid(part)): those payments, with interest, "
                        + "bind the pool on \(poolDay)"
                case .notCounted:
                    return "\(name) is paid back by a minimum or fixed amount: its credit is not counted"
                case .pool:
                    return name
                }
            }.joined(separator: "; ")
    }

    /// What the why says of accounts in other currencies: each one's balance on the binding day,
    /// the rate it is counted at (and when that is the look-back's lowest or highest, not the
    /// day's), its value.
    private static func currencySentence(_ why: CanSpendAnswer.Why, _ projection: Projection, _ options: RenderOptions) -> String {
        guard !why.currencies.isEmpty else { return "" }
        return "; "
            + why.currencies.map { effect in
                let code = effect.balance.currency.code
                return
                    "\(effect.account) \(options.shown(effect.balance)) \(code) counted at \(effect.rate.perUnit.description) (\(effect.whichRate)): "
                    + "\(options.shown(projection.money(effect.value)))"
            }.joined(separator: ", ")
    }

    /// The why in words: the binding day, its drivers, and what lifts it.
    private static func sentence(_ item: CanSpendAnswer, _ why: CanSpendAnswer.Why, on day: Day, _ shown: (Int64) -> String) -> String {
        let answer = item.answer
        let monthDay = dayNames(from: day, why.drivers.map(\.day) + [why.relief?.day].compactMap { $0 })
        var text = "binding on \(answer.bindingDay) (balance \(shown(answer.bindingBalance))"
        if item.floor != 0 { text += ", floor \(shown(item.floor))" }
        text += ")"
        if answer.shortfall > 0 { text += "; it is \(shown(answer.shortfall)) below the floor, so nothing can be spent" }
        if why.countsThatDayOnly { return text + "; level \(item.level) counts that day's balance only" }
        if !why.drivers.isEmpty {
            text += ": " + why.drivers.map { "\($0.label) \(shown(-$0.amount)) on \(monthDay($0.day))" }.joined(separator: ", ")
        }
        if let relief = why.relief {
            text += "; \(relief.label) \(shown(relief.amount)) on \(monthDay(relief.day)) lifts it"
        } else if why.bindsAtHorizon {
            text += "; the horizon ends there: look further with --until"
        }
        return text
    }

    /// `when`: the first day the amount can be spent from, in words, or how short it stays.
    static func when(_ answer: WhenAnswer, level: Int, _ projection: Projection, _ options: RenderOptions) -> Report {
        let (money, day, shortfall) = (answer.amount, answer.day, answer.shortfall)
        var report = Report([
            Section(
                name: "when",
                columns: [
                    Column("amount", "Amount", numeric: true), Column("level", "Level", numeric: true), Column("day", "Day"),
                    Column("shortfall", "Shortfall", numeric: true), Column("horizon", "Horizon"),
                ],
                rows: [[.money(money), .int(level), day.map { .day($0) } ?? .none, .money(projection.money(shortfall)), .day(projection.horizon)]])
        ])
        report.json = .object([
            ("amount", .string(money.plain)), ("level", .number(String(level))), ("day", day.map { .string($0.iso) } ?? .null),
            ("shortfall", .string(projection.money(shortfall).plain)), ("horizon", .string(projection.horizon.iso)),
        ])
        let shown = options.shown(money)
        report.headline = [
            day.map {
                "\(shown) \(money.currency.code) can be spent from \($0) on (level \(level), \(Ladder.name(level))) and stays affordable to \(projection.horizon)."
            }
                ?? "Not before the horizon \(projection.horizon): at level \(level) (\(Ladder.name(level))) \(shown) stays \(options.shown(projection.money(shortfall))) short. Look further with --until."
        ]
        report.headlineOnly = true
        return report
    }

    /// `forecast`: a row per period, its heading above; JSON writes what the periods are of
    /// (currency, level or account or group, case, days) before them, CSV a currency on each row.
    /// A forecast level (4–6) adds each period's exact answer on its first day (`canSpend`), and
    /// below the table (in JSON beside the periods) the first day's answer and how to pay it.
    static func forecast(
        _ forecast: ForecastReport, _ projection: Projection, account: Bool, group: Bool, _ options: RenderOptions = RenderOptions()
    ) -> Report {
        let timeline = projection.timeline
        let pool = forecast.pool
        let currency = pool.currency
        func money(_ minor: Int64) -> Money { Money(minor: minor, currency: currency) }
        // Accounts in other currencies valued in the pool's: what rates added, a column of its own.
        let valued = pool.values(in: timeline)
        var columns = [
            Column("start", "Start"), Column("end", "End"), Column("opening", "Opening", numeric: true), Column("inflow", "In", numeric: true),
            Column("outflow", "Out", numeric: true),
        ]
        if valued { columns.append(Column("revaluation", "Rates", numeric: true)) }
        columns += [
            Column("closing", "Closing", numeric: true), Column("min", "Min", numeric: true), Column("minDay", "Min day"),
        ]
        let spendable = forecast.spendable.count == forecast.periods.count ? forecast.spendable : []
        if !spendable.isEmpty { columns.append(Column("canSpend", "Can spend", numeric: true)) }
        columns.append(Column("currency", "Cur", tableHidden: true, jsonHidden: true))
        var section = Section(name: "periods", columns: columns)
        section.rows = forecast.periods.indices.map { index in
            let period = forecast.periods[index]
            return [
                .day(period.start), .day(period.end), .money(money(period.opening)), .money(money(period.inflow)), .money(money(period.outflow)),
            ]
                + (valued ? [.money(money(period.revaluation))] : [])
                + [.money(money(period.closing)), .money(money(period.minimum)), .day(period.minimumDay)]
                + (spendable.isEmpty ? [] : [.money(money(spendable[index].amount))]) + [.text(currency.code)]
        }
        var sections = [section]
        if !forecast.currencies.isEmpty {
            var parts = Section(
                name: "currencies", title: "By currency (value in \(currency.code))",
                columns: [
                    Column("start", "Start"), Column("end", "End"), Column("currency", "Cur"), Column("opening", "Opening", numeric: true),
                    Column("inflow", "In", numeric: true), Column("outflow", "Out", numeric: true), Column("closing", "Closing", numeric: true),
                    Column("value", "Value", numeric: true),
                ])
            parts.rows = forecast.currencies.map { part in
                func native(_ minor: Int64) -> Cell { .money(Money(minor: minor, currency: part.currency)) }
                return [
                    .day(part.start), .day(part.end), .text(part.currency.code), native(part.opening), native(part.inflow), native(part.outflow),
                    native(part.closing), .money(money(part.value)),
                ]
            }
            section.title = "Periods (in \(currency.code))"
            sections = [section, parts]
        }
        var report = Report(sections)
        var fields: [(String, JSON)] = [
            ("currency", .string(currency.code)), ("level", pool.level.map { .number(String($0)) } ?? .null),
            ("account", account ? .string(pool.name) : .null), ("group", group ? .string(pool.name) : .null),
            ("case", .string(forecast.forecastCase == .expected ? "expected" : "pessimistic")),
            ("from", .string(timeline.today.iso)), ("until", .string(timeline.horizon.iso)),
        ]
        if let item = forecast.canSpend {
            let answer = item.answer
            fields.append(
                (
                    "canSpend",
                    .object([
                        ("on", .string(answer.day.iso)), ("amount", .string(money(answer.amount).plain)),
                        ("shortfall", .string(money(answer.shortfall).plain)), ("bindingDay", .string(answer.bindingDay.iso)),
                        ("split", .array(answer.parts.map { json($0, projection) })),
                    ])
                ))
            let pay = payWith(item, projection, plain: false, options)
            report.footer =
                ["Can spend on \(answer.day): \(options.shown(money(answer.amount))) \(currency.code), bound on \(answer.bindingDay)."]
                + (pay.isEmpty ? [] : ["Pay with: \(pay)."]) + (item.topUp.map { [$0.sentence(options.shown(projection.money))] } ?? [])
        }
        report.envelope = Envelope(fields: fields)
        let amounts = forecast.forecastCase == .expected ? "expected amounts" : "pessimistic amounts (--expected for expected)"
        report.headline = ["Forecast of \(pool.title), \(timeline.today) to \(timeline.horizon), \(amounts), \(currency.code)"]
        return report
    }

    /// How a why names the days of `flows` seen from `start`: `MM-DD` while they all fall in
    /// `start`'s year, the whole date once one of them does not (`2026-01-10`, not `01-10`).
    static func dayNames(from start: Day, _ days: [Day]) -> (Day) -> String {
        let year = start.civil.year
        let crosses = days.contains { $0.civil.year != year }
        return { crosses ? $0.iso : String($0.iso.dropFirst(5)) }
    }
}
