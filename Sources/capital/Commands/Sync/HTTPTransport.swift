import CCurl
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

/// The sync protocol over HTTP(S): http:// over a plain socket, https:// (and any proxy) through
/// libcurl, loaded only when such a request is made (see CCurl); JSON bodies, the protocol's
/// version header, gzip answers, 30 seconds for an answer.
struct HTTPTransport: SyncTransport {
    func send(_ request: SyncRequest, to server: String) throws -> SyncResponse {
        var headers = ["\(SyncWire.versionHeader): \(SyncWire.version)", "Accept: application/json", "Expect:"]
        if request.body != nil { headers.append("Content-Type: application/json") }
        if let token = request.token { headers.append("Authorization: Bearer \(token)") }
        var response = ccurl_response()
        let url = server + request.path
        let status = withCStrings(headers) { pointers in
            guard let body = request.body else {
                return ccurl_request(request.method, url, pointers, pointers.count, nil, 0, 30, &response)
            }
            // Never an empty buffer without an address: a body of no bytes is still a body.
            let bytes = [UInt8](body) + [0]
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { start in
                    // A large body travels gzip-compressed (a change set's JSON shrinks about sixfold).
                    var compressed: UnsafeMutablePointer<CChar>?
                    let length = body.count > 1024 ? ccurl_gzip(start, body.count, &compressed) : -1
                    defer { free(compressed) }
                    guard length >= 0, let compressed else {
                        return ccurl_request(request.method, url, pointers, pointers.count, start, body.count, 30, &response)
                    }
                    return withCStrings(headers + ["Content-Encoding: gzip"]) { zipped in
                        ccurl_request(request.method, url, zipped, zipped.count, compressed, Int(length), 30, &response)
                    }
                }
            }
        }
        defer { ccurl_free(&response) }
        guard status == 0 else {
            let reason = Self.reason(
                code: response.code, detail: withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
            throw SyncClientError.unreachable(server: server, reason: reason, pending: 0)
        }
        // The answer's bytes become the Data without a copy (a snapshot is tens of megabytes).
        guard let bytes = response.body else { return SyncResponse(status: response.status, body: Data()) }
        response.body = nil
        return SyncResponse(status: response.status, body: Data(bytesNoCopy: bytes, count: response.length, deallocator: .free))
    }

    /// Why no answer came, in a few words.
    static func reason(code: Int32, detail: String) -> String {
        switch code {
        case 7: "nothing answers there"
        case 6: "unknown host"
        case 28: "no answer in 30 s"
        default: detail
        }
    }

    private func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
