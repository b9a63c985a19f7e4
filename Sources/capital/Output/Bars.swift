/// Draws labelled amounts as horizontal bars with Unicode eighth blocks (`▏▎▍▌▋▊▉█`), for
/// `stats --chart`:
///
/// ```
/// Groceries    63 000.00 ████████████████████████████████
/// Kids         40 000.00 ████████████████████▎
/// Transport    10 000.00 █████
/// ```
///
/// - Every bar is measured against the largest magnitude among the rows, which fills the bar
///   area; a value other than zero gets at least an eighth. Lengths are computed with integers.
/// - A negative value (a month with more spent than earned, a category refunded more than spent)
///   is drawn the same length as its magnitude, in red when `color` is on; its amount shows the sign.
/// - Parameters:
///   - width: the whole line's width in terminal columns; the bars get what the labels and
///     amounts leave, at least 10 columns.
/// - Returns: one line per row, each ending in a newline; empty for no rows.
func renderBars(_ rows: [(label: String, value: Int64)], width: Int, format: (Int64) -> String, color: Bool) -> String {
    guard !rows.isEmpty else { return "" }
    let amounts = rows.map { format($0.value) }
    let labelWidth = rows.map(\.label.displayWidth).max()!
    let amountWidth = amounts.map(\.count).max()!
    let barWidth = max(10, width - labelWidth - amountWidth - 2)
    let largest = rows.map(\.value.magnitude).max()!
    let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    var out = ""
    for (row, amount) in zip(rows, amounts) {
        var bar = ""
        if largest > 0 && row.value != 0 {
            // magnitude × (width × 8) / largest, at most width × 8 since magnitude ≤ largest.
            let product = row.value.magnitude.multipliedFullWidth(by: UInt64(barWidth * 8))
            let length = max(1, Int(largest.dividingFullWidth(product).quotient))
            bar = String(repeating: "█", count: length / 8) + (length % 8 == 0 ? "" : String(eighths[length % 8 - 1]))
            if color && row.value < 0 { bar = "\u{1B}[31m" + bar + "\u{1B}[0m" }
        }
        let label = row.label + String(repeating: " ", count: labelWidth - row.label.displayWidth)
        let value = String(repeating: " ", count: amountWidth - amount.count) + amount
        let line = label + " " + value + " " + bar
        out += (bar.isEmpty ? String(line.reversed().drop { $0 == " " }.reversed()) : line) + "\n"
    }
    return out
}
