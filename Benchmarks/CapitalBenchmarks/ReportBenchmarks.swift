import Benchmark
import CapitalCore
import CapitalKit
import CapitalStore
import CapitalWeb

/// `capital report` on `capital sample generate --rules 1000 --years 30` to a 30-year horizon,
/// the ledger already in an in-memory store (reading it is measured by the store benchmarks):
///
/// - `Report: overview` — the projection over 30 years and every use case the page shows
///   (`Projection.overview`): can-spend and why, when, the forecast, the band, the ladder, what
///   is due, budgets, spending, instruments.
/// - `Report: HTML page` — the page of that overview: 10 958 days cut to one column per pixel.
func reportBenchmarks() {
    let rub = try! Currency("RUB")
    let today = SampleLedger.defaultStart
    let sample = try! SampleLedger.generate(rules: 1_000, years: 30, currency: rub)
    var extras = LedgerExtras()
    for (id, state) in sample.scheduleStates { extras.handledThrough[id] = state.handledThrough }
    let yaml = LedgerFile.write(sample, defaultAccountID: sample.defaultAccountID, format: .yaml, extras: extras)
    let store = try! Store.inMemory()
    _ = try! store.importDocument(try! LedgerFile.parse(yaml, file: "big.yaml"))
    let horizon = today.addingMonths(12 * 30)
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    Benchmark("Report: overview, 1000 rules x 30 years", configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 30)) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let projection = try Projection(store: store, today: today, horizon: { _ in horizon })
            blackHole(try projection.overview(OverviewRequest()))
        }
    }
    let projection = try! Projection(store: store, today: today, horizon: { _ in horizon })
    let overview = try! projection.overview(OverviewRequest())
    Benchmark("Report: HTML page, 1000 rules x 30 years", configuration: .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 50)) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                ReportPage(overview, today: today, horizon: horizon, currency: rub, ledger: "big.yaml", generator: "capital").html())
        }
    }
}
