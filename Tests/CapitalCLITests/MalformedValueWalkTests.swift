import ArgumentParser
import Foundation
import Testing

@testable import capital

/// docs/cli.md "Errors": a malformed value exits 64 wherever it is given. The walk takes every
/// option and argument of every command from argument-parser's own description of the command
/// tree (`--experimental-dump-help`), so a command or option added later is walked too, and gives
/// each one malformed values chosen by the kind of value it takes, on a copy of the sample
/// household. Each must exit 64 with one line on stderr naming the option (or quoting the value
/// as typed), nothing on stdout, and the database unchanged.
///
/// An option that takes any text (a name, a note, a path) has no malformed value: it is listed in
/// `anyText` with the reason, never passed over in silence. An option the walk knows no malformed
/// value for fails the walk until it gets one.
@Suite("CLI: every malformed value exits 64")
struct MalformedValueWalkTests {
    /// An option or argument of a command, as argument-parser describes it.
    struct Slot: Sendable, CustomStringConvertible {
        var path: [String]
        /// `--count`, or an argument's name (`AMOUNT`).
        var name: String
        var valueName: String
        var positional: Bool
        /// Its place among the command's arguments, for an argument.
        var index: Int
        var choices: [String]
        var description: String { "capital \(path.joined(separator: " ")) \(name)" }
        /// `schedule add --count`: the key of the tables below.
        var key: String { "\(path.joined(separator: " ")) \(name)" }
    }

    /// A command: its path, its options and arguments, and the names of the options that take a
    /// value (to find the arguments of a command line).
    struct Command: Sendable, CustomTestStringConvertible {
        var path: [String]
        var slots: [Slot]
        var valued: Set<String>
        var testDescription: String { path.joined(separator: " ") }
    }

    // MARK: What is malformed

    /// Malformed values by the kind of value an option takes (its value name in help).
    static let malformedByKind: [String: [String]] = [
        "date": ["2025-13-01", "tomorrow"],
        "amount": ["12,34.5", "abc"],
        "n": ["abc", "-1"],
        "days": ["abc", "-1"],
        "months": ["abc", "0"],
        "number": ["abc", "0"],
        "code": ["US", "usd1"],
        "percent": ["abc", "-1", "1001"],
        "rate": ["abc", "-1"],
        "rule": ["every blue moon"],
        "emoji": ["ab"],
        "colour": ["no-such-colour"],
        "iban": ["GB00 0000"],
        "posting": ["Cash=abc"],
        "code=rate": ["USD", "USD=abc"],
        "amount@date": ["5@2025-13-01", "abc@2025-04-01"],
        "month": ["2025-13", "April"],
        "term|payment": ["0"],
        "count|ignore": ["abc"],
    ]

    /// Malformed values an option takes beyond its kind's: values of the right shape that are
    /// never valid there (issue 51, item 16), by `path option`.
    static let malformedByOption: [String: [String]] = [
        "schedule add --count": ["0"],
        "account add --level": ["7", "0"],
        "account edit --level": ["7"],
        "account add --icon": ["ab"],
        "loan add --rate": ["-1"],
        "budget set AMOUNT": ["0"],
        "card add --limit": ["-5", "0"],
        "tx list --limit": ["0"],
    ]

    /// Options and arguments that take any text: there is no malformed value to give them. A
    /// name, a reference or a path that names nothing is well-formed and refused with exit 1
    /// ("not found"), which `MalformedOrRefusedTests` covers. Keyed by value name, or by
    /// `path option` for one option.
    ///
    /// Issue 51, item 17 gives names and free text a length limit and refuses control characters
    /// in them: its malformed text goes into `malformedText`, and every kind here that it covers
    /// is walked with it.
    static let anyText: [String: String] = [
        "account": "an account's name or id prefix: any text names one or names nothing (exit 1)",
        "category": "a category's name: any text",
        "group": "a group's name: any text",
        "name": "a name: any text but the few characters names refuse (BadInputTests)",
        "text": "free text (a note, a payee, a reason)",
        "note": "free text",
        "payee": "free text",
        "tag": "a tag: any text without a comma (BadInputTests)",
        "file": "a path: a file that is not there is refused with exit 1",
        "path": "a path",
        "id": "a record's id prefix: any text names one or names nothing (exit 1)",
        "ref": "a reference: any text",
        "key": "a key given by a person: any text",
    ]

    /// Text that item 17 will make malformed in names and free text (control characters, a
    /// length limit): empty until then, and walked for every kind in `anyText` once it is not.
    static let malformedText: [String] = []

    /// Commands the walk leaves to suites of their own, with the reason.
    static let leftOut: [String: String] = [
        "serve": "runs capital-server, a process of its own; ServerAdminTests walks its options",
        "help": "argument-parser's own",
    ]

    /// Options every command takes (`GlobalOptions`): walked once, on `balance`.
    static let global: Set<String> = ["--db", "-f", "--file", "--today", "--format", "--hide-amounts", "--output", "--out"]

    /// A command line to start from where the command's first example does not run on the sample
    /// household (it names accounts the sample does not have). Every other command starts from
    /// its first example.
    static let bases: [String: [String]] = [:]

    // MARK: The walk

