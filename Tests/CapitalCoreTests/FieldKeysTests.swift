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
            ("{prepayments.1.amount} '0'", "--prepayments.1.amount '0'"),
            ("{a..b} {.a} {a.} {a.-b}", "{a..b} {.a} {a.} {a.-b}"),
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

    @Test(
        "rekeying replaces each key by a piece of template and keeps the rest a template",
        arguments: [
            ("{amount} '0': must be more than 0", "{prepayments.1.amount} '0': must be more than 0"),
            ("{{amount} is typed text, {on} is a key", "{{amount} is typed text, {prepayments.1.on} is a key"),
            ("no keys", "no keys"),
            ("{unclosed and {x-y}", "{unclosed and {x-y}"),
        ])
    func nesting(template: String, expected: String) {
        #expect(FieldKeys.rekey(template) { "{prepayments.1.\($0)}" } == expected)
        // Spelled afterwards, a typed brace is still one brace and a nested key one field.
        #expect(FieldKeys.spell(FieldKeys.rekey(template) { "{p.\($0)}" }, Self.flag) == FieldKeys.spell(template) { "--p." + $0 })
    }

    @Test("rekeyed as literal text, a key's place keeps its braces as typed")
    func rekeyAsText() {
        let template = FieldKeys.rekey("{limit} '{{0': bad") { FieldKeys.literal("file{1}.yaml: cards[0].\($0)") }
        #expect(template == "file{{1}.yaml: cards[0].limit '{{0': bad")
        #expect(FieldKeys.spell(template) { $0 } == "file{1}.yaml: cards[0].limit '{0': bad")
    }
}
