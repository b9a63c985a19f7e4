import CapitalCore
import CapitalStore
import Foundation

/// A conflict in a sentence: who changed which part of what to what, and whose value lost —
/// "anna (device 1a2b3c4d) changed schedule Rent's amount to VTB Debit 45 000.00, Rent -45 000.00; your VTB Debit 42 000.00, Rent -42 000.00 lost".
public struct ConflictWords {
    /// This device's id (its values are "yours").
    let device: String?
    /// The user each other device writes for.
    let peers: [String: String]
    /// Account names by id (postings and the accounts records name).
    let accounts: [String: Account]
    /// The ledger's currency, for amounts a value does not give one for.
    let currency: Currency
    let store: Store

    /// The words for the conflicts of `store`'s ledger.
    public init(store: Store) throws {
        self.store = store
        device = try store.syncDeviceID()
        peers = try store.syncPeers()
        accounts = Dictionary(try store.accounts(includeHidden: true).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        currency = try store.currency()
    }

    /// The sentence for `conflict`.
    public func sentence(_ conflict: SyncConflict) throws -> String {
        let kind = Self.kinds[conflict.entity] ?? conflict.entity
        let name = try store.syncRecordName(entity: conflict.entity, record: conflict.record).map { " \($0)" } ?? ""
        let (kept, lost) = differences(conflict.kept.value, conflict.lost.value)
        let part = conflict.group == "deleted" ? "removal" : conflict.group
        return "\(who(conflict.kept.stamp.device)) changed \(kind)\(name)'s \(part) to \(kept); \(whose(conflict.lost.stamp.device)) \(lost) lost"
    }

    /// Record kinds in words.
    static let kinds = [
        "txn": "transaction", "accountGroup": "group", "calendarDay": "calendar day", "expectedMark": "expected flow",
        "setting": "setting",
    ]

    /// Fields holding amounts in minor units.
    static let amounts: Set<String> = [
        "amountMinor", "floorMinor", "amountLow", "amountHigh", "amountExpected", "total", "principal", "creditLimit", "amount",
        "fixedAmount", "minimumFloor",
    ]

    private func who(_ writer: String) -> String {
        if writer == device { return "you" }
        return peers[writer].map { "\($0) (device \(writer.prefix(8)))" } ?? "device \(writer.prefix(8))"
    }

    private func whose(_ writer: String) -> String {
        if writer == device { return "your" }
        return peers[writer].map { "\($0)'s (device \(writer.prefix(8)))" } ?? "device \(writer.prefix(8))'s"
    }

    /// The two values in words, each naming only the fields in which they differ.
    func differences(_ kept: String, _ lost: String) -> (kept: String, lost: String) {
        guard let a = Self.object(kept), let b = Self.object(lost) else { return (words(kept), words(lost)) }
        let keys = Set(a.keys).union(b.keys).subtracting(["nameKey"]).sorted().filter { !Self.same(a[$0], b[$0]) }
        guard !keys.isEmpty else { return ("the same", "the same") }
        let currency = (a["currency"] as? String).flatMap { try? Currency($0) } ?? self.currency
        func text(_ object: [String: Any]) -> String {
            // Child rows (postings, members) and a lone name speak for themselves; other fields are named.
            keys.map { key in
                key == "rows" || (keys.count == 1 && key == "name")
                    ? field(key, object[key], currency) : "\(key) \(field(key, object[key], currency))"
            }.joined(separator: ", ")
        }
        return (text(a), text(b))
    }

    private func words(_ value: String) -> String {
        switch value {
        case "true": "removed"
        case "false": "kept"
        default: value
        }
    }

    private func field(_ key: String, _ value: Any?, _ currency: Currency) -> String {
        switch value {
        case nil, is NSNull: return "none"
        case let rows as [[String: Any]] where key == "rows": return rows.isEmpty ? "none" : rows.map { row($0, currency) }.joined(separator: ", ")
        case let number as NSNumber where Self.amounts.contains(key):
            return Money(minor: number.int64Value, currency: currency).formatted()
        case let text as String where key.hasSuffix("Id"): return accounts[text]?.name ?? text
        case let text as String: return text.isEmpty ? "none" : text
        default: return "\(value!)"
        }
    }

    /// A child row: a posting as its account and amount, anything else as its fields.
    private func row(_ row: [String: Any], _ currency: Currency) -> String {
        if let account = row["accountId"] as? String, let amount = row["amountMinor"] as? NSNumber {
            let code = (row["currency"] as? String).flatMap { try? Currency($0) } ?? currency
            return "\(accounts[account]?.name ?? account) \(Money(minor: amount.int64Value, currency: code).formatted())"
        }
        return row.keys.sorted().map { "\($0) \(field($0, row[$0], currency))" }.joined(separator: " ")
    }

    private static func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    private static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): (a as? NSObject)?.isEqual(b) ?? false
        default: false
        }
    }
}
