import Foundation
import Testing

/// `export --what dues` on the sample: one row per bill or fine, read back with the strict
/// RFC 4180 parser of `ExportCSVTests` and checked against the sample's own fields.
@Suite("CLI: export --what dues")
struct DueExportTests {
    @Test func everyDueWithItsRestStatusAndDaysLeft() throws {
        let cli = try CLI()
        let text = cli.ok(["-f", "samples/household.yaml", "--today", "2025-04-01", "export", "--what", "dues"])
        let records = try ExportCSVTests.Strict4180.parse(text)
        let header = try #require(records.first)
        #expect(
            header == [
                "id", "type", "reason", "dueDay", "daysLeft", "total", "paid", "left", "currency", "status", "institution", "iban", "address",
                "payFrom", "category",
            ])
        let sample = HouseholdSample(text: String(decoding: FileManager.default.contents(atPath: CLI.samplePath) ?? Data(), as: UTF8.self))
        let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(rows.count == sample.dues.count)
        for (index, (row, due)) in zip(rows, sample.dues).enumerated() {
            let total = try #require(due.amount("total"))
            let paid = due.amount("paid") ?? 0
            #expect(row["id"] == String(index + 1))
            #expect(row["type"] == due["type"] && row["reason"] == due["reason"] && row["dueDay"] == due["due"])
            #expect(row["daysLeft"] == String(HouseholdForecast.number(due["due"]!) - HouseholdForecast.number("2025-04-01")))
            #expect(
                row["total"].flatMap(minorUnits) == total && row["paid"].flatMap(minorUnits) == paid
                    && row["left"].flatMap(minorUnits) == total - paid)
            #expect(row["status"] == (paid == 0 ? "unpaid" : paid == total ? "fully-paid" : "partially-paid"))
            #expect(row["category"] == due["category"] ?? (due["type"] == "bill" ? "Bills" : "Fines"))
            #expect(row["iban"] == due["iban"] ?? "")
        }
        // --from/--to pick by due day.
        let april = try ExportCSVTests.Strict4180.parse(
            cli.ok(["-f", "samples/household.yaml", "--today", "2025-04-01", "export", "--what", "dues", "--from", "2025-04", "--to", "2025-04"]))
        #expect(april.count - 1 == sample.dues.filter { $0["due"]!.hasPrefix("2025-04") }.count)
    }
}
