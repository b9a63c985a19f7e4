import CapitalCore
import Foundation

/// Record timestamps (`createdAt`, `updatedAt`) as the text GRDB stores for a `Date`:
/// `yyyy-MM-dd HH:mm:ss.SSS` in UTC. Formatted by hand: Foundation's `DateFormatter` loads ICU,
/// which costs a few milliseconds on the first record of every command.
enum Timestamp {
    /// Now, as stored.
    static func now() -> String { text(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }

    static func text(millisecondsSince1970 ms: Int64) -> String {
        let (days, rest) = ms.quotientAndRemainder(dividingBy: 86_400_000)
        let day = rest < 0 ? Day(Int(days) - 1) : Day(Int(days))
        let inDay = rest < 0 ? rest + 86_400_000 : rest
        let civil = day.civil
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int64(civil.year), 4))-\(pad(Int64(civil.month), 2))-\(pad(Int64(civil.day), 2)) "
            + "\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))"
    }
}
