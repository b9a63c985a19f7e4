import CapitalCore
import CapitalKit
import CapitalStore

/// The household's overview as one self-contained HTML page: inline CSS and SVG, a small
/// optional script, nothing fetched. Renders an `Overview`; decides nothing.
///
/// The page is also well-formed XML (void elements closed, the five markup characters escaped),
/// so that it can be checked by any XML parser.
public struct ReportPage: Sendable {
    public var overview: Overview
    public var today: Day
    public var horizon: Day
    public var currency: Currency
    /// What the ledger is called on the page (its file or database).
    public var ledger: String
    public var theme: ReportTheme
    public var hideAmounts: Bool
    /// What made it (`capital 1.4.0`).
    public var generator: String
    /// What a live page (the server's) adds, already HTML, escaped by whoever made it: `top`
    /// before the title (navigation), `beforeAnswer` after the title, `afterAnswer` after the
    /// answer; `style` for them. None in a report written to a file.
    public var live = Live()

    public struct Live: Sendable {
        public var top = ""
        public var beforeAnswer = ""
        public var afterAnswer = ""
        public var style = ""
        public init(top: String = "", beforeAnswer: String = "", afterAnswer: String = "", style: String = "") {
            (self.top, self.beforeAnswer, self.afterAnswer, self.style) = (top, beforeAnswer, afterAnswer, style)
        }
    }

    public init(
        _ overview: Overview, today: Day, horizon: Day, currency: Currency, ledger: String, theme: ReportTheme = .auto, hideAmounts: Bool = false,
        generator: String
    ) {
        self.overview = overview
        self.today = today
        self.horizon = horizon
        self.currency = currency
        self.ledger = ledger
        self.theme = theme
        self.hideAmounts = hideAmounts
        self.generator = generator
    }

    var amounts: Amounts { Amounts(currency: currency, hidden: hideAmounts) }

    /// The page.
    public func html() -> String {
        var body =
            live.top + header() + live.beforeAnswer + headline() + live.afterAnswer + chartSection() + ladder() + upcoming() + dues() + budgets()
            + spending() + loansAndCards()
            + depositsAndAssets()
        if let scenarios = overview.scenarios { body += self.scenarios(scenarios) }
        body += HTML.element(
            "footer", [],
            HTML.escape("Made by \(generator) from \(ledger) on \(today.iso). Amounts in \(currency.code); \(caseWords).")
                + " Nothing on this page was fetched from elsewhere.")
        var page = "<!DOCTYPE html>\n<html lang=\"en\" data-theme=\"\(theme.rawValue)\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        page += "<meta name=\"generator\" content=\"\(HTML.escape(generator))\"/>\n"
        page += HTML.element("title", [], HTML.escape("How much can I spend — \(ledger), \(today.iso)")) + "\n"
        page += "<style>" + style + "</style>\n</head>\n<body>\n<main>\n" + body + "\n</main>\n"
        if let script { page += "<script>" + script + "</script>\n" }
        return page + "</body>\n</html>\n"
    }

    /// The page's inline style sheet and script, exactly as written in it: what a server allows
    /// by their hashes in a Content-Security-Policy (and nothing else).
    public var style: String { ReportStyle.css(theme: theme) + live.style }
    public var script: String? { hideAmounts ? nil : ReportStyle.script }

    var caseWords: String {
        switch overview.forecastCase {
        case .pessimistic: "ranged amounts at their pessimistic ends"
        case .expected: "ranged amounts at their expected values"
        case .optimistic: "ranged amounts at their optimistic ends"
        }
    }

    var levelWords: String { "level \(overview.pool.level ?? Ladder.defaultLevel) (\(Ladder.name(overview.pool.level ?? Ladder.defaultLevel)))" }

    // MARK: Parts

    func header() -> String {
        HTML.element("h1", [], "How much can I spend")
            + HTML.element(
                "p", [("class", "meta")],
                HTML.escape("Ledger \(ledger) · ") + day("today \(today.iso)") + " · " + day("horizon \(horizon.iso)") + " · "
                    + HTML.escape("\(levelWords) · \(caseWords)"))
    }

