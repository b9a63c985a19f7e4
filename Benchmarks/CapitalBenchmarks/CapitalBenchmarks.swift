import Benchmark
import CapitalCore

/// Day ⇄ civil date conversion throughput: the calendar arithmetic every forecast, recurrence
/// expansion and report runs through.
///
/// Run with `CAPITAL_BENCHMARKS=1 swift package benchmark`. The two civil-date benchmarks convert
/// one million consecutive days (from 1970-01-01 on) per iteration; ISO parsing reads a thousand
/// dates spread over those days. Inputs are built once, before any
/// measurement.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .mega
    )
    let dayCount = BenchmarkScalingFactor.mega.rawValue

    Benchmark("Day to civil date", configuration: configuration) { benchmark in
        for number in benchmark.scaledIterations {
            blackHole(Day(number).civil)
        }
    }

    // Setup outside the measured region: every benchmark iteration reuses these arrays.
    let civilDates = (0..<dayCount).map { Day($0).civil }
    let isoTexts = stride(from: 0, to: dayCount, by: 1_000).map { Day($0).iso }

    Benchmark("civil date to Day", configuration: configuration) { benchmark in
        for date in civilDates {
            blackHole(try Day(year: date.year, month: date.month, day: date.day))
        }
    }

    var parsingConfiguration = configuration
    parsingConfiguration.scalingFactor = .kilo
    Benchmark("ISO text to Day", configuration: parsingConfiguration) { benchmark in
        for text in isoTexts {
            blackHole(try Day(iso: text))
        }
    }

    recurrenceBenchmarks()
    ruleBenchmarks()
    forecastBenchmarks()
    loanBenchmarks()
    scenarioBenchmarks()
    scenarioCSVBenchmarks()
    statementBenchmarks()
    scenarioOutputBenchmarks()
    storeBenchmarks()
    reportBenchmarks()
    syncBenchmarks()
}
