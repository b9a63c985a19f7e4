import ArgumentParser

extension CommandConfiguration {
    /// A subcommand's configuration: its name, a one-line abstract, what more its help says, and one
    /// or more example command lines, shown after it as `Example: …` lines.
    ///
    /// Every example is a command line a person can type; `CommandExampleTests` parses each one, so
    /// an example that names a removed option or a wrong value fails the suite.
    init(_ name: String, _ abstract: String, about: String = "", example: String..., subcommands: [any ParsableCommand.Type] = []) {
        self.init(commandName: name, abstract: abstract, discussion: Self.discussion(about, example), subcommands: subcommands)
    }

    /// The help's discussion: `about`, then an `Example:` line per example.
    static func discussion(_ about: String, _ examples: [String]) -> String {
        ((about.isEmpty ? [] : [about]) + examples.map { "Example: \($0)" }).joined(separator: "\n")
    }

    /// The examples a configuration's discussion names (its `Example:` lines), for tests.
    var examples: [String] {
        discussion.split(separator: "\n").compactMap { line in
            line.hasPrefix("Example: ") ? String(line.dropFirst("Example: ".count)) : nil
        }
    }
}
