import CapitalCore
import Testing

@Suite("Field keys in messages")
struct FieldKeysTests {
    static func flag(_ key: String) -> String { "--" + key }

    @Test(
        "each {key} is spelled; braces that hold no key stay as they are",
        arguments: [
            ("{limit} '0': must be more than 0", "--limit '0': must be more than 0"),
            ("use {scope} one {at} DATE", "use --scope one --at DATE"),
            ("{a}{b}", "--a--b"),
            ("no keys here", "no keys here"),
            ("{} and {1x} and { x} and {x-y}", "{} and {1x} and { x} and {x-y}"),
            ("an open { brace and {key}", "an open { brace and --key"),
            ("{unclosed", "{unclosed"),
            ("name '{weird}'", "name '--weird'"),
            ("{x2} {Ab}", "--x2 --Ab"),
        ])
    func spelling(template: String, expected: String) {
        #expect(FieldKeys.spell(template, Self.flag) == expected)
    }

    @Test("an engine error's description writes keys as themselves; its template keeps the braces")
    func descriptionAndTemplate() {
        let error = CardError.invalid(field: "{dueAfter}", value: "28", reason: "must be 1 to 27 days")
        #expect(error.template == "{dueAfter} '28': must be 1 to 27 days")
        #expect(error.description == "dueAfter '28': must be 1 to 27 days")
    }
}
