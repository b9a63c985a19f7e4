/// Rule sets, as calendar programs export them and python-dateutil's `rrulestr(..., forceset=True)`
/// reads them: RRULE lines, plus RDATE (days added), EXDATE (days taken out) and EXRULE (a rule
/// whose days are taken out). capital writes a set on one line, its parts separated by spaces:
/// `RRULE:FREQ=MONTHLY;BYMONTHDAY=10 EXDATE:20250310 RDATE:20250315`.
///
/// The days are those of every RRULE (each with its own COUNT and UNTIL, from the start) and
/// every RDATE, less every EXDATE and every day of every EXRULE (from the same start), each day
/// once: dateutil's `rruleset`. An adjustment then moves them as it moves a single rule's.
extension Rule {
    /// The set's parts beyond its first RRULE.
    public struct SetParts: Hashable, Sendable {
        /// More RRULE lines.
        public var rules: [Recurrence] = []
        /// RDATE: days added, whatever the rules say (before the start too, as in dateutil).
        public var inclusions: [Day] = []
        /// EXDATE: days taken out.
        public var exclusions: [Day] = []
        /// EXRULE: rules whose days are taken out.
        public var exclusionRules: [Recurrence] = []
        /// DTSTART, when the text gave one: it must be the start the rule is expanded from.
        public var start: Day?
        /// The set has no RRULE of its own, only RDATE days: `recurrence` is a placeholder.
        public var datesOnly = false

        /// No parts: a plain rule.
        public init() {}

        /// Nothing beyond one RRULE: a plain rule.
        public var isEmpty: Bool { rules.isEmpty && inclusions.isEmpty && exclusions.isEmpty && exclusionRules.isEmpty && !datesOnly }
    }

    /// Whether `text` is a rule set rather than one RRULE or a readable rule: several
    /// space-separated parts, or one that is not an RRULE (`RDATE:…`).
    public static func isSet(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard let first = parts.first else { return false }
        let name = first.prefix { $0 != ":" && $0 != ";" && $0 != "=" }.uppercased()
        return parts.count > 1 && ["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART"].contains(name)
            || ["RDATE", "EXDATE", "EXRULE", "DTSTART"].contains(name) && first.contains(":")
    }

