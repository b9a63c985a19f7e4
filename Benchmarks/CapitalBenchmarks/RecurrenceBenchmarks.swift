import Benchmark
import CapitalCore

/// Recurrence expansion throughput: 1 000 mixed RRULE schedules (daily, weekly, monthly, yearly,
/// with BYDAY, BYMONTHDAY, BYSETPOS variety) expanded over 30 years straight into one day-indexed
/// delta buffer with `addAmount`, as the forecast kernel does. One item is the whole set.
///
/// `occurrences per second` is measured around the same loop, from the set's occurrence count
/// (about a million, counted once in setup). Working-day calendars and business-day adjustment
/// are not part of this set.
func recurrenceBenchmarks() {
    let first = try! Day(iso: "2026-01-01")
    let end = try! Day(iso: "2056-01-01")
    let window = DayRange(first, end)
    let schedules = RecurrenceBenchmarkSet.schedules(count: 1_000)
    let occurrences = schedules.reduce(0) { $0 + $1.rule.occurrenceCount(start: $1.start, in: window) }
    // One buffer for the whole run; the amounts are small enough never to overflow it.
    let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: window.count)
    buffer.initialize(repeating: 0)

    let rate = BenchmarkMetric.custom("occurrences per second", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, rate],
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 500
    )
    Benchmark("Recurrence: 1000 rules x 30 years into a delta buffer", configuration: configuration.checked) { benchmark in
        let clock = ContinuousClock()
        let began = clock.now
        for schedule in schedules {
            guard schedule.rule.addAmount(schedule.amount, start: schedule.start, into: buffer, firstDay: first) else {
                fatalError("overflow in the benchmark's delta buffer")
            }
        }
        let elapsed = began.duration(to: clock.now).components
        let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
        benchmark.measurement(rate, occurrences * 1_000_000_000 / max(nanoseconds, 1))
    }
}

/// The same kind of set with capital's calendar-aware rules: a fifth are `every working day`, and
/// salaries, bills and loan payments move by `preceding`, `following` or `modified-following` on a
/// calendar with a Russian-like holiday pattern (New Year 1–8 January, 23 February, 8 March,
/// 1 and 9 May, 12 June, 4 November, and a working Saturday in November) for every year.
func ruleBenchmarks() {
    let first = try! Day(iso: "2026-01-01")
    let end = try! Day(iso: "2056-01-01")
    let window = DayRange(first, end)
    let calendar = RecurrenceBenchmarkSet.ruLikeCalendar
    let base = RecurrenceBenchmarkSet.schedules(count: 1_000)
    let calendarRules: [(String, BusinessDayAdjustment)] = [
        ("FREQ=DAILY", .skip), ("FREQ=MONTHLY;BYMONTHDAY=10", .preceding), ("FREQ=MONTHLY;BYMONTHDAY=25", .preceding),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", .preceding), ("FREQ=MONTHLY;BYMONTHDAY=1", .following), ("FREQ=MONTHLY;BYMONTHDAY=5", .modifiedFollowing),
        ("FREQ=WEEKLY;BYDAY=FR", .preceding), ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1", .following),
    ]
    var random = SplitMix64(seed: 7)
    var rules: [(rule: Rule, start: Day, amount: Int64)] = []
    for (index, schedule) in base.enumerated() {
        if index % 5 == 0 {
            rules.append(
                (Rule(recurrence: try! Recurrence(rrule: "FREQ=DAILY"), adjustment: .skip, calendar: "RU-like"), schedule.start, schedule.amount))
        } else if index % 5 == 1 {
            let (text, adjustment) = calendarRules[random.next(below: calendarRules.count)]
            rules.append(
                (Rule(recurrence: try! Recurrence(rrule: text), adjustment: adjustment, calendar: "RU-like"), schedule.start, schedule.amount))
        } else {
            rules.append((Rule(recurrence: schedule.rule), schedule.start, schedule.amount))
        }
    }
    var occurrences = 0
    for entry in rules { entry.rule.forEachOccurrence(start: entry.start, in: window, calendar: calendar) { _, _ in occurrences += 1 } }
    let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: window.count)
    buffer.initialize(repeating: 0)
    let rate = BenchmarkMetric.custom("occurrences per second", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, rate], scalingFactor: .one, maxDuration: .seconds(3),
        maxIterations: 500)
    Benchmark("Recurrence: 1000 rules with working days and adjustments x 30 years", configuration: configuration.checked) { benchmark in
        let clock = ContinuousClock()
        let began = clock.now
        for entry in rules {
            guard entry.rule.addAmount(entry.amount, start: entry.start, calendar: calendar, into: buffer, firstDay: first) else {
                fatalError("overflow in the benchmark's delta buffer")
            }
        }
        let elapsed = began.duration(to: clock.now).components
        let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
        benchmark.measurement(rate, occurrences * 1_000_000_000 / max(nanoseconds, 1))
    }
}

