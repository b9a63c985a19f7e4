import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on 127.0.0.1 to a port on 127.0.0.1 (or to several, each new connection to the
/// next: a load balancer's round robin), which a test cuts (every connection through it closed,
/// and each new one closed as soon as it is accepted: a database gone away) and mends, or makes
/// lose answers (a request passes; the connection is closed when its answer starts back).
/// A thread accepts; two threads per connection copy bytes each way.
public final class TCPProxy: @unchecked Sendable {
    /// The port the proxy listens on.
    public let port: Int
    private let targets: [Int]
    private var next = 0
    private let listener: Int32
    private let lock = NSLock()
    private var isCut = false
    private var isLosing = false
    private var isClosed = false
    private var sockets: Set<Int32> = []

    /// A proxy to `target`, listening on a port of the system's choosing.
    public convenience init(to target: Int) throws { try self.init(toEach: [target]) }

    /// A proxy handing each new connection to the next of `targets` in turn.
    public init(toEach targets: [Int]) throws {
        self.targets = targets
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 && listen(listener, 64) == 0
            }
        }
        guard listening else {
            close(listener)
            throw TestPostgresError(message: "the proxy could not listen on 127.0.0.1")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in accept() }
    }

    /// Closes every connection and each new one at once, until `mend()`.
    public func cut() {
        lock.withLock {
            isCut = true
            for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Lets connections through again (and answers, after `loseAnswers()`).
    public func mend() {
        lock.withLock {
            isCut = false
            isLosing = false
        }
    }

    /// Until `mend()`: requests pass, and each connection is closed as its answer starts back,
    /// before any of it reaches the client (the answer lost on the way after the server acted).
    public func loseAnswers() { lock.withLock { isLosing = true } }

    var losing: Bool { lock.withLock { isLosing } }

    /// Stops listening and closes every connection.
    public func stop() {
        cut()
        lock.withLock { isClosed = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func accepted() -> Int32 {
        #if canImport(Glibc)
            Glibc.accept(listener, nil, nil)
        #else
            Darwin.accept(listener, nil, nil)
        #endif
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private func accept() {
        while true {
            let client = accepted()
            guard client >= 0 else {
                if lock.withLock({ isClosed }) { return }
                continue
            }
            guard !lock.withLock({ isCut || isClosed }) else {
                close(client)
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let target = lock.withLock {
                defer { next += 1 }
                return targets[next % targets.count]
            }
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(client)
                close(upstream)
                continue
            }
            lock.withLock {
                sockets.insert(client)
                sockets.insert(upstream)
            }
            let pair = Pair(client, upstream, proxy: self)
            Thread.detachNewThread { pair.pump(from: client, to: upstream) }
            Thread.detachNewThread { pair.pump(from: upstream, to: client, answers: true) }
        }
    }

    /// One connection's two sockets: closed when both directions have ended.
    private final class Pair: @unchecked Sendable {
        let sockets: (Int32, Int32)
        let proxy: TCPProxy
        var ended = 0
        let lock = NSLock()

        init(_ a: Int32, _ b: Int32, proxy: TCPProxy) {
            sockets = (a, b)
            self.proxy = proxy
        }

        func pump(from source: Int32, to sink: Int32, answers: Bool = false) {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            copying: while true {
                let count = read(source, &buffer, buffer.count)
                guard count > 0, !(answers && proxy.losing) else { break }
                var sent = 0
                while sent < count {
                    let wrote = buffer[sent..<count].withUnsafeBytes { send(sink, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard wrote > 0 else { break copying }
                    sent += wrote
                }
            }
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(sink, Int32(SHUT_RDWR))
            let last = lock.withLock {
                ended += 1
                return ended == 2
            }
            guard last else { return }
            proxy.lock.withLock {
                proxy.sockets.remove(sockets.0)
                proxy.sockets.remove(sockets.1)
                close(sockets.0)
                close(sockets.1)
            }
        }
    }
}