    func headline() -> String {
        let answer = overview.canSpend.answer
        var out = "<section class=\"headline\" aria-label=\"The answer\">"
        out += HTML.element("p", [], "You can spend today")
        out += HTML.element(
            "p", [("class", "answer"), ("id", "can-spend"), ("data-value", amounts.data(answer.amount))],
            HTML.escape(amounts.text(answer.amount)) + " " + HTML.escape(currency.code))
        let floor = overview.canSpend.floor
        out += HTML.element(
            "p", [],
            "without going below the floor of " + money(floor, id: "floor") + " later, to " + HTML.escape(horizon.iso) + ". The binding day is "
                + HTML.element("strong", [("id", "binding-day")], answer.bindingDay.iso) + ", with a balance of "
                + money(answer.bindingBalance, id: "binding-balance") + " there.")
        let pay = overview.canSpend.payWith { amounts.text($0) }
        if !pay.isEmpty { out += HTML.element("p", [("class", "pay-with"), ("id", "pay-with")], HTML.escape("Pay with: \(pay).")) }
        if let topUp = overview.canSpend.topUp {
            out += HTML.element("p", [("class", "top-up"), ("id", "top-up")], HTML.escape(topUp.sentence { amounts.text($0) }))
        }
        if let why = overview.canSpend.why, !why.countsThatDayOnly {
            var items = why.drivers.map { event in
                HTML.element("li", [], HTML.escape(event.label) + " " + money(event.amount, signed: true) + " on " + HTML.escape(event.day.iso))
            }
            if items.isEmpty { items = [HTML.element("li", [], "No outflow drives it down: the balance starts at its lowest.")] }
            out +=
                HTML.element("p", [("class", "why")], "What drives the balance down to it:") + HTML.element("ul", [("class", "why")], items.joined())
            if let relief = why.relief {
                out += HTML.element(
                    "p", [],
                    "What lifts it after: " + HTML.escape(relief.label) + " " + money(relief.amount, signed: true) + " on "
                        + HTML.escape(relief.day.iso) + ".")
            } else if why.bindsAtHorizon {
                out += HTML.element("p", [("class", "note")], "It binds on the horizon: a later horizon could bind lower.")
            }
        }
        if let effects = overview.canSpend.why?.currencies, !effects.isEmpty {
            let items = effects.map { effect in
                HTML.element(
                    "li", [],
                    HTML.escape(effect.account) + " "
                        + HTML.escape(Amounts(currency: effect.balance.currency, hidden: hideAmounts).text(effect.balance.minor))
                        + " " + HTML.escape(effect.balance.currency.code) + " at " + HTML.escape(effect.rate.perUnit.description) + " ("
                        + HTML.escape(effect.whichRate) + "): " + money(effect.value))
            }
            out +=
                HTML.element("p", [("class", "why")], "Counted in \(currency.code) on the binding day:")
                + HTML.element("ul", [("class", "why currencies"), ("id", "currencies")], items.joined())
        }
        if !overview.staleRates.isEmpty {
            let named = overview.staleRates.map(\.named)
            out += HTML.element(
                "p", [("class", "note"), ("id", "stale-rates")],
                HTML.escape("Valued with rates older than \(StaleRate.maximumAge) days: \(named.joined(separator: ", ")).")
                    + " Newer rates make it exact.")
        }
        if !overview.affordable.isEmpty {
            let items = overview.affordable.map { when -> String in
                let from =
                    when.day.map { "from " + HTML.element("strong", [("data-day", $0.iso)], $0.iso) }
                    ?? "not before " + HTML.escape(horizon.iso) + " (short by " + money(when.shortfall) + ")"
                return HTML.element("li", [], money(when.amount.minor) + " " + from)
            }
            out +=
                HTML.element("p", [("class", "why")], "When larger amounts become affordable:")
                + HTML.element("ul", [("class", "affordable")], items.joined())
        }
        return out + "</section>"
    }

