import CapitalCore
import CapitalKit
import Foundation
import Testing

/// capital's reading of bank CSV exports with hledger-style rules, against hledger 1.25's own
/// reading of the same files (Tests/Fixtures/statements: a German bank's `;`-separated
/// Windows-1252 export with decimal commas, a Russian bank's Windows-1251 export with debit and
/// credit columns listed newest first, a TAB-separated UTF-8 file with a BOM, amounts whose signs a
/// card's `amount -%amt` doubles, a newest-first file that does not say so).
@Suite("Kit: CSV statements read by rules, as hledger reads them")
struct StatementRulesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/statements").path
    static let fixtures = ["eurobank.csv", "rubank.csv", "tabbank.tsv", "signs.csv", "newest.csv"]

    /// One transaction as both read it: day, amount into the bank account, description, the
    /// other account (hledger's `expenses:unknown`/`income:unknown` where no rule gave one), comment.
    struct Entry: Equatable {
        var date: String
        var amount: String
        var payee: String
        var counterpart: String
        var comment: String
    }

    static func ours(_ name: String) throws -> [Entry] {
        let path = folder + "/" + name
        let base = (name as NSString).deletingPathExtension
        let reading = try StatementSource(path: path, rulesPath: folder + "/" + base + ".rules").read(exponent: 2)
        return reading.statement.lines.map { line in
            Entry(
                date: line.day.iso, amount: Money.format(minor: line.amountMinor, exponent: 2, grouping: nil), payee: line.payee,
                counterpart: line.counterpart ?? (line.amountMinor < 0 ? "expenses:unknown" : "income:unknown"),
                comment: line.note.replacingOccurrences(of: "\r\n", with: "\n"))
        }
    }

    /// hledger's `print -O csv`: per transaction, the bank's posting and the other one.
    static func theirs(csv text: String, bankAccount: String) throws -> [Entry] {
        var reader = DelimitedReader(text: text)
        _ = try reader.next()  // header
        var postings: [String: [[String]]] = [:]
        var order: [String] = []
        while let record = try reader.next() {
            let fields = record.fields
            if postings[fields[0]] == nil { order.append(fields[0]) }
            postings[fields[0], default: []].append(fields)
        }
        return try order.map { index in
            let rows = try #require(postings[index])
            let bank = try #require(rows.first { $0[7] == bankAccount })
            let other = try #require(rows.first { $0[7] != bankAccount })
            return Entry(date: bank[1], amount: bank[8], payee: bank[5], counterpart: other[7], comment: bank[6])
        }
    }

    /// The commodity style hledger prints amounts in: a `.` decimal mark and no digit groups.
    static let styles = [
        "eurobank.csv": "EUR1000.00", "rubank.csv": "1000.00", "tabbank.tsv": "GBP1000.00", "signs.csv": "EUR1000.00",
        "newest.csv": "EUR1000.00",
    ]
    static let bankAccounts = [
        "eurobank.csv": "assets:bank:giro", "rubank.csv": "assets:bank:ru:card", "tabbank.tsv": "assets:bank:tab", "signs.csv": "assets:bank:signs",
        "newest.csv": "assets:bank:newest",
    ]

    @Test("capital reads each fixture as hledger 1.25 did (its committed reading)", arguments: fixtures)
    func agreesWithCommittedReading(_ name: String) throws {
        let base = (name as NSString).deletingPathExtension
        let reference = try String(contentsOfFile: Self.folder + "/" + base + ".hledger.csv", encoding: .utf8)
        let theirs = try Self.theirs(csv: reference, bankAccount: try #require(Self.bankAccounts[name]))
        let ours = try Self.ours(name)
        #expect(ours.count == theirs.count)
        for (mine, hledgers) in zip(ours, theirs) { #expect(mine == hledgers) }
    }

    /// With hledger installed: hledger reads each fixture now (converted to UTF-8, which hledger
    /// needs) and agrees with capital line by line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/hledger")), arguments: fixtures)
    func agreesWithHledgerNow(_ name: String) throws {
        let base = (name as NSString).deletingPathExtension
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-hledger-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.folder) where file.hasSuffix(".rules") {
            try FileManager.default.copyItem(atPath: Self.folder + "/" + file, toPath: folder + "/" + file)
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name)))
        let text = try TextEncoding.decode(bytes, declared: nil).text
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        let hledger = Process()
        hledger.executableURL = URL(fileURLWithPath: "/usr/bin/hledger")
        hledger.arguments = [
            "-f", folder + "/" + name, "--rules-file", folder + "/" + base + ".rules", "print", "-O", "csv", "-c", try #require(Self.styles[name]),
        ]
        hledger.environment = ["LC_ALL": "C.UTF-8", "HOME": folder]
        let pipe = Pipe()
        hledger.standardOutput = pipe
        try hledger.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        hledger.waitUntilExit()
        #expect(hledger.terminationStatus == 0)
        let theirs = try Self.theirs(csv: output, bankAccount: try #require(Self.bankAccounts[name]))
        #expect(theirs.count > 5)
        #expect(try Self.ours(name) == theirs)
    }
}
