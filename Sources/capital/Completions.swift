import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

/// Shell completion of the names a ledger holds (`capital --generate-completion-script zsh`):
/// accounts, categories, schedules, groups, loans, cards, deposits, open bills and expected flows, read from the ledger the words typed so far point
/// at (`--db`, `-f`, else `$CAPITAL_DB` and the default path). Nothing is printed when there is
/// no ledger to read.
extension CompletionKind {
    /// Balance-sheet accounts and categories alike: what `--from`, `--to`, `--account` take.
    static var accountNames: CompletionKind { .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().map(\.name) } } }
    /// Income and expense categories.
    static var categoryNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().filter(\.kind.isCategory).map(\.name) } }
    }
    /// Expense categories only: what `spend` and `budget set` take.
    static var expenseCategoryNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().filter { $0.kind == .expense }.map(\.name) } }
    }
    /// Income categories only: what `earn` takes.
    static var incomeCategoryNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().filter { $0.kind == .income }.map(\.name) } }
    }
    /// The names of the loans, cards or deposits: their accounts' names.
    static func termsNames(_ terms: Terms) -> CompletionKind {
        .custom { words, _, prefix in
            LedgerNames.complete(words, prefix) { store in
                let names = Dictionary(try store.accounts().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
                let accounts: [String]
                switch terms {
                case .loan: accounts = try store.loans().map(\.accountID)
                case .card: accounts = try store.cards().map(\.accountID)
                case .deposit: accounts = try store.deposits().map(\.accountID)
                }
                return accounts.compactMap { names[$0] }
            }
        }
    }
    /// The numbers of the bills and fines not yet paid in full, in `due list`'s order.
    static var openDueNumbers: CompletionKind {
        .custom { words, _, prefix in
            LedgerNames.complete(words, prefix, sorted: false) { store in
                DueListing().listed(try store.dues()).filter { $0.status != .fullyPaid }.map { String($0.number) }
            }
        }
    }
    /// The references (`NAME@YYYY-MM-DD`) of the open expected flows `expected skip` takes: the
    /// overdue ones and those of the 30 days either side of today (`--today` on the line, else the
    /// clock), in day order; not bills and fines, which are paid, not skipped.
    static var openFlowReferences: CompletionKind {
        .custom { words, _, prefix in
            LedgerNames.complete(words, prefix, sorted: false) { store in
                let today = LedgerNames.value(in: words, after: ["--today"]).flatMap { try? Day(iso: $0) } ?? Today.clock()
                var overdue = ExpectedQuery()
                overdue.show = .overdue
                var open = ExpectedQuery()
                open.show = .open
                var seen = Set<String>()
                return try (store.expectedList(overdue, today: today) + store.expectedList(open, today: today))
                    .filter { $0.flow.kind != .due }.map(\.reference).filter { seen.insert($0).inserted }
            }
        }
    }
    /// The working-day calendars capital knows: `RU`, `US`, `none`.
    static var calendarNames: CompletionKind { .list(Calendars.names) }
    /// The values `--format` takes in the command the words name (`OutputFormats`).
    static var formats: CompletionKind {
        .custom { words, _, prefix in outputFormats(of: Capital.command(named: words)).filter { $0.hasPrefix(prefix.lowercased()) } }
    }
    static var scheduleNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.schedules().map(\.name) } }
    }
    static var groupNames: CompletionKind { .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.groups().map(\.name) } } }
}

enum LedgerNames {
    /// The names `read` gives for the ledger `words` point at, those starting with `prefix`
    /// (case-insensitive), sorted unless `sorted` is false; none when the ledger cannot be read.
    static func complete(_ words: [String], _ prefix: String, sorted: Bool = true, _ read: (Store) throws -> [String]) -> [String] {
        var global = GlobalOptions()
        global.file = value(in: words, after: ["-f", "--file"])
        global.db = value(in: words, after: ["--db"])
        guard let store = try? global.ledgerStore(writing: false), let names = try? read(store) else { return [] }
        let lowered = prefix.lowercased()
        let matching = names.filter { $0.lowercased().hasPrefix(lowered) }
        return sorted ? matching.sorted() : matching
    }

    /// The word after the last of `options` in `words`, if any.
    static func value(in words: [String], after options: Set<String>) -> String? {
        guard let index = words.lastIndex(where: options.contains), index + 1 < words.count else { return nil }
        return words[index + 1]
    }
}

/// The values `--format` takes, per command: a report's `table`, `json` and `csv` unless the
/// command says otherwise by conforming to `OutputFormats`.
protocol OutputFormats {
    /// The values this command's `--format` takes, in the order its help names them.
    static var formats: [String] { get }
}

/// What `command`'s `--format` takes: its own list, else a report's formats.
func outputFormats(of command: any ParsableCommand.Type) -> [String] {
    (command as? any OutputFormats.Type)?.formats ?? OutputFormat.allCases.map(\.rawValue)
}

extension Capital {
    /// The command a completion's words name (`capital -f x.yaml loan show …` names `loan show`):
    /// each word that is a subcommand of the command so far goes one level down.
    static func command(named words: [String]) -> any ParsableCommand.Type {
        var command: any ParsableCommand.Type = Capital.self
        for word in words.dropFirst() {
            guard
                let next = command.configuration.subcommands.first(where: {
                    ($0.configuration.commandName ?? "") == word || $0.configuration.aliases.contains(word)
                })
            else { continue }
            command = next
        }
        return command
    }
}
