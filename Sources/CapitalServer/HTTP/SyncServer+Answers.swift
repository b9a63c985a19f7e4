import CapitalCore
import CapitalKit
import CapitalOutput
import Hummingbird
import NIOCore

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
                let text = try await copies.copy(of: ledger).answer(storage) { store in
                    try answer.report(store, query, clock: Today.clock()).render(format.output, RenderOptions())
                }
                if format == .json { return try json(text: text, for: request) }
                return Response(
                    status: .ok, headers: [.contentType: format.contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
            }
        }
    }
}

/// How an answer is written: the CLI's `--format json` or `--format csv`.
enum AnswerFormat: String, CaseIterable, Sendable {
    case json, csv

    var output: OutputFormat { self == .json ? .json : .csv }
    var contentType: String { self == .json ? "application/json" : "text/csv; charset=utf-8" }
}
