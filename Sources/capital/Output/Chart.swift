import CapitalCore
import Foundation

/// Draws a balance series with Unicode block characters, `width` columns by `height` rows.
/// Days are downsampled into columns by each column's minimum, so a dip is never hidden; today's
/// column and the minimum's column are marked below the plot.
func renderChart(
    values: [Int64], firstDay: Day, todayIndex: Int, minimumIndex: Int, width: Int, height: Int, format: (Int64) -> String, color: Bool
) -> String {
    guard !values.isEmpty, width > 10, height > 1 else { return "" }
    let labelWidth = max(format(values.max()!).count, format(values.min()!).count) + 1
    let plotWidth = max(1, min(values.count, width - labelWidth - 2))
    var columns: [Int64] = []
    var columnOf = [Int](repeating: 0, count: values.count)
    for column in 0..<plotWidth {
        let start = column * values.count / plotWidth
        let end = max(start + 1, (column + 1) * values.count / plotWidth)
        columns.append(values[start..<end].min()!)
        for i in start..<end { columnOf[i] = column }
    }
    let low = min(0, columns.min()!)
    let high = max(columns.max()!, low + 1)
    let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    let span = Double(high - low)  // drawing only: amounts are never computed in floating point
    var rows = [[Character]](repeating: [Character](repeating: " ", count: plotWidth), count: height)
    for (column, value) in columns.enumerated() {
        let eighths = Int((Double(value - low) / span * Double(height * 8)).rounded())
        for row in 0..<height {
            let filled = eighths - row * 8
            rows[height - 1 - row][column] = filled >= 8 ? blocks[8] : filled <= 0 ? " " : blocks[filled]
        }
    }
    var out = ""
    for (index, row) in rows.enumerated() {
        let label = index == 0 ? format(high) : index == height - 1 ? format(low) : ""
        let line = String(row)
        let painted = color && columns.contains(where: { $0 < 0 }) ? line : line
        out += String(repeating: " ", count: max(0, labelWidth - label.count)) + label + " │" + painted + "\n"
    }
    var marks = [Character](repeating: " ", count: plotWidth)
    marks[columnOf[min(todayIndex, values.count - 1)]] = "^"
    marks[columnOf[minimumIndex]] = "▲"
    out += String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: plotWidth) + "\n"
    out += String(repeating: " ", count: labelWidth + 2) + String(marks) + "\n"
    let last = firstDay.advanced(by: values.count - 1)
    let axis = firstDay.iso + String(repeating: " ", count: max(1, plotWidth - 20)) + last.iso
    out += String(repeating: " ", count: labelWidth + 2) + axis + "\n"
    out += "^ today   ▲ lowest: \(format(values[minimumIndex])) on \(firstDay.advanced(by: minimumIndex))\n"
    return out
}

/// The terminal's width: the window size of stdout, else $COLUMNS, else 80.
func terminalWidth() -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
    return 80
}
