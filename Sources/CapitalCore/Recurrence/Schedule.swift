/// A recurring transaction: a template (postings), a rule, a start and an end, an amount model,
/// an approval mode and exceptions.
///
/// A schedule with an amount model has two postings, `to` first and `from` second: each
/// occurrence moves the amount from `from` to `to`. A schedule without one (a split such as a
/// mortgage payment, 60 000 interest + 10 000 principal) posts its template's fixed amounts.
public struct Schedule: Hashable, Sendable, Identifiable {
    /// Whether a due occurrence is posted by itself or waits for confirmation.
    public enum Approval: String, Sendable, CaseIterable {
        /// Posted by `capital post` when due.
        case auto
        /// Listed by `capital post` until approved.
        case confirm
    }

    /// A change to one occurrence, keyed by the rule's day for it (before adjustment).
    public struct Exception: Hashable, Sendable {
        public var original: Day
        public var skip: Bool = false
        public var movedTo: Day?
        /// A new amount (minor units) for this occurrence.
        public var amount: Int64?

        /// What happens to the occurrence of `original`: skipped, moved, or another amount.
        public init(original: Day, skip: Bool = false, movedTo: Day? = nil, amount: Int64? = nil) {
            self.original = original
            self.skip = skip
            self.movedTo = movedTo
            self.amount = amount
        }
    }

    public var id: String
    public var name: String
    public var note: String
    public var postings: [Posting]
    /// When set, `postings` has two entries (to, from) and each occurrence's amount comes from here.
    public var amount: AmountModel?
    public var rule: Rule
    public var start: Day
    /// The last day an occurrence may fall on (its rule day), inclusive.
    public var end: Day?
    public var approval: Approval
    public var exceptions: [Exception]

    /// A schedule with every field given; `Store` checks its rule and postings before one is kept.
    public init(
        id: String, name: String, note: String = "", postings: [Posting], amount: AmountModel? = nil, rule: Rule, start: Day,
        end: Day? = nil, approval: Approval = .auto, exceptions: [Exception] = []
    ) {
        self.id = id
        self.name = name
        self.note = note
        self.postings = postings
        self.amount = amount
        self.rule = rule
        self.start = start
        self.end = end
        self.approval = approval
        self.exceptions = exceptions
    }

    /// The currency the schedule moves (its first posting's).
    public var currency: Currency { postings[0].amount.currency }
}

/// One occurrence of a schedule: the rule's day, the day it falls on, and how much.
public struct ScheduleOccurrence: Hashable, Sendable {
    /// The rule's day (before adjustment and moves): what identifies the occurrence.
    public var original: Day
    /// The day it happens: adjusted to the calendar, or moved by an exception.
    public var day: Day
    /// Expected, low and high amount (minor units); equal for fixed amounts.
    public var amount: AmountModel
    /// The postings of this occurrence at its expected amount.
    public var postings: [Posting]
}

extension Schedule {
    /// The occurrences falling in `range` (by the day they happen), in day order, exceptions applied.
    /// - Complexity: O(occurrences near the range + exceptions).
    public func occurrences(in range: DayRange, calendar: WorkingDayCalendar) -> [ScheduleOccurrence] {
        var result: [ScheduleOccurrence] = []
        forEachOccurrence(in: range, calendar: calendar) { original, day, model in
            result.append(ScheduleOccurrence(original: original, day: day, amount: model, postings: postings(for: model.expected)))
        }
        result.sort { ($0.day, $0.original) < ($1.day, $1.original) }
        return result
    }

    /// Each occurrence whose (possibly moved) day falls in `range`, with its amount, in no
    /// particular order: what `occurrences(in:calendar:)` lists, without building postings.
    /// - Complexity: O(occurrences + exceptions × occurrences), no allocation per occurrence.
    public func forEachOccurrence(
        in range: DayRange, calendar: WorkingDayCalendar, _ body: (_ original: Day, _ day: Day, _ amount: AmountModel) -> Void
    ) {
        let limit = end.map { DayRange(start, $0.advanced(by: 1)) }
        // Moved occurrences may come from far away: widen by the moves' reach.
        var reach = 0
        for exception in exceptions { if let to = exception.movedTo { reach = max(reach, abs(to.number - exception.original.number)) } }
        let wide = DayRange(range.start.advanced(by: -reach), range.end.advanced(by: reach))
        let base = amount ?? AmountModel(fixed: postings[0].amount.minor)
        rule.forEachOccurrence(start: start, in: wide, calendar: calendar) { original, adjusted in
            if let limit, !limit.contains(original) { return }
            var day = adjusted
            var model = base
            if !exceptions.isEmpty, let exception = exceptions.first(where: { $0.original == original }) {
                if exception.skip { return }
                if let to = exception.movedTo { day = to }
                if let minor = exception.amount { model = AmountModel(fixed: minor) }
            }
            guard range.contains(day) else { return }
            body(original, day, model)
        }
    }

    /// The template's postings for an occurrence of `minor`: with an amount model, `to` gets
    /// +minor and `from` −minor; otherwise the first posting takes `minor` and the last balances.
    public func postings(for minor: Int64) -> [Posting] {
        var result = postings
        if amount != nil, result.count == 2 {
            result[0].amount.minor = minor
            result[1].amount.minor = -minor
            return result
        }
        guard result[0].amount.minor != minor, result.count >= 2 else { return result }
        let (delta, o1) = minor.subtractingReportingOverflow(result[0].amount.minor)
        let (last, o2) = result[result.count - 1].amount.minor.subtractingReportingOverflow(delta)
        guard !o1 && !o2 else { return result }  // unreachable for amounts that passed validation
        result[0].amount.minor = minor
        result[result.count - 1].amount.minor = last
        return result
    }
}
