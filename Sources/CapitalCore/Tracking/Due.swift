/// A bill or a fine.
public enum DueType: String, CaseIterable, Sendable {
    case bill, fine
}

/// How much of a due payment is paid: derived from total and paid, never set by hand.
public enum DueStatus: String, CaseIterable, Sendable {
    case unpaid
    case partiallyPaid = "partially paid"
    case fullyPaid = "fully paid"
}

/// A due payment (a bill or a fine): what is owed, what is paid, and by when.
///
/// ```swift
/// let fine = try Due(id: "…", number: 2, type: .fine, total: 450_000, reason: "Speeding ticket", dueDay: try Day(iso: "2025-03-10"), currency: .rub)
/// fine.status        // .unpaid
/// fine.left          // 450_000
/// ```
public struct Due: Hashable, Sendable, Identifiable {
    public var id: String
    /// The short number users type (`due pay 3`): registration order, never reused.
    public var number: Int
    public var type: DueType
    /// In minor units, more than 0.
    public var total: Int64
    /// In minor units, 0 through `total`.
    public var paid: Int64
    public var currency: Currency
    public var reason: String
    public var dueDay: Day
    /// The electronic form (no spaces), or empty.
    public var iban: String
    public var address: String
    public var institution: String
    /// The account the rest is paid from in the forecast; the default account when nil.
    public var payFromID: String?
    /// The expense category of its payments; `Bills` or `Fines` when nil.
    public var categoryID: String?

    /// - Throws: `DueError` for a total of 0 or less, paid outside 0…total, or an empty reason.
    public init(
        id: String, number: Int, type: DueType, total: Int64, paid: Int64 = 0, reason: String, dueDay: Day, currency: Currency,
        iban: String = "", address: String = "", institution: String = "", payFromID: String? = nil, categoryID: String? = nil
    ) throws(DueError) {
        self.id = id
        self.number = number
        self.type = type
        self.total = total
        self.paid = paid
        self.currency = currency
        self.reason = reason
        self.dueDay = dueDay
        self.iban = iban
        self.address = address
        self.institution = institution
        self.payFromID = payFromID
        self.categoryID = categoryID
        try validate()
    }

    /// Checks the rules every due payment keeps.
    public func validate() throws(DueError) {
        guard total > 0 else { throw .invalid(field: "total", value: shown(total), reason: "must be more than 0") }
        guard paid >= 0 else { throw .invalid(field: "paid", value: shown(paid), reason: "cannot be negative") }
        guard paid <= total else { throw .invalid(field: "paid", value: shown(paid), reason: "is more than the total \(shown(total))") }
        guard reason.contains(where: { !$0.isWhitespace }) else { throw .missing(field: "reason") }
    }

    private func shown(_ minor: Int64) -> String { Money(minor: minor, currency: currency).plain }

    public var status: DueStatus { paid == 0 ? .unpaid : paid >= total ? .fullyPaid : .partiallyPaid }

    /// What is still to pay.
    public var left: Int64 { total - paid }

    /// Days from `today` to the due day: negative when overdue.
    public func daysLeft(today: Day) -> Int { dueDay.number - today.number }

    /// With a new total: when it falls below what is paid, paid becomes the total (the payment is
    /// then fully paid) and `clamped` says so.
    /// - Throws: `DueError` for a total of 0 or less.
    public func withTotal(_ newTotal: Int64) throws(DueError) -> (due: Due, clamped: Bool) {
        var due = self
        due.total = newTotal
        let clamped = newTotal > 0 && paid > newTotal
        if clamped { due.paid = newTotal }
        try due.validate()
        return (due, clamped)
    }

    /// With `amount` more paid.
    /// - Throws: `DueError` for an amount of 0 or less, or more than what is left (the message
    ///   names what is left).
    public func paying(_ amount: Int64) throws(DueError) -> Due {
        guard status != .fullyPaid else {
            throw .invalid(field: "amount", value: shown(amount), reason: "the \(type.rawValue) is already fully paid")
        }
        guard amount > 0 else { throw .invalid(field: "amount", value: shown(amount), reason: "must be more than 0") }
        guard amount <= left else {
            throw .invalid(field: "amount", value: shown(amount), reason: "is more than what is left to pay, \(shown(left))")
        }
        var due = self
        due.paid += amount
        return due
    }

    /// The payments not fully paid, most urgent first: overdue ones first (the most overdue
    /// first), then by due day, nearest first — that is, by due day; on one due day the larger
    /// rest first, then the earlier registered.
    /// - Complexity: O(n log n).
    public static func byUrgency(_ dues: [Due], includingPaid: Bool = false) -> [Due] {
        dues.filter { includingPaid || $0.status != .fullyPaid }.sorted {
            ($0.dueDay, -$0.left, $0.number) < ($1.dueDay, -$1.left, $1.number)
        }
    }

    /// Every payment in the order registered, most recent first.
    public static func byRegistration(_ dues: [Due]) -> [Due] {
        dues.sorted { $0.number > $1.number }
    }
}

/// Why a due payment is refused; amounts are shown as money.
public enum DueError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(field: String, value: String, reason: String)
    case missing(field: String)

    public var description: String {
        switch self {
        case .invalid(let field, let value, let reason): "\(field) '\(value)': \(reason)"
        case .missing(let field): "\(field): is required and cannot be empty"
        }
    }
}
