/// A rule's tables for one start day, built once per expansion: which months, days of the month,
/// days of the year and weekdays it keeps, as bit masks over a frame (a year plus 7 days).
///
/// The defaults come from the start day as in python-dateutil: a rule with none of BYWEEKNO,
/// BYYEARDAY, BYMONTHDAY and BYDAY takes the start's day of the month (MONTHLY), its month and day
/// of the month (YEARLY, the month only when BYMONTH is missing) or its weekday (WEEKLY).
struct ExpansionPlan {
    let frequency: Recurrence.Frequency
    let interval: Int
    /// Week start, 0 = Monday (dateutil's numbering).
    let weekStart: Int
    let start: Int
    let startYear: Int
    let startMonth: Int

    /// Bit `m - 1` for each month kept; 0 keeps every month.
    let months: UInt16
    let monthBitsCommon: DayBits
    let monthBitsLeap: DayBits
    let filtersMonthDays: Bool
    let monthDayBitsCommon: DayBits
    let monthDayBitsLeap: DayBits
    let filtersYearDays: Bool
    let yearDayBitsCommon: DayBits
    let yearDayBitsLeap: DayBits
    /// The 7 days after a frame are the next year's first: BYYEARDAY's days among them (bit i
    /// for day i + 1 of that year), when the next year is common and when it is leap.
    let yearDayOverhang: (common: UInt64, leap: UInt64)
    /// Plain weekdays as a 64-bit pattern (bit j for weekday j % 7), 0 when BYDAY has none.
    let weekdayPattern: UInt64
    /// BYDAY has ordinals (1MO, -1FR) that pick the n-th weekday of a month or year.
    let hasOrdinals: Bool
    let hasWeekNumbers: Bool
    let hasSetPositions: Bool

    /// True when no part filters the days of a period: every day of it is an occurrence.
    var keepsEveryDay: Bool {
        months == 0 && !filtersMonthDays && !filtersYearDays && weekdayPattern == 0 && !hasOrdinals && !hasWeekNumbers
    }

