extension Int {
    /// The count with its noun, singular for one: `1 posting`, `3 postings`, `0 postings`
    /// (`plural` for nouns that do not just take an s).
    public func counted(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
    }
}
