/// QIF (Quicken Interchange Format) registers: bank, credit-card, cash and other asset or
/// liability accounts.
///
/// A register section starts at `!Type:Bank`, `!Type:CCard`, `!Type:Cash`, `!Type:Oth A` or
/// `!Type:Oth L`; its records are lines of one field code and a value, each record ended by `^`
/// (or by the next header, or the end of the file). Category and class lists (`!Type:Cat`,
/// `!Type:Class`) and `!Option:`/`!Clear:` lines are skipped; any other `!Type:` (`Invst`,
/// `Memorized`, `Prices`, …) is refused. An `!Account` block's `N` names the account of the
/// registers after it: records of a second account are refused (a statement is one account's).
///
/// Fields: `D` the date, `T` the amount (`U` when there is no `T`), `P` the payee, `M` the memo
/// (the line's note), `L` the category (the counterpart; a transfer's `[Account]` keeps its
/// brackets, which say it is an account, not a category), `S`/`E`/`$` a split's category, memo and amount. `N` (a cheque number, or a word
/// such as `ATM`, `DEP`, `EFT`) is ignored: a line has no field for it, and putting it in the note
/// would change the text that rules match on. `C` (cleared), `A` (address) and any other code are
/// ignored too.
///
/// Dates: `1/ 2'25`, `01/02/2025`, `1/2/25`, `01/02'2025`, `1-2-2025`, `1.2.2025` (month first,
/// day first, or as the file's dates allow: `DateOrder`), and `2025-01-02` when the first group has four digits. Spaces
/// may follow a separator. A two-digit year after `'` is 20yy; after another separator it is 20yy
/// below 70 and 19yy from 70. Amounts: `-1,234.56`, and `1.234,56`: the last `.` or `,` is the
/// decimal mark when it occurs once and 1 to `exponent` digits follow it; the other mark
/// separates thousands (groups of three). A split's `$` may start with `=` (`$=746.36`, as in
/// the QIF specification's example): the number after it is the amount.
///
/// The statement's kind is `.card` when the first register section is `CCard`, else `.bank`; QIF
/// names no account number, currency or balance.
/// ```swift
/// let statement = try QIFReader.read("!Type:Bank\nD1/ 2'25\nT-1,234.56\nPShop\n^\n", exponent: 2)
/// statement.lines[0].amountMinor   // -123456, on 2025-01-02
/// ```
public enum QIFReader {
    /// The transactions of the file's bank/card/cash sections (`!Type:Bank`, `!Type:CCard`, `!Type:Cash`, `!Type:Oth A`, `!Type:Oth L`).
    /// Dates are month-first (Quicken's convention) unless `dayFirst`.
    /// - Throws: `StatementError` for an unknown section, a record without a date or an amount,
    ///   a date or an amount that does not read, a split without an amount, no register at all.
    /// - Complexity: O(n) in the length of the text.
    public static func read(_ text: String, exponent: Int, dayFirst: Bool = false) throws(StatementError) -> Statement {
        try read(text, exponent: exponent, dates: dayFirst ? .dayFirst : .monthFirst)
    }

    /// The order of the day and the month in a date such as `01/02/2025` (a date whose first
    /// group has four digits is always year, month, day).
    public enum DateOrder: Sendable, Equatable {
        /// Quicken's own order: `12/29/2010`.
        case monthFirst
        /// `29/12/2010`.
        case dayFirst
        /// As the file's dates allow: when one of them reads only day first (`29/12/10`), or only
        /// month first (`12/29/10`), the whole file is read that way. A file whose dates read both
        /// ways (`01/02/2025`) and none tells which is refused (`StatementError.needsDateOrder`);
        /// one whose dates read the same either way (`5/5/25`) is read month first.
        case fromFile
    }

