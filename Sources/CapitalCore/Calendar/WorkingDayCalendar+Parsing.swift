extension WorkingDayCalendar {
    /// A calendar read from the text of a calendar data file: Saturday and Sunday as the weekend,
    /// `#` comment lines and blank lines ignored (`\n`, `\r\n` or `\r` ends a line), and one line per
    /// day otherwise:
    /// ```
    /// # RU: ...
    /// 2025-05-02 holiday Day off (substituted from 01/04/2025)
    /// 2025-11-01 workday working Saturday; its day off moved to 2025-11-03
    /// ```
    /// The words after `holiday` or `workday` are a name or note for people; the calendar keeps
    /// only the days.
    /// - Throws: `CalendarError.badLine` or `.badDay`, naming the line.
    /// - Complexity: O(lines).
    public init(name: String, parsing text: String) throws(CalendarError) {
        var holidays: [Day] = []
        var workingDays: [Day] = []
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.first == "#" { continue }
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count >= 2 else { throw .badLine(calendar: name, line: number, text: String(line)) }
            let day: Day
            do { day = try Day(iso: String(words[0])) } catch { throw .badDay(calendar: name, line: number, error) }
            switch words[1] {
            case "holiday": holidays.append(day)
            case "workday": workingDays.append(day)
            default: throw .badLine(calendar: name, line: number, text: String(line))
            }
        }
        self.init(name: name, holidays: holidays, workingDays: workingDays)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
