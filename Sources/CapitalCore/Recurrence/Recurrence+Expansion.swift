extension Recurrence {
    /// Calls `body` with each occurrence (ascending) of the rule anchored at `start` that falls in
    /// `range`. COUNT counts from `start`, also before `range`. No allocation per occurrence.
    ///
    /// The semantics are python-dateutil's `rrule` with `dtstart = start`: the start itself is an
    /// occurrence only when it matches the rule; parts the rule leaves out default to the start
    /// (MONTHLY takes its day of the month and skips months without it, YEARLY its month and day,
    /// WEEKLY its weekday); BYSETPOS picks within each period (year, month, week or day), and the
    /// first weekly period runs from the start to the next WKST. A rule `validate(start:)` refuses
    /// for a reason other than UNTIL has no occurrences, nor does anything outside years 1–9999.
    /// ```swift
    /// let lastFriday = try Recurrence(rrule: "FREQ=MONTHLY;BYDAY=-1FR")
    /// lastFriday.forEachOccurrence(start: jan1, in: DayRange(jan1, jan1.advanced(by: 90))) { print($0) }
    /// // 2025-01-31, 2025-02-28, 2025-03-28
    /// ```
    /// - Complexity: O(p + k) for p periods between the start of the work and the end of `range`,
    ///   and k occurrences reported. Without COUNT the work starts at `range`; with COUNT it starts
    ///   at `start`, counting whole periods at a time.
    public func forEachOccurrence(start: Day, in range: DayRange, _ body: (Day) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            expand(start: start, in: range, into: &sink)
        }
    }

    /// The occurrences in `range`, ascending.
    public func occurrences(start: Day, in range: DayRange) -> [Day] {
        var result: [Day] = []
        forEachOccurrence(start: start, in: range) { result.append($0) }
        return result
    }

    /// How many occurrences fall in `range`.
    /// - Complexity: as `forEachOccurrence(start:in:_:)`.
    public func occurrenceCount(start: Day, in range: DayRange) -> Int {
        var sink = CountingSink()
        expand(start: start, in: range, into: &sink)
        return sink.count
    }

    /// The engine: walks the rule's periods frame by frame (a frame is a year), with the days each
    /// frame keeps as bit masks, and hands each occurrence in `range` to `sink`.
    func expand<Sink: OccurrenceSink>(start: Day, in range: DayRange, into sink: inout Sink) {
        do { try validateParts() } catch { return }
        if count == 0 { return }
        let minDay = Self.supportedDays.lowerBound
        let maxDay = Self.supportedDays.upperBound
        guard start.number >= minDay, start.number <= maxDay, range.end.number > minDay else { return }
        var last = min(range.end.number - 1, maxDay)
        if let until { last = min(last, until.number) }
        let windowStart = max(start.number, range.start.number)
        guard windowStart <= last else { return }

        let plan = ExpansionPlan(self, start: start)
        let from = count == nil ? windowStart : start.number
        var emitter = OccurrenceEmitter(remaining: count ?? Int.max, counts: count != nil, from: from, windowStart: windowStart, last: last)
        let lastYear = Day(last).civil.year
        let step = plan.interval

        switch frequency {
        case .yearly:
            var year = plan.startYear + Self.ceilingDivide(Day(from).civil.year - plan.startYear, step) * step
            while year <= lastYear {
                let frame = YearFrame(year: year)
                var bits = plan.filter(frame, self) & DayBits(range: 0, frame.length)
                if plan.hasSetPositions { bits = plan.select(bits, self) }
                guard emitter.deliver(bits, frame, into: &sink) else { return }
                year += step
            }

        case .monthly:
            let startIndex = plan.startYear * 12 + plan.startMonth - 1
            var year = Day(from).civil.year
            while year <= lastYear {
                let yearIndex = year * 12
                var index = startIndex + Self.ceilingDivide(max(yearIndex, startIndex) - startIndex, step) * step
                if index >= yearIndex + 12 {
                    year = index / 12
                    continue
                }
                let frame = YearFrame(year: year)
                let filter = plan.filter(frame, self)
                var bits = DayBits.empty
                if step == 1 && !plan.hasSetPositions {
                    bits = filter & DayBits(range: 0, frame.length)
                } else {
                    while index < yearIndex + 12 {
                        let month = index - yearIndex + 1
                        let period =
                            filter
                            & DayBits(range: YearFrame.monthStart(month, leap: frame.isLeap), YearFrame.monthStart(month + 1, leap: frame.isLeap))
                        bits |= plan.hasSetPositions ? plan.select(period, self) : period
                        index += step
                    }
                }
                guard emitter.deliver(bits, frame, into: &sink) else { return }
                year += 1
            }

        case .weekly:
            // Period 0 runs from the start to the next week start; period k ≥ 1 is the week from
            // weekStart0 + k·7·INTERVAL. A period belongs to the frame it starts in.
            let weekStart0 = start.number - (YearFrame.weekday(ofDay: start.number) - plan.weekStart + 7) % 7
            let periodStep = 7 * step
            var year = Day(max(from - 6, start.number)).civil.year
            while year <= lastYear {
                let frame = YearFrame(year: year)
                let base = frame.first
                let end = base + frame.length
                let startsHere = start.number >= base && start.number < end
                let firstK = startsHere ? 1 : max(1, Self.ceilingDivide(base - weekStart0, periodStep))
                let filter = plan.filter(frame, self)
                var bits = DayBits.empty
                if step == 1 && !plan.hasSetPositions {
                    // Contiguous weeks: one range from the first period's start to the last one's end.
                    let lower = startsHere ? start.number : weekStart0 + firstK * 7
                    let lastK = (end - 1 - weekStart0) / 7
                    let upper = lastK >= 1 ? weekStart0 + lastK * 7 + 7 : weekStart0 + 7
                    bits = filter & DayBits(range: lower - base, upper - base)
                } else {
                    if startsHere {
                        let period = filter & DayBits(range: start.number - base, weekStart0 + 7 - base)
                        bits |= plan.hasSetPositions ? plan.select(period, self) : period
                    }
                    var periodStart = weekStart0 + firstK * periodStep
                    while periodStart < end {
                        let period = filter & DayBits(range: periodStart - base, periodStart - base + 7)
                        bits |= plan.hasSetPositions ? plan.select(period, self) : period
                        periodStart += periodStep
                    }
                }
                guard emitter.deliver(bits, frame, into: &sink) else { return }
                year += 1
            }

        case .daily:
            // A period is one day: BYSETPOS keeps it with 1 or -1 and drops it otherwise.
            if plan.hasSetPositions && !bySetPos.contains(1) && !bySetPos.contains(-1) { return }
            if plan.keepsEveryDay {
                var k = Self.ceilingDivide(windowStart - start.number, step)
                var lastK = (last - start.number) / step
                if let count { lastK = min(lastK, count - 1) }
                while k <= lastK {
                    guard sink.take(start.number + k * step) else { return }
                    k += 1
                }
                return
            }
            var year = Day(from).civil.year
            while year <= lastYear {
                let frame = YearFrame(year: year)
                let base = frame.first
                let first = start.number + Self.ceilingDivide(max(base, start.number) - start.number, step) * step
                if first >= base + frame.length {
                    year = Day(first).civil.year
                    continue
                }
                var days: DayBits
                if step == 1 {
                    days = DayBits(range: first - base, frame.length)
                } else {
                    var stride = DayBitsBuilder()
                    var i = first - base
                    while i < frame.length {
                        stride.insert(i)
                        i += step
                    }
                    days = stride.bits
                }
                guard emitter.deliver(plan.filter(frame, self) & days, frame, into: &sink) else { return }
                year += 1
            }
        }
    }

    /// ⌈a / b⌉ for a ≥ 0 and b > 0 (0 for negative a).
    @inline(__always)
    static func ceilingDivide(_ a: Int, _ b: Int) -> Int { a <= 0 ? 0 : (a + b - 1) / b }
}

