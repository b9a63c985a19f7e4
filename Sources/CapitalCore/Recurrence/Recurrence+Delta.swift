extension Recurrence {
    /// Adds `minor` to `buffer[day - firstDay]` for every occurrence of the rule anchored at
    /// `start` that falls in `[firstDay, firstDay + buffer.count)`: the forecast kernel's way to lay
    /// a schedule's amounts onto a day-indexed delta buffer.
    ///
    /// The additions are checked. If one would overflow `Int64`, the additions already made are
    /// taken back (exactly: each slot held a sum that fitted), so the buffer is left as it was, and
    /// the result is false.
    /// ```swift
    /// var deltas = [Int64](repeating: 0, count: 365)
    /// let ok = deltas.withUnsafeMutableBufferPointer {
    ///     try! Recurrence(rrule: "FREQ=MONTHLY;BYMONTHDAY=25").addAmount(-12_000_00, start: jan1, into: $0, firstDay: jan1)
    /// }
    /// ```
    /// - Returns: true when every addition was made; false, with the buffer unchanged, on overflow.
    /// - Complexity: as `forEachOccurrence(start:in:_:)`; no allocation.
    public func addAmount(_ minor: Int64, start: Day, into buffer: UnsafeMutableBufferPointer<Int64>, firstDay: Day) -> Bool {
        guard minor != 0, let base = buffer.baseAddress, buffer.count > 0 else { return true }
        let range = DayRange(firstDay, firstDay.advanced(by: buffer.count))
        var sink = DeltaSink(slots: base - firstDay.number, amount: minor)
        expand(start: start, in: range, into: &sink)
        guard sink.overflowed else { return true }
        var undo = DeltaUndoSink(slots: base - firstDay.number, amount: minor, remaining: sink.added)
        if undo.remaining > 0 { expand(start: start, in: range, into: &undo) }
        return false
    }
}

/// Adds an amount to the slot of each day; stops at the first addition that would overflow.
struct DeltaSink: OccurrenceSink {
    /// The slot of day number `n` is `slots[n]` (the buffer's base moved back by its first day).
    let slots: UnsafeMutablePointer<Int64>
    let amount: Int64
    var added = 0
    var overflowed = false

    @inline(__always)
    mutating func take(_ day: Int) -> Bool {
        let (sum, overflow) = slots[day].addingReportingOverflow(amount)
        if overflow {
            overflowed = true
            return false
        }
        slots[day] = sum
        added += 1
        return true
    }
}

/// Takes back the first `remaining` additions of a `DeltaSink` that overflowed.
struct DeltaUndoSink: OccurrenceSink {
    let slots: UnsafeMutablePointer<Int64>
    let amount: Int64
    var remaining: Int

    mutating func take(_ day: Int) -> Bool {
        slots[day] -= amount  // cannot overflow: the slot holds an earlier value plus `amount`
        remaining -= 1
        return remaining > 0
    }
}
