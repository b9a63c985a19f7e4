import CapitalCore
import CapitalStore

/// Which expected flows `expected list` shows.
public struct ExpectedQuery: Sendable {
    /// Which states.
    public enum Show: String, Sendable, CaseIterable {
        /// Every state in the window.
        case all
        /// Only open ones in the window.
        case open
        /// Open ones dated before today, however old (the window's start is ignored).
        case overdue
    }

    public var show: Show = .all
    /// The window (inclusive); nil: 30 days before today, 30 days after.
    public var from: Day?
    public var until: Day?
    /// Only these kinds; nil: every kind.
    public var kind: ExpectedKind?

    /// Every flow of every kind from 30 days before today to 30 days after.
    public init() {}
}

extension Store {
    /// The expected flows `query` asks for, in day order, each with its state and what stands for it.
    /// - Throws: `KitError.invalid(.until)` for a window that ends before it starts; `StoreError`
    ///   when the ledger cannot be read.
    public func expectedList(_ query: ExpectedQuery, today: Day) throws -> [ExpectedEntry] {
        var first = query.from ?? today.advanced(by: -30)
        var last = query.until ?? today.advanced(by: 30)
        if query.show == .overdue {
            // From the earliest day a schedule, loan or deposit was taken over: nothing before it is open.
            let ledger = try snapshot()
            var earliest = today
            for schedule in ledger.schedules {
                let handled = ledger.scheduleStates[schedule.id]?.handledThrough ?? schedule.start.advanced(by: -1)
                earliest = min(earliest, max(schedule.start, handled.advanced(by: 1)))
            }
            for loan in ledger.loans { earliest = min(earliest, (loan.handledThrough ?? today).advanced(by: 1)) }
            for deposit in ledger.deposits { earliest = min(earliest, deposit.handled(today: today).advanced(by: 1)) }
            // Adjusted or moved flows may fall a little before their key day.
            first = earliest.advanced(by: -31)
            last = min(last, today.advanced(by: -1))
            if query.until == nil { last = today.advanced(by: -1) }
        }
        guard first <= last else {
            if query.show == .overdue { return [] }
            throw KitError.invalid(.until, value: last.iso, reason: "is before the first day \(first)")
        }
        return try expectedEntries(in: DayRange(first, last.advanced(by: 1)), today: today).filter { entry in
            if let kind = query.kind, entry.flow.kind != kind { return false }
            switch query.show {
            case .all: return true
            case .open: return entry.state == .open
            case .overdue: return entry.state == .open && entry.flow.day < today
            }
        }
    }
}
