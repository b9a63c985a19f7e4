import Foundation
import Testing

/// The worked examples of the docs stay true (issue 17, case 9): every fenced block marked
/// `<!-- checked -->` in `docs/*.md` and `README.md` is a session — `$ capital ARGS` lines, each
/// followed by what it prints (standard output, then standard error) — replayed here on a copy of
/// the sample household's database, from the repository's root, and compared line by line.
/// A block whose output ends in a line `…` shows only its first lines. `Scripts/doc-examples.py
/// --update` rewrites the outputs from the built binary.
@Suite("Docs: checked examples")
struct DocExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var file: String
        var line: Int
        var args: [String]
        var expected: [String]

        var testDescription: String { "\(file):\(line)" }
    }

    /// The examples of every Markdown file, in file order.
    static let examples: [Example] = {
        var files = ["README.md"]
        let docs = CLI.root.appendingPathComponent("docs")
        files += ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted().map {
            "docs/\($0)"
        }
        return files.flatMap { file in
            let text = (try? String(contentsOfFile: CLI.root.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
            return examples(in: text, file: file)
        }
    }()

    /// The checked blocks of one file.
    static func examples(in text: String, file: String) -> [Example] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == "<!-- checked -->", index + 1 < lines.count,
                lines[index + 1].hasPrefix("```")
            else { continue }
            index += 2
            var current: Example?
            while index < lines.count && !lines[index].hasPrefix("```") {
                let line = lines[index]
                if line.hasPrefix("$ capital ") {
                    if let current { examples.append(current) }
                    current = Example(file: file, line: index + 1, args: split(String(line.dropFirst("$ capital ".count))), expected: [])
                } else {
                    current?.expected.append(line)
                }
                index += 1
            }
            if let current { examples.append(current) }
        }
        return examples
    }

    /// Words as a POSIX shell splits them: spaces separate, single and double quotes group.
    static func split(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                started = true
            } else if character == " " {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words
    }

    @Test func theDocsHaveCheckedExamples() {
        #expect(Self.examples.count >= 8, "\(Self.examples.map(\.testDescription))")
        #expect(Self.examples.allSatisfy { !$0.expected.isEmpty }, "an example without output checks nothing")
    }

    @Test(arguments: examples)
    func exampleOutputIsWhatTheCommandPrints(_ example: Example) throws {
        let cli = try CLI.household()
        let result = cli.run(example.args)
        // CSV ends its lines with CR LF; the docs show lines.
        let text = (result.stdout + result.stderr).replacingOccurrences(of: "\r\n", with: "\n")
        let printed = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var expected = example.expected.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        var shown = printed.dropLast(printed.last == "" ? 1 : 0)
        // A block ending in `…` shows only the first lines.
        if expected.last == "…" {
            expected.removeLast()
            shown = shown.prefix(expected.count)
        }
        #expect(
            shown == expected[...],
            "\(example.file):\(example.line): capital \(example.args.joined(separator: " ")) prints:\n\(printed.joined(separator: "\n"))")
    }
}