    /// The transactions of the file's registers, as `read(_:exponent:dayFirst:)`, with dates in
    /// the order `dates` says.
    /// - Throws: as `read(_:exponent:dayFirst:)`; with `.fromFile`, a file whose dates stay
    ///   ambiguous (the error's `needsDateOrder` set) or mix the two orders.
    /// - Complexity: O(n) in the length of the text.
    public static func read(_ text: String, exponent: Int, dates: DateOrder) throws(StatementError) -> Statement {
        guard (0...18).contains(exponent) else { throw StatementError(line: 0, "exponent \(exponent) is not 0 to 18") }
        var reader = Reader(exponent: exponent, dates: dates)
        let bytes = Array(text.utf8)
        var start = 0
        var number = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            try reader.read(line: bytes[start..<end], number: number)
            start = end + (end + 1 < bytes.count && bytes[end] == 0x0D && bytes[end + 1] == 0x0A ? 2 : 1)
            number += 1
        }
        return try reader.finish()
    }

    /// Whether the first non-blank line starts with `!Type:`, `!Account` or `!Option:` (Quicken's `!Option:AutoSwitch`).
    public static func looksLikeQIF(_ text: String) -> Bool {
        let start = text.unicodeScalars.drop { $0 == "\u{FEFF}" || $0.properties.isWhitespace }
        let head = String(String.UnicodeScalarView(start.prefix(9))).lowercased()
        return head.hasPrefix("!type:") || head.hasPrefix("!account") || head.hasPrefix("!option:")
    }

    /// `account`: an `!Account` block, whose `N` names the registers after it.
    private enum Section { case none, skipped, account, register }

    /// A field's trimmed text and its line.
    private struct Field {
        var text: String
        var line: Int
    }

    private struct Split {
        var category: String
        var line: Int
        var amount: Field?
        var memo: String?
    }

    /// The fields of the record being read.
    private struct Record {
        var line = 0
        var date: Field?
        var total: Field?
        var unsignedTotal: Field?
        var payee = ""
        var memo = ""
        var category = ""
        var splits: [Split] = []
    }

    private struct Reader {
        let exponent: Int
        let dates: DateOrder
        var section = Section.none
        var kind: Statement.Kind?
        var record = Record()
        var lines: [StatementLine] = []
        /// Each line's date, read into its groups: the day is set once the file's order is known.
        var dateGroups: [DateGroups] = []
        /// The account the last `!Account` block named, and each account whose register had records,
        /// with the line of the first (a statement is one account's).
        var named: String?
        var accounts: [(name: String, line: Int)] = []

        init(exponent: Int, dates: DateOrder) {
            self.exponent = exponent
            self.dates = dates
        }

        mutating func read(line: ArraySlice<UInt8>, number: Int) throws(StatementError) {
            let bytes = QIFReader.trimmed(line)
            guard let code = bytes.first else { return }
            if code == UInt8(ascii: "!") { return try header(bytes, number: number) }
            switch section {
            case .none: throw StatementError(line: number, "'\(String(decoding: bytes, as: UTF8.self))' comes before any !Type: section")
            case .skipped: return
            case .account:
                if code == UInt8(ascii: "N") { named = String(decoding: QIFReader.trimmed(bytes.dropFirst()), as: UTF8.self) }
                return
            case .register: break
            }
            guard code != UInt8(ascii: "^") else { return try endRecord() }
            if record.line == 0 { record.line = number }
            guard "DTUPMLSE$".utf8.contains(code) else { return }  // N, C, A, F, %, and codes of other programs
            let field = Field(text: String(decoding: QIFReader.trimmed(bytes.dropFirst()), as: UTF8.self), line: number)
            switch code {
            case UInt8(ascii: "D"): record.date = field
            case UInt8(ascii: "T"): record.total = field
            case UInt8(ascii: "U"): record.unsignedTotal = field
            case UInt8(ascii: "P"): record.payee = field.text
            case UInt8(ascii: "M"): record.memo = field.text
            case UInt8(ascii: "L"): record.category = field.text
            case UInt8(ascii: "S"): record.splits.append(Split(category: field.text, line: number))
            case UInt8(ascii: "E"):
                if record.splits.last?.memo != nil || record.splits.isEmpty { record.splits.append(Split(category: "", line: number)) }
                record.splits[record.splits.count - 1].memo = field.text
            case UInt8(ascii: "$"):
                if record.splits.last?.amount != nil || record.splits.isEmpty { record.splits.append(Split(category: "", line: number)) }
                record.splits[record.splits.count - 1].amount = field
            default: return
            }
        }

        private mutating func header(_ bytes: ArraySlice<UInt8>, number: Int) throws(StatementError) {
            try endRecord()
            let text = String(decoding: bytes, as: UTF8.self)
            let lower = text.lowercased()
            if lower.hasPrefix("!type:") {
                let type = String(decoding: QIFReader.trimmed(bytes.dropFirst(6)), as: UTF8.self)
                switch type.lowercased() {
                case "bank", "cash", "oth a", "oth l":
                    section = .register
                    kind = kind ?? .bank
                case "ccard":
                    section = .register
                    kind = kind ?? .card
                case "cat", "class":
                    section = .skipped
                default:
                    throw StatementError(line: number, "unknown QIF section !Type:\(type); capital reads Bank, CCard, Cash, Oth A, Oth L")
                }
            } else if lower.hasPrefix("!account") {
                section = .account
                named = nil
            } else if !lower.hasPrefix("!option:") && !lower.hasPrefix("!clear:") {
                throw StatementError(line: number, "unknown QIF header '\(text)'")
            }
        }

        private mutating func endRecord() throws(StatementError) {
            guard record.line > 0 else { return }
            let record = record
            self.record = Record()
            guard let date = record.date else { throw StatementError(line: record.line, "the record has no date (D)") }
            guard let total = record.total ?? record.unsignedTotal else {
                throw StatementError(line: record.line, "the record has no amount (T)")
            }
            var splits: [StatementSplit] = []
            for split in record.splits {
                guard let amount = split.amount else {
                    throw StatementError(line: split.line, "the split '\(split.category)' has no amount ($)")
                }
                let minor = try QIFReader.amount(amount, code: "$", exponent: exponent)
                splits.append(StatementSplit(counterpart: QIFReader.account(split.category), amountMinor: minor, note: split.memo ?? ""))
            }
            if let named, accounts.last?.name != named {
                // A second account's register: a statement is one account's lines.
                if let first = accounts.first, first.name != named {
                    throw StatementError(
                        line: record.line,
                        "the file holds the registers of several accounts ('\(first.name)', then '\(named)'): "
                            + "capital imports one account's lines at a time; export each account on its own")
                }
                accounts.append((named, record.line))
            }
            dateGroups.append(try QIFReader.groups(date, dates: dates))
            lines.append(
                StatementLine(
                    line: record.line, day: Day(0),
                    amountMinor: try QIFReader.amount(total, code: record.total == nil ? "U" : "T", exponent: exponent),
                    payee: record.payee, note: record.memo, counterpart: record.category.isEmpty ? nil : QIFReader.account(record.category),
                    splits: splits))
        }

        mutating func finish() throws(StatementError) -> Statement {
            try endRecord()
            guard let kind else {
                throw StatementError(
                    line: 0, "no bank, card or cash section (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A, !Type:Oth L) in the file")
            }
            let order = try QIFReader.order(dateGroups, dates: dates)
            for index in lines.indices { lines[index].day = try QIFReader.day(dateGroups[index], dayFirst: order == .dayFirst) }
            return Statement(kind: kind, lines: lines)
        }
    }

    /// A category as it is; a transfer's `[Account]` keeps its brackets (an account, never a category).
    private static func account(_ category: String) -> String { category }

    /// A date's three groups of digits: year, month, day when `yearFirst`, else two short groups
    /// (month and day in an order the file decides) and the year.
    private struct DateGroups {
        var field: Field
        var yearFirst: Bool
        var first: Int
        var second: Int
        var year: Int

        /// Whether the groups make a calendar date read day first (`dayFirst`) or month first.
        func reads(dayFirst: Bool) -> Bool {
            if yearFirst { return (try? Day(year: year, month: first, day: second)) != nil }
            return (try? Day(year: year, month: dayFirst ? second : first, day: dayFirst ? first : second)) != nil
        }
    }

    /// `1/ 2'25`, `01/02/2025`, `1-2-25`, `2025-01-02`: three groups of digits, separated by one
    /// of `/ - . '`, spaces allowed around the separators.
    private static func groups(_ field: Field, dates: DateOrder) throws(StatementError) -> DateGroups {
        var notDate: StatementError {
            let forms =
                switch dates {
                case .monthFirst: "M/D/YY, M/D'YY, M/D/YYYY"
                case .dayFirst: "D/M/YY, D/M'YY, D/M/YYYY"
                case .fromFile: "M/D/YYYY, D/M/YYYY (or a two-digit year, after / or ')"
                }
            return StatementError(line: field.line, "date '\(field.text)' is not a date: expected \(forms) or YYYY-MM-DD")
        }
        var groups: [(value: Int, digits: Int, separator: UInt8)] = []
        var separator = UInt8(ascii: "/")
        var bytes = field.text.utf8[...]
        while true {
            let digits = bytes.prefix(while: isDigit)
            guard (1...4).contains(digits.count) else { throw notDate }
            groups.append((digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }, digits.count, separator))
            bytes = bytes.dropFirst(digits.count).drop(while: isSpace)
            guard let next = bytes.first else { break }
            guard groups.count < 3, "/-.'".utf8.contains(next) else { throw notDate }
            separator = next
            bytes = bytes.dropFirst().drop(while: isSpace)
        }
        guard groups.count == 3 else { throw notDate }
        if groups[0].digits == 4 {
            guard groups[1].digits <= 2, groups[2].digits <= 2 else { throw notDate }
            return DateGroups(field: field, yearFirst: true, first: groups[1].value, second: groups[2].value, year: groups[0].value)
        }
        guard groups[0].digits <= 2, groups[1].digits <= 2, groups[2].digits != 3 else { throw notDate }
        let short = groups[2].value
        let year = groups[2].digits == 4 ? short : groups[2].separator == UInt8(ascii: "'") || short < 70 ? 2000 + short : 1900 + short
        return DateGroups(field: field, yearFirst: false, first: groups[0].value, second: groups[1].value, year: year)
    }

    /// The order the file's dates are read in: `dates`, unless `.fromFile`; then the order the
    /// first date that reads only one way says (a date that reads only the other way is then an
    /// error naming both), month first when every date reads the same both ways.
    private static func order(_ dates: [DateGroups], dates order: DateOrder) throws(StatementError) -> DateOrder {
        guard order == .fromFile else { return order }
        var onlyDayFirst: DateGroups?
        var onlyMonthFirst: DateGroups?
        var ambiguous: DateGroups?
        for date in dates where !date.yearFirst {
            let (dayFirst, monthFirst) = (date.reads(dayFirst: true), date.reads(dayFirst: false))
            if dayFirst && !monthFirst && onlyDayFirst == nil { onlyDayFirst = date }
            if monthFirst && !dayFirst && onlyMonthFirst == nil { onlyMonthFirst = date }
            if dayFirst && monthFirst && date.first != date.second && ambiguous == nil { ambiguous = date }
        }
        switch (onlyDayFirst, onlyMonthFirst) {
        case (let day?, let month?):
            let (later, earlier) = day.field.line > month.field.line ? (day, month) : (month, day)
            let (laterOrder, earlierOrder) = later.field.line == day.field.line ? ("day", "month") : ("month", "day")
            throw StatementError(
                line: later.field.line,
                "date '\(later.field.text)' reads only \(laterOrder) first, and date '\(earlier.field.text)' on line \(earlier.field.line) "
                    + "only \(earlierOrder) first: the file's dates are not in one order")
        case (_?, nil): return .dayFirst
        case (nil, _?): return .monthFirst
        case (nil, nil):
            guard let ambiguous else { return .monthFirst }
            var error = StatementError(
                line: ambiguous.field.line,
                "date '\(ambiguous.field.text)' reads month first and day first, and no date of the file reads only one way")
            error.needsDateOrder = true
            throw error
        }
    }

    /// The day of a date's groups, month and day in the order `dayFirst` says.
    private static func day(_ groups: DateGroups, dayFirst: Bool) throws(StatementError) -> Day {
        do {
            if groups.yearFirst { return try Day(year: groups.year, month: groups.first, day: groups.second) }
            return try Day(
                year: groups.year, month: dayFirst ? groups.second : groups.first, day: dayFirst ? groups.first : groups.second)
        } catch {
            let order = groups.yearFirst ? "year first" : dayFirst ? "day first" : "month first"
            throw StatementError(line: groups.field.line, "date '\(groups.field.text)' is not a calendar date (read \(order))")
        }
    }

    /// `[+-]`, digits in groups of three split by one mark, and the other mark before 1 to
    /// `exponent` decimals: `-1,234.56`, `1.234,56`, `1234`, `.5`.
    private static func amount(_ field: Field, code: String, exponent: Int) throws(StatementError) -> Int64 {
        var notAmount: StatementError { StatementError(line: field.line, "\(code) '\(field.text)' is not an amount") }
        var bytes = field.text.utf8[...]
        // The QIF specification's own split example writes `$=746.36`: the number as written.
        if code == "$", bytes.first == UInt8(ascii: "=") { bytes = bytes.dropFirst() }
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let isMark = { (byte: UInt8) in byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") }
        guard !bytes.isEmpty, bytes.allSatisfy({ isDigit($0) || isMark($0) }) else { throw notAmount }
        var whole = bytes
        var fraction = bytes.suffix(0)
        var thousands: UInt8?
        if let last = bytes.lastIndex(where: isMark) {
            let decimals = bytes.distance(from: bytes.index(after: last), to: bytes.endIndex)
            let mark = bytes[last]
            if (1...max(1, exponent)).contains(decimals), exponent > 0, bytes.firstIndex(of: mark) == last {
                whole = bytes[..<last]
                fraction = bytes[bytes.index(after: last)...]
                thousands = mark == UInt8(ascii: ".") ? UInt8(ascii: ",") : UInt8(ascii: ".")
            } else {
                thousands = mark
            }
        }
        let groups = whole.split(separator: thousands ?? 0, omittingEmptySubsequences: false)
        guard groups.allSatisfy({ $0.allSatisfy(isDigit) }), !(whole.isEmpty && fraction.isEmpty) else { throw notAmount }
        if groups.count > 1 {
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else { throw notAmount }
        }
        var magnitude: UInt64 = 0
        var tooLarge: StatementError { StatementError(line: field.line, "\(code) '\(field.text)' is too large") }
        func shift(in digit: UInt8) throws(StatementError) {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, overflowPlus) = times.addingReportingOverflow(UInt64(digit &- 0x30))
            guard !overflowTimes, !overflowPlus else { throw tooLarge }
            magnitude = plus
        }
        for group in groups { for digit in group { try shift(in: digit) } }
        for digit in fraction { try shift(in: digit) }
        for _ in fraction.count..<exponent { try shift(in: UInt8(ascii: "0")) }
        // Not Int64.min: every amount must be negatable (a statement line's counterpart is its negation).
        guard magnitude <= UInt64(Int64.max) else { throw tooLarge }
        return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
    }

    /// The bytes without the spaces and tabs around them.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