    /// Reads a rule set: `NAME[;PARAMS]:VALUE` parts separated by spaces or line breaks.
    /// - Throws: `RecurrenceError` naming the part at fault: an unknown one, a day that is not one,
    ///   a set with neither RRULE nor RDATE.
    init(parsingSet text: String, calendar: String) throws(RecurrenceError) {
        var rules: [Recurrence] = []
        var parts = SetParts()
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
            guard let colon = token.firstIndex(of: ":") else {
                throw .conflict("'\(token)' is not NAME:VALUE, as in RDATE:20250315 (RRULE, RDATE, EXDATE, EXRULE or DTSTART)")
            }
            // Parameters such as `;VALUE=DATE` or `;TZID=…` say how the value is written; days need none.
            let name = token[..<colon].prefix { $0 != ";" }.uppercased()
            let value = String(token[token.index(after: colon)...])
            switch name {
            case "RRULE": rules.append(try Recurrence(rrule: value))
            case "EXRULE": parts.exclusionRules.append(try Recurrence(rrule: value))
            case "RDATE": parts.inclusions += try Self.days(value, part: name)
            case "EXDATE": parts.exclusions += try Self.days(value, part: name)
            case "DTSTART":
                let days = try Self.days(value, part: name)
                guard days.count == 1 else { throw .invalid(part: name, value: value, reason: "expected one day") }
                parts.start = days[0]
            default:
                throw .invalid(part: name, value: value, reason: "not a part of a rule set; capital reads RRULE, RDATE, EXDATE, EXRULE and DTSTART")
            }
        }
        guard !rules.isEmpty || !parts.inclusions.isEmpty else {
            throw .conflict("a rule set needs an RRULE or an RDATE: '\(text)' has neither")
        }
        if rules.isEmpty {
            parts.datesOnly = true
            var none = Recurrence(frequency: .daily)
            none.count = 0
            rules = [none]
        }
        parts.rules = Array(rules.dropFirst())
        parts.inclusions = Array(Set(parts.inclusions)).sorted()
        parts.exclusions = Array(Set(parts.exclusions)).sorted()
        self.init(recurrence: rules[0], calendar: calendar)
        setParts = parts
    }

    /// A comma-separated list of days (`YYYYMMDD`, a date-time whose time is ignored, or `YYYY-MM-DD`).
    static func days(_ value: String, part: String) throws(RecurrenceError) -> [Day] {
        var days: [Day] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let day: Day
            do throws(RecurrenceError) { day = try Recurrence.untilDay(String(item)) } catch {
                guard case .invalid(_, _, let reason) = error else { throw error }
                throw .invalid(part: part, value: String(item), reason: reason)
            }
            guard Recurrence.supportedDays.contains(day.number) else {
                throw .invalid(part: part, value: String(item), reason: "must be a day in the years 0001 to 9999")
            }
            days.append(day)
        }
        return days
    }

    /// The set written on one line: `RRULE:… RRULE:… RDATE:… EXDATE:… EXRULE:…` (a DTSTART as given).
    var setText: String {
        var parts: [String] = []
        if let start = setParts.start { parts.append("DTSTART:" + Self.compact(start)) }
        if !setParts.datesOnly { parts += ([recurrence] + setParts.rules).map { "RRULE:" + $0.rrule } }
        if !setParts.inclusions.isEmpty { parts.append("RDATE:" + setParts.inclusions.map(Self.compact).joined(separator: ",")) }
        if !setParts.exclusions.isEmpty { parts.append("EXDATE:" + setParts.exclusions.map(Self.compact).joined(separator: ",")) }
        parts += setParts.exclusionRules.map { "EXRULE:" + $0.rrule }
        return parts.joined(separator: " ")
    }

    /// `YYYYMMDD`.
    static func compact(_ day: Day) -> String { String(Recurrence(frequency: .daily).rrulePart(until: day).dropFirst(6)) }

    /// The set's days (rule days, before any adjustment) in `range`, in order, each once.
    /// - Complexity: O(occurrences of every RRULE and EXRULE in the range + RDATEs + EXDATEs).
    func forEachSetDay(start: Day, in range: DayRange, _ body: (Day) -> Void) {
        var days: [Day] = []
        for rule in ([recurrence] + setParts.rules) where !(setParts.datesOnly && rule == recurrence) {
            rule.forEachOccurrence(start: start, in: range) { days.append($0) }
        }
        days += setParts.inclusions.filter(range.contains)
        var excluded = Set(setParts.exclusions.filter(range.contains))
        for rule in setParts.exclusionRules { rule.forEachOccurrence(start: start, in: range) { excluded.insert($0) } }
        var last: Day?
        for day in days.sorted() where day != last {
            last = day
            if !excluded.contains(day) { body(day) }
        }
    }

    /// Checks every rule of the set against the start, and a DTSTART against it.
    /// - Throws: `RecurrenceError` naming the part, the value and why.
    public func validate(start: Day) throws(RecurrenceError) {
        for rule in [recurrence] + setParts.rules + setParts.exclusionRules { try rule.validate(start: start) }
        if let given = setParts.start, given != start {
            throw .conflict("DTSTART \(given.iso) is not the start \(start.iso): give the start once")
        }
    }

    /// Why the rule has no occurrence at all from `start`, or nil (`Recurrence.neverOccurs`); a
    /// set never occurs when none of its RRULEs does and it has no RDATE.
    public func neverOccurs(from start: Day) -> String? {
        guard !setParts.isEmpty else { return recurrence.neverOccurs(from: start) }
        if !setParts.inclusions.isEmpty { return nil }
        let reasons = ([recurrence] + setParts.rules).compactMap { $0.neverOccurs(from: start) }
        return reasons.count == setParts.rules.count + 1 ? reasons[0] : nil
    }
}
