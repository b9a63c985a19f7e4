import CapitalStore
import Foundation

/// The server's own copy of each shared ledger it answers about, held as a device holds one: an
/// in-memory store made from the log's snapshot and brought up to the log's head before each
/// answer, so that the answers over HTTP come from the same use cases, on the same data, as the
/// CLI's on a device that synced. At most `capacity` copies stay in memory, the least recently
/// asked about going first.
actor LedgerCopies {
    private var copies: [String: LedgerCopy] = [:]
    private var used: [String: UInt64] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    /// The server's clock (milliseconds): what the copies stamp their changes with.
    let now: @Sendable () -> Int64

    init(capacity: Int = 32, now: @escaping @Sendable () -> Int64) { (self.capacity, self.now) = (capacity, now) }

    /// The copy of `ledger`, made (empty, filled on first use) when there is none.
    func copy(of ledger: String) -> LedgerCopy {
        clock += 1
        used[ledger] = clock
        if let copy = copies[ledger] { return copy }
        let copy = LedgerCopy(ledger: ledger, now: now)
        copies[ledger] = copy
        if copies.count > capacity, let oldest = used.min(by: { $0.value < $1.value })?.key {
            copies[oldest] = nil
            used[oldest] = nil
        }
        return copy
    }
}

/// A copy no device has pushed a ledger to: nothing to answer from (`Problem.emptyLedger`).
struct EmptyLedger: Error {}

/// One ledger's copy: brought up to date and asked one request at a time.
actor LedgerCopy {
    let ledger: String
    private var store: Store?
    private var cursor: Int64 = 0
    private var busy = false
    /// How many times the copy began to be brought up to the log's head (each begins by reading it).
    private var reads: UInt64 = 0
    /// The answers kept, by their keys: each with the cursor it was made at and the read it followed.
    private var answered: [String: (cursor: Int64, read: UInt64, text: String)] = [:]
    /// Each person's device on this server that writes their quick entries: its id and the number of its last change set.
    private var devices: [String: (id: String, lastSeq: Int64)] = [:]
    private var waiting: [CheckedContinuation<Void, Never>] = []

    let now: @Sendable () -> Int64

    init(ledger: String, now: @escaping @Sendable () -> Int64) { (self.ledger, self.now) = (ledger, now) }

    /// `body`'s answer on the copy as of the log's head now.
    /// - Complexity: the first call reads the ledger's snapshot; later ones only the change sets
    ///   pushed since the last (none, usually: one `head` query).
    func answer<T: Sendable>(_ storage: any ServerStorage, _ body: @Sendable (Store) throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        let store = try await current(storage)
        return try naming { try body(store) }
    }

    /// The text `body` makes on the copy as of the log's head now, kept for `key` (the answer, its
    /// parameters and its day): the same question at the same head is the same answer, computed
    /// once however many ask it (at most 64 kept). And the same question asked while the copy was
    /// busy is answered by the next answer made, which began with a head read after it arrived and
    /// so holds every change acknowledged before it: under a stream of pushes, the requests
    /// queued behind one answer share the next instead of each waiting for its own.
    func answer(_ storage: any ServerStorage, key: String, _ body: @Sendable (Store) throws -> String) async throws -> String {
        // Every read counted from here on began after this request arrived.
        let arrived = reads
        await acquire()
        defer { release() }
        if let kept = answered[key], kept.read > arrived { return kept.text }
        let store = try await current(storage)
        if let kept = answered[key], kept.cursor == cursor {
            answered[key]?.read = reads
            return kept.text
        }
        let text = try naming { try body(store) }
        if answered.count >= 64 { answered.removeAll() }
        answered[key] = (cursor, reads, text)
        return text
    }

    /// `body`'s changes to the copy (a quick entry), appended to the log by `append` (given the
    /// sets and what `body` answered) as change sets of `user`'s device on this server (one per
    /// person, so that the log says who wrote what), then acknowledged: the copy holds what every
    /// device will pull. When the append fails the copy is dropped (made again from the log on the
    /// next request), so that it never holds what the log does not.
    func write<T: Sendable>(
        _ storage: any ServerStorage, as user: String, _ body: @Sendable (Store) throws -> T,
        append: @Sendable ([ChangeSet], T) async throws -> [Int64]
    ) async throws -> T {
        await acquire()
        defer { release() }
        let store = try await current(storage)
        let device = devices[user] ?? (Store.newID(), 0)
        try store.adoptDeviceIdentity(device.id, lastSeq: device.lastSeq)
        answered = [:]
        let value: T
        do { value = try naming { try body(store) } } catch {
            // A write that failed after changing the copy (none does now): the copy goes, as after a failed append.
            if (try? store.pendingChangeSets().isEmpty) != true { self.store = nil }
            throw error
        }
        let sets = try store.pendingChangeSets()
        guard !sets.isEmpty else { return value }
        do {
            let seqs = try await append(sets, value)
            for (set, seq) in zip(sets, seqs) { try store.acknowledge(set.id, serverSeq: seq) }
            devices[user] = (device.id, device.lastSeq + Int64(sets.count))
        } catch {
            self.store = nil
            devices[user] = nil
            throw error
        }
        return value
    }

    /// `body`, an empty ledger's refusal (`EmptyLedger`) made the problem that names this ledger.
    private func naming<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch is EmptyLedger { throw Problem.emptyLedger(ledger) }
    }

    /// One request at a time (across its awaits): a second waits instead of applying the same
    /// pages again, or answering from a copy half brought up.
    private func acquire() async {
        if busy { await withCheckedContinuation { waiting.append($0) } } else { busy = true }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    /// The store as of the log's head: the snapshot the first time (or after the log was
    /// restored to an earlier head), then each page pushed since.
    private func current(_ storage: any ServerStorage) async throws -> Store {
        reads += 1
        guard let head = try await storage.head(ledger) else { throw Problem(404, "not_found", "no ledger \(ledger) here") }
        if store == nil || head < cursor {
            var fresh = try Store.inMemory()
            fresh.clock = now
            _ = try fresh.startSync()
            try fresh.applySnapshot(Data(try await storage.snapshot(of: ledger).utf8))
            store = fresh
            cursor = try fresh.syncCursor()
            // A log restored to an earlier head may grow back to a cursor an answer was kept at.
            answered = [:]
        }
        guard let store else { throw Problem(500, "internal", "the server's copy of ledger \(ledger) could not be made") }
        while cursor < head {
            let page = try await storage.page(of: ledger, after: cursor, limit: SyncWire.pageSize, digest: false)
            guard page.last > cursor else { break }
            try store.applyRemote(page.sets, cursor: page.last)
            cursor = page.last
        }
        return store
    }
}
