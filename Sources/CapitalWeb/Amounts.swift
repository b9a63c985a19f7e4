import CapitalCore

/// How a page writes amounts of one currency: grouped as the CLI groups them (with no-break
/// spaces, so a number never wraps), or hidden with `--hide-amounts` — in text, titles, axes and
/// data attributes alike.
struct Amounts {
    var currency: Currency
    var hidden: Bool

    /// What stands for an amount when amounts are hidden.
    static let mask = "***"

    /// One major unit in minor units.
    var unit: Int64 { currency.minorPerMajor }

    /// `181 693.76`, or `***`.
    func text(_ minor: Int64) -> String {
        hidden ? Amounts.mask : Money(minor: minor, currency: currency).formatted(groupSeparator: "\u{A0}")
    }

    /// `+180 000.00` for an inflow, `-69 979.36` for an outflow, or `***`.
    func signed(_ minor: Int64) -> String { hidden || minor <= 0 ? text(minor) : "+" + text(minor) }

    /// An axis label (`1 M`, `250 k`), or nothing.
    func axis(_ minor: Int64) -> String { hidden ? "" : ChartScale.compact(minor, unit: currency.minorPerMajor) }

    /// The plain amount for a `data-` attribute (`181693.76`, as JSON answers write it), or nil.
    func data(_ minor: Int64) -> String? { hidden ? nil : Money(minor: minor, currency: currency).plain }
}
