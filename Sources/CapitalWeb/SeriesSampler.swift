/// A long daily series cut to one column per pixel, keeping in each column its lowest and its
/// highest value (in the order they occur), so that no dip and no peak is lost however many
/// days share a pixel.
struct SeriesSampler {
    /// One column: the first and last offset it covers and its extremes with their offsets.
    struct Column: Equatable {
        var first: Int
        var last: Int
        var low: Int64
        var lowOffset: Int
        var high: Int64
        var highOffset: Int
    }

    /// The columns of `series` for `width` pixels: one per value when there are no more values
    /// than pixels, else `width` columns of consecutive values.
    /// - Complexity: O(series).
    static func columns(_ series: [Int64], width: Int) -> [Column] {
        guard !series.isEmpty, width > 0 else { return [] }
        let count = min(width, series.count)
        var columns: [Column] = []
        columns.reserveCapacity(count)
        for column in 0..<count {
            let first = column * series.count / count
            let last = (column + 1) * series.count / count - 1
            var current = Column(first: first, last: last, low: series[first], lowOffset: first, high: series[first], highOffset: first)
            for offset in first...last {
                if series[offset] < current.low {
                    current.low = series[offset]
                    current.lowOffset = offset
                }
                if series[offset] > current.high {
                    current.high = series[offset]
                    current.highOffset = offset
                }
            }
            columns.append(current)
        }
        return columns
    }

    /// The points a line through the columns passes: each column's extremes in day order (one
    /// point when they are the same day).
    static func points(_ columns: [Column]) -> [(offset: Int, value: Int64)] {
        var points: [(offset: Int, value: Int64)] = []
        points.reserveCapacity(columns.count * 2)
        for column in columns {
            if column.lowOffset == column.highOffset {
                points.append((column.lowOffset, column.low))
            } else if column.lowOffset < column.highOffset {
                points += [(column.lowOffset, column.low), (column.highOffset, column.high)]
            } else {
                points += [(column.highOffset, column.high), (column.lowOffset, column.low)]
            }
        }
        return points
    }
}
