import CapitalCore
import CapitalKit
import Foundation
import Testing

/// `ScenarioBasis.write`, the streamed path (blocks cut into parts, each read, evaluated and
/// formatted on its own thread), against the kept path (`evaluate`, then the writer on one
/// thread): the same bytes and the same summary, for files large enough to be cut in two.
@Suite("Kit: streamed scenario output")
struct ScenarioWriteTests {
    static func written(
        _ path: String, _ format: ScenarioResultWriter.Format, streamed: Bool, blockSize: Int = 1 << 21
    ) throws -> (String, ScenarioBatchSummary) {
        let basis = try ProjectionTests.projection.scenarioBasis(level: nil, from: nil, .pessimistic)
        let writer = ScenarioResultWriter(format, earliest: false, basis: basis)
        let source = ScenarioSource(path: path, exponent: 2, blockSize: blockSize)
        var text = TextBytes()
        if streamed {
            var blocks = 0
            let summary = try basis.write(source, earliest: false, as: writer, threads: 2) { bytes in
                blocks += 1
                bytes.withUnsafeBufferPointer { text.append(bytes: $0) }
            }
            #expect(blocks >= 3, "a header, rows and a footer")
            if blockSize < 1 << 16 { #expect(blocks > 20, "many blocks, each written while the next is evaluated") }
            return (text.text, summary)
        }
        writer.header(into: &text)
        var outcomes: [ScenarioOutcome] = []
        let summary = try basis.evaluate(source, earliest: false, threads: 1) { batch, _ in outcomes += batch }
        writer.rows(outcomes, first: true, into: &text)
        writer.footer(rows: outcomes.count, into: &text)
        return (text.text, summary)
    }

    /// Rows with refused ones among them; with `commentsFirst`, the first half of the file is
    /// comments, so that the first part has no row and the second part's first row is the first.
    static func file(commentsFirst: Bool) throws -> String {
        var csv = "name,price,date,monthly_cost\n"
        if commentsFirst { csv += String(repeating: "# a comment line that says nothing at all, to fill the first half\n", count: 2_000) }
        var random = SplitMix64(seed: commentsFirst ? 3 : 4)
        for n in 0..<3_000 {
            let price = n % 97 == 5 ? "abc" : String(1 + random.next(below: 900_000))
            let month = 4 + random.next(below: 9)
            csv += "\"plan \(n), \(n % 3 == 0 ? "\"\"best\"\"" : "ok")\",\(price),2025-\(month < 10 ? "0" : "")\(month)-15,"
            csv += n % 5 == 0 ? "\(random.next(below: 3_000))\n" : "\n"
            if n % 500 == 0 { csv += "\n# a comment\n" }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("capital-write-\(UUID().uuidString).csv").path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// In one block of 2 MiB, and in blocks of 4 KiB (about 40 of them: each block is evaluated
    /// while the one before is written), with lines cut at every place a block can end.
    @Test(arguments: [(false, 1 << 21), (true, 1 << 21), (false, 4_096), (true, 4_093)])
    func streamedOutputIsTheKeptOutput(commentsFirst: Bool, blockSize: Int) throws {
        let path = try Self.file(commentsFirst: commentsFirst)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 16, "large enough to be cut in two (64 KiB)")
        for format in [ScenarioResultWriter.Format.csv, .json] {
            let (streamed, streamedSummary) = try Self.written(path, format, streamed: true, blockSize: blockSize)
            let (kept, keptSummary) = try Self.written(path, format, streamed: false)
            #expect(streamed == kept, "\(format)")
            #expect(streamedSummary.total == 3_000 && streamedSummary.total == keptSummary.total)
            #expect(streamedSummary.failed == keptSummary.failed && streamedSummary.failed > 0)
            #expect(streamedSummary.firstFailure == keptSummary.firstFailure)
            if format == .json {
                let rows = try #require(try JSONSerialization.jsonObject(with: Data(streamed.utf8)) as? [[String: Any]])
                #expect(rows.count == 3_000)
            }
        }
    }
}
