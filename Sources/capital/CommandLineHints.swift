import ArgumentParser
import CapitalCore

/// What a mistyped command line gets before argument-parser reads it, where argument-parser's own
/// answer would not help: a command name that is not one (`capital balanse`, `capital help
/// balanse`, `capital account lsit`) gets the nearest name; a negative amount given to `spend`,
/// `earn` or `transfer` gets the command that records money the other way, one given to `budget
/// set`, `due pay` or `loan prepay` (or a negative rate to `rate set`) says what to do instead.
enum CommandLineHints {
    /// The global options that take a value: the word after one is its value, not a command.
    static let valued: Set<String> = ["--db", "-f", "--file", "--today", "--format"]

    /// The error `arguments` should get, or nil when argument-parser should read them.
    static func check(_ arguments: [String]) -> CLIError? {
        // argument-parser's own: completion scripts and the completions they ask for.
        if arguments.contains(where: { $0 == "--generate-completion-script" || $0.hasPrefix("---") }) { return nil }
        var command: any ParsableCommand.Type = Capital.self
        var path: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return nil }
            if word.hasPrefix("-") {
                index += valued.contains(word) ? 2 : 1
                continue
            }
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { return nil }
            // `capital help COMMAND…` names commands too.
            if path.isEmpty && word == "help" && (index == 0 || !valued.contains(arguments[index - 1])) {
                index += 1
                continue
            }
            let names = subcommands.compactMap { $0.configuration.commandName }
            guard let found = subcommands.first(where: { $0.configuration.commandName == word }) else {
                return unknown(word, among: names, path: path)
            }
            command = found
            path.append(word)
            index += 1
            if found.configuration.subcommands.isEmpty { return negativeAmount(path, Array(arguments[index...]), before: word) }
        }
        return nil
    }

    /// `unknown command 'account lsit'; did you mean 'account list'?`
    static func unknown(_ word: String, among names: [String], path: [String]) -> CLIError {
        let typed = (path + [word]).joined(separator: " ")
        let help = "`capital help\(path.isEmpty ? "" : " " + path.joined(separator: " "))` lists them"
        guard let nearest = nearest(word, among: names) else {
            return CLIError("unknown command '\(typed)'; \(help)", exitCode: 64)
        }
        return CLIError("unknown command '\(typed)'; did you mean '\((path + [nearest]).joined(separator: " "))'? (\(help))", exitCode: 64)
    }

    /// The name closest to `word` by edits (at most a third of its letters, at least 2), or one it
    /// begins; nil when none is close.
    static func nearest(_ word: String, among names: [String]) -> String? {
        let typed = word.lowercased()
        if let prefixed = names.first(where: { $0.hasPrefix(typed) && typed.count >= 2 }) { return prefixed }
        let scored = names.map { ($0, editDistance(typed, $0)) }.min { $0.1 < $1.1 }
        guard let (name, edits) = scored, edits <= max(2, typed.count / 3) else { return nil }
        return name
    }

    /// `spend -100 Groceries`: argument-parser would read `-100` as an option and complain about a
    /// missing category. An amount is positive; money going the other way is the other command.
    static func negativeAmount(_ path: [String], _ rest: [String], before: String) -> CLIError? {
        let others = [
            "budget set": ("AMOUNT", "a budget's limit is positive; `capital budget rm CATEGORY` removes one"),
            "due pay": ("AMOUNT", "a payment is positive; `capital due edit N --paid AMOUNT` corrects what was paid"),
            "loan prepay": ("AMOUNT", "a prepayment is positive"),
            "rate set": ("RATE", "a rate must be above zero (units of the ledger's currency per unit of CURRENCY)"),
        ]
        let joined = path.joined(separator: " ")
        if let (field, why) = others[joined] {
            return firstNegative(rest, before: before).map { CLIError("\(field) '\($0)': \(why)", exitCode: 64) }
        }
        guard let command = path.last, ["spend", "earn", "transfer"].contains(command), path.count == 1,
            let word = firstNegative(rest, before: before)
        else { return nil }
        let other =
            switch command {
            case "spend": "money coming back (a refund) is `capital earn \(word.dropFirst()) CATEGORY`"
            case "earn": "income taken back is `capital spend \(word.dropFirst()) CATEGORY`"
            default: "to move money the other way, swap --from and --to"
            }
        return CLIError("AMOUNT '\(word)': amounts are positive; \(other)", exitCode: 64)
    }

    /// The first word of `rest` written as a negative number that is not an option's value
    /// (`--note -5`), the word before `rest` being `before`.
    static func firstNegative(_ rest: [String], before: String) -> String? {
        var previous = before
        for word in rest {
            defer { previous = word }
            guard word.count > 1, word.first == "-", word.dropFirst().first?.isNumber == true else { continue }
            if previous.hasPrefix("--") && !valued.contains(previous) { continue }
            return word
        }
        return nil
    }
}
