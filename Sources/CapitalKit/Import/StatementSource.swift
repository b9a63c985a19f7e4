import CapitalCore
import Foundation

/// The formats of bank statements capital reads.
public enum StatementFormat: String, CaseIterable, Sendable {
    /// A bank's CSV export, read by hledger-style rules.
    case csv
    /// OFX 1.x (SGML) or 2.x (XML).
    case ofx
    /// Quicken Interchange Format.
    case qif
}

/// A bank statement file and how to read it.
public struct StatementSource: Sendable {
    public var path: String
    /// nil: told from the content (OFX headers, QIF `!Type:`, else CSV).
    public var format: StatementFormat?
    /// nil: UTF-8 when the bytes are UTF-8, else Windows-1251 or -1252 by their letters (OFX 1.x: its `CHARSET` header).
    public var encoding: TextEncoding?
    /// A CSV's rules; nil: `bank.csv.rules` beside the statement (as hledger looks for it), else `bank.rules`.
    public var rulesPath: String?
    /// Which statement of an OFX file holding several: the bank's account number, or its last digits.
    public var ofxAccount: String?
    /// The order of QIF dates (`01/02/2025`): `.fromFile` unless told, as the file's dates allow
    /// (a file whose dates read both ways and none tells which is refused).
    public var dates: QIFReader.DateOrder

    /// The statement at `path`, read as the other fields say (each nil: told from the file).
    public init(
        path: String, format: StatementFormat? = nil, encoding: TextEncoding? = nil, rulesPath: String? = nil, ofxAccount: String? = nil,
        dates: QIFReader.DateOrder = .fromFile
    ) {
        self.path = path
        self.format = format
        self.encoding = encoding
        self.rulesPath = rulesPath
        self.ofxAccount = ofxAccount
        self.dates = dates
    }

    /// The largest statement file read: a decade of daily lines is a few megabytes.
    public static let maxBytes = 256 << 20
    /// The longest record: past it a file is not a statement (a file of one 1 GB line is refused
    /// after its first megabyte).
    public static let maxRecordBytes = 1 << 20
}

/// A statement as read from its file.
public struct StatementReading: Sendable {
    public var statement: Statement
    public var format: StatementFormat
    public var encoding: TextEncoding
    /// For a CSV: per line, the rules that matched it (`bank.rules:12`); empty otherwise.
    public var matched: [[String]]
    /// For a CSV: the rules file read.
    public var rulesPath: String?
}

extension StatementReading {
    /// The reading with the amount of each line that gives only its balance settled from the
    /// balance before it (`Statement.settleAmountsFromBalances`), `opening` before the first.
    /// - Throws: `KitError.fileLine` naming `path` and the line whose amount is past the range.
    public func settlingAmountsFromBalances(opening: Int64, path: String) throws -> StatementReading {
        var reading = self
        do { try reading.statement.settleAmountsFromBalances(opening: opening) } catch {
            throw KitError.fileLine(path: path, line: error.line, reason: FieldKeys.literal(error.reason))
        }
        return reading
    }
}

