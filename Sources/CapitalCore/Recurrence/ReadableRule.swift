/// Rules as people say them, mapped to `Recurrence` plus an implied adjustment, and printed back.
///
/// | readable | RRULE | adjustment |
/// | --- | --- | --- |
/// | `daily`, `every 3 days` | `FREQ=DAILY;INTERVAL=3` | |
/// | `every working day` | `FREQ=DAILY` | skip |
/// | `weekly on mon,thu`, `every 2 weeks on fri` | `FREQ=WEEKLY;INTERVAL=2;BYDAY=FR` | |
/// | `monthly on 25`, `monthly on 10,25` | `FREQ=MONTHLY;BYMONTHDAY=25` | |
/// | `monthly on 31` (clamps: 28/29 Feb, 30 Apr) | `FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1` | |
/// | `monthly on last day` | `FREQ=MONTHLY;BYMONTHDAY=-1` | |
/// | `monthly on last working day` | `FREQ=MONTHLY;BYMONTHDAY=-1` | preceding |
/// | `monthly on first working day` | `FREQ=MONTHLY;BYMONTHDAY=1` | following |
/// | `monthly on 2nd tue`, `monthly on last fri` | `FREQ=MONTHLY;BYDAY=2TU` | |
/// | `quarterly on 15`, `every 3 months on 1` | `FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15` | |
/// | `yearly on 03-01` | `FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1` | |
/// | `yearly on 02-29` (28 Feb in other years) | `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1` | |
///
/// RFC 5545 skips a month without the 31st; capital's readable `monthly on 31` clamps to the
/// month's last day instead, because that is what a salary or a bill on the 31st does.
public enum ReadableRule {
    /// The forms `parse` accepts, for help texts and suggestions.
    public static let examples = [
        "daily", "every 2 days", "every working day", "weekly on mon,thu", "every 2 weeks on fri", "monthly on 25",
        "monthly on 31", "monthly on last day", "monthly on last working day", "monthly on first working day",
        "monthly on 2nd tue", "monthly on last fri", "quarterly on 15", "every 3 months on 1", "yearly on 03-01", "yearly on 02-29",
    ]

    /// Parses a readable rule.
    /// - Throws: `RecurrenceError.unreadable` with the closest accepted form, or `.invalid`.
    public static func parse(_ text: String) throws(RecurrenceError) -> (Recurrence, BusinessDayAdjustment) {
        let words = tokens(text)
        if let result = try read(words) { return result }
        throw .unreadable(text, suggestion: suggestion(for: text))
    }

    /// The readable form of a recurrence with an adjustment, or nil when it has none.
    public static func print(_ r: Recurrence, adjustment: BusinessDayAdjustment) -> String? {
        guard r.count == nil, r.until == nil, r.byMonth.isEmpty || r.frequency == .yearly, r.byYearDay.isEmpty, r.byWeekNo.isEmpty else { return nil }
        switch r.frequency {
        case .daily:
            guard r.byDay.isEmpty, r.byMonthDay.isEmpty, r.bySetPos.isEmpty, r.byMonth.isEmpty else { return nil }
            if adjustment == .skip && r.interval == 1 { return "every working day" }
            guard adjustment == .none else { return nil }
            return r.interval == 1 ? "daily" : "every \(r.interval) days"
        case .weekly:
            guard adjustment == .none, r.byMonthDay.isEmpty, r.bySetPos.isEmpty, r.byDay.allSatisfy({ $0.ordinal == nil }),
                r.interval == 1 || r.weekStart == .monday
            else { return nil }
            let days = r.byDay.map { abbreviations[$0.weekday.rawValue - 1] }.joined(separator: ",")
            let head = r.interval == 1 ? "weekly" : "every \(r.interval) weeks"
            return days.isEmpty ? head : "\(head) on \(days)"
        case .monthly:
            guard let spec = monthSpec(r, adjustment: adjustment) else { return nil }
            switch r.interval {
            case 1: return "monthly on \(spec)"
            case 3: return "quarterly on \(spec)"
            default: return "every \(r.interval) months on \(spec)"
            }
        case .yearly:
            guard adjustment == .none, r.interval == 1, r.byDay.isEmpty, r.byMonth.count == 1 else { return nil }
            let month = r.byMonth[0]
            if month == 2 && r.byMonthDay == [28, 29] && r.bySetPos == [-1] { return "yearly on 02-29" }
            guard r.bySetPos.isEmpty, r.byMonthDay.count == 1, r.byMonthDay[0] >= 1 else { return nil }
            return "yearly on \(pad(month))-\(pad(r.byMonthDay[0]))"
        }
    }

    // MARK: Reading

