import CapitalCore
import CapitalKit

package extension Report {
    /// The report with what its answer counts today though it was expected before (issue 17):
    /// `"overdue": {"count", "net"}` in its JSON.
    func counting(_ overdue: Overdue?) -> Report {
        guard let overdue else { return self }
        var report = self
        report.overdue = .object([("count", .number(String(overdue.count))), ("net", .string(overdue.net.plain))])
        return report
    }

    /// The report with the rates older than a week its answer valued other currencies at
    /// (issue 19): `"staleRates"` in its JSON.
    func valued(with stale: [StaleRate]) -> Report {
        var report = self
        report.staleRates = Report.staleRatesJSON(stale)
        return report
    }

    /// The report of an answer from `projection`, with what the projection counted and valued.
    func answered(from projection: Projection) -> Report {
        counting(projection.overdue).valued(with: projection.staleRates)
    }

    /// `"staleRates": [{"currency", "lastRate", "on"}]`, or nil when every rate used is recent.
    static func staleRatesJSON(_ stale: [StaleRate]) -> JSON? {
        guard !stale.isEmpty else { return nil }
        return .array(
            stale.map {
                .object([
                    ("currency", .string($0.rate.currency.code)), ("lastRate", .string($0.rate.perUnit.description)),
                    ("on", .string($0.rate.day.iso)),
                ])
            })
    }
}
