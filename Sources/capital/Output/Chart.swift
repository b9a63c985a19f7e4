import CapitalCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws a balance series in the terminal with Unicode block characters (`▁▂▃▄▅▆▇█`, eight
/// steps a row), for `forecast --chart`.
///
/// ```
///                        ▼ min 12 400.00 on 2025-03-24
///  250 000.00 ┤      ▆█████▇▇▇
///             │   ▃▅████████████
///             │ ▂▅██████████████
///   12 400.00 ┤▇██████████████████
///             └┬───────────┬──────
///              ▲ today     Apr
///              2025-03-10  2025-05-31
/// ```
///
/// - Days are downsampled into at most the columns left of `width` after the y-axis labels,
///   each column drawn at its lowest day, so a dip is never hidden.
/// - The y-axis reads the highest column at the top and the lowest (the series' minimum) at the
///   bottom (`format`); a dotted zero line, labelled, crosses the plot when they straddle zero.
/// - The x-axis has ticks at month starts (or every few months or years when the months crowd
///   each other), labelled `Apr` or `2026`, and the first and last dates below.
/// - The minimum's column is marked `▼` above the plot with the amount and the day; today's
///   column `▲ today` below the axis.
/// - `color` paints the columns below zero red and the minimum's marker bold.
///
/// - Parameters:
///   - width: the whole chart's width in terminal columns (labels included).
///   - height: the plot's rows; the chart adds four lines (the minimum above, the axis, its
///     labels and the dates below).
/// - Returns: the chart, lines ending in newlines; empty for an empty series.
func renderChart(
    values: [Int64], firstDay: Day, todayIndex: Int, minimumIndex: Int, width: Int, height: Int, format: (Int64) -> String, color: Bool
) -> String {
    guard !values.isEmpty else { return "" }
    let height = max(1, height)
    // The labels' width depends on the range and the plot's width on the labels: size the plot
    // for the whole series' labels (the widest the plotted ones can be).
    let labelWidth = ([values.max()!, values.min()!, 0].map { format($0).count }).max()!
    let plotWidth = max(1, min(values.count, width - labelWidth - 2))

    // Columns: each covers a run of days and shows its minimum.
    let starts = (0...plotWidth).map { $0 * values.count / plotWidth }
    var columnOfDay = [Int](repeating: 0, count: values.count)
    var columns: [Int64] = []
    for column in 0..<plotWidth {
        let run = starts[column]..<starts[column + 1]
        columns.append(values[run].min()!)
        for day in run { columnOfDay[day] = column }
    }
    func column(of day: Int) -> Int { columnOfDay[min(max(day, 0), values.count - 1)] }

    // The y-axis spans what is drawn: the lowest column (the series' minimum) to the highest.
    let low = columns.min()!
    let high = columns.max()!
    let crossesZero = low < 0 && high > 0

    // Heights in eighths of a row, 1 (the minimum) ... height × 8 (the maximum). Drawing only:
    // amounts are never computed in floating point.
    let steps = height * 8
    func eighths(_ value: Int64) -> Int {
        guard high > low else { return steps / 2 }
        let fraction = (Double(value) - Double(low)) / (Double(high) - Double(low))
        return 1 + Int((fraction * Double(steps - 1)).rounded())
    }
    let zeroRow = crossesZero ? (eighths(0) - 1) / 8 : nil  // counted from the bottom

    let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let paint = Paint(enabled: color)
    var out = ""

    // The minimum's marker, above its column, its text after it (or before, near the right edge).
    let minimumColumn = column(of: minimumIndex)
    let note = "min \(format(values[min(max(minimumIndex, 0), values.count - 1)])) on \(firstDay.advanced(by: minimumIndex).iso)"
    let indent = labelWidth + 2
    if minimumColumn + 2 + note.count <= plotWidth || minimumColumn < note.count + 1 {
        out += String(repeating: " ", count: indent + minimumColumn) + paint.strong("▼ " + note) + "\n"
    } else {
        out += String(repeating: " ", count: indent + minimumColumn - note.count - 1) + paint.strong(note + " ▼") + "\n"
    }

    // The plot, top row first.
    for row in stride(from: height - 1, through: 0, by: -1) {
        let label: String
        let tick: Character
        if row == height - 1 {
            (label, tick) = (format(high), "┤")
        } else if row == 0 {
            (label, tick) = (format(low), "┤")
        } else if row == zeroRow {
            (label, tick) = (format(0), "┼")
        } else {
            (label, tick) = ("", "│")
        }
        var line = String(repeating: " ", count: labelWidth - label.count) + label + " " + String(tick)
        for value in columns {
            let filled = eighths(value) - row * 8
            let cell = filled >= 8 ? blocks[8] : filled <= 0 ? " " : blocks[filled]
            if cell == " " && row == zeroRow {
                line += paint.faint("┈")
            } else if cell != " " && value < 0 {
                line += paint.negative(String(cell))
            } else {
                line += String(cell)
            }
        }
        out += line + "\n"
    }

    // The x-axis: ticks and labels at month starts, spaced so labels do not run into each other.
    let marks = monthMarks(firstDay: firstDay, dayCount: values.count, plotWidth: plotWidth, column: column(of:))
    var axis = [Character](repeating: "─", count: plotWidth)
    var under = [Character](repeating: " ", count: plotWidth + 12)
    let todayColumn = column(of: todayIndex)
    // Today's label first; a month label only where it and a space after it are free.
    var taken = [Bool](repeating: false, count: under.count + 1)
    func place(_ label: String, at column: Int) {
        for (offset, character) in label.enumerated() { under[column + offset] = character }
        for index in max(0, column - 1)...(column + label.count) { taken[index] = true }
    }
    place("▲ today", at: todayColumn)
    for mark in marks {
        axis[mark.column] = "┬"
        guard mark.column + mark.label.count <= plotWidth, !taken[mark.column...(mark.column + mark.label.count)].contains(true) else { continue }
        place(mark.label, at: mark.column)
    }
    out += String(repeating: " ", count: labelWidth + 1) + "└" + String(axis) + "\n"
    out += String(repeating: " ", count: indent) + String(String(under).reversed().drop { $0 == " " }.reversed()) + "\n"
    let first = firstDay.iso
    let last = firstDay.advanced(by: values.count - 1).iso
    let gap = values.count == 1 ? 0 : max(2, plotWidth - first.count - last.count)
    out += String(repeating: " ", count: indent) + first + (values.count == 1 ? "" : String(repeating: " ", count: gap) + last) + "\n"
    return out
}

/// A tick on the x-axis: the column of a month's first day and its label (`Apr`, or the year in January).
struct MonthMark: Equatable {
    var column: Int
    var label: String
}

/// The month starts after the first day, thinned to every 1, 2, 3, 6 or 12 months (then whole
/// years) until their labels fit the plot with a space between them.
func monthMarks(firstDay: Day, dayCount: Int, plotWidth: Int, column: (Int) -> Int) -> [MonthMark] {
    let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    var starts: [(index: Int, civil: CivilDate)] = []
    var month = firstDay.startOfMonth.addingMonths(1)
    while month.number - firstDay.number < dayCount {
        starts.append((month.number - firstDay.number, month.civil))
        month = month.addingMonths(1)
    }
    for step in [1, 2, 3, 6, 12, 24, 60, 120, 600] {
        let kept = starts.filter { ($0.civil.year * 12 + $0.civil.month - 1) % step == 0 }
        let marks = kept.map { start in
            MonthMark(
                column: column(start.index), label: start.civil.month == 1 || step >= 12 ? String(start.civil.year) : names[start.civil.month - 1])
        }
        // Fits when each label ends before the next tick, a space between them.
        let fits = zip(marks, marks.dropFirst()).allSatisfy { $0.column + $0.label.count < $1.column }
        if fits { return marks }
    }
    return []
}

/// ANSI styling, or none.
private struct Paint {
    var enabled: Bool

    func negative(_ text: String) -> String { enabled ? "\u{1B}[31m" + text + "\u{1B}[0m" : text }
    func strong(_ text: String) -> String { enabled ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func faint(_ text: String) -> String { enabled ? "\u{1B}[2m" + text + "\u{1B}[0m" : text }
}