/// Where the engine sends occurrences (day numbers); `take` returns false to stop the expansion.
protocol OccurrenceSink {
    mutating func take(_ day: Int) -> Bool
}

struct ClosureSink: OccurrenceSink {
    let body: (Day) -> Void

    @inline(__always)
    mutating func take(_ day: Int) -> Bool {
        body(Day(day))
        return true
    }
}

struct CountingSink: OccurrenceSink {
    var count = 0

    @inline(__always)
    mutating func take(_ day: Int) -> Bool {
        count += 1
        return true
    }
}

/// Applies the start, UNTIL, COUNT and the window to a frame's occurrences, and sends on those in
/// the window.
struct OccurrenceEmitter {
    /// Occurrences COUNT still allows (Int.max without COUNT).
    var remaining: Int
    let counts: Bool
    /// The first day that counts: the start with COUNT, the window's start without.
    let from: Int
    let windowStart: Int
    /// The last day to report: the end of the window or UNTIL, whichever is earlier.
    let last: Int

    /// Sends the frame's occurrences in the window to `sink`; false when the expansion is over.
    @inline(__always)
    mutating func deliver<Sink: OccurrenceSink>(_ occurrences: DayBits, _ frame: YearFrame, into sink: inout Sink) -> Bool {
        let base = frame.first
        var bits = occurrences
        // Most frames lie wholly inside the bounds: no mask needed then.
        if from > base || last - base < frame.length + 6 { bits &= DayBits(range: from - base, last - base + 1) }
        if counts {
            if windowStart > base {
                let skipped = (bits & DayBits(range: 0, windowStart - base)).count
                if skipped >= remaining { return false }
                remaining -= skipped
                bits &= DayBits(range: windowStart - base, 512)
            }
            var remaining = self.remaining
            let completed = bits.forEachIndex { index in
                remaining -= 1
                return sink.take(base + index) && remaining > 0
            }
            self.remaining = remaining
            return completed
        }
        return bits.forEachIndex { index in sink.take(base + index) }
    }
}
