import CapitalCore
import CapitalStore

/// A file of exchange rates, as `rate import` reads it.
///
/// Three formats, told apart by content:
/// - **csv**: `date,currency,rate[,per]` a line (an optional header; `;` as separator allows a
///   decimal comma), rates in the ledger's currency.
/// - **ecb**: the European Central Bank's reference rates (`Date,USD,JPY,…`; the daily file's
///   `Date, USD, …` with `14 March 2025` too): units of each currency per euro, valued in the
///   ledger's currency through the euro, so the ledger's currency must be the euro or a column.
/// - **cbr**: the Bank of Russia's daily XML (`ValCurs Date="14.03.2025"` with a `Valute` per
///   currency: `CharCode`, `Nominal`, decimal-comma `Value` in roubles), through the rouble alike.
///
/// Rates a file gives directly in the ledger's currency are kept exactly; rates through a third
/// currency (and the inverse of a euro quote) are rounded half to even to 10 significant digits.
public struct RateFile: Sendable {
    /// Plain CSV, the European Central Bank's CSV, the Bank of Russia's XML.
    public enum Format: String, Sendable, CaseIterable {
        case csv, ecb, cbr
    }

    /// The rates read, by currency then day.
    public var rates: [ExchangeRate] = []
    public var format: Format
    /// Codes of the file's columns that are not active ISO 4217 currencies (the ECB's history
    /// keeps CYP, MTL, …), left out.
    public var skipped: [String] = []

    /// Reads the file at `path` for a ledger in `ledger`, keeping only `currencies` when given.
    /// - Throws: `KitError` naming the file (missing, too large) or the line that cannot be read.
    public static func read(_ path: String, ledger: Currency, currencies: Set<Currency>? = nil, field: KitError.Field = .rateFile) throws -> RateFile
    {
        let bytes = try StatementSource.load(path, field: field, what: "a rate file")
        return try parse(bytes, path: path, ledger: ledger, currencies: currencies)
    }

    /// Reads a file's bytes; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String, ledger: Currency, currencies: Set<Currency>? = nil) throws(KitError) -> RateFile {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var reader = Parser(path: path, ledger: ledger)
        let head = text.drop { $0.isWhitespace }
        if head.hasPrefix("<") {
            try reader.readCBR(text)
        } else if let first = lines.first, Parser.isECBHeader(first) {
            try reader.readECB(lines)
        } else {
            try reader.readCSV(lines)
        }
        var file = RateFile(format: reader.format)
        file.skipped = reader.skipped
        file.rates = reader.rates.filter { currencies?.contains($0.currency) ?? true }.sorted {
            ($0.currency.code, $0.day) < ($1.currency.code, $1.day)
        }
        return file
    }
}

/// The reading of one rate file: its rates so far, with the line each came from.
private struct Parser {
    let path: String
    let ledger: Currency
    var format = RateFile.Format.csv
    var rates: [ExchangeRate] = []
    var skipped: [String] = []
    /// Per currency and day, the line of its rate: a second is refused.
    var lineOf: [String: Int] = [:]

    init(path: String, ledger: Currency) {
        self.path = path
        self.ledger = ledger
    }

    func fail(_ line: Int, _ reason: String) -> KitError { .fileLine(path: path, line: line, reason: reason) }

    /// Adds a rate, refusing a second one for its currency and day.
    mutating func add(_ currency: Currency, _ day: Day, _ value: ExchangeRate.Decimal, per: Int64, line: Int) throws(KitError) {
        do { _ = try day.checkedInputYear(day.iso) } catch { throw fail(line, "\(error)") }
        let key = "\(currency.code) \(day.number)"
        if let first = lineOf[key] {
            throw fail(line, "a second rate for \(currency.code) on \(day) (the first is on line \(first)): which one?")
        }
        lineOf[key] = line
        rates.append(ExchangeRate(id: Store.newID(), currency: currency, day: day, value: value, per: per))
    }

