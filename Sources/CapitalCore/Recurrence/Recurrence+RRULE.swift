extension Recurrence {
    /// Parses RRULE text (`FREQ=MONTHLY;BYDAY=-1FR`; an `RRULE:` prefix is allowed).
    /// - Throws: `RecurrenceError` naming the part, the value and why.
    public init(rrule text: String) throws(RecurrenceError) {
        fatalError("TODO: helper implements")
    }

    /// Canonical RRULE text: parts in a fixed order, defaults left out.
    public var rrule: String {
        fatalError("TODO: helper implements")
    }
}