    static let abbreviations = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let ordinals: [String: Int] = [
        "1st": 1, "first": 1, "2nd": 2, "second": 2, "3rd": 3, "third": 3, "4th": 4, "fourth": 4, "5th": 5, "fifth": 5, "last": -1,
    ]

    private static func tokens(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    private static func weekday(_ word: String) -> Weekday? {
        if let index = abbreviations.firstIndex(of: word) ?? fullNames.firstIndex(of: word) { return Weekday(rawValue: index + 1) }
        return nil
    }

    private static func positiveInt(_ word: String) -> Int? {
        guard let value = Int.asciiDigits(Substring(word)), value > 0 else { return nil }
        return value
    }

    /// nil when the words do not form a rule; throws when they do but a value is out of range.
    private static func read(_ w: [String]) throws(RecurrenceError) -> (Recurrence, BusinessDayAdjustment)? {
        switch w.count {
        case 1 where w[0] == "daily":
            return (Recurrence(frequency: .daily), .none)
        case 2 where w == ["every", "day"]:
            return (Recurrence(frequency: .daily), .none)
        case 3 where w[0] == "every" && (w[1] == "working" || w[1] == "business") && w[2] == "day":
            return (Recurrence(frequency: .daily), .skip)
        case 3 where w[0] == "every" && (w[2] == "days" || w[2] == "day"):
            guard let n = positiveInt(w[1]) else { return nil }
            var r = Recurrence(frequency: .daily)
            r.interval = n
            return (r, .none)
        default:
            break
        }
        // weekly [on DAYS] / every N weeks [on DAYS]
        var rest = w[...]
        var interval = 1
        var frequency: Recurrence.Frequency
        guard let head = rest.first else { return nil }
        if head == "weekly" || head == "biweekly" || head == "fortnightly" {
            frequency = .weekly
            interval = head == "weekly" ? 1 : 2
            rest = rest.dropFirst()
        } else if head == "monthly" {
            frequency = .monthly
            rest = rest.dropFirst()
        } else if head == "quarterly" {
            frequency = .monthly
            interval = 3
            rest = rest.dropFirst()
        } else if head == "yearly" || head == "annually" {
            frequency = .yearly
            rest = rest.dropFirst()
        } else if head == "every", rest.count >= 3, let n = positiveInt(rest[rest.startIndex + 1]) {
            switch rest[rest.startIndex + 2] {
            case "weeks", "week": frequency = .weekly
            case "months", "month": frequency = .monthly
            case "years", "year": frequency = .yearly
            default: return nil
            }
            interval = n
            rest = rest.dropFirst(3)
        } else {
            return nil
        }
        var r = Recurrence(frequency: frequency)
        r.interval = interval
        if rest.isEmpty {
            return frequency == .weekly ? (r, .none) : nil  // "monthly" alone: which day? refuse
        }
        guard rest.first == "on", rest.count >= 2 else { return nil }
        let spec = Array(rest.dropFirst())
        switch frequency {
        case .weekly:
            guard spec.count == 1 else { return nil }
            var days: [Recurrence.WeekdayNumber] = []
            for part in spec[0].split(separator: ",") {
                guard let day = weekday(String(part)) else { return nil }
                days.append(.init(day))
            }
            r.byDay = days
            return (r, .none)
        case .monthly:
            return try readMonthSpec(spec, into: r)
        case .yearly:
            guard interval == 1 || head == "every", spec.count == 1 else { return nil }
            let parts = spec[0].split(separator: "-")
            guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let month = Int.asciiDigits(parts[0]),
                let day = Int.asciiDigits(parts[1])
            else { return nil }
            guard (1...12).contains(month) else { throw .invalid(part: "month", value: String(parts[0]), reason: "months are 01 to 12") }
            let last = month == 2 ? 29 : Day.daysIn(month: month, year: 2001)
            guard (1...last).contains(day) else {
                throw .invalid(part: "day", value: spec[0], reason: "that month has days 01 to \(pad(last))")
            }
            r.byMonth = [month]
            if month == 2 && day == 29 {
                r.byMonthDay = [28, 29]
                r.bySetPos = [-1]
            } else {
                r.byMonthDay = [day]
            }
            return (r, .none)
        case .daily:
            return nil
        }
    }

    private static func readMonthSpec(_ spec: [String], into base: Recurrence) throws(RecurrenceError) -> (Recurrence, BusinessDayAdjustment)? {
        var r = base
        switch spec {
        case ["last", "day"]:
            r.byMonthDay = [-1]
            return (r, .none)
        case ["last", "working", "day"], ["last", "business", "day"]:
            r.byMonthDay = [-1]
            return (r, .preceding)
        case ["first", "working", "day"], ["first", "business", "day"]:
            r.byMonthDay = [1]
            return (r, .following)
        default:
            break
        }
        if spec.count == 2, let ordinal = ordinals[spec[0]], let day = weekday(spec[1]) {
            r.byDay = [.init(day, ordinal)]
            return (r, .none)
        }
        guard spec.count == 1 else { return nil }
        var days: [Int] = []
        for part in spec[0].split(separator: ",") {
            guard let day = Int.asciiDigits(part) else { return nil }
            guard (1...31).contains(day) else { throw .invalid(part: "day of month", value: String(part), reason: "days of a month are 1 to 31") }
            days.append(day)
        }
        if days.count == 1 && days[0] > 28 {
            r.byMonthDay = Array(28...days[0])  // the last of these that the month has: clamps to its end
            r.bySetPos = [-1]
        } else {
            if let late = days.first(where: { $0 > 28 }) {
                throw .invalid(
                    part: "day of month", value: String(late),
                    reason: "a list of days may only hold 1 to 28; give a day past the 28th in a rule of its own")
            }
            r.byMonthDay = days.sorted()
        }
        return (r, .none)
    }

    private static func monthSpec(_ r: Recurrence, adjustment: BusinessDayAdjustment) -> String? {
        guard r.byMonth.isEmpty else { return nil }
        if r.byDay.count == 1, let ordinal = r.byDay[0].ordinal, r.byMonthDay.isEmpty, r.bySetPos.isEmpty, adjustment == .none,
            (1...5).contains(ordinal) || ordinal == -1
        {
            let word = ordinal == -1 ? "last" : ["1st", "2nd", "3rd", "4th", "5th"][ordinal - 1]
            return "\(word) \(abbreviations[r.byDay[0].weekday.rawValue - 1])"
        }
        guard r.byDay.isEmpty else { return nil }
        if r.byMonthDay == [-1] && r.bySetPos.isEmpty {
            switch adjustment {
            case .none: return "last day"
            case .preceding: return "last working day"
            default: return nil
            }
        }
        if r.byMonthDay == [1] && r.bySetPos.isEmpty && adjustment == .following { return "first working day" }
        guard adjustment == .none else { return nil }
        if r.bySetPos == [-1], let last = r.byMonthDay.last, last > 28, r.byMonthDay == Array(28...last) { return String(last) }
        guard r.bySetPos.isEmpty, !r.byMonthDay.isEmpty, r.byMonthDay.allSatisfy({ (1...28).contains($0) }) else { return nil }
        return r.byMonthDay.map(String.init).joined(separator: ",")
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    // MARK: Suggestions

    /// The closest accepted form: the text tidied (full weekday names, filler words) if that
    /// reads, else the documented example nearest by edit distance.
    static func suggestion(for text: String) -> String {
        let filler: Set<String> = ["of", "the", "each", "every-month", "month", "at", "a"]
        var words = tokens(text)
        // "every month" before the filler goes: "month" is filler in "2nd tue of the month".
        if words.first == "every", words.count >= 2, ["month", "week", "year"].contains(words[1]) {
            words[0] = words[1] == "month" ? "monthly" : words[1] == "week" ? "weekly" : "yearly"
            words.remove(at: 1)
        }
        words = words.filter { !filler.contains($0) }.map { word in
            if let index = fullNames.firstIndex(of: word) { return abbreviations[index] }
            if word.hasSuffix("s"), let index = fullNames.firstIndex(of: String(word.dropLast())) { return abbreviations[index] }
            return word
        }
        for candidate in [words, words.filter { $0 != "on" }.enumerated().flatMap { $0.offset == 1 ? ["on", $0.element] : [$0.element] }] {
            if let (recurrence, adjustment) = try? read(candidate), let printed = print(recurrence, adjustment: adjustment) {
                return printed
            }
        }
        // Nearest by edit distance, among the forms that start with the same word when there are
        // any (`monthly` alone suggests a monthly rule, not `daily`). Only the first 64 characters
        // count: every form is shorter, and a pasted page must not cost seconds of comparing.
        let target = Array(text.lowercased().prefix(64))
        let head = tokens(text).first.map { $0 + " " } ?? ""
        let sameHead = examples.filter { $0.hasPrefix(head) }
        let candidates = sameHead.isEmpty ? examples : sameHead
        // Each distance once (the first of equals wins, as with `min(by:)`).
        let distances = candidates.map { editDistance(Array($0), target) }
        return distances.indices.min { distances[$0] < distances[$1] }.map { candidates[$0] } ?? examples[0]
    }
}
