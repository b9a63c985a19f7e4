import ArgumentParser
import Testing

@testable import capital

/// Every `Example:` line in a command's help is a command line that parses: an example naming a
/// removed option, a misspelt subcommand or a value of the wrong kind fails here, not in front of
/// the person who copied it.
@Suite("CLI: the examples in help")
struct CommandExampleTests {
    /// Every command with its path from `capital`, depth first.
    static func commands(_ command: any ParsableCommand.Type = Capital.self, path: [String] = []) -> [(
        path: [String], type: any ParsableCommand.Type
    )] {
        let name = command.configuration.commandName ?? ""
        let here = command == Capital.self ? [] : path + [name]
        return [(here, command)] + command.configuration.subcommands.flatMap { commands($0, path: here) }
    }

    /// The words of an example as a shell would split them: spaces separate, double quotes group.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// An example's command line without the remark a help text may add after it, set off by
    /// spaces and in parentheses: `capital account edit X --floor 20000   (--floor "" clears it)`.
    static func commandLine(_ example: String) -> String {
        guard let remark = example.range(of: "   (") else { return example }
        return String(example[..<remark.lowerBound])
    }

    @Test func everyExampleParsesAndOneShowsTheCommandItIsTheHelpOf() throws {
        var checked = 0
        for (path, type) in Self.commands() {
            let examples = type.configuration.examples
            var showsItself = examples.isEmpty
            for example in examples {
                let words = Self.words(Self.commandLine(example))
                #expect(words.first == "capital", "\(path): \(example)")
                do {
                    let parsed = Swift.type(of: try Capital.parseAsRoot(Array(words.dropFirst())))
                    // A group's example may show one of its subcommands; a command's second example
                    // may show what to do with its result (`sample generate`, then a forecast on it).
                    showsItself = showsItself || Self.commands(type).contains { $0.type == parsed }
                    checked += 1
                } catch {
                    Issue.record("\(path.joined(separator: " ")): '\(example)' does not parse: \(Capital.message(for: error))")
                }
            }
            #expect(showsItself, "no example of \(path.joined(separator: " ")) runs it: \(examples)")
        }
        // Most commands carry an example; the count only guards against finding none at all.
        #expect(checked >= 60, "\(checked) examples")
    }

    @Test func wordsSplitAsTheShellSplitsThem() {
        #expect(
            Self.words(#"capital tx edit 3f2a --payee "Swimming pool" --on 2025-03-06"#) == [
                "capital", "tx", "edit", "3f2a", "--payee", "Swimming pool", "--on", "2025-03-06",
            ])
        #expect(Self.words(#"capital tx edit 3f2a --note """#) == ["capital", "tx", "edit", "3f2a", "--note", ""])
    }
}
