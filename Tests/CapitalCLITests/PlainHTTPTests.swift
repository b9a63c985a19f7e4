import CCurl
import CapitalStore
import CapitalTestSupport
import Foundation
import Testing

@testable import CapitalKit
@testable import capital

/// A server of scripted answers on 127.0.0.1: for each connection it reads one request (its head
/// and a Content-Length body), keeps it, writes the next answer in its pieces (a few milliseconds
/// apart, so the client reads them in several reads) and closes the connection.
final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let lock = NSLock()
    private var received: [Data] = []
    private let done = DispatchSemaphore(value: 0)

    init(answers: [[Data]]) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 8) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            for answer in answers {
                let connection = accept(socket, nil, nil)
                if connection < 0 { break }
                let request = Self.readRequest(connection)
                lock.withLock { received.append(request) }
                for (index, piece) in answer.enumerated() {
                    if index > 0 { usleep(3000) }
                    _ = piece.withUnsafeBytes { send(connection, $0.baseAddress, piece.count, Int32(MSG_NOSIGNAL)) }
                }
                close(connection)
            }
            done.signal()
        }
    }

    deinit { close(socket) }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    static func closedPort() -> UInt16 { UInt16((try? Loopback.freePort()) ?? 9) }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far, as bytes.
    var requests: [Data] { lock.withLock { received } }

    /// Waits until every answer was written.
    func finish() { done.wait() }

    /// A request's head and body: up to the empty line, then Content-Length bytes.
    static func readRequest(_ connection: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count >= end.upperBound + length { return data }
            }
            let got = recv(connection, &buffer, buffer.count, 0)
            if got <= 0 { return data }
            data.append(contentsOf: buffer[..<got])
        }
    }
}

/// The sync client's own HTTP/1.1 for http:// servers (CCurl's plain.c): answers framed every way
/// HTTP frames them, gzip both ways, and each broken answer and unreachable server as one reason.
@Suite struct PlainHTTPTests {
    static func answer(_ status: String = "200 OK", headers: [String] = [], body: Data) -> Data {
        Data(("HTTP/1.1 \(status)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n").utf8) + body
    }

    static func gzip(_ data: Data) throws -> Data {
        var out: UnsafeMutablePointer<CChar>?
        let length = data.withUnsafeBytes { ccurl_gzip($0.baseAddress!.assumingMemoryBound(to: CChar.self), data.count, &out) }
        defer { free(out) }
        let bytes = try #require(out)
        #expect(length > 0)
        return Data(bytes: bytes, count: length)
    }

    static func gunzip(_ data: Data) -> Data? {
        var out: UnsafeMutablePointer<CChar>?
        let length = data.withUnsafeBytes { ccurl_gunzip($0.baseAddress!.assumingMemoryBound(to: CChar.self), data.count, 1 << 26, &out) }
        defer { free(out) }
        guard length >= 0, let out else { return nil }
        return Data(bytes: out, count: length)
    }

    /// `pieces` cut into `parts` pieces of about equal size.
    static func cut(_ data: Data, _ parts: Int) -> [Data] {
        let size = max(1, (data.count + parts - 1) / parts)
        return stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
    }

    /// Chunked framing of `data` in chunks of `size` bytes, with an extension and a trailer.
    static func chunked(_ data: Data, size: Int) -> Data {
        var out = Data()
        for start in stride(from: 0, to: data.count, by: size) {
            let piece = data.subdata(in: start..<min(start + size, data.count))
            out += Data("\(String(piece.count, radix: 16));name=value\r\n".utf8) + piece + Data("\r\n".utf8)
        }
        return out + Data("0\r\nX-Trailer: yes\r\n\r\n".utf8)
    }

    /// A JSON-like body of `count` bytes that compresses as change sets do, with every byte value in it.
    static func body(_ count: Int) -> Data {
        var data = Data(capacity: count)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        while data.count < count {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data += Data("{\"entity\":\"txn\",\"value\":\(seed >> 40)},".utf8)
            data.append(UInt8(truncatingIfNeeded: seed >> 56))
        }
        return data.prefix(count)
    }

    /// Whether two bodies are equal, as a plain Bool: an expectation on two large Data values that
    /// differ would have swift-testing diff them, which takes minutes.
    static func same(_ a: Data, _ b: Data) -> Bool { a == b }

    func send(_ server: ScriptedServer, method: String = "GET", body: Data? = nil) throws -> SyncResponse {
        try HTTPTransport().send(SyncRequest(method: method, path: "/v1/things?after=3", body: body, token: "secret-token"), to: server.url)
    }