    /// Values the quotes of one day against `base` (units of base per unit of each currency, as
    /// fractions) in the ledger's currency: directly when the ledger's currency is the base,
    /// else through it.
    mutating func addThrough(
        base: Currency, quotes: [(currency: Currency, perUnit: (Int128, Int128), exact: (ExchangeRate.Decimal, Int64)?)], day: Day, line: Int
    ) throws(KitError) {
        if base == ledger {
            for quote in quotes where quote.currency != ledger {
                if let (value, per) = quote.exact {
                    try add(quote.currency, day, value, per: per, line: line)
                } else if let value = ExchangeRate.Decimal(rounding: quote.perUnit.0, over: quote.perUnit.1) {
                    try add(quote.currency, day, value, per: 1, line: line)
                }
            }
            return
        }
        guard let own = quotes.first(where: { $0.currency == ledger }) else {
            throw fail(
                line,
                "no rate for \(ledger.code), the ledger's currency: the file's rates are in \(base.code), so they value only the currencies it lists in one it lists"
            )
        }
        // units of ledger per unit of X = (base per X) / (base per ledger)
        let (ownNumerator, ownDenominator) = own.perUnit
        for quote in quotes + [(base, (1, 1), nil)] where quote.currency != ledger {
            let (numerator, denominator) = quote.perUnit
            guard let value = ExchangeRate.Decimal(rounding: numerator * ownDenominator, over: denominator * ownNumerator) else {
                throw fail(line, "\(quote.currency.code) in \(ledger.code) is out of range")
            }
            try add(quote.currency, day, value, per: 1, line: line)
        }
    }

    // MARK: Plain CSV

    mutating func readCSV(_ lines: [Substring]) throws(KitError) {
        format = .csv
        var first = true
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmed(" \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let separator: Character = line.contains(";") ? ";" : ","
            let fields = line.split(separator: separator, omittingEmptySubsequences: false).map { Parser.unquoted($0.trimmed(" \t\r")) }
            defer { first = false }
            if first && fields.first?.lowercased() == "date" { continue }
            guard fields.count == 3 || fields.count == 4 else {
                throw fail(number, "expected date,currency,rate[,per], got \(fields.count) fields")
            }
            let day: Day
            do { day = try Day(input: fields[0]) } catch { throw fail(number, "'\(fields[0])': \(error)") }
            let currency = try currency(fields[1], line: number)
            guard currency != ledger else { throw fail(number, "'\(fields[1])': the ledger's own currency needs no rate") }
            let value: ExchangeRate.Decimal
            do { value = try ExchangeRate.Decimal(parsing: fields[2]) } catch { throw fail(number, "\(error)") }
            var per: Int64 = 1
            if fields.count == 4 {
                guard let parsed = Int64(fields[3]), parsed > 0 else {
                    throw fail(number, "per '\(fields[3])': the units a rate is for are a whole number above 0")
                }
                per = parsed
            }
            try add(currency, day, value, per: per, line: number)
        }
    }

    func currency(_ code: String, line: Int) throws(KitError) -> Currency {
        do { return try Currency(code) } catch { throw fail(line, "'\(code)' is not an ISO 4217 currency code") }
    }

    static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    // MARK: European Central Bank

