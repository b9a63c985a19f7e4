import CapitalCore
import Foundation
import GRDB

/// Checks of a change from elsewhere before it touches anything: a known kind and group, a
/// stamp that parses, a value that is a JSON object, and a transaction's postings that balance
/// in every currency (a modified client cannot make money appear).
enum SyncValidation {
    /// The change as a winner by `device`, once it passes the checks; with `valueChecked`, the
    /// value (a JSON object, postings that balance) is checked apart (a snapshot checks them all
    /// in one query).
    static func winner(_ change: Change, device: String, valueChecked: Bool = false) throws -> SyncWinner {
        func invalid(_ why: String) -> StoreError {
            .invalid(
                field: "{change}", value: "\(change.entity) \(change.record) \(change.group) from device \(device)",
                reason: FieldKeys.literal(why))
        }
        guard let entity = SyncSchema.entity(change.entity) else { throw invalid("no such kind of record") }
        guard change.group == "deleted" || entity.groups.contains(where: { $0.name == change.group }) else {
            throw invalid("\(entity.table) has no group \(change.group)")
        }
        guard let hlc = HybridTimestamp(change.hlc) else { throw invalid("the clock reading \(change.hlc) is not 16 hexadecimal digits") }
        let base: SyncStamp?
        if let text = change.base {
            guard let stamp = SyncStamp(text) else { throw invalid("the base \(text) is not HLC@device") }
            base = stamp
        } else {
            base = nil
        }
        if change.group == "deleted" {
            guard change.value == "true" || change.value == "false" else { throw invalid("deleted is true or false, not \(change.value)") }
        } else if !valueChecked {
            guard let object = try? JSONSerialization.jsonObject(with: Data(change.value.utf8)) as? [String: Any] else {
                throw invalid("the value is not a JSON object")
            }
            if change.entity == "txn" && change.group == "postings" {
                if let why = unbalanced(object) { throw invalid(why) }
            }
        }
        return SyncWinner(value: change.value, stamp: SyncStamp(hlc: hlc, device: device), base: base)
    }

    /// Why a transaction's postings do not balance, or nil when they do.
    static func unbalanced(_ value: [String: Any]) -> String? {
        guard let rows = value["rows"] as? [[String: Any]], !rows.isEmpty else { return "a transaction needs postings" }
        var sums: [String: Int64] = [:]
        for row in rows {
            guard let amount = (row["amountMinor"] as? NSNumber)?.int64Value, let currency = row["currency"] as? String else {
                return "a posting needs an integer amountMinor and a currency"
            }
            let (sum, overflow) = sums[currency, default: 0].addingReportingOverflow(amount)
            if overflow { return "the postings in \(currency) overflow" }
            sums[currency] = sum
        }
        if let (currency, sum) = sums.sorted(by: { $0.key < $1.key }).first(where: { $0.value != 0 }) {
            return "the postings do not balance: \(currency) sums to \(sum) minor units, not 0"
        }
        return nil
    }
}
