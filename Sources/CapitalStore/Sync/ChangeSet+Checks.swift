import CapitalCore

extension ChangeSet {
    /// Checks every change as a device checks one before applying it: a known kind and group, a
    /// stamp that parses, a JSON object for a value, postings that balance in every currency.
    /// - Throws: `StoreError.invalid` naming the change and why.
    public func check() throws(StoreError) {
        do {
            for change in changes { _ = try SyncValidation.winner(change, device: device) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalid(field: "{change}", value: id, reason: FieldKeys.literal("\(error)"))
        }
    }

    /// The change set as the device's log and the server keep it: JSON with sorted keys.
    public var body: String {
        get throws { try SyncLog.body(self) }
    }

    /// The change set of `body`.
    public init(body: String) throws {
        self = try SyncLog.decode(body)
    }

    /// The latest clock reading among the changes (their physical time is when they were made).
    public var latest: HybridTimestamp {
        changes.compactMap { HybridTimestamp($0.hlc) }.max() ?? .zero
    }
}

/// A group's winning value as a snapshot carries it: what a new device starts from.
public struct SnapshotEntry: Codable, Hashable, Sendable {
    public let entity: String
    public let record: String
    public let group: String
    public let value: String
    public let hlc: String
    public let device: String
    public let base: String?

    public init(entity: String, record: String, group: String, value: String, hlc: String, device: String, base: String?) {
        self.entity = entity
        self.record = record
        self.group = group
        self.value = value
        self.hlc = hlc
        self.device = device
        self.base = base
    }
}

extension Store {
    /// Starts this device on a shared ledger from a snapshot (every group's winner) and the log's
    /// sequence number it was taken at; then `applyRemote` continues with the log after it.
    /// - Throws: as `applyRemote`.
    @discardableResult
    public func applySnapshot(_ entries: [SnapshotEntry], at head: Int64) throws(StoreError) -> SyncApplyReport {
        let byDevice = Dictionary(grouping: entries, by: \.device)
        let sets = byDevice.keys.sorted().map { device in
            ChangeSet(
                id: "snapshot", device: device, deviceSeq: 0,
                changes: byDevice[device]!.map {
                    Change(entity: $0.entity, record: $0.record, group: $0.group, value: $0.value, hlc: $0.hlc, base: $0.base)
                })
        }
        return try applyRemote(sets, cursor: head)
    }
}
