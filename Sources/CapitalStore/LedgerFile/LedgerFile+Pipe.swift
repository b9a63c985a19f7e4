import Foundation

extension LedgerFile {
    /// Reads the ledger file at `path` as `read(path:stream:)` does, on a thread of its own for a
    /// large file, while the calling thread takes what it reads: `begin` gets the head and `take`
    /// each transaction, in the file's order, on the calling thread (a database write stays on
    /// its thread). Reading and resolving then overlap on two cores. The first error `begin` or
    /// `take` throws is kept (nothing more is handed over after it) and given back with the
    /// document; a mistake in the file's text is thrown, as it always was, before it.
    /// `threadFrom`: the size from which a file is read on a thread of its own (tests make it 0).
    /// - Complexity: the read's; at most `Pipe.capacity` batches of transactions wait between the
    ///   two threads.
    static func read(
        path: String, begin: @escaping (LedgerDocument) throws -> Void, take: @escaping (LedgerDocument.TransactionEntry) throws -> Void,
        threadFrom: Int = Pipe.threadFrom
    ) throws(LedgerFileError) -> (document: LedgerDocument, failure: (any Error)?) {
        var failure: (any Error)?
        func begun(_ head: LedgerDocument) {
            guard failure == nil else { return }
            do { try begin(head) } catch { failure = error }
        }
        func took(_ entry: LedgerDocument.TransactionEntry) {
            guard failure == nil else { return }
            do { try take(entry) } catch { failure = error }
        }
        // A small file is read on this thread: a thread's start costs more than it would save.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size >= threadFrom else {
            let stream = TransactionStream(
                begin: { head in
                    begun(head)
                    if let failure { throw failure }
                },
                take: { entry in
                    took(entry)
                    if let failure { throw failure }
                })
            let document = try read(path: path, stream: stream)
            return (document, failure)
        }
        let pipe = Pipe()
        let reader = Thread {
            let stream = TransactionStream(begin: { head in pipe.send(.head(head)) }, take: { entry in pipe.send(.entry(entry)) })
            let result = Result { () throws(LedgerFileError) in try read(path: path, stream: stream) }
            pipe.send(.end(result))
        }
        reader.stackSize = 8 << 20  // the composer recurses as deep as the file nests (up to libyaml's 1000 levels)
        reader.start()
        while true {
            for message in pipe.receive() {
                switch message {
                case .head(let head): begun(head)
                case .entry(let entry): took(entry)
                case .end(let result): return (try result.get(), failure)
                }
            }
        }
    }

    /// What the reading thread hands over, in order, in batches.
    final class Pipe: @unchecked Sendable {
        enum Message: Sendable {
            case head(LedgerDocument)
            case entry(LedgerDocument.TransactionEntry)
            case end(Result<LedgerDocument, LedgerFileError>)
        }

        /// Files from this size are read on a thread of their own.
        static let threadFrom = 4 << 20
        /// Messages to a batch, and batches waiting at most.
        static let batch = 512
        static let capacity = 16

        private let condition = NSCondition()
        private var batches: [[Message]] = []
        private var filling: [Message] = []

        /// On the reading thread: `message` joins the batch being filled, which goes over when
        /// full or at the end; waits while `capacity` batches wait.
        func send(_ message: Message) {
            filling.append(message)
            var isEnd = false
            if case .end = message { isEnd = true }
            guard filling.count >= Self.batch || isEnd else { return }
            condition.lock()
            while batches.count >= Self.capacity { condition.wait() }
            batches.append(filling)
            condition.signal()
            condition.unlock()
            filling = []
            filling.reserveCapacity(Self.batch)
        }

        /// On the taking thread: the next batch, waiting for it.
        func receive() -> [Message] {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty { condition.wait() }
            condition.signal()
            return batches.removeFirst()
        }
    }
}