    func reason(_ body: () throws -> SyncResponse) -> String? {
        do {
            _ = try body()
            return nil
        } catch SyncClientError.unreachable(_, let reason, _) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    @Test func answersOfKnownLengthChunkedOrToTheCloseArriveWhole() throws {
        let json = Self.body(200_000)
        let server = try ScriptedServer(answers: [
            Self.cut(Self.answer(headers: ["Content-Type: application/json", "Content-Length: \(json.count)"], body: json), 7),
            Self.cut(Self.answer(headers: ["Transfer-Encoding: chunked"], body: Self.chunked(json, size: 4093)), 11),
            Self.cut(Self.answer(headers: ["Connection: close"], body: json), 5),
            [Self.answer("404 Not Found", headers: ["content-length: 9"], body: Data("not found".utf8))],
            [Self.answer("204 No Content", body: Data())],
        ])
        for _ in 0..<3 {
            let response = try send(server)
            #expect(response.status == 200)
            #expect(Self.same(response.body, json))
        }
        let missing = try send(server)
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == "not found")
        let empty = try send(server, method: "DELETE")
        #expect(empty.status == 204 && empty.body.isEmpty)
        server.finish()

        // The request: the path and query, the host, one connection, the protocol's headers, and
        // a Content-Length for a method other than GET even without a body; no empty `Expect:`.
        let head = String(decoding: server.requests[0], as: UTF8.self)
        #expect(head.hasPrefix("GET /v1/things?after=3 HTTP/1.1\r\n"))
        for line in ["Host: 127.0.0.1:\(server.port)", "Connection: close", "Accept-Encoding: gzip", "Authorization: Bearer secret-token"] {
            #expect(head.contains("\r\n\(line)\r\n"), "\(line)")
        }
        #expect(head.contains("\r\n\(SyncWire.versionHeader): \(SyncWire.version)\r\n"))
        #expect(!head.contains("Expect:") && !head.contains("Content-Length"))
        #expect(String(decoding: server.requests[4], as: UTF8.self).contains("\r\nContent-Length: 0\r\n"))
    }

    @Test func gzipTravelsBothWays() throws {
        let json = Self.body(3_000_000)
        let zipped = try Self.gzip(json)
        #expect(zipped.count < json.count / 2)
        let server = try ScriptedServer(answers: [
            Self.cut(Self.answer(headers: ["Content-Encoding: gzip", "Transfer-Encoding: chunked"], body: Self.chunked(zipped, size: 65536)), 9),
            Self.cut(Self.answer(headers: ["Content-Encoding: gzip", "Content-Length: \(zipped.count)"], body: zipped), 3),
        ])
        // A large body goes gzip-compressed with its encoding said; the answers come back inflated.
        let first = try send(server, method: "POST", body: json)
        #expect(Self.same(first.body, json))
        #expect(Self.same(try send(server).body, json))
        server.finish()
        let request = server.requests[0]
        let end = try #require(request.range(of: Data("\r\n\r\n".utf8)))
        let head = String(decoding: request[..<end.lowerBound], as: UTF8.self)
        #expect(head.contains("\r\nContent-Encoding: gzip") && head.contains("\r\nContent-Type: application/json"))
        #expect(Self.same(Self.gunzip(request[end.upperBound...]) ?? Data(), json))
    }

    @Test func aBrokenAnswerIsOneReason() throws {
        let server = try ScriptedServer(answers: [
            [Self.answer(headers: ["Content-Length: 100"], body: Data("abc".utf8))],
            [Self.answer(headers: ["Transfer-Encoding: chunked"], body: Data("zz\r\nabc\r\n0\r\n\r\n".utf8))],
            [Self.answer(headers: ["Transfer-Encoding: chunked"], body: Data("3\r\nabc\r\n".utf8))],
            [Self.answer(headers: ["Content-Length: 100000000"], body: Data())],
            [Self.answer(headers: ["Content-Encoding: gzip", "Content-Length: 10"], body: Data("not gzip!!".utf8))],
            [Data("SSH-2.0-OpenSSH\r\n\r\n".utf8)],
            [],
        ])
        #expect(reason { try send(server) } == "the server closed the connection before the whole answer")
        #expect(reason { try send(server) } == "malformed chunked answer")
        #expect(reason { try send(server) } == "the server closed the connection before the whole answer")
        #expect(reason { try send(server) } == "the answer is larger than 64 MB")
        #expect(reason { try send(server) } == "the answer's gzip is broken or larger than 64 MB")
        #expect(reason { try send(server) } == "malformed answer")
        #expect(reason { try send(server) } == "the server closed the connection without an answer")
        server.finish()
    }

    @Test func anUnreachableServerIsOneReason() throws {
        let port = ScriptedServer.closedPort()
        #expect(
            reason { try HTTPTransport().send(SyncRequest(method: "GET", path: "/", body: nil, token: nil), to: "http://127.0.0.1:\(port)") }
                == "nothing answers there")
        #expect(
            reason { try HTTPTransport().send(SyncRequest(method: "GET", path: "/", body: nil, token: nil), to: "http://no-such-host.invalid") }
                == "unknown host")
    }
}
