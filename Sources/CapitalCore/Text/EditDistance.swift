/// Levenshtein distance (insertions, deletions and substitutions) between two strings, by
/// characters: what "did you mean" suggestions are chosen by.
///
/// ```swift
/// editDistance("Cardd", "Card")   // 1
/// ```
/// - Complexity: O(a × b) time, O(b) memory (two rows).
public func editDistance(_ a: String, _ b: String) -> Int {
    editDistance(Array(a), Array(b))
}

/// Levenshtein distance between two character arrays (see `editDistance(_:_:)` for strings).
/// - Complexity: O(a × b) time, O(b) memory.
public func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for (i, x) in a.enumerated() {
        current[0] = i + 1
        for (j, y) in b.enumerated() {
            current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
