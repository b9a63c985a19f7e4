import Benchmark
import CapitalCore
import CapitalStore
import Foundation

/// Sync's merge and capture (docs/sync.md), in memory:
///
/// - `Sync: apply 10000 changes` — a device applies another device's 3 334 one-transaction
///   writes (header, postings and deleted: 10 002 changes) in pages of 500 change sets, each page
///   with its cursor in one transaction: the merge, the checks and the rows written.
/// - `Sync: 1000 writes on a shared ledger` / `… not shared` — one transaction a write, with and
///   without the change log: what sharing costs a write.
func syncBenchmarks() {
    let rub = try! Currency("RUB")
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    /// A shared in-memory ledger with categories and two accounts, and the change sets that made it.
    func origin() -> (Store, [ChangeSet]) {
        let store = try! Store.inMemory()
        try! store.startSync()
        try! store.initialize(currency: rub)
        try! store.addAccount(name: "Cash", kind: .cash, currency: nil)
        try! store.addAccount(name: "Card", kind: .debit, currency: nil)
        return (store, try! store.pendingChangeSets(limit: .max))
    }

    func transaction(_ index: Int) -> TransactionInput {
        TransactionInput(
            day: SampleLedger.defaultStart.advanced(by: index % 365), payee: "Shop \(index % 97)",
            postings: [
                PostingInput(account: "Groceries", amount: "\(index % 5_000 + 1).50", field: "p1"),
                PostingInput(account: index % 2 == 0 ? "Cash" : "Card", amount: nil, field: "p2"),
            ])
    }

    let (writer, base) = origin()
    for index in 0..<3_334 { try! writer.addTransaction(transaction(index)) }
    let sets = Array(try! writer.pendingChangeSets(limit: .max).dropFirst(base.count))
    precondition(sets.reduce(0) { $0 + $1.changes.count } == 10_002)

    Benchmark(
        "Sync: apply 10000 changes (3334 transactions) in pages of 500 change sets",
        configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let device = try Store.inMemory()
            try device.startSync()
            try device.applyRemote(base, cursor: Int64(base.count))
            benchmark.startMeasurement()
            var cursor = Int64(base.count)
            for start in stride(from: 0, to: sets.count, by: 500) {
                let page = Array(sets[start..<min(sets.count, start + 500)])
                cursor += Int64(page.count)
                try device.applyRemote(page, cursor: cursor)
            }
            benchmark.stopMeasurement()
        }
    }

    for shared in [true, false] {
        Benchmark(
            "Sync: 1000 writes on a ledger \(shared ? "shared" : "not shared")",
            configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 20)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let store = try Store.inMemory()
                if shared { try store.startSync() }
                try store.initialize(currency: rub)
                try store.addAccount(name: "Cash", kind: .cash, currency: nil)
                try store.addAccount(name: "Card", kind: .debit, currency: nil)
                benchmark.startMeasurement()
                for index in 0..<1_000 { try store.addTransaction(transaction(index)) }
                benchmark.stopMeasurement()
            }
        }
    }
}