    func chartSection() -> String {
        let forecast = overview.forecast
        let chart = BalanceChart.of(
            forecast, today: today, band: overview.band, binding: overview.canSpend.answer, landmarks: overview.landmarks, amounts: amounts)
        var out = "<section aria-labelledby=\"chart-heading\">" + HTML.element("h2", [("id", "chart-heading")], "Balance to the horizon")
        out += "<figure>" + chart.svg()
        out += HTML.element("p", [("class", "readout"), ("id", "balance-readout"), ("aria-live", "polite")], "")
        var legend = [
            "<span><span class=\"swatch line\"></span>balance of \(HTML.escape(levelWords)) in \(currency.code)</span>",
            "<span><span class=\"swatch floor\"></span>floor</span>", "<span><span class=\"swatch binding\"></span>binding day</span>",
        ]
        if overview.band != nil { legend.insert("<span><span class=\"swatch band\"></span>pessimistic to optimistic</span>", at: 1) }
        out += HTML.element("div", [("class", "legend")], legend.joined())
        out += HTML.element("figcaption", [], HTML.escape(chart.summary))
        out += "</figure>"
        if !overview.landmarks.isEmpty {
            let keys = overview.landmarks.map { event in
                HTML.element("li", [], HTML.escape(event.label) + " " + money(event.amount, signed: true) + " on " + HTML.escape(event.day.iso))
            }
            out += HTML.element("ol", [("class", "keys"), ("aria-label", "Marked flows")], keys.joined())
        }
        // Accounts in other currencies valued into the level: what rates added, a column of its own.
        let valued = overview.valuesOtherCurrencies
        let rows = forecast.periods.map { period in
            [HTML.escape(Self.monthTitle(period.start)), moneyCell(period.opening), moneyCell(period.inflow), moneyCell(period.outflow)]
                + (valued ? [moneyCell(period.revaluation)] : [])
                + [moneyCell(period.closing), moneyCell(period.minimum), day(period.minimumDay.iso)]
        }
        let headings = ["Month", "Opening", "In", "Out"] + (valued ? ["Rates"] : []) + ["Closing", "Lowest", "Lowest on"]
        out += details(
            "The chart's numbers, month by month",
            table(headings, numeric: Set(1...(valued ? 6 : 5)), rows, id: "forecast-table"))
        if !hideAmounts {
            out += "<script type=\"application/json\" id=\"balance-data\">"
            out += "{\"start\":\(Int64(today.number) * 86_400_000),\"exponent\":\(currency.exponent),"
            out +=
                "\"width\":\(chart.width),\"left\":\(Int(BalanceChart.margin.left)),\"plot\":\(chart.plotWidth),\"last\":\(max(1, forecast.balances.count - 1)),"
            out += "\"columns\":\(chart.readoutJSON)}</script>"
        }
        return out + "</section>"
    }

    func ladder() -> String {
        let rows = overview.ladder.map { step in
            [
                String(step.level), HTML.escape(Ladder.name(step.level)), moneyCell(step.balanceToday), moneyCell(step.balanceAtHorizon),
                moneyCell(step.canSpend), moneyCell(step.floor),
            ]
        }
        return section(
            "ladder", "The ladder: six answers from cash to net worth",
            table(
                ["Level", "Name", "Today", "At \(horizon.iso)", "Can spend today", "Floor"], numeric: [0, 2, 3, 4, 5], optional: [3, 5], rows,
                id: "ladder-table"))
    }

    func upcoming() -> String {
        let entries = overview.upcoming
        var rows: [[String]] = []
        var classes: [String?] = []
        for upcoming in entries {
            let flow = upcoming.entry.flow
            rows.append([
                day(flow.day.iso) + (upcoming.overdue ? " overdue" : ""), HTML.escape(flow.payee), HTML.escape(flow.kind.rawValue),
                upcoming.net != 0
                    ? moneyCell(upcoming.net, signed: true)
                    : moneyCell(flow.amount)
                        + HTML.element(
                            "span", [("class", "aside")],
                            upcoming.touches ? "between its accounts" : "not in level \(overview.pool.level ?? Ladder.defaultLevel)"),
            ])
            classes.append(upcoming.overdue ? "overdue" : nil)
        }
        let body =
            rows.isEmpty
            ? HTML.element("p", [("class", "empty")], "Nothing is expected in the next 30 days, and nothing is overdue.")
            : table(["Date", "Flow", "Kind", "Amount"], numeric: [3], optional: [2], rows, rowClasses: classes, id: "upcoming-table")
        return section("upcoming", "The next 30 days", body)
    }

