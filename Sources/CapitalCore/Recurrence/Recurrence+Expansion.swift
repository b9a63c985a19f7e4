extension Recurrence {
    /// Calls `body` with each occurrence (ascending) of the rule anchored at `start` that falls in
    /// `range`. COUNT counts from `start`, also before `range`. No allocation per occurrence.
    public func forEachOccurrence(start: Day, in range: DayRange, _ body: (Day) -> Void) {
        fatalError("TODO: helper implements")
    }

    /// The occurrences in `range`, ascending.
    public func occurrences(start: Day, in range: DayRange) -> [Day] {
        var result: [Day] = []
        forEachOccurrence(start: start, in: range) { result.append($0) }
        return result
    }
}