    /// argument-parser's description of every command, read once.
    static let commands: [Command] = {
        let dump = (try? CLI().run(["--experimental-dump-help"]).stdout) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
            let root = object["command"] as? [String: Any]
        else { return [] }
        var found: [Command] = []
        func walk(_ command: [String: Any], path: [String]) {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            var slots: [Slot] = []
            var valued: Set<String> = []
            var index = 0
            for argument in arguments {
                let kind = argument["kind"] as? String ?? ""
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                    guard let text = name["name"] as? String else { return nil }
                    return (name["kind"] as? String) == "short" ? "-" + text : "--" + text
                }
                let valueName = argument["valueName"] as? String ?? ""
                let choices = argument["allValues"] as? [String] ?? []
                switch kind {
                case "option":
                    valued.formUnion(names)
                    guard let long = names.first(where: { $0.hasPrefix("--") }) ?? names.first, long != "--help", long != "--version" else {
                        continue
                    }
                    slots.append(Slot(path: path, name: long, valueName: valueName, positional: false, index: 0, choices: choices))
                case "positional":
                    if !(subcommands.isEmpty && path.isEmpty) {
                        slots.append(
                            Slot(path: path, name: valueName.uppercased(), valueName: valueName, positional: true, index: index, choices: choices))
                    }
                    index += 1
                default: break
                }
            }
            if !path.isEmpty && !(leftOut[path[0]] != nil) && !(path.last == "help") {
                found.append(Command(path: path, slots: slots, valued: valued))
            }
            for subcommand in subcommands {
                guard let name = subcommand["commandName"] as? String, leftOut[name] == nil || !path.isEmpty else { continue }
                walk(subcommand, path: path + [name])
            }
        }
        walk(root, path: [])
        return found
    }()

    /// The command line a command's cases start from: its base, or its first example that parses
    /// to it, without `capital` and the command's path.
    static func base(_ command: Command) -> [String]? {
        if let base = bases[command.path.joined(separator: " ")] { return base }
        guard let type = CommandExampleTests.commands().first(where: { $0.path == command.path })?.type else { return nil }
        for example in type.configuration.examples {
            let words = Array(CommandExampleTests.words(CommandExampleTests.commandLine(example)).dropFirst())
            guard words.starts(with: command.path), let parsed = try? Capital.parseAsRoot(words), Swift.type(of: parsed) == type else { continue }
            return Array(words.dropFirst(command.path.count))
        }
        return nil
    }

    /// `base` with `slot` given `value`: an option's other values dropped and `--option=value`
    /// added (so that `-1` is read as a value), an argument replaced where it stands.
    static func line(_ base: [String], _ command: Command, _ slot: Slot, _ value: String) -> [String]? {
        var words: [String] = []
        var positionals: [Int] = []  // where each argument stands in `words`
        var rest = base[...]
        while let word = rest.popFirst() {
            if word.hasPrefix("-") && word.count > 1 && Double(word) == nil {
                let name = String(word.prefix { $0 != "=" })
                let takesValue = command.valued.contains(name) && !word.contains("=")
                let value = takesValue ? rest.popFirst() : nil
                if !slot.positional && slot.name == name { continue }
                words.append(word)
                if let value { words.append(value) }
            } else {
                positionals.append(words.count)
                words.append(word)
            }
        }
        if !slot.positional { return command.path + words + ["\(slot.name)=\(value)"] }
        if slot.index < positionals.count {
            words[positionals[slot.index]] = value
        } else if slot.index == positionals.count {
            words.append(value)
        } else {
            return nil
        }
        return command.path + words
    }

    /// The malformed values the walk gives `slot`, or why it gives none.
    static func malformed(_ slot: Slot) -> Result<[String], Reason> {
        let extra = malformedByOption[slot.key] ?? []
        if let values = malformedByKind[slot.valueName] { return .success(values + extra) }
        if !slot.choices.isEmpty { return .success(["no-such-choice"] + extra) }
        if let reason = anyText[slot.key] ?? anyText[slot.valueName] {
            return extra.isEmpty && malformedText.isEmpty ? .failure(Reason(text: reason)) : .success(malformedText + extra)
        }
        if !extra.isEmpty { return .success(extra) }
        return .failure(Reason(text: "", unknown: true))
    }

    struct Reason: Error {
        var text: String
        var unknown = false
    }

    @Test(arguments: commands)
    func everyMalformedValueOfTheCommandExits64(_ command: Command) throws {
        let cli = try CLI.household()
        let slots = command.slots.filter { command.path == ["balance"] || !Self.global.contains($0.name) }
        guard !slots.isEmpty else { return }
        guard let base = Self.base(command) else {
            Issue.record("\(command.testDescription): no example runs it; add a command line to `bases`")
            return
        }
        for slot in slots {
            let values: [String]
            switch Self.malformed(slot) {
            case .success(let given): values = given
            case .failure(let reason):
                if reason.unknown {
                    Issue.record(
                        "\(slot) (\(slot.valueName)): the walk knows no malformed value; add one to `malformedByKind` or `malformedByOption`, or a reason to `anyText`"
                    )
                }
                continue
            }
            for value in values {
                guard let args = Self.line(base, command, slot, value) else {
                    Issue.record("\(slot): the base \(base) has too few arguments to give it")
                    continue
                }
                let before = cli.state()
                let result = cli.run(args)
                let line = "capital \(args.joined(separator: " "))"
                #expect(result.status == 64, "\(line): exit \(result.status), \(result.stderr)")
                #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("capital: error: "), "\(line): \(result.stderr)")
                let named = slot.positional ? [value, slot.name] : [slot.name, value]
                #expect(named.contains { result.stderr.contains($0) }, "\(line): the error names neither \(named): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(line) wrote to stdout: \(result.stdout)")
                #expect(cli.state() == before, "\(line) changed the database")
            }
        }
    }

    /// The walk found the command tree: its commands, and the options the issue names.
    @Test func theWalkSeesEveryCommand() {
        let keys = Set(Self.commands.flatMap { $0.slots.map(\.key) })
        #expect(Self.commands.count >= 80, "\(Self.commands.count) commands")
        for key in Self.malformedByOption.keys { #expect(keys.contains(key), "no \(key) in the command tree") }
    }
}