    init(_ rule: Recurrence, start: Day) {
        let civil = start.civil
        frequency = rule.frequency
        // Beyond 4 000 000 (days, weeks, months or years) only the first period falls in years
        // 1–9999, as it does with any larger interval; the cap keeps the arithmetic in range.
        interval = min(rule.interval, 4_000_000)
        weekStart = rule.weekStart.rawValue - 1
        self.start = start.number
        startYear = civil.year
        startMonth = civil.month

        var months: UInt16 = 0
        for month in rule.byMonth { months |= 1 &<< UInt16(month - 1) }
        var positiveDays: UInt64 = 0  // bit d - 1 for BYMONTHDAY=d
        var negativeDays: UInt64 = 0  // bit d - 1 for BYMONTHDAY=-d
        for day in rule.byMonthDay {
            if day > 0 { positiveDays |= 1 &<< UInt64(day - 1) } else { negativeDays |= 1 &<< UInt64(-day - 1) }
        }
        var weekdays: UInt64 = 0
        var hasOrdinals = false
        for entry in rule.byDay {
            if entry.ordinal != nil, rule.frequency == .monthly || rule.frequency == .yearly {
                hasOrdinals = true
            } else {
                weekdays |= 1 &<< UInt64(entry.weekday.rawValue - 1)
            }
        }
        if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if months == 0 { months = 1 &<< UInt16(civil.month - 1) }
                positiveDays = 1 &<< UInt64(civil.day - 1)
            case .monthly:
                positiveDays = 1 &<< UInt64(civil.day - 1)
            case .weekly:
                weekdays = 1 &<< UInt64(start.weekday.rawValue - 1)
            case .daily:
                break
            }
        }
        self.months = months
        self.hasOrdinals = hasOrdinals
        hasWeekNumbers = !rule.byWeekNo.isEmpty
        hasSetPositions = !rule.bySetPos.isEmpty

        var pattern: UInt64 = 0
        if weekdays != 0 {
            for bit in 0..<64 where weekdays & (1 &<< UInt64(bit % 7)) != 0 { pattern |= 1 &<< UInt64(bit) }
        }
        weekdayPattern = pattern

        func monthBits(leap: Bool) -> DayBits {
            let length = leap ? 366 : 365
            var bits = DayBits.empty
            for month in 1...12 where months & (1 &<< UInt16(month - 1)) != 0 {
                bits |= DayBits(range: YearFrame.monthStart(month, leap: leap), YearFrame.monthStart(month + 1, leap: leap))
            }
            if months & 1 != 0 { bits |= DayBits(range: length, length + 7) }  // January of the next year
            return bits
        }
        monthBitsCommon = months == 0 ? .empty : monthBits(leap: false)
        monthBitsLeap = months == 0 ? .empty : monthBits(leap: true)

        // Days of a month of `length` days kept by BYMONTHDAY, as bits from the month's first day.
        func monthDayPattern(_ length: Int) -> UInt64 {
            var result = positiveDays & ((1 &<< UInt64(length)) &- 1)
            if negativeDays == 0 { return result }
            for back in 1...length where negativeDays & (1 &<< UInt64(back - 1)) != 0 {
                result |= 1 &<< UInt64(length - back)
            }
            return result
        }
        func monthDayBits(leap: Bool) -> DayBits {
            var bits = DayBits.empty
            for month in 1...12 {
                let length = Day.daysIn(month: month, year: leap ? 2000 : 2001)
                bits.insert(pattern: monthDayPattern(length), at: YearFrame.monthStart(month, leap: leap))
            }
            bits.insert(pattern: monthDayPattern(31) & 0x7F, at: leap ? 366 : 365)
            return bits
        }
        filtersMonthDays = positiveDays | negativeDays != 0
        monthDayBitsCommon = filtersMonthDays ? monthDayBits(leap: false) : .empty
        monthDayBitsLeap = filtersMonthDays ? monthDayBits(leap: true) : .empty

        func yearDayBits(length: Int) -> DayBits {
            var bits = DayBitsBuilder()
            for value in rule.byYearDay {
                let index = value > 0 ? value - 1 : length + value
                if index >= 0, index < length { bits.insert(index) }
            }
            return bits.bits
        }
        filtersYearDays = !rule.byYearDay.isEmpty
        yearDayBitsCommon = filtersYearDays ? yearDayBits(length: 365) : .empty
        yearDayBitsLeap = filtersYearDays ? yearDayBits(length: 366) : .empty
        func overhang(length: Int) -> UInt64 {
            var pattern: UInt64 = 0
            for value in rule.byYearDay {
                let index = value > 0 ? value - 1 : length + value
                if index >= 0, index < 7 { pattern |= 1 &<< UInt64(index) }
            }
            return pattern
        }
        yearDayOverhang = (overhang(length: 365), overhang(length: 366))
    }

    /// The days of `frame` (and the 7 days after it) every filter of the rule keeps.
    @inline(__always)
    func filter(_ frame: YearFrame, _ rule: Recurrence) -> DayBits {
        var bits = DayBits(range: 0, frame.length + 7)
        if months != 0 { bits &= frame.isLeap ? monthBitsLeap : monthBitsCommon }
        if filtersMonthDays { bits &= frame.isLeap ? monthDayBitsLeap : monthDayBitsCommon }
        if filtersYearDays {
            // A week may run into the next year (WEEKLY): its days there are that year's days (as dateutil's).
            var yearDays = frame.isLeap ? yearDayBitsLeap : yearDayBitsCommon
            yearDays.insert(pattern: Day.isLeap(frame.year + 1) ? yearDayOverhang.leap : yearDayOverhang.common, at: frame.length)
            bits &= yearDays
        }
        if weekdayPattern != 0 { bits &= DayBits(weekdayPattern: weekdayPattern, firstWeekday: frame.firstWeekday) }
        if hasOrdinals { bits &= ordinalBits(frame, rule) }
        if hasWeekNumbers { bits &= weekNumberBits(frame, rule) }
        return bits
    }

    /// BYDAY with ordinals: the n-th weekday of each month (MONTHLY, or YEARLY with BYMONTH) or of
    /// the year (YEARLY), as dateutil's `nwdaymask`.
    func ordinalBits(_ frame: YearFrame, _ rule: Recurrence) -> DayBits {
        var bits = DayBitsBuilder()
        func mark(first: Int, last: Int) {
            let firstWeekday = frame.weekday(at: first)
            let lastWeekday = frame.weekday(at: last)
            for entry in rule.byDay {
                guard let n = entry.ordinal else { continue }
                let weekday = entry.weekday.rawValue - 1
                let i: Int
                if n < 0 {
                    // The last such weekday, then n + 1 weeks earlier.
                    var back = lastWeekday - weekday
                    if back < 0 { back += 7 }
                    i = last - back + (n + 1) * 7
                } else {
                    var ahead = weekday - firstWeekday
                    if ahead < 0 { ahead += 7 }
                    i = first + ahead + (n - 1) * 7
                }
                if first <= i && i <= last { bits.insert(i) }
            }
        }
        if frequency == .yearly && months == 0 {
            mark(first: 0, last: frame.length - 1)
        } else {
            let leap = frame.isLeap
            for month in 1...12 where frequency == .monthly || months & (1 &<< UInt16(month - 1)) != 0 {
                mark(first: YearFrame.monthStart(month, leap: leap), last: YearFrame.monthStart(month + 1, leap: leap) - 1)
            }
        }
        return bits.bits
    }

    /// BYWEEKNO: the days of the numbered weeks, a port of dateutil's `wnomask` (including its
    /// reckoning of the previous year's last week number).
    func weekNumberBits(_ frame: YearFrame, _ rule: Recurrence) -> DayBits {
        var bits = DayBitsBuilder()
        let length = frame.length
        let firstWeekStart = (7 - frame.firstWeekday + weekStart) % 7
        var weekOneStart = firstWeekStart
        let weekYearLength: Int
        if weekOneStart >= 4 {
            weekOneStart = 0
            weekYearLength = length + (frame.firstWeekday - weekStart + 7) % 7
        } else {
            weekYearLength = length - weekOneStart
        }
        let weekCount = weekYearLength / 7 + (weekYearLength % 7) / 4
        func markWeek(from index: Int) {
            var i = index
            for _ in 0..<7 {
                bits.insert(i)
                i += 1
                if frame.weekday(at: i) == weekStart { break }
            }
        }
        func weekStartIndex(_ n: Int) -> Int {
            guard n > 1 else { return weekOneStart }
            var i = weekOneStart + (n - 1) * 7
            if weekOneStart != firstWeekStart { i -= 7 - firstWeekStart }
            return i
        }
        for number in rule.byWeekNo {
            let n = number < 0 ? number + weekCount + 1 : number
            guard 0 < n && n <= weekCount else { continue }
            markWeek(from: weekStartIndex(n))
        }
        if rule.byWeekNo.contains(1) {
            // Week 1 of the next year may start in this one.
            let i = weekStartIndex(weekCount + 1)
            if i < length { markWeek(from: i) }
        }
        if weekOneStart != 0 {
            // The days before week 1 belong to the previous year's last week.
            let lastWeek: Int
            if rule.byWeekNo.contains(-1) {
                lastWeek = -1
            } else {
                let previousLength = Day.isLeap(frame.year - 1) ? 366 : 365
                let previousFirstWeekday = YearFrame.weekday(ofDay: frame.first - previousLength)
                if (7 - previousFirstWeekday + weekStart) % 7 >= 4 {
                    lastWeek = 52 + (previousLength + (previousFirstWeekday - weekStart + 7) % 7) % 7 / 4
                } else {
                    // dateutil reckons this case with the current year's length.
                    lastWeek = 52 + (length - weekOneStart) % 7 / 4
                }
            }
            if rule.byWeekNo.contains(lastWeek) {
                for i in 0..<weekOneStart { bits.insert(i) }
            }
        }
        return bits.bits
    }

    /// BYSETPOS applied to the candidates of one period.
    @inline(__always)
    func select(_ candidates: DayBits, _ rule: Recurrence) -> DayBits {
        let count = candidates.count
        var selected = DayBitsBuilder()
        for position in rule.bySetPos {
            let rank = position > 0 ? position - 1 : count + position
            if rank >= 0 && rank < count { selected.insert(candidates.index(ofRank: rank)) }
        }
        return selected.bits
    }
}
