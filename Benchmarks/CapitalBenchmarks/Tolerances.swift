import Benchmark

/// Tolerances for the benchmarks whose p90 figures are checked in (`Thresholds/`, written by
/// `Scripts/benchmark-thresholds.sh update`, which names them; their configurations are
/// `.checked`) and checked by `Scripts/benchmark-thresholds.sh check` (`swift package benchmark
/// thresholds check`): a regression beyond these tolerances fails.
///
/// Allocation counts are deterministic for a given input: 10 % catches a new object per
/// occurrence or per row. Times wander by a third from run to run on the shared 2-core VM the
/// figures come from, so they may grow by 60 % before the check fails: a doubled cost fails it.
/// Peak memory may grow by 25 %.
enum Tolerances {
    /// The tolerance of each of `metrics` at p90.
    /// - Parameter threaded: the work runs on several threads, whose start-up allocates a varying
    ///   few dozen blocks: allocations may then grow by 200 (not 10 %).
    static func of(_ metrics: [BenchmarkMetric], threaded: Bool = false) -> [BenchmarkMetric: BenchmarkThresholds] {
        var tolerances: [BenchmarkMetric: BenchmarkThresholds] = [:]
        for metric in metrics {
            switch metric {
            case .mallocCountTotal: tolerances[metric] = threaded ? .init(absolute: [.p90: 200]) : .init(relative: [.p90: 10])
            case .peakMemoryResident, .peakMemoryResidentDelta: tolerances[metric] = .init(relative: [.p90: 25])
            default: tolerances[metric] = .init(relative: [.p90: 60])  // times and throughput
            }
        }
        return tolerances
    }
}

extension Benchmark.Configuration {
    /// This configuration with the tolerances of its metrics, for a benchmark in
    /// `Tolerances.checked`.
    var checked: Benchmark.Configuration { checked() }

    /// This configuration with the tolerances of its metrics (see `Tolerances.of`).
    func checked(threaded: Bool = false) -> Benchmark.Configuration {
        var configuration = self
        configuration.thresholds = Tolerances.of(metrics, threaded: threaded)
        return configuration
    }
}