    func dues() -> String {
        var rows: [[String]] = []
        var classes: [String?] = []
        for due in overview.dues {
            let days = due.dueDay.number - today.number
            let when = days < 0 ? "\(-days) days overdue" : days == 0 ? "today" : days == 1 ? "tomorrow" : "in \(days) days"
            rows.append([
                String(due.number), HTML.escape(due.type.rawValue), HTML.escape(due.reason), day(due.dueDay.iso), HTML.escape(when),
                moneyCell(due.left, currency: due.currency), HTML.escape(due.status.rawValue),
            ])
            classes.append(days < 0 ? "overdue" : nil)
        }
        let body =
            rows.isEmpty
            ? HTML.element("p", [("class", "empty")], "No bill or fine is waiting.")
            : table(
                ["#", "Type", "Reason", "Due", "When", "Left", "Status"], numeric: [5], optional: [1, 3, 6], rows, rowClasses: classes,
                id: "dues-table")
        return section("dues", "Bills and fines, most urgent first", body)
    }

    func budgets() -> String {
        guard !overview.budgets.isEmpty else { return section("budgets", "Budgets", HTML.element("p", [("class", "empty")], "No budgets are set.")) }
        let rows = overview.budgets.map { line -> [String] in
            let status = line.status
            let share = status.limit > 0 ? min(1, Double(status.spent) / Double(status.limit)) : 1
            let projected = status.limit > 0 ? min(1, Double(status.projected) / Double(status.limit)) : 1
            let bar =
                "<div class=\"bar\" role=\"img\" aria-label=\"\(HTML.escape("\(percent(status.spent, of: status.limit)) of the limit spent"))\">"
                + HTML.element("span", [("class", status.isOver ? "over" : nil), ("style", "width:\(SVGNumber.text(share * 100))%")], "")
                + HTML.element("i", [("style", "left:\(SVGNumber.text(projected * 100))%"), ("title", "projected")], "") + "</div>"
            return [
                HTML.escape(line.category.name), day(line.period.start.iso) + " to " + day(line.period.end.advanced(by: -1).iso), bar,
                moneyCell(status.spent, currency: line.category.currency), moneyCell(status.limit, currency: line.category.currency),
                moneyCell(status.left, currency: line.category.currency), moneyCell(status.projected, currency: line.category.currency),
            ]
        }
        return section(
            "budgets", "Budgets",
            table(
                ["Category", "Period", "Spent of the limit", "Spent", "Limit", "Left", "Projected"], numeric: [3, 4, 5, 6], optional: [1, 4, 6], rows,
                id: "budgets-table")
                + HTML.element("p", [("class", "note")], "The mark on each bar is where the period ends at the pace so far."))
    }

    func spending() -> String {
        let comparison = overview.spending
        let categories = comparison.categories.filter { $0.figures.thisMonth != 0 || $0.figures.lastMonth != 0 }
        let title = "Spending this month against last month"
        guard !categories.isEmpty else {
            return section("spending", title, HTML.element("p", [("class", "empty")], "No spending this month or last."))
        }
        let largest = categories.map { max($0.figures.thisMonth, $0.figures.lastMonth) }.max() ?? 1
        let rows = categories.map { category -> [String] in
            let figures = category.figures
            let bars =
                "<div class=\"pair\" role=\"img\" aria-label=\"this month against last month\">"
                + bar(figures.thisMonth, of: largest, class: nil) + bar(figures.lastMonth, of: largest, class: "last") + "</div>"
            return [
                HTML.escape(category.name), bars, moneyCell(figures.thisMonth), moneyCell(figures.lastMonth),
                moneyCell(figures.changeFromLastMonth, signed: true, tone: false),
            ]
        }
        let total = comparison.total
        let footer = [
            "Total", "", moneyCell(total.thisMonth), moneyCell(total.lastMonth), moneyCell(total.changeFromLastMonth, signed: true, tone: false),
        ]
        let lastMonth = "\(MonthName.long(comparison.lastMonth.civil.month)) \(comparison.lastMonth.civil.year)"
        return section(
            "spending", title,
            HTML.element(
                "p", [("class", "note")], HTML.escape("This month: \(comparison.month.iso) to \(comparison.through.iso); last month: \(lastMonth)."))
                + table(
                    ["Category", "This (dark) and last (grey)", "This month", "Last month", "Change"], numeric: [2, 3, 4], optional: [1],
                    rows + [footer],
                    id: "spending-table"))
    }

