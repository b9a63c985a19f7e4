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
        "currency": ["US", "usd1"],
        "calendar": ["XX"],
        "day": ["0", "32", "abc"],
        "units": ["abc", "0"],
        // Closed sets checked by hand (issue 52 gives them typed choices).
        "policy": ["weekly"],
        "kind": ["no-such-kind"],
        "period": ["fortnight"],
        "view": ["fortnight"],
        "format": ["docx"],
        "theme": ["neon"],
        "method": ["no-such-method"],
        "scope": ["some"],
        "keep": ["neither"],
        "role": ["king"],
        "table": ["no-such-table"],
        "chart-format": ["gif"],
    ]

    /// Options whose kind's malformed values are well-formed there, with the ones that are not
    /// (a value may fall 1 % a year).
    static let malformedInstead: [String: [String]] = [
        "account add --value-change": ["abc", "-101"],
        "account edit --value-change": ["abc", "-101"],
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
        "name": "a name: any text but the few characters names refuse (BadInputTests), walked with `malformedText`",
        "text": "free text (a note, a payee, a reason)",
        "note": "free text",
        "payee": "free text",
        "tag": "a tag: any text without a comma (BadInputTests), walked with `malformedText`",
        "file": "a path: a file that is not there is refused with exit 1",
        "path": "a path",
        "id": "a record's id prefix: any text names one or names nothing (exit 1)",
        "ref": "a reference: any text",
        "key": "a key given by a person: any text",
        "card": "a card's account name or id prefix",
        "deposit": "a deposit's account name or id prefix",
        "loan": "a loan's account name or id prefix",
        "schedule": "a schedule's name or id prefix",
        "reference": "an expected flow's reference: any text names one or names nothing (exit 1)",
        "occurrence": "an occurrence's reference: any text names one or names nothing (exit 1)",
        "accounts": "accounts' names or id prefixes",
        "rules": "a rules file's path",
        "statement": "a statement file's path",
        "url": "a server's address: one that does not answer is refused with exit 1",
        "user": "a user's name on the server, which the server checks",
        "token": "a reset token, which the server checks",
        "ledger": "a shared ledger's id, which the server checks",
        "tx list --search": "a search: any text, that finds what it finds",
        "tx list --spender": "a filter: any text, that finds what it finds",
    ]

    /// Text that is malformed in a name or free text kept in the ledger (issue 51, item 17): a
    /// control character, and more characters than a note may have (docs/cli.md "Errors").
    static let malformedText: [String] = ["Tab\there", String(repeating: "x", count: 2001)]

    /// The kinds of `anyText` that are kept in the ledger as typed, so `malformedText` is
    /// malformed in them; the others name something (an account, a file), and text that names
    /// nothing is refused with exit 1.
    static let storedText: Set<String> = ["name", "text", "note", "payee", "tag", "spender"]

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
    /// `path option` gives the base of one option, where the command's base cannot take it;
    /// `{tx}` is the id of the household's latest transaction.
    static let bases: [String: [String]] = [
        "balance": [],
        "sync join": ["0123456789abcdef"],
        "account add": ["Piggy bank", "--kind", "cash"],
        "account add --value-change": ["Flat", "--kind", "fixed-asset"],
        "account edit --value-change": ["Car"],
        "card add": ["New Card", "--limit", "100000", "--statement-day", "5", "--due-after", "20", "--pay-from", "VTB Debit"],
        "deposit add": ["New deposit", "--rate", "16", "--opened", "2025-04-01", "--maturity", "2025-10-01", "--payout", "VTB Debit"],
        "exchange": ["1000", "USD", "--from", "VTB Debit", "--to", "Savings USD", "--paid", "92500"],
        "loan add": [
            "New loan", "--principal", "600000", "--rate", "9.5", "--term", "24", "--start", "2025-03-10", "--pay-from", "VTB Debit",
        ],
        "schedule add": ["Bonus", "--rule", "monthly on 10", "--start", "2025-05-10", "--amount", "1000", "--from", "Salary", "--to", "VTB Debit"],
        "schedule add --posting": ["Bonus", "--rule", "monthly on 10", "--start", "2025-05-10"],
        "schedule edit": ["Business lunch", "--scope", "all", "--amount", "300"],
        "schedule edit --at": ["Business lunch", "--scope", "one", "--at", "2025-04-07", "--amount", "300"],
        "schedule edit --move-to": ["Business lunch", "--scope", "one", "--at", "2025-04-07"],
        "tx edit": ["{tx}", "--payee", "Swimming pool"],
    ]

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
        if let values = malformedInstead[slot.key] { return .success(values) }
        let extra = malformedByOption[slot.key] ?? []
        if let values = malformedByKind[slot.valueName] { return .success(values + extra) }
        if !slot.choices.isEmpty { return .success(["no-such-choice"] + extra) }
        if storedText.contains(slot.valueName) && anyText[slot.key] == nil { return .success(malformedText + extra) }
        if let reason = anyText[slot.key] ?? anyText[slot.valueName] {
            return extra.isEmpty ? .failure(Reason(text: reason)) : .success(extra)
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
        guard let commandBase = Self.base(command) else {
            Issue.record("\(command.testDescription): no example runs it; add a command line to `bases`")
            return
        }
        let latest = try cli.rows(["tx", "list"]).last?.string("id") ?? ""
        for slot in slots {
            let base = (Self.bases[slot.key] ?? commandBase).map { $0 == "{tx}" ? latest : $0 }
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
                // The value as typed (its control characters escaped, a long one cut), or the field.
                let escaped = value.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
                let named = (slot.positional ? [slot.name, slot.valueName + " "] : [slot.name]) + [value, escaped, String(value.prefix(40))]
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
        let paths = Set(Self.commands.map { $0.path.joined(separator: " ") })
        for key in Array(Self.malformedByOption.keys) + Array(Self.malformedInstead.keys) {
            #expect(keys.contains(key), "no \(key) in the command tree")
        }
        for key in Self.bases.keys { #expect(paths.contains(key) || keys.contains(key), "no \(key) in the command tree") }
    }
}
