import CoreMetrics
import Prometheus

/// What `GET /metrics` shows, in Prometheus' text format: swift-metrics' counters and timers, made
/// by a Prometheus factory of the server's own (not the process-wide `MetricsSystem`, so that
/// servers in one test process count apart). Names and labels carry routes (`/v1/ledgers/:ledger`,
/// never the ledger or the user), methods, statuses and codes: never a person, a token or an amount.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    let pushes: CoreMetrics.Counter
    let changeSets: CoreMetrics.Counter
    let conflicts: CoreMetrics.Counter

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map { .milliseconds($0) }
        self.factory = factory
        pushes = CoreMetrics.Counter(label: "capital_pushes_total", factory: factory)
        changeSets = CoreMetrics.Counter(label: "capital_change_sets_appended_total", factory: factory)
        conflicts = CoreMetrics.Counter(label: "capital_merge_conflicts_total", factory: factory)
        // Shown at 0 from the start, so that a rate over them is defined before the first event.
        for reason in ["password", "locked_out", "disabled"] { signInFailed(reason, by: 0) }
    }

    /// The text `GET /metrics` answers.
    public func exposition() -> String { registry.emitToString() }

    /// A request answered: its route (the router's pattern; `unmatched` for none), method, status and time.
    func request(route: String?, method: String, status: Int, duration: Duration) {
        // A client chooses the method: any other than the routes' counts as one, so that no
        // client can grow the labels without bound.
        let method = ["GET", "POST", "PUT", "DELETE", "HEAD"].contains(method) ? method : "other"
        let labels = [("route", route ?? "unmatched"), ("method", method), ("status", "\(status)")]
        CoreMetrics.Counter(label: "capital_http_requests_total", dimensions: labels, factory: factory).increment()
        CoreMetrics.Timer(
            label: "capital_http_request_duration_seconds", dimensions: [("route", route ?? "unmatched"), ("method", method)], factory: factory
        )
        .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// A push the log accepted: its new change sets, and the changes among them that met a
    /// concurrent edit of their group (one value kept, one lost, as a device's `sync conflicts` shows).
    func pushed(changeSets: Int, conflicts: Int) {
        pushes.increment()
        self.changeSets.increment(by: changeSets)
        self.conflicts.increment(by: conflicts)
    }

    /// A push the log refused, by the problem's code (`out_of_order`, `clock_skew`, `invalid`…).
    func pushRefused(code: String) {
        CoreMetrics.Counter(label: "capital_push_refusals_total", dimensions: [("code", code)], factory: factory).increment()
    }

    /// A sign-in refused: `password` (a wrong user name or password), `locked_out` or `disabled`.
    func signInFailed(_ reason: String, by count: Int = 1) {
        CoreMetrics.Counter(label: "capital_sign_in_failures_total", dimensions: [("reason", reason)], factory: factory).increment(by: count)
    }
}
