import CapitalStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CapitalServer

/// A ledger made on the server (`POST /v1/ledgers`) that no device has pushed to yet: every
/// answer and every write is a 409 problem saying so in HTTP terms (push change sets to
/// `…/changes`), naming no storage and giving no command-line advice; nothing is written; once a
/// device has pushed, the same question is answered.
@Suite struct EmptyLedgerTests {
    @Test func anEmptyLedgerIsAProblemSayingHowToFillItOverHTTP() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let anna = try await SyncServerTests.tokens(client, "anna").access
            let ledger = try await SyncServerTests.createLedger(client, anna)
            let headers = SyncServerTests.headers(anna)
            var json = headers
            json[.contentType] = "application/json"
            var csv = headers
            csv[.contentType] = "text/csv"
            let asked: [(String, HTTPRequest.Method, ByteBuffer?)] = [
                ("balance?today=2025-03-20", .get, nil), ("can-spend?why", .get, nil), ("forecast", .get, nil), ("dues", .get, nil),
                ("budgets", .get, nil), ("expected", .get, nil), ("when?amount=100", .get, nil),
                ("transactions", .post, ByteBuffer(string: #"{"kind": "spend", "amount": "350", "category": "Groceries"}"#)),
                ("scenarios/try", .post, ByteBuffer(string: #"{"price": "1000"}"#)),
                ("scenarios/eval", .post, ByteBuffer(string: "price,date\n1000,2025-06-01\n")),
            ]
            for (path, method, body) in asked {
                let response = try await client.execute(
                    uri: "/v1/ledgers/\(ledger)/\(path)", method: method,
                    headers: method == .get ? headers : path.hasSuffix("eval") ? csv : json, body: body)
                let problem = try SyncServerTests.problem(response)
                #expect(response.status.code == 409 && problem.code == "empty_ledger", "\(path): \(response.status) \(problem.detail)")
                #expect(problem.detail.contains("POST /v1/ledgers/\(ledger)/changes"), "\(path): \(problem.detail)")
                for word in [":memory:", "database", "capital init", "import", "--"] {
                    #expect(!problem.detail.contains(word), "\(path): \(problem.detail)")
                }
            }
            // Nothing was written: the log is as empty as it was.
            #expect(try harness.log.head(ledger) == 0)
            // Once a device has pushed its ledger, the same question is answered.
            let pushed = try await client.execute(
                uri: "/v1/ledgers/\(ledger)/changes", method: .post, headers: json,
                body: SyncServerTests.json(SyncWire.Push(sets: try SyncServerTests.deviceSets())))
            #expect(pushed.status == .ok)
            let answered = try await client.execute(uri: "/v1/ledgers/\(ledger)/balance?today=2025-03-20", method: .get, headers: headers)
            #expect(answered.status == .ok, "\(String(buffer: answered.body))")
        }
    }
}