    // MARK: Pieces

    /// An amount in a sentence: a `<span>` with its plain value for machines (none when hidden).
    func money(_ minor: Int64, signed: Bool = false, id: String? = nil) -> String { moneyCell(minor, signed: signed, id: id, inText: true) }

    /// A table cell's content for an amount in `currency` (the page's by default), with its plain
    /// value for machines (none when hidden).
    /// - Parameters:
    ///   - tone: colour it by its sign (out red, a signed in green); not for a change in spending.
    ///   - inText: in a sentence: never broken across lines.
    func moneyCell(
        _ minor: Int64, currency other: Currency? = nil, signed: Bool = false, tone: Bool = true, id: String? = nil, inText: Bool = false
    ) -> String {
        let shown = Amounts(currency: other ?? currency, hidden: hideAmounts)
        let text = signed ? shown.signed(minor) : shown.text(minor)
        let suffix = other.map { $0 == currency ? "" : " " + $0.code } ?? ""
        let sign = !tone ? nil : minor < 0 ? "neg" : signed && minor > 0 ? "pos" : nil
        let classes = [inText ? "num" : nil, sign].compactMap { $0 }.joined(separator: " ")
        return HTML.element(
            "span", [("class", classes.isEmpty ? nil : classes), ("id", id), ("data-value", shown.data(minor))], HTML.escape(text + suffix))
    }

    /// A day (or words with days) that never breaks across lines.
    func day(_ text: String) -> String { HTML.element("span", [("class", "day")], HTML.escape(text)) }

    func bar(_ value: Int64, of largest: Int64, class name: String?) -> String {
        let share = largest > 0 ? max(0, min(1, Double(value) / Double(largest))) : 0
        return "<div class=\"bar\">" + HTML.element("span", [("class", name), ("style", "width:\(SVGNumber.text(share * 100))%")], "") + "</div>"
    }

    func percent(_ part: Int64, of whole: Int64) -> String {
        guard whole > 0 else { return "all" }
        return "\(Int((Double(part) / Double(whole) * 100).rounded()))%"
    }

    func section(_ id: String, _ title: String, _ content: String) -> String {
        "<section aria-labelledby=\"\(id)-heading\">" + HTML.element("h2", [("id", "\(id)-heading")], HTML.escape(title)) + content + "</section>"
    }

    func details(_ summary: String, _ content: String) -> String {
        "<details>" + HTML.element("summary", [], HTML.escape(summary)) + content + "</details>"
    }

    /// A table of already-escaped cells; columns in `numeric` line up on the right, those in
    /// `optional` are left out at a phone's width.
    func table(
        _ headers: [String], numeric: Set<Int>, optional: Set<Int> = [], _ rows: [[String]], rowClasses: [String?] = [], id: String? = nil,
        caption: String? = nil
    ) -> String {
        func classes(_ index: Int) -> String? {
            let names = [numeric.contains(index) ? "num" : nil, optional.contains(index) ? "optional" : nil].compactMap { $0 }
            return names.isEmpty ? nil : names.joined(separator: " ")
        }
        var out = "<div class=\"scroll\">" + (id.map { "<table id=\"\($0)\">" } ?? "<table>")
        if let caption { out += HTML.element("caption", [], HTML.escape(caption)) }
        out += "<thead><tr>"
        for (index, header) in headers.enumerated() {
            out += HTML.element("th", [("scope", "col"), ("class", classes(index))], HTML.escape(header))
        }
        out += "</tr></thead><tbody>"
        for (row, cells) in rows.enumerated() {
            out += "<tr" + (row < rowClasses.count ? rowClasses[row].map { " class=\"\($0)\"" } ?? "" : "") + ">"
            for (index, cell) in cells.enumerated() { out += HTML.element("td", [("class", classes(index))], cell) }
            out += "</tr>"
        }
        return out + "</tbody></table></div>"
    }

    static func monthTitle(_ day: Day) -> String { "\(MonthName.short(day.civil.month)) \(day.civil.year)" }
}
