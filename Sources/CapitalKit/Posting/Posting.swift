import CapitalCore
import CapitalStore

extension Store {
    /// Posts what is due up to `last` (today when nil): every occurrence of an `auto` schedule not
    /// yet posted becomes a transaction, and each approved occurrence of a `confirm` one; the
    /// others are listed as pending. All or nothing; nothing is written with `dryRun`.
    /// - Throws: `KitError.invalid(.until)` for a day after today (only what is due is posted);
    ///   `StoreError` for an approval that names no occurrence awaiting it.
    public func postDue(through last: Day?, today: Day, approvals: [OccurrenceApproval], dryRun: Bool) throws -> PostResult {
        let last = last ?? today
        guard last <= today else {
            throw KitError.invalid(.until, value: last.iso, reason: "is after today \(today): only what is due can be posted")
        }
        return try post(until: last, approvals: approvals, dryRun: dryRun)
    }
}
