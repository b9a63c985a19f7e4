import Benchmark
import CapitalCore

/// The loan engine: `Loan.amortize` and `Loan.annuityPayment` on loans drawn with a fixed seed
/// (principal 100 000.00–50 000 000.00, rate 1–30 % with up to two decimals, the three day-count
/// conventions mixed, start days spread over 2025, no working-day calendar).
///
/// - `Loan: amortise 10000 loans x 360 months`: one item is the whole set of 10 000 annuity loans
///   of 360 months, each amortised into its full schedule (3.6 million rows). Target: under
///   100 ms, that is over 100 000 loans a second; `loans per second` is measured around the loop.
/// - `Loan: annuity payment`: one item is one `Loan.annuityPayment` (term 1–360 months); an
///   iteration computes 1 000 of them and the figures are per payment.
/// - `Loan: amortise with prepayments`: one item is the whole set of 1 000 annuity loans of 240
///   months, each with three prepayments (1–5 % of the principal each, in the first ten years,
///   `.term` and `.payment` mixed) splitting their periods.
///
/// The loans and the payment inputs are built once, before any measurement.
func loanBenchmarks() {
    let firstOf2025 = try! Day(iso: "2025-01-01")
    let dayCounts = DayCount.allCases

    /// A loan's random terms: principal, rate (hundredths of a percent), day count, start.
    func drawLoan(_ random: inout SplitMix64, term: Int, prepayments: [LoanPrepayment] = [], start: Day? = nil) -> Loan {
        let principal = Int64(10_000_000 + random.next(below: 5_000_000_000 - 10_000_000 + 1))
        let rate = Rate(perMillion: Int64(10_000 + 100 * random.next(below: 2_901)))  // 1.00 % ... 30.00 %
        let dayCount = dayCounts[random.next(below: dayCounts.count)]
        let start = start ?? firstOf2025.advanced(by: random.next(below: 365))
        return try! Loan(principal: principal, rate: rate, term: term, start: start, method: .annuity, dayCount: dayCount, prepayments: prepayments)
    }

    // 1. 10 000 loans x 360 months.
    var random = SplitMix64(seed: 360)
    let loans = (0..<10_000).map { _ in drawLoan(&random, term: 360) }
    let loansPerSecond = BenchmarkMetric.custom("loans per second", polarity: .prefersLarger, useScalingFactor: false)
    let amortiseConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, loansPerSecond], scalingFactor: .one,
        maxDuration: .seconds(5), maxIterations: 500)
    Benchmark("Loan: amortise 10000 loans x 360 months", configuration: amortiseConfiguration.checked) { benchmark in
        let clock = ContinuousClock()
        let began = clock.now
        for _ in benchmark.scaledIterations {
            for loan in loans {
                blackHole(try loan.amortize())
            }
        }
        let elapsed = began.duration(to: clock.now).components
        let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
        benchmark.measurement(loansPerSecond, loans.count * benchmark.scaledIterations.count * 1_000_000_000 / max(nanoseconds, 1))
    }

    // 2. One annuity payment per item.
    var paymentRandom = SplitMix64(seed: 12)
    let paymentCount = BenchmarkScalingFactor.kilo.rawValue
    let paymentInputs: [(principal: Int64, rate: Rate, term: Int)] = (0..<paymentCount).map { _ in
        let principal = Int64(10_000_000 + paymentRandom.next(below: 5_000_000_000 - 10_000_000 + 1))
        let rate = Rate(perMillion: Int64(10_000 + 100 * paymentRandom.next(below: 2_901)))
        return (principal, rate, 1 + paymentRandom.next(below: 360))
    }
    let paymentConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], scalingFactor: .kilo, maxDuration: .seconds(2))
    Benchmark("Loan: annuity payment", configuration: paymentConfiguration) { benchmark in
        for index in benchmark.scaledIterations {
            let input = paymentInputs[index]
            blackHole(try Loan.annuityPayment(principal: input.principal, rate: input.rate, count: input.term))
        }
    }

    // 3. 1 000 loans x 240 months with three prepayments each.
    var prepaymentRandom = SplitMix64(seed: 240)
    let prepaid: [Loan] = (0..<1_000).map { index in
        let start = firstOf2025.advanced(by: prepaymentRandom.next(below: 365))
        var loan = drawLoan(&prepaymentRandom, term: 240, start: start)
        // Three distinct days in the first ten years, 1–5 % of the principal each: the balance
        // stays well above them and the loan ends after the last even when `.term` shortens it.
        var offsets = Set<Int>()
        while offsets.count < 3 { offsets.insert(1 + prepaymentRandom.next(below: 3_650)) }
        loan.prepayments = offsets.sorted().enumerated().map { number, offset in
            LoanPrepayment(
                day: start.advanced(by: offset), amount: loan.principal * Int64(1 + prepaymentRandom.next(below: 5)) / 100,
                effect: (index + number) % 2 == 0 ? .term : .payment)
        }
        return loan
    }
    // Every loan must amortise: a throw inside the measured loop would end the benchmark.
    for loan in prepaid {
        do { _ = try loan.amortize() } catch { fatalError("benchmark loan does not amortise: \(error)") }
    }
    let prepaymentConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], scalingFactor: .one, maxDuration: .seconds(3),
        maxIterations: 1_000)
    Benchmark("Loan: amortise with prepayments", configuration: prepaymentConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            for loan in prepaid {
                blackHole(try loan.amortize())
            }
        }
    }
}
