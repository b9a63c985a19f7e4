extension StringProtocol {
    /// Without the leading and trailing characters of `set` (`" \t"` by default: spaces and tabs).
    ///
    /// Reads the text once from each end; every line of a rules file and every field of a
    /// statement goes through it.
    /// - Complexity: O(characters trimmed + 1), plus the copy of what is left.
    func trimmed(_ set: String = " \t") -> String {
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        if first == startIndex && index(after: last) == endIndex, let whole = self as? String { return whole }
        return String(self[first...last])
    }
}
