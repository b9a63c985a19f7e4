import CapitalCore

/// One write of one device, as it travels: every field group the write changed, stamped by the
/// device's hybrid clock. A change set is applied whole or not at all.
public struct ChangeSet: Codable, Hashable, Sendable {
    /// A random UUID: the same set delivered twice is recognised by it.
    public let id: String
    /// The writing device's id.
    public let device: String
    /// The device's own count of its change sets: 1, 2, 3 … without gaps.
    public let deviceSeq: Int64
    /// The groups the write changed.
    public let changes: [Change]

    /// A change set of `changes` by `device`.
    public init(id: String, device: String, deviceSeq: Int64, changes: [Change]) {
        self.id = id
        self.device = device
        self.deviceSeq = deviceSeq
        self.changes = changes
    }
}

/// One field group's new value.
public struct Change: Codable, Hashable, Sendable {
    /// The record kind: a table (`txn`, `account` …).
    public let entity: String
    /// The record's id (or, for a record named by several columns, their JSON array).
    public let record: String
    /// The field group (`header`, `postings`, `deleted` …).
    public let group: String
    /// The group's value: JSON text as SQLite's `json_object` writes it.
    public let value: String
    /// When, by the device's hybrid clock (16 hexadecimal digits).
    public let hlc: String
    /// The stamp (`HLC@device`) of the value the device replaced; nil when it saw none.
    public let base: String?

    /// The change of `entity` `record`'s `group` to `value` at `hlc`, over `base`.
    public init(entity: String, record: String, group: String, value: String, hlc: String, base: String?) {
        self.entity = entity
        self.record = record
        self.group = group
        self.value = value
        self.hlc = hlc
        self.base = base
    }
}
