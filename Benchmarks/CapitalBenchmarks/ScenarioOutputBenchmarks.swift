import Benchmark
import CapitalCore
import CapitalKit

/// Writing scenario results, as `scenario eval` does after evaluating: one million results (a
/// tenth of them refused rows with their error, names up to 20 characters, some needing quotes)
/// formatted by `ScenarioResultWriter` into two reusable buffers on two threads, as CSV and as
/// JSON. The outcomes are built once, when one of these benchmarks first runs (in its warm-up;
/// built at registration, they would count in every other benchmark's peak memory); each
/// iteration empties the buffers and writes the million rows again. Target (with reading and evaluating, whole process): a
/// million cash purchases file to file under 0.5 s, JSON within 1.5× of CSV.
func scenarioOutputBenchmarks() {
    let rows = 1_000_000
    let rowsPerSecond = BenchmarkMetric.custom("rows per second", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident, rowsPerSecond], scalingFactor: .one,
        maxDuration: .seconds(10), maxIterations: 20)
    for (format, name) in [(ScenarioResultWriter.Format.csv, "CSV"), (.json, "JSON")] {
        let writer = ScenarioResultWriter(format, earliest: false, exponent: 2, floor: 0)
        Benchmark(
            "Scenario output: 1000000 results to \(name), 2 threads",
            configuration: format == .csv ? configuration.checked(threaded: true) : configuration
        ) { benchmark in
            let outcomes = ScenarioOutputInputs.million
            var buffers = [TextBytes(capacity: 1 << 27), TextBytes(capacity: 1 << 27)]
            let clock = ContinuousClock()
            let began = clock.now
            for _ in benchmark.scaledIterations {
                buffers[0].removeAll()
                buffers[1].removeAll()
                writer.rows(outcomes, first: true, into: &buffers)
                blackHole(buffers[0].count + buffers[1].count)
            }
            let elapsed = began.duration(to: clock.now).components
            let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
            benchmark.measurement(rowsPerSecond, rows * benchmark.scaledIterations.count * 1_000_000_000 / max(nanoseconds, 1))
        }
    }
}

enum ScenarioOutputInputs {
    /// A million outcomes, made on first use.
    static let million = outcomes(1_000_000)

    /// `count` outcomes drawn with a fixed seed: results with amounts up to 30 000 000.00 and days
    /// over 2025–2026, every tenth a refused row.
    static func outcomes(_ count: Int) -> [ScenarioOutcome] {
        var random = SplitMix64(seed: 24)
        let first = try! Day(iso: "2025-04-01")
        return (0..<count).map { index in
            let name = index % 7 == 0 ? "Car \(index), \"used\"" : "plan \(index)"
            let row = ScenarioRow(line: index + 2, name: name, scenario: .failure(ScenarioRow.Failure(description: "")))
            if index % 10 == 9 {
                return ScenarioOutcome(
                    row: row, result: .failure(ScenarioRow.Failure(description: "line \(index + 2): price '-\(index)': is negative")))
            }
            let price = Int64(random.next(below: 3_000_000_000))
            let headroom = Int64(random.next(below: 100_000_000)) - 50_000_000
            let result = ScenarioResult(
                feasible: headroom >= 0, worstHeadroom: headroom, worstDay: first.advanced(by: random.next(below: 600)), shortfall: max(0, -headroom),
                maxPrice: Int64(random.next(below: 3_000_000_000)), earliestDay: nil, loanInterest: Int64(random.next(below: 100_000_00)),
                recurringCosts: 0, totalCost: price)
            return ScenarioOutcome(row: row, result: .success(result))
        }
    }
}
