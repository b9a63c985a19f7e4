// TEMPORARY until the IBAN validator lands (branch track-a): delete on merge.
public struct IBAN: Sendable {
    public var electronic: String
    public init(validating text: String) throws(DueError) { electronic = text.filter { !$0.isWhitespace }.uppercased() }
}
