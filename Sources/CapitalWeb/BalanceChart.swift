import CapitalCore

/// The balance of a level (or an account) day by day to the horizon, drawn as SVG: the line,
/// the band between the pessimistic and optimistic ends of ranged amounts, the floor, the
/// binding day, each month's lowest day, and numbered marks on paydays and large outflows.
///
/// A long series is cut to one column per pixel keeping each column's lowest and highest value
/// (`SeriesSampler`), so a chart of 30 years is as small as one of a year and loses no dip.
struct BalanceChart {
    var today: Day
    /// End-of-day balances, today first.
    var balances: [Int64]
    var band: (low: [Int64], high: [Int64])?
    var floor: Int64?
    /// The day the answer binds on and the balance there.
    var binding: (day: Day, balance: Int64)?
    /// Each month's lowest day and balance.
    var monthLows: [(day: Day, balance: Int64)] = []
    /// Flows to mark, numbered from 1 in this order.
    var landmarks: [FlowEvent] = []
    var amounts: Amounts
    var title: String
    var summary: String
    var width = 960
    var height = 360
    /// The id prefix of the chart's elements (unique on its page).
    var id = "balance"

    static let margin = (left: 88.0, right: 20.0, top: 28.0, bottom: 40.0)

    var plotWidth: Int { width - Int(Self.margin.left + Self.margin.right) }

    /// The columns the line is drawn through.
    var columns: [SeriesSampler.Column] { SeriesSampler.columns(balances, width: plotWidth) }

    var scale: ChartScale {
        var low = balances.min() ?? 0
        var high = balances.max() ?? 0
        if let band {
            low = min(low, band.low.min() ?? low, band.high.min() ?? low)
            high = max(high, band.low.max() ?? high, band.high.max() ?? high)
        }
        if let floor {
            low = min(low, floor)
            high = max(high, floor)
        }
        let margin = Self.margin
        return ChartScale(
            left: margin.left, top: margin.top, width: Double(width) - margin.left - margin.right,
            height: Double(height) - margin.top - margin.bottom, low: low, high: high, lastOffset: balances.count - 1,
            unit: amounts.unit)
    }

