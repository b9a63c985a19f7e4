import CapitalCore
import Foundation
import Testing

@testable import CapitalKit

/// Rate files (issue 19): plain CSV, the European Central Bank's reference rates and the Bank of
/// Russia's daily XML, valued in the ledger's currency. Cross rates are checked against Python's
/// decimal module (the figures in the comments).
@Suite("Rate files")
struct RateFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rates").path

    static func read(_ name: String, ledger: String, only: Set<String>? = nil) throws -> RateFile {
        try RateFile.read(fixtures + "/" + name, ledger: try Currency(ledger), currencies: only.map { Set(try $0.map { try Currency($0) }) })
    }

    static func parse(_ text: String, ledger: String = "RUB") throws -> RateFile {
        try RateFile.parse(Array(text.utf8), path: "r.csv", ledger: try Currency(ledger))
    }

    /// `currency day value/per` for each rate.
    static func lines(_ file: RateFile) -> [String] {
        file.rates.map { "\($0.currency.code) \($0.day) \($0.value)\($0.per == 1 ? "" : "/\($0.per)")" }
    }

    static func fails(_ text: String, ledger: String = "RUB", line: Int, mentioning: String) {
        do {
            _ = try parse(text, ledger: ledger)
            Issue.record("read without error: \(text)")
        } catch let error as KitError {
            guard case .fileLine(let path, let at, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "r.csv" && at == line, "\(error)")
            #expect(reason.contains(mentioning), "\(reason)")
        } catch { Issue.record("\(error)") }
    }

    @Test func aPlainFileKeepsItsRatesExactly() throws {
        let file = try Self.read("plain.csv", ledger: "RUB")
        #expect(file.format == .csv)
        #expect(Self.lines(file) == ["THB 2025-03-14 25.04/10", "USD 2025-03-14 92.5012", "USD 2025-03-17 92.75"])
        let semicolons = try Self.read("semicolon.csv", ledger: "RUB")
        #expect(Self.lines(semicolons) == ["EUR 2025-03-14 100.1", "USD 2025-03-14 92.5012"])
    }

    @Test func badLinesAreNamedByNumber() {
        Self.fails("date,currency,rate\n2025-03-14,USD,92.5\n2025-13-01,USD,1\n", line: 3, mentioning: "2025-13-01")
        Self.fails("2025-03-14,XYZ,1\n", line: 1, mentioning: "'XYZ' is not an ISO 4217")
        Self.fails("2025-03-14,RUB,1\n", line: 1, mentioning: "own currency")
        Self.fails("2025-03-14,USD,0\n", line: 1, mentioning: "above zero")
        Self.fails("2025-03-14,USD,-5\n", line: 1, mentioning: "above zero")
        Self.fails("2025-03-14,USD,12345678901\n", line: 1, mentioning: "10 significant digits")
        Self.fails("2025-03-14,USD,1,0\n", line: 1, mentioning: "per '0'")
        Self.fails("2025-03-14,USD\n", line: 1, mentioning: "2 fields")
        Self.fails("2025-03-14,USD,92.5\n# again\n2025-03-14,usd,92.6\n", line: 3, mentioning: "first is on line 1")
    }

    @Test func theECBsRatesGoThroughTheEuro() throws {
        // A euro ledger: one euro is 1.0881 USD, so one USD is 1 / 1.0881 = 0.91903317709769… EUR.
        let euro = try Self.read("eurofxref-hist.csv", ledger: "EUR")
        #expect(euro.format == .ecb)
        #expect(euro.skipped == ["CYP"])
        let lines = Self.lines(euro)
        #expect(lines.contains("USD 2025-03-14 0.9190331771"))
        #expect(lines.contains("RUB 2008-01-02 0.02781293023"))  // 1 / 35.9545
        #expect(!lines.contains { $0.hasPrefix("RUB 2025") })  // N/A
        // A dollar ledger: a pound is 1.0881 / 0.84 = 1.29535714285714… USD; a euro is 1.0881 USD, exactly.
        let dollar = Self.lines(try Self.read("eurofxref-hist.csv", ledger: "USD"))
        #expect(dollar.contains("GBP 2025-03-14 1.295357143"))
        #expect(dollar.contains("EUR 2025-03-14 1.0881"))
        #expect(!dollar.contains { $0.hasPrefix("USD") })
        // The daily file: spaces after the commas, the day in words.
        let daily = Self.lines(try Self.read("eurofxref.csv", ledger: "USD", only: ["EUR", "GBP"]))
        #expect(daily == ["EUR 2025-03-14 1.0881", "GBP 2025-03-14 1.295357143"])
        // A rouble ledger has no column to go through on 2025-03-14 (N/A).
        #expect(throws: KitError.self) { try Self.read("eurofxref-hist.csv", ledger: "RUB") }
    }

    @Test func theBankOfRussiasRatesKeepTheirNominal() throws {
        let rouble = try Self.read("cbr-daily.xml", ledger: "RUB")
        #expect(rouble.format == .cbr)
        #expect(rouble.skipped == ["XDR"])
        #expect(Self.lines(rouble) == ["EUR 2025-03-14 94.873", "JPY 2025-03-14 58.7967/100", "THB 2025-03-14 25.8712/10", "USD 2025-03-14 87.1549"])
        // Through the rouble into euros: 87.1549 / 94.8730 = 0.91864808…; a rouble is 1 / 94.8730.
        let euro = Self.lines(try Self.read("cbr-daily.xml", ledger: "EUR", only: ["USD", "RUB"]))
        #expect(euro == ["RUB 2025-03-14 0.01054040665", "USD 2025-03-14 0.9186480874"])
        #expect(throws: KitError.self) { try Self.read("cbr-daily.xml", ledger: "GBP") }
    }

    @Test func brokenBankOfRussiaFilesAreRefused() {
        let head = "<?xml version=\"1.0\"?>\n<ValCurs Date=\"14.03.2025\" name=\"x\">\n"
        Self.fails("<?xml version=\"1.0\"?>\n<Other/>", line: 1, mentioning: "ValCurs")
        Self.fails("<?xml version=\"1.0\"?>\n<ValCurs name=\"x\">\n</ValCurs>", line: 2, mentioning: "Date")
        Self.fails(head + "<Valute><CharCode>USD</CharCode><Value>87,15</Value></Valute>\n</ValCurs>", line: 3, mentioning: "Nominal")
        Self.fails(
            head + "<Valute><CharCode>USD</CharCode><Nominal>0</Nominal><Value>87,15</Value></Valute>\n</ValCurs>", line: 3, mentioning: "Nominal '0'"
        )
        Self.fails(
            head + "<Valute><CharCode>USD</CharCode><Nominal>1</Nominal><Value>87,15</Value></Valute>\n"
                + "<Valute><CharCode>USD</CharCode><Nominal>1</Nominal><Value>87,16</Value></Valute>\n</ValCurs>", line: 4, mentioning: "which one")
        Self.fails(head + "</ValCurs>", line: 2, mentioning: "no Valute")
    }
}
