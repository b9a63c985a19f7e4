import Benchmark
import CapitalCore

/// Reading scenario files: one million CSV lines (a mix of cash, loan and instalment plans with
/// recurring costs and quoted names, as `samples/cars.csv` writes them) split and turned into
/// `Scenario` values, as `scenario eval` does before evaluating. Target: at least 2 million rows
/// a second; `rows per second` is measured around the loop. The text is built once, when one of
/// these benchmarks first runs (in its warm-up): built when the benchmarks are registered, it
/// would count in the peak memory of every other benchmark of the process.
func scenarioCSVBenchmarks() {
    let rows = ScenarioCSVInputs.rows
    let rowsPerSecond = BenchmarkMetric.custom("rows per second", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, rowsPerSecond], scalingFactor: .one, maxDuration: .seconds(10),
        maxIterations: 20)
    /// Runs `body` once per scaled iteration and records the rows read a second.
    func measured(_ benchmark: Benchmark, _ body: () throws -> Void) rethrows {
        let clock = ContinuousClock()
        let began = clock.now
        for _ in benchmark.scaledIterations { try body() }
        let elapsed = began.duration(to: clock.now).components
        let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
        benchmark.measurement(rowsPerSecond, rows * benchmark.scaledIterations.count * 1_000_000_000 / max(nanoseconds, 1))
    }
    Benchmark("Scenario CSV: parse 1000000 rows, 1 thread line by line", configuration: configuration.checked) { benchmark in
        let file = ScenarioCSVInputs.file
        try measured(benchmark) {
            let newline = UInt8(ascii: "\n")
            let headerEnd = file.firstIndex(of: newline)!
            let csv = try ScenarioCSV(header: file[..<headerEnd])
            var start = headerEnd + 1
            var count = 0
            while start < file.count, let end = file[start...].firstIndex(of: newline) {
                count += 1
                blackHole(try csv.scenario(file[start..<end], exponent: 2, line: count + 1))
                start = end + 1
            }
            precondition(count == rows)
        }
    }

    // As `scenario eval` reads a file: 4 MB chunks cut at line breaks, each read on both cores.
    Benchmark("Scenario CSV: parse 1000000 rows in 4 MB chunks, 2 threads", configuration: configuration) { benchmark in
        let file = ScenarioCSVInputs.file
        try measured(benchmark) {
            let newline = UInt8(ascii: "\n")
            let headerEnd = file.firstIndex(of: newline)!
            let csv = try ScenarioCSV(header: file[..<headerEnd])
            var start = headerEnd + 1
            var line = 2
            var count = 0
            while start < file.count {
                var end = min(start + (1 << 22), file.count)
                while end < file.count && file[end - 1] != newline { end += 1 }
                let (rows, lines) = csv.rows(file[start..<end], firstLine: line, exponent: 2, threads: 2)
                count += rows.count
                blackHole(rows)
                line += lines
                start = end
            }
            precondition(count == rows)
        }
    }
}

/// The scenario file the benchmarks above read, made on first use.
enum ScenarioCSVInputs {
    static let rows = 1_000_000
    /// `rows` plans after a header line, drawn with a fixed seed.
    static let file: [UInt8] = {
        var random = SplitMix64(seed: 2025)
        var text = Array("name,price,date,down,loan_rate,loan_term,instalments,monthly_cost,yearly_cost,sale\n".utf8)
        for index in 0..<rows {
            let price = 500_000 + random.next(below: 3_000_000)
            let day = 1 + random.next(below: 28)
            let month = 1 + random.next(below: 12)
            let date = "2026-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            let line: String
            switch index % 3 {
            case 0: line = "\"Car \(index), cash\",\(price),\(date),,,,,6000,35000,"
            case 1:
                line =
                    "Car \(index) loan,\(price).50,\(date),\(price / 5),\(10 + random.next(below: 10)).9,\(12 * (1 + random.next(below: 5))),,7000,45000,"
            default: line = "Car \(index) instalments,\(price),\(date),,,,\(6 + random.next(below: 18)),6500,,300000"
            }
            text += Array(line.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }()
}