extension StatementSource {
    /// Reads, decodes and parses the statement, amounts in minor units of a currency with
    /// `exponent` decimals.
    /// - Throws: `KitError` naming the file: missing, unreadable, too large, a record over 1 MB,
    ///   bytes that are not the encoding, no rules for a CSV, or the format's own errors by line.
    public func read(exponent: Int) throws -> StatementReading {
        let bytes = try Self.load(path, field: .statement)
        let format = self.format ?? Self.detect(bytes)
        // Options of another format would be passed over without a word: refused instead.
        if let wanted = ofxAccount, format != .ofx {
            throw KitError.invalid(
                .ofxAccount, value: wanted, reason: "the statement is \(format.rawValue.uppercased()), not OFX: it holds one account's lines")
        }
        if dates != .fromFile, format != .qif {
            throw KitError.refused(
                reason: "\(dates == .dayFirst ? "{dayFirst}" : "{monthFirst}") reads QIF dates; the statement is \(format.rawValue.uppercased())"
                    + (format == .csv ? " (its rules' date-format says how its dates read)" : " (OFX dates are YYYYMMDD)"))
        }
        var declared = encoding
        if declared == nil, format == .ofx { declared = Self.ofxCharset(bytes) }
        let text: String
        let used: TextEncoding
        do { (text, used) = try TextEncoding.decode(bytes, declared: declared) } catch {
            throw KitError.fileLine(path: path, line: error.line, reason: FieldKeys.literal(error.reason))
        }
        func lineError(_ error: StatementError) -> KitError {
            KitError.fileLine(path: path, line: error.line, reason: FieldKeys.literal(error.reason))
        }
        switch format {
        case .ofx:
            let statements: [Statement]
            do { statements = try OFXReader.read(text, exponent: exponent) } catch { throw lineError(error) }
            return StatementReading(statement: try choose(statements), format: format, encoding: used, matched: [], rulesPath: nil)
        case .qif:
            do {
                let statement = try QIFReader.read(text, exponent: exponent, dates: dates)
                return StatementReading(statement: statement, format: format, encoding: used, matched: [], rulesPath: nil)
            } catch {
                guard error.needsDateOrder else { throw lineError(error) }
                throw KitError.fileLine(
                    path: path, line: error.line, reason: FieldKeys.literal(error.reason) + ": give {dayFirst} or {monthFirst}")
            }
        case .csv:
            // hledger's `bank.csv.rules`, else `bank.rules` beside the statement.
            let candidates = [path + ".rules", (path as NSString).deletingPathExtension + ".rules"]
            guard let rulesPath = self.rulesPath ?? candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw KitError.invalid(
                    .statement, value: path,
                    reason: "a CSV statement is read by rules (hledger's CSV rules): give {rules}; neither "
                        + candidates.map { FieldKeys.literal($0) }.joined(separator: " nor ") + " exists")
            }
            let rules = try Self.rules(at: rulesPath)
            let reading = try rules.read(text, exponent: exponent, separator: Self.separator(for: path), path: path)
            return StatementReading(statement: reading.statement, format: format, encoding: used, matched: reading.matched, rulesPath: rulesPath)
        }
    }

    /// A rules file and the files it includes (relative to the including file's folder).
    public static func rules(at path: String) throws -> StatementRules {
        let text = try rulesText(path)
        return try StatementRules(text: text, path: path) { name, from in
            let folder = (from as NSString).deletingLastPathComponent
            let resolved = name.hasPrefix("/") ? name : (folder.isEmpty ? name : folder + "/" + name)
            return (try rulesText(resolved), (resolved as NSString).standardizingPath)
        }
    }

    private static func rulesText(_ path: String) throws -> String {
        let bytes = try load(path, field: .rules)
        do { return try TextEncoding.decode(bytes, declared: .utf8).text } catch {
            throw KitError.fileLine(path: path, line: error.line, reason: FieldKeys.literal(error.reason))
        }
    }

    /// The statement of `statements` that `ofxAccount` names, or the only one.
    private func choose(_ statements: [Statement]) throws -> Statement {
        let numbers = statements.map { $0.accountNumber ?? "?" }.joined(separator: ", ")
        if let wanted = ofxAccount {
            let chosen = statements.filter { ($0.accountNumber ?? "") == wanted }
            let byEnd = chosen.isEmpty ? statements.filter { ($0.accountNumber ?? "").hasSuffix(wanted) } : chosen
            guard byEnd.count == 1, let statement = byEnd.first else {
                throw KitError.invalid(
                    .ofxAccount, value: wanted,
                    reason: byEnd.isEmpty ? "no statement in the file is for it (accounts: \(numbers))" : "several statements end in it (\(numbers))")
            }
            return statement
        }
        guard statements.count == 1, let statement = statements.first else {
            throw KitError.invalid(
                .statement, value: path, reason: "the file holds \(statements.count) statements (accounts \(numbers)): name one with {ofxAccount}")
        }
        return statement
    }

    /// The file's bytes, refused when missing, not a file, larger than `maxBytes`, or when its
    /// first `maxRecordBytes` hold no line break and more follows.
    static func load(_ path: String, field: KitError.Field, what: String = "a statement") throws -> [UInt8] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw KitError.invalid(field, value: path, reason: "no such file")
        }
        guard !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw KitError.invalid(field, value: path, reason: isFolder.boolValue ? "is a folder" : "cannot be read")
        }
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxBytes else {
            throw KitError.invalid(field, value: path, reason: "\(size >> 20) MB is more than \(what) can be (\(maxBytes >> 20) MB)")
        }
        let head = handle.readData(ofLength: maxRecordBytes + 1)
        if head.count > maxRecordBytes && !head.contains(UInt8(ascii: "\n")) && !head.contains(UInt8(ascii: "\r")) {
            throw KitError.fileLine(path: path, line: 1, reason: "a line of more than \(maxRecordBytes >> 20) MB: this is not \(what)")
        }
        return [UInt8](head) + [UInt8](handle.readDataToEndOfFile())
    }

    /// OFX when the text starts like one, QIF when it starts with `!Type:` or `!Account`, else CSV.
    static func detect(_ bytes: [UInt8]) -> StatementFormat {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if OFXReader.looksLikeOFX(head) { return .ofx }
        if QIFReader.looksLikeQIF(head) { return .qif }
        return .csv
    }

    /// An OFX 1.x header's `CHARSET:1251` / `1252` (or `ENCODING:UTF-8`).
    static func ofxCharset(_ bytes: [UInt8]) -> TextEncoding? {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).uppercased()
        if head.contains("ENCODING:UTF-8") || head.contains("ENCODING=\"UTF-8\"") { return .utf8 }
        if head.contains("CHARSET:1251") { return .windows1251 }
        if head.contains("CHARSET:1252") || head.contains("CHARSET:ISO-8859-1") { return .windows1252 }
        return nil
    }

    /// The separator a CSV's name implies, as hledger takes it: TAB for `.tsv`, `;` for `.ssv`.
    static func separator(for path: String) -> UInt8 {
        switch (path as NSString).pathExtension.lowercased() {
        case "tsv": UInt8(ascii: "\t")
        case "ssv": UInt8(ascii: ";")
        default: UInt8(ascii: ",")
        }
    }
}
