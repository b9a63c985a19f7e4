/// A statement's date format in hledger's `date-format` notation (a subset of Haskell's `parseTimeM`), and
/// hledger's default when a file names none.
///
/// ```swift
/// let format = try DateFormat("%d/%m/%Y")
/// format.day("01/02/2025")                    // 2025-02-01
/// format.day("31/02/2025")                    // nil: not a day
/// try DateFormat("%-d %b %y").day("1 Feb 25") // 2025-02-01
/// DateFormat.defaultDay("2025/2/1")           // 2025-02-01
/// ```
public struct DateFormat: Sendable, Equatable {
    /// The pattern as given (spaces around it dropped).
    public let pattern: String
    private let items: [Item]

    /// One step of matching.
    private enum Item: Sendable, Equatable {
        /// A field of digits: `minimum...maximum` of them (spaces first when `spacePadded`), its value checked against `range`.
        case number(Field, minimum: Int, maximum: Int, spacePadded: Bool)
        /// An English month name (`January`) or its three-letter abbreviation (`Jan`), any case.
        case monthName
        /// `AM` or `PM`, any case.
        case meridiem
        /// A numeric time zone offset, `+hhmm` or `+hh:mm`.
        case offset
        /// A time zone: letters (`UTC`, `CET`) or an offset.
        case zone
        /// One or more spaces or tabs.
        case spaces
        /// This byte exactly.
        case literal(UInt8)
    }

    private enum Field: Sendable, Equatable { case year, shortYear, month, day, time }

