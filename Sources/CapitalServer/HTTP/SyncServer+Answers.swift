import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

extension SyncServer {
    /// `GET /v1/ledgers/{id}/forecast`, `/can-spend`, `/when`, `/balance`, `/dues`, `/budgets` and
    /// `/expected`: the CLI's answers (`LedgerAnswer`), for any member, viewers too, as JSON (or CSV
    /// with `format=csv`).
    func answers(_ router: Router<ServerContext>) {
        for answer in LedgerAnswer.allCases {
            router.get("/v1/ledgers/:ledger/\(answer.rawValue)") { request, context in
                let (ledger, _) = try await access(request, context, .viewer)
                let query = try AnswerQuery(request, allowed: answer.parameters)
                let format = try query.choice("format", AnswerFormat.self) ?? .json
                let clock = Today.clock()
                let key = "\(answer.rawValue) \(clock.iso) \(query.canonical)"
                let text = try await copies.copy(of: ledger).answer(storage, key: key) { store in
                    try answer.report(store, query, clock: clock).render(format.output, RenderOptions())
                }
                return try answered(text, format, request)
            }
        }
        router.post("/v1/ledgers/:ledger/scenarios/try") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            let query = try AnswerQuery(request, allowed: ScenarioAnswer.tryParameters)
            let format = try query.choice("format", AnswerFormat.self) ?? .json
            let body = Data(buffer: try await collected(request))
            let text = try await copies.copy(of: ledger).answer(storage) { store in
                let basis = try ScenarioAnswer.basis(store, query, clock: Today.clock())
                return try ScenarioAnswer.tried(basis, body, query).render(format.output, RenderOptions())
            }
            return try answered(text, format, request)
        }
        router.post("/v1/ledgers/:ledger/scenarios/eval") { request, context in
            let (ledger, _) = try await access(request, context, .viewer)
            let query = try AnswerQuery(request, allowed: ScenarioAnswer.evalParameters)
            let format = try query.choice("format", AnswerFormat.self) ?? .json
            let (key, top) = try ScenarioAnswer.ranking(query)
            let earliest = try query.flag("earliest")
            // The body in a file named for its format, as `scenario eval` reads one.
            let json = request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("capital-eval-\(UUID().uuidString).\(json ? "json" : "csv")")
                .path
            let body = try await collected(request)
            guard FileManager.default.createFile(atPath: path, contents: Data(buffer: body)) else {
                throw Problem(500, "internal", "the server could not keep the scenarios to evaluate")
            }
            let source = ScenarioSource(path: path, exponent: 0)
            let basis: ScenarioBasis
            do {
                try ScenarioAnswer.checkSource(source)
                basis = try await copies.copy(of: ledger).answer(storage) { store in try ScenarioAnswer.basis(store, query, clock: Today.clock()) }
            } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
            let scenarios = ScenarioSource(path: path, exponent: basis.projection.currency.exponent)
            let writer = ScenarioResultWriter(format == .csv ? .csv : .json, earliest: earliest, basis: basis)
            // Results stream as they are evaluated, on NIO's thread pool (the evaluation is
            // synchronous and uses two threads of its own), never on Swift's cooperative threads.
            let (stream, output) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
            Task {
                defer { try? FileManager.default.removeItem(atPath: path) }
                do {
                    try await NIOThreadPool.singleton.runIfActive {
                        try ScenarioAnswer.write(basis, scenarios, earliest: earliest, as: writer, key: key, top: top) { bytes in
                            output.yield(ByteBuffer(bytes: bytes))
                        }
                    }
                    output.finish()
                } catch {
                    output.finish(throwing: error)
                }
            }
            return Response(status: .ok, headers: [.contentType: format.contentType], body: ResponseBody(asyncSequence: stream))
        }
    }

    /// `POST /v1/ledgers/{id}/transactions`: a quick entry (`QuickEntryBody`) by a member,
    /// appended to the ledger's log as the member's; 201 with the transaction. With an
    /// `Idempotency-Key`, the same request sent again by the same person within a day is answered
    /// as the first time and writes nothing (`IdempotencyKey`).
    func quickEntry(_ router: Router<ServerContext>) {
        router.post("/v1/ledgers/:ledger/transactions") { request, context -> Response in
            let (ledger, _, user) = try await accessing(request, context, .member)
            // The asking device's default account pays when the entry names none.
            let query = try AnswerQuery(request, allowed: ["today", "default-account"])
            let body = try await collected(request)
            let key = try IdempotencyKey(request, body: body)
            if let key, let kept = try await storage.keptAnswer(of: user, key: key.value, now: now()) { return try key.replay(kept, for: request) }
            let entry = try decoded(QuickEntryBody.self, body)
            var keeping: (@Sendable (String) -> KeptAnswer)?
            if let key {
                let clock = now
                keeping = { text in key.keeping(text, status: 201, user: user, now: clock()) }
            }
            let text: String
            do {
                text = try await written(ledger, by: user, { _ in query }, keeping: keeping) { store, today in
                    try entry.record(store, user: user, today: today)
                }
            } catch let taken as KeyTaken {
                // The same request sent twice at once (or to two servers): the other was written; this is answered as it was.
                guard let key, let kept = try await storage.keptAnswer(of: user, key: key.value, now: now()) else { throw taken }
                return try key.replay(kept, for: request)
            }
            var response = try json(text: text, for: request)
            response.status = .created
            return response
        }
    }

    /// An answer's text as JSON (compressed as every JSON answer is) or CSV.
    private func answered(_ text: String, _ format: AnswerFormat, _ request: Request) throws -> Response {
        if format == .json { return try json(text: text, for: request) }
        return Response(status: .ok, headers: [.contentType: format.contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// How an answer is written: the CLI's `--format json` or `--format csv`.
enum AnswerFormat: String, CaseIterable, Sendable {
    case json, csv

    var output: OutputFormat { self == .json ? .json : .csv }
    var contentType: String { self == .json ? "application/json" : "text/csv; charset=utf-8" }
}