    /// The chart as an `<svg>` element; `standalone` adds the namespace and its own colours (an `.svg` file).
    func svg(standalone: Bool = false) -> String {
        let scale = scale
        var out = "<svg"
        if standalone { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
        out += " class=\"chart\" id=\"\(id)-chart\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\">"
        out += HTML.element("title", [("id", "\(id)-title")], HTML.escape(title))
        out += HTML.element("desc", [("id", "\(id)-desc")], HTML.escape(summary))
        if standalone { out += "<style>" + ReportStyle.standaloneChart + "</style>" }
        out += yAxis(scale) + xAxis(scale)
        if let band { out += bandPath(band, scale) }
        if let floor { out += floorLine(floor, scale) }
        out += HTML.empty("polyline", [("class", "line"), ("points", polyline(columns, scale))])
        out += monthMarks(scale) + landmarkMarks(scale)
        if let binding { out += bindingMark(binding, scale) }
        out += HTML.empty(
            "line",
            [
                ("class", "cursor"), ("id", "\(id)-cursor"), ("x1", "0"), ("x2", "0"), ("y1", SVGNumber.text(scale.top)),
                ("y2", SVGNumber.text(scale.top + scale.height)), ("visibility", "hidden"),
            ])
        return out + "</svg>"
    }

    private func polyline(_ columns: [SeriesSampler.Column], _ scale: ChartScale) -> String {
        SeriesSampler.points(columns).map { SVGNumber.text(scale.x($0.offset)) + "," + SVGNumber.text(scale.y($0.value)) }.joined(separator: " ")
    }

    private func yAxis(_ scale: ChartScale) -> String {
        var out = "<g class=\"axis y\">"
        if !amounts.hidden {
            out += HTML.element(
                "text", [("class", "unit"), ("x", SVGNumber.text(scale.left - 6)), ("y", SVGNumber.text(scale.top - 12)), ("text-anchor", "end")],
                HTML.escape(amounts.currency.code))
        }
        for tick in scale.ticks {
            let y = SVGNumber.text(scale.y(tick))
            out += HTML.empty(
                "line",
                [
                    ("class", tick == 0 ? "zero" : "grid"), ("x1", SVGNumber.text(scale.left)), ("x2", SVGNumber.text(scale.left + scale.width)),
                    ("y1", y), ("y2", y),
                ])
            out += HTML.element(
                "text", [("x", SVGNumber.text(scale.left - 6)), ("y", y), ("text-anchor", "end"), ("dominant-baseline", "middle")],
                HTML.escape(amounts.axis(tick)))
        }
        return out + "</g>"
    }

    private func xAxis(_ scale: ChartScale) -> String {
        let last = today.advanced(by: balances.count - 1)
        let months = (last.civil.year - today.civil.year) * 12 + last.civil.month - today.civil.month
        let every = [1, 2, 3, 6, 12, 24, 60, 120].first { months / $0 <= 14 } ?? 120
        var out = "<g class=\"axis x\">"
        var month = today.startOfMonth.addingMonths(1)
        let bottom = scale.top + scale.height
        while month <= last {
            let civil = month.civil
            let index = civil.year * 12 + civil.month - 1
            if index % every == 0 {
                let x = SVGNumber.text(scale.x(month.number - today.number))
                out += HTML.empty(
                    "line", [("class", "tick"), ("x1", x), ("x2", x), ("y1", SVGNumber.text(bottom)), ("y2", SVGNumber.text(bottom + 5))])
                let label = every >= 12 ? String(civil.year) : civil.month == 1 ? "\(MonthName.short(1)) \(civil.year)" : MonthName.short(civil.month)
                // On a phone's width only every third label shows (`minor` ones hide).
                let minor = index % (every * 3) != 0
                out += HTML.element(
                    "text", [("class", minor ? "minor" : nil), ("x", x), ("y", SVGNumber.text(bottom + 20)), ("text-anchor", "middle")], label)
            }
            month = month.addingMonths(1)
        }
        return out + "</g>"
    }

    private func bandPath(_ band: (low: [Int64], high: [Int64]), _ scale: ChartScale) -> String {
        let lows = SeriesSampler.columns(band.low, width: plotWidth)
        let highs = SeriesSampler.columns(band.high, width: plotWidth)
        var points = highs.map { SVGNumber.text(scale.x(($0.first + $0.last) / 2)) + "," + SVGNumber.text(scale.y($0.high)) }
        points += lows.reversed().map { SVGNumber.text(scale.x(($0.first + $0.last) / 2)) + "," + SVGNumber.text(scale.y($0.low)) }
        return HTML.element(
            "polygon", [("class", "band"), ("points", points.joined(separator: " "))],
            HTML.element("title", [], "Between the pessimistic and the optimistic ends of ranged amounts"))
    }

    private func floorLine(_ floor: Int64, _ scale: ChartScale) -> String {
        let y = SVGNumber.text(scale.y(floor))
        return HTML.element(
            "g", [("class", "floor")],
            HTML.element("title", [], HTML.escape("Floor \(amounts.text(floor))"))
                + HTML.empty("line", [("x1", SVGNumber.text(scale.left)), ("x2", SVGNumber.text(scale.left + scale.width)), ("y1", y), ("y2", y)])
                + HTML.element(
                    "text", [("x", SVGNumber.text(scale.left + scale.width - 4)), ("y", SVGNumber.text(scale.y(floor) - 5)), ("text-anchor", "end")],
                    "floor"))
    }

    private func monthMarks(_ scale: ChartScale) -> String {
        guard !monthLows.isEmpty else { return "" }
        var out = "<g class=\"month-lows\">"
        for low in monthLows {
            let offset = low.day.number - today.number
            guard offset >= 0, offset < balances.count else { continue }
            out += HTML.element(
                "circle", [("cx", SVGNumber.text(scale.x(offset))), ("cy", SVGNumber.text(scale.y(low.balance))), ("r", "2.5")],
                HTML.element(
                    "title", [],
                    HTML.escape(
                        "Lowest of \(MonthName.long(low.day.civil.month)) \(low.day.civil.year): \(amounts.text(low.balance)) on \(low.day.iso)")))
        }
        return out + "</g>"
    }

    private func landmarkMarks(_ scale: ChartScale) -> String {
        guard !landmarks.isEmpty else { return "" }
        var out = "<g class=\"landmarks\">"
        for (number, event) in landmarks.enumerated() {
            let offset = event.day.number - today.number
            guard offset >= 0, offset < balances.count else { continue }
            let x = scale.x(offset)
            let y = scale.y(balances[offset])
            let up = event.amount > 0
            let labelY = up ? max(scale.top + 8, y - 12) : min(scale.top + scale.height - 4, y + 18)
            out += HTML.element(
                "g", [("class", up ? "inflow" : "outflow")],
                HTML.element("title", [], HTML.escape("\(number + 1). \(event.label) \(amounts.signed(event.amount)) on \(event.day.iso)"))
                    + HTML.empty("circle", [("cx", SVGNumber.text(x)), ("cy", SVGNumber.text(y)), ("r", "3.5")])
                    + HTML.element("text", [("x", SVGNumber.text(x)), ("y", SVGNumber.text(labelY)), ("text-anchor", "middle")], String(number + 1)))
        }
        return out + "</g>"
    }

    private func bindingMark(_ binding: (day: Day, balance: Int64), _ scale: ChartScale) -> String {
        let offset = binding.day.number - today.number
        guard offset >= 0, offset < balances.count else { return "" }
        let x = scale.x(offset)
        let y = scale.y(binding.balance)
        let anchor = x > scale.left + scale.width * 0.8 ? "end" : "start"
        return HTML.element(
            "g", [("class", "binding"), ("data-day", binding.day.iso), ("data-balance", amounts.data(binding.balance))],
            HTML.element("title", [], HTML.escape("Binding day \(binding.day.iso): balance \(amounts.text(binding.balance))"))
                + HTML.empty("circle", [("cx", SVGNumber.text(x)), ("cy", SVGNumber.text(y)), ("r", "6")])
                + HTML.element(
                    "text",
                    [
                        ("x", SVGNumber.text(anchor == "end" ? x - 10 : x + 10)), ("y", SVGNumber.text(min(y + 36, scale.top + scale.height - 6))),
                        ("text-anchor", anchor),
                    ],
                    HTML.escape("binding day \(binding.day.iso)")))
    }

    /// The columns as the hover script reads them: `[first offset, last offset, lowest, highest]` each.
    var readoutJSON: String {
        "[" + columns.map { "[\($0.first),\($0.last),\($0.low),\($0.high)]" }.joined(separator: ",") + "]"
    }
}

/// English month names.
enum MonthName {
    static let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static func long(_ month: Int) -> String { names[month - 1] }
    static func short(_ month: Int) -> String { String(names[month - 1].prefix(3)) }
}