    /// A format from a `date-format` pattern.
    ///
    /// Directives, as hledger 1.25 reads them through Haskell's `parseTimeM`:
    /// - `%Y` a year of exactly four digits (hledger also takes other lengths: `24` is the year 24 there);
    ///   `%y` two digits, 69–99 are 19yy and 00–68 are 20yy.
    /// - `%m` `%d` exactly two digits, as in hledger (`1/2/2025` does not match `%d/%m/%Y`); `%-m` `%-d` one or two;
    ///   `%e` a day padded with spaces or not (` 1`, `1`, `01`).
    /// - `%b` `%h` `%B` an English month, full or abbreviated, any case (hledger takes only `Feb` for `%b` and
    ///   only `February` for `%B`; here either matches either).
    /// - `%H` `%M` `%S` `%I` two digits (`%-H` … one or two), `%T` is `%H:%M:%S`, `%p` AM/PM, `%z` `+hhmm`/`+hh:mm`,
    ///   `%Z` a zone name or offset: parsed and ignored.
    /// - `%%` is `%`; a space matches one or more spaces or tabs; any other character matches itself.
    ///
    /// Unlike hledger, the pattern must name a year, a month and a day: a default of January or the 1st would
    /// put every line of a statement on a wrong day without a word.
    /// - Throws: `StatementError` (line 0) for an unknown directive, a `%` at the end, or a missing year, month or day.
    public init(_ pattern: String) throws(StatementError) {
        let bytes = Array(pattern.utf8)
        var start = 0
        var end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let trimmed = String(decoding: bytes[start..<end], as: UTF8.self)
        func refuse(_ why: String) -> StatementError { StatementError(line: 0, "date-format '\(trimmed)' \(why)") }
        var items: [Item] = []
        var index = start
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte == 0x20 || byte == 0x09 {
                if items.last != .spaces { items.append(.spaces) }
                continue
            }
            guard byte == UInt8(ascii: "%") else {
                items.append(.literal(byte))
                continue
            }
            guard index < end else { throw refuse("ends with a lone '%'") }
            var directive = bytes[index]
            index += 1
            let unpadded = directive == UInt8(ascii: "-")
            if unpadded {
                guard index < end else { throw refuse("ends with a lone '%-'") }
                directive = bytes[index]
                index += 1
            }
            let two = unpadded ? 1 : 2
            switch (directive, unpadded) {
            case (UInt8(ascii: "Y"), false): items.append(.number(.year, minimum: 4, maximum: 4, spacePadded: false))
            case (UInt8(ascii: "y"), false): items.append(.number(.shortYear, minimum: 2, maximum: 2, spacePadded: false))
            case (UInt8(ascii: "m"), _): items.append(.number(.month, minimum: two, maximum: 2, spacePadded: false))
            case (UInt8(ascii: "d"), _): items.append(.number(.day, minimum: two, maximum: 2, spacePadded: false))
            case (UInt8(ascii: "e"), false): items.append(.number(.day, minimum: 1, maximum: 2, spacePadded: true))
            case (UInt8(ascii: "H"), _), (UInt8(ascii: "M"), _), (UInt8(ascii: "S"), _), (UInt8(ascii: "I"), _):
                items.append(.number(.time, minimum: two, maximum: 2, spacePadded: false))
            case (UInt8(ascii: "T"), false):
                let part = Item.number(.time, minimum: 2, maximum: 2, spacePadded: false)
                items += [part, .literal(UInt8(ascii: ":")), part, .literal(UInt8(ascii: ":")), part]
            case (UInt8(ascii: "b"), false), (UInt8(ascii: "h"), false), (UInt8(ascii: "B"), false): items.append(.monthName)
            case (UInt8(ascii: "p"), false): items.append(.meridiem)
            case (UInt8(ascii: "z"), false): items.append(.offset)
            case (UInt8(ascii: "Z"), false): items.append(.zone)
            case (UInt8(ascii: "%"), false): items.append(.literal(UInt8(ascii: "%")))
            default:
                var shown = "%" + (unpadded ? "-" : "")
                var end = index
                while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
                shown += String(decoding: bytes[(index - 1)..<end], as: UTF8.self)
                throw refuse("has an unknown directive '\(shown)'")
            }
        }
        func has(_ fields: Field...) -> Bool {
            items.contains { if case .number(let field, _, _, _) = $0 { fields.contains(field) } else { false } }
        }
        guard has(.year, .shortYear) else { throw refuse("has no year (%Y or %y)") }
        guard has(.month) || items.contains(.monthName) else { throw refuse("has no month (%m, %-m, %b or %B)") }
        guard has(.day) else { throw refuse("has no day (%d, %-d or %e)") }
        self.pattern = trimmed
        self.items = items
    }

    /// The day `text` names, or nil when the text (spaces around it dropped) does not match the whole pattern
    /// or names no real day (`31/02/2025`).
    /// - Complexity: O(n) in the length of `text` for the patterns of statements; a pattern of several
    ///   one-or-two-digit fields in a row (`%-d%-m%Y`) tries each split.
    public func day(_ text: Substring) -> Day? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        var date = (year: 0, month: 0, day: 0)
        return match(items[...], bytes, &date)
    }

    /// hledger's default when a rules file gives no `date-format`: `%Y/%-m/%-d`, `%Y-%-m-%-d` or `%Y.%-m.%-d`
    /// (`2025-03-01`, `2025/3/1`, `2025.03.1`).
    public static func defaultDay(_ text: Substring) -> Day? {
        for format in defaults { if let day = format.day(text) { return day } }
        return nil
    }

    private static let defaults: [DateFormat] = ["%Y/%-m/%-d", "%Y-%-m-%-d", "%Y.%-m.%-d"].map { try! DateFormat($0) }

    private static let months: [[UInt8]] = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ].map { Array($0.utf8) }

    /// Matches `items` against all of `text`, backtracking over the widths of variable-width fields; the day
    /// when the whole text matches and the fields make a real date.
    private func match(
        _ items: ArraySlice<Item>, _ text: ArraySlice<UInt8>, _ date: inout (year: Int, month: Int, day: Int)
    ) -> Day? {
        guard let item = items.first else {
            guard text.isEmpty else { return nil }
            return try? Day(year: date.year, month: date.month, day: date.day)
        }
        let rest = items.dropFirst()
        switch item {
        case .literal(let byte):
            guard text.first == byte else { return nil }
            return match(rest, text.dropFirst(), &date)
        case .spaces:
            let after = text.drop { $0 == 0x20 || $0 == 0x09 }
            guard after.count < text.count else { return nil }
            return match(rest, after, &date)
        case .number(let field, let minimum, let maximum, let spacePadded):
            let body = spacePadded ? text.drop { $0 == 0x20 } : text
            let digits = body.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            guard digits >= minimum else { return nil }
            for width in stride(from: min(digits, maximum), through: minimum, by: -1) {
                let value = body.prefix(width).reduce(0) { $0 * 10 + Int($1 - 0x30) }
                let saved = date
                switch field {
                case .year: date.year = value
                case .shortYear: date.year = value >= 69 ? 1900 + value : 2000 + value
                case .month: date.month = value
                case .day: date.day = value
                case .time: break
                }
                if let day = match(rest, body.dropFirst(width), &date) { return day }
                date = saved
            }
            return nil
        case .monthName:
            for (index, name) in Self.months.enumerated() {
                for length in [name.count, 3] where text.count >= length {
                    guard zip(text.prefix(length), name).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
                    let saved = date
                    date.month = index + 1
                    if let day = match(rest, text.dropFirst(length), &date) { return day }
                    date = saved
                }
            }
            return nil
        case .meridiem:
            guard text.count >= 2, [0x61, 0x70].contains(text.first! | 0x20), text.dropFirst().first! | 0x20 == 0x6D else { return nil }
            return match(rest, text.dropFirst(2), &date)
        case .offset:
            guard let after = Self.afterOffset(text) else { return nil }
            return match(rest, after, &date)
        case .zone:
            if let after = Self.afterOffset(text) { return match(rest, after, &date) }
            let letters = text.prefix { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }.count
            guard letters > 0 else { return nil }
            return match(rest, text.dropFirst(letters), &date)
        }
    }

    /// The text after a leading `+hhmm`, `-hhmm`, `+hh:mm` or `-hh:mm`, nil when it has none.
    private static func afterOffset(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        var rest = text.dropFirst()
        guard rest.prefix(2).count == 2, rest.prefix(2).allSatisfy({ isDigit($0) }) else { return nil }
        rest = rest.dropFirst(2)
        if rest.first == UInt8(ascii: ":") { rest = rest.dropFirst() }
        guard rest.prefix(2).count == 2, rest.prefix(2).allSatisfy({ isDigit($0) }) else { return nil }
        return rest.dropFirst(2)
    }
}
