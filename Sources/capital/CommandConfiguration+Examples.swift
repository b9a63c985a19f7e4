import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CommandConfiguration {
    /// A subcommand's configuration: its name, a one-line abstract, what more its help says, and one
    /// or more example command lines, shown after it as `Example: …` lines.
    ///
    /// Every example is a command line a person can type; `CommandExampleTests` parses each one, so
    /// an example that names a removed option or a wrong value fails the suite.
    init(_ name: String, _ abstract: String, about: String = "", example: String..., subcommands: [any ParsableCommand.Type] = []) {
        self.init(commandName: name, abstract: abstract, discussion: Self.discussion(about, example), subcommands: subcommands)
    }

    /// The help's discussion: `about`, then an `Example:` line per example, laid out for the
    /// terminal (`HelpExamples.laidOut`).
    static func discussion(_ about: String, _ examples: [String], width: Int = HelpExamples.width) -> String {
        HelpExamples.laidOut(((about.isEmpty ? [] : [about]) + examples.map { "Example: \($0)" }).joined(separator: "\n"), width: width)
    }

    /// The examples a configuration's discussion names, for tests: its `Example:` lines and the
    /// indented `capital …` lines of an `Examples:` block, each with its continuation lines joined.
    var examples: [String] { HelpExamples.examples(in: discussion) }
}

/// Example command lines in help that the terminal never breaks in the middle.
///
/// argument-parser wraps a command's discussion at the terminal's width (`$COLUMNS`, else the
/// window's, else 80), breaking a line at its last space that fits: an example longer than that
/// was cut anywhere, an option parted from its value. Here a long example is broken beforehand at
/// a safe point, before an option and its value, the part before ending in ` \` as a shell
/// continues a line, so that argument-parser finds every line short enough to leave whole and a
/// copied example still runs.
enum HelpExamples {
    /// The width argument-parser wraps help at, read as it reads it (`Platform.terminalWidth`):
    /// `$COLUMNS`, else the width of the terminal on standard output, else 80. The process's own,
    /// not `Console.current`'s: argument-parser renders help for the process.
    static let width: Int = {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }()

    /// Examples are laid out for at least this many columns: narrower, the longest word of an
    /// example (a PostgreSQL URL, a sync id) would no longer fit on a continuation line.
    static let narrowest = 60

    /// What sets a remark off after an example's command: three spaces and a parenthesis.
    static let remarkSeparator = "   ("

    /// How a continuation line is set in from the example's first word.
    static let continuationIndent = "    "

    /// `text` with every example line (`Example: capital …`, or `capital …` set in by spaces) that
    /// `width` characters or longer broken into lines shorter than that.
    static func laidOut(_ text: String, width: Int = HelpExamples.width) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let start = commandStart(line) else { return String(line) }
            return lines(prefix: String(line[..<start]), command: String(line[start...]), width: width).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Where the command of an example line begins (`capital`), or nil for a line of prose.
    static func commandStart(_ line: Substring) -> Substring.Index? {
        let indent = line.prefix { $0 == " " }
        let rest = line[indent.endIndex...]
        if rest.hasPrefix("Example: capital ") { return rest.index(rest.startIndex, offsetBy: "Example: ".count) }
        return !indent.isEmpty && rest.hasPrefix("capital ") ? rest.startIndex : nil
    }

    /// One example in lines shorter than `width` characters (`narrowest` when less): `prefix` and as
    /// much of `command` as fits, then continuation lines set in under it, each line but the last
    /// ending in ` \`. The command is broken only between an option (`--on 2025-05-01`, a flag
    /// with the word after it) and what comes before it, or between positional words; never in a
    /// quoted word.
    static func lines(prefix: String, command: String, width: Int) -> [String] {
        // argument-parser keeps a line whole when it and the line break after it fit: a line
        // of exactly `width` characters is broken at its last space.
        let width = max(width, narrowest) - 1
        guard prefix.count + command.count > width else { return [prefix + command] }
        let indent = String(repeating: " ", count: prefix.count) + continuationIndent
        // A remark after the command (`capital account edit X --floor 20000   (--floor "" clears
        // it)`) is prose: it goes on a line of its own below, for argument-parser to wrap.
        if let remark = command.range(of: remarkSeparator) {
            return lines(prefix: prefix, command: String(command[..<remark.lowerBound]), width: width)
                + [indent + "(" + command[remark.upperBound...]]
        }
        var finished: [String] = []
        var line = prefix
        var lineHasWords = false
        func place(_ piece: String) {
            // The line gets " \" when another follows; leave room for it.
            if lineHasWords && line.count + 1 + piece.count + 2 > width {
                finished.append(line + " \\")
                line = indent
                lineHasWords = false
            }
            line += (lineHasWords ? " " : "") + piece
            lineHasWords = true
        }
        for unit in units(words(command)) {
            if indent.count + unit.joined(separator: " ").count + 2 <= width {
                place(unit.joined(separator: " "))
            } else {
                unit.forEach(place)
            }
        }
        return finished + [line]
    }

    /// The words of a command line as written, quotes kept: spaces outside quotes separate.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Words grouped so that an option stays with the word after it: `--until 2026-12` is one
    /// unit, a positional word one of its own.
    static func units(_ words: [String]) -> [[String]] {
        var units: [[String]] = []
        for word in words {
            if let last = units.last, last.count == 1, last[0].hasPrefix("-"), !word.hasPrefix("-") {
                units[units.count - 1].append(word)
            } else {
                units.append([word])
            }
        }
        return units
    }

    /// The examples of a discussion laid out by `laidOut`, each on one line again.
    static func examples(in discussion: String) -> [String] {
        var examples: [String] = []
        var continuing = false
        for line in discussion.split(separator: "\n") {
            if continuing {
                let text = line.drop { $0 == " " }
                continuing = text.hasSuffix(" \\")
                examples[examples.count - 1] += " " + (continuing ? String(text.dropLast(2)) : String(text))
            } else if let start = HelpExamples.commandStart(line) {
                continuing = line.hasSuffix(" \\")
                examples.append(String(line[start...].dropLast(continuing ? 2 : 0)))
            }
        }
        return examples
    }
}
