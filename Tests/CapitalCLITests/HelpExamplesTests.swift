import ArgumentParser
import Testing

@testable import capital

/// Issue 51, item 18: an example in help is never broken in the middle by the terminal's width.
/// A long one is broken beforehand, before an option, with a shell's ` \`, so that it still runs
/// when copied.
@Suite("CLI: help examples at the terminal's width")
struct HelpExamplesTests {
    /// Every command with its examples, joined whole again.
    static let examples: [(path: [String], examples: [String])] = CommandExampleTests.commands().map { ($0.path, $0.type.configuration.examples) }

    @Test(arguments: [80, 60])
    func everyExampleIsLaidOutInLinesThatFitAndBreakOnlyBeforeAnOption(width: Int) {
        var broken = 0
        for (path, examples) in Self.examples {
            for example in examples {
                let lines = HelpExamples.lines(prefix: "Example: ", command: example, width: width)
                if lines.count > 1 { broken += 1 }
                for line in lines { #expect(line.count < width, "\(path): \(line.count) characters: \(line)") }
                // Joined again it is the example's command line, word for word (a remark after it,
                // when the line is broken, is a line of prose below it).
                let joined = HelpExamples.examples(in: lines.joined(separator: "\n")).map(CommandExampleTests.commandLine)
                #expect(joined == [CommandExampleTests.commandLine(example)], "\(path): \(lines)")
                for (line, next) in zip(lines, lines.dropFirst()) where !next.drop(while: { $0 == " " }).hasPrefix("(") {
                    let last = HelpExamples.words(String(line.dropLast(2))).last ?? ""
                    let first = HelpExamples.words(next).first ?? ""
                    #expect(line.hasSuffix(" \\"), "\(path): \(line)")
                    #expect(next.hasPrefix("             "), "set in under the command: \(next)")
                    // Unless the two together are too long for a continuation line.
                    let together = 13 + last.count + 1 + first.count + 2 < width
                    #expect(
                        !together || !last.hasPrefix("-") || first.hasPrefix("-"), "\(path): an option parted from its value: '\(line)' / '\(next)'")
                }
            }
        }
        // At 80 columns some examples are long enough to need breaking, at 60 more.
        #expect(broken > 0, "nothing to break at \(width)")
    }

    @Test func aShortExampleStaysOneLineAndAQuotedWordStaysWhole() {
        #expect(HelpExamples.lines(prefix: "Example: ", command: "capital balance", width: 80) == ["Example: capital balance"])
        let command = #"capital forecast --account "VTB Debit" --days 60 --by week --format json --until 2026-12"#
        let lines = HelpExamples.lines(prefix: "  ", command: command, width: 60)
        #expect(lines == [#"  capital forecast --account "VTB Debit" --days 60 \"#, "      --by week --format json --until 2026-12"], "\(lines)")
        // Narrower than 60 columns the layout is 60's.
        #expect(HelpExamples.lines(prefix: "  ", command: command, width: 10) == lines)
        // Prose is left to argument-parser; only example lines are laid out.
        let prose = "Sums a ladder level (default 4: cash, debit and cards), one account or one group, to the horizon you give it."
        #expect(HelpExamples.laidOut(prose, width: 60) == prose)
    }

    /// As typed by hand: `capital help COMMAND` at 80 and at 60 columns, in a process of its own
    /// (argument-parser reads `$COLUMNS` once per process), shows every example whole.
    @Test(arguments: [80, 60])
    func helpAtTheTerminalsWidthShowsEveryExampleWhole(columns: Int) throws {
        let cli = try CLI()
        let long = Self.examples.filter { $0.examples.contains { "Example: \($0)".count >= columns } }
        #expect(!long.isEmpty, "no example is longer than \(columns) columns")
        for (path, examples) in long {
            let run = cli.runProcess(["help"] + path, env: ["COLUMNS": String(columns)])
            // The overview and its discussion: the options' help below may wrap a line to begin with "capital".
            let help = (status: run.status, stderr: run.stderr, stdout: run.stdout.components(separatedBy: "\nUSAGE:")[0])
            #expect(help.status == 0, "\(path): \(help.stderr)")
            #expect(
                HelpExamples.examples(in: help.stdout).map(CommandExampleTests.commandLine) == examples.map(CommandExampleTests.commandLine),
                "\(path) at \(columns) columns:\n\(help.stdout)")
            for line in help.stdout.split(separator: "\n") where HelpExamples.commandStart(line) != nil || line.hasSuffix(" \\") {
                #expect(line.count < columns, "\(path): \(line)")
            }
        }
    }
}