    /// `Date,USD,JPY,…`: the first field `Date`, the others three letters (or empty, after a trailing comma).
    static func isECBHeader(_ line: Substring) -> Bool {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed(" \t\r") }
        guard fields.count >= 2, fields[0] == "Date" else { return false }
        return fields.dropFirst().allSatisfy { $0.isEmpty || ($0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase }) }
    }

    mutating func readECB(_ lines: [Substring]) throws(KitError) {
        format = .ecb
        let euro = try! Currency("EUR")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed(" \t\r") }
        var columns: [(index: Int, currency: Currency)] = []
        for (index, code) in header.enumerated().dropFirst() where !code.isEmpty {
            if let currency = try? Currency(code) { columns.append((index, currency)) } else { skipped.append(code) }
        }
        for (index, raw) in lines.enumerated().dropFirst() {
            let number = index + 1
            let line = raw.trimmed(" \t\r")
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed(" \t\r") }
            let day = try ecbDay(fields[0], line: number)
            var quotes: [(currency: Currency, perUnit: (Int128, Int128), exact: (ExchangeRate.Decimal, Int64)?)] = []
            for column in columns where column.index < fields.count {
                let text = fields[column.index]
                if text.isEmpty || text == "N/A" { continue }
                let perEuro: ExchangeRate.Decimal
                do { perEuro = try ExchangeRate.Decimal(parsing: text) } catch { throw fail(number, "\(column.currency.code): \(error)") }
                // The file says X per euro: a euro is worth that, one X is worth its inverse.
                let (numerator, denominator) = perEuro.fraction
                quotes.append((column.currency, (denominator, numerator), nil))
            }
            if quotes.isEmpty { continue }
            try addThrough(base: euro, quotes: quotes, day: day, line: number)
        }
    }

    /// `2025-03-14`, or the daily file's `14 March 2025`.
    func ecbDay(_ text: String, line: Int) throws(KitError) -> Day {
        if let day = try? Day(iso: text) { return day }
        let parts = text.split(separator: " ")
        let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        if parts.count == 3, let dayNumber = Int(parts[0]), let month = months.firstIndex(of: parts[1].lowercased()), let year = Int(parts[2]),
            let day = try? Day(year: year, month: month + 1, day: dayNumber)
        {
            return day
        }
        throw fail(line, "'\(text)' is not a date (YYYY-MM-DD or 14 March 2025)")
    }

    // MARK: Bank of Russia

    mutating func readCBR(_ text: String) throws(KitError) {
        format = .cbr
        let rouble = try! Currency("RUB")
        var lineStarts: [String.Index] = [text.startIndex]
        for index in text.indices where text[index].isNewline { lineStarts.append(text.index(after: index)) }
        func line(of index: String.Index) -> Int {
            var low = 0
            var high = lineStarts.count
            while low + 1 < high {
                let middle = (low + high) / 2
                if lineStarts[middle] <= index { low = middle } else { high = middle }
            }
            return low + 1
        }
        guard let root = text.range(of: "<ValCurs") else {
            throw fail(1, "not a rate file: XML without the Bank of Russia's ValCurs")
        }
        let rootLine = line(of: root.lowerBound)
        guard let date = Parser.attribute("Date", in: text[root.upperBound...].prefix { $0 != ">" }) else {
            throw fail(rootLine, "ValCurs has no Date=\"DD.MM.YYYY\"")
        }
        let dateParts = date.split(separator: ".")
        guard dateParts.count == 3, let d = Int(dateParts[0]), let m = Int(dateParts[1]), let y = Int(dateParts[2]),
            let day = try? Day(year: y, month: m, day: d)
        else { throw fail(rootLine, "ValCurs Date '\(date)' is not a day (DD.MM.YYYY)") }
        var quotes: [(currency: Currency, perUnit: (Int128, Int128), exact: (ExchangeRate.Decimal, Int64)?)] = []
        var rest = text[root.upperBound...]
        var seen: [String: Int] = [:]
        while let open = rest.range(of: "<Valute") {
            guard let close = rest[open.upperBound...].range(of: "</Valute>") else {
                throw fail(line(of: open.lowerBound), "a Valute without its </Valute>")
            }
            let block = rest[open.upperBound..<close.lowerBound]
            let number = line(of: open.lowerBound)
            rest = rest[close.upperBound...]
            guard let code = Parser.element("CharCode", in: block), let nominal = Parser.element("Nominal", in: block),
                let valueText = Parser.element("Value", in: block)
            else { throw fail(number, "a Valute needs CharCode, Nominal and Value") }
            guard let currency = try? Currency(code) else {
                skipped.append(code)
                continue
            }
            if let first = seen[currency.code] {
                throw fail(number, "a second rate for \(currency.code) on \(day) (the first is on line \(first)): which one?")
            }
            seen[currency.code] = number
            guard let per = Int64(nominal), per > 0 else { throw fail(number, "\(code): Nominal '\(nominal)' is not a whole number above 0") }
            let value: ExchangeRate.Decimal
            do { value = try ExchangeRate.Decimal(parsing: valueText) } catch { throw fail(number, "\(code): \(error)") }
            let (numerator, denominator) = value.fraction
            quotes.append((currency, (numerator, denominator * Int128(per)), (value, per)))
        }
        guard !quotes.isEmpty else { throw fail(rootLine, "ValCurs lists no Valute") }
        try addThrough(base: rouble, quotes: quotes, day: day, line: rootLine)
    }

    /// `name="value"` in a tag's text.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: name + "=\"") else { return nil }
        return String(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The text of `<name>…</name>` in a block.
    static func element(_ name: String, in block: Substring) -> String? {
        guard let open = block.range(of: "<\(name)>"), let close = block[open.upperBound...].range(of: "</\(name)>") else { return nil }
        return block[open.upperBound..<close.lowerBound].trimmed(" \t\r")
    }
}
