import CapitalStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A write's `Idempotency-Key` header (as the IETF's draft-ietf-httpapi-idempotency-key-header
/// has it): the same key from the same person within a day answers the first answer again,
/// status and body, and writes nothing; the same key with another request is 422. The answer is
/// kept in the same transaction as the write (`ServerStorage.appended(_:to:by:now:keeping:)`),
/// so that an answer lost on the way after the commit is answered again, never written twice.
struct IdempotencyKey: Sendable {
    static let header = HTTPField.Name("Idempotency-Key")!
    /// On an answer given again for a key: `true`.
    static let replayed = HTTPField.Name("Idempotent-Replayed")!
    static let reason = "1 to 255 printable ASCII characters without spaces (a UUID, say), given once"

    /// The key as sent (without the quotes of a structured-field string).
    let value: String
    /// The SHA-256 of what the request asked: its method, path, query and body.
    let fingerprint: String

    /// The key `request` (whose body is `body`) carries, nil when none; 400 naming the header when
    /// it is empty, too long, not printable ASCII or given twice.
    init?(_ request: Request, body: ByteBuffer) throws {
        let values = request.headers[values: Self.header]
        guard !values.isEmpty else { return nil }
        guard values.count == 1 else { throw Self.malformed(values.joined(separator: ", "), "given \(values.count) times; \(Self.reason)") }
        var text = values[0].trimmingCharacters(in: .whitespaces)
        if text.utf8.count > 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard (1...255).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Self.malformed(values[0], Self.reason)
        }
        value = text
        var hash = SHA256()
        hash.update(data: Array("\(request.method.rawValue) \(request.uri.path)?\(request.uri.query ?? "")\n".utf8))
        hash.update(data: Array(body.readableBytesView))
        fingerprint = Passwords.hex(hash.finalize())
    }

    private static func malformed(_ value: String, _ reason: String) -> Problem {
        Problem(
            400, "invalid_header", "\(header.rawName) \(quoted(value)): \(reason)", invalidParams: [.init(name: header.rawName, reason: reason)])
    }

    /// What to keep of `text`, the write's answer (`status`, JSON), for `user`.
    func keeping(_ text: String, status: Int, user: String, now: Int64) -> KeptAnswer {
        KeptAnswer(user: user, key: value, fingerprint: fingerprint, status: status, body: text, at: now)
    }

    /// `kept` again when it answered this very request (same method, path, query and body), with
    /// `Idempotent-Replayed: true`; else 422 naming the header, nothing written.
    func replay(_ kept: KeptAnswer, for request: Request) throws -> Response {
        guard kept.fingerprint == fingerprint else {
            let reason = "was sent before with another request (another body, path or query): a new request needs a new key"
            throw Problem(
                422, "idempotency_key_reused", "\(Self.header.rawName) \(quoted(value)): \(reason)",
                invalidParams: [.init(name: Self.header.rawName, reason: reason)])
        }
        var response = try json(text: kept.body, for: request)
        response.status = .init(code: kept.status)
        response.headers[Self.replayed] = "true"
        return response
    }
}
