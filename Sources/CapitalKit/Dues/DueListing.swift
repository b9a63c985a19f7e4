import CapitalCore
import CapitalStore

/// Which bills and fines a listing shows, and in which order (`due list`, `GET …/dues`).
public struct DueListing: Sendable {
    /// Every one in the order registered, most recent first; else the unpaid ones, most urgent first.
    public var all = false
    public var type: DueType?
    /// A status of fully-paid looks at all of them.
    public var status: DueStatus?

    /// A listing of the unpaid dues of every type, most urgent first, unless told otherwise.
    public init(all: Bool = false, type: DueType? = nil, status: DueStatus? = nil) {
        (self.all, self.type, self.status) = (all, type, status)
    }

    /// `dues` as this listing shows them.
    /// - Complexity: O(n log n).
    public func listed(_ dues: [Due]) -> [Due] {
        var dues = all ? Due.byRegistration(dues) : Due.byUrgency(dues, includingPaid: status == .fullyPaid)
        if let type { dues = dues.filter { $0.type == type } }
        if let status { dues = dues.filter { $0.status == status } }
        return dues
    }
}
