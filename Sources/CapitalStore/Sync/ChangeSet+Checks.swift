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
