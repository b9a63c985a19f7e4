import CapitalKit
import CapitalStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sync protocol over HTTP(S) with URLSession: JSON bodies, the protocol's version header,
/// gzip answers, 30 seconds for an answer.
struct HTTPTransport: SyncTransport {
    func send(_ request: SyncRequest, to server: String) throws -> SyncResponse {
        guard let url = URL(string: server + request.path) else { throw SyncClientError.badServer(server) }
        var http = URLRequest(url: url, timeoutInterval: 30)
        http.httpMethod = request.method
        http.setValue("\(SyncWire.version)", forHTTPHeaderField: SyncWire.versionHeader)
        http.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        if let body = request.body {
            http.httpBody = body
            http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token = request.token { http.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        session.dataTask(with: http) { data, response, error in
            box.result = (data, response as? HTTPURLResponse, error)
            done.signal()
        }.resume()
        done.wait()
        session.finishTasksAndInvalidate()
        let (data, response, error) = box.result
        guard let response else {
            throw SyncClientError.unreachable(server: server, reason: Self.reason(error), pending: 0)
        }
        return SyncResponse(status: response.statusCode, body: data ?? Data())
    }

    private final class Box: @unchecked Sendable {
        var result: (Data?, HTTPURLResponse?, (any Error)?) = (nil, nil, nil)
    }

    /// Why no answer came, in a few words.
    static func reason(_ error: (any Error)?) -> String {
        guard let error = error as? URLError else { return error.map { "\($0.localizedDescription)" } ?? "no answer" }
        switch error.code {
        case .cannotConnectToHost, .networkConnectionLost: return "nothing answers there"
        case .timedOut: return "no answer in 30 s"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .notConnectedToInternet: return "not connected"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return "the secure connection failed: \(error.localizedDescription)"
        default: return error.localizedDescription
        }
    }
}
