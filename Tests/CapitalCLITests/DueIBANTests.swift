import Foundation
import Testing

/// IBANs on bills and fines: checked on the way in, stored without spaces, shown in groups of four
/// in tables (JSON and CSV carry it without spaces, and null when there is none).
@Suite("CLI: due payment IBANs")
struct DueIBANTests {
    @Test func aValidIBANIsStoredElectronicAndPrintedInGroups() throws {
        let cli = try CLI.initialized()
        cli.ok(["due", "add", "bill", "--total", "5400", "--due", "2025-04-25", "--reason", "Electricity", "--iban", "gb82 west 1234 5698 7654 32"])
        let shown = try #require(try cli.json(["due", "show", "1", "--format", "json"]) as? [String: Any])
        #expect(shown["iban"] as? String == "GB82WEST12345698765432")
        #expect(cli.ok(["due", "show", "1"]).contains("GB82 WEST 1234 5698 7654 32"))
        #expect(cli.ok(["export"]).contains("iban: GB82WEST12345698765432"))
        cli.ok(["due", "edit", "1", "--iban", ""])
        #expect((try cli.json(["due", "show", "1", "--format", "json"]) as? [String: Any])?["iban"] is NSNull)
    }

    @Test func aWrongIBANIsRefusedNamingWhatIsWrong() throws {
        let cli = try CLI.initialized()
        // One digit changed: the check digits no longer match (mod 97 catches every single change).
        cli.fails(
            ["due", "add", "bill", "--total", "10", "--due", "2025-05-01", "--reason", "Gas", "--iban", "GB82 WEST 1234 5698 7654 33"],
            mentioning: ["--iban", "GB82 WEST 1234 5698 7654 33", "check digits"])
        // One character short for Germany (22).
        cli.fails(
            ["due", "add", "fine", "--total", "10", "--due", "2025-05-01", "--reason", "Parking", "--iban", "DE8937040044053201300"],
            mentioning: ["--iban", "DE", "22"])
        cli.ok(["due", "add", "bill", "--total", "10", "--due", "2025-05-01", "--reason", "Gas"])
        cli.fails(["due", "edit", "1", "--iban", "XX00 1234"], mentioning: ["--iban", "XX00 1234"])
    }
}
