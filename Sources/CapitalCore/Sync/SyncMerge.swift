/// Who wrote a value and when: a device's hybrid-clock reading and the device's id. Stamps order
/// by reading, then by device id, so two devices never tie.
public struct SyncStamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// When, by the writing device's hybrid clock.
    public let hlc: HybridTimestamp
    /// The writing device's id.
    public let device: String

    /// The stamp of `device`'s write at `hlc`.
    public init(hlc: HybridTimestamp, device: String) {
        self.hlc = hlc
        self.device = device
    }

    /// By reading, then by device id.
    public static func < (a: SyncStamp, b: SyncStamp) -> Bool { (a.hlc, a.device) < (b.hlc, b.device) }

    /// `HLC@device`, the form kept in the change log.
    public var description: String { "\(hlc)@\(device)" }

    /// Parses `description`'s form; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let at = text.firstIndex(of: "@"), let hlc = HybridTimestamp(text[..<at]) else { return nil }
        let device = text[text.index(after: at)...]
        guard !device.isEmpty else { return nil }
        self.init(hlc: hlc, device: String(device))
    }
}

/// The value a (record, group) holds, with who wrote it and what it replaced.
public struct SyncWinner: Hashable, Sendable {
    /// The group's value, canonical JSON text.
    public let value: String
    /// Who wrote it, when.
    public let stamp: SyncStamp
    /// The stamp of the value the writer saw and replaced; nil when the writer saw none.
    public let base: SyncStamp?

    /// The value `value` written at `stamp` over `base`.
    public init(value: String, stamp: SyncStamp, base: SyncStamp?) {
        self.value = value
        self.stamp = stamp
        self.base = base
    }
}

/// The merge rule of field groups: for each (record, group) the value with the highest stamp
/// wins, whatever order the values arrive in, and a value arriving twice changes nothing.
///
/// A conflict is a lost value its winner did not know about: the winner's `base` is not the
/// loser's stamp (two devices changed the same group without seeing each other's change). A
/// winner written over the value it replaces is an ordinary edit, not a conflict.
public enum SyncMerge {
    /// What to do with an incoming value.
    public enum Decision: Equatable, Sendable {
        /// The incoming value wins; `lost` is the current value when it lost in a conflict.
        case take(lost: SyncWinner?)
        /// The current value stays; `lost` is the incoming value when it lost in a conflict.
        case keep(lost: SyncWinner?)
    }

    /// The decision for `incoming` against the `current` winner (nil: the group has no value yet).
    /// - Complexity: O(1) plus the comparison of the two values' text.
    public static func decide(current: SyncWinner?, incoming: SyncWinner) -> Decision {
        guard let current else { return .take(lost: nil) }
        if incoming.stamp == current.stamp { return .keep(lost: nil) }
        if incoming.stamp > current.stamp {
            let concurrent = incoming.base != current.stamp && incoming.value != current.value
            return .take(lost: concurrent ? current : nil)
        }
        let concurrent = current.base != incoming.stamp && incoming.value != current.value
        return .keep(lost: concurrent ? incoming : nil)
    }
}