/// The benchmark's rules: a fixed mix drawn with a fixed seed, so every run expands the same set.
enum RecurrenceBenchmarkSet {
    struct Schedule {
        var rule: Recurrence
        var start: Day
        var amount: Int64
    }

    /// Rule texts by kind, with the share of the set each kind gets (out of 1 000).
    static let kinds: [(share: Int, texts: [String])] = [
        (20, ["FREQ=DAILY"]),
        (20, ["FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"]),
        (20, ["FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;INTERVAL=10", "FREQ=DAILY;INTERVAL=14;COUNT=500", "FREQ=DAILY;BYMONTHDAY=1,10,20"]),
        (120, ["FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=FR", "FREQ=WEEKLY;BYDAY=SA", "FREQ=WEEKLY;UNTIL=20451231"]),
        (100, ["FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=WEEKLY;BYDAY=TU,TH,SA", "FREQ=WEEKLY;BYDAY=MO,WE,FR;WKST=SU"]),
        (
            80,
            [
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU", "FREQ=WEEKLY;INTERVAL=4;BYDAY=WE",
                "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            ]
        ),
        (
            400,
            [
                "FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=25", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYMONTHDAY=-1",
                "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=1MO,3MO",
                "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
                "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15",
                "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1MO", "FREQ=MONTHLY;BYMONTHDAY=10;COUNT=120", "FREQ=MONTHLY;BYMONTH=1,4,7,10;BYMONTHDAY=5",
            ]
        ),
        (
            240,
            [
                "FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
                "FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=1,4,7,10;BYMONTHDAY=-1", "FREQ=YEARLY;BYYEARDAY=100,-1",
                "FREQ=YEARLY;BYWEEKNO=1,27;BYDAY=MO", "FREQ=YEARLY;INTERVAL=2;BYMONTH=6;BYMONTHDAY=15",
            ]
        ),
    ]

    /// A calendar with a Russian-like holiday pattern (New Year 1–8 January, 23 February, 8 March,
    /// 1 and 9 May, 12 June, 4 November, and a working Saturday in November) for 2024–2057.
    static let ruLikeCalendar: WorkingDayCalendar = {
        var holidays: [Day] = []
        var workdays: [Day] = []
        for year in 2024...2057 {
            for (month, day) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (1, 8), (2, 23), (3, 8), (5, 1), (5, 9), (6, 12), (11, 4)] {
                holidays.append(try! Day(year: year, month: month, day: day))
            }
            var saturday = try! Day(year: year, month: 11, day: 1)
            while saturday.weekday != .saturday { saturday = saturday.advanced(by: 1) }
            workdays.append(saturday)
        }
        return WorkingDayCalendar(name: "RU-like", holidays: holidays, workingDays: workdays)
    }()

    static func schedules(count: Int) -> [Schedule] {
        var random = SplitMix64(seed: 2_026)
        let earliest = try! Day(iso: "2024-01-01")
        var result: [Schedule] = []
        for (share, texts) in kinds {
            for _ in 0..<(share * count / 1_000) {
                let text = texts[random.next(below: texts.count)]
                result.append(
                    Schedule(
                        rule: try! Recurrence(rrule: text),
                        start: earliest.advanced(by: random.next(below: 4 * 365)),
                        amount: Int64(random.next(below: 2_000)) - 1_000
                    ))
            }
        }
        return result
    }
}
