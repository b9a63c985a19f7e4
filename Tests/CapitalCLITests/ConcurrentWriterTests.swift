import Foundation
import Testing

@Suite("CLI: concurrent writers")
struct ConcurrentWriterTests {
    /// Two `capital` processes writing to one database at once both succeed: the second waits on
    /// the busy timeout instead of failing with "database is locked", and nothing is lost.
    @Test func twoProcessesWritingAtOnceBothSucceed() throws {
        let cli = try CLI.initialized()
        let perProcess = 12
        let failures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<perProcess {
                let result = cli.run(["spend", "\(index + 1)", "Groceries", "--payee", "writer \(writer)", "--on", "2025-01-01"])
                if result.status != 0 { failures.withLock { $0.append(result.description) } }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let rows = try cli.rows(["tx", "list", "--format", "json"])
        #expect(rows.count == 2 * perProcess)
        let total = rows.compactMap { ($0["amount"] as? String).flatMap(minorUnits) }.reduce(0, +)
        #expect(total == Int64(2 * (1...perProcess).reduce(0, +)) * 100)
    }
}

/// A value shared between threads behind a lock.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
