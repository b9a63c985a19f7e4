extension Recurrence {
    /// Parses RRULE text (`FREQ=MONTHLY;BYDAY=-1FR`; an `RRULE:` prefix is allowed).
    ///
    /// Part names and values are case-insensitive; parts are separated by `;` in any order, each at
    /// most once. UNTIL is `YYYYMMDD`, `YYYYMMDDTHHMMSS` (with or without `Z`; the time is ignored
    /// and the whole day counts) or `YYYY-MM-DD`. Lists keep the order they are written in.
    /// ```swift
    /// try Recurrence(rrule: "RRULE:freq=monthly;byday=-1fr").rrule   // "FREQ=MONTHLY;BYDAY=-1FR"
    /// ```
    /// - Throws: `RecurrenceError` naming the part, the value and why: `.unsupported` for parts
    ///   capital does not expand (FREQ=HOURLY, BYHOUR, ...), `.invalid` for values out of range or
    ///   not allowed with the rule's FREQ, `.conflict` for COUNT with UNTIL, a missing FREQ or a
    ///   part given twice.
    public init(rrule text: String) throws(RecurrenceError) {
        var body = Substring(text).trimmingASCIISpaces
        if body.count >= 6, body.prefix(6).uppercased() == "RRULE:" { body = body.dropFirst(6).trimmingASCIISpaces }

        var seen: [(name: String, value: String)] = []
        var frequency: Frequency?
        var rule = Recurrence(frequency: .daily)
        for rawPart in body.split(separator: ";", omittingEmptySubsequences: true) {
            let part = rawPart.trimmingASCIISpaces
            if part.isEmpty { continue }
            guard let equals = part.firstIndex(of: "=") else {
                throw .invalid(part: String(part), value: "", reason: "expected NAME=VALUE, as in FREQ=MONTHLY")
            }
            let name = part[..<equals].trimmingASCIISpaces.uppercased()
            let value = part[part.index(after: equals)...].trimmingASCIISpaces.uppercased()
            if let earlier = seen.first(where: { $0.name == name }) {
                throw .conflict("\(name) is given twice (\(name)=\(earlier.value) and \(name)=\(value)): each part may appear once")
            }
            seen.append((name, value))
            switch name {
            case "FREQ":
                guard let parsed = Frequency(rawValue: value) else {
                    if Self.unsupportedFrequencies.contains(value) { throw .unsupported(part: name, value: value) }
                    throw .invalid(part: name, value: value, reason: "expected DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = parsed
            case "INTERVAL": rule.interval = try Self.positive(value, part: name)
            case "COUNT":
                guard let count = Self.integer(Substring(value)), count >= 0 else {
                    throw .invalid(part: name, value: value, reason: "expected a whole number, 0 or more")
                }
                rule.count = count
            case "UNTIL": rule.until = try Self.untilDay(value)
            case "BYMONTH": rule.byMonth = try Self.list(value, part: name, Self.signed)
            case "BYWEEKNO": rule.byWeekNo = try Self.list(value, part: name, Self.signed)
            case "BYYEARDAY": rule.byYearDay = try Self.list(value, part: name, Self.signed)
            case "BYMONTHDAY": rule.byMonthDay = try Self.list(value, part: name, Self.signed)
            case "BYDAY": rule.byDay = try Self.list(value, part: name, Self.weekdayNumber)
            case "BYSETPOS": rule.bySetPos = try Self.list(value, part: name, Self.signed)
            case "WKST":
                guard let weekday = Self.weekday(value) else {
                    throw .invalid(part: name, value: value, reason: "expected a weekday: MO, TU, WE, TH, FR, SA or SU")
                }
                rule.weekStart = weekday
            default:
                if Self.unsupportedParts.contains(name) || name.hasPrefix("X-") {
                    throw .unsupported(part: name, value: value)
                }
                throw .invalid(
                    part: name, value: value,
                    reason:
                        "not an RRULE part; capital reads FREQ, INTERVAL, COUNT, UNTIL, BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY, BYSETPOS and WKST"
                )
            }
        }
        guard let frequency else {
            throw .conflict("FREQ is missing from '\(text)': a rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        rule.frequency = frequency
        try rule.validateParts()
        self = rule
    }

    /// Canonical RRULE text: parts in a fixed order, defaults left out.
    ///
    /// The order is FREQ, INTERVAL (left out when 1), COUNT, UNTIL (`YYYYMMDD`), BYMONTH, BYWEEKNO,
    /// BYYEARDAY, BYMONTHDAY, BYDAY, BYSETPOS, WKST (left out when MO); list values keep their order.
    /// `Recurrence(rrule: r.rrule) == r` for every rule `validate(start:)` accepts.
    public var rrule: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if let count { parts.append("COUNT=\(count)") }
        if let until { parts.append(rrulePart(until: until)) }
        func add(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append(name + "=" + values.map(String.init).joined(separator: ",")) }
        }
        add("BYMONTH", byMonth)
        add("BYWEEKNO", byWeekNo)
        add("BYYEARDAY", byYearDay)
        add("BYMONTHDAY", byMonthDay)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.rrule).joined(separator: ",")) }
        add("BYSETPOS", bySetPos)
        if weekStart != .monday { parts.append("WKST=" + Self.weekdayCodes[weekStart.rawValue - 1]) }
        return parts.joined(separator: ";")
    }

    // MARK: Pieces

    static let weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    static let unsupportedFrequencies: Set<String> = ["HOURLY", "MINUTELY", "SECONDLY"]
    /// RFC 5545 (and python-dateutil) parts and neighbouring properties capital knows but refuses.
    static let unsupportedParts: Set<String> = [
        "BYHOUR", "BYMINUTE", "BYSECOND", "BYEASTER", "RDATE", "EXDATE", "EXRULE", "DTSTART", "TZID",
    ]

    static func weekday(_ code: Substring) -> Weekday? {
        guard let index = weekdayCodes.firstIndex(where: { $0 == code }) else { return nil }
        return Weekday(rawValue: index + 1)
    }

    static func weekday(_ code: String) -> Weekday? { weekday(Substring(code)) }

    /// A whole number of at most nine digits with an optional sign.
    static func integer(_ text: Substring) -> Int? {
        var digits = text
        var negative = false
        if let first = digits.first, first == "+" || first == "-" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        guard let magnitude = Int.asciiDigits(digits) else { return nil }
        return negative ? -magnitude : magnitude
    }

    static func positive(_ value: String, part: String) throws(RecurrenceError) -> Int {
        guard let number = integer(Substring(value)) else {
            throw .invalid(part: part, value: value, reason: "expected a whole number, 1 or more")
        }
        guard number >= 1 else { throw .invalid(part: part, value: value, reason: "must be 1 or more") }
        return number
    }

    static func signed(_ item: Substring, part: String) throws(RecurrenceError) -> Int {
        guard let number = integer(item) else {
            throw .invalid(part: part, value: String(item), reason: "expected a whole number")
        }
        return number
    }

    static func weekdayNumber(_ item: Substring, part: String) throws(RecurrenceError) -> WeekdayNumber {
        guard item.count >= 2, let weekday = weekday(item.suffix(2)) else {
            throw .invalid(part: part, value: String(item), reason: "expected a weekday (MO … SU), optionally with an ordinal: 1MO, -1FR")
        }
        let prefix = item.dropLast(2)
        if prefix.isEmpty { return WeekdayNumber(weekday) }
        guard let ordinal = integer(prefix) else {
            throw .invalid(part: part, value: String(item), reason: "the ordinal before the weekday must be a whole number, as in 2TU or -1FR")
        }
        return WeekdayNumber(weekday, ordinal)
    }

    static func list<Element>(
        _ value: String, part: String, _ element: (Substring, String) throws(RecurrenceError) -> Element
    ) throws(RecurrenceError) -> [Element] {
        let items = value.split(separator: ",", omittingEmptySubsequences: false)
        guard !value.isEmpty, !items.contains(where: \.isEmpty) else {
            throw .invalid(part: part, value: value, reason: "expected a comma-separated list with no empty items")
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try element(item, part)) }
        return result
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS[Z]` (time checked, then ignored) or `YYYY-MM-DD`.
    static func untilDay(_ value: String) throws(RecurrenceError) -> Day {
        let bytes = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var result = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                result = result * 10 + digit
            }
            return result
        }
        let reason = "expected a date as YYYYMMDD, YYYYMMDDTHHMMSS(Z) or YYYY-MM-DD"
        let fields: (Int, Int, Int)?
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            fields = number(0..<4).flatMap { y in number(5..<7).flatMap { m in number(8..<10).map { (y, m, $0) } } }
        } else if bytes.count == 8 || ((bytes.count == 15 || bytes.count == 16) && bytes[8] == UInt8(ascii: "T")) {
            if bytes.count > 8 {
                guard bytes.count == 15 || bytes[15] == UInt8(ascii: "Z"),
                    let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
                    hour <= 23, minute <= 59, second <= 60
                else { throw .invalid(part: "UNTIL", value: value, reason: reason) }
            }
            fields = number(0..<4).flatMap { y in number(4..<6).flatMap { m in number(6..<8).map { (y, m, $0) } } }
        } else {
            fields = nil
        }
        guard let (year, month, day) = fields else { throw .invalid(part: "UNTIL", value: value, reason: reason) }
        do {
            return try Day(year: year, month: month, day: day)
        } catch {
            throw .invalid(part: "UNTIL", value: value, reason: "not a calendar date")
        }
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value.magnitude)
        let body = text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        return value < 0 ? "-" + body : body
    }
}

extension Recurrence.WeekdayNumber {
    /// `MO`, `1MO`, `-1FR`.
    var rrule: String {
        let code = Recurrence.weekdayCodes[weekday.rawValue - 1]
        guard let ordinal else { return code }
        return "\(ordinal)" + code
    }
}

private extension Substring {
    var trimmingASCIISpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" || first == "\n" || first == "\r" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\n" || last == "\r" { result = result.dropLast() }
        return result
    }
}
