import CapitalCore
import CapitalKit
import CapitalOutput

extension Report {
    /// The forecast's daily balances as a terminal chart, today and the lowest day marked.
    static func chart(_ forecast: ForecastReport, _ projection: Projection, _ global: GlobalOptions) -> String {
        let console = Console.current
        return renderChart(
            values: forecast.balances, firstDay: projection.timeline.today, todayIndex: 0, minimumIndex: forecast.minimumIndex,
            width: max(40, console.width - 2), height: 12, format: { global.shown(Money(minor: $0, currency: forecast.pool.currency)) },
            color: console.color)
    }
}

extension GlobalOptions {
    /// Amounts in `money`'s currency as this command's tables show them (`***` when hidden).
    func shown(_ money: @escaping (Int64) -> Money) -> (Int64) -> String { { self.shown(money($0)) } }
}
